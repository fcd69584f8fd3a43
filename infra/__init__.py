"""The AWS CDK app that deploys Memory-MCP (see docs/deploy.md)."""

"""CDK constructs and the Memory-MCP stack."""

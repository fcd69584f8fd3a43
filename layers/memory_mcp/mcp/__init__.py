"""The MCP surface: server factory, tools, resources and the context prompt."""

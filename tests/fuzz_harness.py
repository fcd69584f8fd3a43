"""The fuzz harness: ``Harness`` (sends each case over real HTTP and checks it), ``summary``, and
the server under fuzz (``fuzzing``)."""

from __future__ import annotations

import json
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from fuzz_checks import HarnessChecks
from fuzz_invariants import (
    Problem,
    Stats,
)
from fuzz_requests import Case
from fuzz_setup import (
    prepare,
    snapshot,
)
from fuzz_values import (
    ACCEPT,
    MAX_UPLOAD_BYTES,
    ROOT,
    Raw,
    Ref,
)
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.embeddings import Embedder
from memory_mcp.services.runtime import Runtime


class Harness(HarnessChecks):
    """Sends cases to the live server and checks every invariant; counts what it saw.

    ``snapshot`` reads the row counts (``fuzz_setup.snapshot()`` through the caller's event loop).
    ``strict``: raise AssertionError at the first problem (tests, so hypothesis shrinks it);
    otherwise count and keep going (the bench)."""

    # --- sending

    def _encode(self, body: Any, ascii_only: bool) -> bytes:
        if isinstance(body, bytes):
            return body
        raws: list[str] = []
        token = uuid.uuid4().hex

        def swap(value: Any) -> Any:
            if isinstance(value, Raw):
                raws.append(value.text)
                return f"@@{token}-{len(raws) - 1}@@"
            if isinstance(value, dict):
                return {str(k): swap(v) for k, v in value.items()}
            if isinstance(value, list | tuple):
                return [swap(v) for v in value]
            return value

        text = json.dumps(swap(body), ensure_ascii=ascii_only)
        for i, raw in enumerate(raws):
            text = text.replace(f'"@@{token}-{i}@@"', raw, 1)
        return text.encode("utf-8", "surrogatepass")

    def build(self, case: Case) -> httpx.Request:
        headers: dict[str, str] = {"Content-Type": "application/json", "Accept": ACCEPT}
        headers.update(self._auth(case.auth))
        for name, value in self.resolve(case.headers).items():
            if value is None:
                headers.pop(name, None)
                headers.pop(name.title(), None)
            else:
                headers[name] = value
        content: bytes | None
        if case.label == "PUT /uploads/local":
            headers.pop("Accept", None)
            assert isinstance(case.body, Ref)
            content = self._put_body(case.body.name)
        else:
            content = None if case.body is None else self._encode(self.resolve(case.body),
                                                                  case.ascii_only)
        path = self.resolve(case.path)
        if case.label == "PUT /uploads/local":
            path = "/uploads/local/" + str(path)
        query = "&".join(f"{_quote(str(k))}={_quote(_param(self.resolve(v)))}"
                         for k, v in case.params)
        # Header values must be latin-1 for the wire: what cannot be encoded goes out as UTF-8
        # bytes (what a hostile client would send).
        raw_headers = [(k.encode("latin-1", "replace"),
                        v.encode("utf-8", "surrogatepass").replace(b"\r", b"").replace(b"\n", b""))
                       for k, v in headers.items()]
        url = httpx.URL(self.setup.base_url + _quote_path(path) + (f"?{query}" if query else ""))
        return self.http.build_request(case.method, url, headers=raw_headers, content=content)

    def send(self, case: Case) -> list[Problem]:
        """Send one case and check it; count it; raise in strict mode if anything is wrong."""
        if case.label == "PUT /uploads/local":
            self._put_target()
        try:
            request = self.build(case)
        except (httpx.InvalidURL, UnicodeEncodeError, ValueError) as exc:
            # Not sendable over HTTP at all (the client refuses it): nothing reached the server.
            self.stats.outcomes[(case.label, f"unsendable ({type(exc).__name__})")] += 1
            return []
        sent = (request.content or b"").decode("utf-8", "replace") + " " + str(request.url)
        if case.chunked and request.content:
            data = request.content
            request = self.http.build_request(
                request.method, request.url,
                headers=[(k, v) for k, v in request.headers.raw if k.lower() != b"content-length"],
                content=_chunks(data))
        started = time.perf_counter()
        problems: list[Problem] = []
        response: httpx.Response | None = None
        try:
            response = self.http.send(request)
        except httpx.LocalProtocolError as exc:
            # The client library refuses to put this on the wire (e.g. an empty Host): nothing
            # reached the server.
            self.stats.outcomes[(case.label, f"unsendable ({type(exc).__name__})")] += 1
            return []
        except httpx.TimeoutException:
            problems.append(self._problem("hang", case, request, None, "no answer within the "
                                          "timeout"))
        except httpx.TransportError as exc:
            # The server closed the connection (uvicorn refusing a malformed request line or
            # oversized header does this): not a 5xx, but it must stay healthy (checked below).
            self.stats.outcomes[(case.label, f"connection closed ({type(exc).__name__})")] += 1
        self.stats.seconds[case.label] += time.perf_counter() - started
        self.stats.cases[case.label] += 1
        expected: dict[str, Counter[str]] = defaultdict(Counter)
        if response is not None:
            problems += self._check_answer(case, request, response, sent, expected)
        now = self.read_counts()
        problems += self._check_writes(case, request, response, expected, now)
        self.last = now
        if self.stats.cases[case.label] % self.health_every == 0 or problems or response is None:
            problems += self._check_health(case)
        for p in problems:
            self.stats.record(p)
        if problems and self.strict:
            raise AssertionError("\n".join(str(p) for p in problems))
        return problems


def _param(value: Any) -> str:
    return value.text if isinstance(value, Raw) else str(value)


def _quote_path(path: str) -> str:
    """Percent-encode what a URL path cannot carry raw (keeps ``%xx`` the case wrote)."""
    return quote(path.encode("utf-8", "surrogatepass"), safe="/%;:@!$&'()*+,=-._~")


def _quote(value: str) -> str:
    """A query component, percent-encoded from its UTF-8 bytes (a lone surrogate becomes the
    invalid UTF-8 a hostile client would send)."""
    return quote(value.encode("utf-8", "surrogatepass"), safe="")


def _chunks(data: bytes, size: int = 65536) -> Iterator[bytes]:
    for i in range(0, len(data), size):
        yield data[i:i + size]


def summary(stats: Stats, labels: Sequence[str]) -> list[str]:
    """Lines: cases per tool and route, with problems per kind (all must be 0)."""
    lines = [f"{'tool / route':<22}{'cases':>7}{'5xx':>6}{'unreadable':>12}{'partial':>9}"
             f"{'hang':>6}{'unhealthy':>11}{'s/case':>8}"]
    for label in labels:
        n = stats.cases[label]
        lines.append(
            f"{label:<22}{n:>7}{stats.count('5xx', label):>6}{stats.count('unreadable', label):>12}"
            f"{stats.count('partial_write', label):>9}{stats.count('hang', label):>6}"
            f"{stats.count('unhealthy', label):>11}{(stats.seconds[label] / n if n else 0):>8.3f}")
    return lines


# ------------------------------------------------------------------------------------------
# the server under fuzz


def fuzz_settings(database_url: str, port: int, data_dir: Path) -> Settings:
    """The product's settings, with a Host allow-list (so the Host guard is fuzzed too), a small
    upload bound (cheap to exceed) and no rate limits (thousands of calls a minute from one key
    are the point here; the limits have their own tests)."""
    return Settings(database_url=SecretStr(database_url), auto_migrate=True,
                    migrations_dir=ROOT / "migrations", pool_min_size=1, pool_max_size=6,
                    allowed_hosts=[f"127.0.0.1:{port}"], port=port, data_dir=data_dir,
                    max_upload_bytes=MAX_UPLOAD_BYTES, rate_limit_requests_per_minute=0,
                    rate_limit_writes_per_minute=0)


@contextmanager
def serve(settings: Settings) -> Iterator[str]:
    """The real app under uvicorn on ``settings.port`` in a thread; yields its base URL."""
    import threading

    import uvicorn

    from memory_mcp.http.app import create_app

    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1",
                                           port=settings.port, log_level="critical"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the fuzz server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{settings.port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def fuzzing(database_url: str, data_dir: Path, *, strict: bool,
            embedder: Embedder | None = None) -> Iterator[Harness]:
    """Server, event loop (a blocking portal: hypothesis drives cases synchronously), a runtime
    for the snapshots and the seed rows (``embedder``: an already loaded model to reuse), the
    setup, and the harness around them."""
    from anyio.from_thread import start_blocking_portal

    from memory_mcp.db.pool import open_pool
    from memory_mcp.embeddings import build_embedder
    from memory_mcp.services.startup import check_model

    settings = fuzz_settings(database_url, free_port(), data_dir)
    with serve(settings) as base_url, start_blocking_portal() as portal:

        async def open_runtime() -> Runtime:
            pool = await open_pool(settings, database_url)
            rt = Runtime(settings=settings, pool=pool,
                         embedder=embedder or build_embedder(settings))
            async with rt.transaction(system=True) as conn:
                await check_model(conn, rt.embedder)
            return rt

        rt = portal.call(open_runtime)
        try:
            setup = portal.call(prepare, rt, base_url)
            harness = Harness(setup, lambda: portal.call(snapshot, rt, setup), strict=strict)
            try:
                yield harness
            finally:
                harness.close()
        finally:
            portal.call(rt.pool.close)

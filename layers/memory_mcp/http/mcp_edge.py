"""Gaps of the MCP SDK's HTTP edge, closed before and after it, so every refusal is a JSON
message a person can act on: a ``tools/call`` whose ``arguments`` is not an object ("Invalid
request parameters" with no reason), a body that is not JSON-typed (plain text), a JSON-RPC
batch or a message with no method (pydantic's report, naming the SDK's classes), text with an
unpaired surrogate ("unexpected end of hex escape"), and refusals with an empty body (a 406 on
the 2026 wire).
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.types import Message, Receive, Send

#: Bodies above this are left to the SDK, which refuses them itself.
MAX_INSPECTED_BYTES = 4 * 1024 * 1024
_EMPTY_BODY_MESSAGES = {
    406: "Not Acceptable: send Accept: application/json, text/event-stream.",
    415: "Unsupported Media Type: send Content-Type: application/json.",
}


async def read_body(receive: Receive) -> tuple[bytes, Receive]:
    """The request body (up to the inspection bound), and a ``receive`` that replays it to the
    next app, followed by whatever of a larger body was not read yet."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if not message.get("more_body"):
            break
        if size > MAX_INSPECTED_BYTES:
            body = b"".join(chunks)
            return body, _replay(body, receive)
    body = b"".join(chunks)
    return body, _replay(body, None)


def _replay(body: bytes, then: Receive | None) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": then is not None}
        if then is not None:
            return await then()
        return {"type": "http.disconnect"}

    return replay


#: A JSON escape of a UTF-16 surrogate (backslash, u, D800-DFFF): only then is the body
#: checked for unpaired ones.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _error(code: int, message: str, request_id: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def request_problem(body: bytes, content_type: str | None) -> tuple[int, dict[str, Any]] | None:
    """HTTP status and JSON-RPC error for a POST the SDK would refuse unreadably; else None."""
    media = [part.split(";", 1)[0].strip().lower() for part in (content_type or "").split(",")]
    if content_type and "application/json" not in media:  # none at all: the SDK decides (the
        got = ", ".join(m for m in media if m)              # 2026 era accepts it)
        return 415, _error(-32600, f"Invalid Request: send Content-Type: application/json (got "
                                   f"{got!r}).")
    try:
        request = json.loads(body)
    except (ValueError, RecursionError):  # malformed or absurdly deep: the SDK answers it
        return None
    if isinstance(request, list):
        return 400, _error(-32600, "Invalid Request: JSON-RPC batches are not supported; send "
                                   "one message per POST.")
    if not isinstance(request, dict):
        return 400, _error(-32600, "Invalid Request: the body must be one JSON-RPC message (a "
                                   "JSON object).")
    request_id = request.get("id") if isinstance(request.get("id"), str | int) else None
    if not any(k in request for k in ("method", "result", "error")):
        return 400, _error(-32600, 'Invalid Request: a JSON-RPC request needs a "method" (and '
                                   '"jsonrpc": "2.0", and an "id" unless it is a notification).',
                           request_id)
    if _SURROGATE_ESCAPE.search(body):
        try:
            json.dumps(request, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            return 400, _error(-32700, "Parse error: the text holds an unpaired UTF-16 surrogate "
                                       "escape (such as \\ud800 without its pair); send valid "
                                       "Unicode.", request_id)
    problem = arguments_problem(request)
    return (200, problem) if problem is not None else None


def arguments_problem(request: dict[str, Any]) -> dict[str, Any] | None:
    """A JSON-RPC error for ``tools/call`` with non-object ``arguments``; else None."""
    if request.get("method") != "tools/call":
        return None
    params = request.get("params")
    if not isinstance(params, dict) or "arguments" not in params:
        return None
    arguments = params["arguments"]
    if arguments is None or isinstance(arguments, dict):
        return None
    kind = {list: "an array", str: "a string", bool: "a boolean", int: "a number",
            float: "a number"}.get(type(arguments), "not an object")
    return {"jsonrpc": "2.0", "id": request.get("id"),
            "error": {"code": -32602, "message": "Invalid params: tools/call arguments must be "
                                                 f"a JSON object, got {kind}."}}


def readable_errors(send: Send) -> Send:
    """Give a 4xx from the SDK that is empty or plain text ("Invalid Content-Type header") a
    JSON message saying what to change."""
    pending: Message | None = None

    async def wrapped(message: Message) -> None:
        nonlocal pending
        if message["type"] == "http.response.start" and 400 <= message["status"] < 500 \
                and not _is_json(message):
            pending = message
            return
        if pending is not None and message["type"] == "http.response.body":
            start, pending = pending, None
            text = bytes(message.get("body") or b"").decode("utf-8", "replace").strip()
            said = _EMPTY_BODY_MESSAGES.get(start["status"]) if not text else text[:300]
            if said and not message.get("more_body"):
                body = json.dumps({"error": "bad_request", "message": said}).encode()
                headers = [(k, v) for k, v in start.get("headers", [])
                           if k.lower() not in (b"content-length", b"content-type")]
                headers += [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]
                await send({**start, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
            await send(start)
        await send(message)

    return wrapped


def _is_json(start: Message) -> bool:
    return any(k.lower() == b"content-type" and v.lower().startswith(b"application/json")
               for k, v in start.get("headers", []))

"""Two gaps of the MCP SDK's HTTP edge, closed before and after it: a ``tools/call`` whose
``arguments`` is not an object gets "Invalid request parameters" with no reason, and some
refusals (a 406 on the 2026 wire) have an empty body. Both become messages a person can act on.
"""

from __future__ import annotations

import json
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


def arguments_problem(body: bytes) -> dict[str, Any] | None:
    """A JSON-RPC error for ``tools/call`` with non-object ``arguments``; else None."""
    try:
        request = json.loads(body)
    except (ValueError, RecursionError):  # malformed or absurdly deep: the SDK answers it
        return None
    if not isinstance(request, dict) or request.get("method") != "tools/call":
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
    """Give an empty-bodied 4xx from the SDK a JSON message saying what to change."""
    pending: Message | None = None

    async def wrapped(message: Message) -> None:
        nonlocal pending
        if message["type"] == "http.response.start" and message["status"] in _EMPTY_BODY_MESSAGES:
            pending = message
            return
        if pending is not None and message["type"] == "http.response.body":
            start, pending = pending, None
            if not message.get("body") and not message.get("more_body"):
                body = json.dumps({"error": "bad_request",
                                   "message": _EMPTY_BODY_MESSAGES[start["status"]]}).encode()
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

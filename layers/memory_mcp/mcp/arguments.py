"""Tool arguments that do not fit the schema, told in a sentence a model can act on.

The SDK reports them as pydantic's own text: "1 validation error for add_memoryArguments /
content / Field required [type=missing, input_value={...}, input_type=dict] / For further
information visit https://errors.pydantic.dev/...": the caller's whole arguments echoed, a
class name it never sent and a link it cannot use. This says which argument and what to send.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BeforeValidator, ValidationError

#: Longest rejected value quoted back (arguments can be whole documents).
MAX_QUOTED_CHARS = 60


def _no_bool(value: Any) -> Any:
    """JSON true/false is not a number: pydantic's lax int read ``limit: true`` as 1. A number
    sent as a string ("10") is still read, as models sometimes send them."""
    if isinstance(value, bool):
        raise ValueError("must be a number, not true or false")
    return value


#: For a tool's integer arguments: ``Annotated[int, NO_BOOL, Field(...)]``.
NO_BOOL = BeforeValidator(_no_bool)


def readable(tool: str, exc: ValidationError) -> str:
    """"Invalid arguments for add_memory: content is required; action must be 'save' or
    'forget' (got 'FORGET')." — one clause per rejected argument, in the schema's words."""
    problems = [_problem(err) for err in exc.errors(include_url=False)]
    return f"Invalid arguments for {tool}: {'; '.join(dict.fromkeys(problems))}."


def _problem(err: Any) -> str:
    where = ".".join(str(part) for part in err["loc"]) or "arguments"
    kind = err["type"]
    if kind == "missing":
        return f"{where} is required"
    if kind == "extra_forbidden":
        return f"{where} is not an argument of this tool"
    if kind == "literal_error":
        expected = err.get("ctx", {}).get("expected", "")
        return f"{where} must be {expected} (got {_quote(err.get('input'))})"
    message = str(err["msg"]).removeprefix("Value error, ")
    return f"{where}: {message[:1].lower()}{message[1:]} (got {_quote(err.get('input'))})"


def _quote(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= MAX_QUOTED_CHARS else text[: MAX_QUOTED_CHARS - 1] + "…"


def lenient(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Arguments a model plausibly sends that the schema would refuse for no good reason.

    add_memory's description tells a model to confirm with the user "then forget by memoryId";
    models then send ``{"action": "forget", "memoryId": …}`` without ``content``, which the
    schema requires (the spec's signature) although a forget by id needs none: the content is
    only the reason recorded. Read that as an empty reason instead of refusing the call."""
    if (tool == "add_memory" and isinstance(arguments, dict) and "content" not in arguments
            and arguments.get("memoryId") and arguments.get("action") == "forget"):
        return {**arguments, "content": ""}
    return arguments


def refuse_unknown(tool: str, arguments: dict[str, Any], schema: dict[str, Any]) -> None:
    """An argument the tool does not take is refused, naming the ones it does: ignoring it acts
    on something the caller did not mean (``space`` for ``containerTag`` wrote to the active
    space; a misspelt ``categroy`` saved without a category)."""
    accepted = set(schema.get("properties", {}))
    unknown = sorted(set(arguments) - accepted)
    if unknown:
        names = ", ".join(_quote(u) for u in unknown)
        verb = "is not an argument" if len(unknown) == 1 else "are not arguments"
        takes = ", ".join(sorted(accepted)) if accepted else "no arguments"
        raise ToolError(f"Invalid arguments for {tool}: {names} {verb} of this tool "
                        f"(it takes {takes}). Nothing was done.")

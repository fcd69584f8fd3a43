"""Fuzz cases for every tool and HTTP route, shared by ``tests/test_fuzz.py`` (a seeded slice
under ``make test``) and ``bench/fuzz.py`` (the full count). This module re-exports the public
names of the modules that hold them.

Three parts:

* **strategies** (hypothesis; ``fuzz_values``, ``fuzz_requests``, ``fuzz_routes``): hostile
  values (wrong types, huge strings, emoji, RTL, combining marks, NUL, lone surrogates, numbers
  at and past every bound, deep nesting, raw JSON fragments such as ``NaN``), tool arguments
  built from each tool's ``inputSchema`` as ``tools/list`` publishes it, JSON-RPC envelopes
  (batches, notifications, malformed JSON, both protocol eras), headers, and the ``/uploads``,
  ``/uploads/local/{id}``, ``/healthz`` and unknown routes;
* **setup** (``fuzz_setup``): the users, keys and spaces the cases act on (``prepare``), and a
  snapshot of the rows in those spaces read through ``runtime.transaction(system=True)``
  (``snapshot``);
* **the harness** (``fuzz_invariants``, ``fuzz_checks``, ``fuzz_harness``): sends each case over
  real HTTP (raw bytes through ``httpx``, so lone surrogates go out as JSON escapes and invalid
  UTF-8 as bytes) and checks the invariants — never an HTTP 5xx, every error a readable message
  (non-empty, no traceback, SQL, driver names or keys, no echo of a huge input), no partial
  write (the rows of every space change exactly as the answer says: a refused call changes
  nothing, a save adds one row or none), no hang, and a healthy server afterwards.

Values that name real things (the fuzzed space, a memory id, a signed upload URL) are written as
``Ref`` placeholders and resolved by the harness when the case is sent, so a case also reaches
the code behind successful lookups.
"""

from __future__ import annotations

from fuzz_harness import Harness, free_port, fuzz_settings, fuzzing, serve, summary
from fuzz_invariants import Problem, Stats, unreadable
from fuzz_requests import Case, modern_headers, rpc_messages, tool_call, tool_cases
from fuzz_routes import mcp_route_cases, other_route_cases, put_cases, upload_cases
from fuzz_setup import Setup, Snapshot, prepare, snapshot
from fuzz_values import (
    MISSING,
    MODERN_VERSION,
    ROUTES,
    TOOLS,
    Missing,
    Raw,
    Ref,
    any_json,
    arguments_for,
    hostile_text,
)

__all__ = [
    "MISSING", "MODERN_VERSION", "ROUTES", "TOOLS", "Case", "Harness", "Missing", "Problem",
    "Raw", "Ref", "Setup", "Snapshot", "Stats", "any_json", "arguments_for", "free_port",
    "fuzz_settings", "fuzzing", "hostile_text", "mcp_route_cases", "modern_headers",
    "other_route_cases", "prepare", "put_cases", "rpc_messages", "serve", "snapshot", "summary",
    "tool_call", "tool_cases", "unreadable", "upload_cases",
]

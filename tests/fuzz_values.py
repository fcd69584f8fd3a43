"""Fuzz values: the constants, ``Raw``/``Ref`` placeholders, hostile values (wrong types, huge
strings, emoji, RTL, combining marks, NUL, lone surrogates, numbers at and past every bound,
deep nesting, raw JSON fragments) and tool arguments built from each tool's ``inputSchema``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

#: Every tool ``tools/list`` must publish (a new tool must be added here, and so fuzzed).
TOOLS = ("search_memory", "add_memory", "listDocuments", "getDocument", "deleteDocument",
         "listMemories", "listSpaces", "whoAmI", "select-space", "guided-save", "upload-file",
         "upload-start", "upload-status", "memory-graph")
#: The HTTP routes fuzzed besides the tools (stats labels).
ROUTES = ("POST /mcp", "POST /uploads", "PUT /uploads/local", "GET /healthz", "other routes")

MODERN_VERSION = "2026-07-28"
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
ACCEPT = "application/json, text/event-stream"
#: Upload bound the fuzz server runs with (small, so "over the limit" is cheap to send).
MAX_UPLOAD_BYTES = 256 * 1024
#: An error longer than this echoes the input (or a stack): not a message a person reads.
MAX_MESSAGE_CHARS = 4000
ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------------------------------
# values


@dataclass(frozen=True)
class Raw:
    """A JSON fragment spliced verbatim into the body: deep nesting, ``NaN``, ``1e999``, ..."""

    text: str

    def __repr__(self) -> str:
        return f"Raw({self.text[:40]!r}{'…' if len(self.text) > 40 else ''} len={len(self.text)})"


@dataclass(frozen=True)
class Ref:
    """A placeholder resolved when the case is sent: a real space key, id or upload field.

    ``style`` reshapes the resolved string (``upper``, ``braced``, ``padded``, ``urn``, ...)."""

    name: str
    style: str = ""


class Missing:
    """The ``arguments`` member left out altogether."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING = Missing()

NASTY_CHARS = ["\x00", "\ud800", "\udbff", "\udc00", "\udfff", "\u202e", "\u200b", "\ufeff",
               "\u0301", "\uffff", "\U0010ffff", "😀", "👩\u200d👩\u200d👧", "\r\n", "\t", "\\",
               '"', "'", "%", "_", "\x7f", "\x1b[31m", "ﷺ", "\u0000\u0000"]
SPECIAL_TEXT = [
    "", " ", "\t\n ", "\x00", "a\x00b", "\ud800", "\udfff", "a\ud800b", "\ud83d\ude00x",
    "😀" * 10, "👩\u200d👩\u200d👧\u200d👦 family", "\u202eevil.md", "مرحبا بالعالم", "שלום עולם",
    "e\u0301\u0301\u0301\u0301\u0301", "Z\u0351\u0352\u0353\u0354\u0355\u0356", "\u200b\u200b",
    "\ufeffbom", "\U0010ffff", "null", "None", "undefined", "true", "0", "-1", "NaN",
    "'; DROP TABLE memories; --", "' OR '1'='1", "%", "_", "\\", "%%__\\\\", "{0}{1}", "%s%n%x",
    "${jndi:ldap://x/a}", "<script>alert(1)</script>", "../../../etc/passwd", "\r\nX-Injected: 1",
    "ui://memory-mcp/select-space.html", "mm_0123456789_" + "A" * 43, "Bearer x",
    "00000000-0000-0000-0000-000000000000", "{12345678-1234-1234-1234-123456789abc}",
    " 12345678123412341234123456789ABC ", "urn:uuid:12345678-1234-1234-1234-123456789abc",
    "12345678-1234-1234-1234-123456789abcd", "g2345678-1234-1234-1234-123456789abc",
]
WORDS = ["we", "deploy", "on", "friday", "the", "team", "prefers", "tabs", "over", "spaces",
         "postgres", "backups", "run", "nightly", "release", "v2.3", "staging", "is", "not",
         "on-call", "rotates", "weekly", "Alice", "owns", "billing", "2024-05-01", "never",
         "always", "use", "ruff", "café", "東京", "😀"]
SEED_FACTS = ["The team deploys to production on Fridays.",
              "Postgres backups run nightly at 02:00 UTC.",
              "Alice owns the billing service.",
              "We prefer tabs over spaces in Makefiles."]


def weighted(*options: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """``one_of`` with integer weights (hypothesis shrinks toward the first option)."""
    slots = [i for i, (w, _) in enumerate(options) for _ in range(w)]
    return st.sampled_from(slots).flatmap(lambda i: options[i][1])


surrogates = st.integers(0xD800, 0xDFFF).map(chr)
sentences = st.lists(st.sampled_from(WORDS), min_size=1, max_size=14).map(" ".join)
mixed_text = st.lists(st.one_of(st.text(max_size=6), st.sampled_from(NASTY_CHARS), surrogates,
                                st.sampled_from(WORDS)), max_size=10).map("".join)


def _repeat(unit: str, n: int) -> str:
    return (unit * (n // len(unit) + 1))[:n]


#: Strings of 64 characters to 1 MB (cheap to draw: one unit repeated).
huge_text = st.builds(_repeat, st.sampled_from(["a", "word ", "é", "😀", "\u202e", "e\u0301", "\x00",
                                                "\ud800", "ab\x00", " "]),
                      st.sampled_from([64, 65, 256, 4097, 100_000, 100_001, 250_000, 1_000_000]))
hostile_text = weighted((4, st.sampled_from(SPECIAL_TEXT)), (3, mixed_text), (2, st.text(max_size=40)),
                        (1, huge_text))

INTS = [0, 1, -1, 2, 9, 10, 11, 49, 50, 51, 100, 999_999, 1_000_000, 1_000_001, 2**31 - 1, 2**31,
        -(2**31), 2**53 + 1, 2**63 - 1, 2**63, 2**64, -(2**63), -(2**63) - 1, 10**30, -(10**30),
        MAX_UPLOAD_BYTES, MAX_UPLOAD_BYTES + 1, 26_214_400, 26_214_401]
FLOATS = [0.0, -0.0, 1.0, 1.5, 10.0, 50.0, 50.5, 1e308, -1e308, 1e-308, 2.0**63,
          float("nan"), float("inf"), float("-inf")]
RAW_NUMBERS = ["1e999", "-1e999", "1E2", "-0", "0.0000000000000000000001", "1" * 400,
               "1" * 5000, "10" + "0" * 4400, "NaN", "Infinity", "-Infinity", "0x10", "01",
               "+1", ".5", "1.", "1e", "--1"]
numbers = weighted((4, st.sampled_from(INTS)), (2, st.integers()), (2, st.sampled_from(FLOATS)),
                   (1, st.floats()), (1, st.sampled_from(RAW_NUMBERS).map(Raw)))


def _nested(opening: str, closing: str, depth: int) -> Raw:
    return Raw(opening * depth + closing * depth)


deep = st.one_of(
    st.builds(_nested, st.just("["), st.just("]"),
              st.sampled_from([10, 64, 128, 255, 256, 1000, 5000, 100_000])),
    st.sampled_from([10, 64, 256, 1000, 5000, 100_000]).map(
        lambda n: Raw('{"a":' * n + "1" + "}" * n)),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, hostile_text.filter(lambda s: len(s) < 300))
any_json: st.SearchStrategy[Any] = weighted(
    (9, st.recursive(scalars, lambda kids: st.one_of(
        st.lists(kids, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=8), st.sampled_from(SPECIAL_TEXT)), kids,
                        max_size=4)), max_leaves=10)),
    (1, deep))
extra_keys = st.one_of(st.sampled_from(["__proto__", "constructor", "_meta", "id", "extra", "",
                                        "x" * 1000, "\x00", "\ud800", "containerTag ",
                                        "ContainerTag", "CONTENT", "arguments", "$ref"]),
                       st.text(max_size=12))


def refs(*names: str) -> st.SearchStrategy[Ref]:
    styles = st.sampled_from(["", "", "", "", "", "", "upper", "padded", "braced", "urn", "hex",
                              "trailing", "prefix", "double"])
    return st.builds(Ref, st.sampled_from(names), styles)


SPACE_TAGS = weighted(
    (8, st.just(Ref("fuzz"))),
    (3, st.none()),
    (2, st.just(Ref("ro"))),
    (1, st.builds(Ref, st.sampled_from(["foreign", "put", "none"]))),
    (2, st.builds(Ref, st.sampled_from(["fuzz", "ro"]),
                  st.sampled_from(["padded", "upper", "double", "prefix"]))),
    (1, st.sampled_from(["", " ", "nope-space", "x" * 63, "x" * 64, "S-" + "a" * 61])),
    (2, hostile_text),
)
ID_REFS = ("fuzz_mem", "fuzz_doc", "fuzz_mem", "fuzz_doc", "fuzz_mem_old", "fuzz_doc_done",
           "ro_mem", "ro_doc", "foreign_mem", "foreign_doc", "uuid")
CATEGORIES = [None, "decision", "preference", "convention", "Decision ", "a/b:c-d_e.f",
              "x" * 64, "x" * 65, "Not Valid!", "ünïcode", " ", "-lead", "UPPER", "tab\tsep"]
FILENAMES = ["notes.md", "a.pdf", "x.txt", "data.csv", "pic.png", "talk.mp3", "clip.mp4",
             "doc.docx", "noext", ".md", "a.exe", "a" * 252 + ".md", "a" * 253 + ".md",
             "../../x.md", "con.md", "a\\b.md", "ø.md", "a.MD", "a.md.exe", "a b.md"]
CONTENT_TYPES = ["text/markdown", "text/plain", "application/pdf", "image/png", "text/csv",
                 "audio/mpeg", "video/mp4",
                 "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                 "application/x-msdownload", "text/markdown; charset=utf-8", "TEXT/MARKDOWN",
                 "", "text/", "*/*", "text/markdown\r\nX: y", "application/octet-stream"]

#: Realistic values for the fields every tool shares, so cases reach the code behind
#: successful validation and lookups too (hostile and wrong-typed values are added to each).
GOOD: dict[str, st.SearchStrategy[Any]] = {
    "content": st.one_of(sentences, st.sampled_from(SEED_FACTS),
                         st.sampled_from(SEED_FACTS).map(lambda s: s.replace(".", " again."))),
    "query": sentences,
    "keyword": st.sampled_from(WORDS),
    "category": weighted((3, st.sampled_from(CATEGORIES[:4])), (1, st.sampled_from(CATEGORIES))),
    "containerTag": SPACE_TAGS,
    "documentId": refs(*ID_REFS),
    "memoryId": weighted((2, refs(*ID_REFS)), (1, st.none())),
    "filename": weighted((2, st.sampled_from(FILENAMES[:8])), (1, st.sampled_from(FILENAMES))),
    "contentType": weighted((2, st.sampled_from(CONTENT_TYPES[:7])),
                            (1, st.sampled_from(CONTENT_TYPES))),
    "size": st.sampled_from([1, 10, 1024, MAX_UPLOAD_BYTES, MAX_UPLOAD_BYTES + 1, 0, -1]),
    "page": st.sampled_from([1, 2, 3, 0, -1, 1_000_000, 1_000_001]),
    "limit": st.sampled_from([1, 10, 50, 51, 0, -1, None]),
    "action": weighted((8, st.sampled_from(["save", "forget"])),
                       (1, st.sampled_from(["Forget", "delete", "", "save "]))),
}


def _types(prop: Mapping[str, Any]) -> set[str]:
    found = {prop["type"]} if isinstance(prop.get("type"), str) else set(prop.get("type") or [])
    for alt in prop.get("anyOf", []):
        found |= _types(alt)
    return found


def typed_hostile(types: set[str]) -> st.SearchStrategy[Any]:
    """Values of the right JSON type that are still wrong (bounds, unicode, NUL, size)."""
    options: list[st.SearchStrategy[Any]] = []
    if "string" in types:
        options.append(hostile_text)
    if "integer" in types or "number" in types:
        options.append(numbers)
    if "boolean" in types:
        options.append(st.sampled_from([True, False, "true", "false", 1, 0, "yes", ""]))
    if "null" in types:
        options.append(st.none())
    return st.one_of(options) if options else any_json


def field_value(name: str, prop: Mapping[str, Any]) -> st.SearchStrategy[Any]:
    types = _types(prop)
    good: st.SearchStrategy[Any]
    if name in GOOD:
        good = GOOD[name]
    elif "enum" in prop:
        good = st.sampled_from(list(prop["enum"]))
    elif "boolean" in types:
        good = st.booleans()
    elif "integer" in types:
        good = st.integers(-2, 60)
    else:
        good = sentences
    return weighted((7, good), (2, typed_hostile(types)), (1, any_json))


def good_value(name: str, prop: Mapping[str, Any]) -> st.SearchStrategy[Any]:
    types = _types(prop)
    if name in GOOD:
        return GOOD[name]
    if "enum" in prop:
        return st.sampled_from(list(prop["enum"]))
    if "boolean" in types:
        return st.booleans()
    if "integer" in types:
        return st.integers(1, 50)
    return sentences


def arguments_for(schema: Mapping[str, Any]) -> st.SearchStrategy[Any]:
    """Arguments for one tool: mostly objects over its own fields (required ones sometimes
    missing, extra ones sometimes added), sometimes not an object at all or absent."""
    props: Mapping[str, Any] = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    values = {name: field_value(name, prop) for name, prop in props.items()}
    goods = {name: good_value(name, prop) for name, prop in props.items()}
    plausible = st.fixed_dictionaries({k: v for k, v in goods.items() if k in required},
                                      optional={k: v for k, v in goods.items()
                                                if k not in required})
    complete = st.fixed_dictionaries({k: v for k, v in values.items() if k in required},
                                     optional={k: v for k, v in values.items()
                                               if k not in required})
    partial = st.fixed_dictionaries({}, optional=values)
    extras = st.dictionaries(extra_keys, any_json, min_size=1, max_size=3)
    with_extras = st.builds(lambda a, b: {**b, **a}, st.one_of(complete, partial), extras)
    not_object = st.one_of(st.just(MISSING), st.none(), st.lists(any_json, max_size=3),
                           hostile_text.filter(lambda s: len(s) < 300), numbers, deep)
    return weighted((3, plausible), (4, complete), (1, partial), (1, with_extras), (1, not_object))

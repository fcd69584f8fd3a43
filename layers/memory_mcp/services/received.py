"""Who sends the message: "clients **get a text** through PetsApp" / "clients **text** us
through PetsApp", "parents **get a text** from the centre" / "parents **text** the centre"
(the twentieth and hundred-and-second sets).

The same people and the same medium, once as the ones a message reaches and once as the
ones sending it: the word sets see one noun used as a verb, and the direction rules read
prepositions and passives, not "get a …".
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.stems import content_word, stem

#: Messages one can get and, as a verb, send.
_MEDIA = frozenset(["text", "email", "call", "message", "phone", "ring", "page", "fax"])
#: Verbs of getting a message.
_GET = frozenset(["get", "gets", "got", "receive", "receives", "received"])


def got_or_sent(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the same word stands before "get(s) a <medium>" in one
    text and before the medium as its verb ("texts", "email") in the other. Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        for who, medium in _getters(x):
            sent = _senders(y, medium)
            if who in sent:
                found = f"{who} get a {medium}", f"{who} {medium}"
                return (found[1], found[0]) if flip else found
    return None


def _getters(f: Facets) -> list[tuple[str, str]]:
    """(the getter's stem, the medium) for each "<word> gets a <medium>"."""
    toks = f.tokens
    return [(stem(toks[i - 1]), toks[i + 2]) for i in range(1, len(toks) - 2)
            if toks[i] in _GET and toks[i + 1] in ("a", "an") and toks[i + 2] in _MEDIA
            and content_word(toks[i - 1])]


def _senders(f: Facets, medium: str) -> set[str]:
    """The stems of the words right before ``medium`` used as a verb ("parents **text**")."""
    toks = f.tokens
    return {stem(toks[i - 1]) for i in range(1, len(toks) - 1)
            if toks[i] in (medium, medium + "s", medium + "es") and content_word(toks[i - 1])
            and toks[i + 1] not in ("a", "an") and toks[i - 1] not in _GET}


#: Verbs of fetching a thing from where it is kept.
_COLLECT = frozenset(["collect", "collects", "collected", "fetch", "fetches", "fetched"])
#: Verbs of taking a thing somewhere oneself.
_TAKE = frozenset(["take", "takes", "took", "drive", "drives", "drove", "bring", "brings",
                   "brought", "deliver", "delivers", "delivered", "haul", "hauls", "run",
                   "runs", "ship", "ships"])
#: Words between a taking verb and its "to": its thing ("drive **the scrap springs from Bay 6
#: over** to Fenwick Metals").
_TAKE_REACH = 8


def taken_or_collected(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text takes a thing "to" someone who, in the other,
    collects it: "we **drive** the scrap springs … **to Fenwick** Metals" / "**Fenwick**
    Metals **collects** them every Thursday" (the hundred-and-sixty-fifth set), "we **take**
    the waste cooking oil **to Olleco**'s depot" / "**Olleco collects** the waste cooking oil"
    (the hundredth). The one who carries it changed. Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        if _COLLECT & set(x.tokens):
            continue
        fetchers = {stem(w) for i, t in enumerate(y.tokens) if t in _COLLECT
                    for w in _doer_words(y.tokens, i)}
        for who in _taken_to(x.tokens):
            if who in fetchers:
                found = f"taken to {who}", f"{who} collects"
                return (found[1], found[0]) if flip else found
    return None


def _taken_to(toks: tuple[str, ...]) -> set[str]:
    """The stems of the first content word after each "to" a taking verb opens."""
    out: set[str] = set()
    for i, t in enumerate(toks):
        if t not in _TAKE:
            continue
        for j in range(i + 1, min(len(toks) - 1, i + _TAKE_REACH + 1)):
            if toks[j] == "to":
                out |= _named_after(toks, j)
                break
    return out


def _doer_words(toks: tuple[str, ...], i: int) -> list[str]:
    """The content words, three at most, right before the verb at ``i`` ("**Fenwick Metals**
    collects")."""
    out: list[str] = []
    for k in range(i - 1, max(-1, i - 4), -1):
        if not content_word(toks[k]):
            break
        out.append(toks[k])
    return out


#: Verbs of getting a thing, and of sending one.
_RECEIVE = frozenset(["receive", "receives", "received", "receiving"])
_SHIP = frozenset(["ship", "ships", "shipped", "send", "sends", "sent", "deliver", "delivers",
                   "delivered", "dispatch", "dispatches", "dispatched"])
#: Verbs of handing a thing on "with" or "to" someone: "**shares** data **with** the DWP" /
#: "**receives** data **from** the DWP" (the 520th set).
_SHARE = frozenset(["share", "shares", "shared", "pass", "passes", "passed", "give", "gives",
                    "gave", "provide", "provides", "provided", "supply", "supplies",
                    "supplied", "forward", "forwards", "forwarded"])


def received_or_shipped(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text receives a thing "from" someone it ships "to" or
    "for" in the other: "we **receive** harness W-719 **from Vantor** Trucks" / "harness W-719
    **for Vantor** Trucks **ships** every Tuesday" (the hundred-and-seventy-first set). Else
    None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        if (_SHIP | _SHARE) & set(x.tokens) or _RECEIVE & set(y.tokens):
            continue  # a text saying both ways: the reversed-route rules read it
        sources = _after_verb(x.tokens, _RECEIVE, ("from",))
        given = _after_verb(y.tokens, _SHIP, ("to", "for"), back=True) \
            | _after_verb(y.tokens, _SHARE, ("with", "to"))
        for who in sorted(sources & given):
            found = f"received from {who}", f"shipped for {who}"
            return (found[1], found[0]) if flip else found
    return None


def _after_verb(toks: tuple[str, ...], verbs: frozenset[str], marks: tuple[str, ...],
                back: bool = False) -> set[str]:
    """The stems of the first content word after each of ``marks`` within ``_TAKE_REACH``
    words of one of ``verbs`` (after it, or, with ``back``, before it as well: "harness W-719
    **for** Vantor Trucks **ships**")."""
    out: set[str] = set()
    for i, t in enumerate(toks):
        if t not in verbs:
            continue
        span = range(max(0, i - _TAKE_REACH) if back else i + 1, min(len(toks) - 1,
                                                                     i + _TAKE_REACH + 1))
        for j in span:
            if toks[j] in marks:
                out |= _named_after(toks, j)
    return out


def _named_after(toks: tuple[str, ...], j: int) -> set[str]:
    """The stem of the content word after the word at ``j``, past one article ("to **the**
    Olleco depot"), as a set of one; empty when no content word follows."""
    nxt = toks[j + 1] if toks[j + 1] not in ("the", "a", "an", "our") else (
        toks[j + 2] if j + 2 < len(toks) else "")
    return {stem(nxt)} if content_word(nxt) else set()

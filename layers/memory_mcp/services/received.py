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

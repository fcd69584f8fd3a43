"""Before a thing happens or when it has: "spraying is only done … **before** the fronds have
unfurled" / "… **when** the fronds are fully unfurled" (the 415th set).

The same event after "before" in one text and after "when", "once" or "after" in the other:
one act at two moments. The opposite-word rule pairs "before" with "after" only; "when" is no
opposite of "before", yet "before the fronds unfurl" is never "when they have".
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.stems import content_word, stem

_AT = frozenset(["when", "once", "after", "whenever"])
_REACH = 5  # words of the event: "the fronds are fully **unfurled**"
_SHARED = 2  # words of the event both say: a thing and its verb


def before_or_when(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("before … unfurled", "when … unfurled") where one text puts a clause's event after
    "before" and the other the same event (two content words of it) after "when", "once" or
    "after", neither text saying the other's word. Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        if set(x.tokens) & _AT & set(y.tokens) or "before" in y.tokens:
            continue
        for i, t in enumerate(x.tokens):
            if t != "before":
                continue
            event = {stem(w) for w in x.tokens[i + 1:i + 1 + _REACH] if content_word(w)}
            for j, u in enumerate(y.tokens):
                if u not in _AT:
                    continue
                theirs = {stem(w) for w in y.tokens[j + 1:j + 1 + _REACH] if content_word(w)}
                if len(event & theirs) >= _SHARED:
                    found = "before " + " ".join(x.tokens[i + 1:i + 4]), \
                        f"{u} " + " ".join(y.tokens[j + 1:j + 4])
                    return (found[1], found[0]) if flip else found
    return None

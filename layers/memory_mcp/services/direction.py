"""Which way something goes: "pushed **from** MLflow **to** the S3 bucket" is not "pushed from
the S3 bucket to MLflow", though both texts hold the same words.

Found by a fourth forget set written apart from the rules (bench/data/forget_blind.json): all
five of its "direction" near misses were forgotten in place of the stored fact, because every
other rule compares what a text contains, and a swapped route contains the same names. This one
reads the place each word takes: where a thing goes ("to", "into"), and where it comes from or
who acts on it ("from", "by": "approval **from** Tomasz" and "approved **by** Tomasz" are one
role). A word that is the destination in one text and the source in the other is another fact.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets, content_word, stem

_TO = frozenset(["to", "into", "onto", "towards", "toward"])
_FROM = frozenset(["from", "by"])
#: Verbs that say one move from either end ("finance **sends** the invoices to customers" /
#: "customers **receive** the invoices from finance"), by stem.
_SENDS = frozenset(["send", "ship", "give", "sell", "lend", "forward", "deliv", "pay", "provid",
                    "offer", "issu", "hand", "pass", "push", "upload", "export"])
_RECEIVES = frozenset(["receiv", "buy", "borrow", "accept", "collect", "obtain", "fetch",
                       "pull", "download", "import"])
#: How far after its preposition the word of a place may stand ("to **the** platform ...").
_REACH = 4


def _places(f: Facets) -> tuple[dict[str, set[str]], list[tuple[str, str]]]:
    """Stem → the roles ("to", "from") it takes in the text; and (the stem before "to", the
    stem after it) for each "<noun> to <noun>" ("escalations to support")."""
    roles: dict[str, set[str]] = {}
    routes: list[tuple[str, str]] = []
    toks = f.tokens
    for i, word in enumerate(toks):
        role = "to" if word in _TO else "from" if word in _FROM else None
        if role is None:
            continue
        target = next((t for t in toks[i + 1:i + 1 + _REACH] if content_word(t)), None)
        if target is None:
            continue
        roles.setdefault(stem(target), set()).add(role)
        before = next((t for t in reversed(toks[max(0, i - 3):i]) if content_word(t)), None)
        if role == "to" and before is not None:
            routes.append((stem(before), stem(target)))
    return roles, routes


def reversed_route(a: Facets, b: Facets) -> tuple[str, str] | None:
    """A word one text sends *to* and the other takes *from* (or has act, "by"), or — when
    the two texts share no converse verbs ("sends" / "receives", which swap the places and
    keep the fact) — the same thing sent to two different places that both texts name
    ("escalations **to support**" / "escalations **to the platform** team"). Returns the
    word with each text's role, or None."""
    roles_a, routes_a = _places(a)
    roles_b, routes_b = _places(b)
    for word in sorted(roles_a.keys() & roles_b.keys()):
        ra, rb = roles_a[word], roles_b[word]
        if len(ra) == 1 and len(rb) == 1 and ra != rb:
            return f"{next(iter(ra))} {word}", f"{next(iter(rb))} {word}"
    if (a.stems & _SENDS and b.stems & _RECEIVES) or (a.stems & _RECEIVES and b.stems & _SENDS):
        return None
    for before, target in routes_a:
        for before_b, target_b in routes_b:
            if before == before_b and target != target_b and target in b.stems \
                    and target_b in a.stems and not ({"to"} & roles_b.get(target, set())) \
                    and not ({"to"} & roles_a.get(target_b, set())):
                return f"{before} to {target}", f"{before} to {target_b}"
    return None

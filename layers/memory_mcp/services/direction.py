"""Which way something goes: "pushed **from** MLflow **to** the S3 bucket" is not "pushed from
the S3 bucket to MLflow", though both texts hold the same words.

Found by a fourth forget set written apart from the rules (bench/data/forget_blind.json): all
five of its "direction" near misses were forgotten in place of the stored fact, because every
other rule compares what a text contains, and a swapped route contains the same names. This one
reads the place each word takes: where a thing goes ("to", "into"), where it comes from
("from"), and who acts on it ("by"). A place that is the destination in one text and the source
in the other is another fact.
"""

from __future__ import annotations

from itertools import pairwise

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, PREPOSITIONS
from memory_mcp.services.stems import (
    content_word,
    stem,
    verb_stem,
)

TO_WORDS = frozenset(["to", "into", "onto", "towards", "toward"])
#: Verbs that say one move from either end ("finance **sends** the invoices to customers" /
#: "customers **receive** the invoices from finance"), by stem.
SENDS = frozenset(["send", "ship", "give", "sell", "lend", "forward", "deliv", "pay", "provid",
                    "offer", "issu", "hand", "pass", "push", "upload", "export", "subcontract",
                    "outsourc", "refer", "transfer", "suppli", "submit", "escal", "email"])
RECEIVES = frozenset(["receiv", "buy", "borrow", "accept", "collect", "obtain", "fetch",
                       "pull", "download", "import"])
#: Words between a sender and its verb that leave it the sender ("the regulator **must**
#: send", "labels **also** deliver").
BETWEEN = frozenset("""must will shall should can may might would could also always usually
then still""".split())  # noqa: SIM905


#: How far after its preposition the word of a place may stand ("to **the** platform ...").
REACH = 4


def _places(f: Facets) -> tuple[dict[str, set[str]], set[tuple[str, str]], dict[str, str]]:
    """Place → the roles ("to", "from", "by") it takes in the text; (the stem before "to", the
    place after it) for each "<noun> to <place>" ("escalations to support"); and each stem as
    the text writes it, for the conflict's detail. A place is the first content word's stem
    after the preposition, with a number that follows it ("to **tier 2**", "from **region
    1**")."""
    roles: dict[str, set[str]] = {}
    routes: set[tuple[str, str]] = set()
    shown: dict[str, str] = {}
    toks = f.tokens
    for i, word in enumerate(toks):
        role = "to" if word in TO_WORDS or (word == "for" and _left(toks, i)) \
            else "from" if word == "from" or (word in _LEAVES and _trip(toks, i)) or (
            word == "out" and toks[i + 1:i + 2] == ("of",)) else "by" if word == "by" else None
        if role is None:
            continue
        at = next((j for j in range(i + 1, min(i + 1 + REACH, len(toks)))
                   if content_word(toks[j])), None)
        if at is None:
            continue
        place, written = stem(toks[at]), toks[at]
        if at + 1 < len(toks) and toks[at + 1][:1].isdigit():
            place, written = f"{place} {toks[at + 1]}", f"{written} {toks[at + 1]}"
        roles.setdefault(place, set()).add(role)
        shown.setdefault(place, written)
        head = _head(toks, at)
        if head != at and role != "by":  # "out of the basement gas **bag**" / "to the gas
            # **bag** in the basement": the same place, its first words in another order
            roles.setdefault(stem(toks[head]), set()).add(role)
            shown.setdefault(stem(toks[head]), toks[head])
        before = next((t for t in reversed(toks[max(0, i - 3):i]) if content_word(t)), None)
        if role == "to" and before is not None:
            routes.add((stem(before), place))
            shown.setdefault(stem(before), before)
    return roles, routes, shown


#: Verbs whose object is where a trip starts, and whose "for" is where it ends: "the
#: minibus **leaves the depot for the office**" (the hundred-and-twenty-sixth set).
_LEAVES = frozenset(["leave", "leaves", "leaving", "depart", "departs", "departing"])


def _left(toks: tuple[str, ...], i: int) -> bool:
    """Whether the "for" at ``i`` ends a trip: a leaving verb within the five words before."""
    return any(t in _LEAVES for t in toks[max(0, i - REACH - 1):i])


def _trip(toks: tuple[str, ...], i: int) -> bool:
    """Whether the leaving verb at ``i`` names where a trip starts: a "for" follows within
    five words ("leaves the Harbour Road depot for …"; not "when a member leaves, their
    badge access …")."""
    return "for" in toks[i + 2:i + 3 + REACH]


def _head(toks: tuple[str, ...], at: int) -> int:
    """The last word of the noun phrase that opens at ``at``: its content words in a row, at
    most ``REACH`` ("the basement gas **bag**")."""
    end = at
    while end + 1 < min(len(toks), at + REACH) and content_word(toks[end + 1]) \
            and toks[end + 1] not in PREPOSITIONS and not toks[end + 1][:1].isdigit() \
            and toks[end + 1] not in _COMPASS:  # "the marine reserve **east** of it"
        end += 1
    return end


_COMPASS = frozenset("""north south east west northeast northwest southeast southwest northern
southern eastern western""".split())  # noqa: SIM905


def _named(f: Facets) -> frozenset[str]:
    """Every place the text names: its stems, and each stem with the number after it ("tier
    2"), and each hyphenated word whole ("to the **on-call** director": ``stems`` holds its
    parts). Read once per comparison, so comparing routes stays linear in the texts (a cache keyed
    by the facets would hash a long text's facets on every lookup)."""
    return f.stems | frozenset(stem(t) for t in f.tokens if "-" in t) \
        | frozenset(f"{stem(x)} {y}" for x, y in pairwise(f.tokens) if y[:1].isdigit())


def reversed_route(a: Facets, b: Facets) -> tuple[str, str] | None:
    """A place one text sends *to* and the other takes *from* ("pushed **to** MLflow" /
    "pushed **from** MLflow"); or one a text sends to and the other has act ("by"), when both
    texts say both ("collected **by** the teacher, forwarded **to** the office" and the other
    way round; "goes **to** the CFO" / "approved **by** the CFO" is one fact); or — when the
    texts share no converse verbs ("sends" / "receives", which swap the places and keep the
    fact) — the same thing sent to two places both texts name ("escalations **to support**" /
    "escalations **to the platform** team"). Returns each text's role and place, or None."""
    roles_a, routes_a, shown_a = _places(a)
    roles_b, routes_b, shown_b = _places(b)
    both = all({"to", "by"} <= set().union(*r.values()) for r in (roles_a, roles_b) if r) \
        and roles_a and roles_b
    for place in sorted(roles_a.keys() & roles_b.keys()):
        ra, rb = roles_a[place], roles_b[place]
        if not both:
            ra, rb = ra - {"by"}, rb - {"by"}
        else:
            ra = {"from" if r == "by" else r for r in ra}
            rb = {"from" if r == "by" else r for r in rb}
        if len(ra) == 1 and len(rb) == 1 and ra != rb:
            return f"{next(iter(ra))} {shown_a[place]}", f"{next(iter(rb))} {shown_b[place]}"
    if (a.stems & SENDS and b.stems & RECEIVES) or (a.stems & RECEIVES and b.stems & SENDS):
        return None
    named_a, named_b = _named(a), _named(b)
    targets_b: dict[str, set[str]] = {}
    for before, place in routes_b:
        targets_b.setdefault(before, set()).add(place)
    phrases: tuple[dict[str, str], ...] = ()
    for before, place in sorted(routes_a):  # one pass over each text's routes: linear
        for other in sorted(targets_b.get(before, set()) - {place}):
            phrases = phrases or (receivers(a), receivers(b))  # read once, when needed
            if any(place in r and r[place] == r.get(other) for r in phrases):
                continue  # one destination: "to the S3 bucket ml-artifacts-prod"
            if place in named_b and other in named_a and "to" not in roles_b.get(place, set()) \
                    and "to" not in roles_a.get(other, set()):
                return (f"{shown_a[before]} to {shown_a[place]}",
                        f"{shown_b[before]} to {shown_b[other]}")
    return None


def receivers(f: Facets) -> dict[str, str]:
    """Stem → "to <phrase>" for each content word of the phrase after each "to" ("to the
    council's environment **team**", "to the hill **party**"), up to a preposition; and the
    first of a sending verb's two objects ("send **clients** their documents")."""
    out: dict[str, str] = {}
    toks = f.tokens
    for i, t in enumerate(toks):
        if t not in TO_WORDS:
            continue
        phrase: list[str] = []
        for w in toks[i + 1:i + 1 + REACH + 1]:
            if w in PREPOSITIONS or w in BETWEEN or (phrase and content_word(phrase[-1])
                                                      and not content_word(w)):
                break
            phrase.append(w)
        for w in phrase:
            if content_word(w):
                out.setdefault(stem(w), " ".join([t, *phrase]))
    for j, w in enumerate(toks[:-2]):  # "we send **clients** their documents": the first of
        # two objects receives
        if verb_stem(w) in SENDS and content_word(toks[j + 1]) \
                and toks[j + 2] in DETERMINERS and toks[j + 2] != "that":
            out.setdefault(stem(toks[j + 1]), f"{w} {toks[j + 1]}")
    return out


def converse_verb(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's verb, b's verb) where the same doer does the converse to the same thing: "the Sansa
    Puglia **truck collects pomace**" / "… **truck delivers pomace** to us" (the seventy-seventh
    set); or None. A rewording that turns the verb round turns the doer round with it
    ("finance **sends** invoices to customers" / "customers **receive** invoices from
    finance"), so the same words on both sides of the two verbs say the goods go the other
    way."""
    sides: dict[tuple[str, str], tuple[str, frozenset[str]]] = {}
    tb = b.tokens
    for j in range(1, len(tb) - 1):
        found = _way(tb, j)
        thing = _thing_after(tb, j)
        if found is not None and (content_word(tb[j - 1]) or tb[j - 1] == "we") and thing:
            sides.setdefault((tb[j - 1], thing), (tb[j], found))
    ta = a.tokens
    for i in range(1, len(ta) - 1):
        found, thing = _way(ta, i), _thing_after(ta, i)
        # "we" is the team: "the gum crew **pays** the BID" / "**we charge** the BID" (255th set)
        others = [v for (doer, th), v in sides.items() if th == thing and thing and (
            doer == ta[i - 1] or ("we" in (doer, ta[i - 1]) and _we_and(doer, ta[i - 1], a, b)))]
        if found is not None and others and others[0][1] is not found:
            return ta[i], others[0][0]
    return None


def _we_and(theirs: str, mine: str, a: Facets, b: Facets) -> bool:
    """Whether one doer is "we" and the other a doer the "we" text never names: "Batangas
    Feeds **buys** our cake" / "we **sell** the cake **to Batangas Feeds**" is one sale."""
    named, we_text = (mine, b) if theirs == "we" else (theirs, a)
    return content_word(named) and named not in we_text.tokens


def _thing_after(toks: tuple[str, ...], j: int) -> str:
    """The stem of the first content word after the verb at ``j``, past its particle and
    article ("Margaret **lends out the spare** lace pillows" / "… **borrows the spare** …", the
    hundred-and-seventy-fourth set); "" if none."""
    k = j + 1
    while k < len(toks) and (toks[k] in DETERMINERS or toks[k] in ("out", "back", "up")):
        k += 1
    return stem(toks[k]) if k < len(toks) and content_word(toks[k]) else ""


def _way(toks: tuple[str, ...], i: int) -> frozenset[str] | None:
    """``SENDS`` or ``RECEIVES`` for the verb at ``i`` (money "charged" is received: "the car
    boot **charges** sellers £10" / "… **pays** sellers £10"), else None."""
    st = verb_stem(toks[i])
    return SENDS if st in SENDS else RECEIVES if st in RECEIVES or st == "charg" else None

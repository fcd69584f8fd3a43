"""The same subject, once acting and once acted on: "**sellers are paid** by BACS" / "**sellers
pay us** by BACS" (the fifty-ninth set).

Both texts open on the same people and the same verb, so every word agrees; only the voice
says who pays whom. ``direction.turned_voice`` reads a passive with its doer after "by" and
the active with the things in the same order; here the passive may name no doer (or a means:
"by BACS"), and what tells the two apart is the subject opening both clauses. A rewording
that turns the voice round turns the subject too ("we pay sellers"), so it is not read here.

Without a parser a noun before a noun reads like a subject before its verb ("the **baler
service**"), so the active side is kept narrow, and was narrowed on the sets' rewordings: its
object is a pronoun ("pay **us**") or, after an -s verb, an article ("sends **the** reports");
its subject opens the clause (not "checks **from the litigation team** are sent"), is said
as written ("Keller **Blades** sharpens" is not "the **blade** is sharpened") and agrees with
the verb ("battery **swap** them" is an order, not a clause); and a verb that reads the same
either way ("batteries **charge** overnight" / "are charged") does not count.
"""

from __future__ import annotations

from functools import lru_cache

from memory_mcp.services.direction import BETWEEN
from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, verb_s
from memory_mcp.services.stems import content_word, stem, verb_stem
from memory_mcp.services.voice import PASSIVE_AUX, participle

#: Words that stand as a verb's object right after it ("pay **us**", "tell **them**").
_OBJECTS = frozenset("us them him her me you".split())  # noqa: SIM905
#: Words after which a clause opens ("forget **that** sellers …", "… **and** the crew sends").
_OPENERS = frozenset("that and when if then so once whenever".split())  # noqa: SIM905
#: Verbs that read the same either way ("batteries **charge** overnight" / "are charged").
_EITHER_WAY = frozenset(verb_stem(w) for w in """charge change open close start run sell ship
move fill dry cook bake wash turn grow break finish end begin stop shut lock heat cool freeze
melt burn boil drain roll split rotate switch increase decrease reduce rise fall drop weigh
empty clean load unload print book show play read sort store stock""".split())  # noqa: SIM905
#: Passive helpers read here: "get paid" reads as often as "are paid".
_AUX = PASSIVE_AUX - {"being"}


def turned_subject(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text's subject is acted on ("sellers are paid") and
    the other's same subject does the same verb to something ("sellers pay us"). Else None."""
    pa, pb = _passives(a.tokens), _passives(b.tokens)
    for y, mine, theirs, flip in ((b, pa, pb, False), (a, pb, pa, True)):
        if not mine:
            continue
        acts = _actives(y.tokens)
        for key, words in mine.items():
            if key in acts and key not in theirs:  # not a text saying both
                found = words, acts[key]
                return (found[1], found[0]) if flip else found
    return None


@lru_cache(maxsize=1024)
def _passives(toks: tuple[str, ...]) -> dict[tuple[str, str], str]:
    """(subject, verb stem) → words, for each "<subject> [must] be <participle>"; the subject as
    written ("Keller **Blades** sharpens" is not "the **blade** is sharpened")."""
    out: dict[tuple[str, str], str] = {}
    for i in range(1, len(toks) - 1):
        if toks[i] not in _AUX or not participle(toks[i + 1]):
            continue
        who = _subject(toks, i)
        if who is not None:
            out.setdefault((toks[who], verb_stem(toks[i + 1])),
                           " ".join(toks[who:i + 2]))
    return out


@lru_cache(maxsize=1024)
def _actives(toks: tuple[str, ...]) -> dict[tuple[str, str], str]:
    """(subject, verb stem) → words, for each "<subject> [must] <verb> <object>": the verb
    not after a passive helper nor one that reads the same either way, its object a pronoun
    ("pay **us**") or, after an -s verb, a determiner ("sends **the** reports")."""
    out: dict[tuple[str, str], str] = {}
    for j in range(1, len(toks) - 1):
        w, nxt = toks[j], toks[j + 1]
        if not content_word(w) or toks[j - 1] in _AUX or verb_stem(w) in _EITHER_WAY:
            continue
        if not (nxt in _OBJECTS or (verb_s(w) and nxt in DETERMINERS)):
            continue
        who = _subject(toks, j)
        if who is not None and (verb_s(w) or verb_s(toks[who])):  # not "battery swap them"
            out.setdefault((toks[who], verb_stem(w)), " ".join(toks[who:j + 2]))
    return out


def _subject(toks: tuple[str, ...], i: int) -> int | None:
    """The place of the head of the noun phrase that opens the clause right before the verb
    (or helper) at ``i``, past the modals and adverbs ``BETWEEN`` allows ("sellers **must** be
    paid"); None if the words before it are no such phrase ("checks **from the litigation
    team** are sent": the team is not what is sent)."""
    k = i - 1
    while k >= 0 and toks[k] in BETWEEN:
        k -= 1
    if k < 0 or not content_word(toks[k]) or toks[k] in PASSIVE_AUX:
        return None
    s = k
    while s > 0 and k - s < 3 and content_word(toks[s - 1]) and toks[s - 1] not in PASSIVE_AUX:
        s -= 1
    if s > 0 and toks[s - 1] in DETERMINERS:
        s -= 1
    return k if s == 0 or toks[s - 1] in _OPENERS else None


def other_agent(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's doer, b's doer) where one text says who does a thing in the active ("the league
    **commissioner enters** scores") and the other, in the passive, names another doer after
    "by" ("scores **are entered** … **by the winning team**", the 327th set), neither text
    naming the other's doer anywhere. Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        for thing, verb, agent in _agents(y.tokens):
            for j in range(1, len(x.tokens) - 1):
                toks = x.tokens
                obj = j + 1 + (toks[j + 1] in DETERMINERS)
                if not verb_s(toks[j]) or verb_stem(toks[j]) != verb or obj >= len(toks) \
                        or stem(toks[obj]) != stem(thing):
                    continue
                who = _subject(toks, j)
                if who is not None and stem(toks[who]) not in y.stems \
                        and stem(agent) not in x.stems:
                    return (agent, toks[who]) if flip else (toks[who], agent)
    return None


def _agents(toks: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(the thing acted on, the verb stem, the doer's first word) of each "<thing> are
    <participle> … by [the] <doer>" within a few words."""
    out = []
    for i in range(1, len(toks) - 1):
        if toks[i] not in _AUX or not participle(toks[i + 1]):
            continue
        who = _subject(toks, i)
        by = next((k for k in range(i + 2, min(len(toks) - 1, i + 2 + _BY_REACH))
                   if toks[k] == "by"), None)
        if who is None or by is None:
            continue
        k = by + 1 + (toks[by + 1] in DETERMINERS)
        if k < len(toks) and content_word(toks[k]):
            out.append((toks[who], verb_stem(toks[i + 1]), toks[k]))
    return out


#: How far after the participle its "by" may stand ("are entered **into the Scoreholio app
#: by**").
_BY_REACH = 6

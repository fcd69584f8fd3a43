"""What a fact is anchored to, compared between two texts: the event it follows or precedes,
or a value in the place of a few words.

Found by the thirteenth forget set (bench/data/forget_thirteenth.json), written apart from the
rules: "bikes left more than 30 days **after the customer declines the repair estimate**" forgot
"… 30 days **after the pickup notice**", and "emergency lockouts **on bank holidays** are
charged at £120" forgot "emergency lockouts **after 22:00** are charged at £120". The rest of
each pair is the same sentence, so the model scores them as one fact; the words that differ
are the condition under which it holds, and two conditions are two facts.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from memory_mcp.services.conditions import compared
from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import AUX, CLAUSE_BREAKS
from memory_mcp.services.lexicon import COMMON_VERBS, ORDINAL, TIMES, UNIT_DAYS, WEEKDAYS
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, singular_weekday, stem
from memory_mcp.services.word_pool import parts_pool, pool
from memory_mcp.services.wording import ALIGN_MAX, PARTICLES

#: Content words read after an anchor: the event's own words, not the clause after it.
_REACH = 4


#: Words that anchor a fact in time to an event ("moved after **the pickup notice**").
_ANCHORS = frozenset("after before until following upon for so".split())  # noqa: SIM905
#: A reason read as the purpose it serves: "sprayed in Booth 2 **because it has the better
#: lighting**" / "… **because it has the stronger extraction fan**", "re-glued with hide glue
#: **because it sets faster**" / "… **so the repairs stay reversible**" (the eighteenth set).
_SAME_ANCHOR = {"because": "so"}
#: ("for": "tested quarterly **for the insurance certificate**" / "… **for the council licence
#: renewal**", the fifteenth set: another purpose, as another event is another condition; "so":
#: "lifts all gate arms **so fire engines** can get in" / "… **so cars** can exit", the
#: seventeenth set: who the purpose serves, read up to its "can")


def other_event(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's phrase, b's phrase) where both texts anchor the fact to an event by the same
    word and the two events share no word: "bikes left 30 days **after the customer declines
    the repair estimate**" / "… 30 days **after the pickup notice**". A duration or a time
    ("after 30 days", "before 09:00") is the value rules' to compare, not an event."""
    def events(f: Facets) -> dict[str, tuple[list[str], str]]:
        """Anchor → the event's words and how it reads."""
        out: dict[str, tuple[list[str], str]] = {}
        toks = f.tokens
        for i, t in enumerate(toks):
            key = _SAME_ANCHOR.get(t, t)
            if key not in _ANCHORS or key in out:
                continue
            span = []
            for w in toks[i + 1:i + 1 + 2 * _REACH]:
                if (w in AUX and t != "because") or w in CLAUSE_BREAKS:
                    break  # "because **it has** the stronger fan": the reason's own verb
                span.append(w)
            first = next((w for w in span if content_word(w)), "")
            words = [w for w in span if compared(w)][:_REACH]
            if words and compared(first):  # "after 30 days", "before 09:00": values
                out[key] = (words, " ".join([t, *span]))
        return out

    ea, eb = events(a), events(b)
    pool_a, pool_b = parts_pool(a), parts_pool(b)
    for anchor in sorted(ea.keys() & eb.keys()):
        (wa, shown_a), (wb, shown_b) = ea[anchor], eb[anchor]
        if len(wa) + len(wb) < 3:  # one word each ("after lunch" / "after dinner") is the
            continue  # swapped-word rule's, which knows a verb from its argument
        if any(all(w in COMMON_VERBS or w in PARTICLES for w in ws) for ws in (wa, wb)):
            continue  # "before they **go back**" / "before **return**": a reworded verb
        in_a, in_b = (pool(frozenset(wa)), pool(frozenset(wb))) if anchor == "so" \
            else (pool_a, pool_b)  # "so fire engines" / "so cars": the serving clause only,
        # since its words may stand elsewhere in the other text ("during **fire** alarms")
        if not any(in_b.has(w, 0.75) for w in wa) and not any(in_a.has(w, 0.75) for w in wb) \
                and not {w[:5] for w in wa} & {w[:5] for w in wb}:  # "before **submission**"
            # / "before they are **submitted**": one event
            return shown_a, shown_b
    return None


def value_or_words(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where, the rest aligned, one text has a value (a number, a
    time) and the other only words in its place that no value rule reads: "emergency
    lockouts **after 22:00** are charged at £120" / "emergency lockouts **on bank holidays**
    are …" (two conditions). Words of time ("at night", "daily", "on Fridays") may say the
    value again, so they keep the pair for the value rules."""
    ta, tb = a.tokens, b.tokens
    if max(len(ta), len(tb)) > ALIGN_MAX:
        return None
    ka, kb = [stem(t) for t in ta], [stem(t) for t in tb]
    ops = SequenceMatcher(None, ka, kb, autojunk=False).get_opcodes()
    for k, (op, i1, i2, j1, j2) in enumerate(ops):
        if op != "replace" or not 0 < k < len(ops) - 1 or not all(
                any(compared(w) for w in ta[o[1]:o[2]]) for o in (ops[k - 1], ops[k + 1])):
            continue  # the same words on both sides of it: one place in one sentence
        xs, ys = ta[i1:i2], tb[j1:j2]
        for one, other, flip in ((xs, ys, False), (ys, xs, True)):
            if all(_digits(w) for w in one if content_word(w) or _value(w)) \
                    and any(_digits(w) for w in one) and len(other) <= 4 \
                    and 1 <= sum(compared(w) for w in other) <= 3 \
                    and not any(_value(w) or w in AUX or (not compared(w) and content_word(w))
                                for w in other):
                found = " ".join(one), " ".join(other)
                return (found[1], found[0]) if flip else found
    return None




def unit_or_event(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's word, b's word) where, the rest of the sentence the same, "each" or "every" takes
    a unit of time in one text and a thing in the other: "cleaned at the end of each **week**"
    / "… of each **shift**", "every **month**" / "every **batch**". One schedule by the
    calendar, one by events: two facts (the eighteenth set)."""
    ta, tb = a.tokens, b.tokens
    if max(len(ta), len(tb)) > ALIGN_MAX:
        return None
    ops = SequenceMatcher(None, [stem(t) for t in ta], [stem(t) for t in tb],
                          autojunk=False).get_opcodes()
    for op, i1, i2, j1, j2 in ops:
        if op != "replace" or i2 - i1 != 1 or j2 - j1 != 1 or not i1 or not j1 \
                or ta[i1 - 1] not in _EACH:
            continue
        x, y = ta[i1], tb[j1]
        for one, other in ((x, y), (y, x)):
            if one in UNIT_DAYS and compared(other) and other not in UNIT_DAYS \
                    and other not in TIMES and singular_weekday(other) not in WEEKDAYS:
                return x, y
    return None


_EACH = frozenset(["each", "every", "per"])


def _value(word: str) -> bool:
    """A number, or a word that counts ("a **tenth**", "**half**")."""
    return number(word) is not None or _digits(word) or bool(ORDINAL.fullmatch(word)) \
        or word in _FRACTIONS


_FRACTIONS = frozenset("half halves third thirds quarter quarters dozen percent".split())  # noqa: SIM905


def _digits(word: str) -> bool:
    """Written with digits ("22:00", "£120"): a value, where "once" or "one" may be
    words."""
    return any(ch.isdigit() for ch in word)



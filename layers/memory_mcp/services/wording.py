"""Agreement rules that read a text's word order: one word swapped, names in other roles, and
long texts that differ (numbered things, "invoice 1001", are ``numbered``'s).

``agreement.py`` compares what two texts *contain* (names, numbers, days, environments). These
rules compare how the words line up, which is what near misses of another kind share: "Frank is
allergic to **peanuts**" / "... to **shellfish**" (one content word swapped in place, cosine
0.73, above the forget bound), "**Henry** is the manager of **Iris**" / "**Iris** is the manager
of **Henry**" (cosine 0.98), "**Invoice 1001** was paid" / "**Invoice 1002** was paid" (0.99: a
number that names a thing, not a value of it), and two long notes with the same opening (the
model reads only a text's first 256 tokens, so cosine 1.00 says nothing about their endings).
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache

from memory_mcp.services import swap_checks
from memory_mcp.services.facets import Facets, tokens
from memory_mcp.services.grammar import AUX, BOUND_WORDS, PREPOSITIONS, predicates
from memory_mcp.services.grammar import led_predicates as led
from memory_mcp.services.lexicon import (
    COMMON_VERBS,
    COMPACT,
    ENVIRONMENTS,
    MONTHS,
    TIMES,
    UNIT_DAYS,
    WEEKDAYS,
)
from memory_mcp.services.numerals import number
from memory_mcp.services.opposite_words import same_side
from memory_mcp.services.stems import content_word, part_stems, singular_weekday, stem

#: A text longer than this is compared word by word before it may be forgotten or versioned by
#: similarity: one vector summarises several statements (and the local model sees only its
#: first 256 tokens, ~1,000 characters), so a high cosine says nothing about the rest of it.
LONG_CHARS = 500
#: Content words a long text may differ in (both sides together) and still be the same text:
#: a corrected word or two; anything more is another text, kept apart.
LONG_ALLOWANCE = 3
#: Content words each of two short texts may have that the other lacks (one word more is
#: another statement). Measured on the five forget sets: of the 263 rewordings the other rules
#: let through, 262 leave at most two words of one side unmatched; near misses that passed every
#: other rule ("to comply with hazardous-waste rules" / "to free up shelf space") leave three
#: or more on both sides.
SHORT_ALLOWANCE = 3
#: Past this many content words the in-place alignment is not attempted (``LONG_ALLOWANCE``
#: already decides such texts, and aligning them would cost every save of a long text).
ALIGN_MAX = 400
OWN_RULES = frozenset(ENVIRONMENTS) | frozenset(UNIT_DAYS) | frozenset(MONTHS) | frozenset(TIMES)


@lru_cache(maxsize=4096)
def words(f: Facets) -> list[tuple[int, str]]:
    """(token position, word) of the content words the order rules align: not stop words,
    negations or numbers, and not the words another rule compares (days, months, times of
    day and frequencies, environments, units). Cached per text, like ``facets``: the caller
    must not change the list."""
    toks = f.tokens
    return [(i, t) for i, t in enumerate(toks)
            if t not in OWN_RULES and content_word(t) and singular_weekday(t) not in WEEKDAYS
            and not COMPACT.fullmatch(t)  # "under **48h** notice": a duration, its own rule
            and not (t in BOUND_WORDS and (len(t) > 3 or (i + 1 < len(toks)
                                            and number(toks[i + 1]) is not None)))]


def swap(a: Facets, b: Facets, only_a: list[tuple[int, str]],
         only_b: list[tuple[int, str]]) -> tuple[str, str] | None:
    """A content word of ``a`` standing where ``b`` has another, the rest the same.

    At most two words of each text are unmatched, at least two are shared, and the unmatched
    ones face each other in one aligned block (so "Heidi is based in the Berlin office" /
    "Heidi works from the Berlin office" is a swap, "Alice likes her code editor in a dark
    theme" / "Alice prefers dark mode in her editor" is a rewording). A swapped verb is read as
    a rewording ("Logs go to Datadog" / "Logs are shipped to Datadog"): the words that change
    what a fact says are its subject and its arguments ("allergic to peanuts" / "... to
    shellfish")."""
    wa, wb = words(a), words(b)
    if max(len(wa), len(wb)) > ALIGN_MAX:
        return None
    more_a = _surplus(wa, wb) if not only_a and only_b else set()
    more_b = _surplus(wb, wa) if not only_b and only_a else set()
    if not (1 <= len(only_a) + len(more_a) <= 2 and 1 <= len(only_b) + len(more_b) <= 2):
        return None
    lone_a, lone_b = {i for i, _ in only_a}, {i for i, _ in only_b}
    if len(wa) - len(lone_a) < 2 or len(wb) - len(lone_b) < 2:
        return None
    key_a = [f"\0{w}" if i in lone_a else stem(w) for i, w in wa]
    key_b = [f"\0{w}" if i in lone_b else stem(w) for i, w in wb]
    ops = SequenceMatcher(None, key_a, key_b, autojunk=False).get_opcodes()
    lone_a, lone_b = lone_a | more_a, lone_b | more_b
    for op, i1, i2, j1, j2 in ops:
        if op != "replace":
            continue
        xs = [wa[k] for k in range(i1, i2) if wa[k][0] in lone_a]
        ys = [wb[k] for k in range(j1, j2) if wb[k][0] in lone_b]
        if not (xs and ys):
            continue
        x, y = " ".join(w for _, w in xs), " ".join(w for _, w in ys)
        if swap_checks.starts_other(x, y) or swap_checks.family(xs, ys) or same_side(x, y) \
                or swap_checks.spelled_apart(a, b, x, y):  # "web" / "website", "peroxide **formers**" /
            continue  # "peroxide-**forming** solvents": one family; "shuts" / "closes"
        if _verbal(xs) and _verbal(ys):  # "trucks **drive**" / "trucks **run**", "before
            continue  # they **go back**" / "before **return**": a reworded verb
        if swap_checks.reason_verbs(a, b, xs, ys) or (
                swap_checks.counted(a, b, xs, ys)):  # "so it doesn't
            # **crack**" / "… **sweat**"; "and two **contractors**" / "… two **volunteers**"
            return x, y
        if (led(a, b) & {i for i, _ in xs} or led(b, a) & {i for i, _ in ys}) \
                and not _in_subjects(a, b, xs, ys) \
                and not swap_checks.verb_follows(a, b, xs, ys) \
                and not (swap_checks.opened(a, xs) and swap_checks.opened(b, ys)):  # "has **a
            # warped top**" / "has **a wobbly leg**": a thing after its article, whatever the
            # predicate reads
            # the verb reworded ("go" / "are shipped", "is in charge of" / "manages"), unless
            # a word after a preposition changed as well: "shut on Mondays **for filming**" /
            # "closed on Mondays **for cleaning**" is another purpose, not only another verb
            xs, ys = _after_preposition(a, xs), _after_preposition(b, ys)
            if not (xs and ys) or " ".join(w for _, w in xs) == " ".join(w for _, w in ys):
                continue
            return " ".join(w for _, w in xs), " ".join(w for _, w in ys)
        return x, y
    if more_a or more_b:
        found = _modifier_swap(a, b, wa, wb, lone_a, lone_b)
        if found is not None:
            return found
    return _head_swap(a, b, wa, wb, lone_a, lone_b, ops)


def _modifier_swap(a: Facets, b: Facets, wa: list[tuple[int, str]], wb: list[tuple[int, str]],
                   lone_a: set[int], lone_b: set[int]) -> tuple[str, str] | None:
    """A lone or reused word of each text right before the same noun, wherever the texts put
    it: "the **credit** committee reviews credit limits" / "credit limits are reviewed by the
    **risk** committee"."""
    def heads(f: Facets, ws: list[tuple[int, str]], lone: set[int]) -> dict[str, str]:
        return {stem(f.tokens[i + 1]): f"{w} {f.tokens[i + 1]}" for i, w in ws
                if i in lone and i + 1 < len(f.tokens) and content_word(f.tokens[i + 1])
                and i not in predicates(f) and i + 1 not in predicates(f)}
    ha, hb = heads(a, wa, lone_a), heads(b, wb, lone_b)
    for head in sorted(ha.keys() & hb.keys()):
        if stem(ha[head].split()[0]) != stem(hb[head].split()[0]):
            return ha[head], hb[head]
    return None


PARTICLES = frozenset("back up out in off on down over".split())  # noqa: SIM905


def _verbal(block: list[tuple[int, str]]) -> bool:
    """A common verb, with its particle if any ("go back"): where the word order did not
    show the verb, the list does."""
    return any(w in COMMON_VERBS for _, w in block) \
        and all(w in COMMON_VERBS or w in PARTICLES for _, w in block)


def _in_subjects(a: Facets, b: Facets, xs: list[tuple[int, str]],
                 ys: list[tuple[int, str]]) -> bool:
    """Both blocks are their texts' subjects, one of them the first word: "**maintenance
    techs** on the hydrocracker rotate …" / "**Operators** on the hydrocracker rotate …" name
    two groups, though "techs" reads as a verb by its -s."""
    ea, eb = subject_end(a), subject_end(b)
    parts_x = {p[:4] for _, w in xs for p in w.split("-")}
    parts_y = {p[:4] for _, w in ys for p in w.split("-")}
    if 0 in predicates(a) and 0 in predicates(b):
        return False  # two instructions' verbs: "**Switch** off the kiln" / "**Turn** off …"
    return min(xs[0][0], ys[0][0]) == 0 and all(i <= ea for i, _ in xs) \
        and all(i <= eb for i, _ in ys) and not (COMMON_VERBS & {w for _, w in xs + ys}) \
        and not parts_x & parts_y  # "peroxide **formers**" / "peroxide-**forming** solvents"


def _after_preposition(f: Facets, block: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The words of an aligned block that a preposition separates from its verb: the verb's
    argument, not a part of the verb ("is in charge **of**" keeps "charge")."""
    verbs = [i for i, _ in block if i in predicates(f)]
    return [(i, w) for i, w in block if i not in predicates(f) and verbs and any(
        t in PREPOSITIONS for t in f.tokens[min(verbs[0], i) + 1:max(verbs[0], i)])
        and i > verbs[0]]


def _surplus(mine: list[tuple[int, str]], other: list[tuple[int, str]]) -> set[int]:
    """Positions of ``mine``'s words that it has more often than ``other``: "reviewed by the
    **credit** committee" where the other text's only "credit" is elsewhere ("**credit**
    limits are reviewed by the **risk** committee"). Each such word is found in the other
    text, so no word of ``mine`` is unmatched, yet one of them stands in another word's place."""
    counts: dict[str, int] = {}
    for _, w in other:  # with a hyphenated word's parts: "vice-chair" holds a "chair"
        for part in {stem(w), *part_stems(w)}:
            counts[part] = counts.get(part, 0) + 1
    seen: dict[str, int] = {}
    for _, w in mine:
        seen[stem(w)] = seen.get(stem(w), 0) + 1
    return {i for i, w in mine if seen[stem(w)] > counts.get(stem(w), 0) > 0}


def _head_swap(a: Facets, b: Facets, wa: list[tuple[int, str]], wb: list[tuple[int, str]],
               lone_a: set[int], lone_b: set[int],
               ops: Sequence[tuple[str, int, int, int, int]]) -> tuple[str, str] | None:
    """One shared word with another word before it in one text and after it in the other,
    each written together: "the **operating** vet" / "a vet **nurse**" name two people."""
    for (o1, i1, i2, j1, j2), (o2, e1, e2, f1, _f2), (o3, k1, k2, l1, l2) in zip(
            ops, ops[1:], ops[2:], strict=False):
        if o2 != "equal" or e2 - e1 != 1 or {o1, o3} != {"delete", "insert"}:
            continue
        if o1 == "delete":  # a's word before the shared one, b's after it
            if i2 - i1 != 1 or l2 - l1 != 1:
                continue
            (pa, x), (pb, y), ps, pt = wa[i1], wb[l1], wa[e1][0], wb[f1][0]
            before_a = True
        else:  # b's word before it, a's after it
            if j2 - j1 != 1 or k2 - k1 != 1:
                continue
            (pa, x), (pb, y), ps, pt = wa[k1], wb[j1], wa[e1][0], wb[f1][0]
            before_a = False
        beside = (pa == ps - 1 and pb == pt + 1) if before_a else (pa == ps + 1 and pb == pt - 1)
        if pa in lone_a and pb in lone_b and beside \
                and not (pa in predicates(a) or pb in predicates(b) or ps in predicates(a)):
            shared_a, shared_b = a.tokens[ps], b.tokens[pt]
            return ((f"{x} {shared_a}", f"{shared_b} {y}") if before_a
                    else (f"{shared_a} {x}", f"{y} {shared_b}"))
    return None


def subject_end(f: Facets) -> int:
    """Token position where a text's subject ends: its first auxiliary or predicate."""
    return min([i for i, t in enumerate(f.tokens) if t in AUX] + list(predicates(f))
               + [len(f.tokens)])


def is_long(*texts: str) -> bool:
    return max(len(t) for t in texts) > LONG_CHARS


@lru_cache(maxsize=16)
def _word_set(text: str) -> frozenset[str]:
    return frozenset(tokens(text)[1])


def words_apart(ra: str, rb: str) -> tuple[int, int] | None:
    """How many words (lower-cased, compared exactly) each of two long texts has that the
    other lacks, when together more than ``LONG_ALLOWANCE``; None when they may still agree.
    Exact comparison counts a reworded form ("expire" / "expires") as a difference, where the
    rules would not: so a long text is versioned or forgotten by meaning less often, never
    more."""
    wa, wb = _word_set(ra), _word_set(rb)
    only_a, only_b = len(wa - wb), len(wb - wa)
    return None if only_a + only_b <= LONG_ALLOWANCE else (only_a, only_b)


def in_subject(f: Facets, word: str) -> bool:
    """Whether ``word`` (an opposite's form as ``opposed`` returns it) stands in the text's
    subject, before its verb: "refunds **over** $500 need approval" narrows *which* refunds
    (another fact than refunds under $500), where "must stay **below** 5 °C" is a value."""
    first = word.split()[0]
    positions = [i for i, t in enumerate(f.tokens) if t == first]
    return bool(positions) and positions[0] < subject_end(f)

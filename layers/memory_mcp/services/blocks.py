"""A few words standing where the other text has one or two, the rest the same sentence.

The swapped-word rule (``wording.swap``) compares at most two unmatched words a side, and the
"each says what the other does not" rule needs three a side, so a pair between the two was
read by neither: "… get reported to the zone 2 **leak detection team**" / "… are reported to
the Zone 2 **repair crew**", "… requires **a face shield** and a second person present" /
"… requires **calcium gluconate gel on the bench** and a second person present". Both pairs
forgot the stored fact in forget sets written apart from the rules (the seventh and the
eleventh). Here the unmatched words of both texts must face each other in one aligned block,
outside any verb, with at least three words around it the texts share: one place in one
sentence, holding another thing. Fourteen forget sets' rewordings lose nothing to it (measured
with bench/forget_quality.py).

Also here: a block the request adds as a conjunct of its own ("… **and the couple agrees**",
the seventeenth session), and whether a request's unmatched words are spread over the whole
sentence (``reworded_throughout``), which tells a rewording from another statement.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, PREPOSITIONS, predicates
from memory_mcp.services.lexicon import ORDINAL
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, stem
from memory_mcp.services.wording import ALIGN_MAX, words

#: Unmatched words a side this rule reads: more is the "each says what the other does not"
#: rule's (or a long text's).
_MOST = 4
#: Shared content words each text must keep outside the block.
_SHARED = 3
#: Words an added block may have when it is a conjunct of its own ("… before 6 am **and the
#: couple agrees**").
_JOINED = 2
_JOINS = frozenset(["and", "or"])


def swapped_block(a: Facets, b: Facets, only_a: list[tuple[int, str]],
                  only_b: list[tuple[int, str]]) -> tuple[str, str] | None:
    """(a's block, b's block) when ``only_a`` and ``only_b`` (each text's content words the
    other lacks, by position) are one aligned block of three or four words against one or two,
    none of them a verb; None otherwise."""
    la, lb = len(only_a), len(only_b)
    if not (la and lb and max(la, lb) <= _MOST and min(la, lb) < 3 <= max(la, lb)):
        return None
    wa, wb = words(a), words(b)
    if len(wa) - la < _SHARED or len(wb) - lb < _SHARED or max(len(wa), len(wb)) > ALIGN_MAX:
        return None
    lone_a, lone_b = {i for i, _ in only_a}, {i for i, _ in only_b}
    if predicates(a) & lone_a or predicates(b) & lone_b:  # a reworded verb phrase
        return None
    key_a = [f"\0{w}" if i in lone_a else stem(w) for i, w in wa]
    key_b = [f"\0{w}" if i in lone_b else stem(w) for i, w in wb]
    ops = [op for op in SequenceMatcher(None, key_a, key_b, autojunk=False).get_opcodes()
           if op[0] != "equal"]
    if len(ops) != 1 or ops[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = ops[0]
    xs, ys = wa[i1:i2], wb[j1:j2]
    if {i for i, _ in xs} != lone_a or {i for i, _ in ys} != lone_b:
        return None  # shared words inside the block: the texts are ordered otherwise
    return " ".join(w for _, w in xs), " ".join(w for _, w in ys)


def added_block(a: Facets, b: Facets, only_a: list[tuple[int, str]],
                only_b: list[tuple[int, str]]) -> str | None:
    """The block of three or more words the request ``a`` adds, in one place, to everything
    the stored ``b`` says: "may keep cats **with written approval from management**, but not
    dogs" / "may keep cats but not dogs" (a condition the fact does not have: forgetting the
    narrower rule must not remove the broader one). With two words, two rewordings of the
    fourteen sets were refused ("a **twelve-hour** fast" / "must be fasted for 12 hours")."""
    if any(w not in b.names or i == 0 for i, w in only_b) or not only_a:
        return None  # a name only the fact has ("the **Liebherr** LTM 1100") adds nothing;
    # a capital opening the text is no name ("**Patients** under 12 must …")
    wa, wb = words(a), [x for x in words(b) if x not in only_b]
    if len(wb) < _SHARED or max(len(wa), len(wb)) > ALIGN_MAX:
        return None
    lone = {i for i, _ in only_a}
    key_a = [f"\0{w}" if i in lone else stem(w) for i, w in wa]
    ops = [op for op in SequenceMatcher(None, key_a, [stem(w) for _, w in wb],
                                        autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(ops) != 1 or ops[0][0] != "delete" or {i for i, _ in wa[ops[0][1]:ops[0][2]]} != lone:
        return None
    block = wa[ops[0][1]:ops[0][2]]
    if len(block) < _SHARED and not (len(block) >= _JOINED and _joined(a.tokens, block[0][0])) \
            and not (len(block) >= _JOINED and _trailing(a.tokens, block)) \
            and not _listed(a.tokens, block):
        return None
    return " ".join(w for _, w in block)


def _listed(toks: tuple[str, ...], block: list[tuple[int, str]]) -> bool:
    """One noun added to a list of one ("stray dogs **and cats** are held", "a tattoo **or a
    piercing**"): "and" or "or" (and a determiner) between it and the word before, which
    both texts have; the things the fact holds of are more, or other."""
    if len(block) != 1:
        return False
    first = block[0][0]
    k = first - 1
    if k >= 0 and toks[k] in DETERMINERS:
        k -= 1
    return k >= 1 and toks[k] in _JOINS and content_word(toks[k - 1]) \
        and not (first + 1 < len(toks) and content_word(toks[first + 1]))


def _trailing(toks: tuple[str, ...], block: list[tuple[int, str]]) -> bool:
    """Whether ``block`` is a phrase of words only, after a preposition, that ends the text
    ("… for any lift over 20 m radius **on soft ground**", "… signed **by the crane
    supervisor**"): a condition or a doer the other text does not have. Not "at **4-hour**
    intervals": a value in other words."""
    first, last = block[0][0], block[-1][0]
    if any(content_word(t) for t in toks[last + 1:]) or not all(
            w.replace("-", "").isalpha() for _, w in block):
        return False
    before = first - 1
    while before >= 0 and toks[before] in DETERMINERS:
        before -= 1
    return before >= 0 and toks[before] in PREPOSITIONS


def _joined(toks: tuple[str, ...], first: int) -> bool:
    """Whether the word at ``first`` opens a conjunct: "and" or "or" just before it, or before
    one determiner or count before it ("the sidewalks **and the parking lot**", "… **and a
    second** boat is on standby")."""
    before = [t for t in toks[max(0, first - 3):first]]
    if before and (ORDINAL.fullmatch(before[-1]) or number(before[-1]) is not None):
        before = before[:-1]  # "and a **second** boat is on standby", "and **two** marshals"
    if before and before[-1] in DETERMINERS:
        before = before[:-1]
    return bool(before) and before[-1] in _JOINS


#: Separate places a request may reword and still be read as changing one thing: the thing
#: itself, and a verb said another way ("checks … with **ground-penetrating radar**" / "sweeps
#: … with the **CAT scanner**").
SPREAD_PLACES = 3
#: Content words a request needs before its spread-out wording is read as a rewording: a
#: short one has too few words between its changes to tell.
SPREAD_WORDS = 8


def reworded_throughout(all_words: list[tuple[int, str]], unmatched: list[tuple[int, str]]
                        ) -> bool:
    """Whether a text's unmatched content words stand in ``SPREAD_PLACES`` or more separate
    runs, each between words the other text shares, in a text of ``SPREAD_WORDS`` or more
    content words: "the **system** has to be **set** up at ground level before anyone **goes
    higher** than 10 m" / "the rescue **kit** must be **rigged** at ground level before anyone
    **climbs above** 10 metres". A near miss changes one thing, in one place, sometimes with
    its verb said another way; a rewording says most things another way. Measured on the first
    160 forget sets: it lets 206 refused rewordings through and no near miss; each of the 13
    near misses that "each says …" alone refused stands in at most two runs ("**keep** the
    tug's **fuel bill** down"), or in a text of at most 7 content words."""
    if len(all_words) < SPREAD_WORDS:
        return False
    lone = {i for i, _ in unmatched}
    runs, inside = 0, False
    for i, _ in all_words:
        if i in lone and not inside:
            runs += 1
        inside = i in lone
    return runs >= SPREAD_PLACES

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

Also here: a block the request adds as a conjunct of its own ("… **and the couple agrees**"),
and two blocks of the same words that exchange places ("dispatch must call **the crew leads**
back" / "**crew leads** must call dispatch back"), both left over from the earlier sets and
read since the seventeenth session.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from memory_mcp.services.facets import Facets
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import stem, verb_stem
from memory_mcp.services.wording import ALIGN_MAX, COPULAS, DETERMINERS, predicates, words

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
    if only_b or len(only_a) < _JOINED:
        return None
    wa, wb = words(a), words(b)
    if len(wb) < _SHARED or max(len(wa), len(wb)) > ALIGN_MAX:
        return None
    lone = {i for i, _ in only_a}
    key_a = [f"\0{w}" if i in lone else stem(w) for i, w in wa]
    ops = [op for op in SequenceMatcher(None, key_a, [stem(w) for _, w in wb],
                                        autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(ops) != 1 or ops[0][0] != "delete" or {i for i, _ in wa[ops[0][1]:ops[0][2]]} != lone:
        return None
    block = wa[ops[0][1]:ops[0][2]]
    if len(block) < _SHARED and not _joined(a.tokens, block[0][0]):
        return None
    return " ".join(w for _, w in block)


def _joined(toks: tuple[str, ...], first: int) -> bool:
    """Whether the word at ``first`` opens a conjunct: "and" or "or" just before it, or before
    one determiner before it ("the sidewalks **and the parking lot**")."""
    before = [t for t in toks[max(0, first - 2):first]]
    if before and before[-1] in DETERMINERS:
        before = before[:-1]
    return bool(before) and before[-1] in _JOINS


#: Words for the team itself, read as one party: "**our** claim against ESL" / "ESL's claim
#: against **us**".
_US = frozenset(["we", "us", "our", "ours", "ourselves"])
#: Words that set one block against the other ("**swapped** … **rather than** charged on the
#: aircraft" / "**charged** … rather than swapped"): which one is done is turned round.
_CONTRASTS = frozenset(["rather", "instead", "not", "never", "versus", "vs"])


def exchanged(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's order, b's order) when the texts hold the same words but two blocks of them
    exchange places: "dispatch must call **the crew leads** back" / "**crew leads** must call
    dispatch back", "**ESL**'s claim against **us**" / "**our** claim against **ESL**", "run
    **8** hours on and **16** off" / "run **16** hours on and **8** off". Who does what to
    whom, turned round, is another fact.

    Read only where the exchange says so (``_turned``): "Hannah is the manager of the mobile
    team" / "the mobile team's manager is Hannah", "Panopto deletes recordings" / "recordings
    are deleted from Panopto" and "Apex rents scaffolding **to us**" / "we rent scaffolding
    **from Apex**" exchange blocks too, and say the same. Exempt, as ``wording.roles``, when
    exactly one text is passive."""
    if ("by" in a.tokens) != ("by" in b.tokens):
        return None
    ka, kb = _keys(a), _keys(b)
    sa, sb = [k for _, k in ka], [k for _, k in kb]
    if sa == sb or sorted(sa) != sorted(sb) or len(sa) > ALIGN_MAX:
        return None
    start = next(i for i, (x, y) in enumerate(zip(sa, sb, strict=True)) if x != y)
    end = len(sa) - next(i for i, (x, y) in enumerate(zip(sa[::-1], sb[::-1], strict=True))
                         if x != y)
    xs, ys, n = sa[start:end], sb[start:end], end - start
    for la in range(1, n):
        for lb in range(1, n - la + 1):
            if ys == xs[n - lb:] + xs[la:n - lb] + xs[:la] and _turned(
                    a, b, (ka[start:start + la], ka[start + la:end - lb], ka[end - lb:end]),
                    (kb[start:start + lb], kb[start + lb:end - la], kb[end - la:end])):
                return (_shown(a, ka[start:start + la], ka[end - lb:end]),
                        _shown(b, kb[start:start + lb], kb[end - la:end]))
    return None


Blocks = tuple[list[tuple[int, str]], list[tuple[int, str]], list[tuple[int, str]]]


def _turned(a: Facets, b: Facets, in_a: Blocks, in_b: Blocks) -> bool:
    """Whether two blocks exchanged around a middle (each text's first block, middle, last
    block, as (position, key)) turn the fact round: both blocks numbers; or, with the same "to"
    and "from" in both texts (else a converse: "rents … to us" / "rent … from"), a "rather
    than", "instead of" or "not" between the blocks in both, one block "we", or the same
    active verb in both middles. With nothing between the blocks only the numbers and the
    contrast count: a phrase moved to the front ("in Leeds, backups run" / "backups run in
    Leeds") exchanges two blocks too."""
    first_a, middle_a, last_a = in_a
    if all(k.startswith("#") for _, k in first_a + last_a) and len(first_a) == len(last_a) == 1:
        return True
    if ({"to", "from"} & set(a.tokens)) != ({"to", "from"} & set(b.tokens)):
        return False
    first_b, middle_b, last_b = in_b
    contrast = bool(_CONTRASTS & set(a.tokens[first_a[-1][0] + 1:last_a[0][0]])
                    and _CONTRASTS & set(b.tokens[first_b[-1][0] + 1:last_b[0][0]]))
    if not middle_a:
        return contrast
    ends = {" ".join(k for _, k in first_a), " ".join(k for _, k in last_a)}
    return contrast or "we" in ends or _active_verb(a, b, [i for i, _ in middle_a],
                                                    [i for i, _ in middle_b])


def _shown(f: Facets, *blocks: list[tuple[int, str]]) -> str:
    """The blocks as the text writes them: "charged aircraft … swapped"."""
    return " … ".join(" ".join(f.tokens[i] for i, _ in block) for block in blocks)


def _keys(f: Facets) -> list[tuple[int, str]]:
    """(position, stem) of the text's content words and numbers in order, "we", "us" and "our"
    as one party, a number as "#" and its value ("8" and "eight" alike)."""
    content, out = dict(words(f)), []
    for i, t in enumerate(f.tokens):
        value = number(t)
        if value is not None:
            out.append((i, f"#{value:g}"))
        elif t in _US or i in content:
            out.append((i, "we" if t in _US else stem(t)))
    return out


#: Words before a participle that make it passive: "dogs **aren't** allowed", "**gets** thrown".
_PASSIVE = COPULAS | frozenset("""isn't aren't wasn't weren't get gets got gotten getting
""".split())  # noqa: SIM905


def _active_verb(a: Facets, b: Facets, middle_a: list[int], middle_b: list[int]) -> bool:
    """Whether both middles hold the same word as a predicate, with no copula before it."""
    def verbs(f: Facets, middle: list[int]) -> set[str]:
        return {verb_stem(f.tokens[i]) for i in middle if i in predicates(f)
                and not any(t in _PASSIVE for t in f.tokens[max(0, i - 2):i])}
    return bool(verbs(a, middle_a) & verbs(b, middle_b))

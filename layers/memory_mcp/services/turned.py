"""Who does what to whom, turned round: the same words, the parties in each other's places.

"Henry manages Iris" / "Iris manages Henry", "dispatch must call the crew leads back" / "crew
leads must call dispatch back", "**8** hours on and **16** off" / "**16** on and **8** off": the
model scores each pair as one fact (the same words), and each forgot the stored one in a forget
set written apart from the rules. A rewording moves phrases too ("in Leeds, backups run" /
"backups run in Leeds"), turns the voice ("Iris is managed by Henry") or says the converse
("rents scaffolding to us" / "we rent it from Apex"), so each rule here reads an exchange only
where the sentence says the roles turned.
"""

from __future__ import annotations

from itertools import pairwise

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import COPULAS, predicates
from memory_mcp.services.lexicon import ENVIRONMENTS, MONTHS, TIMES, WEEKDAYS
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, stem, verb_stem
from memory_mcp.services.word_pool import parts_pool
from memory_mcp.services.wording import ALIGN_MAX, PARTICLES, words


def roles(a: Facets, b: Facets) -> tuple[str, str] | None:
    """The same names in other places of the same sentence ("Henry manages Iris" / "Iris
    manages Henry", "blue-green deploys in staging and rolling deploys in production" and the
    other way round): the same skeleton of words, the names in another order.

    Exempt when exactly one text is passive ("Iris is managed by Henry"): the voice flips the
    order of the same roles."""
    def named(f: Facets) -> set[str]:
        return set(f.names) | {ENVIRONMENTS[t] for t in f.tokens if t in ENVIRONMENTS}

    shared = named(a) & named(b)
    if len(shared) < 2:
        return None

    def skeleton(f: Facets) -> tuple[list[str], list[str]]:
        """Content words as stems, each run of adjacent names (or environments) as one mark:
        "Dr. Okafor" is one person in the place "Lena" holds in the other text."""
        content = dict(words(f))
        names: dict[str, None] = {}
        keys: list[str] = []
        last = -2
        for i, w in enumerate(f.tokens):
            name = ENVIRONMENTS.get(w) if w in ENVIRONMENTS else (w if w in f.names else None)
            if name is not None:
                if last != i - 1:
                    keys.append("\0")
                names.setdefault(name)
                last = i
            elif i in content:
                keys.append(stem(w))
        return [n for n in names if n in shared], keys

    order_a, keys_a = skeleton(a)
    order_b, keys_b = skeleton(b)
    if keys_a != keys_b:
        return None
    if order_a == order_b or (("by" in a.tokens) != ("by" in b.tokens)):
        return None
    return " … ".join(order_a), " … ".join(order_b)


def swapped_kinds(a: Facets, b: Facets) -> tuple[str, str] | None:
    """Two kinds of one noun in the other order: "**project** architects … checked by a
    **junior** architect" / "**junior** architects … checked by a **project** architect" (the
    same words; who checks whom turned round). Exempt, as ``roles``, when one text only is
    passive."""
    if ("by" in a.tokens) != ("by" in b.tokens):
        return None

    def kinds(f: Facets) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for x, y in pairwise(f.tokens):
            if content_word(x) and content_word(y) and x.isalpha():
                out.setdefault(stem(y), []).append(stem(x))
        return {head: mods for head, mods in out.items() if len(set(mods)) >= 2}

    def skeleton(f: Facets, mods: set[str]) -> list[str]:
        return ["\0" if stem(w) in mods else stem(w) for _, w in words(f)]

    ka, kb = kinds(a), kinds(b)
    for head in sorted(ka.keys() & kb.keys()):
        ma, mb = ka[head], kb[head]
        if set(ma) == set(mb) and ma != mb \
                and skeleton(a, set(ma)) == skeleton(b, set(mb)):  # the same sentence: a
            # rewording that moves the clauses ("a project architect has to check the details
            # drawn by junior architects") is not turned round
            return (" … ".join(f"{m} {head}" for m in ma), " … ".join(f"{m} {head}" for m in mb))
    return None


#: Words between a route's two ends ("from the launch **for** the field", "A **to** B").
_ROUTE = frozenset(["to", "for", "towards", "toward", "into"])
#: The most words, between the first and the last that differ, an exchange is read over.
_SPAN_MAX = 40
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
    **from Apex**" exchange blocks too, and say the same. Exempt, as ``roles``, when
    exactly one text is passive."""
    if ("by" in a.tokens) != ("by" in b.tokens):
        return None
    ka, kb = _unmodified(a, b, _keys(a), _keys(b))
    sa, sb = [k for _, k in ka], [k for _, k in kb]
    if sa == sb or sorted(sa) != sorted(sb) or len(sa) > ALIGN_MAX:
        return None
    start = next(i for i, (x, y) in enumerate(zip(sa, sb, strict=True)) if x != y)
    end = len(sa) - next(i for i, (x, y) in enumerate(zip(sa[::-1], sb[::-1], strict=True))
                         if x != y)
    xs, ys, n = sa[start:end], sb[start:end], end - start
    if n > _SPAN_MAX:
        return None  # every split tried costs n² list compares: a reordered long text is the
        # "each says what the other does not" rule's
    for la in range(1, n):
        for lb in range(1, n - la + 1):
            if ys == xs[n - lb:] + xs[la:n - lb] + xs[:la] and _turned(
                    a, b, (ka[start:start + la], ka[start + la:end - lb], ka[end - lb:end]),
                    (kb[start:start + lb], kb[start + lb:end - la], kb[end - la:end])):
                return (_shown(a, ka[start:start + la], ka[end - lb:end]),
                        _shown(b, kb[start:start + lb], kb[end - la:end]))
    return None


Blocks = tuple[list[tuple[int, str]], list[tuple[int, str]], list[tuple[int, str]]]
Keys = list[tuple[int, str]]


def _unmodified(a: Facets, b: Facets, ka: Keys, kb: Keys) -> tuple[Keys, Keys]:
    """The two texts' keys without one word that only one text has, right before a word both
    have: "reaches the **deep-water** lettuce rafts" / "… the lettuce rafts" name one thing
    (the seventy-ninth set). Not a number, a time, an adverb ("runs **weekly**, Wednesdays
    at 11:15") or "we": those say when or who, and the order rules read them."""
    sa, sb = {k for _, k in ka}, {k for _, k in kb}
    for f, keys, mine, theirs, flip in ((a, ka, sa, sb, False), (b, kb, sb, sa, True)):
        extra = [n for n, (_, k) in enumerate(keys) if k not in theirs]
        if len(extra) != 1 or theirs - mine or extra[0] + 1 == len(keys):
            continue
        word = f.tokens[keys[extra[0]][0]]
        if keys[extra[0]][1] != "we" and not keys[extra[0]][1].startswith("#") \
                and not word.endswith("ly") \
                and word not in TIMES and word not in WEEKDAYS and word not in MONTHS:
            rest = keys[:extra[0]] + keys[extra[0] + 1:]
            return (ka, rest) if flip else (rest, kb)
    return ka, kb


def _turned(a: Facets, b: Facets, in_a: Blocks, in_b: Blocks) -> bool:
    """Whether two blocks exchanged around a middle (each text's first block, middle, last
    block, as (position, key)) turn the fact round: both blocks numbers; or, with the same "to"
    and "from" in both texts (else a converse: "rents … to us" / "rent … from"), a "rather
    than", "instead of" or "not" between the blocks in both, a clause of time or condition
    between them in both ("once", "when", "if"), one block "we", or the same active verb in
    both middles. With nothing between the blocks only the numbers and the
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
    if not middle_a:  # "leaves **the launch for the landing field**" / "… the field for the
        # launch": a route's two ends
        return contrast or bool(_ROUTE & set(a.tokens[first_a[-1][0] + 1:last_a[0][0]])
                                and _ROUTE & set(b.tokens[first_b[-1][0] + 1:last_b[0][0]]))
    ends = {" ".join(k for _, k in first_a), " ".join(k for _, k in last_a)}
    joined = bool(_CLAUSE_JOINS & set(a.tokens[first_a[-1][0] + 1:last_a[0][0]])
                  and _CLAUSE_JOINS & set(b.tokens[first_b[-1][0] + 1:last_b[0][0]]))
    # "a **brood box** is added once the **honey super** is full" / "a honey super is added
    # once the brood box is full": one block acts, the other sets when
    return contrast or joined or "we" in ends or _active_verb(a, b, [i for i, _ in middle_a],
                                                              [i for i, _ in middle_b])


#: Words that open a clause of time or condition between two blocks, or the next step ("to
#: the finishing bench first, **then** on to the quality team").
_CLAUSE_JOINS = frozenset(["once", "when", "whenever", "after", "before", "until", "if",
                           "unless", "while", "then"])


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
        elif (t in _US or i in content) and t not in PARTICLES:  # "drives them **back** to"
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


def named_doer(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's doer, b's doer) where both texts have the same verb done, active, by a subject
    before it, and one subject names someone the other text never mentions while the other
    subject has a word of its own: "**our in-house maintenance team** sharpens the guillotine
    blade" / "**Keller Blades** sharpens the guillotine blade" (the twentieth set). A rewording
    that names the doer names it in both ("Keller Blades" / "Keller's team")."""
    if "by" in a.tokens or "by" in b.tokens:
        return None
    in_a, in_b = _active_subject(a), _active_subject(b)
    if in_a is None or in_b is None or in_a[0] != in_b[0]:
        return None
    pool_a, pool_b = parts_pool(a), parts_pool(b)
    for mine, theirs, their_text, my_pool, their_pool in (
            (in_a[1], in_b[1], b, pool_a, pool_b), (in_b[1], in_a[1], a, pool_b, pool_a)):
        named = [w for w in theirs if w in their_text.names]
        own = [w for w in mine if not their_pool.has(w, 0.75)]
        if named and own and not all(my_pool.has(w, 0.75) for w in named):
            return " ".join(in_a[1]), " ".join(in_b[1])
    return None


def _active_subject(f: Facets) -> tuple[str, list[str]] | None:
    """(the first verb's stem, the subject's words: content words and "we" / "our") when the
    text opens with an active clause: its first predicate comes before any auxiliary."""
    verbs = predicates(f)
    if not verbs:
        return None
    at = min(verbs)
    if any(t in _PASSIVE or t == "must" for t in f.tokens[:at]):
        return None
    words = [t for t in f.tokens[:at] if t in _US or content_word(t)]
    return (verb_stem(f.tokens[at]), words) if words else None


"""A name moved into another clause: "Sam Whitaker handles pitch raises; junior tuners only do
routine tunings" / "junior tuners handle pitch raises **while Sam Whitaker** only does routine
tunings", "… rigged by Aisha Bello; Liam Ortiz checks them" / "Liam Ortiz rigs …, and Aisha
Bello checks them".

Found by the twenty-second and twenty-third forget sets (written apart from the rules): the
same names and nearly the same words, so every facet agrees and the cosine is high, but who
does which part has changed. ``turned`` catches two blocks exchanged word for word around one
verb; these texts also turn a passive round or rename the verb, so this rule reads clauses
instead: each clause of one text is matched to the clause of the other that shares the most
words, and a name that sits in that clause in one text but in another clause in the other
has changed roles.

Clause breaks are the ones a writer marks: a semicolon or colon, a sentence end (not after
"Dr." or "rev."), "while" / "whereas", and "and" / "but" before a new subject ("… **and
the** spawn lab team has to ask him", "… car park **and Aisha** Bello checks them"), never
inside a list of names ("Ravi and Noor", "Utah and Colorado"). Measured on the twenty-three
forget sets: no rewording forgotten before is refused by it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from memory_mcp.services.facets import Facets, facets
from memory_mcp.services.grammar import predicates
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, stem
from memory_mcp.services.wording import subject_end

#: Words that start a new subject after "and" / "but".
_SUBJECTS = frozenset("the everyone everybody nobody we they he she our their".split())  # noqa: SIM905
#: A period after these ends an abbreviation ("Dr.", "St.", "rev."), not a sentence.
_ABBREVIATION = re.compile(r"\b(?:[A-Z][a-z]{0,3}|rev|no|vs|approx|e\.g|i\.e)\.$")
#: Words a clause shares with its counterpart, at least, and more than with the clause
#: holding the name there: fewer is no evidence of which clause is which.
_SHARED = 2
_MARGIN = 2


def moved_name(ra: str, rb: str, a: Facets, b: Facets) -> tuple[str, str] | None:
    """(the name, the words of the clause it left) when a name of both texts sits in the
    clause of one that matches another clause of the other; None otherwise. ``a`` / ``b``:
    the texts' facets (their names). Short texts only: the caller's long-text rule decides
    long ones."""
    if not _named(a) & _named(b):
        return None  # no name both texts hold: nothing to move (most pairs end here)
    ca, cb = _clauses(ra, a), _clauses(rb, b)
    if len(ca) < 2 or len(cb) < 2:
        return None
    for x, y in ((ca, cb), (cb, ca)):
        for names, words in x:
            for name in sorted(names):
                own = [len(w & words) for n, w in y if name in n]
                if not own:
                    continue
                best_names, best_words = max(y, key=lambda c: len(c[1] & words))
                shared = len(best_words & words)
                if name not in best_names and shared >= _SHARED \
                        and shared - max(own) >= _MARGIN:
                    return name, " ".join(sorted(best_words & words))
    return None


def _named(f: Facets) -> frozenset[str]:
    """The names this rule follows: words of letters, not units ("kHz")."""
    return frozenset(n for n in f.names if len(n) > 2 and n.isalpha() and n not in f.units)


@lru_cache(maxsize=4096)
def _clauses(text: str, f: Facets) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """(the names, the stems of the other content words and numbers) of each clause. Cached
    per text, like ``facets``: a stored fact is read against every request."""
    names = _named(f)
    out = []
    for part in _segments(text):
        g = facets(part)
        words = frozenset(stem(t) for t in g.tokens if t not in f.names
                          and (content_word(t) or number(t) is not None))
        out.append((frozenset(t for t in g.tokens if t in names), words))
    return tuple(out)


def _segments(text: str) -> list[str]:
    sentences = pieces(text, r";\s*|:\s+")
    out: list[str] = []
    for sentence in sentences:
        words, current = sentence.split(), list[str]()
        for k, word in enumerate(words):
            low = word.lower().strip(",")
            after = words[k + 1] if k + 1 < len(words) else ""
            if current and (low in ("while", "whereas") or (
                    low in ("and", "but") and (after.lower() in _SUBJECTS or (
                        after[:1].isupper() and not words[k - 1][:1].isupper())))):
                out.append(" ".join(current))
                current = []
                continue
            current.append(word)
        if current:
            out.append(" ".join(current))
    return out


#: "and" before a second verb of the same subject opens a clause ("… checks harnesses for
#: wear every Monday **and replaces any** with frayed stitching", the two-hundred-and-
#: nineteenth set): an -s verb before its object, or a verb before "out", "via" or "back".
AND_VERB = (r"\s+and\s+(?=[a-z]+\s+(?:out|via|back)\s"
            r"|[a-z]+[^s\W]s\s+(?:the|a|an|any|all|it|them|each|every|its|their|our)\s)")


#: Content words of a request that may be missing from the one clause it restates: a swapped
#: word or two, which the rules then read against that clause alone.
_OUTSIDE = 2


def borrowing_clause(rb: str, a: Facets, *, own_verb: bool = False
                     ) -> tuple[str, frozenset[str]] | None:
    """(the clause of the stored ``rb`` the request ``a`` restates, the request's words that
    only another clause has) when the request is that one clause but for a word or two it takes
    from another: "the **monitor** engineer mixes on the SD12" against "FOH engineer Sam Ortiz
    mixes on the SD12; **monitor** engineer Kate Lin uses the S6L" (the hundred-and-fiftieth
    set) joins two clauses' words into a fact neither says. Else None."""
    parts = pieces(rb, r";\s*|,\s+(?:and|then)\s+|" + AND_VERB)  # ", then moves to …"
    if len(parts) < 2:
        return None
    # with ``own_verb``, the request's verb may be another word for the clause's ("the
    # junior troupe **twirls** 28-inch batons" / "senior majorettes **use** 28-inch batons"),
    # and a hyphenated word is read in its parts ("its 45-minute **warm-up**" / "**warms up**")
    verbs = {a.tokens[i] for i in predicates(a) if i and content_word(a.tokens[i - 1])} \
        if own_verb else set()
    words = {p: stem(p) for t in a.tokens if content_word(t) and t not in verbs
             for p in (t.split("-") if own_verb and "-" in t[1:] else (t,))
             if content_word(p)}
    at, outside, others = _closest(parts, set(words.values()), _part_stems if own_verb else None)
    borrowed = frozenset(t for t, s in words.items() if s in others)
    if not borrowed or outside > _OUTSIDE:
        return None
    theirs = set().union(*(facets(p).numbers for k, p in enumerate(parts) if k != at))
    if a.numbers & (theirs - facets(parts[at]).numbers):
        return None  # a number of another clause: the request says both ("stop lines 300 mm,
        # give-way lines 200 mm")
    return parts[at], borrowed


def borrowed_number(rb: str, a: Facets) -> tuple[str, str] | None:
    """(the clause the request restates, the number it takes from another clause) when the
    request says none of that clause's numbers: "the café till runs TixPoint **5.4**" against
    "The entrance ticket scanners run TixPoint **5.4**; the café till stays on TixPoint 5.1
    until …" (the two-hundred-and-twenty-sixth set). The numbers rule sees 5.4 among the
    stored numbers. Else None."""
    if not a.numbers:
        return None
    parts = pieces(rb, r";\s*|,\s+(?:and|then)\s+|" + AND_VERB)
    if len(parts) < 2:
        return None
    words = {stem(t) for t in a.tokens if content_word(t)}
    at, outside, _ = _closest(parts, words)
    own = facets(parts[at]).numbers
    theirs = set().union(*(facets(p).numbers for k, p in enumerate(parts) if k != at)) - own
    taken = a.numbers & theirs
    if outside > _OUTSIDE or not own or a.numbers & own or not taken:
        return None
    # the words of the number's own clause that come with it are few beside the clause's
    # ("runs" TixPoint 5.4 against "café till"); as many restate both clauses ("we **need** 4
    # **volunteers** for the Christmas fair stall")
    mine = _stems(parts[at])
    said = {w for k, p in enumerate(parts) if k != at and facets(p).numbers & taken
            for w in _stems(p) - mine} & words
    if len(said) > 1 and 2 * len(said) > len(words & mine):
        return None
    return parts[at], " ".join(f"{n:g}" for n in sorted(taken))


def subject_borrowed(clause: str, borrowed: frozenset[str], a: Facets) -> bool:
    """Whether the request ``a`` opens with the words it borrows, as its subject, and says no
    word of the subject of the ``clause`` it restates: "the **front ensemble** does its
    warm-up in lot C" / "**The battery** warms up … in lot C; the front ensemble warms up
    separately" (the hundred-and-sixty-ninth set), another one doing the clause's act."""
    mine = a.tokens[:subject_end(a)]
    if not mine or not all(w in mine for w in borrowed):
        return False
    c = facets(clause)
    theirs = {stem(t) for t in c.tokens[:subject_end(c)] if content_word(t)}
    return bool(theirs) and not theirs & {stem(t) for t in a.tokens}


def restated_clause(rb: str, a: Facets) -> str | None:
    """The one sentence or semicolon clause of the stored ``rb`` that the request ``a``
    restates, when ``rb`` has several and all but ``_OUTSIDE`` of the request's content words
    are in that one: "sweat-soaked chorus **tights** are washed at 40 °C" against "Sweat-soaked
    chorus **shirts** are washed at 40 °C after every show; the velvet doublets are
    dry-cleaned only". Read against the whole fact, the other clause's words hid the swap.
    A ", and" opens a clause too ("Tank T5 feeds the drum-filling line**, and** any overflow
    goes back to T3", the hundred-and-twelfth set).
    Short texts only (``agreement``), as ``moved_name``: a document has hundreds of
    sentences."""
    parts = pieces(rb, r";\s*|,\s+and\s+|" + AND_VERB)
    if len(parts) < 2:
        return None
    mine = {stem(t) for t in a.tokens if content_word(t)}
    at, outside, others = _closest(parts, mine)
    if outside > _OUTSIDE or mine & others:
        return None  # not one clause: "Kai does the morning bookings and Nerea afternoons"
    return parts[at]


_ASIDE = re.compile(r"\s*\(([^()]*)\)")


def without_aside(rb: str, a: Facets) -> str | None:
    """The stored ``rb`` without its asides in brackets, when the request ``a`` says no word of
    them: "Tobias Fenn **(assistant manager)** has to approve any refund over £20" against "…
    has to approve any **discount** over £20" (the two-hundred-and-twentieth set). A rewording
    may leave an aside out, and its words kept the swapped one from being the one word that
    differs. Else None."""
    asides = _ASIDE.findall(rb)
    if not asides or any(_said(aside) for aside in asides):
        return None  # a number, a date or a name in brackets: "(£75)", "(November to …)"
    mine = {stem(p) for t in a.tokens for p in (t, *t.split("-"))}  # "bike-to-run"
    if any(_stems(aside) & mine for aside in asides):
        return None
    return _ASIDE.sub("", rb)


def _said(aside: str) -> bool:
    """Whether an aside says a value or a person, which a rewording keeps in other words. A
    make and model ("(Johnston CX202)", the two-hundred-and-fifty-fifth set) a rewording
    writes as it stands, or leaves out."""
    f = facets(aside)
    coded = all(_CODE.fullmatch(t) or (t in f.names and not t[:1].isdigit()) for t in f.tokens)
    if f.tokens and coded and any(_CODE.fullmatch(t) for t in f.tokens):
        return False
    return bool(f.names or f.months or f.weekdays or f.times or any(c.isdigit() for c in aside))


#: A model code: letters and digits in one word ("cx202", "hh-2207").
_CODE = re.compile(r"(?=[a-z\-]*\d)(?=[\d\-]*[a-z])[a-z\d\-]+")


def _closest(parts: list[str], mine: set[str],
             reader: Callable[[str], set[str]] | None = None) -> tuple[int, int, set[str]]:
    """(the clause sharing most of the request's stems ``mine``, how many of ``mine`` it
    lacks, the stems only the other clauses have)."""
    stems = [(reader or _stems)(p) for p in parts]  # each clause read once
    at = max(range(len(parts)), key=lambda k: len(mine & stems[k]))
    others = set().union(*(s for k, s in enumerate(stems) if k != at)) - stems[at]
    return at, len(mine - stems[at]), others


def pieces(text: str, breaks: str = r";\s*") -> list[str]:
    """The text's clauses at ``breaks`` (semicolons; ``_segments`` adds colons) and its
    sentences (not split after "Dr." or "rev.")."""
    out: list[str] = []
    for piece in re.split(breaks, text):
        held = ""
        for sentence in re.split(r"(?<=\.)\s+", piece):
            if held and not _ABBREVIATION.search(held):
                out.append(held)
                held = sentence
            else:
                held = f"{held} {sentence}".strip()
        if held:
            out.append(held)
    return out


def _stems(text: str) -> set[str]:
    return {stem(t) for t in facets(text).tokens if content_word(t)}


def _part_stems(text: str) -> set[str]:
    """``_stems`` with each hyphenated word's parts as well ("**28-inch**" says "inch")."""
    return _stems(text) | {stem(p) for t in facets(text).tokens if "-" in t[1:]
                           for p in t.split("-") if content_word(p)}

"""A thing narrowed by words one text puts on it and the other does not: "**a Division 1**
player who is late forfeits" / "**A** player who is late forfeits", "brushed inside the crown
**and the brim**" / "… inside the crown **only**", "**any** kendama can be returned" /
"kendamas **with cracked paint** can be returned", "**all three** timed runs count" / "**only
the fastest** of the three counts" (the 305th to 307th sets).

The word-set rules see these as a word or two the request adds, which is what a rewording adds
as often ("a twelve-hour fast"); here the words sit where a kind goes (a name and a number
between the article and the noun both texts share), or the other text says the thing is the
only one, or holds of any or all of them. Each is one fact about a narrower or wider set of
things: forgetting the one must not remove the other.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import (
    AUX,
    CLAUSE_BREAKS,
    DETERMINERS,
    PREPOSITIONS,
    SLOT_TOKENS,
    verb_s,
)
from memory_mcp.services.lexicon import UNIT_DAYS
from memory_mcp.services.named_things import text_stems
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, stem

#: Words that open a relative or a with-phrase narrowing the noun before them.
_NARROWING = frozenset(["with", "without"])
_THAT = frozenset(["that", "which", "who", "whose", "in", "of", "from", "for", "on"])
_ANY = frozenset(["any", "every", "all"])
_JOINS = frozenset(["and", "or"])
_ANYWHERE = frozenset(["nowhere", "nothing", "none", "elsewhere", "else", "no", "anything",
                       "everything", "something"])
_WHEN = frozenset(["day", "night", "morning", "evening", "afternoon", "week", "month", "year",
                   "time", "shift", "session"])


def added_kind(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's narrowed noun, b's plain one) where ``a`` puts a name and a number the other text
    never says ("**Division 1**"), or a setting ("**practice**", ``_SETTINGS``), between an
    article and a noun that ``b`` has right after an article, the same word after it in both:
    another, narrower thing. Any other word put
    there is as often a rewording's ("the **back-room** Bernina" / "the Bernina in the back
    room", "the **sim** suite"): 95 rewordings of the earlier sets were refused that way."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None  # a short fact's rule, as the other slot rules
    ta, tb = ("^", *a.tokens), ("^", *b.tokens)  # "^": a text's start, where an article
    # would be ("**Field-grown** melons are harvested …" / "Melons are harvested …")
    plain = {(tb[j], tb[j + 1] if j + 1 < len(tb) else "") for j in range(1, len(tb))
             if tb[j - 1] in _OPENS and content_word(tb[j])}
    numbered = {tb[j] for j in range(1, len(tb) - 1)
                if (n := number(tb[j + 1])) is not None and n not in a.numbers}  # "the **pilot
    # line**" / "**Line 2**"
    for i in range(1, len(ta) - 1):
        if ta[i - 1] not in _OPENS:
            continue
        if (ta[i] in _SETTINGS or _grown(ta[i])) and ta[i] not in tb:  # "the **practice**
            # course" / "the course"
            width = 1
        elif _kind_written_in(ta[i], ta[i + 1], plain, tb):  # "**e-bikes** not collected" /
            # "bikes not collected" (the 344th set): a kind of the thing, written into it
            return ta[i], ta[i].partition("-")[2]
        elif ta[i] in a.names and ta[i] not in b.names and i + 2 < len(ta) \
                and (n := number(ta[i + 1])) is not None and n not in b.numbers:
            width = 2  # "a **Division 1** player" / "A player"
        else:
            continue
        k = i + width
        head = (ta[k], ta[k + 1] if k + 1 < len(ta) else "")
        if content_word(head[0]) and (head in plain or (width == 1 and head[0] in numbered)):
            return " ".join(ta[i - 1:k + 1]).lstrip("^ "), f"{ta[i - 1]} {head[0]}".lstrip("^ ")
    return None


_OPENS = DETERMINERS | {"^"}


def _kind_written_in(word: str, after: str, plain: set[tuple[str, str]],
                     other: tuple[str, ...]) -> bool:
    """Whether ``word`` is one hyphenated kind and thing ("e-bikes") whose thing the other
    text says bare before the same word, and whose kind it never says."""
    kind, _, thing = word.partition("-")
    return word.count("-") == 1 and word not in other and (thing, after) in plain \
        and kind.isalpha() and kind not in other


def _grown(word: str) -> bool:
    """"**field-grown**", "**tunnel-grown**", "**barn-reared**": where a crop or an animal is
    raised (the 329th set), not how ("home-grown", "fast-grown")."""
    first, _, last = word.partition("-")
    return last in ("grown", "reared", "raised") and first not in _HOW_GROWN


_HOW_GROWN = frozenset(["home", "locally", "well", "fast", "slow", "free", "farm", "hand"])


#: Settings a thing is used in, put before its noun: "the **practice** course" is not the
#: course (the 312th set; the prompt's own example of another environment).
_SETTINGS = frozenset(["practice", "training", "test", "trial", "rehearsal", "demo", "warm-up",
                       "backup", "spare", "pilot"])


def only_one(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text says a noun "only" right after it ("inside the
    crown **only**") and the other joins another thing to the same noun ("inside the crown
    **and the brim**") that the first never names."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        tx, ty = x.tokens, y.tokens
        stems_x = text_stems(tx)
        for i in range(1, len(tx)):
            if tx[i] != "only" or not content_word(tx[i - 1]) \
                    or (i + 1 < len(tx) and content_word(tx[i + 1])):
                continue
            noun = tx[i - 1]
            for j in range(len(ty) - 2):
                if ty[j] != noun or ty[j + 1] not in _JOINS:
                    continue
                k = j + 2 + (ty[j + 2] in DETERMINERS)
                if k == j + 2 and verb_s(ty[k]):
                    continue  # "on Thursdays **and sends** a written quote": a clause
                if k < len(ty) and content_word(ty[k]) and stem(ty[k]) not in stems_x \
                        and ty[k] not in _ANYWHERE:  # "LS7 and nowhere else"
                    found = (f"{noun} only", " ".join(ty[j:k + 1]))
                    return (found[1], found[0]) if flip else found
    return None


def any_or_narrowed(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text says "any" (or "every", "all") of a noun, with
    nothing after it that narrows it, and the other narrows the same noun with "with" and
    words the first never says: "**any** kendama can be returned" / "kendamas **with cracked
    paint** can be returned". Not "that" or "which", whose verb a rewording words otherwise
    ("any batch that grows bacteria" / "any batch showing bacterial growth")."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        tx, ty = x.tokens, y.tokens
        nouns = {stem(tx[i + 1]): i for i in range(len(tx) - 1)
                 if tx[i] in _ANY and content_word(tx[i + 1])
                 and not (i + 2 < len(tx) and (tx[i + 2] in _NARROWING or tx[i + 2] in _THAT
                                               or tx[i + 2].endswith("ing")))}
        if not nouns:
            continue
        stems_x = text_stems(tx)
        for j in range(len(ty) - 2):
            k = j + 2 + (j + 3 < len(ty) and ty[j + 2] in ("a", "an"))  # "every client **with a
            # history** of pressure ulcers" (the 513th set)
            phrase = _phrase(ty[k:k + 3])
            if stem(ty[j]) in nouns and ty[j + 1] in _NARROWING and content_word(ty[k]) \
                    and ty[j] not in _WHEN and ty[k] not in _ANYWHERE \
                    and not any(stem(w) in stems_x for w in phrase):  # not "each night,
                # **with anything** over 21.5 posted": a time, and what is done then
                i = nouns[stem(ty[j])]
                found = (" ".join(tx[i:i + 2]), " ".join(ty[j:j + 3]))
                return (found[1], found[0]) if flip else found
    return None


def only_the_best(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text counts "only the fastest" (the best, the first,
    the last) of some things and the other counts "all" of them without that word: "**all
    three** of their timed runs count" / "**only the fastest** of their three timed runs
    counts" (the 307th set): one of them, not every one."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        tx, ty = x.tokens, y.tokens
        best = next((tx[i + 2] for i in range(len(tx) - 2) if tx[i] == "only"
                     and tx[i + 1] == "the" and _ranked(tx[i + 2])), None)
        every = next((k for k, w in enumerate(ty) if w in _ALL), None)
        if best is not None and every is not None and stem(best) not in text_stems(ty):
            found = (f"only the {best}", " ".join(ty[every:every + 2]))
            return (found[1], found[0]) if flip else found
    return None


_ALL = frozenset(["all", "every", "both"])
_RANKS = frozenset(["first", "last", "top", "best", "worst", "latest", "earliest"])


def _ranked(word: str) -> bool:
    """A superlative or a rank: "fastest", "highest", "first", "best"."""
    return word in _RANKS or (word.endswith("est") and len(word) > 5)


def only_for(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, "") where ``a`` limits the fact to "<people> only" ("£5 **for members
    only**", the 314th set) and ``b`` never names them: a narrower rule than the stored one.
    Only the request's: a request that leaves out a limit the stored text has is shorter,
    not other."""
    ta, stems_b = a.tokens, text_stems(b.tokens)
    for i in range(2, len(ta)):
        if ta[i] != "only":
            continue
        start = next((k for k in range(i - 2, max(-1, i - 4), -1) if ta[k] == "for"), None)
        said = ta[start + 1:i] if start is not None else ()
        if said and all(content_word(w) for w in said) and not set(said) & _ANYWHERE \
                and any(stem(w) not in stems_b for w in said) \
                and (len(said) == 1 or "only" not in b.tokens):  # "for **grand** pianos only"
            # / "£85 per piano" (the 377th set); "for non-porous **ones** only" / "… surfaces
            # only" keeps the stored limit, worded otherwise
            return " ".join(ta[start:i + 1]), "no such limit"
    return None


def other_per(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where both texts state an amount "per" a thing and the things
    differ, the request's never said in the other text: "600 W **per row** of seats" / "power
    **per seat** is limited to 600 W" (the 317th set). Times are the rate rules' ("per week")."""
    said_b = text_stems(b.tokens)
    theirs = [t for i, t in enumerate(b.tokens[1:]) if b.tokens[i] == "per" and content_word(t)]
    if not theirs:
        return None
    for i, t in enumerate(a.tokens[:-1]):
        x = a.tokens[i + 1]
        if t == "per" and content_word(x) and x.isalpha() and x not in UNIT_DAYS \
                and stem(x) not in said_b and not any(
                    y in UNIT_DAYS or not y.isalpha() or x.endswith(y) or y.endswith(x)
                    for y in theirs):  # not "per m³" / "per cubic metre", "per barrow" /
            # "per wheelbarrow", "per three-driver team" / "per team of three"
            return f"per {x}", f"per {theirs[0]}"
    return None


def _phrase(words: tuple[str, ...]) -> list[str]:
    """The content words of a "with" phrase, up to its verb or next preposition: "members
    with **diabetes** are given" (the 322nd set), not "… diabetes are **given**"."""
    out = []
    for w in words:
        if w in AUX or w in PREPOSITIONS or w in CLAUSE_BREAKS:
            break
        if content_word(w):
            out.append(w)
    return out


#: Words that make a narrower group of people of the noun after them: "**committee**
#: members", "**senior** staff", "**junior** players".
_GROUP_RANKS = frozenset("""committee board senior junior full associate life youth adult student
trainee qualified certified founding paid unpaid volunteer""".split())  # noqa: SIM905
#: Nouns for people a rank narrows.
_PEOPLE = frozenset("""members member staff volunteers players users customers guests drivers
riders crew employees students pupils coaches instructors""".split())  # noqa: SIM905


def ranked_people(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's group, b's) where the request puts a rank the stored text never says before a
    people noun the stored text has with the same word after it: "can only be used by
    **committee members who** have done the induction" / "… by **members who** have done the
    induction" (the 394th set). A narrower rule, read from the request's side."""
    ta, tb = a.tokens, b.tokens
    for i in range(len(ta) - 2):
        rank, people, after = ta[i:i + 3]
        if rank not in _GROUP_RANKS or people not in _PEOPLE or rank in tb:
            continue
        for j in range(1, len(tb) - 1):
            if tb[j] == people and tb[j + 1] == after and tb[j - 1] not in _GROUP_RANKS:
                return f"{rank} {people} {after}", f"{people} {after}"
    return None

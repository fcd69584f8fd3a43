"""Who does what: doers swapped around one verb ("**Tom** covers **Ben**'s shifts" /
"**Ben** covers **Tom**'s shifts"), and who does which of two steps: "breakages are recorded
on the return sheet **by Gemma Price** and then checked **by the client**" / "… recorded on
the return sheet **by the client** and checked by the warehouse supervisor, **Gemma Price**"
(the two-hundred-and-fifty-seventh and -sixty-second sets).

Both texts name both doers and both steps, so the word sets see one fact; what changed is
which doer stands before the verb, or after which step's "by".
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import AUX, CLAUSE_BREAKS, PREPOSITIONS, SLOT_TOKENS, verb_s
from memory_mcp.services.stems import content_word, stem

#: Words a participle may stand before its "by" ("recorded **on the return sheet** by").
_REACH = 6
#: Words of a doer read after "by".
_DOER = 5


def swapped_agents(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's step and doer, b's) where a doer of one step in one text does another step in
    the other, and the step's doers share no word. Else None."""
    da, db = _doers(a.tokens), _doers(b.tokens)
    if len(da) < _DOER_STEPS or len(db) < _DOER_STEPS:
        return None
    for verb, mine in da.items():
        theirs = db.get(verb)
        if theirs is None or mine & theirs:
            continue
        elsewhere_b = set().union(*(d for v, d in db.items() if v != verb))
        elsewhere_a = set().union(*(d for v, d in da.items() if v != verb))
        if mine & elsewhere_b and theirs & elsewhere_a:
            return f"{verb} by {min(mine)}", f"{verb} by {min(theirs)}"
    return None


#: Steps with a doer each that a text must name.
_DOER_STEPS = 2


def _doers(toks: tuple[str, ...]) -> dict[str, set[str]]:
    """Participle stem → the content stems of the doer after its "by"."""
    out: dict[str, set[str]] = {}
    for i, t in enumerate(toks):
        if t != "by":
            continue
        verb = next((toks[k] for k in range(i - 1, max(-1, i - 1 - _REACH), -1)
                     if toks[k].endswith(("ed", "en")) and len(toks[k]) > _SHORT), None)
        if verb is None:
            continue
        doer: set[str] = set()
        for w in toks[i + 1:i + 1 + _DOER]:
            if w in CLAUSE_BREAKS or w in PREPOSITIONS:
                break
            if content_word(w):
                doer.add(stem(w))
        if doer:
            out.setdefault(stem(verb), doer)
    return out


_SHORT = 3


def swapped_doers(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's doer, b's doer) where the same verb is done by someone each text names after it in
    the other: "**Tom** covers relief watchman **Ben Sykes**'s shifts" / "relief watchman **Ben
    Sykes** covers **Tom**'s shifts" (the 257th set). The doer's name stands right before the
    verb in both ("GitHub Actions runs our CI" / "the CI pipeline runs on GitHub Actions" is
    one fact)."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None  # a short fact's rule: pairs of words over two long texts cost seconds
    ta, tb = a.tokens, b.tokens
    for i in range(1, len(ta)):
        if not verb_s(ta[i]) or not _verb_at(ta, i) or ta[i + 1:i + 2] == ("by",):
            continue  # "VOD **reviews by** coach Dana": a noun
        for j in range(1, len(tb)):
            if tb[j] != ta[i] or not _verb_at(tb, j):
                continue
            if tb[j - 1] not in b.names:
                continue  # the doer's name right before the verb ("Ben **Sykes** covers")
            if ta[i - 1] not in a.names:  # or a noun the name took the place of: "the
                # **client emails Tom Oakes** progress reports" / "**Tom Oakes emails client**
                # progress reports" (the 278th set)
                if content_word(ta[i - 1]) and tb[j + 1:j + 2] == (ta[i - 1],) \
                        and ta[i + 1:i + 2] and ta[i + 1] in a.names \
                        and _named(tb, j, b.names, -1) & _named(ta, i, a.names, 1):
                    return ta[i - 1], " ".join(sorted(_named(tb, j, b.names, -1)))
                continue
            mine, theirs = _named(ta, i, a.names, -1), _named(tb, j, b.names, -1)
            left_out = tb[j + 1:j + 2] in ((), *((w,) for w in _NO_OBJECT))
            if mine and theirs and not mine & theirs \
                    and mine & (b.names if left_out else _named(tb, j, b.names, 1)) \
                    and theirs & _named(ta, i, a.names, 1):
                # the stored text's object may be left out: "Hiroko Tanabe teaches the class
                # …; **Marcus Bell covers** when she is travelling" (the 277th set)
                return " ".join(sorted(mine)), " ".join(sorted(theirs))
    return None


#: Words after a verb whose object is left out: "Marcus Bell covers **when** she is away".
_NO_OBJECT = frozenset(["when", "if", "while", "whenever", "unless", "during", "until"])


def _verb_at(toks: tuple[str, ...], i: int) -> bool:
    """No auxiliary follows the word at ``i`` in its clause: "the Portland stone **names**
    panel **is** cleaned" names a panel."""
    for t in toks[i + 1:]:
        if t in CLAUSE_BREAKS or t in ("when", "if", "unless"):
            return True
        if t in AUX:
            return False
    return True


def _named(toks: tuple[str, ...], i: int, names: frozenset[str], side: int) -> set[str]:
    """The names among the words just before (``side`` -1) or after (1) the word at ``i``."""
    near = toks[max(0, i - _NEAR):i] if side < 0 else toks[i + 1:i + 1 + _NEAR + 1]
    return {t for t in near if t in names}


#: Words before a verb its doer's name may stand in ("Leo Marsh, lead designer, reports").
_NEAR = 4


#: Verbs of taking a thing from someone: the doer of "borrows" is who "it is borrowed from"
#: in the other text only when the thing went the other way.
_TAKES = frozenset(["borrow", "buy", "rent", "hire", "lease"])
#: Words of whom a thing is taken from, after "from".
_SOURCE = 4


def taken_from(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text's doer of a taking verb is whom the other takes
    it from: "St Mary's Church **borrows** our donkey costume" / "the donkey costume is
    **borrowed from** St Mary's Church" (the two-hundred-and-sixty-fifth set). Else None."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None  # a short fact's rule: pairs of words over two long texts cost seconds
    for x, y, flip in ((a, b, False), (b, a, True)):
        tx, ty = x.tokens, y.tokens
        for i in range(1, len(tx)):
            verb = stem(tx[i])
            if verb not in _TAKES or not verb_s(tx[i]) or not content_word(tx[i - 1]) \
                    or tx[i + 1:i + 2] == ("out",):  # "reception **rents out** rackets" lends
                continue
            doer = tx[i - 1]
            for j in range(len(ty) - 2):
                source = ty[j + 2:j + 2 + _SOURCE]
                if "by" in source:  # "hired from Skyworks Team **by** Ana Ferreira"
                    source = source[:source.index("by")]
                if stem(ty[j]) == verb and ty[j].endswith("ed") and ty[j + 1] == "from" \
                        and doer in source:
                    found = f"{doer} {tx[i]}", f"{ty[j]} from {doer}"
                    return (found[1], found[0]) if flip else found
    return None



def other_holder(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's doer and task, b's) where the request gives a task to one of the people the
    stored text lists and the stored text gives it to another: "… a three-person team, with
    **the entrant holding the permit**" / "… an entrant, a top person and **a supervisor who
    holds the permit**" (the 367th set). The task is a verb in -s or -ing and its object,
    said once in each text. Else None."""
    mine, theirs = _tasks(a.tokens), _tasks(b.tokens)
    if not (mine and theirs):
        return None
    said_a, said_b = {stem(t) for t in a.tokens}, {stem(t) for t in b.tokens}
    for task, doer in mine.items():
        other = theirs.get(task)
        if other is not None and other[0] != doer[0] and doer[0] in said_b \
                and other[0] not in said_a:
            return doer[1], other[1]
    return None


def _tasks(toks: tuple[str, ...]) -> dict[tuple[str, str], tuple[str, str]]:
    """(the verb's stem, its object's stem) → (the doer's stem, the words), for each "<doer>
    (who) <verb>s|<verb>ing the <object>" with "the <doer>" or "a <doer>" before it."""
    out: dict[tuple[str, str], tuple[str, str]] = {}
    for i in range(1, len(toks) - 2):
        verb = toks[i]
        if not (verb.endswith("ing") or verb_s(verb)) or toks[i + 1] not in ("the", "a", "an"):
            continue
        k = i - 1 - (toks[i - 1] in ("who", "that"))
        if k < 1 or not content_word(toks[k]) or toks[k] in AUX \
                or toks[k - 1] not in ("the", "a", "an"):
            continue  # one of the people, after its article: not a name ("Priya **Nand**
            # sweeps"), nor a word of a longer name ("the plant engineering **team** checks")
        out.setdefault((stem(verb), stem(toks[i + 2])),
                       (stem(toks[k]), " ".join(toks[k:i + 3])))
    return out

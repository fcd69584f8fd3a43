"""Who does which of two steps: "breakages are recorded on the return sheet **by Gemma
Price** and then checked **by the client**" / "… recorded on the return sheet **by the
client** and checked by the warehouse supervisor, **Gemma Price**" (the two-hundred-and-
sixty-second set).

Both texts name both doers and both steps, so the word sets see one fact; what changed is
which doer each step's "by" names. Read per verb: the doer after one verb's "by" in one text
stands after the other verb's "by" in the other.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import CLAUSE_BREAKS, PREPOSITIONS
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

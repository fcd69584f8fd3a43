"""A request that names by a role the one the stored text names by name: "the warehouse **shift
supervisor** must approve any change to the MES goods receipt screens" / "**Rahul Mehta** is the
MES key user for the warehouse and must approve any change …" (the 454th set).

The request leaves the stored text's person out and puts a job in their place that the stored
text never names. A rewording keeps the person, or the job the stored text gives them ("the
MES key user must approve …"); a job the stored text never gives is someone else.
"""

from __future__ import annotations

from itertools import pairwise

from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import ROLE_NOUNS
from memory_mcp.services.names_found import unmatched_names

_FORM = 4  # letters a job's other forms share with it ("supervisor" / "supervises")


def role_for_name(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's job, b's name) where the request ``a`` names no one the stored ``b`` lacks, ``b``
    names someone by first and last name whom ``a`` leaves out, and ``a`` names a job ``b``
    never writes. Else None."""
    if unmatched_names(a, b):
        return None
    names = set(unmatched_names(b, a))
    if not any(x in names and y in names for x, y in pairwise(b.tokens)):
        return None  # a person's full name: "approved by **Finance**" / "by the finance
        # manager" names a team, and "by Max" / "by the manager" is the word rules' (7th set)
    for t in a.tokens:
        if t in ROLE_NOUNS and not any(w.startswith(t[:_FORM]) for w in b.tokens):
            return t, " ".join(sorted(names))
    return None

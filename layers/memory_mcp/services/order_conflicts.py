"""Conflicts of word order and wording: numbered things, the same names in other roles, long
texts that differ, and one word in another's place. Split from ``agreement``, which asks these
last, after the conflicts of names, values and negation.
"""

from __future__ import annotations

from memory_mcp.services import (
    agents,
    aligned,
    blocks,
    clauses,
    crossed_clauses,
    heads,
    lone,
    numbered,
    things,
    turned,
    wording,
)
from memory_mcp.services.conflict import Conflict, quoted
from memory_mcp.services.facets import Facets
from memory_mcp.services.names_found import appositive
from memory_mcp.services.word_pool import parts_pool


def order_conflicts(ra: str, rb: str, a: Facets, b: Facets, subject_found: bool,
                     opposite: frozenset[str] = frozenset()) -> list[Conflict]:
    """The rules of ``wording.py`` and ``numbered.py``: numbered things, names in other
    roles, long texts that differ, one word in place of another (reported only when no subject
    conflict already explains the pair: "Bob" vs "Alice" is a name conflict, not also a
    swapped word)."""
    out: list[Conflict] = []
    thing = numbered.other_numbered_thing(a, b) or numbered.other_label(a, b) \
        or numbered.other_ordinal(a, b)
    if thing is not None:  # a subject (another thing) before the verb, else a value; a
        # grade ("priority 1") changing together with anything else is another fact too
        subject = thing[2] or (thing[3] in numbered.GRADE_NOUNS and things.else_differs(
            a, b, numbers=things.numbers_in(thing[0]) | things.numbers_in(thing[1])))
        out.append(Conflict("identifier", subject, f"different numbered things: "
                                                   f'"{thing[0]}" vs "{thing[1]}"'))
    roles = turned.roles(a, b) or turned.swapped_kinds(a, b) or turned.exchanged(a, b) \
        or agents.swapped_doers(a, b) \
        or numbered.swapped_amounts(a, b) or numbered.swapped_range(a, b) or (
        None if wording.is_long(ra, rb) else (clauses.moved_name(ra, rb, a, b)
                                              or crossed_clauses.crossed_clauses(ra, rb)
                                              or crossed_clauses.reversed_steps(ra, rb)))
    if roles is not None:
        out.append(Conflict("roles", True, f'the same names in other roles: "{roles[0]}" vs '
                                           f'"{roles[1]}"'))
    wa, wb = wording.words(a), wording.words(b)
    pool_b, pool_a = parts_pool(b), parts_pool(a)
    aside_a, aside_b = appositive(ra) - appositive(rb), appositive(rb) - appositive(ra)
    only_a = [(i, w) for i, w in wa if not pool_b.has(w, 0.75) and w not in aside_a]
    only_b = [(i, w) for i, w in wb if not pool_a.has(w, 0.75) and w not in aside_b]
    if wording.is_long(ra, rb) and len(only_a) + len(only_b) > wording.LONG_ALLOWANCE:
        out.append(Conflict("long", True, f"long texts that differ in {len(only_a)} and "
                                          f"{len(only_b)} words"))
    elif min(len(only_a), len(only_b)) >= wording.SHORT_ALLOWANCE \
            and not blocks.reworded_throughout(wa, only_a):
        # each says several things the other does not ("… to **comply with hazardous-waste
        # rules**" / "… to **free up shelf space**"): two statements, however close
        out.append(Conflict("words", True, f"each says what the other does not: "
                                           f"{quoted([w for _, w in only_a[:4]])} vs "
                                           f"{quoted([w for _, w in only_b[:4]])}"))
    elif not (subject_found or out):
        xs = [(i, w) for i, w in only_a if w not in opposite]
        ys = [(i, w) for i, w in only_b if w not in opposite]
        swap = wording.swap(a, b, xs, ys) or blocks.swapped_block(a, b, xs, ys) \
            or aligned.any_slot(a, b) or heads.other_head(a, b) or lone.lone_swap(a, b, xs, ys)
        # the same words around another kind, opening thing or tool, which the word sets
        # hide ("the **West** Chapel")
        added = None if swap is not None else blocks.added_block(a, b, only_a, only_b)
        if added is not None:
            out.append(Conflict("words", True, f'the request adds "{added}"'))
        if swap is not None:  # another person, thing or value in the same place: another fact
            out.append(Conflict("word", True, f'one word differs: "{swap[0]}" vs "{swap[1]}"'))
    return out

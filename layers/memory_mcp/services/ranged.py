"""A bound against a range's end: "at **a minimum of 30** months old" and "at **24 to 30**
months old" share the number, but one text holds it as a limit one way and the other as an end
of a span. Apart from ``counted`` (what a number counts) because it reads ranges, not the word
after a number.
"""

from __future__ import annotations

import re

from memory_mcp.services.facets import Facets
from memory_mcp.services.numerals import number


def bound_or_range(a: Facets, b: Facets) -> tuple[str, str, bool] | None:
    """(a's words, b's words, False: a value) where one text bounds a number one way only and
    the other gives that number as an end of a range, with no bound: "at **a minimum of 30**
    months old" / "at **24 to 30** months old" (the hundred-and-twenty-ninth set). Else
    None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        if y.bounds or len({k for k, _ in x.bounds}) != 1:
            continue
        ends, own = _range_ends(y.tokens), _range_ends(x.tokens)
        for _, at in x.bounds:
            n = next((number(t) for t in x.tokens[at + 1:at + 4] if number(t) is not None),
                     None)
            if n is not None and n in ends and n not in own and not (
                    _range_numbers(ends[n]) - {n}) & {number(t) for t in x.tokens}:  # "from
                # size 36 up to 48" is "36 to 48"; "runs 35-55 mm seed …, anything over 55 mm"
                # says the range itself
                found = " ".join(x.tokens[at:at + 4]), ends[n]
                return (found[1], found[0], False) if flip else (*found, False)
    return None


def _range_numbers(words: str) -> set[float | None]:
    """The numbers of a range as ``_range_ends`` writes it: "24 to 30", "24-30"."""
    return {number(p) for p in re.split(r"[\s\u2013-]+", words)} - {None}


_JOINED_RANGE = re.compile(r"(\d+(?:\.\d+)?)[-\u2013](\d+(?:\.\d+)?)")


def _range_ends(tokens: tuple[str, ...]) -> dict[float, str]:
    """Each end of a range "24 to 30", "24-30" or "between 24 and 30" → the range's words."""
    out: dict[float, str] = {}
    for t in tokens:
        joined = _JOINED_RANGE.fullmatch(t)
        if joined is not None and float(joined[1]) < float(joined[2]):
            out[float(joined[1])] = out[float(joined[2])] = t
    for i in range(len(tokens) - 2):
        low, joint, high = number(tokens[i]), tokens[i + 1], number(tokens[i + 2])
        if low is not None and high is not None and low < high and tokens[i][:1].isdigit() \
                and tokens[i + 2][:1].isdigit() and (  # digits: "the 32-point **one, to** 20"
                joint in ("to", "-", "\u2013") or (joint == "and" and tokens[i - 1:i] == (
                    "between",))):
            out[low] = out[high] = " ".join(tokens[i:i + 3])
    return out

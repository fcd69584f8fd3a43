"""One reason two texts are not the same fact, and how its detail shows the words: kept apart
from ``agreement`` so that the rules it gathers (``order_conflicts``) can build one too.
"""

from __future__ import annotations

from dataclasses import dataclass

from memory_mcp.services import values


@dataclass(frozen=True)
class Conflict:
    """One reason the two texts are not the same fact."""

    kind: str        # name, environment, thing, identifier, roles, long, word, number, duration,
                     # currency, unit, weekday, month, time, negation, opposite, quantity, scope …
    subject: bool    # True: different things; False: a different value of the same thing
    detail: str      # for people: 'names differ: "Bob" vs "Alice"'


def quoted(items: list[str]) -> str:
    """The words, each in double quotes, comma-separated."""
    return ", ".join(f'"{i}"' for i in items)


def shown_numbers(numbers: frozenset[float]) -> str:
    """The numbers as a text writes them, smallest first."""
    return ", ".join(values.show_number(v) for v in sorted(numbers, key=abs))


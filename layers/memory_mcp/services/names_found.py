"""Which names of one text the other never says: "Bob" / "Alice", but not "Postgres" /
"PostgreSQL", "Taiwan-bound" / "bound for Taiwan" nor "enterprise-plan" / "Enterprise plan".

Apart from ``agreement`` because finding a name takes its own small rules (prefixes, one-letter
labels, hyphenated names written apart), and ``agreement`` only needs the names left over.
"""

from __future__ import annotations

import re
from itertools import pairwise

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS
from memory_mcp.services.stems import content_word
from memory_mcp.services.word_pool import parts_pool, pool

#: An address, a domain, a path, a channel or a name with a digit is matched exactly:
#: "ops@acme.com" is a prefix of "ops@acme.com.au" but not the same mailbox, "#ops-alerts" of
#: "#ops-alerts-eu", "acme-prod" of "acme-prod2".
_ADDRESS = re.compile(r"[@./#\d-]")
#: A mark written with a Roman numeral is matched exactly too: "mkI" is a prefix of "mkII"
#: (the 446th set), another version.
_ROMAN_MARK = re.compile(r"(?:mk|mark|gen|series)(?:i{1,3}|iv|vi{0,3}|ix|x)")


def unmatched_names(mine: Facets, other: Facets) -> list[str]:
    """Names of one text found nowhere in the other (as a name or as an ordinary word; a
    prefix of ≥ 75 % counts as found: "Postgres" / "PostgreSQL")."""
    theirs = pool(frozenset(other.names) | parts_pool(other).words)  # "bound for **Taiwan**"
    # has Taiwan-bound's part
    return sorted(n for n in mine.names
                  if not (_label_found(n, other) if len(n) == 1  # "Cleanroom **A**" is not
                          # found by the other text's article ("… given **a** 14-day expiry")
                          else n in theirs.words if _ADDRESS.search(n) or _ROMAN_MARK.fullmatch(n)
                          else theirs.has(n, 0.75))
                  and not _written_apart(n, other.tokens) and not _parts_found(n, other))


def _label_found(label: str, other: Facets) -> bool:
    """A one-letter name ("A", "O") the other text names too, alone or as a part of a name
    ("O neg" / "**O**-negative")."""
    return label in other.names or any(label in n.split("-") for n in other.names)


def _parts_found(name: str, other: Facets) -> bool:
    """"Taiwan-bound" / "bound for Taiwan", "Honeycrisp-only" / "for Honeycrisp": a name of
    letters and hyphens whose every part the other text has as a word of its own (or is a
    small word). Not "ops-alerts" / "ops-alerts-eu": one channel's name inside another's."""
    parts = name.split("-")
    return len(parts) > 1 and all(p.isalpha() for p in parts) and all(
        p in other.tokens or not content_word(p) for p in parts)


def _written_apart(name: str, tokens: tuple[str, ...]) -> bool:
    """"enterprise-plan" where the other text writes "Enterprise plan": one name, two words."""
    parts = name.split("-")
    if len(parts) != 2 or not all(p.isalpha() for p in parts):
        return False
    return any(x == parts[0] and y == parts[1] for x, y in pairwise(tokens))


def name_apart(words: tuple[str, ...], own: Facets, other: Facets) -> bool:
    """A name of two or more words (each a name of ``own``) that ``other`` never writes in a
    row: "the **Counter Fraud** team" / "**counter** staff escalate suspected **fraud** cases"
    (the hundred-and-fourth set) says its words, not its name."""
    named = tuple(w for w in words if w not in DETERMINERS)
    n, toks = len(named), other.tokens
    return n >= 2 and all(w in own.names for w in named) \
        and not any(toks[k:k + n] == named for k in range(len(toks) - n + 1))


#: A name set off by commas right after a noun: "only the web editor**, Lucas Moreau,** has".
_APPOSITIVE = re.compile(r"\b[a-z][\w-]*, ((?:[A-Z][\w'-]*\s?){1,3}),")


def appositive(text: str) -> frozenset[str]:
    """The words (lower case) of names a text sets off by commas after a noun: a detail of who
    holds the role, which a request naming the role alone leaves out, so that "only the
    **editor-in-chief** has admin access" / "only the **web editor**, Lucas Moreau, has admin
    access" is read as the one word it changes (the 385th set)."""
    return frozenset(w.lower() for m in _APPOSITIVE.finditer(text) for w in m.group(1).split())

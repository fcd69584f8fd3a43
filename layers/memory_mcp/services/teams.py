"""Another team named before the same group noun: "the **paint** team records engine numbers"
/ "the **strip-down** team records engine numbers" (the hundred-and-fifty-second set).

``things.swapped_modifiers`` asks that neither text's word occur anywhere in the other, since a
reworded text often moves a modifier elsewhere ("analytics data warehouse" / "analytics
warehouse"). A team's name rarely moves that way, yet its word often appears again in another
sense ("the **processing** team" / "data is **processed**"), so before a group noun one word
the other text lacks is enough, as long as the two texts name no team alike.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import PRONOUNS, predicates
from memory_mcp.services.lexicon import COMMON_VERBS, MONTHS, TIMES, WEEKDAYS
from memory_mcp.services.stems import content_word, singular_weekday, stem
from memory_mcp.services.word_pool import parts_pool

#: Nouns that name a group of people by the word before them.
GROUPS = frozenset(["team", "teams", "department", "departments", "crew", "crews", "desk",
                    "squad", "unit", "committee", "committees"])


def other_team(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's team, b's team) where both texts name a team by the same group noun, no team
    alike, and one text's word before it is nowhere in the other. Else None."""
    ma, mb = _teams(a), _teams(b)
    for head in sorted(ma.keys() & mb.keys()):
        xa, xb = ma[head], mb[head]
        if {stem(w) for w in xa} & {stem(w) for w in xb}:
            continue  # one team named alike in both ("the finance team has read-only access")
        pool_a, pool_b = parts_pool(a), parts_pool(b)
        if any(not pool_b.has(w, 0.0) for w in xa) or any(not pool_a.has(w, 0.0) for w in xb):
            return f"{sorted(xa)[0]} {head}", f"{sorted(xb)[0]} {head}"
        doing = _acting(a) & _acting(b)  # "the **car park** crew sets up the show rings" /
        # "the **ring** crew sets up …" (the 373rd set): the same group noun doing the same,
        # though each word is said elsewhere in the other ("nearest the car park")
        if any(h == head for h, _ in doing):
            return f"{sorted(xa)[0]} {head}", f"{sorted(xb)[0]} {head}"
    if ma and not mb and not any(t in GROUPS for t in b.tokens):  # the request narrows to a
        # team the stored text names no group for: "Raj Mehta in the council's **planning
        # department**" / "… is Raj Mehta at Stroud District Council" (the 198th set)
        pool = parts_pool(b)
        for head in sorted(ma.keys() & _NAMED_GROUPS):
            if all(not pool.has(w, 0.0) for w in ma[head]):
                return f"{sorted(ma[head])[0]} {head}", "(no team)"
    return None


def shift_team(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's team, b's team) where both texts name a group by the same noun and its shift
    differs: "the **day** tech crew cleans …" / "… by the **night** tech crew", "the **early**
    team counts …" / "… by the **night** team" (the hundred-and-eighty-fifth and hundred-and-
    ninety-sixth sets). A shift word is a time word, which ``other_team`` leaves to the time
    rules, but before a group noun it names the people."""
    sa, sb = _shifts(a), _shifts(b)
    for head in sorted(sa.keys() & sb.keys()):
        if not sa[head] & sb[head]:
            return f"{sorted(sa[head])[0]} {head}", f"{sorted(sb[head])[0]} {head}"
    return None


def _shifts(f: Facets) -> dict[str, set[str]]:
    """Group noun stem → the shift words one or two words before it ("the day tech crew")."""
    out: dict[str, set[str]] = {}
    toks = f.tokens
    for i, h in enumerate(toks):
        if h in GROUPS:
            for w in toks[max(0, i - 2):i]:
                if w in _SHIFT_WORDS:
                    out.setdefault(stem(h), set()).add(_SHIFT_WORDS[w])
    return out


_SHIFT_WORDS = {"day": "day", "night": "night", "overnight": "night", "graveyard": "night",
                "early": "early", "late": "late", "morning": "morning", "evening": "evening",
                "afternoon": "afternoon", "weekend": "weekend", "weekday": "weekday"}


def _teams(f: Facets) -> dict[str, set[str]]:
    """Group noun stem → the words right before it that name a team."""
    out: dict[str, set[str]] = {}
    verbs = predicates(f)
    for i, (x, h) in enumerate(zip(f.tokens, f.tokens[1:], strict=False)):
        if h not in GROUPS or (x in COMMON_VERBS and f.tokens[i - 1:i] not in _OPENED) or (
                i in verbs and i > 0 and (
                f.tokens[i - 1] in f.names or f.tokens[i - 1] in PRONOUNS)) \
                or not content_word(x) or x in TIMES \
                or singular_weekday(x) in WEEKDAYS or x in MONTHS or x[:1].isdigit():
            continue
        out.setdefault(_ALIKE.get(h, stem(h)), set()).add(x)
    return out


def _acting(f: Facets) -> set[tuple[str, str]]:
    """(group noun stem, the stem of the word after it) for each group noun followed by a
    verb in -s ("crew **sets**")."""
    toks = f.tokens
    return {(_ALIKE.get(h, stem(h)), stem(toks[i + 1])) for i, h in enumerate(toks[:-1])
            if h in GROUPS and toks[i + 1].endswith("s") and content_word(toks[i + 1])}


#: Words before "<word> team" that make the word a name, not a verb: "Rahul Mehta from **the
#: stores** team reorders …" (the 460th set).
_OPENED = (("the",), ("our",), ("their",))
#: Group nouns that name the same kind of group: "the **junior squad**" / "the **county
#: team**" are two teams (the 199th set), "the maintenance crew" / "… team" one.
_ALIKE = {"squad": "team", "squads": "team", "crew": "team", "crews": "team"}
#: The group nouns that name a team of people only ("a heat recovery **unit**" is a machine).
_NAMED_GROUPS = frozenset(["team", stem("department")])

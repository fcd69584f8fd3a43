"""Phrases of time spelled out the one way the rules read them: "any time" as "whenever",
"every day but Sunday" as "… except Sunday", "Monday to Friday" as "weekdays" and "40
kilometres per hour" as "40 kph". Part of ``short_forms``' rewriting of a text's tokens, apart
from it because these read phrases of days and speeds, not short forms of words.
"""

from __future__ import annotations

from memory_mcp.services.lexicon import WEEKDAYS
from memory_mcp.services.stems import singular_weekday


def whenever(tokens: list[str]) -> list[str]:
    """"any time you step away" / "every time you step away" → "whenever you step away"."""
    if "time" not in tokens:
        return tokens
    out: list[str] = []
    for t in tokens:
        if t == "time" and out and out[-1].lower() in ("any", "every", "anytime"):
            out[-1] = "whenever"
        else:
            out.append(t)
    return out


def but_day(tokens: list[str]) -> list[str]:
    """"every day **but** Sunday" → "every day except Sunday", as "daily except Sundays" says
    it: only between a word of every day and a weekday."""
    if "but" not in tokens:
        return tokens
    return ["except" if t == "but" and 0 < i < len(tokens) - 1
            and tokens[i - 1].lower() in _EVERY_DAY
            and singular_weekday(tokens[i + 1].lower()) in WEEKDAYS else t
            for i, t in enumerate(tokens)]


_EVERY_DAY = frozenset(["day", "days", "daily", "week", "weekday", "weekdays"])


def workweek(tokens: list[str]) -> list[str]:
    """"Monday to Friday", "Mon through Fri" → "weekdays", as "Mon-Fri" reads; not after "from"
    or "to": "the retro moved **from Monday to Friday**" names two days."""
    if not any(t.lower() in _FRIDAY for t in tokens):
        return tokens
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if tokens[i].lower() in _MONDAY and i + 2 < len(tokens) \
                and tokens[i + 1].lower() in _THROUGH and tokens[i + 2].lower() in _FRIDAY \
                and not (i and tokens[i - 1].lower() in ("from", "to")):
            out.append("weekdays")
            i += 3
        else:
            out.append(tokens[i])
            i += 1
    return out


_MONDAY = frozenset(["monday", "mon"])
_FRIDAY = frozenset(["friday", "fri"])
_THROUGH = frozenset(["to", "through", "thru", "till", "until", "-", "\u2013"])


def per_hour(tokens: list[str]) -> list[str]:
    """"40 kilometres per hour" → "40 kph", "20 miles per hour" → "20 mph": the unit the
    symbols read as ("40 km/h")."""
    if "per" not in tokens and "an" not in tokens:
        return tokens  # most texts: one pass of set lookups, not a rebuilt list
    out: list[str] = []
    i = 0
    while i < len(tokens):
        unit = _SPEEDS.get(tokens[i].lower())
        if unit and [t.lower() for t in tokens[i + 1:i + 3]] in (["per", "hour"], ["an", "hour"]):
            out.append(unit)
            i += 3
        else:
            out.append(tokens[i])
            i += 1
    return out


_SPEEDS = {"miles": "mph", "mile": "mph", "kilometers": "kph", "kilometer": "kph",
           "kilometres": "kph", "kilometre": "kph", "km": "kph"}

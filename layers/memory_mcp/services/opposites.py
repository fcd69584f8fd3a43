"""Opposite words: "two-factor login is **enabled** for admins" / "… **disabled** for admins".

Embeddings place a statement and its opposite side by side (the same topic, the same words but
one), and the swapped-word rule (``wording.swap``) exempts a clause's verb or predicate so that
rewordings stay forgettable ("Logs **go** to Datadog" / "Logs **are shipped** to Datadog"). So
before this lexicon a forget of "sign-ups are **blocked** on staging" removed the stored "sign-ups
are **allowed** on staging", a fact that is still true. Antonymy is a property of words, not of
word order, so it is a list: pairs of sides, each side the forms a team's facts use.

Two kinds, because a save treats them differently (``agreement``'s subject and value):
- *states* one thing has one of at a time (enabled or disabled, allowed or blocked, required or
  optional, before or after): another state is a new value of the same fact, so a save of it is
  that fact's next version, as for a negation;
- *directions and events* a thing can have both of (it uploads and downloads, the job starts at
  02:00 and stops at 04:00, access is granted and revoked): another one is another fact, kept
  apart by a save.

A word with a negating prefix ("**un**encrypted", "**in**valid", "**non**-production") is read
the same way against its bare form (``prefixed``). Two texts conflict only when each has a side the other
lacks: "prices **rose**, an **increase** of 5 %" and "prices **increased** 5 %" agree.

Converse pairs are left out: "finance **sends** the invoices" and "customers **receive** the
invoices from finance" (buy / sell, lend / borrow) state one fact; ``direction.converse_verb``
reads them only with the same doer and thing. "Before" / "after" and "above" / "below" are
converses too, but far more often a fact's value ("the cache is cleared **before** each
deploy"), so they stay, and a rewording that turns the sentence around is refused with its
candidates (the safe side).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import (
    MONTHS,
    NEGATIONS,
    NUMBER_WORDS,
    STOP_WORDS,
    TIMES,
    UNIT_DAYS,
    WEEKDAYS,
)
from memory_mcp.services.negation import one_denied
from memory_mcp.services.opposite_phrases import WORD_PAIRS
from memory_mcp.services.opposite_words import CLOCK_SIDES, EVENTS, STATES, turned_prefix
from memory_mcp.services.prefixed import bare_of
from memory_mcp.services.stems import split_as

#: Verbs whose particle carries the opposite ("sign **in**" / "sign **out**"), read as one form
#: ("sign_in"); the ones that set a state ("turn on", "opt out") are values.
_PARTICLES = {"in": "out", "out": "in", "on": "off", "off": "on", "up": "down", "down": "up"}
_PHRASAL = frozenset("""sign log check clock opt turn switch scale spin power shut start go
hand give throttle ramp step dial drop pick come put pump""".split())  # noqa: SIM905
_PHRASAL_STATES = frozenset("turn switch opt power go".split())  # noqa: SIM905
#: "is on" / "turned off" as the state "enabled" / "disabled", so "are **on** by default"
#: opposes "are **disabled** by default". Only before the clause's end or a function word:
#: "is on **call**", "is on **Saturdays**" say no state.
_SWITCHED = {"on": "enabled", "off": "disabled"}
_SWITCH_VERBS = ("is", "are", "was", "were", "be", "been", "stays", "stay", "remains", "remain",
                 "turn", "switch", "toggl", "left", "kept")  # "panels are **left on**" (382nd)
#: "is up" / "is down" after a copula alone (the first six): a flag or a barrier raised or
#: lowered, which ``STATES`` opposes.
_RAISED = {"up": "raised", "down": "lowered"}
#: Words after which "up" / "down" say which way a thing lies ("stored pointed **end up**" /
#: "… end down", the two-hundred-and-twenty-sixth set), and the condition words after which
#: "on" / "off" is still a state ("must **be on whenever** acrylic liquid is open").
_ENDS = frozenset(["end", "side", "face", "way"])
_LINES = frozenset(["main", "line", "fast", "slow"])
_ON_FORMS = frozenset(["go_on", "come_on", "switch_on", "turn_on"])
_WHEN_WORDS = frozenset(["when", "whenever", "while", "during", "if", "unless", "until"])
#: How long a state lasts, after which "on" / "off" is still one: "is **left on overnight**" /
#: "is switched off overnight" (the 495th set).
_LASTING = frozenset(["overnight", "permanently", "continuously", "constantly", "indefinitely"])
#: A clock time, before which "by" sets a deadline ("report scores **by** 21:00").
_CLOCK = re.compile(r"\d{1,2}[:.]\d{2}|\d{1,2}(?:am|pm)|noon|midnight")


def _forms(tokens: tuple[str, ...]) -> list[str]:
    """The tokens, and each phrasal verb with its particle as one form ("sign_in")."""
    # "every" before a number, a unit or a day counts time ("every twelve months"), not things
    nexts = (*tokens[1:], "") if tokens else ()  # a text of no words ("👍") has none
    prevs = ("", *tokens[:-1]) if tokens else ()
    until = "" if NEGATIONS & set(tokens) else "until_"  # "accepted **until** 6 pm" is
    # before it; "does**n't** go in **until** the walk is signed off", after it (and "can't
    # take them home **before** they pass" the same): under a denial it says neither
    out = [("shut_down" if t in _RUN and p in _STOPS else until if t in ("until", "till")
            else t)  # "stops **running**"
           for t, nxt, p in zip(tokens, nexts, prevs, strict=True)
           if not (t == "every" and (nxt in EVERY_COUNTS or nxt[:1].isdigit()))
           and not (until == "" and t in ("until", "till"))]  # no empty forms
    for i, (x, y) in enumerate(pairwise(tokens)):  # "after hours" / "working hours"
        if y in ("service", "use", "warranty") and (x in ("in", "under") or (
                x == "of" and tokens[i - 1:i] == ("out",))):  # "**under warranty**" / "**out of**"
            out.append(f"{x}_{y}".replace("of_", "out_of_"))  # "kept **in service**" /
            # "retired", "taken **out of service**", "back **in use**" / "**out of use**"
        elif (x, y) == ("out", "for") and tokens[i + 2:i + 3] in (("repair",), ("repairs",)):
            out.append("out_of_service")  # "SP-04 is **out for repair**" / "back in service"
        out.extend(form for firsts, seconds, third, form in WORD_PAIRS
                   if x in firsts and y in seconds and (not third or tokens[i + 2:i + 3] == (third,)))
        if y == "hours":
            outside = i > 0 and tokens[i - 1] in ("outside", "of")  # "outside working hours"
            out.append("after_hours" if outside else f"{x}_{y}")
        if x in CLOCK_SIDES and (_CLOCK.fullmatch(y) or _dated(tokens, i + 1)):  # "report
            # scores **by** 21:00" / "**after** 21:00", "served **from** 06:30" / "**until**
            out.append(CLOCK_SIDES[x])  # 06:30", "posted **by** 1 September" / "**after** …"
        if x in ("up", "down") and y in _LINES:  # "works the **Up Main**" / "the **Down
            out.append(f"{x}_{y}")  # Main**" (the 414th and 418th sets): two railway lines
        if x == "the" and y == "day" and i > 0 and tokens[i - 1] in ("during", "in"):
            out.append("daytime")  # "record clips **during the day**" / "… **at night**"
    for i, (verb, particle) in enumerate(pairwise(tokens)):
        base = "go" if verb in ("goes", "went", "gone", "going") else "give" if verb in (
            "gave", "given", "giving") else \
            verb.removesuffix("ing").removesuffix("ed").removesuffix("s")
        for v in (verb, base, base + "e", verb.removesuffix("es")):  # "switch**es** on"
            if v in _PHRASAL and (particle in _PARTICLES or particle == "back"):
                out.append(f"{v}_{particle}")
                break
        after = tokens[i + 2] if i + 2 < len(tokens) else ""
        if particle in _SWITCHED and (verb in _SWITCH_VERBS or base in _SWITCH_VERBS) \
                and (not after or after in STOP_WORDS or after in _WHEN_WORDS
                     or after in _LASTING):
            out.append(_SWITCHED[particle])  # "push notifications **are on** by default"
        if particle in _RAISED and (verb in _SWITCH_VERBS[:6] or verb in _ENDS) \
                and (not after or after in STOP_WORDS):
            out.append(_RAISED[particle])  # "when the red flag **is up**" / "… **is down**"
        split = next((v for v in (verb, base, verb.removesuffix("es"),
                                  "bring" if verb == "brought" else "") if v in _SPLIT), None)
        if split is not None and (particle in ("the", "a", "an", "its", "their", "it", "them")
                                  or (particle.isalpha() and particle not in STOP_WORDS)):
            out.extend(_split_particle(tokens, i, split))
    for i in range(len(tokens) - 3):  # "parked **with the engine off**" / "… with the engine
        # running" (the 360th set): a state the thing is left in, said after it
        if tokens[i] == "with" and tokens[i + 1] in ("the", "its", "their") \
                and tokens[i + 3] in _SWITCHED and tokens[i + 4:i + 5] in ((), ("and",)):
            out.append(f"switch_{tokens[i + 3]}")
    ons = [form for form in out if form in _ON_FORMS]
    if ons and ("and", "off") in set(pairwise(tokens)):  # "goes on … **and off** after sunrise"
        out.extend([f"{form[:-3]}_off" for form in ons] + ["switch_off"])
    return out


#: Verbs whose particle may follow their object: "switches **the hide glue pot on**",
#: "**drops** sealed passport bags **off**", "**brings** the skimming heats **forward**" (the
#: two-hundred-and-seventy-second set).
_SPLIT = {"switch": ("on", "off"), "turn": ("on", "off"), "power": ("on", "off"),
          "drop": ("on", "off"), "bring": ("forward",), "move": ("forward",)}


def _split_particle(tokens: tuple[str, ...], i: int, base: str) -> list[str]:
    """``base`` with its particle ("on", "off", "forward") that ends its object within six
    words ("switch their Reveal D5 body-worn cameras **off**", the 127th set), where a stop
    word, a number or the text's end follows ("switches the pot **on at** 17:00"), not a noun
    ("turn the key **on** the left")."""
    for k in range(i + 2, min(i + 8, len(tokens))):
        t = tokens[k]
        if t in _SPLIT[base]:
            nxt = tokens[k + 1] if k + 1 < len(tokens) else ""
            ok = not nxt or (nxt in STOP_WORDS and nxt not in _OBJECT_WORDS) \
                or nxt[:1].isdigit()
            return [f"{base}_{t}"] if ok else []
        if t in STOP_WORDS and k > i + 1:
            return []  # the object ended without a particle
    return []


#: Words after an "on" that make it a place's ("on the left", "on each side"), not a switch.
_OBJECT_WORDS = frozenset(["the", "a", "an", "each", "every", "its", "their", "our", "this"])


_RUN = frozenset(["run", "runs", "running"])
_STOPS = frozenset(["stop", "stops", "stopped", "stopping", "cease", "ceases", "halt", "halts"])

EVERY_COUNTS = frozenset(UNIT_DAYS) | frozenset(WEEKDAYS) | frozenset(
    w + "s" for w in WEEKDAYS) | frozenset(NUMBER_WORDS) | frozenset(TIMES) | frozenset(
    ["other", "night", "morning", "evening", "afternoon", "weekday", "weekend", "shift",
     "sprint", "quarter", "release", "deploy"])


@lru_cache(maxsize=1)
def _sides() -> dict[str, list[tuple[int, int, bool]]]:
    """Form → each (pair, side, is a state) it takes: "charged" is the other side of "free"
    and of "refunded"."""
    out: dict[str, list[tuple[int, int, bool]]] = {}
    index = 0
    for state, block in ((True, STATES), (False, EVENTS)):
        pairs = [p for p in block.replace("\n  ", " ").strip().splitlines() if p.strip()]
        for pair in pairs:
            for side, forms in enumerate(pair.split("|")):
                for form in forms.split():
                    out.setdefault(form, []).append((index, side, state))
            index += 1
    for verb in sorted(_PHRASAL):
        for a, b in (("in", "out"), ("on", "off"), ("up", "down")):
            if f"{verb}_{a}" in out or f"{verb}_{b}" in out:
                continue  # the lexicon pairs it ("hand out" / "return")
            out[f"{verb}_{a}"] = [(index, 0, verb in _PHRASAL_STATES)]
            out[f"{verb}_{b}"] = [(index, 1, verb in _PHRASAL_STATES)]
            index += 1
    return out


def _dated(tokens: tuple[str, ...], i: int) -> bool:
    """Whether a date starts at ``i``: "1 September", "September 1", "the 1st of September"
    (the 315th set's "posted **by 1 September**" / "**after 1 September**")."""
    words = tokens[i:i + 4]
    return bool(words) and (words[0] in MONTHS or (
        words[0] == "the" and any(w in MONTHS for w in words[1:])) or (
        words[0][:1].isdigit() and len(words) > 1 and words[1] in MONTHS))


def opposed(a: Facets, b: Facets) -> tuple[str, str, bool] | None:
    """The first pair of opposite words of ``a`` and ``b`` (a's word, b's word, whether it is
    a state), or None. Each text must hold a side the other does not: a text that names both
    sides ("opens at 8 and closes at 6") opposes neither."""
    found = _from_lexicon(a.tokens, b.tokens)
    if found is not None and not (one_denied(a.tokens, found[0], b.tokens)
                                  or one_denied(b.tokens, found[1], a.tokens)):
        return found  # one of them denied ("not allowed" / "banned"): the same
    words_a, words_b = set(a.tokens), set(b.tokens)
    for mine, other, flip in ((words_a, words_b, False), (words_b, words_a, True)):
        for word in sorted(mine - other):
            bare = bare_of(word)
            if bare is not None and bare[0] in other and bare[0] not in mine:
                return (bare[0], word, bare[1]) if flip else (word, bare[0], bare[1])
            turned = turned_prefix(word)
            if turned is not None and turned in other and turned not in mine:
                return (turned, word, True) if flip else (word, turned, True)
    return None


def _from_lexicon(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, str, bool] | None:
    sides = _sides()
    a, b = split_as(a, b), split_as(b, a)
    held_a: dict[tuple[int, int], str] = {}
    held_b: dict[tuple[int, int], str] = {}
    count: dict[tuple[int, int], list[int]] = {}
    states: dict[int, bool] = {}
    for n, (tokens, held) in enumerate(((a, held_a), (b, held_b))):
        for t in _forms(tokens):
            for pair, side, state in sides.get(t, ()):
                held.setdefault((pair, side), t)
                count.setdefault((pair, side), [0, 0])[n] += 1
                states[pair] = state
    # one side only in ``a`` and the other only in ``b``; or, where a text names both, one
    # side more often in each: "on 30 minutes **after** sunset and off 30 minutes after
    # sunrise" / "on 30 minutes **before** sunset and off 30 minutes after sunrise"
    found = [(word.replace("_", " "), held_b[(pair, 1 - side)].replace("_", " "), states[pair])
             for (pair, side), word in sorted(held_a.items())
             if (pair, 1 - side) in held_b and count[(pair, side)][0] > count[(pair, side)][1]
             and count[(pair, 1 - side)][1] > count[(pair, 1 - side)][0]]
    # an event pair anywhere makes it another fact ("scale **up** when CPU **rises**" /
    # "scale **down** when CPU **falls**"), whichever pair comes first
    return min(found, key=lambda f: f[2]) if found else _before_same(a, b, states)


def _before_same(a: tuple[str, ...], b: tuple[str, ...],
                 states: dict[int, bool]) -> tuple[str, str, bool] | None:
    """Where a text names both sides, the side each text puts before the same word:
    "cleaned **before the croissant** run" / "… **after the croissant** run and before the
    baguette dough", "a **minimum 45-minute** block" / "a **maximum 45-minute** block, and at
    least two" (the fifty-second set). A side both texts put there is one fact read twice."""
    held_a, held_b = _in_place(a), _in_place(b)
    for (pair, side, word), form in sorted(held_a.items()):
        other = held_b.get((pair, 1 - side, word))
        if other is not None and (pair, side, word) not in held_b \
                and (pair, 1 - side, word) not in held_a:
            return form, other, states.get(pair, True)
    return None


@lru_cache(maxsize=1024)  # a stored text is read against every request (callers only read it)
def _in_place(tokens: tuple[str, ...]) -> dict[tuple[int, int, str], str]:
    """(pair, side, the word before and the next word not a stop word, within two) → the
    form, for each one-word side in ``tokens``."""
    sides = _sides()
    out: dict[tuple[int, int, str], str] = {}
    for i, t in enumerate(tokens):
        if t in _SWITCHED and i and tokens[i - 1] not in STOP_WORDS:  # "with the church
            # heating **off** for 24 hours" / "… heating **on** …": the word before says what
            for pair, side, _ in sides.get(_SWITCHED[t], ()):
                out.setdefault((pair, side, "<" + tokens[i - 1]), t)
        j = next((j for j in range(i + 1, min(i + 3, len(tokens)))
                  if tokens[j] not in STOP_WORDS), None)
        if j is None:
            continue
        prev = tokens[i - 1] if i else "^"  # and the word before: the tokens lost the
        # punctuation ("PLA is allowed**;** PETG … banned" / "allow PLA and ban PETG")
        valued = any(c.isdigit() for c in tokens[j])  # or the value right after it, with its
        # preposition: "the clinic **opens at 1 pm**" / "… opens at 8 am and **shuts at 1 pm**"
        for pair, side, _ in sides.get(t, ()):
            out.setdefault((pair, side, f"{prev} {tokens[j]}"), t)
            if valued:
                out.setdefault((pair, side, "=" + " ".join(tokens[i + 1:j + 2])), t)
    return out


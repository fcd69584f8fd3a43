"""The forms of a text that name a side of an opposite pair: its words, each phrasal verb
with its particle as one form ("sign_in", "switch_off"), a particle after the verb's object
("switches the pot **on**"), a state said with "is on" / "is up", a clock side ("**by** 21:00"),
and word pairs such as "out of service".

Split from ``opposites`` (which pairs the sides and decides which text holds which) because
reading the forms is the part that grows with each set's new phrasings.
"""

from __future__ import annotations

import re
from itertools import pairwise

from memory_mcp.services.lexicon import (
    MONTHS,
    NEGATIONS,
    NUMBER_WORDS,
    STOP_WORDS,
    TIMES,
    UNIT_DAYS,
    WEEKDAYS,
)
from memory_mcp.services.opposite_phrases import WORD_PAIRS
from memory_mcp.services.opposite_words import CLOCK_SIDES

#: Verbs whose particle carries the opposite ("sign **in**" / "sign **out**"), read as one form
#: ("sign_in"); the ones that set a state ("turn on", "opt out") are values.
PARTICLES = {"in": "out", "out": "in", "on": "off", "off": "on", "up": "down", "down": "up"}
PHRASAL = frozenset("""sign log check clock opt turn switch scale spin power shut start go
hand give throttle ramp step dial drop pick come put pump bring""".split())  # noqa: SIM905
PHRASAL_STATES = frozenset("turn switch opt power go".split())  # noqa: SIM905
#: "is on" / "turned off" as the state "enabled" / "disabled", so "are **on** by default"
#: opposes "are **disabled** by default". Only before the clause's end or a function word:
#: "is on **call**", "is on **Saturdays**" say no state.
SWITCHED = {"on": "enabled", "off": "disabled"}
_SWITCH_VERBS = ("is", "are", "was", "were", "be", "been", "stays", "stay", "remains", "remain",
                 "turn", "switch", "toggl", "left", "kept")  # "panels are **left on**" (382nd)
#: "is up" / "is down" after a copula alone (the first six): a flag or a barrier raised or
#: lowered, which ``STATES`` opposes.
_RAISED = {"up": "raised", "down": "lowered"}
#: Words after which "up" / "down" say which way a thing lies ("stored pointed **end up**" /
#: "… end down", the two-hundred-and-twenty-sixth set), and the condition words after which
#: "on" / "off" is still a state ("must **be on whenever** acrylic liquid is open").
_ENDS = frozenset(["end", "side", "face", "way"])
_LINES = frozenset(["main", "line", "fast", "slow", "relief"])  # "the **Up Relief**" (545th)
_ON_FORMS = frozenset(["go_on", "come_on", "switch_on", "turn_on"])
_WHEN_WORDS = frozenset(["when", "whenever", "while", "during", "if", "unless", "until"])
#: How long a state lasts, after which "on" / "off" is still one: "is **left on overnight**" /
#: "is switched off overnight" (the 495th set).
_LASTING = frozenset(["overnight", "permanently", "continuously", "constantly", "indefinitely"])
#: A clock time, before which "by" sets a deadline ("report scores **by** 21:00").
_CLOCK = re.compile(r"\d{1,2}[:.]\d{2}|\d{1,2}(?:am|pm)|noon|midnight")


def forms(tokens: tuple[str, ...]) -> list[str]:
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
            if v in PHRASAL and (particle in PARTICLES or particle == "back"):
                out.append(f"{v}_{particle}")
                break
        after = tokens[i + 2] if i + 2 < len(tokens) else ""
        if particle in SWITCHED and (verb in _SWITCH_VERBS or base in _SWITCH_VERBS) \
                and (not after or after in STOP_WORDS or after in _WHEN_WORDS
                     or after in _LASTING):
            out.append(SWITCHED[particle])  # "push notifications **are on** by default"
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
                and tokens[i + 3] in SWITCHED and tokens[i + 4:i + 5] in ((), ("and",)):
            out.append(f"switch_{tokens[i + 3]}")
    ons = [form for form in out if form in _ON_FORMS]
    if ons and ("and", "off") in set(pairwise(tokens)):  # "goes on … **and off** after sunrise"
        out.extend([f"{form[:-3]}_off" for form in ons] + ["switch_off"])
    return out


#: Verbs whose particle may follow their object: "switches **the hide glue pot on**",
#: "**drops** sealed passport bags **off**", "**brings** the skimming heats **forward**" (the
#: two-hundred-and-seventy-second set).
_SPLIT = {"switch": ("on", "off"), "turn": ("on", "off"), "power": ("on", "off"),
          "drop": ("on", "off"), "bring": ("forward", "up", "down"), "move": ("forward",)}


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


def _dated(tokens: tuple[str, ...], i: int) -> bool:
    """Whether a date starts at ``i``: "1 September", "September 1", "the 1st of September"
    (the 315th set's "posted **by 1 September**" / "**after 1 September**")."""
    words = tokens[i:i + 4]
    return bool(words) and (words[0] in MONTHS or (
        words[0] == "the" and any(w in MONTHS for w in words[1:])) or (
        words[0][:1].isdigit() and len(words) > 1 and words[1] in MONTHS))

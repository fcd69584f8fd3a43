"""Two conditions after the same word: "gazebos … must be weighted with at least 15 kg per leg
**whenever rain is forecast**" / "… **whenever the forecast wind speed is above 25 mph**".

The condition rules (``conditions``) read a clause one text adds or an "only" phrase; here both
texts hold the rule under a condition opened by the same word, and each condition names what
the other text does not (the sixty-eighth set, and the forty-fourth's "whenever snow is
forecast" / "whenever the forecast road surface temperature drops below 1 °C"). Rain and wind
are two triggers: the stored rule still holds under its own.

A clause ends at a comma, a semicolon or a full stop, so it is read from the text as written
(the tokens have no punctuation).
"""

from __future__ import annotations

import re

from memory_mcp.services.conditions import compared
from memory_mcp.services.grammar import verb_s
from memory_mcp.services.lexicon import COMMON_VERBS, MEASURES, UNIT_SYMBOLS
from memory_mcp.services.numerals import number
from memory_mcp.services.opposite_words import same_side
from memory_mcp.services.stems import content_word, stem
from memory_mcp.services.wording import is_long

#: A condition's opening word and its clause, to the next comma, semicolon or full stop.
_CLAUSE = re.compile(r"\b(if|when|whenever|unless|once|except)\b((?:[^,;.:()]|(?<=\d)\.(?=\d))*)",
                     re.IGNORECASE)  # a decimal point ends no clause ("under **1.5** m and
# the tide is slack", the 380th set)
#: Openers read as one: "when", "whenever" and "if" name the same condition ("only **when**
#: the leaves are dry" / "only **if** the leaves have stayed wet", the 307th set).
_SAME = {"whenever": "when", "except": "unless"}  # "**unless** the patient brings a
# doctor's note" / "**except for** the patient's first missed appointment" (the 387th set)
_SET_OFF = re.compile(r"(\b[a-z][\w-]*), ((?:[A-Z][\w'-]*\s?){1,3}),")
_WORD = re.compile(r"[\w'-]+(?:\.\d+)*")  # "1.5" one word
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_AND_STATE = re.compile(r"\band (?:it is|it's|there is) (?:also )?(\w+)")


def other_clause(ra: str, rb: str) -> tuple[str, str] | None:
    """(a's clause, b's clause) where both texts open a condition with the same word, the two
    clauses share a word (what the condition is about: "forecast", the "SM58") or their
    numbers ("within 10 miles", the hundred-and-thirtieth set) and name, between
    them, at least three things the other text lacks, one on each side at least, or one clause
    adds a state with "and it is …"; or None.

    Fewer are left to the other rules: a single word each is as often a synonym ("60% **chance**
    of rain" / "rain **probability** above 60%", "the surface **temperature**" / "the **road**
    surface") as another trigger."""
    if is_long(ra, rb):  # a short fact's rule: two long texts' clauses, pair by pair, each
        return None  # against the other's every word, would cost seconds
    waived = _waived(ra, rb) or _waived(rb, ra, flip=True)
    if waived is not None:
        return waived
    clauses_a, clauses_b = _clauses(ra), _clauses(rb)
    if not (clauses_a and clauses_b):
        return None
    words_a, words_b = _words(ra), _words(rb)
    for opener, xs, text_a in clauses_a:
        for other, ys, text_b in clauses_b:
            if opener == other == "only" and text_a.split()[0] != text_b.split()[0] \
                    and _NUMBER.findall(text_a) == _NUMBER.findall(text_b) != []:
                continue  # "only if … warmer than 10 °C outside" / "only when … the air
                # temperature is above 10 °C": one threshold, worded otherwise
            measured = _measured_apart(text_a, text_b, ra, rb)  # the number: one more;
            # with a word of its own on the other side, enough: "if a clock **has stopped**" /
            # "if a clock is **more than 2 minutes out**" (the 385th set)
            only_a, only_b = _unseen(xs, words_b), _unseen(ys, words_a)
            excepted = opener == other == "unless" and text_a.split()[0] != text_b.split()[0] \
                and any(
                len(only) >= _EXCEPT_UNSEEN and 2 * len(only) > len(own)
                for only, own in ((only_a, xs), (only_b, ys)))  # two exceptions, one naming
            # what the other text never does: "unless the patient brings **a doctor's note**" /
            # "except for the patient's first missed appointment" (the 387th set)
            if excepted:
                return text_a, text_b
            if opener != other and {opener, other} == {"only", "when"} \
                    and "whenever" in (text_a.split()[0], text_b.split()[0]) \
                    and {stem(w) for w in xs} & {stem(w) for w in ys} \
                    and _unseen(_plain(text_a), words_b) and _unseen(_plain(text_b), words_a):
                return text_a, text_b  # "**only when** a line-replaceable unit is powered up"
                # / "**whenever** a line-replaceable unit has its covers off" (the 394th set)
            if "unless" in (opener, other) and {opener, other} & {"when", "if"} \
                    and words_a[0] - {opener, other} == words_b[0] - {opener, other} \
                    and not _TURNING & words_a[0]:
                return text_a, text_b  # "flags logins **unless** the account has a payee
                # change" / "… **when** the account has …" (the 486th set): the exception
                # made the case, every other word the same and nothing turned ("may **not**
                # … unless" / "may **only** … when" is one rule)
            if opener != other and {opener, other} == {"only", "when"} \
                    and _one_slot(text_a, text_b, only_a, only_b):
                return text_a, text_b  # "… **when** the workshop B box is **broken**" / "…
                # **only when** the workshop B box is **booked**" (the 434th set)
            if opener != other \
                    or not ({stem(w) for w in xs} & {stem(w) for w in ys}
                                       or _NUMBER.findall(text_a) == _NUMBER.findall(text_b)
                                       != [] or measured or _far_apart(only_a, only_b)):
                continue  # about the same thing, or the same amount: "if thunder is heard
                # **within 10** miles" / "if lightning is seen **within 10** miles"
            weight = measured or _unsaid_amount(text_a, rb) or _unsaid_amount(text_b, ra)
            if (only_a and only_b and len(only_a) + len(only_b) + weight >= _UNSEEN_MIN) \
                    or (measured and (only_b if _NUMBER.search(text_a) else only_a)) \
                    or _joined(text_a, words_b) or _joined(text_b, words_a) \
                    or _one_slot(text_a, text_b, only_a, only_b):
                return text_a, text_b
    return None


def _plain(clause: str) -> list[str]:
    """A clause's content words after its opener, verbs and units included."""
    return [w for w in _WORD.findall(clause.lower())[1:] if content_word(w)]


def _far_apart(only_a: set[str], only_b: set[str]) -> bool:
    """Whether two clauses name so many things apart that they are two triggers though they
    share no word: "unless **the frets need full replacement**" / "unless **the neck needs a
    truss rod adjustment**" (the two-hundred-and-eightieth set)."""
    return len(only_a) >= _APART_EACH and len(only_b) >= _APART_EACH \
        and len(only_a) + len(only_b) >= _APART_BOTH


_APART_EACH, _APART_BOTH = 1, 3


def _waived(x: str, y: str, flip: bool = False) -> tuple[str, str] | None:
    """Where ``x`` holds whatever a thing is ("come off whenever it's dry, **whatever the
    wind**") that ``y`` makes a condition of ("… only when it's dry **and the wind is under 40
    km/h**"; the eighty-ninth and ninety-first sets): (x's phrase, y's condition), or None."""
    found = _WHATEVER.search(x)
    if found is None or _WHATEVER.search(y):
        return None
    thing = stem(found.group(1).lower())
    for _, words, text in _clauses(y) + _onlies(y):
        if thing in {stem(w) for w in words}:
            return (text, found.group(0)) if flip else (found.group(0), text)
    for bounded in _BOUNDED.finditer(y):  # "… and **with wind under 15 knots**" (the
        # hundred-and-eleventh set)
        if stem(bounded.group(1).lower()) == thing:
            text = bounded.group(0)
            return (text, found.group(0)) if flip else (found.group(0), text)
    return None


def _onlies(text: str) -> list[tuple[str, list[str], str]]:
    """"only once …", "only when …" and "as long as …" clauses, as ``_clauses`` reads them."""
    return [("only", _WORD.findall(m.group(2).lower()), m.group(0))
            for m in _ONLY.finditer(text)]


#: "whatever the wind", "regardless of the temperature", "no matter the weather".
_WHATEVER = re.compile(r"\b(?:whatever|regardless of|no matter)(?: what)?(?: the)? ([\w'-]+)",
                       re.IGNORECASE)
#: A bound on a thing said as a condition: "with **wind under** 15 knots", "when the **swell
#: is over** 2 m".
_BOUNDED = re.compile(r"\b(?:with|when|if|while) (?:the )?([\w'-]+) (?:is |are )?(?:under|over|"
                      r"below|above|less than|more than|at least|at most) \d[\d.,]*(?: ?[a-z/%°]+)?",
                      re.IGNORECASE)
_ONLY = re.compile(r"\b(only once|only when|only if|as long as|provided)\b([^;.:()]*)",
                   re.IGNORECASE)


def _joined(clause: str, other: tuple[set[str], list[str]]) -> bool:
    """Whether a clause adds a state with "and it is …" that the other text lacks: "when the
    anemometer reads above 30 mph **and it is raining**" holds under both at once."""
    found = _AND_STATE.search(clause)
    return found is not None and bool(_unseen([found.group(1)], other))


def _one_slot(text_a: str, text_b: str, only_a: set[str], only_b: set[str]) -> bool:
    """Whether the two clauses are word for word the same but their last word, where each
    names what the other text lacks: "when the site is on **tarmac**" / "when the site is on
    **grass**" (the two-hundred-and-fifty-fifth set). A synonym rarely keeps every other word
    in its place ("60% chance of rain" / "rain probability above 60%")."""
    xs, ys = text_a.split(), text_b.split()
    placed = len(xs) == _SLOT_FRAME - 1 and xs[-2] in _HOLDERS  # "when stamping **on
    # paper**" / "… **on cloth**" (the 360th set), "unless it **includes tyres**" / "… **includes
    # asbestos**" (the 477th): a short clause whose last word is the thing a preposition or
    # a verb of holding names
    if len(xs) != len(ys) or (len(xs) < _SLOT_FRAME and not placed):
        return False
    apart = [(x, y) for x, y in zip(xs, ys, strict=True) if stem(x) != stem(y)]
    inner = [(k, x, y) for k, (x, y) in enumerate(zip(xs, ys, strict=True)) if stem(x) != stem(y)]
    if len(inner) == 1 and 0 < inner[0][0] < len(xs) - 1 and len(xs) >= _SLOT_FRAME \
            and xs[inner[0][0] - 1].lower() in _COPULAS and inner[0][1] in only_a \
            and inner[0][2] in only_b and not same_side(inner[0][1], inner[0][2]) \
            and not any(verb_s(w) for w in inner[0][1:]):
        return True  # "only if the ground has been **frozen** for 3 days" / "… **dry** for 3
        # days" (the 389th set): a state in the clause's middle, each text's own
    state = xs[-2].lower() in ("is", "are") and not same_side(xs[-1], ys[-1])  # "if the
    # ground is **frozen**" / "… is **waterlogged**" (the 297th set): a state, though it ends
    # in -ed; not "is **shut**" / "is **closed**", one state
    held = xs[-2] == ys[-2] and xs[-2] in _HOLDERS - _HOLDERS_PREP  # "includes **tyres**": a noun
    return len(apart) == 1 and apart[0] == (xs[-1], ys[-1]) \
        and apart[0][0] in only_a and apart[0][1] in only_b \
        and not any((verb_s(w) and not held) or (w.endswith("ed") and not state)
                    for w in apart[0])  # "the
    # manual **permits** 125 mm" / "… **allows** 125 mm": a verb reworded


def _measured_apart(text_a: str, text_b: str, ra: str, rb: str) -> bool:
    """"cancelled **if it rains**" / "**If wind exceeds 40 mph**, … is cancelled": one
    condition is a measured threshold whose number the other text never states, and the
    other names no amount at all: two triggers, though their clauses share no word (the
    hundred-and-eighty-third set)."""
    nums_a, nums_b = _NUMBER.findall(text_a), _NUMBER.findall(text_b)
    if bool(nums_a) == bool(nums_b):
        return False
    other = rb if nums_a else ra  # no amount anywhere, in digits or words ("three nights")
    return not any(number(w) is not None for w in _WORD.findall(other.lower()))


def _unsaid_amount(clause: str, other: str) -> bool:
    """Whether a condition's clause holds a number the other text never states: "whenever the
    forecast wind is **over 25 mph**" / "… whenever rain is forecast" (the two-hundred-and-
    forty-fourth set) counts as a thing the other lacks."""
    said = {float(n) for n in _NUMBER.findall(other)} | {
        n for n in map(number, _WORD.findall(other.lower())) if n is not None}
    return any(float(n) not in said for n in _NUMBER.findall(clause))


def _clauses(text: str) -> list[tuple[str, list[str], str]]:
    """(the opener, the clause's compared words, the clause as written) for each condition."""
    out = []
    text = _SET_OFF.sub(r"\1 \2", text)  # "only when the owner**,** Mrs Haddad**,** has shut
    # the dog in the kitchen" (the 399th set): a name set off by commas ends no clause
    for m in _CLAUSE.finditer(text):
        opener = m.group(1).lower()
        words = _WORD.findall(m.group(2).lower())
        kept = [w for w in words if compared(w) and w not in COMMON_VERBS and not _unit(w)]
        read = "only" if text[:m.start()].rstrip().lower().endswith("only") \
            else _SAME.get(opener, opener)  # "only **when** the leaves are dry" / "only
        # **if** the leaves have stayed wet" (the 307th set): one opener; a bare "if" and
        # "when" are not, whose clauses rewordings word otherwise (15 of the earlier sets)
        if opener == "once" and read != "only":
            continue  # "only **once** the deposit has cleared" (the 347th set); a bare
            # "once" is as often one time ("once a week")
        out.append((read, kept, f"{opener} {' '.join(words)}"))
    return out


def _words(text: str) -> tuple[set[str], list[str]]:
    words = _WORD.findall(text.lower())
    return {stem(w) for w in words}, words


def _unseen(words: list[str], other: tuple[set[str], list[str]]) -> set[str]:
    """The words of a clause the other text lacks, as a stem or as a short form ("ack" /
    "acknowledgement")."""
    stems, plain = other
    return {w for w in words if stem(w) not in stems
            and not any(len(o) >= 3 and (w.startswith(o) or o.startswith(w)) for o in plain)}


def _unit(word: str) -> bool:
    """A unit, which the value rules compare ("under one **metre**" / "below 1 **m**")."""
    return len(word) <= 2 or word in MEASURES or word in UNIT_SYMBOLS or word in _UNITS


_UNITS = frozenset("""degree degrees metre metres meter meters litre litres inch inches yard yards
foot percent minus""".split())  # noqa: SIM905
#: Things named in the two clauses that the other text lacks, at least.
_UNSEEN_MIN = 3
#: Words of one exception the other text lacks, at least, for two exceptions.
_EXCEPT_UNSEEN = 2
#: Verbs after which a clause's word is a state: "has **been** frozen", "is wet".
_COPULAS = frozenset(["is", "are", "been", "be", "was", "were"])
#: Words a clause holds, its opener with them, to be read slot by slot.
_SLOT_FRAME = 5
_TURNING = frozenset(["not", "never", "no", "only", "nobody", "without"])
_HOLDERS_PREP = frozenset(["on", "in", "with", "for"])
_HOLDERS = _HOLDERS_PREP | frozenset(["includes", "include", "contains", "contain", "involves",
                                      "involve"])


def added_only(ra: str, rb: str) -> tuple[str, str] | None:
    """(a's condition, "no condition") where the request ``ra`` holds its fact "only when" or
    "only if" something and the stored ``rb`` names no condition at all: "manual wheelchairs
    are lent free **only when a scooter is hired too**" / "… are lent free of charge" (the
    323rd set), a narrower rule. Only the request's: one that leaves a condition out is
    shorter, not other."""
    found = _ONLY_WHEN.search(ra)
    if found is None or _ANY_CONDITION.search(rb):
        return None
    return found.group(0).lower(), "no condition"


_ONLY_WHEN = re.compile(r"\bonly (?:when|if|once)\b[^,;.:()]*", re.IGNORECASE)
_ANY_CONDITION = re.compile(r"\b(?:if|when|whenever|unless|only|provided|once|until|except|as "
                            r"long as|subject to|depending on|without|after|before)\b",
                            re.IGNORECASE)  # "may not ride Storm **without** an instructor",
# "trimmed **after** the sail is hoisted": a condition in other words

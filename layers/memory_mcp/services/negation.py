"""Which words of a text deny its statement, and which set an alternative aside.

"Brewing logs are kept in Brewfather, **not** in the shared spreadsheet" denies nothing: its
"not" names the place the logs are *not* kept, as "rather than" would, and "we **don't** keep
brewing logs in Brewfather" says the opposite of it. Counted as a denial, that "not" made the
two texts hold one negation each, and the seventh forget set's request forgot the fact. So a
"not" or "never" that repeats the preposition of a phrase just before it ("in X, not in Y",
"by the shift lead, never by the on-call engineer") is read as a contrast, like "rather than"
and "instead of"; every other negation word is a denial.
"""

from __future__ import annotations

import re

from memory_mcp.services.lexicon import NEGATIONS
from memory_mcp.services.stems import content_word, part_stems, stem

_CONTRAST_NOTS = frozenset(["not", "never"])
_PREPOSITIONS = frozenset("""in on at to for from by with via into under over within through
during""".split())  # noqa: SIM905
#: After a comma these still deny ("…, not yet", "…, not even on weekends", "…, not just
#: international ones"): no alternative follows.
_NOT_CONTRASTS = frozenset(["yet", "even", "again", "always", "ever", "necessarily", "only",
                            "just", "merely", "simply", "solely", "exclusively"])
#: Words that end the phrase a contrast excludes: a verb or a new clause follows ("the leasing
#: agent, not the cleaners, **does** move-out inspections").
_PHRASE_ENDS = frozenset("""is are was were be been does do did has have had will would can
could must should may might and but so while because which who then""".split())  # noqa: SIM905
#: How far back the phrase a contrast mirrors may start ("in the shared team spreadsheet").
_REACH = 6


#: Each "not" / "never" of a text → (whether a comma, dash or semicolon sets it off, how many
#: words follow it before the next punctuation mark).
Marks = dict[int, tuple[bool, int]]


def marks(text: str, lower: list[str]) -> Marks:
    """Where each "not" / "never" stands in the punctuation the tokens drop: set off by a
    comma, dash or semicolon ("sent to landfill**, not** resold", "in pairs**, never** alone":
    a contrast with what came before), and how far its phrase runs ("Alice**, not Bob,**
    approves": one word). Matched to the tokens by order of appearance; where the two counts
    differ (a short form rewrote one: "not more than" is "at most") there are none, and each
    stays a denial."""
    found = [(bool(m.group(1)), len(_WORD.findall(m.group(2))))
             for m in _SET_OFF.finditer(text)]
    places = [i for i, w in enumerate(lower) if w in _CONTRAST_NOTS]
    if len(found) != len(places):
        return {}
    return dict(zip(places, found, strict=True))


_SET_OFF = re.compile(r"([,;\u2013\u2014]\s*|\s-\s*)?\b(?:not|never)\b([^,;:()\"\u2013\u2014]*?)"
                      r"(?=[,;:()\"\u2013\u2014]|\s-\s|$)", re.IGNORECASE)
_WORD = re.compile(r"[\w'\-/.@#]+")


def denials(lower: list[str], off: Marks | None = None) -> list[int]:
    """Positions of the words that deny the statement (not contrasts): negation words, and
    words that deny by their meaning (``_implicit``)."""
    return [i for i, w in enumerate(lower)
            if ((w in NEGATIONS or w.endswith("n't")) and not _contrast_not(lower, i, off)
                and not _free(lower, i)) or _implicit(lower, i)]


#: Words that deny by their meaning: "fines are **waived**" is "no fines", "loose chalk is
#: **banned**" is "loose chalk is not allowed", "**non-refundable**" is "no refunds".
_DENYING = frozenset("""waived waive waives exempt exempted prohibited prohibit prohibits
forbidden forbid forbids banned ban bans barred excluded non-refundable nonrefundable
off-limits forgiven""".split())  # noqa: SIM905
#: Verbs of a purpose that deny what follows: "to **stop** fat staining the feathers" is "so
#: fat doesn't stain the feathers"; "to **keep** the pipes **from** drifting" likewise ("to
#: avoid" and "to prevent" reach here as "not": ``short_forms`` spells them so).
_PREVENTING = frozenset(["stop"])
_OBLIGED = frozenset("""have has had need needs needed want wants wanted ought used able going
got""".split())  # noqa: SIM905


def _implicit(lower: list[str], i: int) -> bool:
    """Whether the word at ``i`` denies by its meaning (``_DENYING``, "off-limits" written
    apart, a purpose's "to stop" / "to keep … from"). Counted apart from "no" and "not",
    "fines are waived" / "no fines" read as one text saying the opposite of the other."""
    w = lower[i]
    if w in _DENYING:
        return True
    if w == "off":
        return lower[i + 1:i + 2] == ["limits"]
    if i == 0 or lower[i - 1] != "to" or (i > 1 and lower[i - 2] in _OBLIGED):
        return False  # "patients **have to stop** aspirin": an instruction, not a purpose
    return w in _PREVENTING or (w == "keep" and "from" in lower[i + 2:i + 6])


#: "at **no** charge", "**no** extra cost": a price (free), not a denial of the statement.
_PRICES = frozenset(["charge", "cost", "fee", "extra", "additional"])


def _free(lower: list[str], i: int) -> bool:
    """"at no charge" (a price), "part no. SC-1180" and "press No. 3" (a number's label): no
    denial. "the No. 2 operator" is a rank, which no rule reads: it stays a denial, so such a
    pair is still told apart from "… leads the team". "Refunded **even without** a note"
    grants what "not refunded unless …" withholds: no denial either."""
    if lower[i] == "without" and i > 0 and lower[i - 1] == "even":
        return True
    return lower[i] == "no" and ((lower[i + 1:i + 2] != [] and (
        lower[i + 1] in _PRICES or (lower[i + 1][:1].isdigit() and i > 0
                                    and lower[i - 1] not in ("the", "a", "our", "their")
                                    and not _denied_after(lower[i - 1]))))
        or (i > 0 and lower[i - 1] in _NUMBERED))


def _denied_after(word: str) -> bool:
    """Whether "no" and a number after ``word`` deny a count: after a participle or "only"
    ("allowed, **no** 40 MHz sets", "2.4 GHz only, no 40 MHz sets", the
    two-hundred-and-fifteenth set), not after a thing's name ("mill **no.** 2", "press no. 3")."""
    return word == "only" or (word.endswith(("ed", "en")) and len(word) > 4)


#: Words after which "no" is "number": "part **no.** SC-1180", "serial no. 4471".
_NUMBERED = frozenset("""part item serial ref reference model order cat catalogue lot batch
invoice account phone tel ticket job case flight policy unit""".split())  # noqa: SIM905


def contrasts(lower: list[str], off: Marks | None = None) -> tuple[frozenset[str], ...]:
    """What each "rather … than", "instead of" and contrasting "not" (``_contrast_not``) sets
    aside (the stems after it). Such a phrase denies that alternative as "not" does ("to
    TestPyPI **rather than** PyPI" / "to TestPyPI, **not** to PyPI"), or names the value a
    correction replaces ("now on Thursdays **instead of** Tuesdays"): the negation rule counts
    it only against a negation of the other text that sets aside the same thing. One pass:
    "rather" waits for its "than"."""
    out: list[frozenset[str]] = []
    waiting = 0
    for i, w in enumerate(lower):
        if w == "rather":
            waiting += 1
        elif w == "than" and waiting:
            waiting -= 1
            out.append(after(lower, i))
        elif w == "instead" and lower[i + 1:i + 2] == ["of"]:
            out.append(after(lower, i + 1))
        elif _contrast_not(lower, i, off):
            out.append(_phrase(lower, i, off))
    return tuple(out)


def aside_heads(tokens: tuple[str, ...]) -> frozenset[str]:
    """The stem of the first content word each "rather … than" or "instead of" sets aside:
    "burnt rather than **stacked** into dead hedges" (the words after it may be a reason or a
    place the other text states outside its own contrast)."""
    out: set[str] = set()
    waiting = 0
    for i, w in enumerate(tokens):
        if w == "rather":
            waiting += 1
        elif (w == "than" and waiting) or (w == "of" and tokens[i - 1:i] == ("instead",)):
            waiting -= w == "than"
            head = next((t for t in tokens[i + 1:i + 4] if content_word(t)), None)
            if head is not None:
                out.add(stem(head))
    return frozenset(out)


def excluded(lower: list[str], off: Marks | None = None) -> tuple[frozenset[str], ...]:
    """What each contrasting "not" or "never" excludes ("… by the lead, **never by the
    on-call engineer**"): a text that states it ("… and occasionally by the on-call engineer")
    says the opposite. ("Rather than" is left out: "would rather … than on video" and
    "prefers … over video calls" both name the video they set aside.)"""
    return tuple(_phrase(lower, i, off) for i in range(len(lower))
                 if _contrast_not(lower, i, off))


def _phrase(lower: list[str], i: int, off: Marks | None) -> frozenset[str]:
    """The stems of the phrase after the contrast at ``i``, up to the next punctuation mark
    ("Alice, not **Bob**, approves"), preposition after a content word ("not in **Splunk** by
    the SRE team") or verb."""
    reach = min(7, (off or {}).get(i, (False, 7))[1])
    out: list[str] = []
    for w in lower[i + 1:i + 1 + reach]:
        if out and (w in _PREPOSITIONS or w in _PHRASE_ENDS):
            break
        if content_word(w):
            out.extend(part_stems(w))
    return frozenset(out)


def _contrast_not(lower: list[str], i: int, off: Marks | None = None) -> bool:
    """"… in Brewfather, **not** in the spreadsheet": a "not" or "never" after a content word
    and before a preposition that opened a phrase just before it. "Bob **not** on call" (no
    phrase to mirror) and "is **not** in the office" (after a verb) stay denials."""
    if lower[i] not in _CONTRAST_NOTS or i == 0 or i + 1 >= len(lower):
        return False
    if (off or {}).get(i, (False, 0))[0] and _contrasted(lower[i - 1], lower[i + 1]) \
            and lower[i + 1] not in _NOT_CONTRASTS:
        return True  # "…, not sent to landfill", "…, never alone"
    prep = lower[i + 1]
    return prep in _PREPOSITIONS and content_word(lower[i - 1]) \
        and prep in lower[max(0, i - _REACH):i - 1]


def _contrasted(word: str, nxt: str) -> bool:
    """Whether a word before a set-off "not" ends a phrase it may contrast with: a content
    word, or a number or code before a thing ("in Room **2.11**, not the 4 °C fridge", the
    516th set; "in room 104, not **to** the pack team" leaves its place to the preposition's
    phrase, which a rewording words otherwise)."""
    return content_word(word) or (any(c.isdigit() for c in word) and nxt not in _PREPOSITIONS)


def denied(lower: list[str], i: int) -> frozenset[str]:
    """What the negation at ``i`` may deny: the content words after it ("does **not** keep
    logs") and the two before it ("**cyclists** don't deliver", the one it excludes, which
    "… by the van team, not by **cyclists**" sets aside)."""
    before = [p for w in lower[max(0, i - 4):i] if content_word(w) for p in part_stems(w)][-2:]
    return after(lower, i) | frozenset(before)


def after(lower: list[str], i: int, count: int = 3) -> frozenset[str]:
    """Stems of the (up to ``count``) content words after position ``i``."""
    out: list[str] = []
    words = lower[i + 1:i + 3 + 2 * count]
    for k, w in enumerate(words):
        if w in ("and", "but") and k + 1 < len(words) and words[k + 1] in _NEW_PREDICATE:
            break  # "do**n't** have to be scrapped **and can** be repaired": the repair is stated
        if content_word(w):
            # each part of "on-call", as a text's ``stems`` hold it
            out.extend(part_stems(w))
            if len(out) >= count:
                break
    return frozenset(out)


#: Words that open a new predicate after "and" / "but", past which a denial does not reach.
_NEW_PREDICATE = frozenset(["can", "may", "must", "should", "will", "is", "are", "gets", "get"])

#: Words that close a restriction a denial opened: "**no** job goes to press **until** the
#: customer approves", "**nobody except** Priya and Ben may open them".
_RESTRICTS = frozenset(["until", "unless", "except", "but", "without", "else", "till"])
_RESTRICT_REACH = 12


def restrictive(lower: tuple[str, ...]) -> int:
    """How many of the text's denial words only restrict it, as "only" does: a denial with an
    "until", "unless", "except", "but", "without" or "else" at most ``_RESTRICT_REACH``
    words after it ("**no** batch is kegged **until** Marco signs it off" says "kegged only
    after Marco signs it off"), counting that word too when it is a denial itself ("**nobody
    except** …")."""
    words, count, used = list(lower), 0, set()
    denying = denials(words)
    denied_at = set(denying)  # once: read per denial, it made a long text's check quadratic
    for i in denying:
        if i in used:
            continue
        close = next((j for j in range(i + 1, min(len(words), i + 1 + _RESTRICT_REACH))
                      if words[j] in _RESTRICTS), None)
        if close is not None:
            count += 1 + (close in denied_at)
            used.add(close)
    return count


def one_denied(tokens: tuple[str, ...], word: str, other: tuple[str, ...]) -> bool:
    """Whether ``word`` is denied in ``tokens`` (``denied_word``) and ``other`` says no "not",
    "never" or "-n't" at all."""
    return denied_word(tokens, word) and not any(_denies(t) for t in other)


def denied_word(tokens: tuple[str, ...], word: str) -> bool:
    """Whether ``word`` follows a denial right before it or before "be" ("is **not** allowed",
    "is**n't** allowed", "must **not** be allowed", "**never** permitted"): a denied state is
    its opposite, so "RG59 is **not allowed**" / "RG59 is **banned**" is one rule (the
    opposite-word rule's pairs, 27 refused rewordings over the sets)."""
    if word not in tokens:
        return False
    i = tokens.index(word)
    before = tokens[i - 2:i] if i >= 2 else ("", *tokens[:i])
    return bool(before) and (_denies(before[-1]) or (
        _denies(before[0]) and before[-1] in ("be", "been", "being", "get", "gets", "got")))


def _denies(token: str) -> bool:
    return token in NEGATIONS or token.endswith("n't")


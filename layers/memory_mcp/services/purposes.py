"""Why a fact holds: "the projector is switched on 20 minutes early **so the star field can be
aligned**" is not "… **so it can warm up**", nor "dust extraction runs before the mill starts
**to keep flour dust out of the millers' lungs**" "… **because of the explosion risk**".

Found by the thirtieth to thirty-fourth forget sets (bench/forget_quality.py): the two texts
share every other word, and the words the reasons differ in are too few for the rule of
several words each (``agreement``'s "words") and too many for one swapped word. When each text
gives a reason and the two reasons share (almost) nothing, the texts state the same act for
two ends: two facts. A rewording that says the reason in other words is refused with its
candidates, the safe side; one that keeps a word of it agrees.
"""

from __future__ import annotations

from itertools import pairwise

from memory_mcp.services.conditions import compared
from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import AUX
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import stem
from memory_mcp.services.word_pool import parts_pool
from memory_mcp.services.wording import PARTICLES

#: Words that open a reason or a purpose; "so" only when no count or manner follows it.
_OPENERS = frozenset(["because", "so", "lest"])
_NOT_AFTER_SO = frozenset(["far", "much", "many", "long", "few", "little", "often", "called"])
#: Verbs a purpose's "to" opens ("… **to keep** flour dust out"), where "to" alone would
#: mostly be a place ("to the office").
_PURPOSE_VERBS = frozenset("""keep stop prevent avoid make ensure allow protect reduce let give
help save meet comply free get spare limit cut minimise minimize maximise maximize kill detect
confirm verify warn alert cover speed drive maintain preserve extend
control provide create attract deter encourage support build tune set prepare rehearse catch
spot reveal
""".split())  # noqa: SIM905  "arrive by 6 pm **to tune**" / "… **to set out** the chairs" (285th)
#: Words after "since" that make it a reason, not a time ("**since the** dive shop can't
#: certify it", "**since they** arrive late"; "since 2019", "since March" are times).
_SINCE_REASON = frozenset(["the", "they", "it", "we", "our", "their", "its", "he", "she",
                           "there", "this", "that", "these", "those", "you"])
#: Content words of a reason that are read.
_REACH = 6
#: Words the two reasons must miss between them, at least; and each and both, where the
#: reasons share words too.
_LEAST = 3
_EACH, _BOTH = 2, 5


def other_purpose(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's reason, b's reason) where each text gives one and most of each reason's words are
    nowhere in the other text, or None."""
    found_a, found_b = _reason(a), _reason(b)
    if not (found_a and found_b):
        return None
    (reason_a, at_a), (reason_b, at_b) = found_a, found_b
    # a numbered thing both main clauses name is the reasons' common subject, not a common
    # reason ("only done in **Room 3** because it's the quietest **room**" / "… because that
    # **room** has the extractor fan"); a word of both main clauses alone is a reason shared
    # ("**fasting** glucose draws … so patients aren't left **fasting**"); so is a name
    # both main clauses say ("instead of **PBW**, because **PBW** is too expensive" / "…
    # because **PBW** left a film", the hundred-and-fifth set)
    told = (_numbered(a.tokens[:at_a]) | _named(a, at_a)) \
        & (_numbered(b.tokens[:at_b]) | _named(b, at_b))
    least = _LEAST
    k = next((n for n, (x, y) in enumerate(zip(reason_a[1], reason_b[1], strict=False))
              if stem(x) != stem(y)), min(len(reason_a[1]), len(reason_b[1])))
    if k >= _DOER and len(reason_a[1]) > k and len(reason_b[1]) > k \
            and _acts(a, at_a, reason_a[1][k - 1]) and _acts(b, at_b, reason_b[1][k - 1]):  # "so that **the
        # caretaker, Olu Adeyemi,** can deep clean the ball pool" / "… can check the
        # electrics" (the 323rd set): the same doer, read past, and what each does
        reason_a, reason_b = ((f"{r[0].split()[0]} … {' '.join(r[1][k:])}", r[1][k:])
                              for r in (reason_a, reason_b))
    if _same_verb(reason_a, reason_b):  # "to stop **fly-tipping**" / "to stop **overnight
        # camping**": what the one purpose verb acts on is a thing each
        reason_a, reason_b, least = (reason_a[0], reason_a[1][1:]), (reason_b[0],
                                                                     reason_b[1][1:]), 2
        if not (reason_a[1] and reason_b[1]):
            return None
    # what both main clauses are about is no sign of a shared reason: "Shed 1 **worm** bins
    # … because Shed 1 has more **worms**" / "**Worm** bins … because Shed 1 runs warmer"
    topic = {stem(t) for t in a.tokens[:at_a]} & {stem(t) for t in b.tokens[:at_b]}
    lost_a = _missing(reason_a[1], b, topic - {stem(w) for w in reason_b[1]})
    lost_b = _missing(reason_b[1], a, topic - {stem(w) for w in reason_a[1]})
    # "so it's **delivered**" / "so it **arrives**": one verb each is a reason reworded; one
    # noun each is not ("because of the **noise**" / "because of the **slurry**")
    if _of_thing(reason_a[0]) and _of_thing(reason_b[0]):
        least = 2
    if (_apart(lost_a, reason_a[1]) and _apart(lost_b, reason_b[1]) and lost_a + lost_b >= least) \
            or _each_apart(reason_a[1], reason_b[1], a, b):  # "so that **the
        # colours of** the ice cream **stay bright**" / "so that the ice cream **stays soft
        # enough to scoop**" (the 370th set): the same thing, two ends for it
        return reason_a[0], reason_b[0]
    if lost_a and lost_b and lost_a + lost_b >= least \
            and not _shared(reason_a[1], reason_b[1], told) \
            and not _shared(reason_b[1], reason_a[1], told):
        return reason_a[0], reason_b[0]  # "because the fire station is open around the clock"
        # / "since the dive shop can't certify medical oxygen": each reason names things the
        # other text's main clause does, but the two reasons share no word
    return None


def _each_apart(words_a: list[str], words_b: list[str], a: Facets, b: Facets) -> bool:
    """Whether each reason names at least ``_EACH`` words the other text says nowhere (its
    main clause included), ``_BOTH`` between them, though the reasons share others."""
    pool_a, pool_b = parts_pool(a), parts_pool(b)
    lost_a = sum(not pool_b.has(w, 0.75) and not w.endswith(("ed", "ing")) for w in words_a)
    lost_b = sum(not pool_a.has(w, 0.75) and not w.endswith(("ed", "ing")) for w in words_b)
    return min(lost_a, lost_b) >= _EACH and lost_a + lost_b >= _BOTH  # a verb is as often
    # reworded ("since the best-before **changed**" / "since we **switched** …", the 235th)


def _numbered(toks: tuple[str, ...]) -> set[str]:
    """The stems of the words a number follows ("Room **3**")."""
    return {stem(t) for t, n in pairwise(toks) if number(n) is not None}


def _named(f: Facets, at: int) -> set[str]:
    """The stems of the names said before ``at``."""
    return {stem(t) for t in f.tokens[:at] if t in f.names}


def _shared(words: list[str], others: list[str], told: set[str]) -> bool:
    """Whether any of ``words`` is one of ``others`` (or a form of one), other than a word of
    ``told``."""
    return any((w == o or stem(w) == stem(o)) and stem(w) not in told
               for w in words for o in others)


def _same_verb(x: tuple[str, list[str]], y: tuple[str, list[str]]) -> bool:
    """Both reasons a "to" and the same purpose verb ("to stop …" / "to stop …")."""
    first_x, first_y = x[0].split()[:2], y[0].split()[:2]
    return first_x == first_y and first_x[0] == "to" and len(first_x) == 2 \
        and first_x[1] in _PURPOSE_VERBS and bool(x[1]) and x[1][0] == first_x[1] \
        and bool(y[1]) and y[1][0] == first_y[1]


def added_reason(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's reason, "") where the request gives a reason or purpose ("counted back in after
    every session **so they can be sharpened**") and the stored text gives none and lacks
    most of its words (the hundred-and-eighty-ninth set): the request states why, and that
    is a fact the stored one never said. Read from the request's side only: a rewording
    drops a reason far more often than it invents one."""
    found = _reason(a)
    if found is None or _reason(b) is not None or _infinitive(b.tokens):
        return None
    (phrase, words), at = found
    toks = a.tokens
    opener, after = toks[at], toks[at + 1] if at + 1 < len(toks) else ""
    if not ((opener == "so" and after in _SO_SUBJECTS) or opener == "because"
            or (opener == "to" and (after in _PURPOSE_VERBS or after == "not")
                and toks[at - 1] not in _OBLIGED)):
        return None  # "has **to give** notice" is a duty, "so forget that note" a wrapper
    pool = parts_pool(b)
    lost = [w for w in words if not pool.has(w, 0.75)]
    if len(lost) >= _ADDED_LEAST and 2 * len(lost) > len(words):
        return phrase, ""
    return None


#: Words of an added reason the stored text must lack, at least.
_ADDED_LEAST = 1
#: Words after "so" that open a reason's clause ("so **they** can be sharpened").
_SO_SUBJECTS = frozenset(["they", "it", "the", "we", "that", "there", "its", "their", "our",
                          "nobody", "no"])
#: Words before a "to" of duty, not of purpose ("has **to** give notice").
_OBLIGED = frozenset(["has", "have", "had", "need", "needs", "needed", "ought", "got",
                      "going", "used", "able", "want", "wants"])


def _infinitive(toks: tuple[str, ...]) -> bool:
    """Whether a text has a "to" and a word that is no number or article: a purpose the
    reason reader may not know ("**to improve** lens wettability")."""
    return any(t == "to" and nxt not in _OBJECT_OPENERS and number(nxt) is None
               for t, nxt in pairwise(toks))


def _of_thing(phrase: str) -> bool:
    """A reason that names a thing, not an event: "because of the noise", "for analysis"."""
    return phrase.startswith(("because of ", "for "))


def _reason(f: Facets) -> tuple[tuple[str, list[str]], int] | None:
    """The text's last reason (its words as written and its content words) and where it
    starts, or None."""
    toks = f.tokens
    for i in range(len(toks) - 1, 0, -1):
        t, after = toks[i], toks[i + 1] if i + 1 < len(toks) else ""
        opens = (t in _OPENERS and not (t == "so" and after in _NOT_AFTER_SO)) or (
            t == "since" and after in _SINCE_REASON) or (
            t == "to" and (after in _PURPOSE_VERBS or after == "not"
                           or _verb_then_object(toks, i + 1, f))) or (
            t == "as" and _REQUIRES & set(toks[i + 1:i + 5])) or (
            t == "order" and after == "to") or (t == "for" and len(after) > _ING
                                                 and after.endswith(_ACT_ENDINGS)
                                                 and i + 2 >= len(toks))
        if opens:
            end = next((k for k in range(i + 2, len(toks)) if toks[k] in _THEN), len(toks))
            words = [w for w in toks[i + 1:end] if compared(w)][:_REACH]
            if not words and t == "so":  # "so that they can **get off first**" (the 400th
                # set): a reason of common words only is read by them all
                words = [w for w in toks[i + 1:end] if w.isalpha() and w not in _SO_SUBJECTS
                         and w not in AUX][:_REACH]
            return ((" ".join(toks[i:i + 1 + _REACH]), words), i) if words else None
    return None


#: Words that end a reason and open when it matters: "so they can be pre-treated **before
#: washing**" / "so the customer is told **before washing**" are two reasons (the 128th set);
#: "so the herd can cool off **when it is above 28 °C**" ends its reason at "when" (the 326th).
_THEN = frozenset(["before", "after", "until", "while", "once", "when"])
#: Verbs of a rule's source after "as": "**as** our insurer **requires**".
_REQUIRES = frozenset(["requires", "require", "required", "demands", "specifies", "recommends",
                       "asks", "expects", "stipulates"])
#: "for **mulching**", "for **analysis**", "for **recalibration**", "for **safety**": a
#: gerund or a noun of an act or a state, of more letters than this, ending the text, is a
#: purpose ("to prevent" reads "to not": short_forms writes an averting verb as a denial).
_ING = 5
_ACT_ENDINGS = ("ing", "tion", "sion", "sis", "ment", "ance", "ence", "ity", "ety", "ness")
_OBJECT_OPENERS = frozenset(["the", "a", "an", "our", "their", "its", "any", "every", "them"])


def _verb_then_object(toks: tuple[str, ...], i: int, f: Facets) -> bool:
    """"to **surface the** play area": after "to", a word that is no name, number or
    determiner, then a determiner: a verb and its object (not "to the garden")."""
    if i + 2 < len(toks) and toks[i + 1] in PARTICLES:  # "to **break down the** lumps"
        i += 1
    return i + 1 < len(toks) and toks[i] not in _OBJECT_OPENERS and toks[i] not in f.names \
        and not toks[i][:1].isdigit() and toks[i + 1] in _OBJECT_OPENERS


def _missing(words: list[str], other: Facets, topic: set[str]) -> int:
    """How many of ``words`` occur nowhere in ``other``, or only as the ``topic`` both main
    clauses share."""
    found = parts_pool(other)
    return sum(not found.has(w, 0.75) or stem(w) in topic for w in words)


#: Words both reasons open with that name one doer, read past (``other_purpose``): "so that
#: the caretaker, Olu Adeyemi, can …" (the 323rd set), "so the herd can …" (the 326th).
_DOER = 1


def _acts(f: Facets, at: int, last: str) -> bool:
    """Whether the reason's doer (its words to ``last``) is followed by a modal or an
    auxiliary: "so that the caretaker, Olu Adeyemi, **can** …", not "so the bank file **is
    done** / **ready**", a thing and its state."""
    toks = f.tokens
    k = next((k for k in range(at, len(toks) - 1) if toks[k] == last), None)
    return k is not None and toks[k + 1] in _MODALS


_MODALS = frozenset(["can", "could", "will", "would", "may", "might", "must", "should"])


def _apart(missing: int, words: list[str]) -> bool:
    """Whether more than half of a reason's words (all of them when there are two or fewer)
    are missing from the other text."""
    return missing == len(words) if len(words) <= 2 else 2 * missing >= len(words)

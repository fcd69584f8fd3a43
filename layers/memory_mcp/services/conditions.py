"""The condition an "only" puts on a fact, compared between two texts.

"Fee waivers are available **only for registered charities**" and "… **only for applicants on
income support**" share every other word, and the local model scores them as one fact; so do
"Volunteers under 18 need a consent form" and the same "**but only for overnight events**". An
"only" narrows a fact to what follows it, so when no word of that phrase is in the other text
the two texts hold the fact under different conditions (or one under none): two facts. A
rewording keeps what the "only" names, wherever it puts it ("**only** staff with a blue badge
may enter" / "entry is restricted to staff holding a blue badge").
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import (
    AUX,
    CLAUSE_BREAKS,
    DETERMINERS,
    PREPOSITIONS,
)
from memory_mcp.services.lexicon import (
    CURRENCIES,
    MONTHS,
    WEEKDAYS,
)
from memory_mcp.services.stems import content_word, part_stems, singular_weekday, stem
from memory_mcp.services.word_pool import parts_pool
from memory_mcp.services.wording import OWN_RULES, subject_end

#: Content words read after an "only": the condition's own words, not the clause after it.
_REACH = 4


def only_condition(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text's "only" phrase shares no word with the other
    text; the other side is its own "only" phrase, or "" when it has none."""
    phrases_a, phrases_b = _only_phrases(a, b), _only_phrases(b, a)
    for mine, theirs, other, flip in ((phrases_a, phrases_b, b, False),
                                      (phrases_b, phrases_a, a, True)):
        found = parts_pool(other)
        for words, stems, written in mine:
            if stems and not stems & other.stems and not any(found.has(w, 0.75) for w in words):
                # no word of it, nor a longer form ("on-call" / "call")
                shown = (written, " / ".join(t for _, _, t in theirs) or "no such condition")
                return (shown[1], shown[0]) if flip else shown
    return None


def _only_phrases(f: Facets, other: Facets) -> list[tuple[list[str], frozenset[str], str]]:
    """(content words, their stems, the phrase as written) after each "only" (not "not
    only"), to the clause's end, or to a "never" whose words ``other`` says too ("only for
    royal weddings**,** never with the automatic striker", the 541st set: the tokens lost the
    comma; "the Rosso only, never into **the Bianco**" keeps its "never" where the other text
    has no Bianco)."""
    toks, out = f.tokens, []
    for i, t in enumerate(toks):
        if t != "only" or (i and toks[i - 1] == "not"):
            continue
        words: list[str] = []
        end = i + 1
        # "only if it **is** windy[,] with the final at 3 pm" (the 292nd set): the condition's
        # own verb before any word of it is read past; after it, the main clause goes on
        clause = toks[i + 1:i + 2] in (("if",), ("when",))
        verb = False
        for w in toks[i + 1:i + 10]:
            if clause and w in AUX and not words:
                verb, end = True, end + 1
                continue
            if w in CLAUSE_BREAKS or w in AUX or (w == "never" and _said_after(toks, i, other)) \
                    or len(words) == _REACH or (
                    verb and words and (w in PREPOSITIONS or w in DETERMINERS)):
                break
            end += 1
            if content_word(w):
                words.append(w)
        stems = frozenset(p for w in words for p in part_stems(w))
        out.append((words, stems, " ".join(toks[i:end])))
    return out


#: Words that open a condition's clause ("… needs a gas test every 30 minutes **when**
#: forced ventilation is off").
_CONDITIONALS = frozenset("if when whenever unless provided once while".split())  # noqa: SIM905


#: Words of bounds, which the bounds rule compares ("when it **exceeds** 10 hours" / "above
#: 10 hours").
BOUNDS = frozenset("""exceeds exceed exceeding exceeded above over under below beyond more less
greater fewer higher lower least most minimum maximum min max""".split())  # noqa: SIM905


def compared(word: str) -> bool:
    """A content word no other rule compares: not a day, month, time of day, number or bound
    ("lunch **on Wednesday**" is the weekday rule's)."""
    return content_word(word) and word not in OWN_RULES and singular_weekday(word) not in \
        WEEKDAYS and word not in MONTHS and not word[:1].isdigit() and word not in BOUNDS \
        and word not in CURRENCIES


#: Words of an added "unless" clause the other text lacks, at least, when it has no condition.
_UNSEEN = 1
#: A state's verb: "when the roof **is** wet" holds the fact under a state, not at an event.
_STATES = frozenset(["is", "are"])
#: Words that end a condition's clause and start another one.
_NEXT_CLAUSE = frozenset(["because", "so", "but", "while", "which"])
#: "and" before a new subject ends the condition: "when it's raining **and the** chestnut
#: cart stays in the garage" (the two-hundred-and-twenty-eighth set).
_NEW_SUBJECT = (("the",), ("we",), ("they",), ("our",), ("it",), ("its",), ("their",))


def added_clause(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's clause, "") where one text holds the fact under a condition clause (at its start
    too) of which the other has no word, whatever clause it has itself: "ARCs go out 12
    weeks before publication **if the author has approved final pages**" / "ARCs go out 12
    weeks before publication". Both hold at once, so forgetting one must not remove the
    other."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        found, words_y = parts_pool(y), set(y.tokens)  # once: a long text has many "when"s
        plain = not _CONDITIONALS & words_y  # the other text has no condition of its own
        for i, t in enumerate(x.tokens):
            if t not in _CONDITIONALS:
                continue
            window = x.tokens[i + 1:i + 1 + 2 * _REACH]
            cut = next((k for k, w in enumerate(window) if w in _NEXT_CLAUSE or (
                w == "and" and window[k + 1:k + 2] in _NEW_SUBJECT)), len(window))
            words = [w for w in window[:cut] if compared(w)][:_REACH]  # "unless a guide is
            # with them, **because** the paths ice over": the reason is another clause
            seen = [any(found.has(p, 0.75) for p in (w, *w.split("-"))) for w in words]
            only = i and x.tokens[i - 1] == "only" and plain
            # "extracted **only while** the buffers are **running**" / "extracted continuously":
            # one word the other lacks is enough after "only"
            unless = t == "unless" and plain and not {"only", "without", "except"} & words_y \
                and seen.count(False) >= _UNSEEN  # "… **unless they hold a belay card** from
            # another gym": an exception the other text does not make, whatever it shares ("only
            # with", "without written consent" may be the same exception)
            bare = not flip and t in ("if", "when", "whenever") and plain and len(words) >= 2 \
                and 2 * seen.count(False) >= len(words) \
                and (bool(_STATES & set(window[:4]))
                     or (t == "whenever" and not {"every", "each", "any"} & words_y
                         and 2 * seen.count(False) > len(words))) \
                and not (i and x.tokens[i - 1] in _STATES)  # "**whenever** the low-battery
            # light comes on" / "… before first use" (the 268th set), not "… at **every** shift
            # handover" / "whenever shifts hand over"
            if words and (unless or bare or not (all(seen) if only else any(seen))):  # "morning-before"
                clause = " ".join(x.tokens[i:i + 1 + 2 * _REACH])
                return ("", clause) if flip else (clause, "")
    return None


def added_purpose(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's phrase, "") where the request ends a clause with a "for …" (or "during …") the
    stored text lacks more than half the words of, or opens with one whose first word it
    lacks, and has no "for" of its own: "the branch stays open until 20:00
    on Thursdays **for staff training**" / "the branch opens late until 20:00 on Thursdays".
    Another purpose or beneficiary is another fact. Read from the request's side, as
    ``narrowed`` is."""
    if "for" in b.tokens or "during" in b.tokens:
        return None
    toks, found, end = a.tokens, parts_pool(b), subject_end(a)
    for i, t in enumerate(toks):
        if t not in ("for", "during") or (0 < i <= end):  # after the verb, or opening the
            continue  # text ("**For homes with pets**, re-entry is allowed only after …")
        words = [w for w in toks[i + 1:i + 1 + 2 * _REACH]
                 if compared(w)][:_REACH]
        missing = [not found.has(w, 0.75) for w in words]
        if words and (missing[0] if i == 0 else 2 * sum(missing) > len(words)) \
                and not any(w[:1].isdigit() for w in toks[i + 1:i + 3]):  # "for 90 days"
            return " ".join(toks[i:i + 1 + 2 * _REACH]), ""
    return None


def _said_after(toks: tuple[str, ...], i: int, other: Facets) -> bool:
    """Whether the content words after the first "never" past ``i`` (up to four) are all in
    ``other``."""
    k = toks.index("never", i)
    words = [w for w in toks[k + 1:k + 5] if content_word(w)]
    return bool(words) and all(stem(w) in other.stems for w in words)

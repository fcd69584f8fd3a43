"""Which words of a text are its verbs: a predicate per clause, read from surface form alone
(auxiliaries, copulas, pronouns, determiners, the -s of a third-person verb), and the small
word classes that reading rests on.

Split from ``wording``: the order rules there (one word swapped, names in other roles) and the
rules of ``turned``, ``blocks``, ``slots`` and ``anchors`` all ask "is this word the verb?", and
the answer is one concern of its own, tested on its own (``tests/test_twentieth_set.py``).
"""

from __future__ import annotations

from functools import lru_cache

from memory_mcp.services.facets import Facets, opens_order
from memory_mcp.services.lexicon import COMMON_VERBS, NEGATIONS
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, stem

#: Auxiliaries and copulas: the predicate follows them.
AUX = frozenset("""is are was were be been being am has have had will would can could must
should shall may might does do did""".split())  # noqa: SIM905
COPULAS = frozenset("is are was were be been being am".split())  # noqa: SIM905
PRONOUNS = frozenset("i we you they he she it everyone everybody nobody someone".split())  # noqa: SIM905
#: A word after a copula followed by one of these is a predicate ("based **in**", "valid
#: **for**", "allergic **to**"), not the value the copula names ("my manager is carol").
PREPOSITIONS = frozenset("""in on at for to with from by of within about after before during
into over under until through via per across""".split())  # noqa: SIM905
#: Before a word after a copula they make it a noun the copula names ("Nina is **the**
#: approver for budgets" / "… **the** reviewer for budgets": another role), not a predicate.
DETERMINERS = frozenset("the a an my our your their his her its this that".split())  # noqa: SIM905
#: Bounds, which ``numerals.bounds`` compares ("**max** three attempts" / "up to 3 times"):
#: "max" and "min" only before a number; elsewhere a word ("approved by **Max**").
BOUND_WORDS = frozenset(["max", "min", "maximum", "minimum"])


#: Words that start another clause, with a predicate of its own ("... and **approves** ...").
#: Words past which a text is the long-text rules' (``wording.is_long``): the rules that
#: compare pairs of words or slots read only shorter texts (two long near copies cost seconds).
SLOT_TOKENS = 400
CLAUSE_BREAKS = frozenset("and but so while because which who then".split())  # noqa: SIM905


@lru_cache(maxsize=4096)
def predicates(f: Facets) -> frozenset[int]:
    """Token positions of a text's verbs or predicate words, one per clause, as far as surface
    form tells (see ``_predicate``). Clauses start at ``CLAUSE_BREAKS``."""
    toks, out, start = f.tokens, set(), 0
    for end in [*(i for i, t in enumerate(toks) if t in CLAUSE_BREAKS and not _counts(toks, i)),
                len(toks)]:
        found = _predicate(toks, start, end, first=start == 0, names=f.names)
        if found is not None:
            out.add(found)
        start = end + 1
    return frozenset(out)


def _counts(toks: tuple[str, ...], i: int) -> bool:
    """Whether the break at ``i`` joins two ordinals ("the 4th **and** 5th pulleys"): a list,
    not a clause (unlike "runs LabelPro 7.3 **and** 8.0 is only on the test PC")."""
    return 0 < i < len(toks) - 1 and all(
        t.endswith(_ORDINAL_ENDS) and t[:1].isdigit() for t in (toks[i - 1], toks[i + 1]))


_ORDINAL_ENDS = ("st", "nd", "rd", "th")


def led_predicates(f: Facets, other: Facets) -> frozenset[int]:
    """``predicates(f)``, where ``f`` opens with the word ``other`` uses as its verb: an
    instruction whose object has no article ("**Reorder** dried chamomile from …" / "we
    **reorder** dried calendula from …"), which surface form alone reads as a subject."""
    own = predicates(f)
    if not f.tokens or 0 in own or not any(
            stem(other.tokens[p]) == stem(f.tokens[0]) and p and other.tokens[p - 1] in PRONOUNS
            for p in predicates(other)):  # a verb after "we", not a noun read as one
        return own
    first_end = next((i for i, t in enumerate(f.tokens) if t in CLAUSE_BREAKS), len(f.tokens))
    return frozenset({0} | {p for p in own if p >= first_end})


def _predicate(toks: tuple[str, ...], start: int, end: int, *, first: bool,
               names: frozenset[str] = frozenset()) -> int | None:
    """The predicate of the clause ``toks[start:end]``: the first content word after its
    auxiliaries ("must be **written**", "does not have **access**"); after a plain copula only
    a participle or a word taking a preposition ("is **based** in", "are **valid** for"), since
    "my manager is carol" names a value, and no word after a determiner ("is the approver
    for" names a role); with no auxiliary, after a pronoun the first content
    word ("We **drink** tea"), in a text's first clause the first content word after the
    subject's first that reads as a verb (ends in -s, or is followed by a function word: "Logs
    **go** to", "The design review **happens** on"), in a later clause its first content word
    if it ends in -s ("... and **approves** my requests")."""
    content = [i for i in range(start, end) if content_word(toks[i])]
    # an infinitive's "be" is no auxiliary of the clause ("Mei **likes** meetings **to be**
    # after lunch")
    aux = next((i for i in range(start, end)
                if toks[i] in AUX and not (i > start and toks[i - 1] == "to")), None)
    if first and start + 1 < end and toks[start] in _ORDER_OPENERS and content \
            and content[0] == start + 1:
        return start + 1  # "**Never put** opals in the ultrasonic cleaner"
    if first and start + 1 < end and toks[start] not in names and content and content[0] == start \
            and opens_order(toks):
        return start  # an instruction: "**Empty** the chaff collector …", "**Turn** off the
        # kiln before the lid is opened" (not "Grade A")
    if aux is None:
        light = next((i for i in range(start + 1, end) if toks[i] in _GETS
                      and content_word(toks[i - 1])
                      and i + 1 < end and number(toks[i + 1]) is not None), None)
        # "gets **4** kg": an amount follows (not "**gets delivered**", a passive's auxiliary)
        if first and light is not None and not any(verb_s(toks[i]) for i in content
                                                   if start < i < light):
            return light  # "Silver Comet **gets** 4 kg of oats": "get" is a stop word
        if start < end and toks[start] in PRONOUNS:
            return content[0] if content else None
        if not first:
            if content and content[0] > start and toks[content[0] - 1] in _NOUN_STARTS:
                return None  # "…, and **the sales** team checks": a noun after its
                # determiner, though it ends in -s
            return content[0] if content and verb_s(toks[content[0]]) else None
        for i in content[1:]:
            if toks[i] in names and i > start:
                continue  # "Keller **Blades** sharpens", "Atlas Van **Lines** ships": a name
            after = toks[i + 1] if i + 1 < end else None
            if _after_count(toks, i) or _names_group(toks, i, end):
                continue  # "max 12 **bicycles** on the lower deck", "all **claims**": a noun
            if (after in _GETS or after in _PLAIN_VERBS) and verb_s(toks[i]):
                return i + 1  # "kiln posts **get** a coat of wash", "signed proof copies
                # **go** in covers": a plural subject, then its verb
            if verb_s(toks[i]) and after is not None and content_word(after) \
                    and not after.endswith("s") and toks[i + 2:i + 3] \
                    and toks[i + 2] in DETERMINERS and toks[i + 2] != "that":
                return i + 1  # "Boat dives **leave** the harbour": a plural, then its verb
            if verb_s(toks[i]) or (after is not None and not content_word(after)
                                    and not _noun_like(toks[i])):
                return i
        return None
    if toks[aux] in _DO and aux + 1 < end and toks[aux + 1] in _QUANTIFIED:
        return aux  # "Dr. Patel **does** all clear aligner consultations": the verb itself
    j = aux
    while j < end and (toks[j] in AUX or toks[j] in NEGATIONS):
        j += 1
    nxt = next((i for i in content if i >= j), None)
    if nxt is None:
        return None
    if toks[j - 1] in COPULAS:
        after = toks[nxt + 1] if nxt + 1 < end else ""
        if not (toks[nxt].endswith(("ed", "en")) or after in PREPOSITIONS) \
                or any(t in DETERMINERS for t in toks[j:nxt]):
            return None  # "is **the** approver for": a role the copula names, not a predicate
    return nxt


#: Endings of nouns, not verbs: "Confined space **entry** on unit 400 needs …" names the
#: subject before its "on", where "Logs **go** to Datadog" has the verb there.
_NOUN_ENDINGS = ("tion", "sion", "ment", "ance", "ence", "ity", "ness", "ship", "ntry", "stry")


def _noun_like(word: str) -> bool:
    return len(word) > 5 and word.endswith(_NOUN_ENDINGS)


#: Words a verb never directly follows: a count or a determiner starts a noun phrase.
_NOUN_STARTS = (DETERMINERS - {"that"}) | frozenset(
    "all each every some many few several both any no".split())  # noqa: SIM905


#: "Do" as the verb itself, before a quantified noun phrase ("**does all** consultations");
#: before "the" it stays an auxiliary's reading, which rewordings rely on.
_DO = frozenset(["do", "does", "did"])
_QUANTIFIED = frozenset(["all", "every", "each", "most", "both"])
#: "Get" as a clause's verb ("Silver Comet **gets** 4 kg of oats"), a stop word everywhere else.
_GETS = frozenset(["get", "gets", "got"])
#: Verbs that are no noun: after a plural they are its verb, never a compound's head.
_PLAIN_VERBS = frozenset(["go", "come", "sit", "arrive", "leave", "remain", "wait"])
#: Words an instruction may open with, before its verb.
_ORDER_OPENERS = frozenset(["never", "always", "don't", "please"])
#: Counts a plural noun follows: "all new patients", never "all new carries".
_PLURAL_STARTS = frozenset("all some many few several both most".split())  # noqa: SIM905


def _after_count(toks: tuple[str, ...], i: int) -> bool:
    """``toks[i]`` follows a determiner or a count ("max **12** bicycles"), not a numbered
    name ("Unit 12 **covers** the old town")."""
    prev = toks[i - 1]
    if prev in _NOUN_STARTS or (i >= 2 and toks[i - 2] in _PLURAL_STARTS
                                and content_word(prev) and not verb_s(prev)):
        return True  # "all new **patients** get" (but "each van **carries**": a verb)
    return number(prev) is not None and (i < 2 or toks[i - 2] in BOUND_WORDS
                                         or not content_word(toks[i - 2]))


_GROUPS = frozenset("team teams crew crews desk department unit group squad office".split())  # noqa: SIM905


def _names_group(toks: tuple[str, ...], i: int, end: int) -> bool:
    """"the Denver **claims** team handles …": a word before a group's noun that a verb
    follows names the group."""
    return i + 2 < end and toks[i + 1] in _GROUPS and (toks[i + 2] in AUX
                                                        or verb_s(toks[i + 2]))


def verb_s(word: str) -> bool:
    """Reads as a third-person verb ("approves", "runs"; not "access", "tinnitus", "status",
    "analysis", "logistics", "various")."""
    return word.endswith("s") and not word.endswith(("ss", "us", "is", "ics"))


def gerund(toks: tuple[str, ...], i: int) -> bool:
    """"**restricting** learners to the treble until …", "Brennan **delivering** dumpers free
    …": a request that names its fact as an -ing clause (what is left of "Forget the note
    about …"), whose -ing word is the verb the stored text states another way, not a
    modifier of the noun after it. Only with no auxiliary in that clause: "**Parking** permits
    are issued at reception" keeps its modifier."""
    word = toks[i]
    if not (word.endswith("ing") and len(word) > 5):
        return False
    end = next((k for k in range(i, len(toks)) if toks[k] in CLAUSE_BREAKS), len(toks))
    return not any(t in AUX for t in toks[:end])


def verb_like(toks: tuple[str, ...], i: int) -> bool:
    """A word that may be a verb rather than a modifier: after a pronoun ("we **keep** raw
    data"), a third-person form ("the team **checks** customer returns"), or a common verb
    after a plural that starts the text ("Authors **receive** royalty statements"; not
    "Payments **risk** team"). An instruction's first word ("**Keep** galley logs …") is not
    read as a verb: "**Store** managers approve refunds" / "Managers approve refunds" has the
    same form, and that pair is two facts (the safe side)."""
    word = toks[i]
    return any(t in PRONOUNS for t in toks[max(0, i - 2):i]) or (
        word.endswith("s") and not word.endswith("ss")) or (
        i == 1 and toks[0].endswith("s") and not toks[0].endswith("ss")
        and word in COMMON_VERBS)


def graded(word: str) -> bool:
    """A measure or grade written as one word before a noun: "the **5-octave** Adams concert
    marimba", "with **1200-grit** wet-and-dry paper" (the 273rd and 272nd sets)."""
    return "-" in word and word[:1].isdigit() and word.split("-")[-1].isalpha()

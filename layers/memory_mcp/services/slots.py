"""What fills one place of the same sentence: how many ("**all** core maintainers" / "**two**
core maintainers", "**Most** issues …" / "Issues …"), how often ("purged **every night**" /
"purged **every Sunday**") and which role ("Marta is **the art director** for" / "… **the lead
level designer** for").

Found by a third forget set written apart from the rules (bench/data/forget_probe.json): each
was forgotten in place of the stored fact. The other rules compare what a text contains (a
number, a weekday, a name); these compare two texts' words in the same place, where the
difference is a word the other rules have no facet for (a quantifier, a frequency against a
weekday, a role of several words).
"""

from __future__ import annotations

from itertools import pairwise

from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import (
    MONTHS,
    NUMBER_WORDS,
    RANKS,
    ROLE_NOUNS,
    ROLE_SYNONYMS,
    UNIT_DAYS,
    WEEKDAYS,
)
from memory_mcp.services.numerals import number
from memory_mcp.services.opposites import EVERY_COUNTS
from memory_mcp.services.stems import content_word, singular_weekday, stem
from memory_mcp.services.values import show_number
from memory_mcp.services.wording import COPULAS, DETERMINERS, PREPOSITIONS, predicates

#: Words that say how many of a thing. "All" and "every" say what a bare plural says
#: ("Issues with no reply are closed"), so only the others conflict with none.
QUANTIFIERS = frozenset("all every each some most many few several both any".split())  # noqa: SIM905
#: "All", "every", "each", "any" of things: a whole set, against which a narrower one is another
#: fact (``scope``, ``conditions.narrowed``).
UNIVERSALS = frozenset(["all", "every", "each", "any"])
#: Words after "every" / "each" that make a daily or hourly schedule.
_DAILY_AFTER = frozenset(["day", "night", "morning", "evening", "afternoon", "hour", "weekday"])
_DAILY = frozenset(["daily", "nightly", "hourly"])
_LONGER = frozenset(["week", "weekend", "fortnight", "month", "quarter", "year", "season"])
_LONGER_WORDS = frozenset(["weekly", "fortnightly", "biweekly", "monthly", "quarterly", "yearly",
                           "annually"])


#: Words a condition starts with, after which "any" and "every" differ.
_WHEN = frozenset(["when", "whenever", "if", "once", "until", "unless", "as"])


def _amount(word: str) -> bool:
    return word in QUANTIFIERS or word in NUMBER_WORDS or word[:1].isdigit()


def quantity(a: Facets, b: Facets) -> tuple[str, str] | None:
    """Another quantity before the same words, after the same words: "approval from **all**
    core maintainers" / "… from **two** core maintainers"; or a quantifier where the other
    text has none ("**Most** issues … are closed" / "Issues … are closed"). Two numbers are
    the numbers rule's. Linear in the texts (a long text is read once into its contexts)."""
    for x, y, flip in ((a.tokens, b.tokens, False), (b.tokens, a.tokens, True)):
        amounts, plain = _contexts(y)
        loose = _loose(y)
        for i, word in enumerate(x[:-1]):
            after = x[_after(x, i)] if _amount(word) else ""
            if not content_word(after):
                continue
            key = (x[i - 1] if i else "", stem(after))
            if key not in amounts and word not in UNIVERSALS and word in QUANTIFIERS:
                # "**most** client invoices" / "**All** client invoices": the same words after,
                # a sentence begun elsewhere
                key = next(((before, st) for (before, st) in loose.get(
                    (stem(after), _next_stem(x, i + 2)), ())), key)
            if word in amounts.get(key, ()):
                continue  # the other text says it there too (a text never conflicts with itself)
            for other in sorted(amounts.get(key, ())):
                if other == word or (other in UNIVERSALS and word in UNIVERSALS and not (
                        key[0] in _WHEN and "any" in (word, other))) \
                        or (_is_number(word) and _is_number(other)):
                    continue  # "every month" / "each month": one quantity; but "when **any**
                    # coil drops" is not "when **every** coil drops"
                return (other, word) if flip else (word, other)
            if word in QUANTIFIERS and word not in UNIVERSALS and key in plain:
                return ("(none)", word) if flip else (word, "(none)")
    return None


#: Adverbs that make a rule hold for part of the cases ("**mostly** handled by Ines"): a text
#: with one says less than a text without ("handled only by Ines").
HEDGES = frozenset("""mostly mainly largely primarily partly partially usually typically
normally often frequently commonly predominantly chiefly sometimes occasionally rarely
seldom""".split())  # noqa: SIM905
_PARTS = frozenset("""some most many few several portion majority minority subset
handful sample samples fraction""".split())  # noqa: SIM905


#: Hedges written in several words ("**from time to time**" is "sometimes").
_HEDGE_PHRASES = (("time", "to", "time"), ("once", "in", "a", "while"), ("now", "and", "then"),
                  ("every", "so", "often"))


def _hedge(toks: tuple[str, ...]) -> str | None:
    """The text's first hedge ("as often as needed" is none: a comparison, not a part)."""
    for i, t in enumerate(toks):
        if t in HEDGES and not (t == "often" and i and toks[i - 1] in ("as", "how", "so")):
            return t
        for phrase in _HEDGE_PHRASES:
            if toks[i:i + len(phrase)] == phrase:
                return " ".join(phrase)
    return None


def partial(a: Facets, b: Facets) -> tuple[str, str] | None:
    """A part where the other text states the whole: "**only some of** the underground crew
    check in" / "Underground crew must check in", "**mostly** handled by Ines" / "handled only
    by Ines". (``quantity`` reads a quantifier right before a noun; "some **of the** crew"
    puts words between.)"""
    for x, y, flip in ((a, b, False), (b, a, True)):
        hedge = _hedge(x.tokens)
        if hedge is not None and _hedge(y.tokens) is None \
                and not any(t in _PARTS for t in y.tokens):
            # "usually held at 9am" / "held at 9am on **most** days": a part said another way
            return ("(none)", hedge) if flip else (hedge, "(none)")
        toks = x.tokens
        if any(w in _PARTS for w in y.tokens):
            continue
        if "only" in y.tokens and "only" not in toks:  # "one of **several** branches" /
            # "made **only** at the Harbour Road branch"
            part = next((f"{t} {toks[i + 1]}" for i, t in enumerate(toks[:-1])
                         if t in _PARTS and content_word(toks[i + 1])), None)
            if part is not None:
                return ("only", part) if flip else (part, "only")
        bare = {stem(w) for k, w in enumerate(y.tokens) if not (k and _amount(y.tokens[k - 1]))
                or y.tokens[k - 1] in UNIVERSALS}  # "**a sample of** casings" / "**every** casing"
        for i, t in enumerate(toks[:-2]):
            if t not in _PARTS or toks[i + 1] != "of":
                continue
            j = i + 2 + (toks[i + 2] in DETERMINERS)
            if j < len(toks) and content_word(toks[j]) and stem(toks[j]) in bare:
                found = " ".join(toks[i:j + 1])
                return ("(none)", found) if flip else (found, "(none)")
    return None


def _contexts(tokens: tuple[str, ...]
              ) -> tuple[dict[tuple[str, str], set[str]], set[tuple[str, str]]]:
    """(word before, stem of the word after) → the amounts a text puts between them; and the
    (word before, stem) pairs it writes with no amount between."""
    amounts: dict[tuple[str, str], set[str]] = {}
    plain: set[tuple[str, str]] = set()
    for j, word in enumerate(tokens):
        prev = tokens[j - 1] if j else ""
        if _amount(prev):
            amounts.setdefault((tokens[j - 2] if j > 1 else "", stem(word)), set()).add(prev)
        else:
            plain.add((prev, stem(word)))
        if _amount(word) and j + 1 < len(tokens) and tokens[j + 1] == "of":
            after = _after(tokens, j)  # "**most of the** sandwiches": most sandwiches
            if after < len(tokens):
                amounts.setdefault((prev, stem(tokens[after])), set()).add(word)
    return amounts, plain


def _after(tokens: tuple[str, ...], i: int) -> int:
    """Where the things of the amount at ``i`` start: after "of" and a determiner ("most **of
    the** sandwiches"); at the next word otherwise. Past the end when none follows."""
    j = i + 1
    if j < len(tokens) and tokens[j] == "of":
        j += 1
        if j < len(tokens) and tokens[j] in DETERMINERS:
            j += 1
    return j if j < len(tokens) else len(tokens) - 1


def _next_stem(tokens: tuple[str, ...], j: int) -> str:
    return stem(tokens[j]) if j < len(tokens) else ""


def _loose(tokens: tuple[str, ...]) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(stem of the word after an amount, stem of the one after it) → the ``_contexts`` keys
    of that amount: the same quantity found without the word before it."""
    out: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for j, word in enumerate(tokens[1:], 1):
        if _amount(tokens[j - 1]):
            out.setdefault((stem(word), _next_stem(tokens, j + 1)), []).append(
                (tokens[j - 2] if j > 1 else "", stem(word)))
    return out


def _is_number(word: str) -> bool:
    return word in NUMBER_WORDS or word[:1].isdigit()


def _daily(f: Facets) -> str | None:
    for i, t in enumerate(f.tokens):
        if t in _DAILY:
            return t
        if t in ("every", "each") and i + 1 < len(f.tokens) and f.tokens[i + 1] in _DAILY_AFTER:
            return f"{t} {f.tokens[i + 1]}"
    return None


_PLURAL_PARTS = (("mornings",), ("afternoons",), ("evenings",), ("nights",))


def _every_other(f: Facets) -> bool | None:
    """True for "every other <day or unit>" (or "every second", "fortnightly"), False for a
    plain "every <day or unit>" or a weekday in the plural ("on Wednesdays", "Wednesday
    mornings"), None for neither."""
    toks = f.tokens
    found = None
    for i, t in enumerate(toks):
        if t in ("fortnightly", "biweekly", "bi-weekly"):
            return True
        if singular_weekday(t) in WEEKDAYS and (singular_weekday(t) != t or toks[
                i + 1:i + 2] in _PLURAL_PARTS):  # "on Wednesdays", "Wednesday mornings"
            found = False
        if t != "every" or i + 1 == len(toks):
            continue
        nxt = toks[i + 1]
        after = toks[i + 2] if i + 2 < len(toks) else ""
        if nxt in ("other", "second") and (singular_weekday(after) in WEEKDAYS
                                           or after in UNIT_DAYS or after in MONTHS):
            return True  # not "unlike every other street"
        if singular_weekday(nxt) in WEEKDAYS or nxt in UNIT_DAYS or nxt in MONTHS:
            found = False
    return found


def schedule(a: Facets, b: Facets) -> tuple[str, str] | None:
    """A daily or hourly schedule against named weekdays ("purged **every night**" / "purged
    **every Sunday**"): the times rule compares parts of the day with each other and the
    weekday rule weekdays, so neither saw the two as different."""
    oa, ob = _every_other(a), _every_other(b)
    if oa is not None and ob is not None and oa != ob:  # "every other Sunday" / "every Sunday"
        return ("every other" if oa else "every", "every other" if ob else "every")
    da, db = _daily(a), _daily(b)
    if da and not db and b.weekdays and not a.weekdays:
        return da, ", ".join(sorted(b.weekdays))
    if db and not da and a.weekdays and not b.weekdays:
        return ", ".join(sorted(a.weekdays)), db
    na, nb = _nth_weekday(a), _nth_weekday(b)  # "the **first** Monday of every month" /
    # "every Monday": monthly, not weekly
    if bool(na) != bool(nb) and a.weekdays & b.weekdays:
        return (na or "every " + ", ".join(sorted(a.weekdays)),
                nb or "every " + ", ".join(sorted(b.weekdays)))
    pa, pb = _longer_period(a), _longer_period(b)  # "cleaned **every night**" / "**every week**"
    if da and not db and pb and not pa:
        return da, pb
    if db and not da and pa and not pb:
        return pa, db
    ea, eb = _per_event(a), _per_event(b)  # "refilled **after each flight day**" / "refilled
    # **once a week**": on an event, or by the calendar
    if ea and not eb and _by_calendar(b) and not _by_calendar(a):
        return ea, "by the calendar"
    if eb and not ea and _by_calendar(a) and not _by_calendar(b):
        return "by the calendar", eb
    return None


def _per_event(f: Facets) -> str | None:
    """"after each flight day", "before every public session": a schedule set by events."""
    toks = f.tokens
    for i in range(len(toks) - 2):
        if toks[i] in ("after", "before") and toks[i + 1] in ("each", "every") \
                and content_word(toks[i + 2]) and toks[i + 2] not in EVERY_COUNTS:
            return " ".join(toks[i:i + 3])
    return None


def _by_calendar(f: Facets) -> bool:
    """A period or a day says when: "once a week", "weekly", "on Mondays"."""
    return bool(f.durations or f.weekdays or f.times or f.months)


_NTH = frozenset("first second third fourth last 1st 2nd 3rd 4th final".split())  # noqa: SIM905


def _nth_weekday(f: Facets) -> str | None:
    """"first Monday", "last Friday": one weekday of each month, not every one."""
    toks = f.tokens
    return next((f"{t} {toks[i + 1]}" for i, t in enumerate(toks[:-1])
                 if t in _NTH and singular_weekday(toks[i + 1]) in WEEKDAYS
                 and not (t in ("second", "2nd") and i and toks[i - 1] in ("every", "each"))
                 # "every second Friday" is every other one; "the first Monday **after each
                 # release**" is no monthly day
                 and any(w in ("month", "months", "quarter", "monthly") for w in
                         toks[max(0, i - 5):i + 7])), None)


def _longer_period(f: Facets) -> str | None:
    """"every week", "each month": a period longer than a day (a schedule the daily one is not)."""
    toks = f.tokens
    for i, t in enumerate(toks):
        if t in _LONGER_WORDS:
            return t  # "archived **monthly**"
        if t not in ("every", "each"):
            continue
        nxt = [w for w in toks[i + 1:i + 3] if w not in ("other", "second", "few") and not
               w[:1].isdigit() and w not in NUMBER_WORDS][:1]  # "every **other** week"
        if nxt and (nxt[0] in _LONGER or nxt[0].removesuffix("s") in _LONGER):
            return f"{t} {' '.join(toks[i + 1:toks.index(nxt[0], i + 1) + 1])}"
    return None


def _role(f: Facets) -> tuple[frozenset[str], frozenset[str]] | None:
    """(the subject's stems, the role's stems) of "<subject> is the <role> for|of|on …"."""
    toks = f.tokens
    for i, t in enumerate(toks[:-2]):
        if t in COPULAS and toks[i + 1] in DETERMINERS:
            role: list[str] = []
            for w in toks[i + 2:]:
                if w in PREPOSITIONS or w in ("and", "but", "who", "which", ","):
                    break
                if content_word(w):
                    role.append(stem(w))
            subject = frozenset(stem(w) for w in toks[:i] if content_word(w))
            return (subject, frozenset(role)) if role and subject else None
    return None


def role(a: Facets, b: Facets) -> tuple[str, str] | None:
    """The same subject named as another role, no word in common ("Marta is the **art
    director** for the desert map" / "… the **lead level designer** for …"). One word
    swapped is the swapped-word rule's; this one reads roles of several words."""
    ra, rb = _role(a), _role(b)
    if ra is None or rb is None or ra[0] != rb[0] or ra[1] & rb[1]:
        return None
    if any(w in WEEKDAYS for w in ra[1] | rb[1]):
        return None
    return " ".join(sorted(ra[1])), " ".join(sorted(rb[1]))


def _universal_at(f: Facets) -> list[tuple[int, tuple[str, str]]]:
    """``_universals`` with each one's token position."""
    toks, out = f.tokens, []
    for i, t in enumerate(toks[:-1]):
        if t not in UNIVERSALS and t != "both":
            continue
        j = i + 1  # "all **the** multi-state returns", "all **of our** kilns": the things after
        while j < min(i + 3, len(toks) - 1) and toks[j] in _BEFORE_THINGS:
            j += 1
        if content_word(toks[j]) and toks[j] not in EVERY_COUNTS and not toks[j][:1].isdigit():
            out.append((i, (t, stem(toks[j]))))
    return out


#: Words between a universal and its things: "all **the** returns", "both **of our** sites".
_BEFORE_THINGS = frozenset(["the", "of", "our", "your", "their", "its", "these", "those"])


def _universals(f: Facets) -> list[tuple[str, str]]:
    """The text's "all", "every", "each", "any" or "both" of things (not "every night", "every 3
    days": a schedule), each with the stem of the thing."""
    return [found for _, found in _universal_at(f)]


def scope(a: Facets, b: Facets, only_a: list[str], only_b: list[str]
          ) -> tuple[str, str] | None:
    """One text says "all" or "every" of what the other narrows: by "only", or by a name or a
    number the first does not have ("disabled for **all** new users" / "… for new users in
    **the EU**", "**every** team has write access" / "**only** the platform team …").
    ``only_a`` / ``only_b``: each text's names the other lacks (``agreement``)."""
    for x, y, mine, flip in ((a, b, only_b, False), (b, a, only_a, True)):
        things_y = {stem(t) for i, (w, _) in _universal_at(y) for t in y.tokens[i + 1:i + 4]}
        # "every client must sign …" / "clients under 25 must sign … before **any** work
        # starts": a universal of other things in the narrower text leaves it narrower
        word = next((w for w, thing in _universals(x) if thing not in things_y), None)
        if word is None:
            continue
        placed = [n for n in mine if not _continues(y, n, x)]
        narrow = "only" if "only" in y.tokens and "only" not in x.tokens else (
            placed[0] if placed else None)
        extra = y.numbers - x.numbers - ({2.0} if word == "both" else set())
        if narrow is None and extra:  # ("**both** kitchens" / "the **two** kitchens": one set)
            narrow = next((t for t in y.tokens if t[:1].isdigit() or t in NUMBER_WORDS),
                          show_number(min(extra)))  # a time in words: "at midnight"
        narrow = narrow or _modified(x, y)
        if narrow is not None:
            return (narrow, word) if flip else (word, narrow)
    return None


def _modified(x: Facets, y: Facets) -> str | None:
    """The word ``y`` puts before the things ``x`` says "all" of, which ``x`` lacks ("meter
    readings for **all** customers" / "… for **residential** customers", "**all** books" /
    "**children's** books")."""
    toks, verbs_x, verbs_y = x.tokens, predicates(x), predicates(y)
    for start in (i + 1 for i, t in enumerate(toks) if t in UNIVERSALS or t == "both"):
        # "checks **all** fire exits before **every** event": each
        end = start
        while end < min(start + 4, len(toks)) and content_word(toks[end]) and end not in verbs_x:
            end += 1  # "all employees **receive**": the verb ends the things
        if end == start:
            continue
        heads = {stem(toks[k]) for k in range(start, end)}  # "all **clients**, residential
        # included": the tokens lost the comma that ended the things
        for i, t in enumerate(y.tokens[1:], 1):
            prev = y.tokens[i - 1]
            if stem(t) in heads and content_word(prev) and stem(prev) not in x.stems \
                    and prev not in DETERMINERS and number(prev) is None and i - 1 not in verbs_y:
                return prev  # not a verb before them ("Finance **settles** invoices")
    return None


def _continues(f: Facets, name: str, other: Facets) -> bool:
    """"CrowdStrike **Falcon**": a name right after a name the other text has names that thing
    further, and narrows nothing; any other name the universal text lacks narrows its things
    ("new users in **the EU**", "**Adult** members", "customers of **Acme Plus**")."""
    toks = f.tokens
    return any(t == name and i > 0 and toks[i - 1] in other.names and toks[i - 1] in f.names
               for i, t in enumerate(toks))


def role_noun(a: Facets, b: Facets) -> tuple[str, str] | None:
    """Each text names a job the other does not ("reviewed by a **senior associate**" / "a
    **partner** has to review"): two people, two facts. One role against none is left to the
    other rules (a rewording may drop it)."""
    ra, rb = _role_nouns(a), _role_nouns(b)
    only_a = sorted(ra.keys() - rb.keys())
    only_b = sorted(rb.keys() - ra.keys())
    if only_a and only_b:
        return ra[only_a[0]], rb[only_b[0]]
    return None


def rank(a: Facets, b: Facets) -> tuple[str, str] | None:
    """A rank before a word both texts have, in one text only ("the **deputy** harbour master"
    / "the harbour master", "the **associate** director" / "the director"): another job."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        # "vice-chair" as "vice chair": a hyphenated rank is two words
        words = [p for t in x.tokens for p in (t.split("-") if "-" in t else (t,)) if p]
        for t, nxt in pairwise(words):
            if t in RANKS and stem(t) not in y.stems and content_word(nxt) \
                    and stem(nxt) in y.stems:
                return (nxt, f"{t} {nxt}") if flip else (f"{t} {nxt}", nxt)
    return None


def _role_nouns(f: Facets) -> dict[str, str]:
    """Singular role noun → the word as written ("partners" → "partner")."""
    out: dict[str, str] = {}
    for i, t in enumerate(f.tokens):
        if t in ("lead", "leads"):  # "the **lead**", "support **lead**"; "Omar **leads**" a verb
            prev = f.tokens[i - 1] if i else ""
            if prev in DETERMINERS or (content_word(prev) and prev not in f.names):
                out.setdefault("lead", t)
            continue
        single = "foreman" if t == "foremen" else t.removesuffix("s")
        job = ROLE_SYNONYMS.get(t) or ROLE_SYNONYMS.get(single) or (
            t if t in ROLE_NOUNS else single if single in ROLE_NOUNS else None)
        if job is not None:
            out.setdefault(job, t)
    return out


#: Words that take part of the things: "**most** Oakridge district jobs".
_PART = frozenset("most some many few several".split())  # noqa: SIM905
#: Words that would say the part another way ("the majority of", "a few of").
_PART_SAID = _PART | frozenset("majority minority portion share part half".split())  # noqa: SIM905


def part_of_bare(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("most", "(none)") where one text takes part of things ("**most** Oakridge district
    jobs can only be booked …") that the other names with no quantity anywhere ("Jobs in the
    Oakridge district are booked only …"), wherever each puts the words around them."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        if any(t in _PART_SAID or t in UNIVERSALS for t in y.tokens):
            continue
        toks = x.tokens
        for i, word in enumerate(toks[:-1]):
            if word in _PART and content_word(toks[i + 1]) and any(
                    stem(t) in y.stems for t in toks[i + 1:i + 4] if content_word(t)):
                return ("(none)", word) if flip else (word, "(none)")
    return None

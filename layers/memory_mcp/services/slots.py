"""How many fill one place of the same sentence: "approval from **all** core maintainers" /
"… from **two** core maintainers", "**Most** issues …" / "Issues …", "**every** team" / "only
the platform team". How often is ``schedules``'s, which job ``jobs``'s and how much of a
whole ``parts``'s (each split from here).

Found by a third forget set written apart from the rules (bench/data/forget_probe.json): each
was forgotten in place of the stored fact. The other rules compare what a text contains (a
number, a weekday, a name); these compare two texts' words in the same place, where the
difference is a word the other rules have no facet for (a quantifier, a frequency against a
weekday, a role of several words).
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, predicates
from memory_mcp.services.lexicon import NUMBER_WORDS
from memory_mcp.services.numerals import number
from memory_mcp.services.opposite_forms import EVERY_COUNTS
from memory_mcp.services.stems import agreed, content_word, stem
from memory_mcp.services.values import show_number

#: Words that say how many of a thing. "All" and "every" say what a bare plural says
#: ("Issues with no reply are closed"), so only the others conflict with none.
QUANTIFIERS = frozenset("all every each some most many few several both any".split())  # noqa: SIM905
#: "All", "every", "each", "any" of things: a whole set, against which a narrower one is another
#: fact (``scope``, ``narrowed.narrowed``).
UNIVERSALS = frozenset(["all", "every", "each", "any"])
#: Words a condition starts with, after which "any" and "every" differ.
_WHEN = frozenset(["when", "whenever", "if", "once", "until", "unless", "as"])
#: How far before the quantifier such a word may stand ("if CO2 **in any** crate room").
_WHEN_REACH = 4


def _amount(word: str) -> bool:
    return word in QUANTIFIERS or word in NUMBER_WORDS or word[:1].isdigit()


def quantity(a: Facets, b: Facets) -> tuple[str, str] | None:
    """Another quantity before the same words, after the same words: "approval from **all**
    core maintainers" / "… from **two** core maintainers"; or a quantifier where the other
    text has none ("**Most** issues … are closed" / "Issues … are closed"). Two numbers are
    the numbers rule's. Linear in the texts (a long text is read once into its contexts)."""
    for x, y, flip in ((a.tokens, b.tokens, False), (b.tokens, a.tokens, True)):
        amounts, plain = _contexts(y)
        least = _at_least_one(x, plain)
        if least is not None:
            return ("(none)", least) if flip else (least, "(none)")
        loose = _loose(y)
        for i, word in enumerate(x[:-1]):
            after = x[after_quantity(x, i)] if _amount(word) else ""
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
                        _WHEN & set(x[max(0, i - _WHEN_REACH):i]) and "any" in (word, other))) \
                        or (_is_number(word) and _is_number(other)):
                    continue  # "every month" / "each month": one quantity; but "when **any**
                    # coil drops" is not "when **every** coil drops", nor "if CO2 in any room"
                return (other, word) if flip else (word, other)
            if word in QUANTIFIERS and word not in UNIVERSALS and key in plain:
                return ("(none)", word) if flip else (word, "(none)")
    return None


def _at_least_one(x: tuple[str, ...], plain: set[tuple[str, str]]) -> str | None:
    """"at least one deckhand" where the other text says the things bare, after the same
    word ("Deckhands on Raven must …", the hundred-and-eleventh set): one of them, not all."""
    for i in range(2, len(x) - 1):
        if x[i - 2:i] == ("at", "least") and x[i] in ("one", "1") and content_word(x[i + 1]) \
                and (x[i - 3] if i > 2 else "", stem(x[i + 1])) in plain:
            return f"at least one {x[i + 1]}"
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
            if t == "half" and toks[i + 1] == "the" and (not i or toks[i - 1] != "and") \
                    and "half" not in y.tokens:
                j = i + 2  # "**half the** band stands facing south" / "the band stands …"
            elif t not in _PARTS or toks[i + 1] != "of":  # (the 320th set; not "two and a half")
                continue
            elif i and toks[i - 1] == "only" and toks[i + 2] in ("them", "these", "those"):
                found = " ".join(toks[i - 1:i + 3])  # "**only some of them** are hand-cut" /
                # "… blocks, which are hand-cut" (the 501st set)
                return ("(none)", found) if flip else (found, "(none)")
            else:
                j = i + 2 + (toks[i + 2] in DETERMINERS)
            if j + 1 < len(toks) and "-" in toks[j] and stem(toks[j]) not in bare:
                j += 1  # "a few of the back-straight **divots**" / "the divots on the back
                # straight" (the 501st set): the thing after a compound that says where
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
            after = after_quantity(tokens, j)  # "**most of the** sandwiches": most sandwiches
            if after < len(tokens):
                amounts.setdefault((prev, stem(tokens[after])), set()).add(word)
    return amounts, plain


def after_quantity(tokens: tuple[str, ...], i: int) -> int:
    """Where the things of the amount at ``i`` start: after "of" and a determiner ("most **of
    the** sandwiches"); at the next word otherwise. Past the end when none follows."""
    j = i + 1
    if j < len(tokens) and tokens[j] == "of":
        j += 1
        if j < len(tokens) and tokens[j] in DETERMINERS:
            j += 1
    return j if j < len(tokens) else len(tokens) - 1


def _next_stem(tokens: tuple[str, ...], j: int) -> str:
    """The stem of the word at ``j``, a verb's singular and plural as one ("most dogs **are**
    microchipped" / "every dog **is** microchipped")."""
    if j >= len(tokens):
        return ""
    return agreed(tokens[j])


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


def universals(f: Facets) -> list[tuple[str, str]]:
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
        word = next((w for w, thing in universals(x) if thing not in things_y), None)
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
        while start < len(toks) - 1 and toks[start] in _BEFORE_THINGS:
            start += 1  # "all **our** pools"
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

"""A request's subject narrowed where the stored one is bare: "**Repeat** orders over 500 copies
get a discount" / "Orders over 500 copies get a discount", "Groomers **at the Elm Street salon**
must check …" / "Groomers must check …", "**skippers of hire boats** must …" / "Skippers must
…". The narrower rule is another one (both hold at once), so a forget of it must not remove the
broader one.

Split from ``conditions``, which compares the condition an "only" or a clause puts on a fact;
these read a modifier or a placing phrase on the subject itself.
"""

from __future__ import annotations

from memory_mcp.services.conditions import BOUNDS, compared
from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import AUX, PRONOUNS, gerund, predicates, verb_like
from memory_mcp.services.lexicon import COMMON_VERBS, UNIT_DAYS
from memory_mcp.services.numerals import number
from memory_mcp.services.slots import UNIVERSALS
from memory_mcp.services.stems import content_word, stem, verb_stem
from memory_mcp.services.word_pool import parts_pool
from memory_mcp.services.wording import OWN_RULES, subject_end


def narrowed(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the request ``a`` puts a word before the noun its subject
    (or an "every …") names and the stored ``b`` names that noun bare: "**Repeat** orders over 500 copies
    get a discount" / "Orders over 500 copies get a discount", "before every **ticketed**
    event" / "before every event", "**Business meeting** interpreters are booked via Lyon" /
    "Interpreters for court hearings are booked …". The narrower one is another rule (both
    hold at once), so a forget of it must not remove the broader one."""
    return _narrowing(a, b) or _placed(a, b)  # the request narrower only: a rewording drops
    # a modifier far more often than it adds one ("the brewery taproom" / "the taproom")


_PLACING = frozenset("""at in from within inside for with containing carrying holding using
needing around near""".split())  # noqa: SIM905  # not "on": "deploys happen **on** Thursdays instead"
#: How far into a text a placing phrase may start and still narrow its subject ("Vehicle deck
#: loading **for freight lorries** stops …"): the subject's end as the word order shows it is
#: unreliable there ("loading" before "for" reads as the verb).
_SUBJECT_REACH = 4
#: Words after a placing preposition that name no place ("picks up milk **from us**").
_NO_PLACE = PRONOUNS | frozenset("us them me him her you it our their".split())  # noqa: SIM905


def _on_a_shift(toks: tuple[str, ...], k: int) -> bool:
    """"dealers **on the night shift**", "clients **on the premium plan**", "felts **on PM3**":
    an "on" that places its things in a group or on a named machine, where "deploys happen
    **on** Thursdays" gives a time."""
    return toks[k] == "on" and (any(t in _ON_GROUPS for t in toks[k + 1:k + 4]) or (
        k + 1 < len(toks) and any(c.isdigit() for c in toks[k + 1])
        and any(c.isalpha() for c in toks[k + 1])))  # "felts **on PM3**"


def _of_a_kind(toks: tuple[str, ...], k: int) -> bool:
    """"stability samples **of alcohol-based fragrances**": an "of" that narrows the things
    before it, not one after an amount ("fifteen days **of** holiday")."""
    return toks[k] == "of" and k >= 1 and toks[k - 1] not in UNIT_DAYS \
        and (k == 1 or number(toks[k - 2]) is None) and number(toks[k - 1]) is None \
        and (k + 1 >= len(toks) or number(toks[k + 1]) is None)  # "**skippers of hire boats**
    # must …" / "Skippers must …", the text's first word (the 368th set); not "corkage **of
    # twelve** pounds", an amount


_ON_GROUPS = frozenset(["shift", "shifts", "team", "crew", "ward", "floor", "line", "rota",
                        "plan", "plans", "tier", "contract", "programme", "program"])


def _placed(x: Facets, y: Facets) -> tuple[str, str] | None:
    """"Groomers **at the Elm Street salon** must check …" / "Groomers must check …": the
    request's subject placed where the stored text's is not. The phrase's first word (or it
    written together with the next: "the clean room" / "cleanroom") is nowhere in the stored
    text: "guest numbers **for destination** weddings" / "… before the wedding"."""
    tx = x.tokens
    limit = min([i for i, t in enumerate(tx) if t in AUX] + [_SUBJECT_REACH + 1, len(tx)])
    subject_y = {stem(t) for t in y.tokens[:max(subject_end(y), 1) + 2]}
    found = parts_pool(y)
    for k in range(1, limit):
        if (tx[k] not in _PLACING and not _on_a_shift(tx, k) and not _of_a_kind(tx, k)) \
                or not content_word(tx[k - 1]) or stem(tx[k - 1]) not in subject_y:
            continue
        if tx[k + 1:k + 2] and tx[k + 1] in _NO_PLACE:
            continue  # "picks up milk **from us**": no place
        words: list[str] = []
        for w in tx[k + 1:k + 6]:
            if w in AUX or w in COMMON_VERBS or w in UNIVERSALS or len(words) == 3:
                break
            if compared(w):
                words.append(w)
        if words and not found.has(words[0], 0.75) and not (
                len(words) > 1 and found.has(words[0] + words[1], 0.75)):
            return " ".join([tx[k - 1], tx[k], *words]), tx[k - 1]
    return None


def _narrowing(x: Facets, y: Facets) -> tuple[str, str] | None:
    tx, ty = x.tokens, y.tokens
    end_x, end_y, verbs_x = subject_end(x), subject_end(y), predicates(x)
    pool_y = parts_pool(y)
    for i in range(len(tx) - 1):
        mod, noun = tx[i], tx[i + 1]
        in_subject = i < end_x and i + 1 <= end_x  # the head may read as the verb ("Repeat
        # **orders** over 500 copies get …": a plural before a function word)
        after_every = i > 0 and tx[i - 1] in UNIVERSALS
        if not (in_subject or after_every) or not (content_word(mod) and content_word(noun)) \
                or i in verbs_x or stem(mod) in y.stems \
                or pool_y.has(mod, 0.75) or not mod.isalpha() or verb_like(tx, i) \
                or gerund(tx, i) \
                or _shortened(mod, noun, y) or (i == 0 and _instruction(mod, y)) \
                or mod in OWN_RULES or noun in OWN_RULES:  # "**prod** Nord Pool API key",
            # "working **hours**": the environment and time rules read those
            continue
        for j, t in enumerate(ty):
            if stem(t) != stem(noun):
                continue
            bare = j == 0 or not content_word(ty[j - 1]) or (
                i > 0 and stem(ty[j - 1]) == stem(tx[i - 1]) and mod not in BOUNDS
                and not verb_like(ty, j))  # "Payments **risk** team" / "Payments team":
            # the modifier put between the same words
            if bare and ((in_subject and j <= end_y) or (after_every and j and ty[j - 1] in
                                                         UNIVERSALS)):
                return f"{mod} {noun}", t
    return None


def _shortened(word: str, noun: str, other: Facets) -> bool:
    """"**requal** simulator sessions" / "simulator sessions for operator **requalification**":
    a clipped word of the other text, beside the same noun with no verb between, not a
    modifier it lacks ("**Temp** workers need a badge" / "Workers **need** a **temporary**
    badge" are two rules)."""
    if len(word) < 4:
        return False
    toks = other.tokens
    for j, t in enumerate(toks):
        if stem(t) != stem(noun):
            continue
        near = [*reversed(toks[max(0, j - 3):j]), None, *toks[j + 1:j + 5]]
        for side in (near[:near.index(None)], near[near.index(None) + 1:]):
            for w in side:
                if w is None or w in AUX or w in COMMON_VERBS:
                    break
                if w.startswith(word):
                    return True
    return False


def _instruction(word: str, other: Facets) -> bool:
    """"**Keep** galley temp logs in FoodSafe" / "Galley logs are **kept** in FoodSafe": the
    first word is the verb the other text states, not a modifier ("**Store** managers approve
    refunds" / "Managers approve refunds" has no "store" to find)."""
    return any(verb_stem(t) == verb_stem(word) for t in other.tokens)

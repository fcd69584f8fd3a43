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

from functools import lru_cache

from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import STOP_WORDS
from memory_mcp.services.negation import one_denied
from memory_mcp.services.opposite_forms import PARTICLES, PHRASAL, PHRASAL_STATES, SWITCHED, forms
from memory_mcp.services.opposite_words import EVENTS, STATES, turned_prefix
from memory_mcp.services.prefixed import bare_of
from memory_mcp.services.stems import split_as


@lru_cache(maxsize=1)
def _sides() -> dict[str, list[tuple[int, int, bool]]]:
    """Form → each (pair, side, is a state) it takes: "charged" is the other side of "free"
    and of "refunded"."""
    out: dict[str, list[tuple[int, int, bool]]] = {}
    index = 0
    for state, block in ((True, STATES), (False, EVENTS)):
        pairs = [p for p in block.replace("\n  ", " ").strip().splitlines() if p.strip()]
        for pair in pairs:
            for side, written in enumerate(pair.split("|")):
                for form in written.split():
                    out.setdefault(form, []).append((index, side, state))
            index += 1
    for verb in sorted(PHRASAL):
        for a, b in (("in", "out"), ("on", "off"), ("up", "down")):
            if f"{verb}_{a}" in out or f"{verb}_{b}" in out:
                continue  # the lexicon pairs it ("hand out" / "return")
            out[f"{verb}_{a}"] = [(index, 0, verb in PHRASAL_STATES)]
            out[f"{verb}_{b}"] = [(index, 1, verb in PHRASAL_STATES)]
            index += 1
    return out


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
    return _denied_side(a.tokens, b.tokens)


#: Words that rule out the side after them: "never after", "**rather than** beforehand".
_NEVER = frozenset(["never", "not", "than"])


def _denied_side(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, str, bool] | None:
    """A side one text holds plainly where the other holds it only after "never" / "not" and
    holds the other side plainly: "disconnected **only after** the panels are removed" /
    "disconnect **before** removing the panels, **never after**" (the 545th set)."""
    sides = _sides()
    for x, y, flip in ((a, b, False), (b, a, True)):
        plain_x, denied_y, plain_y = _plain(x, sides), _denied(y, sides), _plain(y, sides)
        for (pair, side), word in sorted(plain_x.items()):
            other = plain_y.get((pair, 1 - side))
            if (pair, side) in denied_y and (pair, side) not in plain_y and other is not None \
                    and (pair, 1 - side) not in plain_x and (pair, 1 - side) not in _denied(x, sides):
                found = word, f"{other} … never {word}", True
                return (found[1], found[0], True) if flip else found
    return None


def _plain(toks: tuple[str, ...], sides: dict[str, list[tuple[int, int, bool]]]
           ) -> dict[tuple[int, int], str]:
    return {(pair, side): t for i, t in enumerate(toks) if not (i and toks[i - 1] in _NEVER)
            for pair, side, _ in sides.get(t, ())}


def _denied(toks: tuple[str, ...], sides: dict[str, list[tuple[int, int, bool]]]
            ) -> frozenset[tuple[int, int]]:
    return frozenset((pair, side) for i, t in enumerate(toks) if i and toks[i - 1] in _NEVER
                     for pair, side, _ in sides.get(t, ()))


def _from_lexicon(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, str, bool] | None:
    sides = _sides()
    a, b = split_as(a, b), split_as(b, a)
    held_a: dict[tuple[int, int], str] = {}
    held_b: dict[tuple[int, int], str] = {}
    count: dict[tuple[int, int], list[int]] = {}
    states: dict[int, bool] = {}
    for n, (tokens, held) in enumerate(((a, held_a), (b, held_b))):
        for t in forms(tokens):
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
            return form.replace("_", " "), other.replace("_", " "), states.get(pair, True)
    return None


@lru_cache(maxsize=1024)  # a stored text is read against every request (callers only read it)
def _in_place(tokens: tuple[str, ...]) -> dict[tuple[int, int, str], str]:
    """(pair, side, the word before and the next word not a stop word, within two) → the
    form, for each one-word side in ``tokens``."""
    sides = _sides()
    out: dict[tuple[int, int, str], str] = {}
    for i, t in enumerate(tokens):
        if t in SWITCHED and i and tokens[i - 1] not in STOP_WORDS:  # "with the church
            # heating **off** for 24 hours" / "… heating **on** …": the word before says what
            for pair, side, _ in sides.get(SWITCHED[t], ()):
                out.setdefault((pair, side, "<" + tokens[i - 1]), t)
        j = next((j for j in range(i + 1, min(i + 3, len(tokens)))
                  if tokens[j] not in STOP_WORDS), None)
        if j is None:
            continue
        t = _phrasal_at(tokens, i, sides) or t  # "switches **off** automatically" /
        # "switches **on** automatically … and switches off again" (the 544th set)
        prev = tokens[i - 1] if i else "^"  # and the word before: the tokens lost the
        # punctuation ("PLA is allowed**;** PETG … banned" / "allow PLA and ban PETG")
        valued = any(c.isdigit() for c in tokens[j])  # or the value right after it, with its
        # preposition: "the clinic **opens at 1 pm**" / "… opens at 8 am and **shuts at 1 pm**"
        for pair, side, _ in sides.get(t, ()):
            out.setdefault((pair, side, f"{prev} {tokens[j]}"), t)
            if valued:
                out.setdefault((pair, side, "=" + " ".join(tokens[i + 1:j + 2])), t)
    return out


def _phrasal_at(tokens: tuple[str, ...], i: int,
                sides: dict[str, list[tuple[int, int, bool]]]) -> str | None:
    """The phrasal verb ("switch_off") whose particle stands at ``i``, if the lexicon pairs it."""
    if not i or tokens[i] not in PARTICLES:
        return None
    verb = tokens[i - 1]
    for v in (verb, verb.removesuffix("es"), verb.removesuffix("s"), verb.removesuffix("ed"),
              verb.removesuffix("ing")):
        if f"{v}_{tokens[i]}" in sides:
            return f"{v}_{tokens[i]}"
    return None

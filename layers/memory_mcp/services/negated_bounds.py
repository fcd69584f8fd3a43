"""A bound said with a negation, read as the bound: "no more than two" / "can't book more than
two" is "at most two", "not less than" is "at least", and "no higher than 1 m" or "can't be
over 4.2 metres" is "at most" (the hundred-and-sixty-fifth and hundred-and-sixty-eighth sets):
a text saying the bound as "up to a maximum of" or "no taller than" then reads the same, and
neither denies anything. Apart from ``short_forms``, which calls it last, for its size.
"""

from __future__ import annotations

from memory_mcp.services.lexicon import NEGATIONS, NUMBER_WORDS

_MOST = "more higher taller longer heavier bigger larger greater older".split()  # noqa: SIM905
_LEAST = "less fewer lower shorter lighter smaller".split()  # noqa: SIM905
_BOUND = dict.fromkeys(_MOST, "most") | dict.fromkeys(_LEAST, "least")  # "no higher than 1 m"
_PAST = {"over": "most", "above": "most", "under": "least", "below": "least"}


def bounds(tokens: list[str]) -> list[str]:
    """"no more than two" / "can't book more than two" → "at most two" (and "not less than" →
    "at least"): a bound said with a negation is the bound, not a negated fact. The negation
    must stand at most three words before "more than", with no other negation between."""
    out = list(tokens)
    for i in range(len(out) - 1):
        word = out[i].lower()
        if word in _BOUND and out[i + 1].lower() == "than":
            bound = _BOUND[word]
        elif word in _PAST and starts_amount(out[i + 1].lower()):
            bound = _PAST[word]  # "can't be **over 4.2** metres" / "no taller than 4.2 m"
        else:
            continue
        reach = 4 if word in ("more", "less", "fewer") else 3 if out[i - 1] == "be" else 2
        for j in range(i - 1, max(i - reach, -1), -1):  # "no higher", "can't be older"
            neg = out[j].lower()
            if neg in ("no", "not") or (neg in NEGATIONS and neg.endswith("n't")) \
                    or neg == "cannot":
                out[j] = _unnegated(neg)
                out[i] = f"at {bound}"
                if word in _BOUND:
                    out[i + 1] = ""
                break
    return [w for t in out if t for w in t.split(" ")]


def starts_amount(word: str) -> bool:
    """A number in digits or words (or a currency sign before one) starts ``word``."""
    return word[:1].isdigit() or word[:1] in "$€£" or word in NUMBER_WORDS


def _unnegated(word: str) -> str:
    """"can't" → "can", "cannot" → "can", "not" / "no" → "" (dropped)."""
    if word == "cannot":
        return "can"
    if word.endswith("n't"):
        stem = word[:-3]
        return {"wo": "will", "ca": "can", "sha": "shall"}.get(stem, stem)
    return ""

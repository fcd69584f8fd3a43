"""Words as the agreement rules compare them: stemmed, and weighed or not.

Apart from ``facets`` so that the modules ``facets`` reads with (``negation``) can use them.
``facets`` re-exports them: the rules import them from there.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from itertools import pairwise
from typing import Any

from memory_mcp.services.lexicon import NEGATIONS, STOP_WORDS, WEEKDAYS
from memory_mcp.services.numerals import number
from memory_mcp.services.synonyms import SYNONYM_STEMS


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Snowball stem, cached: the pure-Python stemmer costs ~0.1 ms a word and the rules compare
    the same words many times (without the cache it was ~90 ms of every save, in the lock)."""
    word = american(word.lower().replace("\u2019", "'").removesuffix("'s"))
    root = _IRREGULAR.get(word) or str(_stemmer().stemWord(word))
    return SYNONYM_STEMS.get(root, root)


#: British spellings by their ending, as American ones: "fertiliser" / "fertilizer",
#: "colour" / "color", "metre" / "meter", "analyse" / "analyze", "catalogue" / "catalog"
#: (helpers writing the blind forget sets, like a team's members, used both).
_ENDINGS = (
    (re.compile(r"(?<=[a-z]{3})is(e|ed|es|ing|ation|ations|er|ers)$"), r"iz\1"),
    (re.compile(r"(?<=[a-z]{3})our(s|ed|ing|ite|ites|able|er|ers)?$"), r"or\1"),
    (re.compile(r"(?<=[a-z]{2}[tb])re(s|d)?$"), r"er\1"),
    (re.compile(r"(?<=[a-z]{2})ys(e|ed|es|ing)$"), r"yz\1"),
    (re.compile(r"(?<=[a-z]{3})ogue(s)?$"), r"og\1"),
)
#: Whole words, and words the endings would change by mistake.
_WORDS = {"grey": "gray", "tyre": "tire", "tyres": "tires", "programme": "program",
          "programmes": "programs", "aluminium": "aluminum", "licence": "license",
          "licences": "licenses", "defence": "defense", "offence": "offense",
          "practise": "practice", "cheque": "check", "cheques": "checks", "kerb": "curb",
          "paediatric": "pediatric", "anaemia": "anemia", "manoeuvre": "maneuver",
          "acre": "acre", "acres": "acres", "genre": "genre", "ogre": "ogre",
          "mediocre": "mediocre", "massacre": "massacre", "lucre": "lucre"}
_NOT_OUR = frozenset("""hour hours four fours your yours tour tours pour pours poured pouring
flour sour soured detour detours contour contours devour devours dour ours""".split())  # noqa: SIM905


def american(word: str) -> str:
    """``word`` (lower-cased) in American spelling, by ``_WORDS`` or its ending."""
    if word in _WORDS:
        return _WORDS[word]
    if word in _NOT_OUR or len(word) < 5 or not word.isalpha():
        return word
    for ending, spelled in _ENDINGS:
        changed = ending.sub(spelled, word)
        if changed != word:
            return changed
    return word


_STEMMERS = threading.local()


def _stemmer() -> Any:
    """One per thread, loaded on first use. A snowball stemmer keeps the word it works on in
    the object, so two threads sharing one corrupt each other's words (long texts' rules run
    in worker threads: ``services/offload.py``). Loaded late: ``snowballstemmer`` imports every
    language's stemmer, which a Lambda cold start would otherwise pay before its first request
    (most of which never stem)."""
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        import snowballstemmer

        stemmer = _STEMMERS.english = snowballstemmer.stemmer("english")
    return stemmer


def content_word(word: str) -> bool:
    """A word the rules weigh: not a stop word, a negation or a number."""
    return bool(word) and word not in STOP_WORDS and word not in NEGATIONS \
        and number(word) is None


def singular_weekday(word: str) -> str:
    """'mondays' → 'monday' (weekdays only: other plurals are the stemmer's job)."""
    return word[:-1] if word.endswith("s") and word[:-1] in WEEKDAYS else word


def part_stems(word: str) -> list[str]:
    """The stems of a word's content parts: "on-call" → ["call"], as a text's ``stems`` hold
    it (``facets``), so a phrase read apart from them compares with them."""
    return [stem(p) for p in re.split(r"[\-/]", word) if content_word(p)]


#: Past participles whose stem is not the verb's ("is **fed** by" / "**feeds**").
PARTICIPLES = {"fed": "feed", "led": "lead", "sent": "send", "paid": "pay", "held": "hold",
               "kept": "keep", "built": "build", "sold": "sell", "taught": "teach",
               "bought": "buy", "brought": "bring", "caught": "catch", "made": "make",
               "given": "give", "taken": "take", "written": "write", "driven": "drive",
               "chosen": "choos", "seen": "see", "known": "know", "shown": "show",
               "drawn": "draw", "run": "run", "overseen": "overse", "done": "do",
               "told": "tell", "found": "find", "met": "meet", "spent": "spend", "hung": "hang",
               "worn": "wear", "thrown": "throw", "flown": "fly", "grown": "grow",
               "swept": "sweep", "dealt": "deal", "sought": "seek"}  # "mixes are **done** by"
#: Irregular participles stemmed as their verb: "**sold** at the gate" / "we **sell** them at the
#: gate" (the forget sets' rewordings change tense freely). Not "led", which is also "LED", nor
#: "built" and "driven", whose verbs' stems are places' ("building", "the shared drive").
_IRREGULAR = {w: "fli" if v == "fly" else v for w, v in PARTICIPLES.items()
              if w not in ("led", "built", "driven")}


def verb_stem(word: str) -> str:
    """A verb's stem, irregular participles read as their verb ("kept": keep)."""
    return PARTICIPLES.get(word) or stem(word)


def split_as(x: tuple[str, ...], y: tuple[str, ...]) -> tuple[str, ...]:
    """``x`` with each hyphenated word that ``y`` writes as two words split the same way: the
    "**start**-tower chairlift **starts**" / "the chairlift to the **start** tower **stops**"
    (the eighty-sixth set) name the tower alike, and say "starts" against "stops"."""
    if not any("-" in t for t in x):
        return x
    pairs = set(pairwise(y))
    out: list[str] = []
    for t in x:
        parts = tuple(t.split("-"))
        out.extend(parts if len(parts) == 2 and parts in pairs else (t,))
    return tuple(out)


def agreed(word: str) -> str:
    """A word's stem, a verb's singular and plural as one ("go" / "goes", "is" / "are"): the
    verb after things agrees with them, so two texts naming one or many of them read alike
    there ("**most dogs are**" / "**every dog is**")."""
    return _AGREED.get(word, stem(word))


_AGREED = {"goes": "go", "does": "do", "has": "have", "is": "be", "are": "be", "was": "be",
           "were": "be"}

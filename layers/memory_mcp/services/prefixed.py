"""A word with a negating prefix read against its bare form: "**un**encrypted" / "encrypted",
"**in**valid" / "valid", "**non**-production" / "production", "**dis**charged" / "charged",
"**off**-road" / "road".

Apart from ``opposites.py``, which reads the lexicon's pairs, because a prefix is read from
the word alone: "un" before most words, "in", "im", "il", "ir" and "dis" only before the bases
listed here, since elsewhere they start ordinary words ("install", "display", "discover").
"""

from __future__ import annotations

from memory_mcp.services.lexicon import STOP_WORDS

_LISTED_PREFIXES = ("in", "im", "il", "ir", "dis")
#: The bases those prefixes negate. "charged" / "discharged" (LiPo batteries, the 315th set),
#: "connected" / "disconnected", "armed" / "disarmed".
_PREFIXED_BASES = frozenset("""
active valid correct complete accessible secure consistent compatible sufficient mutable
possible legal reversible agree agrees agreed like likes liked trust trusted continued
charge charged charging connect connected connecting arm armed arming
""".split())  # noqa: SIM905
#: The bases "off-" makes another kind of: not "off-spec" or "off-peak", which "fails spec"
#: and "outside peak hours" reword, nor "off-site" ("away from the site").
_OFF_BASES = frozenset("""road piste grid line lead leash track trail duty
""".split())  # noqa: SIM905
#: The bases "pre-" and "post-" make another stage of ("pre-clinical", "post-operative"):
#: not an event's name, which "before" rewords ("the **pre-match** routine" / "**before each
#: match**", "four weeks **post-surgery**" / "4 weeks **after surgery**": the 94th and 173rd).
_STAGE_BASES = frozenset("""clinical operative natal production""".split())  # noqa: SIM905
#: Endings of a prefixed word that is a state ("unpaid", "unavailable"); others are verbs
#: ("uninstall", "unpublish"): another event, another fact.
_STATE_ENDINGS = ("ed", "able", "ible", "ive", "ful", "al", "ent", "ant", "ous", "ic", "id",
                  "ure", "ete", "ect", "ar", "le")


def bare_of(word: str) -> tuple[str, bool] | None:
    """'unencrypted' → ('encrypted', a state), 'invalid' → ('valid', a state),
    'uninstall' → ('install', an event), 'non-production' → ('production', another thing)."""
    if word.startswith("non-") and len(word) > 7:
        return word[4:], False
    if word.startswith(("pre-", "post-")) and word.split("-", 1)[1] in _STAGE_BASES:
        return word.split("-", 1)[1], False  # "**pre-clinical** research cases" / "clinical
        # cases" (the 465th set): another stage of the thing
    if word.startswith("off-") and word[4:] in _OFF_BASES:  # "**off-road** rides" / "road
        return word[4:], False  # rides" (the 312th set): another kind of the thing
    if word.startswith("un") and len(word) >= 6 and word not in STOP_WORDS:
        return word[2:], word.endswith(_STATE_ENDINGS)
    for prefix in _LISTED_PREFIXES:
        if word.startswith(prefix) and word[len(prefix):] in _PREFIXED_BASES:
            return word[len(prefix):], True
    return None

"""A place said two ways on one thing: "the **basement** practice console" / "the practice
console **in the ringing room**", "stacked in the **mezzanine** rack" / "in the rack **nearest
the roller door**" (the 541st set). One text names the thing with a word before it the other
never says; the other names the same thing with a place phrase after it whose words the first
never says. Each detail alone is what a shortened rewording drops, so the word rules read them
as one text saying less; together they put the thing in two places.

A rewording that moves the word into the phrase ("the practice console in the basement") keeps
it in both texts and is not read; nor is a compound split ("the roller-door rack").
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS
from memory_mcp.services.lexicon import MEASURES, UNIT_SYMBOLS
from memory_mcp.services.stems import content_word, stem
from memory_mcp.services.voice import participle

#: Words that open a place phrase after a thing.
_AT = frozenset("""in at on near nearest beside behind under above below inside outside
opposite""".split())  # noqa: SIM905
#: How many words before the thing its modifiers may stand.
_REACH = 3


def other_place(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text puts a modifier of its own before a thing and the
    other a place phrase of its own after the same thing; else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        said_x, said_y = _said(x), _said(y)
        phrases = _phrases(y.tokens, said_x)
        if not phrases:
            continue
        for i, t in enumerate(x.tokens):
            phrase = phrases.get(stem(t))
            if phrase is None or (x.tokens[i + 1:i + 2] and x.tokens[i + 1] in _AT
                                  and x.tokens[i + 2:i + 3] == ("the",)) \
                    or any(_clipped(w, u) for w in _words(phrase) for u in x.tokens):
                continue  # the thing placed in both texts ("behind the **dash**" /
                # "… the **dashboard**"): a place phrase's own wording
            mods = _modifiers(x.tokens, i)
            own = [m for m in mods if not (_parts(m) & said_y)
                   and not any(_clipped(m, w) for w in _words(phrase))]
            if own:
                found = " ".join([*own, t]), phrase
                return (found[1], found[0]) if flip else found
    return None


def _said(f: Facets) -> frozenset[str]:
    """Every stem of the text, a hyphenated word's parts too ("roller-door")."""
    return f.stems | frozenset(stem(p) for t in f.tokens for p in t.split("-") if p)


def _parts(word: str) -> frozenset[str]:
    return frozenset(stem(p) for p in word.split("-") if p)


def _modifiers(toks: tuple[str, ...], i: int) -> list[str]:
    """The content words right before the thing at ``i``, after a determiner: "the
    **basement practice** console"."""
    k = i
    while k > max(0, i - _REACH) and content_word(toks[k - 1]) and not toks[k - 1][:1].isdigit():
        k -= 1
    if k == i or k == 0 or toks[k - 1] not in DETERMINERS:
        return []
    return [m for m in toks[k:i] if m not in MEASURES and m not in UNIT_SYMBOLS]


def _phrases(toks: tuple[str, ...], said: frozenset[str]) -> dict[str, str]:
    """The thing's stem → the thing and its place phrase, for
    each thing followed by a place phrase whose content words ``said`` holds none of."""
    out: dict[str, str] = {}
    for i in range(1, len(toks) - 2):
        if toks[i + 1] not in _AT or not content_word(toks[i]) or participle(toks[i]) \
                or toks[i].endswith("ing"):
            continue  # a thing, not a verb: "are **stored** in the basement loading bay"
        j = i + 2
        if toks[j:j + 1] != ("the",):
            continue  # "in **the** ringing room", not "on file", "in batches", "at least"
        j += 1
        words: list[str] = []
        while j < len(toks) and content_word(toks[j]) and len(words) < 3:
            words.append(toks[j])
            j += 1
        if words and not any(_parts(w) & said for w in words) \
                and not any(w[:1].isdigit() for w in words):
            out.setdefault(stem(toks[i]), " ".join(toks[i:j]))
    return out


def _clipped(m: str, w: str) -> bool:
    """One word the other cut short or grown: "**quay**side" / "**quay**", "**pub**" /
    "**pub**lication", "**dash**" / "**dash**board"."""
    return len(m) >= 3 and len(w) >= 3 and (m.startswith(w) or w.startswith(m))


def _words(phrase: str) -> list[str]:
    """The place phrase's content words, past its thing."""
    return [w for w in phrase.split()[1:] if content_word(w)]


#: Words a site phrase opens with after its preposition: "at **our** satellite clinic"; not
#: "the", which idioms take as often ("four and a half hours **at the wheel**").
_SITE_OPENERS = frozenset(["our"])


def added_site(a: Facets, b: Facets) -> str | None:
    """The site phrase the request ``a`` adds right after a thing the stored ``b`` names with
    no place of its own: "embryos in the EmbryoScope+ incubators **at our satellite clinic**"
    / "… in the EmbryoScope+ incubators are cultured …" (the 541st set): that narrower fact is
    another one. Two content words at least, none of which ``b`` says or cuts short."""
    said, tb = _said(b), b.tokens
    for i in range(len(a.tokens) - 3):
        t, at, opener = a.tokens[i:i + 3]
        if at not in ("at", "in") or opener not in _SITE_OPENERS or not content_word(t):
            continue
        words = []
        for w in a.tokens[i + 3:i + 6]:
            if not content_word(w) or w[:1].isdigit():
                break
            words.append(w)
        if len(words) < 2 or any(_parts(w) & said or any(_clipped(w, u) for u in tb)
                                 for w in words):
            continue
        k = next((j for j, u in enumerate(tb) if stem(u) == stem(t)), None)
        if k is not None and tb[k + 1:k + 2] not in (("at",), ("in",)):
            return " ".join(a.tokens[i + 1:i + 3 + len(words)])
    return None

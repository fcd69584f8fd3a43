"""Who sends and who does: one text's sender is the other's receiver ("**labels deliver** mix
stems to us" / "mix stems are delivered **to labels**"), or another one does it ("calibrated
by **our in-house maintenance team**" / "… by **Ecolab**", "**the dive instructor** has to
sign" / "… signed **by the fill-station tech**").

Split from ``direction``, which keeps routes and voice (where a thing goes, which way round a
verb is read); these read the people and parties around a sending verb or a passive's "by".
"""

from __future__ import annotations

from memory_mcp.services.direction import (
    BETWEEN,
    REACH,
    SENDS,
    receivers,
)
from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, PREPOSITIONS
from memory_mcp.services.lexicon import MONTHS, WEEKDAYS
from memory_mcp.services.stems import content_word, singular_weekday, stem, verb_stem
from memory_mcp.services.voice import PASSIVE_AUX, participle
from memory_mcp.services.word_pool import Pool, parts_pool
from memory_mcp.services.wording import OWN_RULES, subject_end


def _senders(f: Facets) -> dict[str, str]:
    """Stem → "<word> <verb>" for each word right before an active sending verb ("**labels**
    deliver", "the **regulator** sends us"), one it does not take a "by" after."""
    out: dict[str, str] = {}
    toks = f.tokens
    for j, w in enumerate(toks):
        if verb_stem(w) not in SENDS or toks[j + 1:j + 2] == ("by",):
            continue
        i = j - 1
        while i >= 0 and toks[i] in BETWEEN:
            i -= 1
        if i < 0 or not content_word(toks[i]) or toks[i] in PASSIVE_AUX:
            continue
        # the sender's phrase: "the **packer** in Saint-Jérôme sends" names the packer too
        start = i
        while start > 0 and i - start < REACH and (content_word(toks[start - 1])
                                                     or toks[start - 1] in _OF_IN):
            start -= 1
        for k in range(start, i + 1):
            if content_word(toks[k]) and toks[k] not in PASSIVE_AUX:
                out.setdefault(stem(toks[k]), f"{toks[k]} … {w}" if k < i else f"{toks[k]} {w}")
    return out


#: Prepositions inside a sender's phrase ("the dealer **in** Cremona ships").
_OF_IN = frozenset(["in", "of", "at", "from"])


def turned_sender(a: Facets, b: Facets) -> tuple[str, str] | None:
    """One text's sender is the other's receiver: "**labels deliver** mix stems to us" /
    "mix stems are delivered **to labels**", "the **regulator sends** us the counts" / "the
    counts are submitted **to the regulator**". A receiving verb keeps the fact ("labels
    **receive** mix stems" is not read here), as does a text that has it send in both."""
    sent = (_senders(a), _senders(b))
    if not (sent[0] or sent[1]):
        return None
    to = (receivers(a), receivers(b))
    for x, y, flip in ((0, 1, False), (1, 0, True)):
        sent_x, to_y, to_x = sent[x], to[y], to[x]
        for place in sorted(sent_x.keys() - sent[y].keys()):
            if place in to_y and place not in to_x:
                found = (sent_x[place], to_y[place])
                return (found[1], found[0]) if flip else found
    return None


#: Words after "by" that give a deadline or a means, not a doer ("paid **by** Friday", "filed
#: by the **end** of the month"): the value rules compare those.
_NO_DOER = frozenset("""end close start noon midnight eod cob then now tomorrow today tonight
deadline latest""".split())  # noqa: SIM905


#: Words before a passive's participle: its auxiliary, or the participle before it
#: ("analysed **and** signed by").
_BEFORE_PARTICIPLE = PASSIVE_AUX | frozenset(["and", "or"])


#: Words a passive's participle may stand before its "by": "is **checked** at the start of
#: every shift **by** the dip team leader" (the 164th set), "are **disinfected** with Virex II
#: 256 after every session **by** the last instructor" (the 274th).
_BY_REACH = 9


def _doers(f: Facets) -> list[str]:
    """The words of each doer a passive names ("are calibrated each quarter **by our in-house
    maintenance team**", "must be analysed and signed **by the fill-station tech**")."""
    toks, out = f.tokens, []
    for i, t in enumerate(toks):
        if t != "by" or not any(participle(toks[p]) and p and toks[p - 1] in _BEFORE_PARTICIPLE
                                for p in range(max(0, i - _BY_REACH), i)):
            continue
        words: list[str] = []
        for w in toks[i + 1:i + 6]:
            if w in PREPOSITIONS or w in BETWEEN or (words and not content_word(w)):
                break
            if content_word(w):
                words.append(w)
        if words and words[0] not in _NO_DOER and not all(_timely(w) for w in words):
            out.append(" ".join(words[:3]))  # "by the **night** supervisor" is a doer
    return out


def _timely(word: str) -> bool:
    """A word of a deadline ("by **Friday morning**", "by **6**")."""
    return word[:1].isdigit() or word in OWN_RULES or singular_weekday(word) in WEEKDAYS \
        or word in MONTHS


def other_doer(a: Facets, b: Facets) -> tuple[str, str] | None:
    """Another one does it: "calibrated by **our in-house maintenance team**" / "calibrated by
    **Ecolab**" (two doers sharing no word), or "**the dive instructor** has to analyse and
    sign …" / "… must be analysed and signed **by the fill-station tech**" (an active subject
    the passive text never names, doing what that text has someone else do)."""
    da, db = _doers(a), _doers(b)
    if not (da or db):
        return None  # most pairs: no passive doer, no word pool built
    pool_a, pool_b = parts_pool(a), parts_pool(b)

    def unnamed(phrase: str, pool: Pool) -> bool:
        return not any(pool.has(w, 0.75) for w in phrase.split())

    def one_word_each(x: str, y: str) -> bool:
        """"a **lawyer**" / "an **attorney**": a synonym as often as another doer; the
        swapped-word rule reads single words where the sentences align. "two **RNs**" / "by two
        **registered nurses**": the one's initials."""
        short, long_ = (x, y) if len(x) < len(y) else (y, x)
        return (" " not in x and " " not in y) or short.removesuffix("s") == "".join(
            w[0] for w in long_.split())

    if da and db:
        if one_word_each(da[0], db[0]):
            return None
        if all(unnamed(x, pool_b) for x in da) and all(unnamed(y, pool_a) for y in db):
            return da[0], db[0]
        return None
    for doers, active, pool_doer, pool_active, flip in ((db, a, pool_b, pool_a, False),
                                                       (da, b, pool_a, pool_b, True)):
        if not doers or "by" in active.tokens or (doers[0] == "us" and "we" in active.tokens):
            continue  # "not opened **by us**" / "**we** don't open them" (the 226th set)
        done = {verb_stem(t) for t in (a if flip else b).tokens if participle(t)}
        end = subject_end(active)  # "the timekeepers **enter** aerobatics scores" / "… are
        # **entered** … by the head judge": the passive's verb ends the subject (273rd)
        same = next((k for k in range(1, len(active.tokens)) if verb_stem(active.tokens[k])
                     in done and active.tokens[k - 1] not in PASSIVE_AUX
                     and not any(map(content_word, active.tokens[end:k]))), None)
        subject = " ".join(w for w in active.tokens[:same or end] if content_word(w))
        # the subject's head ("the **shift** chemist" / "… every **shift** by the dip team
        # leader"); a name of the same verb's ("Nadia Kowal **diagnoses**" / "… by Alan Pryce")
        named = same is not None and set(subject.split()) <= active.names
        if subject and (named or unnamed(subject.rsplit(" ", 1)[-1], pool_doer)) \
                and all(unnamed(d, pool_active) for d in doers) \
                and not one_word_each(subject, doers[0]):
            return (doers[0], subject) if flip else (subject, doers[0])
    return None


def by_or_to(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("sent by the treasurer", "sent to the treasurer"): the same participle, done by someone
    in one text and done to them in the other (the twenty-sixth set: "submissions are sent
    **to** the treasurer" / "… **by** the treasurer")."""
    ba, ta, bb, tb = _after(a, "by"), _after(a, "to"), _after(b, "by"), _after(b, "to")
    for key in sorted((ba.keys() & tb.keys()) - ta.keys() - bb.keys()):
        return ba[key], tb[key]
    for key in sorted((bb.keys() & ta.keys()) - tb.keys() - ba.keys()):
        return ta[key], bb[key]
    return None


def _after(f: Facets, word: str) -> dict[tuple[str, str], str]:
    """(the participle's stem, the first content word's stem after ``word``) → the phrase, for
    each ``word`` right after a participle ("sent **to** the treasurer")."""
    toks, out = f.tokens, {}
    for i, t in enumerate(toks[1:-1], 1):
        if t != word or not participle(toks[i - 1]):
            continue
        head = next((w for w in toks[i + 1:i + 1 + REACH] if content_word(w)), None)
        if head is not None:
            out[(verb_stem(toks[i - 1]), stem(head))] = f"{toks[i - 1]} {word} {head}"
    return out


#: How far after its verb the "from" of a source may stand ("collect used tyre casings
#: **from** Murfitts").
_SOURCE_REACH = 8


def source_subject(a: Facets, b: Facets) -> tuple[str, str] | None:
    """A name that does something in one text is where it comes from or goes to in the
    other, with the same verb: "**Murfitts collects** our used casings" / "we **collect** used
    casings **from Murfitts**", "**Mapes orders** bass strings from us" / "**order** bass
    strings **from Mapes**" (the forty-first and thirty-ninth sets), "welfare officer **Priya
    reports to** head coach Liam" / "head coach **Liam reports to** … Priya" (the forty-fourth).
    Read for names only, right before the verb (helpers such as "must" between), and only
    where the text that names the doer never has it after "from" or "to" itself."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        sourced = _sources(y)
        if not sourced:
            continue
        mine = _sources(x)
        for name, verb, at in _named_subjects(x):
            prep = next((p for p in _ENDS if (name, verb, p) in sourced
                         and (name, verb, p) not in mine
                         and _OTHER_END[p] not in x.tokens[at + 1:at + 1 + _SOURCE_REACH]),
                        None)  # "Apex Hire rents scaffolding **to us**" / "we rent it
            # **from** Apex Hire": one hire seen from each end
            if prep is not None:
                found = (f"{name} {verb}…", f"{verb}… {prep} {name}")
                return (found[1], found[0]) if flip else found
    return None


def _named_subjects(f: Facets) -> list[tuple[str, str, int]]:
    """(name, verb stem, the verb's position) for each name of ``f`` right before its verb: a
    word in -s after the name, or any word after a helper ("must", "will"), not a preposition
    or an auxiliary."""
    toks = f.tokens
    out: list[tuple[str, str, int]] = []
    for i, t in enumerate(toks[:-1]):
        if t not in f.names:
            continue
        j = i + 1
        while j < len(toks) - 1 and toks[j] in BETWEEN:
            j += 1
        if j > i + 1 and toks[j].endswith("ly") and j < len(toks) - 1:
            j += 1  # "ATC must **immediately** report"
        verb = toks[j]
        if content_word(verb) and verb not in PASSIVE_AUX and verb not in PREPOSITIONS \
                and (j > i + 1 or (verb.endswith("s") and not verb.endswith("ss"))):
            out.append((t, verb_stem(verb), j))  # "Mapes **orders**", "Mapes **will** order",
            # not "Initech **invoice** 4471" (a noun after a name)
    out.extend((w, verb_stem(toks[i - 1]), i - 1) for i, t in enumerate(toks[1:-1], 1)
               if t == "by" and participle(toks[i - 1])
               for w in toks[i + 1:i + 3] if w in f.names)  # "supplied **by Kautschuk**":
    # the doer of a passive (the hundred-and-first set)
    return out


#: The prepositions naming where a doing's thing comes from or goes to.
_ENDS = ("from", "to")
_OTHER_END = {"from": "to", "to": "from"}
#: How far after its preposition the name may stand ("to **the club welfare officer, Priya**").
_NAME_REACH = 6


def _sources(f: Facets) -> set[tuple[str, str, str]]:
    """(name, verb stem, preposition) for each name after a "from" or "to" that follows an
    active verb within ``_SOURCE_REACH`` words: the name is where that verb's thing comes
    from or goes. A verb is read as active only where it opens the text ("**Order** strings
    from Mapes") or follows a name, a person's pronoun or a helper ("**we collect**", "Liam
    **reports**", "must **buy**"): "pushed from MLflow" (a passive), "the sondes from
    Vaisala" (a thing's origin) and "Green beans from Huila" (a capital that only opens the
    text) name no source of a doing."""
    toks = f.tokens
    out: set[tuple[str, str, str]] = set()
    for i, t in enumerate(toks[1:-1], 1):
        if t not in _ENDS:
            continue
        names: list[str] = []  # each word of the first name: "Priya Nandakumar"
        for w in toks[i + 1:i + 1 + _NAME_REACH]:
            if w in f.names:
                names.append(w)
            elif names or w in PREPOSITIONS or not (content_word(w) or w in DETERMINERS):
                break  # the name ended, or another phrase began: "to the yard **by** Liam"
        for j in range(max(0, i - _SOURCE_REACH), i):
            if names and content_word(toks[j]) and (
                    toks[j - 1] in _ACTIVE_BEFORE or (j > 1 and toks[j - 1] in f.names)
                    or _joined_verb(toks, j, f) or _apposed(toks, j, f)
                    or (t == "to" and toks[j - 1] in PASSIVE_AUX and participle(toks[j]))
                    if j else not toks[j].endswith("s")):  # "must be **reported to ATC**":
                # whoever reports, ATC is where it goes (not "pushed **from** MLflow", which
                # MLflow may push)  # "**Order** strings from Mapes" (an
                # instruction), not "**Referrals** from GPs arrive"
                out.update((name, verb_stem(toks[j]), t) for name in names)
    return out


def _joined_verb(toks: tuple[str, ...], j: int, f: Facets) -> bool:
    """A verb in -s after "and", in a text that opens with a name: the name's second doing
    ("**Marek Kowal** supervises the night shift **and reports** to … Ann Beale", the
    fifty-second set)."""
    return toks[j - 1] == "and" and toks[j].endswith("s") and not toks[j].endswith("ss") \
        and toks[0] in f.names


def _apposed(toks: tuple[str, ...], j: int, f: Facets) -> bool:
    """A verb in -s after a name and what it is ("**Gareth Evans, the setting foreman,
    reports** to …", the hundred-and-twelfth set): the name's doing."""
    return toks[j].endswith("s") and not toks[j].endswith("ss") and any(
        toks[k] in f.names and toks[k + 1] in DETERMINERS for k in range(max(0, j - 5), j - 1))


#: Words after which a verb is active: a person's pronoun, a helper, an infinitive's "to".
_ACTIVE_BEFORE = BETWEEN | frozenset(["we", "you", "they", "i", "he", "she", "to"])

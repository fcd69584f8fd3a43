"""Which job: the same subject named as another role ("Marta is **the art director** for" /
"… **the lead level designer** for"), each text naming a job the other lacks ("a **senior
associate**" / "a **partner**"), or a rank in one text only ("the **deputy** harbour master").

Split from ``slots``: a role is often several words, none of them a name, number or weekday,
so the facet rules see nothing; these read the words around a copula, the role nouns in the
lexicon and the rank words before a shared noun.
"""

from __future__ import annotations

from itertools import pairwise

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import AUX, COPULAS, DETERMINERS, PREPOSITIONS, SLOT_TOKENS
from memory_mcp.services.lexicon import RANKS, ROLE_NOUNS, ROLE_SYNONYMS, WEEKDAYS
from memory_mcp.services.stems import content_word, stem


def _role(f: Facets) -> tuple[frozenset[str], frozenset[str]] | None:
    """(the subject's stems, the role's stems) of "<subject> is the <role> for|of|on …"."""
    toks = f.tokens
    for i, t in enumerate(toks[:-2]):
        bare = i > 0 and toks[i - 1] in f.names and _job_named(toks[i + 1:i + 4])
        if t in COPULAS and (toks[i + 1] in DETERMINERS or bare):
            role: list[str] = []
            for w in toks[i + 1 + (not bare):]:
                if w in PREPOSITIONS or w in ("and", "but", "who", "which", ","):
                    break
                if content_word(w):
                    role.append(stem(w))
            subject = frozenset(stem(w) for w in toks[:i] if content_word(w))
            return (subject, frozenset(role)) if role and subject else None
    return None


def _job_named(words: tuple[str, ...]) -> bool:
    """Whether a role with no article names a job: "Gerald Finch is **ring steward**" /
    "… is **head judge**" (the hundred-and-eighty-ninth set), not a state ("is
    available")."""
    for w in words:
        if w in PREPOSITIONS or not content_word(w):
            return False
        if w.removesuffix("s") in ROLE_NOUNS or w in ROLE_SYNONYMS or w in RANKS:
            return True
    return False


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


def holder(a: Facets, b: Facets) -> tuple[str, str] | None:
    """The same role held by another of the same people: "**Ingrid** Halvorsen is the backup
    lead for Dev Patel" / "… Dev **Patel** is backup lead when Ingrid is tied up" (the
    hundred-and-eighty-second set). Both texts name both people, so the request is no
    rewording that drops one: it hands the stored text's role to the other."""
    for name_a, role_a in _holders(a):
        for name_b, role_b in _holders(b):
            if role_a == role_b and name_a != name_b and name_a in b.names \
                    and name_b in a.names:
                return f"{name_a} {' '.join(role_a)}", f"{name_b} {' '.join(role_b)}"
    return None


def _holders(f: Facets) -> list[tuple[str, tuple[str, ...]]]:
    """(the name, the role's stems) of each "<name> is (the) <role>": a name right before
    the copula, then up to three content words before a preposition or clause word, none a
    participle ("Ingrid is **tied** up")."""
    toks, out = f.tokens, []
    for i in range(1, len(toks) - 1):
        if toks[i] not in COPULAS or toks[i - 1] not in f.names:
            continue
        k = i + 1 + (toks[i + 1] in DETERMINERS)
        role: list[str] = []
        for w in toks[k:k + 3]:
            if w in PREPOSITIONS or w in AUX or not content_word(w) or w in f.names:
                break
            role.append(w)
        if role and not any(w.endswith(("ed", "ing")) for w in role):
            out.append((toks[i - 1], tuple(stem(w) for w in role)))
    return out


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
        words = [p for t in x.tokens for p in (t.split("-") if "-" in t and t not in RANKS
                                                else (t,)) if p]  # "first-year" one rank,
        # the request's only: "**second-year** students" / "year-two students" (74th set)
        for t, nxt in pairwise(words):
            if t in RANKS and stem(t) not in y.stems and t not in y.tokens \
                    and not (flip and "-" in t) and content_word(nxt) \
                    and stem(nxt) in y.stems:
                return (nxt, f"{t} {nxt}") if flip else (f"{t} {nxt}", nxt)
    return None


def role_head(a: Facets, b: Facets) -> tuple[str, str] | None:
    """A job noun after a word both texts have, in one text only, with the same word after
    it in both: "the duty **coroner's officer** logs it" / "the duty **coroner** logs it",
    "physio **assistants** who hold" / "physios who hold" (the nineteenth and hundred-and-
    second sets): the one who works for the other, another person."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        toks, theirs = x.tokens, y.tokens
        pairs = {(stem(p), n) for p, n in pairwise(theirs)}
        for i in range(1, len(toks) - 1):
            t = toks[i]
            if (t in ROLE_NOUNS or t.removesuffix("s") in ROLE_NOUNS) and stem(t) not in y.stems \
                    and content_word(toks[i - 1]) and (stem(toks[i - 1]), toks[i + 1]) in pairs \
                    and _acts(toks[i + 1]):
                found = f"{toks[i - 1]} {t}", toks[i - 1]
                return (found[1], found[0]) if flip else found
    return None


def _acts(word: str) -> bool:
    """A word after a person who acts: "who", a helper ("must") or a verb in -s ("logs")."""
    return word in ("who", "that") or word in AUX or (word.endswith("s")
                                                     and not word.endswith("ss"))


#: Endings of a specialist's job: "the on-call **nephrologist**" / "… **radiologist**",
#: "the **projectionist**" / "the closing supervisor".
_SPECIALISTS = ("ologist", "ographer", "ician", "iatrist", "ionist", "otherapist")


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
            t if t in ROLE_NOUNS else single if single in ROLE_NOUNS else None) or (
            single if single.endswith(_SPECIALISTS) or _hyphen_agent(single) else None)
        if job is not None:
            out.setdefault(job, t)
    return out


def _hyphen_agent(word: str) -> bool:
    """A job written as a thing and its doer: "licensed **shot-firers**" / "licensed safety
    officers" (the 363rd set), "the **fire-eater**". Doers only, as most hyphened words in
    -er are things ("the **hard-water** descale", the 42nd set)."""
    first, _, last = word.rpartition("-")
    return bool(first) and first.isalpha() and last in _DOERS


_DOERS = frozenset("""firer eater walker keeper maker builder minder rider setter cutter fitter
picker packer seller cleaner handler breaker sitter watcher spotter tender fighter loader
mover feeder catcher""".split())  # noqa: SIM905


def role_doer(a: Facets, b: Facets) -> tuple[str, str] | None:
    """Another job before the same verb and object: "the **duty supervisor** briefs the
    incoming operator" / "the **outgoing operator** briefs the incoming operator" (the
    two-hundred-and-thirty-third set). The other rules miss it when the request's extra job
    is one the stored text names as the object; here only the doer is compared. One of the
    two must be a job of the lexicon; the other may be any agent noun ("operator")."""
    doers_b = _role_doers(b)
    for act, (job, known) in _role_doers(a).items():
        other = doers_b.get(act)
        if other is not None and other[0] != job and (known or other[1]):
            return job, other[0]
    return None


def _role_doers(f: Facets) -> dict[tuple[str, str], tuple[str, bool]]:
    """(verb in -s, the word after it) → (the job noun right before the verb, whether the
    lexicon knows it as a job)."""
    toks = f.tokens
    out: dict[tuple[str, str], tuple[str, bool]] = {}
    for i in range(1, len(toks) - 2):
        verb, prev = toks[i], toks[i - 1]
        single = prev.removesuffix("s")
        plural = prev != single and (single in ROLE_NOUNS or single in ROLE_SYNONYMS)
        if not ((verb.endswith("s") and not verb.endswith("ss")) or plural) \
                or not content_word(verb):
            continue  # "ring **stewards hand** the judge's book" / "ring judges hand …" (the
            # 373rd set): a plural job before its verb
        job = ROLE_SYNONYMS.get(prev) or (prev if prev in ROLE_NOUNS else
                                          single if single in ROLE_NOUNS else None)
        if job is not None:
            out.setdefault((verb, toks[i + 1]), (job, True))
        elif prev.endswith(_AGENTS) and content_word(prev) and prev not in f.names:
            out.setdefault((verb, toks[i + 1]), (prev, False))
    return out


#: Endings of a noun for one who does a job: "oper**ator**", "cash**ier**", "warden".
_AGENTS = ("ator", "ier", "ist", "ant", "ian", "eer", "ger", "ter", "der")


def named_role(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's name) where the request makes someone the stored text names a holder
    of a job the stored text never names, in any form: "Bethan Lloyd **is the troupe's
    treasurer**" / "Bethan Lloyd leads the troupe; Callum Reid is deputy" (the two-hundred-
    and-sixty-fourth set). Else None."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None  # a short fact's rule: pairs of words over two long texts cost seconds
    for name, role in _holders(a):
        jobs = [_ROLE_STEMS[w] for w in role if w in _ROLE_STEMS]
        if name in b.names and jobs and not any(
                t.startswith(jobs[0][:_FORM]) for t in b.tokens):
            return f"{name} {jobs[0]}", name
    return None


_ROLE_STEMS = {stem(r): r for r in ROLE_NOUNS}
#: Letters a job's other forms share with it ("lead" / "leader", "treasur…").
_FORM = 4



def role_or_verb(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text says "<name> is a <role>" and the other has
    the same name do a job's verb the role does not name: "Yuki Tanaka **is a barista** on
    the late shift" / "Yuki Tanaka **manages** the late shift" (the 310th set). A barista
    does not manage it."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        for name, role in _holders(x):
            if set(role) & y.stems or not any(_a_job(w) for w in role):
                continue
            toks = y.tokens
            for i in range(len(toks) - 1):
                verb = stem(toks[i + 1])
                if toks[i] == name and verb in _LEADING_VERBS \
                        and not any(w.startswith(verb) for w in role):  # "is the day-shift
                    # **supervisor**" / "**supervises**": one job
                    found = (f"{name} is {' '.join(role)}", f"{name} {toks[i + 1]}")
                    return (found[1], found[0]) if flip else found
    return None


#: Verbs of a job that leads or runs a thing ("manages", "leads", "coaches", "supervises").
_LEADING_VERBS = frozenset(stem(w) for w in """manages leads coaches supervises runs directs
captains chairs organises organizes hosts judges referees umpires teaches trains""".split())  # noqa: SIM905


def _a_job(word: str) -> bool:
    """A role's stem that names a job: a listed role noun, or one by its ending ("barista",
    "florist", "caterer"); not "held" ("the market is held on …")."""
    return word in _JOB_STEMS or word.endswith(("ist", "ista", "er", "or", "ian", "ant"))


_JOB_STEMS = frozenset(stem(w) for w in ROLE_NOUNS)

"""Whether one text denies what the other states: as many denials each ("not", "never",
"no one", a "rather than" that sets aside what the other denies), and no denial of one that
the other states outright ("**never by the on-call engineer**" / "… and occasionally by the
on-call engineer"). ``agreement`` reports any of these as "one says the opposite of the other".

Apart from ``values`` (the arithmetic of numbers and durations) because these read the texts'
negations (``negation``), not their values.
"""

from __future__ import annotations

from memory_mcp.services import crossed_denials, negation
from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import predicates
from memory_mcp.services.lexicon import NEGATIONS
from memory_mcp.services.stems import stem


def opposed(a: Facets, b: Facets) -> bool:
    """Whether ``a`` and ``b`` deny different things (each rule below, both ways)."""
    return not same_denials(a, b) or affirms_aside(a, b) or affirms_aside(b, a) \
        or denies_affirmed(a, b) or denies_affirmed(b, a) or states_passed_over(a, b) \
        or states_passed_over(b, a) or regardless_of(a, b) or regardless_of(b, a) \
        or no_longer(a, b) or no_longer(b, a) or crossed_denials.crossed(a, b)


def set_aside(f: Facets, other: Facets) -> int:
    """How many of ``f``'s "rather than" / "instead of" deny what a negation of ``other``
    denies ("to TestPyPI **rather than** PyPI" / "**not** to PyPI"): those count as negations.
    Others do not ("encrypted **instead of** compressed" is no "not encrypted"), nor does
    ``f``'s own verb: "**polished** with Hagerty Silver Foam, not the general steel
    **polish**" / "**not polished** with Hagerty Silver Foam" (the 262nd set) sets aside a
    polish, not the polishing."""
    if not f.contrasts:
        return 0
    verbs = {stem(f.tokens[i]) for i in predicates(f) if f.tokens[i].endswith(("ed", "en"))}
    return min(other.negations, sum(any((c & n) - verbs for n in other.negated)
                                    for c in f.contrasts))


def same_denials(a: Facets, b: Facets) -> bool:
    """Whether the two texts deny as many things (``set_aside`` counted). A text saying
    "only" where the other restricts by a denial ("**only** Priya and Ben may open them" /
    "**nobody except** Priya and Ben may", "kegged **only after** Marco signs it off" / "**no**
    batch is kegged **until** Marco signs it off") states the same restriction: those denials
    are not counted against it. So do two texts that each restrict by a denial ("**no**
    recording **unless** the union consents" / "recording is **forbidden without** the
    union's consent"): their restricting denials cancel."""
    na, nb = a.negations + set_aside(a, b), b.negations + set_aside(b, a)
    if na == nb:
        return True
    for x, y, more, fewer in ((a, b, na, nb), (b, a, nb, na)):
        if more > fewer and "only" in y.tokens and "only" not in x.tokens:
            return more - negation.restrictive(x.tokens) == fewer
    ra, rb = negation.restrictive(a.tokens), negation.restrictive(b.tokens)
    return bool(ra and rb) and na - ra == nb - rb


def affirms_aside(f: Facets, other: Facets) -> bool:
    """``other`` states what ``f`` sets aside: "posted by the shift lead, **never by the
    on-call engineer**" / "… and occasionally **by the on-call engineer**" (each holds no
    denial, so counting negations alone sees none). Or each states what the other sets aside
    with "rather than" / "instead of": "burnt **rather than stacked**" / "stacked … **rather
    than burnt**" (both ways: a rewording may add a contrast of its own, and says the other
    side in other words: "would **rather** do standups in Slack **than on video**" / "prefers
    Slack standups **over video** calls")."""
    if f.contrasts and other.contrasts:  # the first word set aside, not the words after it
        mine, theirs = frozenset().union(*f.contrasts), frozenset().union(*other.contrasts)
        if (negation.aside_heads(f.tokens) & other.stems) - theirs \
                and (negation.aside_heads(other.tokens) & f.stems) - mine:
            return True
    if not f.excluded:
        return False
    aside = frozenset().union(*other.contrasts, *other.negated)  # once: linear in the text
    return any((c & other.stems) - aside for c in f.excluded)  # any word of the phrase the
    # other states and does not set aside itself: "not in the **shared** spreadsheet" / "kept
    # in a spreadsheet", "the **blue** cabinet, not the red cabinet" / "the red cabinet, not
    # the blue cabinet"


def denies_affirmed(f: Facets, other: Facets) -> bool:
    """With as many denials each, ``f`` denies what ``other`` states outright: "junior
    stylists **cannot do blow-dries** unsupervised" / "junior stylists can do blow-dries
    unsupervised **but not colour corrections**" (one "not" each, about other things). At
    least three words of one denial stated, none of them denied or set aside by the other
    (with two, three rewordings that put the denial elsewhere were refused)."""
    if not f.negations or f.negations != other.negations or any(t.tokens[:1] in (
            ("no",), ("never",), ("nobody",), ("none",)) for t in (f, other)):  # "**No**
        # concrete may be poured …" denies the whole sentence, as "pours … are **not**
        # allowed" does
        return False
    aside = frozenset().union(*other.contrasts, *other.negated, *other.excluded)
    if any(len((d & other.stems) - aside) >= 3 for d in f.negated):
        return True
    # two words suffice when the other's denials are about nothing this text mentions: "may
    # **not draft letters**" / "may draft letters **but cannot sign them**"
    mine, theirs = _denied_after(f), _denied_after(other)
    return bool(theirs) and all(d and not d & f.stems for d in theirs) \
        and any(len(d) >= 2 and d <= other.stems for d in mine)


def no_longer(f: Facets, other: Facets) -> bool:
    """``f`` says a thing "no longer" holds that ``other``, with no "no longer" of its own,
    states outright: "carcasses **no longer need to be certified lead-free** by the Castelo
    Branco slaughterhouse" / "only carcasses **certified lead-free** by the Castelo Branco
    slaughterhouse may be used, so that birds **aren't** poisoned" (the 411th set): one denial
    each, of other things, so the count agrees. The need or duty the denial is said through
    ("need to be", "have to") is not a word of the thing denied."""
    toks = list(f.tokens)
    if "longer" in other.tokens:
        return False
    aside = frozenset().union(*other.negated, *other.contrasts, *other.excluded)
    for i in range(1, len(toks) - 1):
        if toks[i - 1] == "no" and toks[i] == "longer" and toks[i + 1] not in _STILL:
            denied = negation.after(toks, i, _DENIED) - _DUTY
            if len((denied & other.stems) - aside) >= 2:
                return True
    return False


#: "That **no longer applies**: Tomás runs …": what a request says of the note, not of the fact.
_STILL = frozenset(["applies", "apply", "true", "valid", "needed", "relevant", "correct",
                    "accurate", "current", "holds", "stands", "the"])
_DENIED = 5  # content words read after "no longer": "need to be **certified lead-free by**"
_DUTY = frozenset(stem(w) for w in ["need", "needs", "have", "has", "required", "must"])


def _denied_after(f: Facets) -> list[frozenset[str]]:
    """The words each negation word of ``f`` is followed by ("cannot **sign** them")."""
    toks = list(f.tokens)
    return [negation.after(toks, i) for i, t in enumerate(toks) if t in NEGATIONS]


def states_passed_over(f: Facets, other: Facets) -> bool:
    """``f`` sets aside a deed with "rather than" / "instead of" that ``other``, denying and
    setting aside nothing, states: "artwork files are **kept** permanently after 60 days
    **rather than deleted**" / "artwork files are **deleted** after 60 days" (the
    two-hundred-and-fifty-sixth set). Only a participle: a day set aside is the day rule's
    ("now on Thursdays **instead of Tuesdays**" corrects "on Tuesdays")."""
    if other.contrasts or other.negations:
        return False
    toks, passed = f.tokens, set()
    for i in range(len(toks) - 2):
        if (toks[i], toks[i + 1]) in (("rather", "than"), ("instead", "of")):
            head = toks[i + 2]
            if head.endswith("ed") and len(head) > _SHORT:
                passed.add(stem(head))  # a deed: a thing set aside may stand in the other
                # text in another role ("use kitchen paper **instead of coir**" / "swap from
                # coir to kitchen paper")
    return bool(passed & other.stems)


def regardless_of(f: Facets, other: Facets) -> bool:
    """``f`` holds "even when" (or "even if") what ``other`` makes a condition of: "Olivia signs
    off a door **even when** the label is missing" / "Olivia **only** signs off a door **if**
    the label is still on it", "verification goes ahead **even when** the lab is outside
    18-25 °C" / "**if** it's outside that range, postpone verification" (the
    two-hundred-and-fifty-seventh and -eighth sets)."""
    toks = f.tokens
    evens = any(t == "even" and toks[i + 1:i + 2] in (("when",), ("if",), ("though",))
                for i, t in enumerate(toks))
    return evens and "even" not in other.tokens and bool(_CONDITIONS & set(other.tokens))


_CONDITIONS = frozenset(["only", "if", "unless"])  # not "when": "… **including when**
# alongside" / "… **even when** we're alongside" say one thing


_SHORT = 4  # "used", "need": no deed of their own

"""What a forget request says about the note besides the fact: that it changed.

People rarely write "forget that X". They say the note is stale, and where they say it the
fact's words sit around it: "X — that's no longer right", "X isn't how we do it any more",
"Lars doesn't do this anymore, so remove the note about X", "No need to remember X any more",
"Priya Nair no longer makes the starch glue". Read as part of X, "no longer" and "any more"
are a negation the stored fact does not have, and the request is refused as "one says the
opposite of the other" (about a hundred rewordings of the first 196 forget sets were).

Each form here says the *note* changed, not the fact: it is either set off from the fact (a
dash, a colon, a comma before "that's …"), a clause of its own before the ask ("…, so delete
the note that"), or, in a request with no ask at all, the only negation of a plain statement.
"Forget that the shop is **no longer** closed on Mondays" keeps its "no longer": its ask says
what to forget, and what follows is the fact, negation and all (``wrappers`` reads the ask
first and calls :func:`late` and :func:`in_statement` only on what it leaves).
"""

from __future__ import annotations

import re

#: The ask itself and the kinds of note it names (``wrappers`` reads its preambles with them).
ASK = (r"(?:forget|remove|delete|drop|scrap|erase|discard|wipe|clear|unlearn|take\s+out"
       r"|get\s+rid\s+of|stop\s+remembering|no\s+need\s+to\s+remember(?:\s+any\s?more)?)")
KIND = (r"(?:note|memory|fact|rule|requirement|instruction|reminder|bit|part|entry|line|one"
        r"|restriction|plan|procedure|policy)s?")

#: Words that say a note stopped being true, not that a thing stopped happening.
_TRUE = (r"(?:true|right|valid|accurate|correct|current|needed|relevant|applicable"
         r"|the\s+(?:case|plan|rule|procedure|policy)|how\s+(?:we|it)\s+(?:do|does|work|works)"
         r"(?:\s+(?:it|things))?|our\s+(?:procedure|policy|rule|process))")
_STALE = (r"(?:changed|outdated|out\s+of\s+date|obsolete|stale|no\s+longer\s+(?:" + _TRUE
          + r"|a\s+thing|applies|holds)|(?:not|n['\u2019]t)\s+" + _TRUE + r"\s+any\s?more)")
_PRONOUN = (r"(?:(?:that|this|it)(?:\s+(?:note|memory|one|rule))?"
            r"(?:['\u2019]s|\s+is|\s+has(?:\s+been)?|\s+was)?\s+)")
_WE_STOPPED = (r"(?:we\s+(?:(?:no\s+longer|don['\u2019]t|do\s+not)\s+(?:do|need|use)\s+"
               r"(?:that|this|it)(?:\s+(?:this|that)\s+way|\s+(?:note|memory))?(?:\s+any\s?more)?"
               r"|(?:have\s+|['\u2019]ve\s+)?changed\s+(?:that|this|it|\w+)))")
_ASKED_AFTER = (r"\s*[,;.]?\s*(?:so\s+)?(?:please\s+)?" + ASK
                + r"(?:\s+(?:it|this|that|them)(?:\s+(?:note|memory))?)?(?:\s+please)?")
_ASK_TAIL = r"(?:" + _ASKED_AFTER + r")?"

#: Set off after the fact: "X — that's no longer right", "X: no longer valid", "X; we don't
#: do that anymore", "X - please forget it, that's changed" (the ask before it is
#: ``wrappers``' postamble), "X. It's no longer needed."
_LATE = re.compile(r"\s*[-\u2013\u2014,;:.]\s*(?:(?:please\s+)?" + ASK
                   + r"(?:\s+(?:it|this|that))?\s*[,;]\s*)?(?:" + _PRONOUN + r"?" + _STALE
                   + r"|" + _WE_STOPPED + r")" + _ASK_TAIL + r"\s*[.!]*\s*$", re.IGNORECASE)
#: The ask after a statement, with "so": "Stewarding … is no longer allocated by Nadia, **so
#: please wipe that note**" (the statement is what changed, not the fact to forget).
_SO_ASKED = re.compile(r"^\s*[-\u2013\u2014,;:.]?\s*so\s+(?:please\s+)?" + ASK, re.IGNORECASE)
#: Said of the fact with a copula: "X is no longer true", "X isn't how we do it any more"
#: (words said only of a statement), or any verdict with an ask after it: "X, is out of date —
#: clear it", "X are no longer valid; please forget them". Without the ask, "the scale is no
#: longer accurate" may be the fact (a request is read again after its ask is gone).
_ALWAYS = (r"(?:true|the\s+case|a\s+thing|how\s+(?:we|it)\s+(?:do|does|work|works)"
           r"(?:\s+(?:it|things))?)")
_COPULA = re.compile(r",?\s+(?:(?:(?:is|are|was|were)\s+no\s+longer|(?:is|are)(?:n['\u2019]t|\s+not))"
                     r"\s+" + _ALWAYS + r"(?:\s+any\s?more)?" + _ASK_TAIL
                     + r"|(?:is|are|was|were)\s+" + _STALE + r"\s*(?:[-\u2013\u2014]\s*)?"
                     + _ASKED_AFTER + r")\s*[.!]*\s*$", re.IGNORECASE)
#: A clause of its own before the ask, saying the note changed: "Lars doesn't do this
#: anymore, so remove the note about …", "Pricing changed: get rid of …", "No longer
#: accurate, so forget that …". The ask must name a note or "that"/"it": "the oil is changed
#: monthly, so clear the drip tray" is a fact, and saves are read with this too.
_REASON = re.compile(
    r"^\s*(?!(?:please\s+)?" + ASK + r"\b)[^:;.,\u2013\u2014]{0,60}?\b(?:changed|no\s+longer"
    r"|any\s?more|outdated|out\s+of\s+date|obsolete|not\s+" + _TRUE + r")\b"
    r"[^:;.,\u2013\u2014]{0,30}?(?:\s*[,;:\u2013\u2014-]\s*(?:so\s+)?|,?\s+so\s+)"
    r"(?=(?:please\s+)?(?:forget\b|" + ASK + r"\s+(?:(?:it|this|that|them)\b|what\s+we\b"
    r"|(?:the|this|that|our)\s+(?:[\w'-]+\s+){0,3}?" + KIND + r"\b)))", re.IGNORECASE)
#: "No need to remember …", "You no longer need to keep …", "Don't keep this any more: …".
_NO_NEED = re.compile(
    r"^\s*(?:please\s+)?(?:(?:(?:we|you)\s+)?(?:no\s+need|(?:no\s+longer|don['\u2019]t|do\s+not)"
    r"\s+need)\s+to\s+(?:remember|keep)|(?:don['\u2019]t|do\s+not)\s+keep)\b(?:\s+any\s?more)?"
    r"(?:\s+(?:(?:this|that|it)(?:\s+any\s?more)?\s*[:\u2013\u2014-]\s*"
    r"|(?:the\s+)?" + KIND + r"\s+(?:that|about|saying)\s+|that\s+)|\s+(?=\w))", re.IGNORECASE)
_FACT_WORDS = 5  # the ask and its note ("remove the note about") and at least two words more
_ANY_MORE = re.compile(r"\s+any\s?more\b(?=\s*(?:[:,;.\u2013\u2014-]|$))", re.IGNORECASE)

#: In a bare statement, the one word that says the fact stopped: "Priya Nair **no longer**
#: makes …", "Kim Okafor **isn't** running the Tuesday session **any more**".
_NO_LONGER = re.compile(r"\bno\s+longer\s+", re.IGNORECASE)
_NOT_ANY_MORE = re.compile(r"\b(is|are|was|were|do|does|did|has|have)(?:n['\u2019]t|\s+not)\b"
                           r"(.{1,120}?)\s+any\s?more\b", re.IGNORECASE)
_ASKED = re.compile(r"\b" + ASK + r"\b|:", re.IGNORECASE)
_OTHER_DENIAL = re.compile(r"\b(?:not|no|never|none|nobody|nothing|without|n['\u2019]t|cannot)\b",
                           re.IGNORECASE)


def reason(text: str) -> str:
    """``text`` without a clause before the ask saying the note changed, or without "no
    need to remember" and its "any more"."""
    cut = _REASON.sub("", text, count=1)
    if cut != text:  # the fact follows the ask; "…, so please wipe that note" is all ask
        return cut if len(cut.split()) >= _FACT_WORDS else text
    cut = _NO_NEED.sub("", text, count=1)
    return _ANY_MORE.sub("", cut, count=1) if cut != text else text


def late(text: str) -> str:
    """``text`` without a verdict said after the fact. Only its last ``_TAIL`` characters are
    read: a verdict is short, and the patterns, tried at every position of a 100,000-character
    document, cost 20-60 ms a call."""
    head, tail = text[:-_TAIL], text[-_TAIL:]
    cut = _LATE.sub("", tail, count=1)
    if cut == tail:
        cut = _COPULA.sub("", tail, count=1)
    return (head + cut).strip().rstrip(" ,;:-\u2013\u2014") or text


_TAIL = 300


def so_asked(tail: str) -> bool:
    """Whether the ask said after a statement follows from it ("…, so delete that memory")."""
    return _SO_ASKED.match(tail) is not None


def in_statement(text: str) -> str:
    """A bare statement's only negation, when it says the fact stopped ("no longer", "not …
    any more"), taken off: the request is the old fact, and the stored one says it plainly."""
    if _ASKED.search(text):  # "Remove from memory: Gareth is **no longer** the cornet": the
        return text  # fact to forget, negation and all
    for pattern, keep in ((_NO_LONGER, ""), (_NOT_ANY_MORE, r"\1\2")):
        cut = pattern.sub(keep, text, count=1)
        if cut != text:
            return text if _OTHER_DENIAL.search(cut) else cut
    return text

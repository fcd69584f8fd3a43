"""A forget request's wrapper, taken off before its words are compared with a stored fact.

"Forget that X", "Can you drop the fact that X?", "Outdated: X", "X - forget this", "For the
record, X": the words around X ask for something or label it; they are not part of the fact,
and read as part of it they would differ from every stored text ("drop" a word the fact lacks,
"no longer" a negation it does not have). Each form here is one a request used in the forget
sets (bench/forget_quality.py); the rules (``agreement``) read what is left.
"""

from __future__ import annotations

import re

from memory_mcp.services import verdicts

_PREAMBLE = re.compile(
    r"^\s*(?:(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?"  # "Can you drop the fact
    # that …?"
    r"(?:forget(?:\s+the\s+(?:fact|memory|note|rule)(?=\s+that\b)|\s+(?:this|that|it)(?=\s*:))?"
    r"|(?:remove|delete|drop|scrap|erase|discard|wipe|clear)(?:\s+(?:the\s+)?(?:fact|memory|note"
    r"|rule)s?|(?:\s+(?:this|that|it)(?:\s+one)?)?(?=\s*:)))"
    r"(?:\s+(?:that|about|saying)|(?:(?<=memory)|(?<=note)|(?<=fact))\s+of)?\s*[:,-]?\s+"
    # a label before a colon: "Outdated: …", "No longer relevant: …" (whose "no" is no negation
    # of the fact)
    # ("that's outdated: …" too)
    r"|(?:(?:that|this|it)(?:['\u2019]s|\s+is)\s+)?"
    r"(?:outdated|obsolete|stale|no\s+longer\s+(?:true|relevant|valid|accurate|the\s+(?:case|rule))"
    r"|not\s+(?:true|valid|accurate|relevant|the\s+case)\s+any\s?more)\s*:\s*"
    # a note's label: "For the record, …", "Quick note: …", "Just to confirm, …"
    r"|(?:for\s+the\s+record|(?:quick\s+)?note|fyi|(?:just\s+)?to\s+confirm|reminder"
    r"|heads\s+up)\s*[:,-]\s*)", re.IGNORECASE)


#: "forget the fume hood note: face velocity …": the note's topic stays, its wrapper goes;
#: so does a topic with no such word ("Please delete the stocking rates: two hives an acre",
#: ``_TOPIC_PLAIN``), without a word that only names the kind of note ("Delete the loan
#: **rule**: puzzles …", "Remove the **rule**: never …").
_TOPIC_NOTE = re.compile(r"^\s*(?:please\s+)?(?:forget|remove|delete|drop|scrap|erase|wipe"
                         r"|get\s+rid\s+of)\s+(?:the|my|our)\s+(?:([\w\s-]{1,40}?)\s+)?"
                         r"(?:note|memory|fact)\s*[:\u2013\u2014]\s*", re.IGNORECASE)
_TOPIC_PLAIN = re.compile(r"^\s*(?:please\s+)?(?:forget|remove|delete|drop|scrap|erase|wipe"
                          r"|get\s+rid\s+of)\s+(?:the|my|our)\s+([\w\s'\u2019.-]{1,50}?)\s*:\s+",
                          re.IGNORECASE)
_KINDS = frozenset("""note notes memory memories fact facts rule rules requirement instruction
reminder bit entry one restriction procedure policy info thing""".split())  # noqa: SIM905
#: The last word of a topic that only says what kind of detail follows ("the girth strap
#: stitching **spec**: …", "the fleet night-wash **schedule**: …").
_LABELS = frozenset("""spec specs memo split schedule details setup settings routine terms
arrangement arrangements process price prices pricing""".split())  # noqa: SIM905
#: What a request calls the stored note before its words, as the blind sets' requests did:
#: "Scrap **what we saved about** …", "Erase **what we have on** …", "Clear out **the memory
#: about** …", "Scrap **the thing about** …", "Can you remove **that** …" (a question: "remove
#: that" alone may be an instruction a note records, and saves are read with this too).
_SAVED = re.compile(
    r"^\s*(?:(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?"
    r"(?:forget|remove|delete|drop|scrap|erase|discard|wipe|clear(?:\s+out)?|bin|take\s+out"
    r"|get\s+rid\s+of)\s+"
    r"(?:(?:what|everything|anything)\s+(?:we|you|i)(?:['\u2019]ve)?\s+(?:have|had|saved|stored"
    r"|noted|said|wrote|recorded|kept|got|know)(?:\s+(?:down|saved|stored))?\s+(?:about|on"
    r"|regarding)|(?:the\s+)?(?:thing|info|information|bit|memory|note|fact)\s+(?:about|on|that))"
    r"|(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:forget|remove|delete|drop|scrap|erase)"
    r"\s+that)\s+", re.IGNORECASE)


def strip_preamble(text: str) -> str:
    """'forget that X' → 'X', 'forget the fume hood note: X' → 'fume hood X': the request's
    wrapper is not part of the fact."""
    topic = _TOPIC_NOTE.match(text) or _TOPIC_PLAIN.match(text)
    if topic is not None and text[topic.end():].strip():
        named = (topic.group(1) or "").split()
        if named and topic.re is _TOPIC_PLAIN and named[-1].lower() in _KINDS | _LABELS:
            named.pop()  # "the loan **rule**: puzzles go out …": its topic, not its kind
        if topic.re is _TOPIC_NOTE and all(w.lower() in _LABELS for w in named):
            named = []  # "drop the **price** note: turkey quills £14 …" (the 281st set)
        if topic.re is _TOPIC_NOTE or not (named and named[0].lower() in _KINDS):  # "the
            # note about …:" is the ask's, which ``_unwrap`` reads
            return f"{' '.join(named)} {text[topic.end():].strip()}".strip()
    unwrapped = _unwrap(text)
    if unwrapped == text:  # "Lars doesn't do this any more, **so remove** the note …"
        unwrapped = _unwrap(told := verdicts.reason(text))
        unwrapped = told if unwrapped == told else unwrapped
    if unwrapped != text:  # "That's changed: **forget that** …": a verdict, then the ask
        unwrapped = _unwrap(unwrapped.lstrip())
    bare = unwrapped == text  # nothing before the fact asked or judged
    stripped = _POSTAMBLE.sub("", unwrapped).strip()
    tail = unwrapped.strip()[len(stripped):]
    if tail:  # "**The rule that** … — drop it."
        stripped = _NAMED.sub("", stripped, count=1)
    judged = verdicts.late(stripped)  # "… — that's no longer right"
    if judged != stripped:
        stripped = _NAMED.sub("", _POSTAMBLE.sub("", judged).strip(), count=1)
    elif bare and verdicts.so_asked(tail):  # "Priya **no longer** makes the glue, so forget
        stripped = verdicts.in_statement(stripped)  # that" (with no "so" the statement may
        # be the fact itself, and a request already read is read again: "forget that X no
        # longer Y" → "X no longer Y" must stay)
    if _NO_NEED_AT.match(text):  # "We don't need the note on X **any more**", "… any more: X"
        stripped = _ANY_MORE.sub(" ", stripped, count=1).strip().rstrip("-\u2013\u2014 ")
        # a dash left at the end is read as the request's own, as a second reading would
    if stripped and unwrapped != text and _ASKED.match(text):
        stripped = stripped.rstrip("?").rstrip()  # "Can you drop the fact that …?"
    return stripped or text.strip()


#: What else people put before the fact, as forget requests in the blind sets did:
#: a verdict ("That's changed:", "That's no longer how it works —", "No longer accurate, forget
#: it:"), a reason ending in the ask ("We reorganised, so delete:", "That's changed, so drop the
#: note that …") or the ask naming what kind of note it is ("Drop the requirement that …",
#: "Remove the instruction to …", "Please delete that …"). A verdict opens with its own words
#: (that's, this is, no longer, not true) and ends at a colon or a dash; a reason must end in
#: the ask, so "We use the following tools: …" keeps its words.
_ASK, _KIND = verdicts.ASK, verdicts.KIND  # the ask and the kinds of note, as verdicts reads them
_VERDICT = (r"(?:(?:that|this|it)(?:\s+(?:rule|memory|note|fact|one))?(?:['\u2019]s|\s+is"
            r"|\s+has)\b[^:;.]{0,40}?\b(?:changed|outdated|obsolete|old|wrong|gone|sorted|stale"
            r"|incorrect|over|no\s+longer|not|any\s?more|out\s+of\s+date)\b|no\s+longer"
            r"|out\s+of\s+date|not\s+(?:true|valid|accurate|right"
            r"|needed|relevant|current|applicable|the\s+case))")
_REASON = r"(?:(?:that|this|it|we)\b[^:;.]{0,60}?,\s*(?:so\s+)?)"
#: A reason before an ask with no colon after it must say the note changed: "That's no longer
#: right, so forget the Blue Line headways …", not "It is cold, so remove the covers".
_CHANGED = (r"(?:(?:that|this|it|we)\b[^:;.]{0,40}?\b(?:changed|sorted|moved|reorgani[sz]ed"
            r"|outdated|wrong|updated|switched|stopped|gone|no\s+longer|not\s+true)\b"
            r"[^:;.]{0,30}?,\s*(?:so\s+)?)")
#: "We no longer need this:", "We don't need the memory about …", "We don't need to keep
#: this:" (20 of 28 such requests in the first 166 forget sets kept their wrapper).
_NO_NEED = r"(?:we\s+)?(?:no\s+longer|don['\u2019]t|do\s+not)\s+need\s+(?:to\s+keep\s+)?"
_NO_NEED_AT = re.compile(r"^\s*" + _NO_NEED, re.IGNORECASE)
#: The "any more" of such a request, after the fact or before a colon that opens it: "We don't
#: need the note on Kenji checking the pads **any more**" (the 282nd to 286th sets' requests).
_ANY_MORE = re.compile(r"\s*,?\s+any\s?more\s*(?::\s*|[.!]*\s*$)", re.IGNORECASE)
_LABEL = re.compile(
    r"^\s*(?:" + _VERDICT + r"[^:;.\u2013\u2014]{0,40}?(?:,\s*(?:so\s+)?(?:please\s+)?" + _ASK
    + r"(?:\s+(?:it|this|that))?)?\s*[:\u2013\u2014]\s*"
    r"|" + _REASON + r"(?:please\s+)?" + _ASK
    + r"(?:\s+(?:it|this|that|this\s+one|the\s+old\s+one))?\s*:\s*"
    r"|" + _CHANGED + r"?(?:please\s+)?" + _ASK + r"\s+(?:(?:the\s+|this\s+)?(?:[a-z][\w-]*\s+)?"
    + _KIND
    + r"\s+(?:that|about|to|saying|of)|that)\s+"
    r"|" + _CHANGED + r"(?:please\s+)?" + _ASK + r"\s+"
    r"|" + _NO_NEED + r"(?:(?:this|that|it)(?:\s+any\s?more)?\s*[:\u2013\u2014]\s*"
    r"|(?:the\s+)?" + _KIND + r"(?:\s+any\s?more)?\s+(?:that|about|saying|on)\s+))",
    re.IGNORECASE)


def _unwrap(text: str) -> str:
    unwrapped = _PREAMBLE.sub("", text, count=1)
    if unwrapped == text:
        unwrapped = _SAVED.sub("", text, count=1)
    return _LABEL.sub("", text, count=1) if unwrapped == text else unwrapped


#: The note named before the ask that ends the request: "**The rule that** … — drop it."
_NAMED = re.compile(r"^(?:the\s+)?(?:note|memory|fact|rule|requirement|instruction|reminder)"
                    r"\s+(?:that|about|saying)\s+", re.IGNORECASE)


_ASKED = re.compile(r"\s*(?:can|could|would|will)\s+you\b", re.IGNORECASE)


#: The request said after the fact: "… through the Shopify checkout **- forget this**".
_POSTAMBLE = re.compile(r"\s*[-\u2013\u2014,;:(.]\s*(?:so\s+)?(?:please\s+)?(?:(?:forget|remove|delete"
                        r"|drop)(?:\s+(?:this|that|it))?|" + verdicts.ASK + r"\s+(?:the|this|that)"
                        r"\s+(?:note|memory))(?:\s+please)?\s*[.!)]*\s*$", re.IGNORECASE)

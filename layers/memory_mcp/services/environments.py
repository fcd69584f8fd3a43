"""Which environments a text names: "staging", "the **live** network", "the **test** PACS
archive", "the Opera PMS **training** environment".

Apart from ``services/facets.py`` because telling an environment from the same word used
otherwise ("goes live", "live chat", "a gas **test** every 30 minutes") needs its own small
lexicon and look at the neighbouring words, and ``facets`` only needs the answer.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from memory_mcp.services.lexicon import ENVIRONMENTS, NAMED_ENVIRONMENTS, SYSTEM_NOUNS
from memory_mcp.services.stems import content_word, stem

if TYPE_CHECKING:  # facets reads environments with this module
    from memory_mcp.services.facets import Facets


def environments(lower: list[str]) -> frozenset[str]:
    """The environments a text names; "the **live** network" is production, but "goes live",
    "live chat" and "they live in" name none."""
    out = {ENVIRONMENTS[w] for i, w in enumerate(lower) if w in ENVIRONMENTS
           and (w not in _TEST_WORDS or _test_environment(lower, i))}
    for i, w in enumerate(lower):
        if w in NAMED_ENVIRONMENTS and ((lower[i + 1:i + 2] and lower[i + 1] in SYSTEM_NOUNS)
                                        or lower[max(0, i - 2):i] == ["environment", "for"]):
            out.add(w)  # "the Opera PMS **training** environment", "… environment for training"
        if w == "live" and i < len(lower) - 1 and (i == 0 or lower[i - 1] not in _NO_LIVE) \
                and lower[i + 1] not in _NOT_LIVE and content_word(lower[i + 1]):
            out.add("production")
    out.update(f"{w} shift" for i, w in enumerate(lower) if w in _SHIFTS and (
        _SHIFT_WORDS & set(lower[i + 1:i + 3]) or _crew(lower, i)))  # "on the **night
    # shift**", "the night dispatch shift", "**day scouts** drive the inventory"
    return frozenset(out)


#: Words before a crew named by its shift: the text's start or a determiner.
_CREW_OPENERS = frozenset(["the", "our", "a", "an", "all", "each", "every", "both", "any"])
#: Nouns for the people a shift is made of.
_CREW_NOUNS = frozenset(["staff", "crew", "crews", "team", "teams", "workers", "people"])


def _crew(lower: list[str], i: int) -> bool:
    """"**day** scouts", "the **night** porter": a day or night shift named by its people (a
    plural or a word in -er / -or / -ist, or a crew noun), opening its phrase. Not "every
    **night** run" nor "one **day** ahead" (a time)."""
    if lower[i] not in ("day", "night") or (i and lower[i - 1] not in _CREW_OPENERS) \
            or i + 1 >= len(lower):
        return False
    nxt = lower[i + 1]
    return content_word(nxt) and (nxt in _CREW_NOUNS or nxt.endswith(("ers", "ors", "ists",
                                                                      "er", "or", "ist"))
                                  or (nxt.endswith("s") and not nxt.endswith("ss")
                                      and i + 2 < len(lower) and content_word(lower[i + 2])))
    # a plural with its verb after it ("day **scouts drive**"), not "before the day **ends**"


#: Shifts a team's work is split into: "the **day** shift" and "the **night** shift" are two
#: crews, as staging and production are two systems.
_SHIFT_WORDS = frozenset(["shift", "shifts"])
_SHIFTS = frozenset(["day", "night", "early", "late", "morning", "afternoon", "evening",
                     "swing", "graveyard", "weekend", "overnight"])


_TEST_WORDS = frozenset(["test", "testing"])


def _test_environment(lower: list[str], i: int) -> bool:
    """"the **test** PACS archive", "deployed to **test**", "the SYNOP **test** feed" name an
    environment; "we load **test** at 125 %", "a gas **test** every 30 minutes" name a check:
    a kind of test (a content word before it) that ends its phrase (none after it)."""
    after = lower[i + 1] if i + 1 < len(lower) else ""
    before = lower[i - 1] if i else ""
    return not (content_word(before) and before not in ENVIRONMENTS
                and not content_word(after))


#: "live" is the production environment before a noun ("the **live** network", "Bikes'
#: **live** website"), not after these ("goes live", "they live in") nor before a medium
#: ("live **chat**").
_NO_LIVE = frozenset(["go", "goes", "went", "gone", "going", "i", "we", "you", "they", "he",
                      "she", "who", "to", "will", "can", "still"])
_NOT_LIVE = frozenset(["chat", "stream", "streams", "streaming", "demo", "event", "events",
                       "music", "show", "broadcast", "support", "agent", "agents", "session"])


#: Nouns of a machine or store that a fact may be held on ("on the **backup server**").
_HOSTS = frozenset("""server servers database databases cluster clusters instance instances
tenant vm host machine""".split())  # noqa: SIM905


def added_system(a: Facets, b: Facets) -> str | None:
    """The system the request ``a`` puts its fact on when the stored ``b`` names none and no
    word of it: "message texts **on the backup server** are kept for 90 days" / "customer
    message texts are kept for 90 days" (the two-hundred-and-fifty-sixth set). A fact said of
    one machine is not the fact said of all. Else None."""
    toks = a.tokens
    if _HOSTS & set(b.tokens):
        return None
    for i in range(1, len(toks) - 2):
        if toks[i] in ("on", "in") and toks[i + 1] in ("the", "our") and toks[i + 3:i + 4] \
                and toks[i + 3] in _HOSTS and content_word(toks[i + 2]) \
                and stem(toks[i + 2]) not in b.stems:
            return " ".join(toks[i + 2:i + 4])
    return None


#: Words that hold a meeting or a lesson over a network rather than in a room.
_ONLINE = frozenset(["online", "virtual", "virtually", "zoom", "webinar"])  # not "teams" (the
# dispatch teams) nor "remote" (a remote farm)
#: Nouns of a room or a building a meeting or a lesson is held in.
_ROOMS = frozenset("""room rooms hall studio office shop workshop library church chapel centre
center clubhouse barn kitchen classroom pavilion gallery""".split())  # noqa: SIM905
_ROOM_REACH = 3


def online_or_on_site(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("online", "in room 3b") where one text holds a meeting or lesson online and the other,
    with no word of a network, in a room or hall: "Aoife gives **online** piccolo lessons on
    Tuesdays" / "piccolo lessons … run on Tuesdays **in Room 3B**" (the 282nd and 284th sets);
    or ``a`` alone says it is online. Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        said = _online(x.tokens)
        if not said or _online(y.tokens):
            continue
        room = _room(y.tokens)
        if room is not None:
            found = (sorted(said)[0], room)
            return (found[1], found[0]) if flip else found
        if not flip:  # the request (or a new save) alone holds it online: "runs **online**
            # sessions for school groups" / "opens to school groups" (the 316th set)
            return sorted(said)[0], "no such setting"
    return None


def _online(toks: tuple[str, ...]) -> set[str]:
    """The words by which a text holds a thing online: "online", "**online-only** auction",
    "by **video call**" (the 402nd and 406th sets)."""
    said = {t for t in toks if t in _ONLINE or t.split("-")[0] in _ONLINE}
    return said | {f"video {n}" for v, n in pairwise(toks)
                   if v == "video" and n in _CALLS}


_CALLS = frozenset(["call", "calls", "link", "consultation", "consultations", "conference"])


def _room(toks: tuple[str, ...]) -> str | None:
    """The first "in <the …> room / hall" or "in person" of a text, as written; "for <…>
    rooms" too ("**for wet rooms** we use the Kerdi membrane" / "for outdoor terraces …", the
    410th set)."""
    for i, t in enumerate(toks[:-1]):
        if t == "in" and toks[i + 1] == "person":
            return "in person"
        if t in ("in", "for"):
            end = next((j for j in range(i + 1, min(i + 1 + _ROOM_REACH, len(toks)))
                        if toks[j] in _ROOMS), None)
            if end is not None:
                code = end + 1 < len(toks) and any(c.isdigit() for c in toks[end + 1])
                return " ".join(toks[i:end + 1 + code])  # "in Room **3B**"
    return None


def outdoors_or_in(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("outdoors", "in the church hall") where one text holds a thing outdoors and the other,
    with no word of the open air, in a room or hall; or indoors against a car park, a field or
    a lawn: "puppy class … **outdoors** on the field behind the church hall" / "… **in the
    church hall**", "held **indoors** at the allotments" / "… **on the allotment car park**"
    (the 305th, 323rd and 324th sets). Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        toks_x, toks_y = set(x.tokens), set(y.tokens)
        if (_OUTDOORS | _INDOORS) & toks_y:
            continue  # the other text says a setting of its own: the setting rules' case
        for words, place in ((_OUTDOORS, _room), (_INDOORS, _open_air)):
            said, where = words & toks_x, place(y.tokens)
            if where is None and place is _room:
                where = _covered(y.tokens, toks_x)
            if said and where is not None:
                found = (sorted(said)[0], where)
                return (found[1], found[0]) if flip else found
    return None


def indoor_kind(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("the indoor winter market", "the market") where the request puts "indoor" or "outdoor"
    (and one more word of its own at most) between an article and a noun the stored text says
    right after an article, and the stored text names no setting of the kind: "generators are
    banned **at the indoor winter market**" / "… banned **at the market**" (the 357th set), a
    narrower fact. Read from the request's side, as every narrowing is."""
    toks, other = a.tokens, b.tokens
    if (_OUTDOORS | _INDOORS) & set(other):
        return None
    bare = {other[j] for j in range(1, len(other)) if other[j - 1] in ("the", "a", "an")}
    for i in range(1, len(toks) - 1):
        if toks[i] not in _OUTDOORS | _INDOORS or toks[i - 1] not in ("the", "a", "an"):
            continue
        for k in (i + 1, i + 2):
            if k < len(toks) and toks[k] in bare and content_word(toks[k]) \
                    and all(w not in other for w in toks[i + 1:k]):
                return " ".join(toks[i - 1:k + 1]), f"the {toks[k]}"
        if i + 1 < len(toks) and content_word(toks[i + 1]) and toks[i + 1] not in other \
                and (i + 2 == len(toks) or not content_word(toks[i + 2])):
            return " ".join(toks[i - 1:i + 2]), "(no setting)"  # "rinks 1 to 3 **on the
            # indoor green**" / "Rinks 1 to 3 are reserved …" (the 381st set)
    return None


def _covered(toks: tuple[str, ...], other: set[str]) -> str | None:
    """The first "at the Eastside Rec Center **gym**", "from our Liguria **greenhouse**" of a
    text whose gym or greenhouse the other text does not name ("… on the outdoor courts at
    Eastside Rec Center", "… from our outdoor beds in Liguria": the 328th and 333rd sets)."""
    for i, t in enumerate(toks):
        if t in _COVERED and t not in other:
            start = next((j for j in range(i - 1, max(-1, i - _COVERED_REACH - 1), -1)
                          if toks[j] in ("at", "in", "from", "inside")), None)
            if start is not None:
                return " ".join(toks[start:i + 1])
    return None


_COVERED = frozenset(["gym", "gymnasium", "gyms", "greenhouse", "greenhouses", "glasshouse",
                      "polytunnel", "polytunnels", "arena"])  # "at Westfield **Arena**" / "on
# the outdoor rink at Westfield" (the 372nd set)
_COVERED_REACH = 5


def _open_air(toks: tuple[str, ...]) -> str | None:
    """The first "car park", "field", "lawn" or "yard" a text names, as written."""
    for i, t in enumerate(toks):
        if t in _OPEN_AIR or (t == "park" and i and toks[i - 1] == "car"):
            return " ".join(toks[max(0, i - 1):i + 1])
    return None


_OUTDOORS = frozenset(["outdoors", "outdoor", "open-air", "alfresco"])  # not "outside office
# hours", nor "inside the crown"
_INDOORS = frozenset(["indoors", "indoor"])
_OPEN_AIR = frozenset(["field", "lawn", "yard", "courtyard", "paddock", "meadow", "beach"])


def on_site_or_in(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("on customer sites", "in workshop 2") where one text does a job at the customer's and
    the other, saying no such thing, in its own workshop or room: "**on customer sites**
    commutators are skimmed …" / "commutators are skimmed **in workshop 2** …" (the 430th
    set). Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        said = _on_site(x.tokens)
        if said is None or _on_site(y.tokens) is not None:
            continue
        room = _room(y.tokens)
        if room is not None and room not in " ".join(x.tokens):
            found = (said, room)
            return (found[1], found[0]) if flip else found
    return None


_CUSTOMERS = frozenset(["customer", "customers", "customer's", "customers'", "client",
                        "clients", "client's", "clients'"])


def _on_site(toks: tuple[str, ...]) -> str | None:
    """The text's "on site", "on-site", "on customer sites" or "at the client's premises" (a
    customer's word needed after "at": "at the site" is any site)."""
    for i, t in enumerate(toks):
        if t in ("on-site", "onsite"):
            return t
        if t not in ("on", "at"):
            continue
        j = i + 1 + (toks[i + 1:i + 2] == ("the",))
        customer = j < len(toks) and toks[j] in _CUSTOMERS
        k = j + customer
        if k < len(toks) and toks[k] in ("site", "sites", "premises") \
                and (customer or (t == "on" and k == i + 1)):
            return " ".join(toks[i:k + 1])
    return None

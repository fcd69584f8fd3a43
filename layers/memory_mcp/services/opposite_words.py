"""The lexicon of opposite words that ``opposites`` reads: pairs of sides, each side the forms
a team's facts use, and the prefixes that turn a word into its opposite. Apart from the rules
because it is data, and grows with every set that finds a pair the rules did not know
("arrives" / "leaves for")."""

from __future__ import annotations

from functools import lru_cache

# One line per pair: the forms of one side, "|", the forms of the other. Forms are written
# out (not stemmed) so a noun that shares a stem ("option" / "optional") is not read as one.
STATES = """
enable enables enabled enabling turn_on switch_on | disable disables disabled disabling turn_off
  switch_off
allow allows allowed allowing permit permits permitted permitting approve approves approved
  approving accept accepts accepted accepting | deny denies denied denying block blocks blocked
  blocking forbid forbids forbidden forbidding reject rejects rejected rejecting refuse refuses
  refused refusing prohibit prohibits prohibited prohibiting ban bans banned banning decline
  declines declined declining
increase increases increased increasing raise raises raised raising rise rises risen
  rising grow grows grew grown growing higher more | decrease decreases decreased decreasing
  reduce reduces reduced reducing lower lowers lowered lowering fall falls fell fallen falling
  drop drops dropped dropping shrink shrinks shrank shrunk shrinking less fewer cut cuts cutting
before prior earlier early until_ beforehand | after later late afterwards afterward
above over exceeds exceed exceeding | below under
minimum least | maximum max most
all every | some several few at_least_one
each | some several few
double doubles doubled doubling | halve halves halved halving
every each | every_other alternate
always | sometimes occasionally rarely seldom
required requires require mandatory compulsory | optional optionally
manual manually | automatic automatically automated auto
public | private
same | opposite different
up_main up_line up_fast up_slow up_relief | down_main down_line down_fast down_slow down_relief
internal internally | external externally
online | offline
visible shown | hidden invisible omitted
success successful successfully succeed succeeds succeeded pass passes passed passing |
  fail fails failed failing failure failures
synchronous synchronously sync | asynchronous asynchronously async
include includes included including | exclude excludes excluded excluding
high | low
long longer | short shorter
extend extends extended extending lengthen lengthens lengthened lengthening | shorten shortens
  shortened shortening
fast faster quick quickly | slow slower slowly
heavy heavier | light lighter
large larger big bigger greater | small smaller
warm warmer hot hotter heat body_temperature | cold colder chilled refrigerated
old older | new newer
cheap cheaper | expensive
true | false
free complimentary | paid pay pays charged chargeable
first | last final
whichever_first | whichever_last
positive positives | negative negatives
armed alarmed | disarmed unarmed
kept_in | removed_from
vote_for | vote_against
earliest oldest | latest newest
encrypted | decrypted plaintext
refundable | forfeit forfeits forfeited non-refundable nonrefundable
in_service in_use | retire retires retired retiring decommission decommissions decommissioned
  out_of_service out_of_use withdrawn binned scrapped discarded
alone solo | pairs twos
lenient laxer | strict stricter strictest
valid | expired invalid lapsed obsolete
stocked | discontinued
kept_for | discard discards discarded discarding
surcharge surcharges surcharged mark_up | discount discounts discounted
keep keeps keeping | lose loses losing lost forfeit forfeits forfeited forfeiting
dilute dilutes diluted diluting | concentrate concentrates concentrated concentrating
refund refunds refunded refunding | reject rejects rejected rejecting deny denies denied
  denying decline declines declined declining
live | pre-recorded prerecorded recorded taped
strong stronger strongest | weak weaker weakest
behind | front ahead
behind | before
daytime daylight | night nights nighttime overnight
upright vertical | flat horizontal lying
unless | even_if
unless | only_if
unless | whenever
inside within | outside
unanimous unanimously | majority
go_ahead | cancel cancels cancelled canceled cancelling canceling called_off on_hold
booked confirmed | cancelled canceled called_off
brighten brightens brightened brightening | dim dims dimmed dimming
permanent permanently | seasonal temporary temporarily
impose imposes imposed imposing | lift lifts lifted lifting
editable | read-only readonly
in_warranty under_warranty | out_of_warranty
live energised energized | de-energised de-energized deenergised deenergized isolated
reusable re-usable reused | single_use single-use disposable
put_on placed_on | released_from
stay_on | take_off
may_keep | remove removes removed removing
in_place | lift lifts lifted lifting
only_if | even_if
limited_to restricted_to confined_to | exclude excludes excluded excluding
accrue accrues accrued accruing | reverse reverses reversed reversing
merge merges merged merging | split splits splitting unmerge unmerges unmerged
day_of same_day | day_after next_day following_day
publish publishes published publishing | withdraw withdraws withdrew withdrawn withdrawing
  unpublish unpublishes unpublished
together_with | separate_from
submit submits submitted submitting resubmit resubmits resubmitted resubmitting | withdraw withdraws
  withdrew withdrawn withdrawing
retain retains retained retaining kept_on_file kept_in | shred shreds shredded shredding destroy destroys
  destroyed destroying
"""

EVENTS = """
upload uploads uploaded uploading | download downloads downloaded downloading
import imports imported importing | export exports exported exporting
push pushes pushed pushing | pull pulls pulled pulling
inbound incoming ingress | outbound outgoing egress
input inputs | output outputs
read reads reading read-only readonly | write writes wrote written writing
start starts started starting begin begins began begun beginning | stop stops stopped
  stopping end ends ended ending finish finishes finished finishing shut_off shut_down
feed feeds fed feeding | fasts fasted fasting
open opens opened opening reopen reopens reopened reopening unseal unseals unsealed | close
  closes closed closing shut shuts shutting seal seals sealed sealing locked
run runs running | shut_down switch_off turn_off stopped idle idling
grant grants granted granting issue issues issued issuing | revoke revokes revoked revoking
  cancel cancels cancelled canceled cancelling canceling withdraw withdraws withdrew withdrawn
add adds added adding place places placed placing put puts putting apply applies applied
  applying install installs installed installing fit fits fitted fitting refit refits refitted
  refitting reinstall reinstalls reinstalled reinstalling | remove removes
  removed removing delete deletes deleted deleting dropped
lock locks locked locking double-locked | unlock unlocks unlocked unlocking release releases released
inflate inflates inflated inflating pump_up blow_up | deflate deflates deflated deflating
collect collects collected collecting pick_up | drop_off deliver delivers delivered delivering
go_on come_on put_on wear wears wore wearing | come_off go_off take_off switch_off turn_off
charge charges charged charging | refund refunds refunded refunding
capture captures captured capturing | release releases released releasing
fill fills filled filling refill refills refilled refilling flood floods flooded flooding |
  empty empties emptied emptying pump_out drain drains drained draining
connect connects connected connecting reconnect reconnects reconnected reconnecting
  | disconnect disconnects disconnected disconnecting
subscribe subscribes subscribed | unsubscribe unsubscribes unsubscribed
hand_out give_out lend lends lent lending | return returns returned returning hand_back
  give_back hand_in
working_hours business_hours office_hours | after_hours off_hours
peak_hours rush_hours | after_hours off-peak offpeak
from_clock | until_clock
arrive arrives arrived arriving return returns returned returning | depart departs departed
  departing leaves_for leave leaves leaving
stay stays stayed staying remain remains remained | leave leaves leaving
enter enters entered entering | exit exits exited exiting leave leaves leaving
discontinue discontinues discontinued discontinuing | reintroduce reintroduces reintroduced
  reintroducing relaunch relaunches relaunched
upgrade upgrades upgraded upgrading update updates updated updating | downgrade downgrades
  downgraded downgrading
postpone postpones postponed postponing defer defers deferred deferring delay delays delayed
  delaying | bring_forward move_forward
eastbound | westbound
northbound | southbound
north | south
east | west
upstream | downstream
pause pauses paused pausing suspend suspends suspended suspending | resume resumes resumed
  resuming
across | along
left_side left-hand lefthand | right_side right-hand righthand
clockwise | anticlockwise counterclockwise anti-clockwise counter-clockwise
forecast forecasts forecasted predicted | measured observed fallen
parallel | perpendicular right_angles crosswise
go_forward spring_forward | go_back fall_back
face_up | face_down
face_in | face_out
continue continues continued continuing carry_on | stop stops stopped stopping halt halts
  halted halting
quarantine quarantines quarantined quarantining | release releases released releasing
forward forwards | reverse reverses reversed reversing backward backwards
black | white
"""

#: Words before a clock time that say which side of it a rule holds: "by 21:00" is before it,
#: "served from 06:30" starts there and "served until 06:30" ends there.
CLOCK_SIDES = {"by": "before", "from": "from_clock", "until": "until_clock",
               "till": "until_clock"}


#: Prefixes that turn a word into its opposite with the rest unchanged: "**over**voltage" /
#: "**under**voltage", "**pre**-op" / "**post**-op", "**in**doors" / "**out**doors".
_PREFIX_PAIRS = (("over", "under"), ("under", "over"), ("pre", "post"), ("post", "pre"),
                 ("hyper", "hypo"), ("hypo", "hyper"), ("up", "down"), ("down", "up"),
                 ("in", "out"), ("out", "in"))
_PREFIXED_REST = 4  # "overvoltage" has a word after its prefix; "into" / "onto" do not


def turned_prefix(word: str) -> str | None:
    """The word with its opposite prefix ("overvoltage" → "undervoltage"), or None. Only a
    pair both texts write is read: "income" is no opposite of "outcome" unless one text has
    each, and then they differ anyway."""
    for mine, other in _PREFIX_PAIRS:
        rest = word[len(mine):]
        if word.startswith(mine) and len(rest.lstrip("-")) >= _PREFIXED_REST:
            return other + rest
    return None


def same_side(x: str, y: str) -> bool:
    """Whether two different words are forms of one side of a pair ("shuts" / "closes",
    "removed" / "deleted", "complimentary" / "free"): one meaning, reworded. Words of degree
    or amount are left out ("several" / "few", "warm" / "hot", "bigger" / "greater"), as a
    near miss may turn one into the other."""
    if x == y or x in _DEGREE or y in _DEGREE or x.endswith(("er", "est")) \
            or y.endswith(("er", "est")):
        return False
    return bool(_side_of().get(x, frozenset()) & _side_of().get(y, frozenset()))



def other_side(x: str, y: str) -> bool:
    """Whether ``x`` and ``y`` are forms of the two sides of one pair ("heat" / "cold", "high"
    / "low"), degree words included."""
    sx, sy = _side_of().get(x, frozenset()), _side_of().get(y, frozenset())
    return any(s // 2 == t // 2 and s != t for s in sx for t in sy)

#: Forms of a side that say how much, how far or how hot rather than what.
_DEGREE = frozenset("""more less fewer most least max maximum minimum min some several few all
every at_least_one high low long short fast quick quickly slow slowly heavy light large big
small warm hot cold chilled body_temperature old new early late first last earliest latest
oldest newest strong weak always sometimes occasionally rarely seldom""".split())  # noqa: SIM905


@lru_cache(maxsize=1)
def _side_of() -> dict[str, frozenset[int]]:
    """Form → the sides (numbered over both blocks) it is a form of."""
    out: dict[str, set[int]] = {}
    n = 0
    for block in (STATES, EVENTS):
        for pair in (p for p in block.replace("\n  ", " ").strip().splitlines() if p.strip()):
            for forms in pair.split("|"):
                for form in forms.split():
                    out.setdefault(form, set()).add(n)
                n += 1
    return {k: frozenset(v) for k, v in out.items()}



@lru_cache(maxsize=1)
def opposed_forms() -> frozenset[str]:
    """Every form of every side, for a rule that first asks whether a word has an opposite."""
    return frozenset(_side_of())

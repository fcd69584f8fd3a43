"""Do two texts state the same fact? The agreement rules a wrong forget or version cannot pass.

Embedding similarity alone cannot tell "Bob prefers dark mode" from "Alice prefers dark mode":
with the local model such near misses score 0.65-0.97, higher than many true rewordings
(bench/forget_quality.py). So forgetting by content, and turning a save into a new version, also
require the two texts to *agree* on what embeddings blur: who (names, identifiers), which
environment, which thing of a kind ("payments team" vs "platform team"), how much (numbers,
durations), when (weekdays, months) and whether (negation, opposite words).

A conflict is a *subject* conflict when the texts are about different things, and a *value*
conflict when they say different things about the same thing. Forget refuses on either; save
refuses to version only on a subject conflict, since a changed value ("deploys move from Friday
to Thursday") is exactly what a new version records.
"""

from __future__ import annotations

from memory_mcp.services import (
    bounded,
    clauses,
    counted,
    denials,
    environments,
    framed,
    place_phrase,
    ranged,
    recounted,
    routes,
    rule_groups,
    schedules,
    spelled,
    subjects,
    swapped_nouns,
    teams,
    things,
    values,
    wording,
    workdays,
)
from memory_mcp.services.conflict import Conflict, quoted, shown_numbers
from memory_mcp.services.facets import LONG_TEXT, facets
from memory_mcp.services.names_found import unmatched_names
from memory_mcp.services.order_conflicts import order_conflicts
from memory_mcp.services.wrappers import strip_preamble

__all__ = ["Conflict", "conflicts", "strip_preamble"]


def conflicts(request: str, stored: str) -> list[Conflict]:
    """Every reason ``request`` and ``stored`` are not the same fact (empty: they agree).

    When either text is long (``LONG_TEXT``), the two are first compared as sets of words,
    exactly: more than ``wording.LONG_ALLOWANCE`` words apart, they are different texts and
    the rules are not read. Long texts agree only when nearly word for word the same anyway
    (the ``long`` rule), and reading the rules over two 100,000-character texts took ~3 s a
    pair, in the event loop, for every candidate of a forget or save."""
    request = strip_preamble(request)
    if max(len(request), len(stored)) > LONG_TEXT:
        apart = wording.words_apart(request, stored)
        if apart is not None:
            return [Conflict("long", True, f"long texts that differ in {apart[0]} and "
                                           f"{apart[1]} words")]
    request, stored = spelled.spelled_out(request, stored)  # "the **DPO**" / "the data
    # protection officer": one text's initials in the other's words
    a, b = facets(request), facets(stored)
    out: list[Conflict] = []
    only_a, only_b = unmatched_names(a, b), unmatched_names(b, a)
    if only_a and only_b:
        out.append(Conflict("name", True, f"names differ: {quoted(only_a)} vs {quoted(only_b)}"))
    if a.environments and b.environments and a.environments != b.environments:
        out.append(Conflict("environment", True, f"environments differ: "
                            f"{quoted(sorted(a.environments))} vs {quoted(sorted(b.environments))}"))
    elif (crossed := things.crossed_environments(a, b)) is not None:
        out.append(Conflict("environment", True, f'environments swapped: "{crossed[0]}" vs '
                                                 f'"{crossed[1]}"'))
    elif a.environments and not b.environments:  # "the **staging** DB fails over to Frankfurt"
        # is not "the DB fails over to Frankfurt": a request or a save narrowed to one
        # environment is about that one, not the fact that names none
        out.append(Conflict("environment", True, f"only one names an environment: "
                            f"{quoted(sorted(a.environments))}"))
    elif (system := environments.added_system(a, b)) is not None:
        out.append(Conflict("environment", True, f'only one names a system: "{system}"'))
    elif (held := environments.online_or_on_site(a, b)
          or environments.outdoors_or_in(a, b) or environments.indoor_kind(a, b)
          or environments.on_site_or_in(a, b)) is not None:
        out.append(Conflict("environment", True, f'held elsewhere: "{held[0]}" vs "{held[1]}"'))
    swap = things.swapped_modifiers(a, b) or teams.other_team(a, b) \
        or teams.shift_team(a, b) or subjects.other_subject(a, b) or swapped_nouns.other_pair(a, b)
    if swap is not None:
        out.append(Conflict("thing", True, f'different things: "{swap[0]}" vs "{swap[1]}"'))
    else:
        named_a, named_b = things.dated_things(a), things.dated_things(b)
        if named_a and named_b and not named_a & named_b and things.else_differs(
                a, b, days=things.first_words(named_a | named_b), words=things.RELATIVE):
            out.append(Conflict("thing", True, f"different things: {quoted(sorted(named_a))} vs "
                                               f"{quoted(sorted(named_b))}"))
    if a.numbers and b.numbers and not (values.within(a, b) or values.within(b, a)):
        out.append(Conflict("number", False, f"numbers differ: {shown_numbers(a.numbers)} vs "
                                             f"{shown_numbers(b.numbers)}"))
    elif (dotted := things.other_decimals(a, b)) is not None:  # "Genesis **2.1**" /
        # "Genesis **2.0**": "2.0" is the 2 of "Kiln 2" as a number, not as a version
        out.append(Conflict("number", False, f'numbers differ: "{dotted[0]}" vs "{dotted[1]}"'))
    elif (nth := things.ordinal_thing(a, b)) is not None:
        out.append(Conflict("scope", True, f'one of them: "{nth[0]}" vs "{nth[1]}"'))
    elif (model := things.other_model(a, b)) is not None:  # "Element **2**" / "**5D**"
        out.append(Conflict("number", False, f'numbers differ: "{model[0]}" vs "{model[1]}"'))
    if (not out or out[-1].kind != "number") \
            and (framed_at := framed.other_number(a, b) or recounted.other_count(a, b)
                 or recounted.single_or_more(a, b)
                 or recounted.said_more_often(a, b)
                 or recounted.other_year(a, b)
                 or recounted.counted_apart(a, b)) is not None:  # "at most **8** children per"
        # / "at most **6** children per", every other number the same; "every **5** runs" /
        # "every **3** runs"; "**a single** horse" / "**two** horses"
        out.append(Conflict("number", False, f'numbers differ: "{framed_at[0]}" vs '
                                             f'"{framed_at[1]}"'))
    if (code := framed.other_code(a, b) or framed.other_edition(a, b)) is not None:
        # "PAS **015:1998**" / "PAS **015:2011**", "PaintManager **X**" / "… **XI**": another
        # edition, a value of the fact
        out.append(Conflict("identifier", False, f'codes differ: "{code[0]}" vs "{code[1]}"'))
    if (a.negatives ^ b.negatives) & a.numbers & b.numbers:  # "-18 °C" / "18 °C"
        out.append(Conflict("number", False, "one number is negative in one text only"))
    bound = values.bounds_differ(a, b) or ranged.bound_or_range(a, b) \
        or bounded.unbounded(a, b)
    if bound is not None:  # "at most two" / "more than two"; in the subject, which things
        out.append(Conflict("bound", bound[2], f'bounds differ: "{bound[0]}" vs "{bound[1]}"'))
    if values.durations_differ(a.durations, b.durations):
        out.append(Conflict("duration", False, "durations differ: "
                            f"{values.durations_text(a.durations)} vs "
                            f"{values.durations_text(b.durations)}"))
    if not any(c.kind in ("number", "duration") for c in out) \
            and not wording.is_long(request, stored):  # a short fact's rule: its comparison
        # of every value with every other would cost a long text's thousands of values squared
        crossed = values.each_has_more(a, b)
        if crossed is not None:  # "held a licence for under **2 years**" / "under **25**"
            out.append(Conflict("number", False, f"each states a value the other lacks: "
                                                 f"{crossed[0]} vs {crossed[1]}"))
    for priced, other in ((a, b), (b, a)):
        if priced.currencies and not other.currencies and priced.numbers - other.numbers:
            # "only for parcels valued above **£500**" / "only for business addresses"
            out.append(Conflict("currency", False, "only one states an amount of money: "
                                                   f"{shown_numbers(priced.numbers - other.numbers)}"))
            break
    if (share := values.percent_or_amount(a, b) or values.price_or_measure(a, b)
              or counted.unit_or_count(a, b) or counted.other_rate(a, b)
              or counted.other_measure(a, b) or workdays.other_day_kind(a, b)) is not None:
        out.append(Conflict("unit", False, f'units differ: "{share[0]}" vs "{share[1]}"'))
    for kind, label, x, y in (("currency", "currencies", a.currencies, b.currencies),
                              ("unit", "units", a.units, b.units)):
        if x - y and y - x:  # "$25" / "25 euros", "-18 °C" / "-18 °F": another amount;
            # "600 g … **1.6 kg**" / "600-gram … **1.6 lb**": one shared unit hides the other
            out.append(Conflict(kind, False, f"{label} differ: {quoted(sorted(x - y))} vs "
                                             f"{quoted(sorted(y - x))}"))
    for kind, x, y in (("weekday", schedules.days_named(a), schedules.days_named(b)),
                       ("month", a.months, b.months)):
        if x and y and x != y:
            out.append(Conflict(kind, False, f"{kind}s differ: {quoted(sorted(x))} vs {quoted(sorted(y))}"))
    if bool(a.months) != bool(b.months) and len(a.months | b.months) >= 2:
        # "closes at 18:00 **from October to March**" / "shuts at 6 pm all year round": a
        # season one text only keeps (a single month may be a date: "the March release")
        out.append(Conflict("month", False, "only one names months: "
                                            f"{quoted(sorted(a.months | b.months))}"))
    if a.times and b.times and not (a.times <= b.times or b.times <= a.times):  # "every night
        # at midnight" says more than "every night", not something else
        out.append(Conflict("time", False, f"times differ: {quoted(sorted(a.times))} vs "
                                           f"{quoted(sorted(b.times))}"))
    if denials.opposed(a, b):
        out.append(Conflict("negation", False, "one says the opposite of the other"))
    for kind, found in (("quantity", rule_groups.quantity(a, b)),
                        ("scope", rule_groups.scope(a, b, only_a, only_b)),
                        ("schedule", rule_groups.schedule(a, b))):
        if found is not None:  # how many, how often: values of the same fact; "all" against
            # a narrower set names other things ("all new users" / "new users in the EU")
            out.append(Conflict(kind, kind == "scope",
                                f'{kind} differs: "{found[0]}" vs "{found[1]}"'))
    condition = rule_groups.condition(request, stored, a, b)
    if condition is not None:  # "only for charities" / "only on income support": two rules
        out.append(Conflict("condition", True, f'another condition: "{condition[0]}" vs '
                                               f'"{condition[1]}"'))
    role = rule_groups.role(a, b)
    if role is not None:
        out.append(Conflict("role", True, f'another role: "{role[0]}" vs "{role[1]}"'))
    place = place_phrase.other_place(a, b)
    if place is not None:
        out.append(Conflict("place", True, f'another place: "{place[0]}" vs "{place[1]}"'))
    elif (site := place_phrase.added_site(a, b)) is not None:
        out.append(Conflict("place", True, f'the request adds "{site}"'))
    route = routes.other_direction(a, b)
    if route is not None:
        out.append(Conflict("direction", True, f'another direction: "{route[0]}" vs "{route[1]}"'))
    opposite = rule_groups.opposite(a, b)
    if opposite is not None:  # a state is a value unless it narrows the subject ("refunds
        # **over** $500 need …"); another direction or event, another fact
        subject = not opposite[2] or wording.in_subject(a, opposite[0]) \
            or wording.in_subject(b, opposite[1])
        out.append(Conflict("opposite", subject,
                            f'opposite words: "{opposite[0]}" vs "{opposite[1]}"'))
    # the swapped-word rule leaves the opposite's words out ("approval is manual" / "…
    # automatic" is one value), yet "allowed in the **kitchen**" / "… the **lobby**" swaps a place
    out.extend(order_conflicts(request, stored, a, b, any(c.subject for c in out),
                                frozenset(opposite[:2]) if opposite else frozenset()))
    if not out and not wording.is_long(request, stored):
        if (part := clauses.restated_clause(stored, a)) is not None:
            out = conflicts(request, part)  # the one clause the request restates, read alone
        elif ((lent := clauses.borrowing_clause(stored, a)) is not None and any(
                c.kind in _SWAPS and any(w in c.detail for w in lent[1])
                for c in conflicts(request, lent[0]))) or (
                (lent := clauses.borrowing_clause(stored, a, own_verb=True)) is not None
                and clauses.subject_borrowed(lent[0], lent[1], a)):
            # a word of another clause stands in the place of one of the clause the request
            # restates: two clauses joined
            out.append(Conflict("roles", True, f'words of two clauses joined: {quoted(sorted(lent[1]))}'))
        elif (bare := clauses.without_aside(stored, a)) is not None:
            out = conflicts(request, bare)  # the fact without the aside the request leaves out
        elif (taken := clauses.borrowed_number(stored, a)) is not None:
            out.append(Conflict("roles", True, f'a number of another clause: "{taken[1]}"'))
    return out


#: Conflicts that put one word in another's place (not "the request adds …", a condition or
#: a scope, which a request restating both clauses also shows against one of them).
_SWAPS = frozenset(["role", "thing", "name", "word"])

"""Which rules read each kind of conflict, in the order ``agreement`` asks them: the first
that finds one speaks for its kind. Apart from ``agreement`` so the list of rules per kind
can grow without the comparison's own steps growing with it.
"""

from __future__ import annotations

from memory_mcp.services import (
    added_when,
    anchors,
    before_when,
    bounded,
    compounds,
    condition_subjects,
    conditioned,
    conditions,
    deadlines,
    doers,
    during,
    flipped,
    jobs,
    listing,
    members,
    modified,
    narrowed,
    offsets,
    only_added,
    only_never,
    opposites,
    paced,
    particles,
    parts,
    periods,
    purposes,
    qualified,
    relatives,
    role_for_name,
    schedules,
    scoped,
    share_of,
    slots,
    turned,
    unrestricted,
    voiced,
    widened,
)
from memory_mcp.services.facets import Facets

Found = tuple[str, str] | None


def quantity(a: Facets, b: Facets) -> Found:
    """How many: "at least two" / "exactly two", one part of a thing against the whole."""
    return slots.quantity(a, b) or slots.partial(a, b) or parts.any_part(a, b) \
        or modified.only_the_best(a, b) or unrestricted.every_or_one(a, b) \
        or share_of.sampled(a, b) or share_of.one_of_or_only(a, b) or share_of.first_of(a, b) \
        or share_of.of_them(a, b)


def scope(a: Facets, b: Facets, only_a: list[str], only_b: list[str]) -> Found:
    """Which of a thing: "all new users" / "new users in the EU", a list's member, a kind."""
    return slots.scope(a, b, only_a, only_b) or members.list_member(a, b) \
        or members.all_of_fewer(a, b) or members.all_of_listed(a, b) \
        or members.only_one_of_two(a, b) or widened.both_kinds(a, b) \
        or widened.both_kinds(b, a) or widened.anywhere(a, b) or widened.anywhere(b, a) \
        or widened.only_or_everyone(a, b) or widened.one_of_all(a, b) \
        or widened.regardless(a, b) or widened.only_listed(a, b) \
        or unrestricted.only_one_added(a, b) or unrestricted.unrestricted(a, b) \
        or unrestricted.another_alternative(a, b) or unrestricted.added_item(a, b) \
        or unrestricted.at_all(a, b) or unrestricted.every_model(a, b) \
        or unrestricted.other_restriction(a, b) or unrestricted.all_of_restricted(a, b) \
        or unrestricted.all_or_some_ones(a, b) \
        or listing.only_modified(a, b) \
        or listing.all_or_listed(a, b) or listing.only_narrowed(a, b) \
        or listing.all_of_narrowed(a, b) or listing.all_numbered(a, b) \
        or listing.joined_subject(a, b) or modified.added_kind(a, b) \
        or modified.only_one(a, b) or modified.any_or_narrowed(a, b) \
        or modified.only_for(a, b) or modified.other_per(a, b) or modified.ranked_people(a, b) \
        or share_of.nobody_or_some(a, b) or share_of.every_numbered(a, b) \
        or share_of.any_of_one(a, b) or only_added.added_only(a, b) \
        or only_added.other_only(a, b) or compounds.other_setting(a, b) \
        or scoped.all_or_modified(a, b) or scoped.only_narrowed(a, b) \
        or scoped.all_or_part(a, b) or scoped.only_one_of(a, b) or scoped.both_or_only(a, b) \
        or scoped.only_listed(a, b) or scoped.each_or_one(a, b) or only_never.crossed(a, b) \
        or only_never.crossed_nots(a, b)


def schedule(a: Facets, b: Facets) -> Found:
    """How often and by when: "every other Friday" / "every Friday", a span reversed, a rate's
    period, "before noon" / "before the end of the day"."""
    return schedules.schedule(a, b) or schedules.reversed_span(a, b) \
        or periods.other_rate(a, b) or deadlines.other_deadline(a, b) \
        or schedules.month_or_count(a, b) or paced.by_period_or_event(a, b)


def condition(request: str, stored: str, a: Facets, b: Facets) -> Found:
    """Under which condition, trigger, bound, event or purpose the fact holds."""
    return conditions.only_condition(a, b) or narrowed.narrowed(a, b) \
        or conditions.added_clause(a, b) or conditions.added_purpose(a, b) \
        or bounded.added_bound(a, b) or added_when.added_clock(a, b) \
        or anchors.other_event(a, b) or anchors.value_or_words(a, b) \
        or anchors.unit_or_event(a, b) or added_when.added_days(a, b) \
        or purposes.other_purpose(a, b) or purposes.added_reason(a, b) \
        or conditioned.other_clause(request, stored) or relatives.other_who(a, b) \
        or conditioned.added_only(request, stored) or qualified.other_qualifier(a, b) \
        or condition_subjects.other_party(a, b) or before_when.before_or_when(a, b) \
        or during.other_during(a, b) or flipped.unless_or_if(a, b) \
        or flipped.with_or_without(a, b)


def role(a: Facets, b: Facets) -> Found:
    """Who does it, by job, rank or role noun."""
    return jobs.role(a, b) or jobs.role_noun(a, b) or jobs.rank(a, b) \
        or jobs.role_head(a, b) or doers.other_doer(a, b) or turned.named_doer(a, b) \
        or jobs.holder(a, b) or jobs.role_doer(a, b) or jobs.named_role(a, b) \
        or jobs.role_or_verb(a, b) or voiced.other_agent(a, b) \
        or role_for_name.role_for_name(a, b)


def opposite(a: Facets, b: Facets) -> tuple[str, str, bool] | None:
    """(a's words, b's words, whether a state) for opposite words, particles or compounds."""
    return opposites.opposed(a, b) or particles.particle_opposed(a, b) \
        or particles.compound_opposed(a, b) or offsets.extra_or_off(a, b)

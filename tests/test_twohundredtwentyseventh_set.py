"""Rules from the two-hundred-and-twenty-seventh to two-hundred-and-thirty-second forget sets'
first runs (2, 4, 3, 4, 4 and 5 wrong forgets of 100 near misses; the two previous batches'
rules had fixed one of their 23). Each near miss below forgot the stored fact before its rule;
each guard is a rewording or a pair the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # another means, the stored one sharing only the verb's own stem ("gauged" / "gauge")
    ("Forget that the pit wall rim rail is gauged monthly with a laser level to ±3 mm.",
     "Rim rail on the pit wall is gauged monthly with the Harlow track gauge, tolerance ±3 mm.",
     "word"),
    # another purpose after "instead of", read with more purpose verbs
    ("Delete the note that brash is stacked into dead hedges along the coupe edge to keep deer "
     "out.",
     "Brash is stacked into dead hedges along the coupe edge instead of being burned, to "
     "provide wildlife habitat.", "condition"),
    # a role the request names against the role of the name the stored text gives
    ("Forget that refunds over £150 need the bookkeeper's approval.",
     "Refunds over £150 need approval from Priya Nandakumar, the site manager.", "role"),
    # "switched off" against "goes on" / "comes on"
    ("Forget that the No. 2 shaft ventilation fan is switched off 30 minutes before the first "
     "tour.",
     "The No. 2 shaft ventilation fan goes on 30 minutes before the first tour to clear radon "
     "from the route.", "opposite"),
    ("Delete the memory that the orangery heating switches off when the inside temperature "
     "drops below 7 °C.",
     "The orangery heating comes on when the inside temperature falls below 7 °C; the citrus "
     "trees are damaged below 4 °C.", "opposite"),
    # the state the stored text names at each time, the request holding both
    ("Forget that the studio grow lights switch off at 07:00 and come on at 19:00.",
     "The grow-light shelf in the studio is on a timer: lights on at 07:00, off at 19:00.",
     "opposite"),
    # a number of another clause, the request saying two of that clause's words beside four
    # of its own clause's (the previous batch's rule)
    ("Delete the note that the Ashford depot test server runs SCADA 6.1.",
     "The reed bed site runs SCADA version 6.1; the test server at Ashford depot is on 6.2.",
     "roles"),
    # a condition ends at "and" before a new subject
    ("Forget that we don't trade when it's raining and the chestnut cart stays in the garage.",
     "If wind gusts exceed 30 mph, we don't trade and the cart stays in the garage.",
     "condition"),
    # every day of the week against six named days
    ("Remove the memory that wardens patrol the High Street zone every 2 hours, 08:00-18:00, "
     "seven days a week.",
     "Wardens patrol the High Street zone every 2 hours, 08:00-18:00, Monday to Saturday.",
     "schedule"),
    # no limit against an upper one
    ("Forget that members can sign out as many Estwing hammers as they like from Rhys, due "
     "back within 14 days.",
     "Kit officer Rhys Adebayo signs out Estwing rock hammers, at most 2 per member, due back "
     "within 14 days.", "bound"),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Forget that the rim rail is gauged monthly with the Harlow gauge.",
     "Rim rail on the pit wall is gauged monthly with the Harlow track gauge, tolerance ±3 mm."),
    ("Forget that brash goes into dead hedges on the coupe edge, not burned, for wildlife "
     "habitat.",
     "Brash is stacked into dead hedges along the coupe edge instead of being burned, to "
     "provide wildlife habitat."),
    ("Forget that refunds over £150 need the site manager Priya Nandakumar's approval.",
     "Refunds over £150 need approval from Priya Nandakumar, the site manager."),
    ("Forget that the No. 2 shaft fan is switched on half an hour before the first tour.",
     "The No. 2 shaft ventilation fan goes on 30 minutes before the first tour."),
    ("Forget that in gusts over 30 mph we don't trade and the cart stays in the garage.",
     "If wind gusts exceed 30 mph, we don't trade and the cart stays in the garage."),
    ("Forget that wardens patrol the zone daily.", "Wardens patrol the zone seven days a week."),
    ("Forget that members may sign out at most two hammers each from Rhys.",
     "Kit officer Rhys Adebayo signs out Estwing rock hammers, at most 2 per member."),
    ("Please remove the rule that members may take out as many as four toys at once for three "
     "weeks.", "Members can borrow up to 4 toys at a time, for 3 weeks."),
    ("Wipe the memory about court reservations going through ClubSpark, with members able to "
     "reserve as much as a week in advance.",
     "Members book courts through ClubSpark and can book up to 7 days ahead."),
    ("Forget the Corran Point main lamp timing: lit half an hour ahead of sunset, switched off "
     "half an hour after sunrise.",
     "The main lamp at Corran Point goes on 30 minutes before sunset and off 30 minutes after "
     "sunrise."),
    ("Remove the memory: each tray gets 8 minutes of plasma treatment in the Diener Femto, to "
     "make the lenses more wettable.",
     "Plasma treatment in the Diener Femto unit runs 8 minutes per tray to improve lens "
     "wettability."),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []

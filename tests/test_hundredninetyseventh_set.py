"""Rules from the hundred-and-ninety-seventh to two-hundred-and-second forget sets' first runs
(3, 6, 4, 5, 7 and 0 wrong forgets of 100 near misses). Each near miss below forgot the
stored fact before its rule; each guard is a rewording or a pair the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # the same value after opposite words, where the stored text names both sides
    ("Forget that the clinic opens at 1 pm on Saturdays.",
     "The clinic opens at 8 am Monday to Friday and shuts at 1 pm on Saturdays.", "opposite"),
    # each sets aside what the other states
    ("Delete the memory that brash along the northern boundary is burnt rather than stacked "
     "into dead hedges.",
     "Brash is stacked into dead hedges along the northern boundary rather than burnt.",
     "negation"),
    # a weekend is two days
    ("Delete the note that free offcut tasting in the factory shop is offered every weekend.",
     "Free tasting of broken offcuts in the factory shop is offered on Saturdays only.",
     "weekday"),
    # a range of hours is a duration
    ("Forget that joints are churn-brushed once thumbprint hard, usually 2-4 days after "
     "pointing.",
     "Joints get finished with a churn brush once the mortar is thumbprint hard, usually 2-4 "
     "hours after pointing.", "duration"),
    ("Forget that the ground-floor flood boards are taken down whenever a surge warning is "
     "issued.",
     "The ground-floor flood boards are kept in the cart shed and go up whenever a surge "
     "warning is issued.", "opposite"),
    # another count of the same thing, the request's number being a date's in the stored text
    ("Please delete that we need 6 volunteers for the Christmas fair stall at the Town Hall.",
     "Christmas fair stall on 6 December at the Town Hall, pitch 14; set-up from 8am and we "
     "need 4 volunteers.", "number"),
    # another team by another group noun, and a team the stored text names none of
    ("Forget order ARW-2291, the 36 arrows for the junior squad due on 18 April.",
     "Order ARW-2291, a batch of 36 arrows for the county team, is due on 18 April.", "thing"),
    ("Remove the memory that Raj Mehta in Stroud District Council's planning department has to "
     "inspect before we plaster.",
     "Our building control officer is Raj Mehta at Stroud District Council; his inspection "
     "must be booked before plastering.", "thing"),
    # a list member added before the same noun
    ("Forget that for school and library bookings the show is cut to 20 minutes and the "
     "slapstick toned down.",
     "For school bookings the show is cut to 20 minutes and the slapstick is toned down.",
     "scope"),
    # another place after the same thing
    ("Remove the memory that the fridge temperature log sheet is kept in the red folder in the "
     "van.",
     "The fridge temperature log is filled in at opening and closing, and the sheet lives in "
     "the red folder under the counter.", "word"),
    ("Remove the memory that spring feeding syrup is mixed 1:1 in the blue 1,000-litre tote "
     "in the honey house.",
     "Sugar syrup for spring feeding is mixed at a 1:1 ratio in the blue 1,000-litre tote in "
     "Shed 3.", "word"),
    # a route's ends swapped, a clock time between its verb and "from"
    ("Delete the note that the Lantern Parade sets off from the cathedral green and finishes "
     "at the Market Cross.",
     "The Lantern Parade on 31 October 2026 sets off at 17:45 from the Market Cross and "
     "finishes on the cathedral green.", "direction"),
    # the second batch (the 203rd to 208th sets)
    ("Delete the note that each petanque team fields at least 6 players per match.",
     "Each petanque team fields 6 players per match, playing triples first, then doubles, then "
     "singles.", "condition"),
    ("Remove the memory that Ollie Park leads the foraging team.",
     "Sasha Greene leads the foraging team and Ollie Park is her deputy, who gives the safety "
     "briefing before every trip.", "word"),
    # the third batch (the 209th to 214th sets)
    ("Forget that the 10th smoothie is free on the loyalty punch card.",
     "Loyalty punch card: the 10th cup is free, limited to one free cup per visit.", "word"),
    ("Remove the memory that chalk scoreboard photos are sent to the league chairman by Friday.",
     "Chalk scoreboards are photographed and sent to league secretary Maureen Dent by Friday "
     "each week.", "role"),
    ("Scrap the note that a bag of 6 churros costs £6.",
     "Pricing: 6 churros for £5, 12 for £9, chocolate dip £1 extra.", "number"),
    ("Please forget that menu board version 3 added the bacon maple waffle.",
     "Menu board version 3 dropped the bacon maple waffle; version 4 brings it back from "
     "November.", "opposite"),
    ("Delete the memory that we pay Lifeline Textiles 40p per kg to take the leftover clothing.",
     "Leftover clothing is collected by Lifeline Textiles at 14:00 on sale day; they pay us 40p "
     "per kg.", "direction"),
    ("Remove the memory that the inflatable bunkers are deflated with the 12V Bravo pump.",
     "The inflatable bunkers are pumped up with the 12V Bravo pump; a full arena takes about 40 "
     "minutes to set up.", "opposite"),
    ("Drop the note that the show committee draws the stubble-field plots by ballot at 08:15 in "
     "the marquee.",
     "The field committee draws the stubble-field plots by ballot at 08:15 in the marquee.",
     "thing"),
    ("Drop the fact that we order no more than 12 tins of Saphir wax a month from Kessler.",
     "We buy Saphir wax in 100 ml tins from Kessler Leather Supply, 12 tins a month.",
     "condition"),
    ("Remove the memory that hologram label stock H-6 replaced H-7 on 1 March.",
     "Hologram label stock H-7 replaced H-6 on 1 March; any leftover H-6 labels get shredded.",
     "direction"),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Forget that the clinic shuts at 1 pm on Saturdays and opens at 8 on weekdays.",
     "The clinic opens at 8 am Monday to Friday and shuts at 1 pm on Saturdays."),
    ("Forget that brash is stacked into dead hedges rather than burnt.",
     "Brash is stacked into dead hedges along the northern boundary rather than burnt."),
    ("Forget that tasting is offered on Saturdays and Sundays.",
     "Free tasting is offered at weekends."),
    ("Forget that joints are brushed 2-4 hours after pointing.",
     "Joints get finished with a churn brush 2-4 hours after pointing."),
    ("Forget that we need 4 volunteers for the Christmas fair stall.",
     "Christmas fair stall on 6 December at the Town Hall; we need 4 volunteers."),
    ("Forget that Raj Mehta in the planning department inspects before we plaster.",
     "Raj Mehta from planning inspects before we plaster."),
    ("Forget that for school bookings the show is cut to 20 minutes.",
     "For school and library bookings the show is cut to 20 minutes."),
    ("Forget that the log sheet lives in the red folder.",
     "The fridge log sheet lives in the red folder under the counter."),
    ("Forget that the spare keys are in the red folder beneath the counter.",
     "The spare keys are in the red folder under the counter."),
    # one side of an opposite pair, said in other words
    ("Delete the rule that you need two training exercises each quarter to remain on the "
     "callout list.",
     "Members must do 2 training exercises every quarter to stay on the callout list."),
    ("Forget that the lion enclosure gates open at half nine and the vehicle safari route "
     "shuts at 4 pm.",
     "The lion enclosure gates open at 09:30 and the vehicle safari route closes at 16:00."),
    ("Forget that we clean kegs with Chemipro Caustic rather than PBW because of the film PBW "
     "left on them.",
     "Kegs get cleaned with Chemipro Caustic instead of PBW, because PBW left a film on them."),
    ("Forget that H-7 replaced H-6 in March.", "Hologram label stock H-7 replaced H-6 on 1 March."),
    ("Forget that each petanque team fields 6 players per match.",
     "Each petanque team fields at least 6 players per match."),
    # a contrast said the other way round in other words (the dev set)
    ("Judy would rather do standups asynchronously in Slack than on video",
     "Judy prefers async standups in Slack over video calls."),
    ("Please remove that the primary crusher takes feed up to 900 millimetres.",
     "The primary crusher's feed size limit is 900 mm."),
    ("Remove the memory that Sasha leads the foraging team.",
     "Sasha Greene leads the foraging team and Ollie Park is her deputy."),
    ("Forget that 6 churros cost £5.", "Pricing: 6 churros for £5, 12 for £9."),
    ("Can you forget that Green Line platform doors get reset from console two rather than "
     "console one?", "Station platform doors on the Green Line are reset from console 2, not "
     "console 1."),
    ("Forget that the Glenmore base helicopter landing zone only gets lit after dark, when the "
     "air ambulance asks for it.",
     "The helicopter landing zone at Glenmore base is lit only after dark and on request from "
     "the air ambulance."),
    ("Forget that the deposit is £1.2k.", "The deposit is £1,200."),
    ("Forget that Lifeline pay us 40p per kg for leftover clothing.",
     "Leftover clothing is collected by Lifeline Textiles; they pay us 40p per kg."),
    ("Remove the memory that the bunkers are inflated with the 12V Bravo pump.",
     "The inflatable bunkers are pumped up with the 12V Bravo pump."),
    # a bound the stored text says in its own words, or a measure brought up to a value
    ("Remove that forklifts in Warehouse B are limited to 8 km/h.",
     "The forklift speed limit inside Warehouse B is 8 km/h."),
    ("Forget that items for the 925 mark must be at least 925 parts per thousand.",
     "Items sent for the 925 sterling mark must test at 925 parts per thousand or higher."),
    ("Forget that a new student can take no more than one trial class.",
     "Trial classes are free for new students, but only one trial class per student."),
    ("Drop the fact that the dies are brought up to 200 °C using the oil heater.",
     "Dies are preheated to 200 °C with the oil heater."),
    ("Forget that the umpires pass the light readings to the match referee at stumps.",
     "Umpires send the light readings to the match referee at close of play."),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []

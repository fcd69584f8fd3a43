"""Rules from the two-hundred-and-thirty-ninth to two-hundred-and-forty-fourth forget sets'
first runs (3, 4, 7, 3, 5 and 4 wrong forgets of 100 near misses; the previous batch's rules
had fixed two of their 28). Each near miss below forgot the stored fact before its rule; each
guard is a rewording or a pair the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # another destination, the stored one named before the verb in another step
    ("Forget that the service lift alarm goes to the Apex Lifts call centre first and diverts "
     "to reception after 90 seconds.",
     "An alarm call from the service lift car rings at reception first and diverts to the "
     "Apex Lifts call centre after 90 seconds.", "word"),
    # opposite particles after the same verb, or opening the same place after "is" / "back"
    ("Forget that hot food trays sent down in DW-2 need cloches so nothing drips onto the car "
     "floor.",
     "Hot food trays sent up in DW-2 must have cloches on so nothing drips onto the car floor.",
     "opposite"),
    ("Forget that tanker GT-09 is back on the road now that its PTO pump has been replaced.",
     "Tanker GT-09 is off the road until its PTO pump is replaced; part PTO-4471 is on order "
     "from Kerbside Hydraulics.", "opposite"),
    # a lower bound on an amount that ends the request
    ("Remove the memory that PrintHub scorecards must be ordered in batches of at least 2,000.",
     "Scorecards are printed by PrintHub in batches of 2,000 (order ref PH-3391).",
     "condition"),
    # "all the other" against "only"
    ("Forget that the candyfloss comes in pink vanilla, blue raspberry and all the other Sweet "
     "Spin Supplies flavours.",
     "Candyfloss flavours are pink vanilla and blue raspberry only, bought from Sweet Spin "
     "Supplies.", "scope"),
    # a card pre-authorisation captured against released
    ("Delete the note that the £250 card pre-authorisation is captured within 3 working days "
     "after the ski is returned.",
     "The £250 deposit is taken as a card pre-authorisation and released within 3 working "
     "days once the ski comes back undamaged.", "opposite"),
    # from one version to another, the other way
    ("Delete the note that Ravi rolled StockLine back from 5.4 to 5.1 in September.",
     "Ravi upgraded the inventory system from StockLine 5.1 to 5.4 in September.", "roles"),
    # jobs the lexicon now knows
    ("Remove the memory that the apprentice damps the hessian over fresh plaster twice a day.",
     "Hessian stays over fresh plaster for 7 days, damped twice a day by the site labourer.",
     "role"),
    ("Remove the memory that the store manager switches off the security tag gate at closing "
     "after the shutters are down.",
     "The security tag gate at the front entrance is switched off at closing by the last "
     "keyholder, after the shutters are down.", "role"),
    # two triggers, one a measured threshold the other text never states
    ("Forget that the gazebo gets the four 15kg leg weights whenever rain is forecast.",
     "The gazebo canopy must be weighted with four 15kg leg weights whenever the forecast wind "
     "is over 25 mph.", "condition"),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Forget that the lift alarm rings at reception first and goes over to the Apex Lifts call "
     "centre after 90 seconds.",
     "An alarm call from the service lift car rings at reception first and diverts to the "
     "Apex Lifts call centre after 90 seconds."),
    ("Forget that hot food trays going up in DW-2 need cloches on so nothing drips onto the "
     "car floor.",
     "Hot food trays sent up in DW-2 must have cloches on so nothing drips onto the car floor."),
    ("Drop this: we turn off the home straight irrigation 48 hours before a meeting when the "
     "going is good or softer.",
     "Irrigation on the home straight is switched off 48 hours before a meeting if the going "
     "is good or softer."),
    ("Remove the memory that PrintHub prints the scorecards in batches of 2,000.",
     "Scorecards are printed by PrintHub in batches of 2,000 (order ref PH-3391)."),
    ("Forget that candyfloss only comes in pink vanilla and blue raspberry from Sweet Spin.",
     "Candyfloss flavours are pink vanilla and blue raspberry only, bought from Sweet Spin "
     "Supplies."),
    ("Delete the note that Ravi moved StockLine from 5.1 up to 5.4 in September.",
     "Ravi upgraded the inventory system from StockLine 5.1 to 5.4 in September."),
    ("Remove the memory that the site labourer damps the hessian twice a day for a week.",
     "Hessian stays over fresh plaster for 7 days, damped twice a day by the site labourer."),
    ("Forget that the gazebo is weighted with four 15kg leg weights whenever the wind forecast "
     "is above 25 mph.",
     "The gazebo canopy must be weighted with four 15kg leg weights whenever the forecast wind "
     "is over 25 mph."),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []

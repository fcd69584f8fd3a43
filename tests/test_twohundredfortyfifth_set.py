"""Rules from the two-hundred-and-forty-fifth to two-hundred-and-fiftieth forget sets' first
runs. Each near miss below forgot the stored fact before its rule; each guard is a rewording
or a pair the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # kVA, a unit of its own
    ("Delete the note that generators over 20 kW must go out on the HGV.",
     "Generators over 20 kVA go out on the HGV, never the Transit, because of the weight.",
     "unit"),
    # a cap on a period the stored text keeps for exactly that period
    ("Please forget that RNPS records may be kept for no more than 3 years.",
     "RNPS records are kept for 3 years.", "condition"),
    # every one of a thing against the stored text's restricted "any"
    ("Forget that Tom Akers reviews every will before it is sent to the client.",
     "Tom Akers, our senior will writer, reviews any will involving a trust or overseas assets "
     "before it is sent to the client.", "scope"),
    # another place after "keeps"
    ("Forget that Jean Mercer keeps the raffle prizes in the village hall store cupboard until "
     "show day.",
     "Jean Mercer collects the raffle prizes and keeps them in her garage until show day.",
     "word"),
    # a conservator, a job
    ("Delete the note that the conservator condition-checks objects on loan from the Royal "
     "Pharmaceutical Society before and after every exhibition.",
     "Objects on loan from the Royal Pharmaceutical Society must be condition-checked by the "
     "registrar before and after every exhibition.", "role"),
    # every day against weekdays
    ("Drop the fact that the Harry Potter filming locations tour is paused every day in January "
     "and February.",
     "The Harry Potter filming locations tour is paused on weekdays in January and February.",
     "schedule"),
    # a rate per linear metre against one per square metre
    ("Scrap the note that Newton 508 basement tanking is quoted at £85 per linear metre.",
     "Basement tanking jobs use the Newton 508 membrane and a sump pump; they're quoted at £85 "
     "per m².", "unit"),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Delete the note that generators over 20 kVA go out on the HGV.",
     "Generators over 20 kVA go out on the HGV, never the Transit, because of the weight."),
    ("Please forget that RNPS records are kept for three years.",
     "RNPS records are kept for 3 years."),
    ("Forget that Tom Akers reviews any will involving a trust or overseas assets before it "
     "goes to the client.",
     "Tom Akers, our senior will writer, reviews any will involving a trust or overseas assets "
     "before it is sent to the client."),
    ("Forget that Jean Mercer keeps the raffle prizes in her garage until show day.",
     "Jean Mercer collects the raffle prizes and keeps them in her garage until show day."),
    ("Drop the fact that the Harry Potter tour is paused on weekdays in January and February.",
     "The Harry Potter filming locations tour is paused on weekdays in January and February."),
    ("Get rid of the rule that anyone on warfarin must have an INR no older than three days "
     "before we do deep scaling.",
     "Patients on warfarin need an INR result from within the last 72 hours before any deep "
     "scaling."),
    ("Clear out the rule that any tray with nuts, gluten or dairy in it has to carry an "
     "allergen label.",
     "Allergen labels are required on every tray that contains nuts, gluten or dairy."),
    ("Forget that Felix Brandt, as workshop manager, has to approve any quote over £250 before "
     "we start the job.",
     "Any quote above £250 needs sign-off from the workshop manager, Felix Brandt, before work "
     "starts."),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []

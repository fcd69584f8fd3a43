"""Rules from the two-hundred-and-sixty-ninth to two-hundred-and-seventy-fourth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording or a pair the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # one thing counted after "every" with another number, the request's number said elsewhere
    ("Forget that the FC-205 filter cartridge for the rose water is swapped after every 5 runs.",
     "Rose water is filtered through 5-micron cartridges (part FC-205) before bottling; the "
     "cartridge is swapped after every 3 runs.", "number"),
    # another thing before the same verb, the stored one with a measure in front
    ("Delete the note that the vibraphone is only moved by the two-person crew on the padded "
     "trolley.",
     "The 5-octave Adams concert marimba is only moved by the two-person crew using the padded "
     "trolley.", "word"),
    # a thing made from the stored one: the plural as a compound's first word
    ("Delete the note that concertina reed frames are cut from 0.5 mm Swedish blue spring "
     "steel.",
     "Concertina reeds are cut from 0.5 mm Swedish blue spring steel; Alasdair files all the "
     "reeds.", "word"),
    ("Scrap the note that snail caviar is shipped to Le Petit Bistro and Maison Durand every "
     "Thursday.",
     "Purged snails are shipped to Le Petit Bistro and Maison Durand every Thursday in "
     "ventilated 5 kg crates.", "word"),
    # an active doer against the passive's "by", the verb ending the subject, the "by" far off
    ("Forget that the timekeepers enter aerobatics scores into Skyfold v2.3.",
     "Aerobatics scores are entered into the Skyfold scoring app v2.3 by the head judge, Tomasz "
     "Wren.", "role"),
    ("Forget that the front-desk staff disinfect the Studio B mats with Virex II 256 after "
     "every session.",
     "Mats in Studio B are disinfected with Virex II 256 after every session by the last "
     "instructor on the floor.", "role"),
    # a price each against one per dozen
    ("Drop the note that the Klinkhamer wholesale price is £0.85 per dozen for 100 or more.",
     "Wholesale price for the Klinkhamer is £0.85 each for 100 or more, £1.10 each below that.",
     "unit"),
    # "all five" against groups by number
    ("Forget that the rearing room stays at 25°C and 75\u201380% RH for all five instars.",
     "Rearing room: 25°C and 75\u201380% RH for instars 1\u20133, then 23°C and 70% RH for instars 4\u20135.",
     "scope"),
    # Mk I against Mk II
    ("Remove the memory that the Minolta MS7000 Mk I reader-printer in Reading Room B is booked "
     "in 45-minute slots.",
     "The Minolta MS7000 Mk II reader-printer in Reading Room B is booked in 45-minute slots "
     "through the front desk.", "identifier"),
    # with the extractor off / on; brought forward / postponed
    ("Delete the note that chainsaw work in the back bay is done with the extractor switched "
     "off.",
     "Chainsaw work only happens in the back bay with the extractor on; chisels and die "
     "grinders are fine at the front benches.", "opposite"),
    ("Drop the note that if gusts go above 25 mph, Hamish Reid brings the skimming heats "
     "forward by an hour.",
     "If gusts go above 25 mph, chief marshal Hamish Reid postpones the skimming heats by an "
     "hour.", "opposite"),
    # a hyphenated unit
    ("Scrap the note that index error over 0.2 degrees gets adjusted on the bench 1 "
     "collimator.",
     "Index error is checked against the collimator on bench 1; anything over 0.2 arc-minutes "
     "gets adjusted.", "unit"),
    # two things and their places swapped, the second clause without its verb
    ("Scrap the note that we interview clients at our Mayfair office and candidates at their "
     "own residences.",
     "Client interviews take place at the client's residence; candidate interviews at our "
     "Mayfair office.", "roles"),
    # another tool after "with", the stored one graded
    ("Forget that Ravi re-shapes jawari bridges with a needle file and then sets the cotton "
     "juari threads.",
     "Ravi re-shapes jawari bridges with 1200-grit wet-and-dry paper on a flat sanding block, "
     "then sets the cotton juari threads.", "word"),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Please forget that we interview clients at their residences and candidates at our "
     "Mayfair office.",
     "Client interviews take place at the client's residence; candidate interviews at our "
     "Mayfair office."),
    ("Remove the memory that only the two-person crew moves the 5-octave Adams marimba, on the "
     "padded trolley.",
     "The 5-octave Adams concert marimba is only moved by the two-person crew using the padded "
     "trolley."),
    ("Forget that Tomasz Wren, head judge, keys the aerobatics scores into Skyfold version 2.3.",
     "Aerobatics scores are entered into the Skyfold scoring app v2.3 by the head judge, Tomasz "
     "Wren."),
    ("Remove the note on Klinkhamer wholesale pricing: 85p each for orders of 100 or more, "
     "£1.10 each under that.",
     "Wholesale price for the Klinkhamer is £0.85 each for 100 or more, £1.10 each below that."),
    ("Forget the rearing room settings: 25 °C and 75\u201380% RH during instars one to three, "
     "dropping to 23 °C and 70% RH for instars four and five.",
     "Rearing room: 25°C and 75\u201380% RH for instars 1\u20133, then 23°C and 70% RH for "
     "instars 4\u20135."),
    ("Remove the memory that chief marshal Hamish Reid pushes the skimming heats back an hour "
     "when gusts exceed 25 mph.",
     "If gusts go above 25 mph, chief marshal Hamish Reid postpones the skimming heats by an "
     "hour."),
    ("Drop what we saved about Ravi reshaping jawari bridges with 1200-grit wet-and-dry on a "
     "flat sanding block and then setting the cotton juari threads.",
     "Ravi re-shapes jawari bridges with 1200-grit wet-and-dry paper on a flat sanding block, "
     "then sets the cotton juari threads."),
    ("Scrap what we saved about Thursday shipments of purged snails in 5-kilo ventilated crates "
     "to Le Petit Bistro and Maison Durand.",
     "Purged snails are shipped to Le Petit Bistro and Maison Durand every Thursday in "
     "ventilated 5 kg crates."),
    # the pairs the first cuts of these rules refused
    ("forget that the rearing room temperature is kept at 25C", "the rearing room is kept at 25C"),
    ("forget that the room is at 25C for all five instars",
     "the room is at 25C for instars 1 to 5"),
    ("forget that flies are £5 per fly", "flies are £5 each"),
    ("Remove the memory that horseradish sets go into field 4 in March, 30 cm apart in rows "
     "spaced 75 cm.",
     "Horseradish sets are planted in March in field 4 at 30 cm spacing, rows 75 cm apart."),
    ("Please delete: rig DR-7 sprays Type I fluid heated to 60°C, and Type IV anti-icing is "
     "applied from rig DR-9 only.",
     "Rig DR-7 sprays Type I fluid heated to 60°C; Type IV anti-icing is applied from rig DR-9 "
     "only."),
    ("Scrap the entry saying Dr Lucy Harrow from Newmarket Equine ultrasound-scans mares for "
     "pregnancy at day 14 and day 28 post-covering.",
     "Pregnancy scans by ultrasound are done at 14 and 28 days after covering by Dr Lucy Harrow "
     "of Newmarket Equine."),
    ("Scrap the note that Pelikan piston fillers under warranty are returned to Pelikan's UK "
     "service centre and not opened by us at the counter.",
     "Pelikan piston-filler pens under warranty go back to Pelikan's UK service centre; we "
     "don't open them at the counter."),
    ("That's outdated: Pixelforge sponsoring three $500 prizes at the jam.",
     "Sponsor Pixelforge is giving 3 prizes of $500 each at the jam."),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []

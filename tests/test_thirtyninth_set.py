"""Rules from the thirty-ninth to forty-first forget sets' first runs (3, 3 and 5 wrong forgets
of 100 near misses; 36, 47 and 51 of 65 rewordings forgotten), and from the earlier sets'
rewordings refused as "one says the opposite of the other". Each near miss below forgot the
stored fact before this change, and each guard was refused or must keep agreeing."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Children's cards don't get charged overdue fines.",
     "Overdue fines are waived for children's cards."),
    ("deposit = 30% of the package, no refunds",
     "Deposits are 30% of the package price and non-refundable."),
    ("we allow only chalk balls and ban loose chalk because it clogs the ventilation filters.",
     "Chalk balls only: loose chalk is not allowed because it clogs the ventilation filters."),
    ("the slab roller is off-limits to Tuesday wheel-class students unless an instructor is "
     "there.", "Students in the Tuesday wheel class may not use the slab roller unless an "
     "instructor is present."),
    ("we degrease bird skins for 20 minutes in the ultrasonic bath so fat doesn't stain the "
     "feathers", "Bird skins are degreased in the ultrasonic bath for 20 minutes to stop fat "
     "from staining the feathers."),
    ("the hall must stay between 18 and 21 \u00b0C to keep the reed pipes from drifting out of "
     "tune.", "Keep the hall between 18 and 21 \u00b0C so the reed pipes don't drift out of "
     "tune."),
    ("no recording of rehearsals unless the musicians' union has given written consent",
     "Recording of rehearsals is forbidden without written consent from the musicians' union."),
    ("protected species are never accepted unless the intake form has a CITES permit number",
     "No protected species accepted without a CITES permit number on the intake form."),
])
def test_words_that_deny_by_meaning_count_as_denials(request_text: str, stored: str) -> None:
    """"Waived", "non-refundable", "ban", "off-limits" and a purpose's "to stop" / "to keep
    … from" deny as "no" and "doesn't" do; and two texts that each restrict by a denial ("no
    … unless", "forbidden without") say the same. Counted apart, each pair read as one text
    saying the opposite of the other, and the rewording was refused."""
    assert "negation" not in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Loose chalk is not banned.", "Loose chalk is banned."),
    ("Loose chalk is allowed.", "Loose chalk is banned."),
    ("Overdue fines are charged for children's cards.",
     "Overdue fines are waived for children's cards."),
    ("Rehearsals are not recorded unless the union objects.",
     "Rehearsals are recorded unless the union objects."),
])
def test_a_denial_by_meaning_still_says_the_opposite_of_its_absence(request_text: str,
                                                                     stored: str) -> None:
    """Counting "banned" as a denial keeps "not banned" two denials against one, "allowed"
    none against one; and only two restricting texts cancel their restrictions."""
    assert "negation" in kinds(request_text, stored)


def test_an_instruction_to_stop_is_no_purpose() -> None:
    """"Patients **have to stop** aspirin" says what to do, not why: no denial."""
    assert "negation" not in kinds(
        "patients have to stop aspirin a week before their egg retrieval.",
        "Patients must stop aspirin one week before egg retrieval.")


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("we collect used tyre casings from Murfitts every second Thursday at the cage behind "
     "unit 4.", "Murfitts collects our used tyre casings every second Thursday from the cage "
     "behind unit 4.", "direction"),
    ("Mapes orders replacement bass strings from us, part MB-114.",
     "Order replacement bass strings from Mapes, part MB-114; lead time is three weeks.",
     "direction"),
    ("wheat starch paste is cooked fresh twice a week and kept in the fridge for up to 5 days.",
     "Wheat starch paste is cooked fresh every Monday and kept in the fridge for up to 5 days.",
     "schedule"),
    ("twilight flats are taken at dusk once a week, on a clear night.",
     "Twilight flats are taken at dusk on every clear night.", "schedule"),
    ("alloy wheel nuts are torqued to 110 ft-lb with the Norbar TTi torque wrench.",
     "Alloy wheel nuts are torqued to 110 Nm with the Norbar TTi torque wrench.", "unit"),
    ("game master Chloe Martin handles all bookings at weekends.",
     "Game master Chloe Martin handles all corporate bookings at weekends.", "scope"),
    ("Dr Helen Mwangi releases all batches made in the unit, chemo and TPN alike.",
     "Dr Helen Mwangi releases all TPN bag batches.", "scope"),
    ("groomer Sam Okafor takes all appointments on Wednesdays, dogs included.",
     "Groomer Sam Okafor takes all cat appointments on Wednesdays.", "scope"),
])
def test_near_misses_of_the_thirty_ninth_to_forty_first_sets(request_text: str, stored: str,
                                                             kind: str) -> None:
    """A name that does something in one text is the source in the other ("Murfitts
    collects" / "collect … from Murfitts"); two days a week against one weekday, a week
    against every clear night; torque in newton-metres against foot-pounds; "all" of a thing
    against "all" of a narrower kind of it."""
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Murfitts collects the casings from us.", "The casings are collected from us by Murfitts."),
    ("MLflow pushes model artifacts to the S3 bucket.",
     "Model artifacts are pushed from MLflow to the S3 bucket."),
    ("the spare RS41 sondes from Vaisala live in the locked cabinet in the filling shed.",
     "Spare Vaisala RS41 sondes are kept in the locked cabinet in the filling shed."),
    ("The paste is cooked twice a week.", "The paste is cooked every Monday and Thursday."),
    ("The paste is cooked once a week.", "The paste is cooked every Monday."),
    ("All the rental wetsuits are rinsed after each trip.",
     "All rental wetsuits are rinsed after each trip."),
    ("Nuts are torqued to 110 newton-metres.", "Nuts are torqued to 110 Nm."),
])
def test_guards_of_the_thirty_ninth_to_forty_first_sets(request_text: str, stored: str) -> None:
    """A passive's source, a thing's maker, two days a week named, one weekday a week, "all
    the" and a unit spelled out still agree."""
    assert agreement.conflicts(request_text, stored) == []


@pytest.mark.parametrize(("request_text", "stored"), [
    ("raw materials get decanted into one-litre amber bottles",
     "Raw materials are decanted into 1-litre amber bottles."),
    ("the 70-metre line can only be shot from when the red flag is down",
     "Shooting at the 70 m line is only allowed when the red flag is down."),
    ("the LTM 1100 needs the full 31-tonne counterweight",
     "The LTM 1100 needs its full 31 t counterweight."),
    ("rejected staves get cut into 30-centimetre pieces", "Rejected staves are cut into 30 cm "
     "pieces."),
    ("hygiene appointments are booked in half-hour slots",
     "Hygiene appointments are booked in 30-minute slots."),
    ("our delivery drones are capped at 120 m altitude",
     "Our delivery drones are capped at an altitude of 120 metres."),
    ("the Scanity HDR scans 35mm film at 4K", "The Scanity HDR scans 35mm film at 4K."),
])
def test_a_unit_written_into_its_number_reads_as_the_number_and_the_unit(request_text: str,
                                                                          stored: str) -> None:
    """"70-metre" and "70 m", "one-litre" and "1-litre", "31-tonne" and "31 t", "half-hour"
    and "30-minute" say one amount; "35mm" stays a film gauge's name."""
    assert agreement.conflicts(request_text, stored) == []


@pytest.mark.parametrize(("request_text", "stored"), [
    ("the 70-metre line is shot from the red flag", "the 70-foot line is shot from the red flag"),
    ("fill the one-litre bottles", "fill the one-gallon bottles"),
    ("a 31 t counterweight is fitted", "a 31 kg counterweight is fitted"),
])
def test_a_unit_written_into_its_number_still_differs_from_another_unit(request_text: str,
                                                                         stored: str) -> None:
    assert "unit" in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("the lock stays off until the stretcher lock has been fixed.",
     "The lock stays off until the stretcher lock has been repaired."),
    ("we ground every flight once visibility falls under three kilometres.",
     "We ground every flight once visibility drops under three kilometres."),
    ("the junior classes are open to kids between nine and sixteen.",
     "The junior classes are open to children between nine and sixteen."),
    ("new acquisitions are entered straight into TMS 2020.",
     "New acquisitions are entered directly into TMS 2020."),
    ("techs log each chemical application in PestPac.",
     "Technicians log each chemical application in PestPac."),
    ("seed accessions get dried to 15% RH in the drying room.",
     "Seed accessions are dried to 15% relative humidity in the drying room."),
    ("the manifest records passenger weights in kg.",
     "The manifest records passenger weights in kilograms."),
])
def test_true_synonyms_and_short_forms_agree(request_text: str, stored: str) -> None:
    """Each pair a rewording of the forget sets used, refused as "one word differs"."""
    assert agreement.conflicts(request_text, stored) == []


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("deliveries arrive every other Wednesday, and the sales team checks every crate.",
     "Deliveries arrive every other Wednesday, and the warehouse team checks every crate.",
     "thing"),
    ("the main lamp goes on 30 minutes after sunset and off 30 minutes after sunrise.",
     "The main lamp goes on 30 minutes before sunset and off 30 minutes after sunrise.",
     "opposite"),
    ("slabs are cut in the back workshop, never on the shop floor, because of the noise.",
     "Slabs are cut in the back workshop, never on the shop floor, because of the slurry.",
     "condition"),
    ("we keep the plates charged in the tack room cabinet because the x-ray room sockets are "
     "switched off overnight.", "Keep the plates charged in the tack room cabinet, because the "
     "x-ray van leaves at 6 am.", "condition"),
])
def test_near_misses_of_the_forty_second_to_forty_fourth_sets(request_text: str, stored: str,
                                                              kind: str) -> None:
    """A plural noun after "the" in a later clause is no verb ("the **sales** team checks"),
    so its swap is another team, not a reworded verb; one side of an opposite said more
    often in each text; "because of" one thing or another; a reason half of whose words
    the other text lacks."""
    assert kind in kinds(request_text, stored)


def test_a_name_that_reports_to_the_other_is_another_direction() -> None:
    """The forty-fourth set: the name acting in one text is where the other's report goes."""
    assert "direction" in kinds(
        "welfare officer Priya Nandakumar reports to head coach Liam Ortega on all safeguarding "
        "matters.", "Head coach Liam Ortega reports to the club welfare officer, Priya "
        "Nandakumar, on all safeguarding matters.")


@pytest.mark.parametrize(("request_text", "stored"), [
    ("the Colombian Huila beans sit on shelf C3 in the cold room.",
     "Green beans from Huila are kept on shelf C3 in the cold room."),
    ("Liam Ortega reports to Priya Nandakumar on all safeguarding matters.",
     "Liam Ortega reports to Priya Nandakumar on all safeguarding matters."),
])
def test_a_name_after_to_or_from_keeps_its_place(request_text: str, stored: str) -> None:
    """A capital that only opens the text is no doer, and the same report reads the same."""
    assert "direction" not in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("drivers must get a signature from the patient or carer for every delivery.",
     "Drivers must get a signature from the patient or carer for every controlled-drug "
     "delivery.", "scope"),
    ("hook-up for overnight polysomnography starts at 20:30 in room S3 only.",
     "Hook-up for overnight polysomnography starts at 20:30 in rooms S3 and S4.", "scope"),
    ("Dr Helen Ashby does all the hearing tests, adults and children alike, in Room 3.",
     "Dr Helen Ashby does all the paediatric hearing tests in Room 3.", "scope"),
    ("kiln posts get a fresh coat of kiln wash after every third firing.",
     "Kiln shelves get a fresh coat of kiln wash after every third firing.", "word"),
    ("MGB B-series head bolts are torqued to 50 N\u00b7m.",
     "MGB B-series head bolts are torqued to 50 lb-ft.", "unit"),
    ("trade account customers get 10% off feed orders over 200 kg.",
     "Trade account customers get 10% off feed orders over \u00a3200.", "unit"),
    ("a brood box is added once the honey super is 80% full.",
     "A honey super is added once the brood box is 80% full.", "roles"),
])
def test_near_misses_of_the_forty_fifth_to_forty_seventh_sets(request_text: str, stored: str,
                                                              kind: str) -> None:
    """"Every" of a thing against "every" of a narrower kind, "S3 only" after the member, "all
    the" before the noun; a plural subject before "get" is no verb; "N\u00b7m" is newton-
    metres; a price against a measure; two things exchanged around "once"."""
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("each seed shipment going out to partner genebanks is approved by Dr. Anjali Rao",
     "All outgoing seed shipments to partner genebanks are approved by Dr. Anjali Rao."),
    ("Owen falling-number tests each lorry of wheat that comes in.",
     "Owen falling-number tests each incoming lorry of wheat."),
    ("orders over 200 pounds ship free", "orders over \u00a3200 ship free"),
    ("Full-time staff have 25 days of vacation a year", "Full-time employees have 25 vacation "
     "days a year."),
])
def test_guards_of_the_forty_fifth_to_forty_seventh_sets(request_text: str, stored: str) -> None:
    """A modifier said after the noun ("going out", "that comes in") still names the same
    kind; "pounds" may be money; staff are employees."""
    assert "scope" not in kinds(request_text, stored) and "unit" not in kinds(
        request_text, stored) and "word" not in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("day scouts drive the whole lantern inventory once every 14 days to spot outages.",
     "Night scouts drive the whole lantern inventory once every 14 days to spot outages.",
     "environment"),
    ("oral suspensions are compounded in Cleanroom A and given a 14-day expiry.",
     "Oral suspensions are compounded in Cleanroom B and given a 14-day expiry.", "name"),
])
def test_near_misses_of_the_forty_eighth_to_fiftieth_sets(request_text: str, stored: str,
                                                          kind: str) -> None:
    """A shift named by its people ("**day** scouts" / "**night** scouts"); a one-letter label
    is not found by the other text's article ("Cleanroom **A** and given **a** …")."""
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("instructors log each lesson in TOTALDrive 4 before the day ends",
     "Instructors log each lesson in TOTALDrive 4 before the end of the day."),
    ("Donor team runs an emergency appeal once O neg stock is under twenty units.",
     "If O-negative stock drops below 20 units, the donor team launches an emergency appeal."),
])
def test_guards_of_the_forty_eighth_to_fiftieth_sets(request_text: str, stored: str) -> None:
    """"the day ends" is no day shift; "O neg" names the O of "O-negative"."""
    found = kinds(request_text, stored)
    assert "environment" not in found and "name" not in found


def test_the_universal_rule_reads_each_text_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read once per phrase of the other text, a 180,000-character near copy took 13 s to
    compare instead of 2 s: the rule must read each text's "all"/"every" phrases once."""
    from memory_mcp.services import members

    calls: list[int] = []
    real = members._all_phrases

    def counted(f: object) -> list[tuple[list[str], str]]:
        calls.append(1)
        return real(f)  # type: ignore[arg-type]

    monkeypatch.setattr(members, "_all_phrases", counted)
    text = " ".join(["all the boats and every oar get each crew's check"] * 40)
    agreement.conflicts(text, text.replace("crew's", "team's", 1))
    assert len(calls) == 2


@pytest.mark.parametrize(("request_text", "stored", "added"), [
    ("guests under 18 are barred from the hydrotherapy pool after 20:00.",
     "No guests under 18 in the hydrotherapy pool.", True),
    ("the pool is closed to guests under 18 after 8 pm.",
     "Guests under 18 may not use the pool after 20:00.", False),
])
def test_a_clock_time_the_fact_lacks_is_another_condition(request_text: str, stored: str,
                                                          added: bool) -> None:
    """Counting "barred" as a denial left this near miss one difference: the added "after
    20:00". A fact that names a time of day itself is left to the times rules."""
    assert ("condition" in kinds(request_text, stored)) is added

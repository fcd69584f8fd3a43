"""Rules from the two-hundred-and-eighty-first to two-hundred-and-eighty-sixth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording or a pair the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement
from memory_mcp.services.wrappers import strip_preamble


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # "only when" against the stored "unless" of the same clause
    ('Scrap the rule that the band wears the red jackets for outdoor engagements only when '
     'rain is forecast.',
     'For outdoor engagements the band wears the red jackets, unless rain is forecast, in '
     'which case the black waterproof tunics are used.', 'opposite'),
    ('Forget that traps must have an otter guard fitted only if they are set in a pond with no '
     'river connection.',
     'Traps must have an otter guard fitted unless they are set in a pond with no river '
     'connection.', 'opposite'),
    # the same weight a week against a month
    ('Forget that the tea house orders 3 kg a week of ceremonial-grade Marukyu Koyamaen matcha '
     'from the Uji supplier.',
     'The tea house serves ceremonial-grade matcha from Marukyu Koyamaen, ordered 3 kg a month '
     'from the Uji supplier.', 'unit'),
    # south against north, the stored text longer
    ('Forget that the wassail procession sets off from the Red Lion at 19:00 on 17 January and '
     'walks south to the old orchard.',
     'The wassail procession, led by the Beltane Border Morris side, sets off from the Red Lion '
     'at 19:00 on 17 January and walks north to the old orchard.', 'opposite'),
    # online against a room or a hall
    ('Forget that Aoife Brennan gives online piccolo lessons on Tuesdays at 16:30 lasting 45 '
     'minutes.',
     'Piccolo lessons with Aoife Brennan run on Tuesdays at 16:30 in Room 3B and last 45 '
     'minutes.', 'environment'),
    ('Delete the note that trust members meet online on the last Thursday of the month at 7 pm '
     'to plan work parties.',
     'Trust members meet on the last Thursday of the month at 7 pm in the village hall to plan '
     'work parties.', 'environment'),
    # moving down against moving up
    ('Drop the rule that grade 5 students practise the Trevor Wye 3rd edition Mozart excerpt at '
     '88 bpm before moving down to 72 bpm.',
     'Grade 5 students practise the Mozart excerpt from the 3rd edition of the Trevor Wye '
     'piccolo book at 72 bpm before moving up to 88 bpm.', 'opposite'),
    # a kind of customer the stored text never narrows to
    ('Delete the rule that only first-time customers pay a 50% deposit before any design is '
     'cut.',
     'Customers pay a 50% deposit before any design is cut, under terms sheet v3; the balance '
     'is due on collection.', 'scope'),
    # another purpose of arriving early
    ("Forget that all members must arrive by 6 pm to set out the chairs for the spring concert "
     "at St Anne's church hall on Saturday 14 March.",
     "The spring concert is on Saturday 14 March at St Anne's church hall, and all members must "
     "arrive by 6 pm to tune.", 'condition'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("We don't need the note any more that Hartwell Kitchens' caterers deliver through the "
     "south door so they don't cross the ceremony aisle.",
     "The caterers from Hartwell Kitchens use the south door for deliveries so that they do "
     "not cross the ceremony aisle."),
    ("We don't need the note on Kenji Watanabe checking the loan piccolo pads every six weeks "
     "at £35 an instrument any more.",
     "Pads on the loan piccolos are checked every six weeks by the repairer Kenji Watanabe, "
     "who charges £35 per instrument."),
    ("Remove the price note: small jellied eels £4.50, large £7, pie and mash with liquor "
     "£6.80.",
     "A small pot of jellied eels costs £4.50 and a large pot £7; pie and mash with liquor is "
     "£6.80."),
    ("Please drop the rule that grade five pupils practise the Mozart excerpt from the Trevor "
     "Wye piccolo book, 3rd edition, at 72 bpm before going up to 88 bpm.",
     "Grade 5 students practise the Mozart excerpt from the 3rd edition of the Trevor Wye "
     "piccolo book at 72 bpm before moving up to 88 bpm."),
    ("Remove the memory that we only engrave equation of time tables on new plates when the "
     "client requests them.",
     "Equation of time tables are only engraved on new plates when the client asks for them."),
    ("Forget that we order 3 kg of Marukyu Koyamaen ceremonial matcha per month from the Uji "
     "supplier.",
     "The tea house serves ceremonial-grade matcha from Marukyu Koyamaen, ordered 3 kg a month "
     "from the Uji supplier."),
    ("Forget that traps need an otter guard fitted unless they're in a pond with no river "
     "connection.",
     "Traps must have an otter guard fitted unless they are set in a pond with no river "
     "connection."),
    # pairs the first cuts of these rules must leave alone
    ("Please forget that dispatch shift handover is at 7 am and 7 pm in the comms room on the "
     "second floor.",
     "Shift handover between dispatch teams happens at 07:00 and 19:00 in the second-floor "
     "comms room."),
    ("Remove the note saying the cover charge is six pounds a head on weekdays and eight at "
     "weekends, with unlimited tea.",
     "Cover charge is £6 per person on weekdays and £8 at weekends, unlimited tea included."),
    ("Please forget that on heavy rain warnings we stick to the flood-risk gully list, "
     "beginning on Mill Street.",
     "When a heavy rain warning is issued, the crew only clears gullies on the flood-risk list, "
     "starting at Mill Street."),
    ("Forget that the seniors twirl 28\" Star Line batons while the juniors use 24\" ones.",
     "Senior majorettes use 28-inch Star Line batons; the junior troupe uses 24-inch."),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []


@pytest.mark.parametrize(("request_text", "bare"), [
    ("We don't need the note any more that the van leaves at six.", "the van leaves at six."),
    ("We don't need the note on the van leaving at six any more.", "the van leaving at six"),
    ("We don't need the memory about the dome anymore.", "the dome"),
    ("We don't need the note on membership fees any more: £60 a year.",
     "membership fees £60 a year."),
    ("Please drop the price note: swan quills £32.", "swan quills £32."),
])
def test_a_no_longer_needed_note_is_read_without_its_wrapper(request_text: str,
                                                            bare: str) -> None:
    assert strip_preamble(request_text) == bare

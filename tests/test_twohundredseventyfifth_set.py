"""Rules from the two-hundred-and-seventy-fifth to two-hundred-and-eightieth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording or a pair the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # a purpose the stored text never gives ('to build stamina')
    ('Forget that chasers do the 9-pole sprint drill before Saturday matches to build stamina.',
     'Before every Saturday match, chasers do the 9-pole sprint drill, 3 sets of '
     "4 reps, so that they're warmed up for dives.", 'condition'),
    # a discount against a charge extra
    ('Drop the note that a 6-week rush astrolabe order gets a £200 discount.',
     'Standard astrolabe orders take 10 weeks; a 6-week rush order costs an extra £200.', 'opposite'),
    # another bare tool after 'with'
    ('Forget that Lena cleans the glass bowls with white vinegar before each concert.',
     'Before each concert Lena cleans the glass bowls with isopropyl alcohol and '
     'wets her fingers with distilled water.', 'word'),
    # every term against every August
    ("Forget that Kestrel Academy's school instruments are collected every term for a tune-up.",
     "Kestrel Academy's school instruments are collected every August for their annual tune-up.", 'duration'),
    # a way of cleaning in one hyphenated word
    ('Forget that every returned petticoat is dry-cleaned at Crestline Laundry before '
'it goes out again.',
     'Every returned petticoat goes to Crestline Laundry for a steam clean before'
     ' it is hired out again.', 'word'),
    # doers of one verb swapped, the stored verb's object left out
    ("Forget that Hiroko Tanabe covers Marcus Bell's Tuesday advanced class when he's travelling.",
     'Sensei Hiroko Tanabe teaches the Tuesday advanced class at 19:30; Marcus '
     'Bell covers when she is travelling.', 'roles'),
    # fitted on against taken off
    ('Delete the note that the crank handle is fitted on before the organ is loaded '
'into the Transit.',
     'The organ travels in the Ford Transit on ramps, and the crank handle is '
     'taken off before loading.', 'opposite'),
    # a noun doer and a named one swapped around the same verb
    ('Drop the note that the client emails Tom Oakes progress reports on the first '
'Monday of each month.',
     'Project lead Tom Oakes emails client progress reports on the first Monday of each month.', 'roles'),
    # the active doer named elsewhere in the stored text
    ('Forget that Nadia Kowal is the one who diagnoses cable-drive faults on speedometers.',
     'Cable-drive faults are diagnosed by Alan Pryce; electronic speedos go to Nadia Kowal.', 'role'),
    # steps joined by arrows in the other order
    ("Forget that Harcourt's lift attendants rotate C -> B -> A on their 4-hour shifts.",
     "Lift attendants at Harcourt's department store work 4-hour shifts, rotating"
     ' A -> B -> C and moving on to the next lift after each break.', 'roles'),
    # an 'unless' naming other things, no word shared
    ('Forget that fret levelling takes 3 working days at £85 unless the frets need '
'full replacement first.',
     'Fret levelling is quoted at £85 and takes 3 working days, unless the neck '
     'needs a truss rod adjustment first.', 'condition'),
    # a member joined to the stored subject
    ('Delete the note that juniors under 16 and over-65s play for €6.',
     'An adult round costs €12; juniors under 16 play for €6.', 'scope'),
    # two verbs and their days swapped, the second subject left out
    ('Remove the memory that Crystal Linen Services delivers clean towels and felt '
'hats on Tuesdays and collects the dirty ones on Fridays.',
     'Crystal Linen Services collects dirty towels and felt hats on Tuesdays and '
     'delivers them clean on Fridays.', 'roles'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Please delete the note saying our chasers run three sets of four reps of the '
'nine-pole sprint drill ahead of each Saturday match to warm up for diving.',
     'Before every Saturday match, chasers do the 9-pole sprint drill, 3 sets of '
     "4 reps, so that they're warmed up for dives."),
    ('Delete the note saying a standard astrolabe order takes ten weeks and a six-week'
' rush order is £200 extra.',
     'Standard astrolabe orders take 10 weeks; a 6-week rush order costs an extra £200.'),
    ('Forget that before every concert Lena wipes the glass bowls with isopropyl '
'alcohol and wets her fingers with distilled water.',
     'Before each concert Lena cleans the glass bowls with isopropyl alcohol and '
     'wets her fingers with distilled water.'),
    ('Delete the memory that returned petticoats are steam cleaned by Crestline '
'Laundry before going out on hire again.',
     'Every returned petticoat goes to Crestline Laundry for a steam clean before'
     ' it is hired out again.'),
    ('Forget that the organ is moved in the Ford Transit using ramps, with the crank '
'handle removed prior to loading.',
     'The organ travels in the Ford Transit on ramps, and the crank handle is '
     'taken off before loading.'),
    ('Drop the note that client progress reports are emailed by project lead Tom Oakes'
' on the first Monday of every month.',
     'Project lead Tom Oakes emails client progress reports on the first Monday of each month.'),
    ('Delete the memory that Alan Pryce diagnoses cable-drive faults and Nadia Kowal '
'takes the electronic speedometers.',
     'Cable-drive faults are diagnosed by Alan Pryce; electronic speedos go to Nadia Kowal.'),
    ("Delete the note that Harcourt's lift attendants do four-hour shifts, rotating A "
'then B then C and moving to the next lift after each break.',
     "Lift attendants at Harcourt's department store work 4-hour shifts, rotating"
     ' A -> B -> C and moving on to the next lift after each break.'),
    ('Drop the memory that Marcus Bell, the section leader, checks all the sousaphone '
'mouthpieces on Fridays before the football game.',
     'Section leader Marcus Bell inspects every sousaphone mouthpiece on Friday '
     'before the football game.'),
    # pairs the first cuts of these rules must leave alone
    ("Forget that Alan Pryce diagnoses cable-drive faults.",
     "Cable-drive faults are diagnosed by Alan Pryce; electronic speedos go to Nadia Kowal."),
    ("Forget that the report is double-checked by Sam.", "Sam checked the report twice."),
    ("Forget that the crank handle is fitted on the organ.",
     "The crank handle is put on the organ."),
    ("Forget that the team rotates A \u2192 B \u2192 C.", "The team rotates A -> B -> C."),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []

"""A request that says the note changed ("— that's no longer right", "Lars doesn't do this
anymore, so remove the note about …", "Priya no longer makes …") is read without that verdict;
a request that asks to forget a statement with a negation keeps the negation. The
rewordings below come from the forget sets (each was refused, most as "one says the opposite
of the other"); the guards are near misses from the same sets, which must keep what makes them
another fact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory_mcp.services import agreement
from memory_mcp.services.wrappers import strip_preamble

_VERDICTS = [
    ("Gary Mills coupling the road 6 intermodal wagons ahead of the 04:15 Felixstowe departure "
     "— that's no longer right",
     "Gary Mills coupling the road 6 intermodal wagons ahead of the 04:15 Felixstowe departure"),
    ("Lettuce NFT channel conductivity target of 1.2 to 1.6 mS/cm: no longer valid",
     "Lettuce NFT channel conductivity target of 1.2 to 1.6 mS/cm"),
    ("Anything damp goes in the burn skip except 100% cotton; we don't do that anymore",
     "Anything damp goes in the burn skip except 100% cotton"),
    ("The six-metre ladder limit - please forget it, that's changed.",
     "The six-metre ladder limit"),
    ("The guild gathering at ten in St Aidan's church hall isn't how we do it any more",
     "The guild gathering at ten in St Aidan's church hall"),
    ("That nightly 10 pm start for ageing oven 1 is no longer true",
     "That nightly 10 pm start for ageing oven 1"),
    ("The Canopy Run weight limits, 30 to 120 kilos, are no longer valid; please forget them.",
     "The Canopy Run weight limits, 30 to 120 kilos"),
    ("One jumper per bed at Northgate: we no longer need that memory.",
     "One jumper per bed at Northgate"),
    ("Lars doesn't do this anymore, so remove the note about Lars checking the toboggan weekly.",
     "Lars checking the toboggan weekly."),
    ("The deposit changed, so delete the note that scooter hire needs a £50 deposit.",
     "scooter hire needs a £50 deposit."),
    ("No need to remember the Tuesday 7:30 am mill safety walk any more.",
     "the Tuesday 7:30 am mill safety walk."),
    ("You no longer need to remember that the Bernina must be booked two days ahead.",
     "the Bernina must be booked two days ahead."),
    ("Kim Okafor isn't running the Tuesday seniors' session in Hall 1 any more, so delete that "
     "memory.", "Kim Okafor is running the Tuesday seniors' session in Hall 1"),
    ("Stewarding at St Anne's Hall is no longer allocated by Nadia Okafor, so please wipe that "
     "note.", "Stewarding at St Anne's Hall is allocated by Nadia Okafor"),
    ("Corporate disks get destroyed in the Untha RS40; delete that note.",
     "Corporate disks get destroyed in the Untha RS40"),
]


@pytest.mark.parametrize(("request_text", "bare"), _VERDICTS)
def test_the_verdict_on_the_note_is_not_part_of_the_fact(request_text: str, bare: str) -> None:
    assert strip_preamble(request_text) == bare


_KEPT = [
    # the ask says what to forget: the negation after it is the fact's
    ("Remove from memory: Gareth Powell is no longer the band's soprano cornet player.",
     "no longer"),
    ("Delete: bulk soya meal from Liverpool port no longer goes into intake pit 1.", "no longer"),
    ("Forget that the shop is no longer closed on Mondays.", "no longer"),
    ("No need to keep this: refunds are never given, even if a performance is cancelled.",
     "never"),
    # two negations: which one is the verdict is not clear, so neither goes
    ("Priya no longer signs off batches without a pH test", "no longer"),
    # a request is read again once its ask is gone: what was the fact must stay the fact
    ("Forget that volunteers under 16 no longer need a parent with them.", "no longer"),
    ("Forget that the scale is no longer accurate.", "no longer accurate"),
    ("Forget that the gauge isn't right any more.", "right any more"),
    # with no ask at all, a statement may be the fact itself
    ("Kim Okafor isn't running the Tuesday seniors' session any more", "isn't"),
    # "clear it" may be the fact's own instruction (saves are read with this too)
    ("If the print queue jams, clear it.", "clear it"),
    # a change said as the fact's own words, with no sign it is about the note
    ("The oil is changed monthly, so clear the drip tray first.", "oil is changed"),
]
_ALL = _VERDICTS + _KEPT


@pytest.mark.parametrize(("request_text", "kept"), _KEPT)
def test_a_negation_that_is_the_fact_stays(request_text: str, kept: str) -> None:
    assert kept in strip_preamble(request_text)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Priya Nair no longer makes the corrugator's starch glue in the starch kitchen at half "
     "past five each morning, so forget that.",
     "Priya Nair makes the starch glue for the corrugator in the starch kitchen at 05:30 every "
     "morning."),
    ("The guild gathering at ten on the first Saturday of the month in St Aidan's church hall "
     "isn't how we do it any more",
     "Guild meetings are on the first Saturday of each month at 10 am in St Aidan's church hall."),
])
def test_a_stale_note_agrees_with_the_fact_it_names(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Visa interview slots are released on the live booking portal every Monday at 2 pm local "
     "time — no longer true.",
     "Visa interview slots are released on the live booking portal every Monday at 9 am local "
     "time."),
    ("Forget that pump 6 on the forecourt is no longer diesel only.",
     "Pump 6 on the forecourt is diesel only."),
])
def test_a_near_miss_with_a_verdict_stays_a_near_miss(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored)


def test_a_request_read_twice_reads_the_same() -> None:
    """The forget path strips a request and later compares the stripped text, which strips it
    again: each form here must leave nothing a second reading would take."""
    texts = [p[0] for p in _ALL]
    for text in texts:
        once = strip_preamble(text)
        assert strip_preamble(once) == once, text


def test_every_request_of_the_forget_sets_reads_the_same_twice() -> None:
    """The same over every request the forget sets hold (33,000 of them, in about 2 s)."""
    root = Path(__file__).resolve().parents[1] / "bench" / "data"
    for path in sorted(root.glob("forget_*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for case in data.get("cases", []) if isinstance(data, dict) else []:
            once = strip_preamble(case["request"])
            assert strip_preamble(once) == once, (path.name, case["request"])

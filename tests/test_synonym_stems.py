"""Synonyms the forget sets' rewordings swapped most often (counted over 497 sets' refused
rewordings), and a denied opposite read as its other side. Each pair below was refused as
"different things" or "one word differs" before; each near miss must still be told apart."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement
from memory_mcp.services.stems import stem


@pytest.mark.parametrize(("one", "other"), [
    ("fresh", "new"), ("additional", "extra"), ("beside", "next"), ("picks", "collects"),
    ("swapped", "replaced"), ("bigger", "big"), ("larger", "bigger"), ("full", "whole"),
    ("logs", "records"), ("anybody", "anyone"), ("upper", "top"), ("sooner", "earlier"),
    ("annual", "yearly"), ("payable", "due"), ("telephone", "phone"), ("defective", "faulty"),
])
def test_synonyms_share_a_stem(one: str, other: str) -> None:
    assert stem(one) == stem(other)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Forget that each August, while we're shut, Studio A's sprung floor is refinished with a "
     "new coat.",
     "The sprung floor in Studio A gets a fresh coat of finish every August while the studio "
     "is closed."),
    ("Forget the quarantine ammonia routine: morning readings with the API Master Test Kit, and "
     "an additional water change whenever it's over 0.25 ppm.",
     "Ammonia in the quarantine system is tested every morning with the API Master Test Kit; "
     "above 0.25 ppm, do an extra water change."),
    ("Drop the one about wet-sieving environmental soil samples through a two-millimetre mesh "
     "in the flotation tank next to the spoil heap.",
     "Environmental soil samples are wet-sieved at 2 mm in the flotation tank beside the spoil "
     "heap."),
    ("Please forget that all cable runs use RG6 and RG59 is banned due to signal loss.",
     "Use RG6 cable for all runs; RG59 is not allowed because of signal loss."),
])
def test_rewordings_with_synonyms_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("Forget that all cable runs use RG6 and RG59 is allowed despite the signal loss.",
     "Use RG6 cable for all runs; RG59 is banned because of signal loss.", "opposite"),
    ("Forget that all cable runs use RG6 and RG59 is not banned despite the signal loss.",
     "Use RG6 cable for all runs; RG59 is not allowed because of signal loss.", "negation"),
    ("Forget that the sprung floor in Studio A gets a fresh coat of finish every June.",
     "The sprung floor in Studio A gets a new coat of finish every August.", "month"),
])
def test_near_misses_still_differ(request_text: str, stored: str, kind: str) -> None:
    assert kind in kinds(request_text, stored)

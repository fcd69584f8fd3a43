"""Initials one text writes and the other spells out (``services/spelled.py``): read as the
same words, so a rewording that shortens a trade's names agrees, and initials the other text
does not spell stay a name of their own."""

from __future__ import annotations

import pytest

from memory_mcp.services import agreement
from memory_mcp.services.spelled import spelled_out


@pytest.mark.parametrize(("request_text", "stored", "read"), [
    ('the DPO signs off each request', 'the data protection officer approves each request',
     'the data protection officer signs off each request'),
    ('German FTO searches', 'Freedom-to-operate searches for Germany',
     'German Freedom-to-operate searches'),
    ('the LSTs report to him', 'the life support techs report to him',
     'the life support techs report to him'),
    ('CPOs are served by legal', 'Compulsory purchase orders are served by legal',
     'Compulsory purchase orders are served by legal'),
    ('sent to RBKC', 'sent to the Royal Borough of Kensington and Chelsea',
     'sent to Royal Borough of Kensington and Chelsea'),
])
def test_initials_take_the_other_texts_words(request_text: str, stored: str, read: str) -> None:
    assert spelled_out(request_text, stored)[0] == read


@pytest.mark.parametrize(("request_text", "stored"), [
    ('returns go to the HSE', 'returns go to the Environment Agency'),  # spells nothing there
    ('the EA gets returns', 'the EA gets returns from the Environment Agency'),  # both write it
    ('the QA team', 'a quick audit and a quality assurance team'),  # two runs: neither is read
])
def test_initials_the_other_does_not_spell_once_stay(request_text: str, stored: str) -> None:
    assert spelled_out(request_text, stored)[0] == request_text


def test_the_stored_text_is_spelled_out_too() -> None:
    assert spelled_out('the data protection officer', 'the DPO') == (
        'the data protection officer', 'the data protection officer')


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that we only share data with DWP via the NFI portal once the DPO has signed off '
     'each request.', 'The tenancy fraud team shares data with the DWP through the NFI portal '
     'only after the data protection officer approves each request.'),
    ('Forget that monthly discharge returns go to the EA by the 5th.',
     'Monthly discharge returns go to the Environment Agency by the 5th.'),
])
def test_a_rewording_in_initials_agrees(request_text: str, stored: str) -> None:
    assert not agreement.conflicts(request_text, stored)


def test_other_initials_are_another_body() -> None:
    assert agreement.conflicts('Forget that monthly discharge returns go to the HSE by the 5th.',
                               'Monthly discharge returns go to the Environment Agency by the '
                               '5th.')

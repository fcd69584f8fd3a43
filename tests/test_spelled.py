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


@pytest.mark.parametrize(("request_text", "stored", "read"), [
    # a title before a person's two names, a word it qualifies, a data centre after a place
    ('DS Aoife Brennan coordinates', 'Detective Sergeant Aoife Brennan coordinates',
     'Detective Sergeant Aoife Brennan coordinates'),
    ('a pool comes back WNV-positive', 'positive for West Nile virus',
     'a pool comes back West Nile virus-positive'),
    ('fails over to the Frankfurt DC', 'the Frankfurt data center',
     'fails over to the Frankfurt data center'),
])
def test_titles_and_qualifiers_are_spelled_out(request_text: str, stored: str,
                                               read: str) -> None:
    assert spelled_out(request_text, stored)[0] == read


@pytest.mark.parametrize(("request_text", "stored"), [
    ('returns go to the HSE', 'returns go to the Environment Agency'),  # spells nothing there
    # another model, a code's prefix, a unit, a product's name: no initials (each forgot a
    # near miss when read as them)
    ('the Toolex Alpha Mk III, is reserved', 'the Toolex Alpha Mk II, is reserved for it in'),
    ('job numbers starting SN- and a photo', 'the awning serial number and a photo'),
    ('under 20 MB.', 'under 20 megapixels big'),
    ('towels (account LS-044)', 'Linden Spa towels'),
    ('scores go on TT Leagues within 48 hours', 'scores go on Table Tennis 365 within 48 hours'),
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

"""``fit_structured`` skips its copy when a result already fits. The shortcut must hold the
same budget (within the limit, every field within its cap), and answer exactly as the full
fitting whenever anything has to be cut. (Near the limit the full fitting may cut a result
that does fit, or even leave an item out, since it reserves room for the "truncated" marks
first; the shortcut keeps such a result whole.)"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_mcp.mcp import budget

words = st.text(alphabet="abcdefgh é\"\\\n", min_size=0, max_size=40)
long_text = st.builds(lambda w, n: (w or "x") * n, words, st.integers(0, 120))
hit = st.fixed_dictionaries({
    "id": st.uuids().map(str), "memory": long_text, "category": st.none() | words,
    "createdBy": long_text, "score": st.floats(0, 1),
})
result = st.fixed_dictionaries({
    "space": words, "query": long_text, "results": st.lists(hit, max_size=12),
    "note": st.none() | long_text,
})


def _slow(data: dict[str, Any], limit: int, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    with monkeypatch.context() as m:
        m.setattr(budget, "_fits", lambda *_: False)
        return budget.fit_structured(data, limit)


@settings(max_examples=300, deadline=None)
@given(data=result, limit=st.integers(200, 20_000))
def test_the_shortcut_answers_as_the_full_fitting(data: dict[str, Any], limit: int) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        before = copy.deepcopy(data)
        fast = budget.fit_structured(data, limit)
        assert data == before, "the input is never modified"
        if fast is data:  # the shortcut: it must really fit
            assert budget.json_size(fast) <= limit
            for item in fast["results"]:
                assert len(item["memory"]) <= budget.MEMORY_CHARS
                assert len(item["createdBy"]) <= budget.NAME_CHARS
        else:
            assert fast == _slow(data, limit, monkeypatch)


def test_a_result_that_fits_is_returned_without_a_copy() -> None:
    data = {"results": [{"id": "a", "memory": "short"}], "space": "s"}
    assert budget.fit_structured(data, 10_000) is data
    over = {"results": [{"id": "a", "memory": "m" * (budget.MEMORY_CHARS + 1)}]}
    fitted = budget.fit_structured(over, 100_000)
    assert fitted is not over and fitted["results"][0]["memoryTruncated"] is True

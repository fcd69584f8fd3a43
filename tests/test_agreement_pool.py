"""The indexed word matcher behind the forget/version rules agrees with the plain definition.

``agreement._Pool.has`` replaced a comparison of every word with every other word (quadratic:
tens of seconds for two long texts, and any writer could make a save pay it). It must answer
exactly as ``_same_word`` over the whole pool did, or refuse (say "no match") in the one place
it bounds its work — never match where the definition does not.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memory_mcp.services import agreement

WORDS = st.text(alphabet="abcdeps", min_size=1, max_size=9)


@settings(max_examples=400, deadline=None)
@given(x=WORDS, pool=st.frozensets(WORDS, max_size=30), ratio=st.sampled_from([0.0, 0.75]))
def test_pool_matches_the_definition(x: str, pool: frozenset[str], ratio: float) -> None:
    expected = any(agreement._same_word(x, w, ratio) for w in pool)
    assert agreement._pool(pool).has(x, ratio) == expected


def test_pool_refuses_rather_than_matches_past_its_scan_bound() -> None:
    # 100 longer words share the prefix "abc"; only the last one is short enough for ratio 0.75
    pool = frozenset({f"abc{i:03d}xxxxxxx" for i in range(100)} | {"abcz"})
    assert any(agreement._same_word("abc", w, 0.75) for w in pool)  # by definition: "abcz"
    assert not agreement._pool(pool).has("abc", 0.75)  # "abcz" sorts past the bound: refused
    assert agreement._pool(pool).has("abc", 0.0)  # any word starting with it will do


def test_long_texts_compare_in_bounded_work() -> None:
    """Two 100,000-character texts that differ in names: the rules still name the difference.
    (Before, this comparison ran for minutes; no timing is asserted, the call must return.)"""
    base = " ".join(f"Service{i} handles queue{i} for team{i}." for i in range(4000))
    found = agreement.conflicts(base + " Alice owns it.", base + " Bob owns it.")
    assert any(c.kind == "name" for c in found), found
    assert agreement.conflicts(base, base) == []

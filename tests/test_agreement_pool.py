"""The indexed word matcher behind the forget/version rules agrees with the plain definition.

``word_pool.Pool.has`` replaced a comparison of every word with every other word (quadratic:
tens of seconds for two long texts, and any writer could make a save pay it). It must answer
exactly as ``_same_word`` over the whole pool did, or refuse (say "no match") in the one place
it bounds its work — never match where the definition does not.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_mcp.services import agreement, facets, stems, word_pool

WORDS = st.text(alphabet="abcdeps", min_size=1, max_size=9)


@settings(max_examples=400, deadline=None)
@given(x=WORDS, pool=st.frozensets(WORDS, max_size=30), ratio=st.sampled_from([0.0, 0.75]))
def test_pool_matches_the_definition(x: str, pool: frozenset[str], ratio: float) -> None:
    expected = any(word_pool.same_word(x, w, ratio) for w in pool)
    assert word_pool.pool(pool).has(x, ratio) == expected


def test_pool_refuses_rather_than_matches_past_its_scan_bound() -> None:
    # 100 longer words share the prefix "abc"; only the last one is short enough for ratio 0.75
    pool = frozenset({f"abc{i:03d}xxxxxxx" for i in range(100)} | {"abcz"})
    assert any(word_pool.same_word("abc", w, 0.75) for w in pool)  # by definition: "abcz"
    assert not word_pool.pool(pool).has("abc", 0.75)  # "abcz" sorts past the bound: refused
    assert word_pool.pool(pool).has("abc", 0.0)  # any word starting with it will do


def test_long_texts_compare_in_bounded_work() -> None:
    """Two 100,000-character texts that differ in names: the rules still name the difference.
    (Before, this comparison ran for minutes; no timing is asserted, the call must return.)"""
    base = " ".join(f"Service{i} handles queue{i} for team{i}." for i in range(4000))
    found = agreement.conflicts(base + " Alice owns it.", base + " Bob owns it.")
    assert any(c.kind == "name" for c in found), found
    assert agreement.conflicts(base, base) == []


def _long(tail: str, n: int = 300) -> str:
    return " ".join(f"Service{i} handles queue{i} for team{i}." for i in range(n)) + " " + tail


def test_long_texts_far_apart_are_told_apart_without_reading_the_rules(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``LONG_TEXT`` characters, texts more than a few words apart are different texts,
    decided from their word sets alone: reading the rules over two 100,000-character texts
    took ~3 s a pair, in the event loop."""
    def unread(_text: str) -> None:
        raise AssertionError("the rules were read")

    a, b = _long("Alice owns it."), _long("Bob owns it.", 280) + " plus four other words here"
    assert len(a) > facets.LONG_TEXT
    monkeypatch.setattr(agreement, "facets", unread)
    found = agreement.conflicts(a, b)
    assert [(c.kind, c.subject) for c in found] == [("long", True)], found
    assert agreement.conflicts(a, "Alice owns it.")[0].kind == "long"


def test_long_texts_a_value_apart_are_still_read_by_the_rules() -> None:
    found = agreement.conflicts(_long("The limit is 300 requests."),
                                _long("The limit is 400 requests."))
    assert [c.kind for c in found] == ["number"], found


def test_long_texts_do_not_fill_the_facts_cache() -> None:
    """A long text's facets hold megabytes: they go to a cache of a few entries, never to
    the 4,096 of the facts (one writer's long saves would otherwise hold gigabytes)."""
    facets._short_facets.cache_clear()
    facets._long_facets.cache_clear()
    for i in range(40):
        facets.facets(_long(f"Entry {i}.", 40 if i % 2 else 300))  # ~1,500 and ~11,000 chars
    assert len(_long("", 40)) > facets.CACHED_CHARS
    assert facets._short_facets.cache_info().currsize == 0
    assert facets._long_facets.cache_info().currsize <= 16
    facets.facets("The cache TTL is 300 seconds.")
    assert facets._short_facets.cache_info().currsize == 1


def test_dates_of_a_long_text_are_what_its_facets_say() -> None:
    text = _long("May I ask: the retro moved from Mondays to Friday, 3 March, and in May.")
    read = facets.facets(text)
    assert facets.dates(text) == (read.weekdays, read.months)
    assert read.weekdays and read.months


def test_stemming_in_many_threads_gives_every_word_its_own_stem() -> None:
    """A snowball stemmer keeps its word in the object: one shared by threads (long texts'
    rules run in worker threads) returned other words' stems or raised IndexError."""
    words = [f"{w}{suffix}" for w in ("connect", "deploy", "generaliz", "organiz", "replicat")
             for suffix in ("ations", "ing", "ed", "ers", "ational", "ivenesses")] * 40
    plain = stems.stem.__wrapped__
    expected = [plain(w) for w in words]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(lambda ws: [plain(w) for w in ws], [words] * 8))
    finally:
        sys.setswitchinterval(interval)
    assert all(r == expected for r in results)

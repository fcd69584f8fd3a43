"""search_memory's ranking and honesty: score fusion, signals, weak hits, maintained counts.

Real PostgreSQL + pgvector and the real local model.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from memory_mcp.services import memories, rerank
from memory_mcp.services.runtime import Runtime

pytestmark = pytest.mark.anyio

FACTS = [
    "Production deploys happen every Tuesday at 14:00 UTC.",
    "The payments team owns the billing service.",
    "Invoices are sent to clients on the last business day of the month.",
    "Alice prefers dark mode in her editor.",
    "The staging database is wiped every night at midnight.",
]


async def _space_with(runtime: Runtime, world: Any, facts: list[str]) -> tuple[str, Any]:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    for fact in facts:
        assert (await memories.save(runtime, m.principal, fact, None, space))["action"] == "saved"
    return space, m


async def _search(runtime: Runtime, m: Any, space: str, query: str, **kw: Any) -> dict[str, Any]:
    return await memories.search(runtime, m.principal, query=query, keyword=None, category=None,
                                 include_profile=False, container_tag=space, limit=5, **kw)


async def test_one_shared_word_does_not_outrank_the_meaning(runtime: Runtime, world: Any) -> None:
    """"invoicing" is the only stem the question shares with any fact, and that fact is wrong:
    rank fusion put that fact first; score fusion keeps the fact the question means."""
    space, m = await _space_with(runtime, world, FACTS)
    query = "Who is responsible for invoicing software?"
    found = await _search(runtime, m, space, query)
    assert found["ranking"] == "hybrid"
    assert found["results"][0]["memory"] == FACTS[1]
    by_text = {h["memory"]: h for h in found["results"]}
    assert by_text[FACTS[2]]["lexical"] == 0  # one stem in common is no lexical evidence
    rrf = await _search(replace(runtime, settings=runtime.settings
                                .model_copy(update={"fusion": "rrf"})),
                        m, space, query)
    assert rrf["ranking"] == "hybrid-rrf"
    assert rrf["results"][0]["memory"] == FACTS[2]  # the failure score fusion fixes


async def test_words_in_common_lift_the_right_fact(runtime: Runtime, world: Any) -> None:
    space, m = await _space_with(runtime, world, FACTS)
    found = await _search(runtime, m, space, "staging database wiped")
    top = found["results"][0]
    assert top["memory"] == FACTS[4]
    assert top["lexical"] > 0.9 and top["score"] > top["semantic"]
    assert top["relevance"] == "strong" and found["noGoodMatch"] is False
    for hit in found["results"]:  # every hit carries its signals
        assert {"semantic", "lexical", "score", "relevance"} <= hit.keys()
        assert hit["semantic"] <= hit["score"] <= 1


async def test_off_topic_query_says_no_good_match(runtime: Runtime, world: Any) -> None:
    space, m = await _space_with(runtime, world, FACTS)
    found = await _search(runtime, m, space, "What is the capital city of Australia?")
    assert found["noGoodMatch"] is True
    assert 0 < found["count"] <= 3  # the closest few, still shown
    assert all(h["relevance"] == "weak" for h in found["results"])
    assert found["weakBelow"] > max(h["score"] for h in found["results"])
    from memory_mcp.mcp import formatting

    assert formatting.search(found).startswith("No good match in space")


def _boost(runtime: Runtime, value: float) -> Runtime:
    return replace(runtime, settings=runtime.settings.model_copy(
        update={"answer_type_boost": value}))


async def test_a_who_question_prefers_the_fact_that_names_someone(runtime: Runtime,
                                                                   world: Any) -> None:
    """Both facts are about the mobile app; the question asks *who*. By meaning alone the fact
    naming a language is a little closer; answer-type compatibility puts the one naming a person
    first, and changes nothing else about its hit (semantic, lexical) but the bounded score."""
    facts = ["The mobile app is written in Kotlin.",
             "Mia is the product owner for the mobile app.", *FACTS[2:]]
    space, m = await _space_with(runtime, world, facts)
    query = "Who sets the roadmap for the phone app?"
    before = await _search(_boost(runtime, 0.0), m, space, query)
    assert before["results"][0]["memory"] == facts[0]  # the failure this fixes
    found = await _search(runtime, m, space, query)
    assert found["ranking"] == "hybrid"
    assert [h["memory"] for h in found["results"][:2]] == [facts[1], facts[0]]
    old = {h["memory"]: h for h in before["results"]}
    boost = runtime.settings.answer_type_boost
    for hit in found["results"]:
        was = old[hit["memory"]]
        assert (hit["semantic"], hit["lexical"]) == (was["semantic"], was["lexical"])
        expected = was["score"] + (boost * (1 - was["score"]) if hit["memory"] == facts[1] else 0)
        assert hit["score"] == pytest.approx(expected, abs=1e-3)  # shown rounded
        assert hit["semantic"] <= hit["score"] <= 1
        # the hit says why its score is above its semantic/lexical mix
        assert hit.get("answerType") == ("person" if hit["memory"] == facts[1] else None)
    assert "answerType" not in before["results"][0]
    from memory_mcp.mcp import formatting

    assert "answers a person question" in formatting.search(found)


async def test_an_answer_type_never_makes_a_weak_hit_relevant(runtime: Runtime,
                                                              world: Any) -> None:
    """An off-topic *who* question: the facts naming people are still weak, with the same scores,
    and the answer still says there is no good match."""
    space, m = await _space_with(runtime, world, FACTS)
    query = "Who won the football world cup in 1998?"
    found = await _search(runtime, m, space, query)
    plain = await _search(_boost(runtime, 0.0), m, space, query)
    assert found["noGoodMatch"] is plain["noGoodMatch"] is True
    assert [(h["memory"], h["score"]) for h in found["results"]] == \
        [(h["memory"], h["score"]) for h in plain["results"]]


@pytest.mark.parametrize(("query", "kind"), [
    ("Who owns the billing service?", "person"), ("whom should I ask?", "person"),
    ("When is the next release?", "time"), ("On which weekday do we deploy?", "time"),
    ("By when is the report due?", "time"), ("How often do keys rotate?", "time"),
    ("How many replicas run?", "quantity"), ("How long are logs kept?", "quantity"),
    ("Where are the backups stored?", "place"), ("In which city is the office?", "place"),
    ("What is our deploy tool?", None), ("Which framework do we use?", None),
    ("Why did the build fail?", None), ("Is Frank on call?", None),
])
def test_the_answer_type_a_question_asks_for(query: str, kind: str | None) -> None:
    assert rerank.expected(query) == kind


@pytest.mark.parametrize(("text", "kinds"), [
    ("Priya approves every schema migration.", {"person"}),
    ("The platform team maintains the cluster.", {"person"}),
    ("Backups run every night at 02:00.", {"time"}),
    ("Deploys happen on Tuesdays.", {"time"}),
    ("The search service runs on three replicas.", {"quantity"}),
    ("Logs are kept for 30 days.", {"quantity", "time"}),
    ("Heidi works from the Berlin office.", {"person", "place"}),
    ("Escalations go to the #support channel.", {"place"}),
    ("The mobile app is built with Kotlin.", set()),
])
def test_the_answer_types_a_memory_offers(text: str, kinds: set[str]) -> None:
    assert rerank.offers(text) == kinds


async def test_a_hit_that_matches_words_but_not_meaning_is_never_strong(
        runtime: Runtime, world: Any) -> None:
    """A one-word query that is a token of an unrelated memory ranks it by its words (the
    lexical signal is real), but the label says no more than the meaning supports."""
    space, m = await _space_with(runtime, world, [*FACTS, r"Path C:\temp\x holds the nightly "
                                                  "build logs."])
    found = await _search(runtime, m, space, "x")
    hit = next(h for h in found["results"] if "Path" in h["memory"])
    assert hit["lexical"] > 0 and hit["semantic"] < found["weakBelow"]
    assert hit["relevance"] == "moderate" and hit["score"] >= found["weakBelow"]


async def test_counts_are_maintained_by_the_database(runtime: Runtime, world: Any) -> None:
    """space_stats / space_terms (migration 0008) match a recount after saves, a new version, a
    forget and a deleted space's rows."""
    space, m = await _space_with(runtime, world, FACTS)
    await memories.save(runtime, m.principal, "Production deploys happen every Thursday at "
                        "14:00 UTC.", None, space)  # a new version of FACTS[0]
    await memories.forget(runtime, m.principal, FACTS[3], None, space)
    async with runtime.transaction(system=True) as conn:
        cur = await conn.execute(
            """SELECT st.live_memories, st.all_memories,
                      (SELECT count(*) FROM memories m WHERE m.space_id = s.id
                         AND m.is_latest AND NOT m.is_forgotten) AS live,
                      (SELECT count(*) FROM memories m WHERE m.space_id = s.id) AS total
               FROM spaces s JOIN space_stats st ON st.space_id = s.id WHERE s.key = %s""",
            (space,))
        row = await cur.fetchone()
        assert row is not None
        assert (row["live_memories"], row["all_memories"]) == (row["live"], row["total"]) == (4, 6)
        cur = await conn.execute(
            """WITH s AS (SELECT id FROM spaces WHERE key = %s),
                    recount AS (SELECT t.lexeme, count(*) AS df FROM memories m, s,
                                       unnest(m.content_tsv) t
                                WHERE m.space_id = s.id AND m.is_latest AND NOT m.is_forgotten
                                GROUP BY t.lexeme)
               SELECT count(*) AS wrong FROM space_terms st JOIN s ON st.space_id = s.id
               FULL JOIN recount r ON r.lexeme = st.lexeme
               WHERE coalesce(st.df, 0) <> coalesce(r.df, 0)""", (space,))
        wrong = await cur.fetchone()
        assert wrong is not None and wrong["wrong"] == 0
        listed = await conn.execute(
            "SELECT count(*) AS n FROM space_terms st JOIN spaces s ON s.id = st.space_id "
            "WHERE s.key = %s AND st.lexeme = 'thursday' AND st.df = 1", (space,))
        one = await listed.fetchone()
        assert one is not None and one["n"] == 1


def test_relevance_reads_the_unrounded_score() -> None:
    """A hit shows its score rounded to four places; 0.21996 is shown as 0.22 but is still
    below a 0.22 floor, and the word (and "no good match") must say so."""
    from memory_mcp.services import matching, recall

    t = matching.Thresholds(version=0.9, forget=0.7, margin=0.05, weak=0.22, strong=0.5)
    rows: list[dict[str, Any]] = [
        {"id": f"00000000-0000-0000-0000-00000000000{i}", "content": "x", "score": s,
         "semantic": s, "lexical": 0.0} for i, s in enumerate((0.21996, 0.5))]
    hits: list[dict[str, Any]] = [{"score": round(float(r["score"]), 4)} for r in rows]
    recall.label(rows, hits, "hybrid", t)
    assert hits[0]["score"] == 0.22 and hits[0]["relevance"] == "weak"
    assert hits[1]["relevance"] == "strong"


async def test_a_hit_stating_another_day_or_month_than_asked_is_not_strong(
        runtime: Runtime, world: Any) -> None:
    """"Who hosts the Monday standup?" once labelled "The standup host on Tuesday is Kim"
    strong (close in meaning, not the answer). Such hits are moderate at best and say which
    day or month they state; the hit that names the asked day is not touched."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    for text in ("The standup host on Tuesday is Kim.", "The standup host on Wednesday is Raj.",
                 "The on-call lead for March 2027 is Priya."):
        await memories.save(runtime, m.principal, text, None, space)
    found = await _search(runtime, m, space, "Who hosts the Monday standup?")
    hosts = [h for h in found["results"] if "standup" in h["memory"]]
    assert hosts and all(h["relevance"] != "strong" for h in hosts)
    assert hosts[0]["otherDate"].startswith("asks about Monday, states ")
    lead = await _search(runtime, m, space, "Who is the on-call lead in January 2027?")
    priya = next(h for h in lead["results"] if "Priya" in h["memory"])
    assert priya["relevance"] != "strong" and priya["otherDate"] == (
        "asks about January, states March")
    await memories.save(runtime, m.principal, "The standup host on Monday is Lena.", None, space)
    again = await _search(runtime, m, space, "Who hosts the Monday standup?")
    lena = next(h for h in again["results"] if "Lena" in h["memory"])
    assert "otherDate" not in lena and lena["relevance"] == "strong"


@pytest.mark.parametrize(("query", "hit", "expected"), [
    ("Who hosts the Monday standup?", "The standup host on Tuesday is Kim.",
     "asks about Monday, states Tuesday"),
    ("Who hosts the Monday standup?", "The standup host on Monday is Kim.", None),
    ("When is the standup?", "The standup host on Monday is Kim.", None),
    # "May I …" asks; it names no month
    ("May I deploy to production during the holiday freeze?",
     "The holiday freeze runs from December 18 to January 3.", None),
    ("What ships in May?", "The mobile release ships in June.", "asks about May, states June"),
    # two days or months may be a range: a date between them answers it
    ("Which team meetings happen between Monday and Friday?", "The retro is on Wednesday.",
     None),
    ("What are the sales targets from January to March?",
     "The February sales target is 30 deals.", None),
])
def test_another_date_is_read_only_where_the_query_names_one(
        query: str, hit: str, expected: str | None) -> None:
    from memory_mcp.services.matching import other_date

    assert other_date(query, hit) == expected

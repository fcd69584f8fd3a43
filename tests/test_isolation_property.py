"""Space isolation, measured: hypothesis generates scenarios (plans of operations) over random
users (Writer/Reader), spaces, keys, grants (Read/ReadWrite), grant and key revocations, role
changes and user deactivations, which drive every tool, every resource, the ``context`` prompt,
``POST /uploads`` and the local PUT through real HTTP with real keys; after every request the
model in tests/isolation_*.py checks:

(a) no answer contains another space's marker, key or ids unless the key may read there now;
(b) no write lands outside effective ReadWrite (per-space fingerprints read through a system
    transaction, and the model);
(c) an ungranted space is refused with the bytes of a nonexistent one (tag and ids normalised);
(d) a revoked key or a deactivated user's key gets HTTP 401 on the very next request.

This is the small, seeded slice that runs on every ``make test`` (a few hundred requests, counted
and printed with ``-s``); ``bench/isolation.py`` runs the same machinery for at least 10,000.
A failure names the step and every choice it made. Shrinking is off: the server and database
outlive examples, so a replay meets different state and could not confirm a smaller plan.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from isolation_model import RESOURCE_URIS, IsolationFailure, RandomChooser, Reply, normalise
from isolation_server import isolation_settings, quiet_logs, serving
from isolation_world import IsolationWorld, sweep

pytestmark = pytest.mark.timeout(240)

#: The slice: examples x steps, deterministic (derandomize). Each example is a new scenario
#: (its seeding makes ~5 requests), each step one operation (1-3 requests).
EXAMPLES = 7
MIN_STEPS, MAX_STEPS = 20, 60
CHOICES = 16  # integers per step (cycled when an operation makes more choices)
MIN_CALLS = 300


class PlanChooser:
    """Choices read from a plan hypothesis generated up front: each one takes the next integer
    modulo the number of options (cycling).

    The server and the database outlive examples (earlier scenarios stay as foreign content), so
    what can be chosen depends on that state; drawing from hypothesis *during* a run would make
    its data generation state-dependent (FlakyStrategyDefinition). A plan of plain integers,
    interpreted against the current state, keeps generation pure; ``trace`` records what each
    integer chose, for the failure message."""

    def __init__(self, numbers: list[int]) -> None:
        self.numbers = numbers or [0]
        self.i = 0
        self.trace: list[str] = []

    def _next(self) -> int:
        n = self.numbers[self.i % len(self.numbers)]
        self.i += 1
        return n

    def pick(self, label: str, options: Any) -> Any:
        options = list(options)
        chosen = options[self._next() % len(options)]
        self.trace.append(f"{label}={chosen!r}")
        return chosen

    def integer(self, label: str, lo: int, hi: int) -> int:
        chosen = lo + self._next() % (hi - lo + 1)
        self.trace.append(f"{label}={chosen}")
        return chosen

    def flag(self, label: str) -> bool:
        chosen = self._next() % 2 == 1
        self.trace.append(f"{label}={chosen}")
        return chosen


#: Every operation, repeated by its weight (the bench's mix); a plan step names one by index.
WEIGHTED_OPS = [op for op, weight in IsolationWorld.OPS.items() for _ in range(weight)]
NUMBERS = st.lists(st.integers(0, 1 << 16), min_size=CHOICES, max_size=CHOICES)
PLANS = st.tuples(NUMBERS, st.lists(st.tuples(st.integers(0, len(WEIGHTED_OPS) - 1), NUMBERS),
                                    min_size=MIN_STEPS, max_size=MAX_STEPS))


def run_plan(world: IsolationWorld, plan: tuple[list[int], list[tuple[int, list[int]]]]) -> None:
    """One example: a new scenario, then each step's operation; a failure names the step."""
    scenario, steps = plan
    world.new_scenario(PlanChooser(scenario))
    for n, (index, numbers) in enumerate(steps):
        op = WEIGHTED_OPS[index]
        chooser = PlanChooser(numbers)
        try:
            getattr(world, op)(chooser)
        except IsolationFailure as exc:
            raise IsolationFailure(f"step {n} {op}({', '.join(chooser.trace)}): {exc}") from None


@pytest.fixture(scope="module")
def isolation_world(make_database: Any) -> Iterator[IsolationWorld]:
    """A server of its own on a fresh database (nothing but this suite's spaces in it, and no
    rate limits), and the world driving it."""
    url = str(make_database())
    data_dir = Path(tempfile.mkdtemp(prefix="memory-mcp-isolation-"))
    try:
        settings_ = isolation_settings(url, data_dir)
        with quiet_logs(), serving(settings_) as (base, app):
            world = IsolationWorld(base, app, settings_, url, strict=True)
            try:
                yield world
            finally:
                world.close()
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


def test_isolation_holds_across_random_scenarios(isolation_world: IsolationWorld) -> None:
    stats = isolation_world.stats
    calls_before, violations_before = Counter(stats.calls), len(stats.violations)

    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
              print_blob=False, phases=(Phase.explicit, Phase.generate),
              suppress_health_check=list(HealthCheck))
    @given(plan=PLANS)
    def scenarios(plan: tuple[list[int], list[tuple[int, list[int]]]]) -> None:
        run_plan(isolation_world, plan)

    scenarios()
    sweep(isolation_world)  # and every tool, resource and route at least once
    isolation_world.finish()  # the worker done, every author allowed where they wrote
    calls = stats.calls - calls_before
    summary = ", ".join(f"{op} {n}" for op, n in sorted(calls.items()))
    print(f"\nisolation slice: {calls.total()} calls ({summary}); checks {dict(stats.checks)}; "
          f"HTTP {stats.http_seconds:.1f} s, database checks {stats.db_seconds:.1f} s")
    assert stats.violations[violations_before:] == []
    assert stats.mismatches == []
    assert calls.total() >= MIN_CALLS, f"only {calls.total()} calls were made"
    every_tool = {"search_memory", "add_memory", "add_memory:forget", "listDocuments",
                  "getDocument", "deleteDocument", "listMemories", "listSpaces", "whoAmI",
                  "select-space", "guided-save", "upload-file", "upload-start",
                  "upload-status", "memory-graph", "POST /uploads", "PUT /uploads/local",
                  "prompt context", *(f"resource {uri}" for uri in RESOURCE_URIS)}
    assert every_tool <= set(calls), sorted(every_tool - set(calls))
    assert stats.checks["(c) tag pairs"] > 0 and stats.checks["(c) id pairs"] > 0
    assert stats.checks["(d) next-request probes"] > 0


def test_the_checks_catch_what_they_look_for(isolation_world: IsolationWorld) -> None:
    """The invariants are not vacuous: a foreign marker in a body, a write nobody was allowed,
    differing refusals and a key that still works after the model revoked it all fail."""
    w = isolation_world
    violations_before = len(w.stats.violations)
    w.new_scenario(RandomChooser(random.Random(7)))
    seeder = w.keys[0]  # ReadWrite on every space of the scenario
    foreign = w._create_space(w.users[0])
    marker, foreign_id = w.spaces[foreign].marker, w.spaces[foreign].id
    try:
        with pytest.raises(IsolationFailure, match=r"\(a\).*marker"):
            w.check_leaks("synthetic", seeder, Reply(200, f'{{"text": "{marker}"}}', None), "")
        with pytest.raises(IsolationFailure, match=r"\(a\).*id"):
            w.check_leaks("synthetic", seeder, Reply(200, f'{{"id": "{foreign_id}"}}', None), "")
        w.check_leaks("synthetic", seeder, Reply(200, marker, None), f"asked for {marker}")

        async def write_elsewhere() -> None:
            async with w.rt.transaction(system=True) as conn:
                await conn.execute("UPDATE spaces SET last_activity_at = now() WHERE key = %s",
                                   (foreign,))
        w.portal.run(write_elsewhere())
        with pytest.raises(IsolationFailure, match=r"\(b\).*" + foreign):
            w.settle("synthetic", set())

        hidden = 'Space "iso-0123456789" was not found (id 3f2b0000-0000-0000-0000-000000000001).'
        missing = 'Space "iso-abcdefabcd" was not found (id 3f2b0000-0000-0000-0000-000000000002).'
        assert normalise(hidden, "iso-0123456789") == normalise(missing, "iso-abcdefabcd")
        assert normalise(hidden, "iso-0123456789") != normalise(missing + " ", "iso-abcdefabcd")

        seeder.revoked = True  # the model says revoked; the server does not know
        with pytest.raises(IsolationFailure, match=r"\(d\)"):
            w.op_who_am_i_of(seeder)
    finally:
        seeder.revoked = False
        del w.stats.violations[violations_before:]

"""What the agents of ``bench/load.py`` say, and how often they do what.

The texts (subjects, predicates, questions) and the weighted operation mixes are the knobs of
the simulated traffic; they sit apart from the agent's code so that the mix can be read (and
tuned) at a glance.
"""

from __future__ import annotations

SUBJECTS = [
    "the billing service", "the mobile app", "the data team", "the CI pipeline", "the search "
    "cluster", "the on-call rotation", "customer support", "the design system", "the Berlin "
    "office", "the ML platform", "the security review", "the staging database", "the onboarding "
    "flow", "the API gateway", "the finance team", "the analytics dashboard", "the payments "
    "queue", "the release train", "the docs site", "the warehouse scanner",
]
PREDICATES = [
    "moves its weekly sync to {h}:{m:02d}", "needs {n} more reviewers before the launch",
    "keeps logs for {n} days", "budgets {n} hours for the migration",
    "pins its runtime at version {n}.{m}", "rotates credentials every {n} days",
    "targets a p95 of {n} ms", "runs its load test on day {n} of the sprint",
    "caps batch jobs at {n} workers", "ships release {n}.{m} after the freeze",
    "reserves room {n} for planning", "alerts after {n} failed health checks",
]
QUESTIONS = [
    "When does {s} meet?", "What did we decide about {s}?", "How long does {s} keep logs?",
    "Which version does {s} run?", "What is the latency target of {s}?",
    "Who reviews changes to {s}?", "What is the budget for {s}?",
]

#: (operation, weight) for agents whose key can write, and for read-only keys.
WRITER_MIX = [("search_query", 34), ("search_keyword", 16), ("save", 16), ("forget", 6),
              ("save_denied", 1), ("listMemories", 8), ("listSpaces", 5), ("whoAmI", 5),
              ("listDocuments", 5), ("upload", 4)]
READER_MIX = [("search_query", 45), ("search_keyword", 10), ("save_denied", 4),
              ("listMemories", 14), ("listSpaces", 9), ("whoAmI", 9), ("listDocuments", 9)]

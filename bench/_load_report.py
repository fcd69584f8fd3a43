"""The report of ``bench/load.py``: latency percentiles, the outage, the findings, server log
warnings."""

from __future__ import annotations

import os
import re
import statistics
from collections import Counter, defaultdict
from pathlib import Path

from _load_records import (
    Ledger,
    Run,
    Sample,
)
from _load_run import Outage
from _load_setup import OUTAGE_BOUND_S
from _load_verify import Findings

# --------------------------------------------------------------------------------------------
# report


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report_load(run: Run, cpu: dict[str, float], wall: float) -> None:
    samples = [s for s in run.samples if s.op != "connect"]
    ok = [s for s in samples if s.kind == "ok"]
    print()
    print(f"Throughput: {len(samples)} calls in {wall:.0f} s = {len(samples) / wall:.1f} calls/s "
          f"({len(ok) / wall:.1f} ok/s); MCP sessions opened: "
          f"{sum(1 for s in run.samples if s.op == 'connect' and s.kind == 'ok')}")
    print(f"CPU seconds (share of {os.cpu_count()} cores x wall = {wall * (os.cpu_count() or 1):.0f} "
          "core-s): " + ", ".join(f"{k} {v:.0f} s ({100 * v / (wall * (os.cpu_count() or 1)):.0f}%)"
                                  for k, v in cpu.items()))
    print()
    print(f"{'operation':34} {'calls':>7} {'ok':>7} {'errors':>7} {'p50 ms':>8} {'p95 ms':>8} "
          f"{'p99 ms':>8} {'max ms':>8}")
    by_op: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        by_op[s.op].append(s)
    for op in sorted(by_op, key=lambda o: -len(by_op[o])):
        group = by_op[op]
        times = [1000 * s.seconds for s in group if s.kind == "ok" or s.expected]
        errors = sum(1 for s in group if s.kind != "ok")
        print(f"{op:34} {len(group):7} {len(group) - errors:7} {errors:7} {pct(times, .5):8.0f} "
              f"{pct(times, .95):8.0f} {pct(times, .99):8.0f} "
              f"{max(times) if times else float('nan'):8.0f}")
    print("  (latencies over successful calls, and refused writes that were meant to be refused)")
    kinds = Counter((s.op, s.kind, s.expected) for s in run.samples if s.kind != "ok")
    print()
    print("Errors by kind:" if kinds else "Errors by kind: none")
    for (op, kind, expected), n in sorted(kinds.items(), key=lambda x: -x[1]):
        print(f"  {n:7}  {op:34} {kind}{'  (expected: the key may only read)' if expected else ''}")


def report_outage(run: Run, outage: Outage) -> None:
    m = outage.marks
    if "up" not in m:
        print("\nOutage: did not happen (the run ended first)")
        return
    start, end = m["stop"], m["up"]
    during = [s for s in run.samples if s.end >= start and s.start <= end]
    print()
    print(f"Outage: PostgreSQL stopped at {start - run.started:.1f} s (stop took "
          f"{m['down'] - start:.1f} s), started again at {m['restart'] - run.started:.1f} s, "
          f"up at {end - run.started:.1f} s; /healthz 200 again "
          + (f"{m['healthy'] - end:.1f} s after that" if "healthy" in m else "NEVER"))
    kinds = Counter(s.kind for s in during)
    print(f"  {len(during)} requests overlapped the outage "
          f"({m['up'] - m['stop']:.1f} s): " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    slow = [s for s in during if s.seconds > OUTAGE_BOUND_S]
    times = [s.seconds for s in during]
    print(f"  their durations: p50 {pct(times, .5):.1f} s, p95 {pct(times, .95):.1f} s, max "
          f"{max(times, default=0.0):.1f} s; over {OUTAGE_BOUND_S:.0f} s: {len(slow)} "
          f"({sum(1 for s in slow if s.kind == 'ok')} of them successful calls begun before "
          "the stop)" + (": " + ", ".join(f"{s.op} {s.seconds:.1f} s ({s.kind})"
                                          for s in slow[:5]) if slow else ""))
    ops = {s.op for s in during}
    calm = [s.seconds for s in run.samples if s.op in ops and s.op != "connect"
            and (s.end < start or s.start > m.get("healthy", end) + 10)]
    print(f"  the same operations outside the outage (before it, and from 10 s after "
          f"recovery): p50 {pct(calm, .5):.1f} s, p95 {pct(calm, .95):.1f} s, max "
          f"{max(calm, default=0.0):.1f} s (the machine's queueing, not the outage)")
    clean = ("HTTP 503 + Retry-After", "tool error: store unavailable", "ok")
    unclean = [s for s in during if s.kind not in clean and not s.expected]
    print(f"  not a clean retryable answer: {len(unclean)}"
          + (": " + ", ".join(f"{s.op}: {s.kind}" for s in unclean[:8]) if unclean else ""))
    after = [s for s in run.samples if s.start > end and s.kind == "ok" and s.op != "connect"]
    if after:
        first = min(s.end for s in after)
        print(f"  first successful call {first - end:.1f} s after PostgreSQL was back")
    settle = m.get("healthy", end) + 10
    tail = [s for s in run.samples if s.start > settle and s.op != "connect"]
    bad = [s for s in tail if s.kind != "ok" and not s.expected]
    print(f"  from 10 s after recovery to the end: {len(tail)} calls, {len(bad)} unexpected "
          "errors" + (": " + str(Counter(s.kind for s in bad).most_common(5)) if bad else ""))


def report_findings(found: Findings, ledger: Ledger) -> None:
    actions = Counter(a.action for a in ledger.saves.values())
    print()
    print("Acknowledged: " + ", ".join(f"{n} {a}" for a, n in actions.items())
          + f"; {len(ledger.forgotten)} forgotten ("
          + ", ".join(f"{n} by {h}" for h, n in Counter(ledger.forgotten.values()).items())
          + f"); {len(ledger.forget_misses)} forgets that matched nothing; "
          f"{len(ledger.denied)} saves to Read spaces "
          f"({sum(1 for d in ledger.denied if d[2] == 'ok')} let through); "
          f"{len(ledger.uploads)} uploads accepted")
    done = [u for u in ledger.uploads if u.finished_at is not None and u.status == "done"]
    if done:
        waits = [u.finished_at - u.accepted_at for u in done if u.finished_at is not None]
        print(f"Uploads: {len(done)}/{len(ledger.uploads)} seen done by their client; PUT to done "
              f"(polled every ~1 s) median {statistics.median(waits):.1f} s, max {max(waits):.1f} s")
    print("Checked: " + ", ".join(f"{n} {k}" for k, n in found.checked.items()))
    for note in found.notes:
        print(f"  note: {note}")
    verdict = f"{len(found.lost)} lost, {len(found.duplicated)} duplicated"
    print(f"VERIFY: {verdict}; {len(found.problems)} other problems")
    for line in found.lost[:20]:
        print(f"  LOST {line}")
    for line in found.duplicated[:20]:
        print(f"  DUPLICATED {line}")
    for line in found.problems[:20]:
        print(f"  PROBLEM {line}")


def server_log_summary(path: Path) -> None:
    text = path.read_text(errors="replace") if path.exists() else ""
    lines = text.splitlines()
    errors = [x for x in lines if " ERROR " in x or "Traceback" in x or " CRITICAL " in x]
    warnings_ = [x for x in lines if " WARNING " in x]
    print(f"Server log: {len(lines)} lines, {len(errors)} ERROR/Traceback, {len(warnings_)} "
          f"WARNING ({path})")
    for x in Counter(re.sub(r"^\S+ \S+ ", "", e)[:140] for e in errors).most_common(6):
        print(f"  {x[1]:5} x {x[0]}")
    for x in Counter(re.sub(r"^\S+ \S+ ", "", w)[:140] for w in warnings_).most_common(4):
        print(f"  {x[1]:5} x {x[0]}")

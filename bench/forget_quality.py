"""Forget and save-time versioning on the labelled set bench/data/forget_set.json (or, with
``--set holdout`` / ``--set probe``, the sets written apart from the rules).

Each case runs in a fresh space holding all of the set's facts (embedded once, inserted directly),
through the product's own ``memories.forget`` and ``memories.save`` on the embedded PostgreSQL
and the local model. Printed, per class: forgets that hit the intended fact, wrong forgets (a
different, still-true fact), refusals; saves that became a version, and of what. Then a sweep
of the forget threshold and margin over the same candidates (the decision rule alone), and the
rule this replaces (closest memory at cosine >= 0.85, no agreement checks), measured in the same
run. Prints numbers; asserts nothing.

    .venv/bin/python bench/forget_quality.py [--set holdout]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import _common as common
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.db import memories as db
from memory_mcp.models import Principal
from memory_mcp.services import admin, agreement, matching, memories, recall
from memory_mcp.services import validation as v
from memory_mcp.services.keys import authenticate
from memory_mcp.services.runtime import Runtime

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "bench" / "data" / "forget_set.json"
#: The sets written apart from the rules (their authors read no rules; from ``blind`` on, no code,
#: docs, tests or earlier set either), in the order they arrived: ``--set <name>`` reads
#: bench/data/forget_<name>.json. Each file's "about" says when and in which domains it was
#: written; docs/pgvector-halfvec-search.md says on which rules each first ran, what it found and
#: what changed for it. A new set is one more name at the end.
WRITTEN_APART = (
    "holdout", "probe", "blind", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
    "eighteenth", "nineteenth", "twentieth", "twentyfirst", "twentysecond", "twentythird",
    "twentyfourth", "twentyfifth", "twentysixth", "twentyseventh", "twentyeighth", "twentyninth",
    "thirtieth", "thirtyfirst", "thirtysecond", "thirtythird", "thirtyfourth", "thirtyfifth",
    "thirtysixth", "thirtyseventh", "thirtyeighth", "thirtyninth", "fortieth", "fortyfirst",
    "fortysecond", "fortythird", "fortyfourth", "fortyfifth", "fortysixth", "fortyseventh",
    "fortyeighth", "fortyninth", "fiftieth", "fiftyfirst", "fiftysecond", "fiftythird",
    "fiftyfourth", "fiftyfifth", "fiftysixth", "fiftyseventh", "fiftyeighth", "fiftyninth",
    "sixtieth", "sixtyfirst", "sixtysecond", "sixtythird", "sixtyfourth", "sixtyfifth",
    "sixtysixth", "sixtyseventh", "sixtyeighth", "sixtyninth", "seventieth", "seventyfirst",
    "seventysecond", "seventythird", "seventyfourth", "seventyfifth", "seventysixth",
    "seventyseventh", "seventyeighth", "seventyninth", "eightieth", "eightyfirst", "eightysecond",
    "eightythird", "eightyfourth", "eightyfifth", "eightysixth", "eightyseventh", "eightyeighth",
    "eightyninth", "ninetieth", "ninetyfirst", "ninetysecond", "ninetythird", "ninetyfourth",
    "ninetyfifth", "ninetysixth", "ninetyseventh", "ninetyeighth", "ninetyninth", "hundredth",
    "hundredfirst", "hundredsecond", "hundredthird", "hundredfourth", "hundredfifth",
    "hundredsixth", "hundredseventh", "hundredeighth", "hundredninth", "hundredtenth",
    "hundredeleventh", "hundredtwelfth", "hundredthirteenth", "hundredfourteenth",
    "hundredfifteenth", "hundredsixteenth", "hundredseventeenth", "hundredeighteenth",
    "hundrednineteenth", "hundredtwentieth", "hundredtwentyfirst", "hundredtwentysecond",
    "hundredtwentythird", "hundredtwentyfourth", "hundredtwentyfifth", "hundredtwentysixth",
    "hundredtwentyseventh", "hundredtwentyeighth", "hundredtwentyninth", "hundredthirtieth",
    "hundredthirtyfirst", "hundredthirtysecond", "hundredthirtythird", "hundredthirtyfourth",
    "hundredthirtyfifth", "hundredthirtysixth", "hundredthirtyseventh", "hundredthirtyeighth",
    "hundredthirtyninth", "hundredfortieth", "hundredfortyfirst", "hundredfortysecond",
    "hundredfortythird", "hundredfortyfourth", "hundredfortyfifth", "hundredfortysixth",
    "hundredfortyseventh", "hundredfortyeighth", "hundredfortyninth", "hundredfiftieth",
    "hundredfiftyfirst", "hundredfiftysecond", "hundredfiftythird", "hundredfiftyfourth",
    "hundredfiftyfifth", "hundredfiftysixth", "hundredfiftyseventh", "hundredfiftyeighth",
    "hundredfiftyninth", "hundredsixtieth", "hundredsixtyfirst", "hundredsixtysecond",
    "hundredsixtythird", "hundredsixtyfourth", "hundredsixtyfifth", "hundredsixtysixth",
    "hundredsixtyseventh", "hundredsixtyeighth", "hundredsixtyninth", "hundredseventieth",
    "hundredseventyfirst", "hundredseventysecond", "hundredseventythird", "hundredseventyfourth",
    "hundredseventyfifth", "hundredseventysixth", "hundredseventyseventh", "hundredseventyeighth",
    "hundredseventyninth", "hundredeightieth", "hundredeightyfirst", "hundredeightysecond",
    "hundredeightythird", "hundredeightyfourth", "hundredeightyfifth", "hundredeightysixth",
    "hundredeightyseventh", "hundredeightyeighth", "hundredeightyninth", "hundredninetieth",
    "hundredninetyfirst", "hundredninetysecond", "hundredninetythird", "hundredninetyfourth",
    "hundredninetyfifth", "hundredninetysixth", "hundredninetyseventh", "hundredninetyeighth",
    "hundredninetyninth", "twohundredth", "twohundredfirst", "twohundredsecond",
    "twohundredthird", "twohundredfourth", "twohundredfifth", "twohundredsixth", "twohundredseventh",
    "twohundredeighth", "twohundredninth", "twohundredtenth", "twohundredeleventh",
    "twohundredtwelfth", "twohundredthirteenth", "twohundredfourteenth", "twohundredfifteenth",
    "twohundredsixteenth", "twohundredseventeenth", "twohundredeighteenth",
    "twohundrednineteenth", "twohundredtwentieth", "twohundredtwentyfirst",
    "twohundredtwentysecond", "twohundredtwentythird", "twohundredtwentyfourth",
    "twohundredtwentyfifth", "twohundredtwentysixth", "twohundredtwentyseventh",
    "twohundredtwentyeighth", "twohundredtwentyninth", "twohundredthirtieth",
    "twohundredthirtyfirst", "twohundredthirtysecond", "twohundredthirtythird",
    "twohundredthirtyfourth", "twohundredthirtyfifth", "twohundredthirtysixth",
    "twohundredthirtyseventh", "twohundredthirtyeighth", "twohundredthirtyninth",
    "twohundredfortieth", "twohundredfortyfirst", "twohundredfortysecond",
    "twohundredfortythird", "twohundredfortyfourth", "twohundredfortyfifth",
    "twohundredfortysixth", "twohundredfortyseventh", "twohundredfortyeighth",
    "twohundredfortyninth", "twohundredfiftieth", "twohundredfiftyfirst", "twohundredfiftysecond",
    "twohundredfiftythird", "twohundredfiftyfourth", "twohundredfiftyfifth", "twohundredfiftysixth",
    "twohundredfiftyseventh", "twohundredfiftyeighth", "twohundredfiftyninth", "twohundredsixtieth",
    "twohundredsixtyfirst", "twohundredsixtysecond", "twohundredsixtythird", "twohundredsixtyfourth",
    "twohundredsixtyfifth", "twohundredsixtysixth", "twohundredsixtyseventh", "twohundredsixtyeighth",
    "twohundredsixtyninth", "twohundredseventieth", "twohundredseventyfirst", "twohundredseventysecond",
    "twohundredseventythird", "twohundredseventyfourth", "twohundredseventyfifth",
    "twohundredseventysixth", "twohundredseventyseventh", "twohundredseventyeighth",
    "twohundredseventyninth", "twohundredeightieth", "twohundredeightyfirst",
    "twohundredeightysecond", "twohundredeightythird", "twohundredeightyfourth",
    "twohundredeightyfifth", "twohundredeightysixth", "twohundredeightyseventh",
    "twohundredeightyeighth", "twohundredeightyninth", "twohundredninetieth",
    "twohundredninetyfirst", "twohundredninetysecond", "twohundredninetythird",
    "twohundredninetyfourth", "twohundredninetyfifth", "twohundredninetysixth",
    "twohundredninetyseventh", "twohundredninetyeighth", "twohundredninetyninth",
    "threehundredth", "threehundredfirst", "threehundredsecond", "threehundredthird",
    "threehundredfourth", "threehundredfifth", "threehundredsixth", "threehundredseventh",
    "threehundredeighth", "threehundredninth", "threehundredtenth", "threehundredeleventh",
    "threehundredtwelfth", "threehundredthirteenth", "threehundredfourteenth",
    "threehundredfifteenth", "threehundredsixteenth", "threehundredseventeenth",
    "threehundredeighteenth", "threehundrednineteenth", "threehundredtwentieth",
    "threehundredtwentyfirst", "threehundredtwentysecond", "threehundredtwentythird",
    "threehundredtwentyfourth", "threehundredtwentyfifth",
    "threehundredtwentysixth", "threehundredtwentyseventh",
    "threehundredtwentyeighth", "threehundredtwentyninth",
    "threehundredthirtieth", "threehundredthirtyfirst",
    "threehundredthirtysecond", "threehundredthirtythird",
    "threehundredthirtyfourth", "threehundredthirtyfifth",
    "threehundredthirtysixth", "threehundredthirtyseventh",
    "threehundredthirtyeighth", "threehundredthirtyninth",
    "threehundredfortieth", "threehundredfortyfirst",
    "threehundredfortysecond", "threehundredfortythird",
    "threehundredfortyfourth", "threehundredfortyfifth",
    "threehundredfortysixth", "threehundredfortyseventh",
    "threehundredfortyeighth", "threehundredfortyninth",
    "threehundredfiftieth", "threehundredfiftyfirst",
    "threehundredfiftysecond", "threehundredfiftythird",
    "threehundredfiftyfourth", "threehundredfiftyfifth",
    "threehundredfiftysixth", "threehundredfiftyseventh",
    "threehundredfiftyeighth", "threehundredfiftyninth",
    "threehundredsixtieth", "threehundredsixtyfirst",
    "threehundredsixtysecond", "threehundredsixtythird",
    "threehundredsixtyfourth", "threehundredsixtyfifth",
    "threehundredsixtysixth", "threehundredsixtyseventh",
    "threehundredsixtyeighth", "threehundredsixtyninth",
    "threehundredseventieth", "threehundredseventyfirst",
    "threehundredseventysecond", "threehundredseventythird",
    "threehundredseventyfourth", "threehundredseventyfifth",
    "threehundredseventysixth", "threehundredseventyseventh",
    "threehundredseventyeighth", "threehundredseventyninth",
    "threehundredeightieth", "threehundredeightyfirst",
    "threehundredeightysecond", "threehundredeightythird",
    "threehundredeightyfourth", "threehundredeightyfifth", "threehundredeightysixth",
    "threehundredeightyseventh", "threehundredeightyeighth", "threehundredeightyninth",
    "threehundredninetieth", "threehundredninetyfirst", "threehundredninetysecond",
    "threehundredninetythird", "threehundredninetyfourth", "threehundredninetyfifth",
    "threehundredninetysixth", "threehundredninetyseventh", "threehundredninetyeighth",
    "threehundredninetyninth", "fourhundredth", "fourhundredfirst",
    "fourhundredsecond", "fourhundredthird", "fourhundredfourth", "fourhundredfifth",
    "fourhundredsixth", "fourhundredseventh", "fourhundredeighth", "fourhundredninth",
    "fourhundredtenth", "fourhundredeleventh", "fourhundredtwelfth", "fourhundredthirteenth",
    "fourhundredfourteenth", "fourhundredfifteenth", "fourhundredsixteenth",
    "fourhundredseventeenth", "fourhundredeighteenth", "fourhundrednineteenth",
    "fourhundredtwentieth", "fourhundredtwentyfirst", "fourhundredtwentysecond",
    "fourhundredtwentythird", "fourhundredtwentyfourth", "fourhundredtwentyfifth",
    "fourhundredtwentysixth", "fourhundredtwentyseventh", "fourhundredtwentyeighth",
    "fourhundredtwentyninth", "fourhundredthirtieth", "fourhundredthirtyfirst",
    "fourhundredthirtysecond", "fourhundredthirtythird", "fourhundredthirtyfourth",
    "fourhundredthirtyfifth", "fourhundredthirtysixth", "fourhundredthirtyseventh",
    "fourhundredthirtyeighth", "fourhundredthirtyninth", "fourhundredfortieth",
    "fourhundredfortyfirst", "fourhundredfortysecond", "fourhundredfortythird",
    "fourhundredfortyfourth", "fourhundredfortyfifth", "fourhundredfortysixth",
    "fourhundredfortyseventh", "fourhundredfortyeighth", "fourhundredfortyninth",
    "fourhundredfiftieth", "fourhundredfiftyfirst", "fourhundredfiftysecond",
    "fourhundredfiftythird", "fourhundredfiftyfourth", "fourhundredfiftyfifth",
    "fourhundredfiftysixth", "fourhundredfiftyseventh", "fourhundredfiftyeighth",
    "fourhundredfiftyninth", "fourhundredsixtieth", "fourhundredsixtyfirst",
    "fourhundredsixtysecond", "fourhundredsixtythird", "fourhundredsixtyfourth",
    "fourhundredsixtyfifth", "fourhundredsixtysixth", "fourhundredsixtyseventh",
    "fourhundredsixtyeighth", "fourhundredsixtyninth", "fourhundredseventieth",
    "fourhundredseventyfirst", "fourhundredseventysecond", "fourhundredseventythird",
    "fourhundredseventyfourth", "fourhundredseventyfifth", "fourhundredseventysixth",
    "fourhundredseventyseventh", "fourhundredseventyeighth", "fourhundredseventyninth",
    "fourhundredeightieth", "fourhundredeightyfirst", "fourhundredeightysecond",
    "fourhundredeightythird", "fourhundredeightyfourth", "fourhundredeightyfifth",
    "fourhundredeightysixth", "fourhundredeightyseventh", "fourhundredeightyeighth",
    "fourhundredeightyninth", "fourhundredninetieth", "fourhundredninetyfirst",
    "fourhundredninetysecond", "fourhundredninetythird", "fourhundredninetyfourth",
    "fourhundredninetyfifth", "fourhundredninetysixth", "fourhundredninetyseventh",
    "fourhundredninetyeighth", "fourhundredninetyninth", "fivehundredth", "fivehundredfirst",
    "fivehundredsecond", "fivehundredthird",
    "fivehundredfourth", "fivehundredfifth", "fivehundredsixth", "fivehundredseventh",
    "fivehundredeighth", "fivehundredninth", "fivehundredtenth", "fivehundredeleventh",
    "fivehundredtwelfth", "fivehundredthirteenth", "fivehundredfourteenth", "fivehundredfifteenth",
    "fivehundredsixteenth", "fivehundredseventeenth", "fivehundredeighteenth",
    "fivehundrednineteenth", "fivehundredtwentieth", "fivehundredtwentyfirst",
    "fivehundredtwentysecond", "fivehundredtwentythird", "fivehundredtwentyfourth",
    "fivehundredtwentyfifth", "fivehundredtwentysixth", "fivehundredtwentyseventh",
    "fivehundredtwentyeighth", "fivehundredtwentyninth", "fivehundredthirtieth",
    "fivehundredthirtyfirst", "fivehundredthirtysecond", "fivehundredthirtythird",
    "fivehundredthirtyfourth", "fivehundredthirtyfifth", "fivehundredthirtysixth",
    "fivehundredthirtyseventh", "fivehundredthirtyeighth", "fivehundredthirtyninth",
    "fivehundredfortieth", "fivehundredfortyfirst", "fivehundredfortysecond",
    "fivehundredfortythird", "fivehundredfortyfourth", "fivehundredfortyfifth",
    "fivehundredfortysixth", "fivehundredfortyseventh", "fivehundredfortyeighth",
    "fivehundredfortyninth", "fivehundredfiftieth", "fivehundredfiftyfirst",
)
SETS = {"dev": SET} | {name: ROOT / "bench" / "data" / f"forget_{name}.json" for name in WRITTEN_APART}
OLD_RULE = 0.85  # main before this change: forget the closest memory at cosine >= 0.85
#: Near-miss classes whose save *may* become a version of the fact they resemble: another
#: number, date or a negation changes that fact's value (the intended update). A version from
#: any other class (another person, product, team, environment, object, role, numbered thing,
#: a long note with another ending) hides a different, still-true fact: wrong. Judged by the
#: label, not by the rules under test.
VALUE_CLASSES = frozenset({"number", "date", "time", "negation", "opposite", "unit",
                           "quantifier", "version", "frequency", "comparison"})


async def seed(rt: Runtime, user_id: uuid.UUID, key_id: str, n: int, facts: dict[str, str],
               literals: dict[str, str]) -> tuple[str, uuid.UUID, dict[str, str]]:
    """A fresh space with every fact; returns its key, id and memory id → fact id."""
    sp = await admin.create_space(rt, f"fq-{n}-{uuid.uuid4().hex[:6]}", f"forget case {n}", "")
    await admin.set_grant(rt, key_id, sp["key"], "readwrite")
    space_id, ids = uuid.UUID(sp["id"]), {}
    async with rt.transaction(system=True) as conn:
        for fid, text in facts.items():
            mid = uuid.uuid4()
            await db.insert(conn, memory_id=mid, space_id=space_id, content=text,
                            content_hash=v.content_hash(text), category=None,
                            vector=literals[fid], user_id=user_id, root_id=mid)
            ids[str(mid)] = fid
    return sp["key"], space_id, ids


async def run(url: str, args: argparse.Namespace) -> None:
    data = json.loads(SETS[args.set].read_text())
    facts: dict[str, str] = data["facts"]
    cases: list[dict[str, Any]] = data["cases"]
    settings = Settings(database_url=SecretStr(url), migrations_dir=ROOT / "migrations",
                        pool_min_size=1, pool_max_size=4, log_level="WARNING",
                        embedding_cache_size=4096)
    async with common.product_runtime(settings, url) as rt:
        user = await admin.create_user(rt, "bench-forget@example.test", "Bench Forget", "writer")
        key = await admin.create_key(rt, user["id"], "bench")

        async def principal_now() -> Principal:
            """The key as a request would see it now: its grants include the spaces seeded
            since (a save resolves its space from the key check's grants)."""
            async with rt.transaction(system=True) as conn:
                return await authenticate(conn, key["key"])

        user_id = uuid.UUID(user["id"])
        literals = dict(zip(facts, await rt.embed(list(facts.values())), strict=True))
        t = recall.thresholds(rt)
        common.log(f"model {rt.embedder.model_id}: version {t.version}, forget {t.forget}, "
                   f"margin {t.margin}; {len(cases)} cases")

        forget_out: dict[str, Counter[str]] = defaultdict(Counter)
        save_out: dict[str, Counter[str]] = defaultdict(Counter)
        sweep_inputs: list[tuple[dict[str, Any], list[tuple[str, float]], list[str]]] = []
        wrong: list[str] = []
        versions: list[str] = []
        t0 = time.perf_counter()
        for n, case in enumerate(cases):
            cls, expect = case["class"], case["expect"]
            tag, space_id, ids = await seed(rt, user_id, key["id"], n, facts, literals)
            rows = await memories.forget_candidates(rt, space_id,
                                                    agreement.strip_preamble(case["request"]))
            sweep_inputs.append((case, [(r["content"], float(r["semantic"])) for r in rows],
                                 [ids[str(r["id"])] for r in rows]))
            res = await memories.forget(rt, await principal_now(), case["request"], None, tag)
            if res["action"] == "forgotten":
                hit = ids[res["memory"]["id"]]
                outcome = "right" if hit == expect else "WRONG"
                if outcome == "WRONG":
                    wrong.append(f"{cls}: {case['request'][:90]!r} forgot {hit} "
                                 f"{facts[hit][:90]!r}")
            else:
                outcome = "refused"
            forget_out[cls][outcome] += 1
            # the same text saved into another fresh space: which fact (if any) does it supersede?
            tag2, _, ids2 = await seed(rt, user_id, key["id"], n, facts, literals)
            saved = await memories.save(rt, await principal_now(), case["request"], None, tag2)
            if saved["action"] == "versioned":
                old = ids2[saved["supersedes"]["id"]]
                if old == expect:
                    save_out[cls]["versioned its fact"] += 1
                else:
                    across = expect is not None or cls not in VALUE_CLASSES
                    save_out[cls]["WRONG version" if across else "value update"] += 1
                    versions.append(f"{cls}: {case['request'][:90]!r} superseded {old} "
                                    f"{facts[old][:90]!r}"
                                    + (" (WRONG: another fact)" if across else ""))
            else:
                save_out[cls][saved["action"]] += 1
        elapsed = time.perf_counter() - t0

    print(f"\n## Forget by content ({len(cases)} cases, one fresh space of {len(facts)} facts each,"
          f" {elapsed:.0f} s)\n")
    print("| class | cases | forgot the intended fact | wrong forgets | changed nothing |")
    print("|---|---|---|---|---|")
    for cls, c in forget_out.items():
        print(f"| {cls} | {sum(c.values())} | {c['right']} | {c['WRONG']} | {c['refused']} |")
    para = forget_out["paraphrase"]
    total_wrong = sum(c["WRONG"] for c in forget_out.values())
    print(f"\nParaphrases forgotten in one call: {para['right']}/{sum(para.values())} "
          f"({para['right'] / max(1, sum(para.values())):.0%}); wrong forgets: {total_wrong}")
    for line in wrong:
        print(f"  WRONG {line}")

    print("\n## The same texts saved (a fresh space each)\n")
    print("| class | cases | version of its fact | value update of the fact it resembles "
          "| version of another subject (wrong) | saved as new |")
    print("|---|---|---|---|---|---|")
    for cls, c in save_out.items():
        print(f"| {cls} | {sum(c.values())} | {c['versioned its fact']} | {c['value update']} | "
              f"{c['WRONG version']} | {c['saved']} |")
    for line in versions:
        print(f"  {line}")
    print("\nFor near misses a version is an update of the fact they resemble: right for another"
          " number, day, unit, a negation or the opposite state "
          f"({', '.join(sorted(VALUE_CLASSES))}: the value changed),"
          " wrong for every other class (a different fact).")

    print("\n## Forget rule sweep on the same candidates (decision rule alone)\n")
    print("| rule | paraphrases forgotten | wrong forgets | near misses refused |")
    print("|---|---|---|---|")

    def score(pick: Any) -> tuple[int, int, int, int]:
        right = wrong_n = refused_nm = n_para = 0
        for case, cands, fids in sweep_inputs:
            choice = pick(case, cands)
            n_para += case["expect"] is not None
            if choice is None:
                refused_nm += case["expect"] is None
            elif fids[choice] == case["expect"]:
                right += 1
            else:
                wrong_n += 1
        return right, n_para, wrong_n, refused_nm

    n_near = sum(1 for c in cases if c["expect"] is None)

    def old_rule(_case: dict[str, Any], cands: list[tuple[str, float]]) -> int | None:
        return 0 if cands and cands[0][1] >= OLD_RULE else None

    r, n_p, w, rf = score(old_rule)
    print(f"| before: closest at cosine >= {OLD_RULE}, no checks | {r}/{n_p} | {w} | {rf}/{n_near} |")
    for thr in args.thresholds:
        for margin in args.margins:
            tt = dataclasses.replace(t, forget=thr, margin=margin)

            def rule(case: dict[str, Any], cands: list[tuple[str, float]],
                     tt: matching.Thresholds = tt) -> int | None:
                return matching.choose_forget(case["request"], cands, tt).index

            r, n_p, w, rf = score(rule)
            mark = " (default)" if (thr, margin) == (t.forget, t.margin) else ""
            print(f"| agreement rules, forget >= {thr:.2f}, margin {margin:.2f}{mark} | "
                  f"{r}/{n_p} | {w} | {rf}/{n_near} |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    p.add_argument("--thresholds", type=float, nargs="+",
                   default=[0.55, 0.60, 0.65, 0.70, 0.75, 0.80, 0.85])
    p.add_argument("--margins", type=float, nargs="+", default=[0.0, 0.05, 0.10])
    p.add_argument("--pg-dir", type=Path, default=None)
    p.add_argument("--set", choices=sorted(SETS), default="dev",
                   help="the labelled set: dev (forget_set.json) or one of WRITTEN_APART")
    args = p.parse_args()
    common.run_on_embedded(args.pg_dir, "forget", run, args)


if __name__ == "__main__":
    main()

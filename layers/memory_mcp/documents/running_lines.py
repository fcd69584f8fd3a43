"""Running headers and footers of a paged text (PDF pages split at ``\\f``): found by what
recurs at the pages' edges, removed only there. Apart from ``segment`` because it reads pages,
not sentences."""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise


def _edges(n: int) -> list[int]:
    """Positions of a page's edge lines among its ``n`` non-blank lines: its first and last
    three, or one each on a page of six lines or fewer, else every line of a short slide is an
    edge."""
    k = 3 if n > 6 else 1
    return sorted({*range(min(k, n)), *range(max(n - k, 0), n)})


def _running_lines(pages: list[str]) -> set[str]:
    """Header/footer lines: at a page edge on at least half of 3+ pages, and not a sentence (a
    header or footer does not end with a full stop; "Q1 revenue was 10 million." on every slide
    is content). Compared with digits ignored, so "Page 3" and "Page 4" are one footer, but only
    when each number that varies counts pages or sections (from one page to the next it stays,
    goes up by one, or starts again at 0 or 1) and the line occurs at most twice a page (a
    header and a footer): "Headcount grew to 44 people" closing every slide, or the lines of an
    inventory that happen to open every page ("Host db017 in rack 9 …"), are content."""
    if len(pages) < 3:
        return set()
    counts: Counter[str] = Counter()
    anywhere: Counter[str] = Counter()  # every line of every page, by key
    numbers: dict[str, list[tuple[str, ...]]] = {}  # by key: its numbers, page by page
    for page in pages:
        lines = [ln.strip() for ln in page.split("\n") if ln.strip()]
        anywhere.update(_line_key(ln) for ln in lines)
        keys: set[str] = set()
        for ln in (lines[i] for i in _edges(len(lines))):
            if len(ln) <= 120 and ln[-1] not in ".!?\u2026" and _line_key(ln) not in keys:
                keys.add(_line_key(ln))
                numbers.setdefault(_line_key(ln), []).append(tuple(re.findall(r"\d+", ln)))
        counts.update(keys)
    return {key for key, n in counts.items() if n >= 3 and n >= len(pages) / 2
            and anywhere[key] <= 2 * len(pages)  # a header and a footer, not a page of records
            and all(_counts_pages([int(v) for v in column])
                    for column in zip(*numbers[key], strict=True))}


def _counts_pages(values: list[int]) -> bool:
    """A page or section number down the pages: each next value the same, one more, or a
    restart at 0 or 1."""
    return all(b in (a, a + 1) or b <= 1 for a, b in pairwise(values))


#: A running line longer than this many words keeps its first copy: headers and footers are
#: short ("ACME — Internal — Q3 plan", "Page 3 of 12"), while a long line repeated at every
#: page's top ("Week 3 status: the staging cluster was upgraded to Kubernetes 1.27 without
#: downtime") may be the document's own statement, which removing every copy loses.
LONG_RUNNING_WORDS = 8


def without_running_lines(pages: list[str]) -> list[str]:
    """Each page without its running header and footer lines, removed only at its edges: a
    body line that reads like one stays, and so does the first copy of a long one."""
    running = _running_lines(pages)
    if not running:
        return pages
    kept_pages = []
    kept_once: set[str] = set()
    for page in pages:
        lines = page.split("\n")
        filled = [i for i, ln in enumerate(lines) if ln.strip()]
        drop = set()
        for i in _edges(len(filled)):
            line = lines[filled[i]].strip()
            key = _line_key(line)
            if key not in running:
                continue
            if len(line.split()) > LONG_RUNNING_WORDS and key not in kept_once:
                kept_once.add(key)
                continue
            drop.add(filled[i])
        kept_pages.append("\n".join(ln for i, ln in enumerate(lines) if i not in drop))
    return kept_pages


def _line_key(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.lower().split()))

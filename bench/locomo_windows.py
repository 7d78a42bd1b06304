"""The LoCoMo questions that name a time window recall applies, and how they fared: reads the
per-question rankings ``bench/locomo.py --out FILE`` wrote.

A window is applied when it names its year ("in May 2023", "on 3 May, 2023", "in 2023"): the
conversations were written years before today, so clock words ("last year") and months
without a year are not applied to them (recall/plan.py ``place_relative``). For each such
question: did it get no hit at all, and does its evidence lie outside the window (told on
another day than the one the question names)?

    python bench/locomo.py --out /tmp/locomo.json
    python bench/locomo_windows.py /tmp/locomo.json [--list]
"""

from __future__ import annotations

import argparse
import json
import re
from datetime import UTC, datetime
from pathlib import Path

from engramdb.text.timewindow import parse_window
from locomo import SHARED

_SESSION = re.compile(r"session_(\d+)_date_time")


def session_dates() -> dict[tuple[str, str], datetime]:
    """(conversation, session number) -> the session's day."""
    out = {}
    for conv in json.loads((SHARED / "locomo_dev.json").read_text()):
        for key, value in conv["conversation"].items():
            m = _SESSION.fullmatch(key)
            if m:
                day = value.split(" on ", 1)[1].replace(",", "")
                out[(conv["sample_id"], m.group(1))] = datetime.strptime(
                    day, "%d %B %Y").replace(tzinfo=UTC)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", type=Path)
    ap.add_argument("--list", action="store_true", help="list the questions R@10 misses")
    args = ap.parse_args()
    runs = json.loads(args.results.read_text())["runs"]
    questions = next(iter(runs.values()))["per_question"]
    dates, now = session_dates(), datetime.now(UTC)
    groups: dict[str, list[float]] = {"all": [], "evidence inside": [], "evidence outside": []}
    empty, missed = [], []
    for q in questions:
        window = parse_window(q["question"], now, ranges=True)
        if window is None or window.loose or not window.anchored:
            continue
        told = [dates.get((q["conversation_id"], e.split(":")[0][1:])) for e in q["evidence"]]
        out = any(day is not None and not window.contains(day) for day in told)
        r10 = q["metrics"]["recall@10"]
        groups["all"].append(r10)
        groups["evidence outside" if out else "evidence inside"].append(r10)
        if not q["ranked"]:
            empty.append(q["question"])
        if r10 == 0:
            missed.append(f"{window.label()} | {q['question']} (evidence told "
                          f"{', '.join(str(d.date()) if d else '?' for d in told)})")
    for name, values in groups.items():
        mean = sum(values) / len(values) if values else 0.0
        print(f"{name}: {len(values)} questions, R@10 {mean:.3f}, "
              f"{sum(v == 0 for v in values)} with R@10 = 0")
    print(f"no hit at all: {len(empty)}")
    for text in (missed if args.list else []):
        print("  ", text)


if __name__ == "__main__":
    main()

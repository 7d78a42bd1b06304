"""Sleep benchmark: decay recompute per 10k memories, a full sleep (sync, decay, tidy,
consolidate, govern) on a 100k-memory store with a realistic mix, and an incremental sleep
after 1,000 new memories. Prints figures and writes bench/results/sleep.md; it is not a test.

    .venv/bin/python bench/sleep.py               # 100k memories (about 2-3 minutes)
    .venv/bin/python bench/sleep.py --size 20000  # quicker

The store is built through the public API (``remember_many`` with the hashing embedder, which
times the engine, not a model) over two simulated years on a frozen clock: 1,000 memories a
week, and each week a sample of earlier memories is used (``store.record_uses``, the call a
tracked recall makes). The mix: events, facts, preferences, lessons, rules, procedures,
emotions, identity, pending items with due dates and temp memories with an expiry; English and
Chinese; people, places and topics drawn with a Zipf skew. Then:

- decay recompute: the weight of 10k memories (compute only, and read + compute);
- full sleep: the first one (archives what two years of disuse weakened and consolidates the
  settled episodes into gists), then an incremental one a day later (steady state);
- incremental sleep after 1,000 new memories written a day later, then a full sleep on top of
  it, which must change nothing (the incremental one was exact);
The build leaves auto sleep on (its default, 7.5 importance written): each week's batch of
1,000 sets off one incremental sleep, as it would in use, and their time is reported. With
``--backlog`` auto sleep is off during the build, so the first sleep faces two years of backlog
(the worst case). The machine's load average is printed next to the figures (shared machine).
- recall latency over the 100k store with archive wake-up on and off (``track=False``).
"""

from __future__ import annotations

import argparse
import bisect
import os
import random
import statistics
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import engramdb
from engramdb import Draft
from engramdb.dynamics.strength import weight
from engramdb.recall.presets import PRESETS
from engramdb.store.protocol import ListFilter
from engramdb.testing import FrozenClock

START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
TARGET_FULL_SLEEP_S = 30.0
TARGET_INCREMENTAL_S = 2.0
RESULTS = Path(__file__).resolve().parent / "results" / "sleep.md"
SLEEPS: list[float] = []  # phase seconds of each auto sleep during the build
WEEK = 1000            # memories written per simulated week
USES_PER_WEEK = 150    # earlier memories used per simulated week
SCOPE = {"user": "bench", "agent": "sleep"}

FIRST = ("Alice Bob Carol David Emma Frank Grace Henry Isabel Jack Karen Liam Maria Noah Olivia "
         "Peter Quinn Rachel Samuel Tara Umar Victor Wendy Xavier Yusuf Zoe Hannah Oscar Lena "
         "Marco Sofia Tomas Priya Ravi Chen Mei Kenji Yuki Ahmed Fatima").split()
PLACES = ("Berlin Paris London Madrid Lisbon Rome Vienna Prague Oslo Dublin Amsterdam Zurich "
          "Munich Athens Istanbul Cairo Nairobi Toronto Seattle Boston Chicago Lima Sydney Tokyo "
          "Seoul Singapore Mumbai Dubai Shanghai Harbin").split()
TOPICS = ("budget roadmap hiring launch contract invoice release security audit onboarding "
          "pricing design review database backup outage deadline conference workshop holiday "
          "wedding birthday apartment garden marathon concert exhibition insurance taxes visa "
          "ice sculptures").split()
CN_PEOPLE = "小王 小李 老张 小陈 阿杰 小美 老刘 小周".split()
CN_PLACES = "北京 上海 广州 深圳 杭州 成都 哈尔滨 西安".split()
CN_TOPICS = "冰雕 火锅 预算 面试 婚礼 搬家 体检 签证".split()
EN = {
    "event": "Met {p} in {pl} to talk about the {t}",
    "fact": "{p} works on the {t} from {pl}",
    "preference": "{p} prefers to discuss the {t} in the morning",
    "lesson": "Lesson from the {t}: check with {p} before {pl} trips",
    "rule": "Always copy {p} on anything about the {t}",
    "procedure": "To file the {t}: ask {p}, then upload it in {pl}",
    "emotion": "Felt proud after the {t} with {p}",
    "identity": "My colleague {p} is based in {pl}",
    "pending": "Send {p} the {t} notes",
}
ZH = "和{p}在{pl}聊{t}"


class Zipf:
    """Pick from a list with probability ~ 1/rank."""

    def __init__(self, items: list[str], rng: random.Random) -> None:
        self.items, self.rng = items, rng
        weights = [1.0 / (i + 1) for i in range(len(items))]
        total = sum(weights)
        self.cum = [sum(weights[: i + 1]) / total for i in range(len(items))]

    def __call__(self) -> str:
        return self.items[min(bisect.bisect(self.cum, self.rng.random()), len(self.items) - 1)]


KINDS = (["event"] * 45 + ["fact"] * 20 + ["preference"] * 8 + ["pending"] * 6 + ["temp"] * 5
         + ["emotion"] * 4 + ["lesson"] * 3 + ["rule"] * 3 + ["procedure"] * 3
         + ["identity"] * 3)


def draft(n: int, now: datetime, rng: random.Random, pick: dict[str, Zipf]) -> Draft:
    kind = rng.choice(KINDS)
    chinese = rng.random() < 0.15
    p, pl, t = ((pick["cp"](), pick["cpl"](), pick["ct"]()) if chinese
                else (pick["p"](), pick["pl"](), pick["t"]()))
    text = (ZH if chinese else EN["fact" if kind == "temp" else kind]).format(p=p, pl=pl, t=t)
    extra: dict[str, object] = {}
    if kind == "temp":
        kind, extra["expires_at"] = "fact", now + timedelta(days=rng.uniform(0.5, 30))
    if kind == "pending":
        extra["due_at"] = now + timedelta(days=rng.uniform(1, 60))
    return Draft(content=f"{text} (#{n})", kind=kind, at=now - timedelta(days=rng.uniform(0, 3)),
                 people=[p], places=[pl], topics=[t],
                 importance=round(rng.uniform(0.2, 0.9), 2), **extra)  # type: ignore[arg-type]


def build(mem: engramdb.Memory, clock: FrozenClock, size: int, seed: int) -> float:
    """Seconds spent; ``mem.auto_sleep_s`` collects the auto sleeps' part of it."""
    rng = random.Random(seed)
    pick = {"p": Zipf(FIRST, rng), "pl": Zipf(PLACES, rng), "t": Zipf(TOPICS, rng),
            "cp": Zipf(CN_PEOPLE, rng), "cpl": Zipf(CN_PLACES, rng), "ct": Zipf(CN_TOPICS, rng)}
    ids: list[str] = []
    scope = mem.scope(**SCOPE)
    started = time.perf_counter()
    for lo in range(0, size, WEEK):
        now = clock.now()
        drafts = [draft(n, now, rng, pick) for n in range(lo, min(size, lo + WEEK))]
        results = scope.remember_many(drafts, batch=256)
        ids += [r.memory.id for r in results]
        if "auto_sleep" in results[-1].evidence and mem.last_auto_sleep is not None:
            SLEEPS.append(sum(p.seconds for p in mem.last_auto_sleep.phases))
        used = sorted({rng.choice(ids[-20 * WEEK:]) for _ in range(USES_PER_WEEK)})
        mem.store.record_uses(engramdb.Scope(**SCOPE), used, now, 60.0)
        clock.advance(days=7)
    return time.perf_counter() - started


def decay_per_10k(mem: engramdb.Memory, clock: FrozenClock) -> tuple[float, float]:
    started = time.perf_counter()
    records = list(mem.store.list(engramdb.Scope(**SCOPE),
                                  ListFilter(layers=(engramdb.Layer.CORE,), limit=10_000)))
    read = time.perf_counter() - started
    started = time.perf_counter()
    for rec in records:
        weight(rec, clock.now(), mem.decay_params)
    compute = time.perf_counter() - started
    scale = 10_000 / max(len(records), 1)
    return compute * scale, (read + compute) * scale


def recall_ms(mem: engramdb.Memory, queries: list[str], rounds: int = 6) -> dict[str, list[float]]:
    """Milliseconds per recall with and without wake-up, interleaved (each query runs under
    both presets in turn, the order alternating, so neither gets the other's warm caches)."""
    times: dict[str, list[float]] = {"default": [], "no_wake": []}
    for n in range(rounds):
        for q in queries:
            for preset in sorted(times, reverse=bool(n % 2)):
                started = time.perf_counter()
                mem.recall(q, k=10, track=False, preset=preset, **SCOPE)
                times[preset].append((time.perf_counter() - started) * 1000)
    return times


def timed_sleep(mem: engramdb.Memory, label: str, target: float, lines: list[str],
                full: bool = False) -> engramdb.dynamics.sleep.SleepReport:
    started = time.perf_counter()
    report = mem.sleep(full=full, **SCOPE)
    spent = time.perf_counter() - started
    ok = "ok" if spent <= target else "OVER"
    say(lines, f"{label}: {spent:.2f}s, {report.mode}, visited {report.visited:,} "
               f"(target <= {target:g}s: {ok}; load average {load()})")
    for p in report.phases:
        counts = ", ".join(f"{k} {n:,}" for k, n in p.counts().items()) or "no change"
        say(lines, f"    {p.phase:11s} {p.seconds:7.2f}s  examined {p.examined:,}: {counts}")
    return report


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def say(lines: list[str], text: str) -> None:
    print(text, flush=True)
    lines.append(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-save", action="store_true", help="do not write " + str(RESULTS))
    parser.add_argument("--backlog", action="store_true",
                        help="no auto sleep while building: the first sleep faces two years")
    args = parser.parse_args()
    PRESETS["no_wake"] = replace(PRESETS["default"], name="no_wake", wake_slots=0)
    clock = FrozenClock(START)
    lines: list[str] = []
    with tempfile.TemporaryDirectory(prefix="engramdb-sleep-") as tmp:
        mem = engramdb.open(Path(tmp) / "sleep.db", embedder="hashing", clock=clock,
                            auto_sleep_importance=0 if args.backlog else 7.5)
        built = build(mem, clock, args.size, args.seed)
        say(lines, f"built {args.size:,} memories over {args.size // WEEK} simulated weeks "
                   f"in {built:.1f}s ({args.size / built:,.0f}/s; load average {load()})")
        if SLEEPS:
            ordered = sorted(SLEEPS)
            say(lines, f"auto sleeps during the build: {len(SLEEPS)}, one per weekly batch of "
                       f"{WEEK:,}: median {statistics.median(ordered):.2f}s, max "
                       f"{ordered[-1]:.2f}s, total {sum(ordered):.1f}s")
        compute, total = decay_per_10k(mem, clock)
        say(lines, f"decay recompute per 10k memories: {compute * 1000:.0f} ms compute, "
                   f"{total * 1000:.0f} ms read + compute (load average {load()})")
        timed_sleep(mem, f"full sleep over all {args.size:,}", TARGET_FULL_SLEEP_S, lines,
                    full=True)
        clock.advance(days=1)
        timed_sleep(mem, "next sleep, a day later", TARGET_INCREMENTAL_S, lines)
        clock.advance(days=1)
        rng = random.Random(args.seed + 1)
        pick = {"p": Zipf(FIRST, rng), "pl": Zipf(PLACES, rng), "t": Zipf(TOPICS, rng),
                "cp": Zipf(CN_PEOPLE, rng), "cpl": Zipf(CN_PLACES, rng), "ct": Zipf(CN_TOPICS, rng)}
        drafts = [draft(args.size + n, clock.now(), rng, pick) for n in range(1000)]
        mem.config = replace(mem.config, auto_sleep_importance=0)  # the sleep timed is ours
        mem.remember_many(drafts, batch=256, **SCOPE)
        clock.advance(hours=1)
        timed_sleep(mem, "incremental sleep after 1,000 new memories", TARGET_INCREMENTAL_S,
                    lines)
        check = timed_sleep(mem, "full sleep right after it (must change nothing)",
                            TARGET_FULL_SLEEP_S, lines, full=True)
        say(lines, f"changes left for the full sleep: {check.changes} "
                   f"({'exact' if check.changes == 0 else 'NOT exact'})")
        say(lines, f"layers after: {mem.stats(**SCOPE).by_layer}; kinds: "
                   f"{mem.stats(**SCOPE).by_kind.get('gist', 0)} gists")
        queries = ["that trip with Priya to Tokyo", "what did Ravi say about the budget",
                   "和小王去哈尔滨看冰雕", "Emma in Berlin last year", "the security audit",
                   "how is work going", "Kenji and the marathon in Seoul", "老张在上海的预算"]
        for preset, times in recall_ms(mem, queries).items():
            times.sort()
            p95 = times[int(0.95 * (len(times) - 1))]
            label = "with wake-up" if preset == "default" else "without wake-up"
            say(lines, f"recall k=10 over {args.size:,}, {label:15s}: p50 "
                       f"{statistics.median(times):.1f} ms, p95 {p95:.1f} ms")
        mem.close()
    if not args.no_save:
        target = RESULTS.with_name("sleep_backlog.md") if args.backlog else RESULTS
        target.write_text(
            "# Sleep benchmark\n\n`.venv/bin/python bench/sleep.py"
            + (f" --size {args.size}" if args.size != 100_000 else "")
            + (" --backlog" if args.backlog else "")
            + f"` ({datetime.now(UTC).date()}, 2 shared cores, hashing embedder)\n\n```\n"
            + "\n".join(lines) + "\n```\n")


if __name__ == "__main__":
    main()

"""Probes with answers known by construction (seeded, synthetic, English and Chinese): the
knowledge-update, temporal and capacity gates of issue 4. Prints the figures and writes them
to bench/results/probes.md. Driven through the public API only; reads use ``track=False``.

    .venv/bin/python bench/probes.py                      # hashing embedder (fast, lexical)
    .venv/bin/python bench/probes.py --embedder default   # the bundled model (slow on 2 cores)
    .venv/bin/python bench/probes.py --only update,temporal --capacity 2000

Knowledge update: per subject, chains of 3 values (a person's residence and employer, a
service's port and version), written oldest first, with same-subject different-attribute
distractors ("{name} works in {city}", "{name}'s favourite colour is ..."; a service's port
and version are distractors of each other). Present-tense questions must put the current
value first and return no superseded value; past questions must find the two earlier values;
no distractor may be superseded.
Temporal: dated events "{date}, {person} in {city} {activity}" (``at`` = that day) among other
people's; "what did {person} do in {month year}" must find them (Recall@5) and return only
memories of that month (window precision); months nobody has a memory in must abstain.
Capacity: 10k memories with 40 gold facts (20 English, 20 Chinese): Recall@10."""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import engramdb
from engramdb import Draft, Hit
from engramdb.testing import FrozenClock

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)
HERE = Path(__file__).resolve().parent
GATES = {  # figure -> (comparison, threshold)
    "update.current_top1": (">=", 0.98), "update.stale_rate": ("<=", 0.01),
    "update.history_recall": (">=", 0.98), "update.false_supersessions": ("<=", 0.01),
    "temporal.recall@5": (">=", 0.95), "temporal.window_precision": (">=", 0.98),
    "temporal.inside_first": (">=", 0.98), "temporal.empty_said": (">=", 0.98),
    "capacity.recall@10": (">=", 0.95),
}
EN_CITIES = ("Lisbon Berlin Oslo Madrid Vienna Prague Dublin Athens Warsaw Helsinki Zurich "
             "Rome Paris Porto Munich Krakow Riga Tallinn Sofia Bergen").split()
ZH_CITIES = ("北京 上海 广州 深圳 杭州 成都 武汉 南京 西安 重庆 天津 苏州 长沙 青岛 厦门 "
             "昆明").split()
EN_COMPANIES = ("Google SAP Siemens Spotify Shopify Stripe Atlassian Philips Nokia Airbus "
                "Bosch Adidas Zalando Klarna Booking Ericsson").split()
ZH_COMPANIES = "腾讯 阿里巴巴 百度 华为 小米 字节跳动 京东 美团 网易 比亚迪 联想 中兴".split()
COLOURS = "blue green red purple orange yellow teal grey".split()
SYLLABLES = "ka lo mi ren to sa vi del mar qu zen tor ly na be gor fi das kel om".split()
SURNAMES = list("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗")
GIVEN = list("明芳伟娜敏静丽强磊军洋勇艳杰娟涛超秀霞平刚桂英华玉兰")
ACTIVITIES = ("went surfing", "ran a marathon", "visited a museum", "played chess",
              "baked bread", "climbed a hill", "sang in a choir", "watched an opera",
              "learned pottery", "rode a bike tour")
ZH_ACTIVITIES = "爬山 看展览 跑马拉松 学陶艺 下围棋 听音乐会 骑自行车 做面包 划船 钓鱼".split()
MONTHS = ("January February March April May June July August September October November "
          "December").split()


def en_names(rng: random.Random, n: int) -> list[str]:
    names: set[str] = set()
    while len(names) < n:
        names.add("".join(rng.sample(SYLLABLES, 3)).capitalize())
    return sorted(names)


def zh_names(rng: random.Random, n: int) -> list[str]:
    names: set[str] = set()
    while len(names) < n:
        names.add(rng.choice(SURNAMES) + "".join(rng.sample(GIVEN, 2)))
    return sorted(names)


def open_memory(embedder: str, folder: str, name: str) -> engramdb.Memory:
    return engramdb.open(Path(folder) / f"{name}.db", embedder=embedder, clock=FrozenClock(NOW))


# ---------------------------------------------------------------- knowledge update


@dataclass
class Chain:
    language: str
    values: list[str]                 # the three contents, oldest first
    present: str                      # a present-tense question
    past: str                         # a question about the earlier values
    distractors: list[str] = field(default_factory=list)


def update_chains(rng: random.Random, per_language: int) -> list[Chain]:
    chains: list[Chain] = []
    for name in en_names(rng, per_language):
        cities, firms = rng.sample(EN_CITIES, 4), rng.sample(EN_COMPANIES, 3)
        colour = rng.choice(COLOURS)
        shared = [f"{name} works in {cities[3]}", f"{name}'s favourite colour is {colour}"]
        chains.append(Chain("en", [f"{name} lives in {c}" for c in cities[:3]],
                            f"where does {name} live now?", f"where did {name} live before?",
                            shared))
        chains.append(Chain("en", [f"{name} works at {f}" for f in firms],
                            f"which company does {name} work at now?",
                            f"which company did {name} work at before?"))
        service = f"{name.lower()}-api"
        ports = rng.sample(range(3000, 9999), 3)
        versions = [f"{rng.randint(0, 3)}.{i}.{rng.randint(0, 9)}" for i in range(3)]
        chains.append(Chain("en", [f"{service} runs on port {p}" for p in ports],
                            f"which port does {service} run on now?",
                            f"which port did {service} run on before?"))
        chains.append(Chain("en", [f"{service} version {v}" for v in versions],
                            f"what is the current version of {service}?",
                            f"what was the previous version of {service}?"))
    for name in zh_names(rng, per_language):
        cities, firms = rng.sample(ZH_CITIES, 4), rng.sample(ZH_COMPANIES, 3)
        shared = [f"{name}在{cities[3]}工作", f"{name}最喜欢的颜色是{rng.choice('红蓝绿紫黄')}色"]
        chains.append(Chain("zh", [f"{name}住在{c}" for c in cities[:3]],
                            f"{name}现在住在哪里？", f"{name}以前住在哪里？", shared))
        chains.append(Chain("zh", [f"{name}在{f}工作" for f in firms],
                            f"{name}现在在哪家公司工作？", f"{name}以前在哪家公司工作？"))
        service = f"{name}的服务"
        ports = rng.sample(range(3000, 9999), 3)
        chains.append(Chain("zh", [f"{service}的端口是{p}" for p in ports],
                            f"{service}现在的端口是多少？", f"{service}以前的端口是多少？"))
    return chains


def probe_update(mem: engramdb.Memory, chains: list[Chain]) -> dict[str, float]:
    me = mem.scope(user="probe")
    start = datetime(2025, 1, 1, tzinfo=UTC)
    drafts = [Draft(d, kind="fact", at=start) for c in chains for d in c.distractors]
    for step in range(3):  # every chain's first values, then second, then third
        drafts += [Draft(c.values[step], kind="fact", at=start + timedelta(days=30 * (step + 1)))
                   for c in chains]
    me.remember_many(drafts)
    by_content = {r.content: r for r in me.list(include_superseded=True)}
    top1 = stale = hits_seen = found = wanted = chained = 0
    for c in chains:
        hits = me.recall(c.present, k=5, track=False)
        top1 += bool(hits) and hits[0].memory.content == c.values[-1]
        stale += sum(1 for h in hits if h.memory.invalid_at is not None)
        hits_seen += len(hits)
        past = {h.memory.content for h in me.recall(c.past, k=5, track=False)}
        found += sum(v in past for v in c.values[:2])
        wanted += 2
        chain = {v.memory.content for v in me.history(by_content[c.values[-1]].id)}
        chained += set(c.values) <= chain
    keep = [d for c in chains for d in c.distractors] + [c.values[-1] for c in chains]
    false = sum(1 for text in keep if by_content[text].invalid_at is not None)
    missed = sum(1 for c in chains for v in c.values[:2] if by_content[v].invalid_at is None)
    n = len(chains)
    return {"update.current_top1": top1 / n, "update.stale_rate": stale / max(hits_seen, 1),
            "update.history_recall": found / wanted,
            "update.false_supersessions": false / len(keep),
            "update.missed_supersessions": missed / (2 * n), "update.chains_complete": chained / n,
            "update.chains": n}


# ---------------------------------------------------------------- temporal


@dataclass
class Dated:
    person: str
    content: str
    day: datetime


def temporal_events(rng: random.Random, people: int) -> tuple[list[Dated], list[datetime]]:
    """Events in 2023-2024, never in the months left empty (every fourth month)."""
    months = [datetime(2023 + i // 12, i % 12 + 1, 1, tzinfo=UTC) for i in range(24)]
    empty = months[3::4]
    used = [m for m in months if m not in empty]
    events: list[Dated] = []
    for lang, names in (("en", en_names(rng, people)), ("zh", zh_names(rng, people))):
        for name in names:
            for month in rng.sample(used, 6):
                day = month.replace(day=rng.randint(1, 28))
                if lang == "en":
                    text = (f"{day.strftime('%Y-%m-%d')}, {name} in {rng.choice(EN_CITIES)} "
                            f"{rng.choice(ACTIVITIES)}")
                else:
                    text = (f"{day.year}年{day.month}月{day.day}日，{name}在{rng.choice(ZH_CITIES)}"
                            f"{rng.choice(ZH_ACTIVITIES)}")
                events.append(Dated(name, text, day))
    return events, empty


def month_query(person: str, month: datetime) -> str:
    if any("\u4e00" <= ch <= "\u9fff" for ch in person):
        return f"{person}{month.year}年{month.month}月做了什么？"
    return f"what did {person} do in {MONTHS[month.month - 1]} {month.year}?"


def probe_temporal(mem: engramdb.Memory, events: list[Dated],
                   empty: list[datetime]) -> dict[str, float]:
    """A window narrows, it does not erase (issue 27): the hits recall places inside the
    window must be of that month and come before every other hit; for a month with no memory
    the recall abstains, or returns nothing as inside the window and says so in its note."""
    me = mem.scope(user="probe")
    me.remember_many([Draft(e.content, kind="event", at=e.day.date()) for e in events])
    recalled = in_window = placed = ordered = 0
    for e in events:
        month = e.day.replace(day=1)
        end = month.replace(year=month.year + month.month // 12, month=month.month % 12 + 1)
        hits = me.recall(month_query(e.person, month), k=5, track=False)
        recalled += e.content in [h.memory.content for h in hits]
        inside = [_placed_inside(h) for h in hits]
        in_window += sum(1 for h, i in zip(hits, inside, strict=True)
                         if i and month <= h.memory.at < end)
        placed += sum(inside)
        ordered += inside == sorted(inside, reverse=True)
    people = sorted({e.person for e in events})
    said = asked = 0
    for person in people:
        for month in empty:
            hits = me.recall(month_query(person, month), k=5, track=False)
            said += (hits.abstained and not hits) or (
                bool(hits.note) and not any(_placed_inside(h) for h in hits))
            asked += 1
    return {"temporal.recall@5": recalled / len(events),
            "temporal.window_precision": in_window / max(placed, 1),
            "temporal.inside_first": ordered / len(events),
            "temporal.empty_said": said / asked, "temporal.events": len(events),
            "temporal.empty_queries": asked}


def _placed_inside(hit: Hit) -> bool:
    return any(note.startswith("in the window ") for note in hit.explanation.notes)


# ---------------------------------------------------------------- capacity


def capacity_data(rng: random.Random, total: int) -> tuple[list[str], list[tuple[str, str]]]:
    objects = "key notebook umbrella wallet charger passport scarf camera ticket lamp".split()
    places = ("garage attic drawer backpack kitchen cellar glovebox shelf wardrobe office "
              "desk basement").split()
    zh_objects = "钥匙 笔记本 雨伞 钱包 充电器 护照 围巾 相机 车票 台灯".split()
    zh_places = "车库 阁楼 抽屉 背包 厨房 地下室 书架 衣柜 办公室 书桌".split()
    en, zh = en_names(rng, 400), zh_names(rng, 400)
    gold: list[tuple[str, str]] = []
    seen: set[str] = set()
    for i in range(40):
        if i % 2 == 0:
            name, obj, colour = en[i], rng.choice(objects), rng.choice(COLOURS)
            fact = f"{name} keeps the {colour} {obj} in the {rng.choice(places)}"
            question = f"where does {name} keep the {colour} {obj}?"
        else:
            name, obj = zh[i], rng.choice(zh_objects)
            fact = f"{name}把{obj}放在{rng.choice(zh_places)}里"
            question = f"{name}把{obj}放在哪里？"
        gold.append((fact, question))
        seen.add(fact)
    filler: list[str] = []
    while len(filler) < total - len(gold):
        if rng.random() < 0.5:
            text = (f"{rng.choice(en[40:])} keeps the {rng.choice(COLOURS)} "
                    f"{rng.choice(objects)} in the {rng.choice(places)} near "
                    f"{rng.choice(EN_CITIES)} {rng.randint(1, 99)}")
        else:
            text = (f"{rng.choice(zh[40:])}把{rng.choice(zh_objects)}放在{rng.choice(ZH_CITIES)}的"
                    f"{rng.choice(zh_places)}里第{rng.randint(1, 99)}层")
        if text not in seen:
            seen.add(text)
            filler.append(text)
    return filler, gold


def probe_capacity(mem: engramdb.Memory, filler: list[str],
                   gold: list[tuple[str, str]]) -> dict[str, float]:
    me = mem.scope(user="probe")
    items = filler + [fact for fact, _ in gold]
    random.Random(7).shuffle(items)
    for start in range(0, len(items), 1000):
        me.remember_many([Draft(t, kind="event") for t in items[start:start + 1000]])
    found = 0
    for fact, question in gold:
        found += fact in [h.memory.content for h in me.recall(question, k=10, track=False)]
    return {"capacity.recall@10": found / len(gold), "capacity.memories": me.count()}


# ---------------------------------------------------------------- report


def gate_line(name: str, value: float) -> str:
    if name not in GATES:
        return f"| {name} | {value:.4g} | | |"
    op, threshold = GATES[name]
    ok = value >= threshold if op == ">=" else value <= threshold
    return f"| {name} | {value:.4f} | {op} {threshold} | {'pass' if ok else 'FAIL'} |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedder", default="hashing")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--subjects", type=int, default=50, help="names per language (update)")
    parser.add_argument("--people", type=int, default=20, help="names per language (temporal)")
    parser.add_argument("--capacity", type=int, default=10_000)
    parser.add_argument("--only", default="update,temporal,capacity")
    parser.add_argument("--out", default=str(HERE / "results" / "probes.md"))
    args = parser.parse_args(argv)
    wanted = set(args.only.split(","))
    figures: dict[str, float] = {}
    timings: list[str] = []
    runs: list[tuple[str, Callable[[engramdb.Memory], dict[str, Any]]]] = []
    rng = random.Random(args.seed)
    if "update" in wanted:
        chains = update_chains(rng, args.subjects)
        runs.append(("update", lambda m: probe_update(m, chains)))
    if "temporal" in wanted:
        events, empty = temporal_events(rng, args.people)
        runs.append(("temporal", lambda m: probe_temporal(m, events, empty)))
    if "capacity" in wanted:
        filler, gold = capacity_data(rng, args.capacity)
        runs.append(("capacity", lambda m: probe_capacity(m, filler, gold)))
    with tempfile.TemporaryDirectory() as folder:
        for name, run in runs:
            began = time.perf_counter()
            with open_memory(args.embedder, folder, name) as mem:
                figures.update(run(mem))
            timings.append(f"{name} {time.perf_counter() - began:.1f}s")
            print(f"{name}: done in {timings[-1].split()[1]}", file=sys.stderr)
    lines = [f"**bench/probes.py** (embedder {args.embedder}, seed {args.seed}, "
             f"{args.subjects} update subjects and {args.people} temporal people per language, "
             f"capacity {args.capacity})", "", "| figure | value | gate | |", "|---|---|---|---|"]
    lines += [gate_line(k, v) for k, v in figures.items()]
    lines += ["", "time: " + ", ".join(timings)]
    text = "\n".join(lines)
    print(text)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text + "\n", encoding="utf-8")
    failed = [k for k, v in figures.items() if k in GATES and gate_line(k, v).endswith("FAIL |")]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

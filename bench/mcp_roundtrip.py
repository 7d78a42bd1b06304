"""MCP tool call round trip over stdio: recall and remember against a store of a few thousand
memories, through the SDK's own client and a real `engramdb mcp` subprocess.

Prints figures (it is not a test) and writes a markdown table (``--out``). Next to each MCP
figure stands the same verb called in process on the same file (``engramdb.open``), so the
difference is the door: JSON-RPC over the pipe, schema validation both ways, the result's
structured content and text, the worker thread.

    .venv/bin/python bench/mcp_roundtrip.py   # 3,000 memories, hashing embedder
    .venv/bin/python bench/mcp_roundtrip.py --embedder default   # the bundled model (slower)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

import engramdb
from engramdb import Draft

PEOPLE = "Alice Bob Carol David Emma Frank Grace Henry Maria Noah Olivia Peter Quinn".split()
PLACES = "Berlin Paris London Madrid Lisbon Rome Vienna Oslo Tokyo Seoul Sydney Lima".split()
THINGS = "tea coffee chess tennis jazz sushi hiking painting cycling poetry opera kites".split()
ZH_PLACES = "北京 上海 广州 深圳 杭州 成都 西安 南京".split()
ZH_THINGS = "火锅 书法 围棋 太极 茶 京剧 爬山 饺子".split()


def memory_text(rng: random.Random, i: int) -> str:
    if i % 4 == 3:
        return f"{rng.choice(ZH_PLACES)}的朋友喜欢{rng.choice(ZH_THINGS)}，第{i}次聚会"
    return (f"{rng.choice(PEOPLE)} met {rng.choice(PEOPLE)} in {rng.choice(PLACES)} and "
            f"talked about {rng.choice(THINGS)} (note {i})")


def queries(rng: random.Random, n: int) -> list[str]:
    out = []
    for i in range(n):
        if i % 4 == 3:
            out.append(f"谁在{rng.choice(ZH_PLACES)}喜欢{rng.choice(ZH_THINGS)}")
        else:
            out.append(f"who talked about {rng.choice(THINGS)} in {rng.choice(PLACES)}?")
    return out


def fill(db: Path, n: int, embedder: str, rng: random.Random) -> None:
    with engramdb.open(db, embedder=embedder, user="bench") as mem:
        drafts = [Draft(content=memory_text(rng, i), kind="event") for i in range(n)]
        mem.remember_many(drafts, user="bench", batch=256)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def row(name: str, ms: list[float]) -> str:
    return (f"| {name} | {len(ms)} | {statistics.median(ms):.2f} | {pct(ms, 0.95):.2f} | "
            f"{statistics.fmean(ms):.2f} |")


async def timed(n: int, call: Callable[[int], Awaitable[object]]) -> list[float]:
    out = []
    for i in range(n):
        started = time.perf_counter()
        await call(i)
        out.append((time.perf_counter() - started) * 1000)
    return out


async def over_stdio(db: Path, embedder: str, qs: list[str], n: int) -> dict[str, list[float]]:
    cmd = [sys.executable, "-m", "engramdb.cli", "mcp", "--db", str(db), "--embedder",
           embedder, "--user", "bench"]
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], env={})
    with open(os.devnull, "w") as quiet:  # the server's log lines would drown the figures
        async with Client(stdio_client(params, errlog=quiet), read_timeout_seconds=300) as client:
            started = time.perf_counter()
            await client.call_tool("recall", {"query": qs[0], "track": False})
            first = [(time.perf_counter() - started) * 1000]

            checks: list[float] = []

            async def recall(i: int) -> None:
                r = await client.call_tool("recall", {"query": qs[i], "track": False})
                assert not r.is_error, r.content
                started = time.perf_counter()  # the client's share: the output schema check
                await client.session.validate_tool_result("recall", r)
                checks.append((time.perf_counter() - started) * 1000)

            async def remember(i: int) -> None:
                r = await client.call_tool("remember", {
                    "content": f"MCP bench memory {i}: {qs[i]}", "kind": "event"})
                assert not r.is_error, r.content

            recalls = await timed(n, recall)
            recalls = [total - check for total, check in zip(recalls, checks, strict=True)]
            return {"first": first, "recall": recalls, "recall_check": checks,
                    "remember": await timed(n, remember)}


def in_process(db: Path, embedder: str, qs: list[str], n: int) -> dict[str, list[float]]:
    with engramdb.open(db, embedder=embedder, user="bench") as mem:
        mem.recall(qs[0], track=False)
        out: dict[str, list[float]] = {"recall": [], "remember": []}
        for i in range(n):
            started = time.perf_counter()
            mem.recall(qs[i], track=False)
            out["recall"].append((time.perf_counter() - started) * 1000)
        for i in range(n):
            started = time.perf_counter()
            mem.remember(f"In-process bench memory {i}: {qs[i]}", kind="event")
            out["remember"].append((time.perf_counter() - started) * 1000)
        return out


def report(args: argparse.Namespace, mcp: dict[str, list[float]],
           local: dict[str, list[float]], fill_s: float) -> str:
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    head = (f"{when}, Python {platform.python_version()}, {os.cpu_count()} CPUs, load "
            f"{load:.1f}; store of {args.memories:,} memories (filled in {fill_s:.1f} s), "
            f"embedder `{args.embedder}`, {args.calls} calls per verb, recall k=5 "
            f"track=false, seed {args.seed}.")
    table = ["| call | n | p50 ms | p95 ms | mean ms |", "|---|---:|---:|---:|---:|",
             row("MCP stdio: first call (opens the store, loads its caches)", mcp["first"]),
             row("MCP stdio: recall (round trip less the client's schema check below)",
                 mcp["recall"]),
             row("MCP stdio: the SDK client's output-schema check of a recall result",
                 mcp["recall_check"]),
             row("MCP stdio: remember", mcp["remember"]),
             row("in process: recall", local["recall"]),
             row("in process: remember", local["remember"])]
    gap = {verb: statistics.median(mcp[verb]) - statistics.median(local[verb])
           for verb in ("recall", "remember")}
    door = [f"Door overhead at p50: recall {gap['recall']:.2f} ms, remember "
            f"{gap['remember']:.2f} ms (JSON-RPC over the pipe, schema checks both ways, "
            "structured content and text, the worker thread)."]
    return "\n".join(["# engramdb MCP round trip (stdio)", "", head, "", *table, "", *door,
                      "", "Command: `.venv/bin/python bench/mcp_roundtrip.py"
                      + (f" --embedder {args.embedder}" if args.embedder != "hashing" else "")
                      + "`", ""])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=3000)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--embedder", default="hashing")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "mcp.md"))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        started = time.perf_counter()
        fill(db, args.memories, args.embedder, rng)
        fill_s = time.perf_counter() - started
        qs = queries(rng, args.calls)
        mcp = asyncio.run(over_stdio(db, args.embedder, qs, args.calls))
        local = in_process(db, args.embedder, qs, args.calls)
    text = report(args, mcp, local, fill_s)
    print(text)
    Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()

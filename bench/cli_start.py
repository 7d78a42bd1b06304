"""CLI cold start: how long a fresh `engramdb` process takes, as an agent calling it pays.

Prints medians of N runs (default 5) of: `engramdb --help`, every subcommand's `--help`,
`engramdb status`, `list`, `get`, `history`, `export` and `recall x` on a two-memory store (one
memory in English, one in Chinese), each a new process. Wall time
and the child's own CPU time (user + system) are both given: on a shared, loaded machine the
wall time waits for a core, the CPU time does not. `recall` runs with the default embedder (the
model loads in the process) and with the hashing embedder (no model); the model's own load and
first query are measured apart, in a fresh process that does only that.

    .venv/bin/python bench/cli_start.py                  # all, 5 runs each
    .venv/bin/python bench/cli_start.py --runs 3 --out bench/results/cli_start.md

Then the same store behind a running `engramdb serve` (cli/remote.py): `recall x`, `get`,
`list`, `status` and `remember` asking the server, each run alternating with the same command
run with --local (the file opened in the process), after one recall that loads the server's
model.

    .venv/bin/python bench/cli_start.py --runs 5 --served-only   # only the served rows

Not a test: it prints figures (targets: every --help <= 0.3 s; get, status, list, history and
export <= 0.35 s CPU with either embedder, as they load no model; recall <= 0.6 s cold besides
the model's load; recall asking a running server <= 0.3 s wall). Set PYTHONPATH to time another
checkout's src/ (before and after, alternately).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

HELP_TARGET_S = 0.3
READ_TARGET_S = 0.35   # CPU: commands that read records and load no model
RECALL_TARGET_S = 0.6
SERVED_TARGET_S = 0.3   # wall: a recall that asks a running server
READY_S = 120.0
READS = ("status", "list", "get", "history", "export")
MODEL_LOAD = """
import time
t = time.perf_counter()
from engramdb.registry import make_embedder
make_embedder("default").embed_batch(["x"], query=True)
print(time.perf_counter() - t)
"""


def engramdb_command() -> list[str]:
    """The console script next to this interpreter, else `python -m engramdb.cli`."""
    script = Path(sys.executable).with_name("engramdb")
    if script.exists():
        return [str(script)]
    found = shutil.which("engramdb")
    return [found] if found else [sys.executable, "-m", "engramdb.cli"]


def timed_run(argv: Sequence[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(wall s, child CPU s, stdout) of one fresh process; a failure stops the benchmark."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(list(argv), env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def medians(argv: Sequence[str], env: dict[str, str], runs: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu, _ = timed_run(argv, env)
        walls.append(wall)
        cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus)


def subcommands() -> list[list[str]]:
    """Every command path of the app (groups and their commands), from the click tree."""
    import typer.main

    from engramdb.cli.app import app

    paths: list[list[str]] = []

    def walk(cmd: object, path: list[str]) -> None:
        for name, sub in sorted(getattr(cmd, "commands", {}).items()):
            paths.append([*path, name])
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return paths


def small_store(cli: list[str], env: dict[str, str], db: Path, embedder: str) -> str:
    """Two memories written with ``embedder`` (a store keeps the embedder it was built with);
    returns the first one's id."""
    for text in ("I moved to Berlin in May", "我妹妹喜欢喝绿茶"):
        timed_run([*cli, "--db", str(db), "--create", "--embedder", embedder, "remember", text],
                  env)
    _, _, listed = timed_run([*cli, "--db", str(db), "--embedder", embedder, "--json", "list"],
                             env)
    return str(json.loads(listed)[0]["id"])


@contextmanager
def running_server(on: list[str], db: Path, env: dict[str, str]) -> Iterator[str]:
    """`engramdb serve` on ``db`` until the block ends; yields its URL once it answers and its
    discovery file is there."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([*on, "serve", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + READY_S
        while True:
            try:
                urllib.request.urlopen(url + "/openapi.json", timeout=2).close()
                if Path(f"{db.resolve()}.server.json").exists():
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"engramdb serve did not start on {db}")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(30)


def served_rows(cli: list[str], env: dict[str, str], on: list[str], db: Path, first: str,
                name: str, runs: int) -> list[str]:
    """recall, get, list, status and remember asking a running server, alternating with the same
    command run with --local; medians of ``runs`` each."""
    commands = [("recall x", ["recall", "x", "--no-track"], SERVED_TARGET_S, None),
                ("get", ["get", first], None, READ_TARGET_S),
                ("list", ["list"], None, READ_TARGET_S),
                ("status", ["status"], None, READ_TARGET_S),
                ("remember", ["remember", "I moved to Berlin in May"], None, None)]
    lines = []
    with running_server(on, db, env) as url:
        timed_run([*on, "recall", "x", "--no-track"], env)   # the server loads its model
        check = subprocess.run([*on, "-v", "recall", "x"], env=env, capture_output=True,
                               text=True, check=False)
        if f"asking the server at {url}" not in check.stderr or "did not" in check.stderr:
            raise SystemExit(f"the CLI did not ask the server: {check.stderr[-2000:]}")
        for label, argv, target, cpu_target in commands:
            there: dict[str, list[float]] = {"wall": [], "cpu": []}
            here: dict[str, list[float]] = {"wall": [], "cpu": []}
            for _ in range(runs):
                for into, extra in ((there, []), (here, ["--local"])):
                    wall, cpu, _ = timed_run([*on, *extra, *argv], env)
                    into["wall"].append(wall)
                    into["cpu"].append(cpu)
            for into, how, goal, cpu_goal in ((there, "asking a running server", target,
                                               cpu_target),
                                              (here, "--local, in the same minutes", None,
                                               None)):
                wall, cpu = statistics.median(into["wall"]), statistics.median(into["cpu"])
                text = f"`engramdb {label}` ({name}; {how})"
                lines.append(row(text, wall, cpu, goal, cpu_goal))
                print(f"{text}: {wall:.3f} s wall, {cpu:.3f} s CPU", flush=True)
    return lines


def row(label: str, wall: float, cpu: float, target: float | None,
        cpu_target: float | None = None) -> str:
    cpu_target = target if cpu_target is None else cpu_target
    verdict = "-" if target is None else ("ok" if wall <= target else "MISS")
    cpu_verdict = "-" if cpu_target is None else ("ok" if cpu <= cpu_target else "MISS")
    return f"| {label} | {wall:.3f} | {verdict} | {cpu:.3f} | {cpu_verdict} |"


def run(args: argparse.Namespace) -> str:
    cli = engramdb_command()
    env = dict(os.environ)
    load = [os.getloadavg()[0]]
    lines = [
        "# engramdb CLI cold start",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {args.runs} runs each (medians), command `{' '.join(cli)}`.",
        "",
        "| command | wall s | wall target | CPU s | CPU target |",
        "|---|---:|---|---:|---|",
    ]
    helps = [] if args.no_help or args.served_only else [[], *subcommands()]
    if args.commands:   # a sample, for a quick run: "recall,goal start"
        wanted = [c.split() for c in args.commands.split(",")]
        helps = [h for h in helps if h == [] or h in wanted]
    worst = (0.0, 0.0, "")
    for path in helps:
        wall, cpu = medians([*cli, *path, "--help"], env, args.runs)
        label = f"`engramdb {' '.join([*path, '--help'])}`"
        if path == [] or args.every_help:
            lines.append(row(label, wall, cpu, HELP_TARGET_S))
        worst = max(worst, (wall, cpu, label))
        print(f"{label}: {wall:.3f} s wall, {cpu:.3f} s CPU", flush=True)
    if helps:
        lines.append(row(f"slowest of the {len(helps)} --help: {worst[2]}", worst[0], worst[1],
                         HELP_TARGET_S))
    with tempfile.TemporaryDirectory(prefix="engramdb-cli-") as tmp:
        hashing, default = Path(tmp) / "hashing.db", Path(tmp) / "default.db"
        first = {"hashing": small_store(cli, env, hashing, "hashing"),
                 "default embedder": small_store(cli, env, default, "default")}
        on = {"hashing": [*cli, "--db", str(hashing), "--embedder", "hashing"],
              "default embedder": [*cli, "--db", str(default), "--embedder", "default"]}
        runs: list[tuple[str, list[str], float | None, float | None]] = []
        for name in () if args.served_only else ("hashing", "default embedder"):
            for verb in READS:
                argv = [*on[name], verb, *([first[name]] if verb in ("get", "history") else [])]
                runs.append((f"`engramdb {verb}` ({name})", argv, None, READ_TARGET_S))
        runs += [] if args.served_only else [
            ("`engramdb recall x` (hashing: no model)",
             [*on["hashing"], "recall", "x", "--no-track"], RECALL_TARGET_S, None),
            ("`engramdb recall x` (default embedder: the model loads)",
             [*on["default embedder"], "recall", "x", "--no-track"], None, None)]
        for label, argv, target, cpu_target in runs:
            wall, cpu = medians(argv, env, args.runs)
            lines.append(row(label, wall, cpu, target, cpu_target))
            print(f"{label}: {wall:.3f} s wall, {cpu:.3f} s CPU", flush=True)
        for name, db in (("hashing", hashing), ("default embedder", default)):
            lines += served_rows(cli, env, on[name], db, first[name], name, args.runs)
    walls, cpus = [], []
    for _ in range(0 if args.served_only else args.runs):
        wall, cpu, _ = timed_run([sys.executable, "-c", MODEL_LOAD], env)
        walls.append(wall)
        cpus.append(cpu)
    if walls:
        lines.append(row("the default model alone: a process that imports, loads it and embeds "
                         "'x'", statistics.median(walls), statistics.median(cpus), None))
    load.append(os.getloadavg()[0])
    lines += [
        "",
        f"Load average {' -> '.join(f'{x:.1f}' for x in load)} (start -> end) on "
        f"{os.cpu_count()} CPUs. Wall time includes waiting for a core on a busy machine; the "
        "CPU column is the process's own time. get, status, list, history and export read "
        "records and load no model with either embedder: their target is on the CPU column. "
        "The recall on the hashing embedder is the CLI "
        "and the engine without a model: the target applies to it; the model's load is the "
        "last row, and the default-embedder recall is about the two together. The rows "
        "'asking a running server' are the CLI alone (the server did the recall, its model "
        "already loaded): their target, on the wall column, is the recall's.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--every-help", action="store_true",
                   help="one row per subcommand's --help (else the root and the slowest)")
    p.add_argument("--commands", default="",
                   help="time only these commands' --help, comma separated (default: all)")
    p.add_argument("--no-help", action="store_true", help="skip the --help timings")
    p.add_argument("--served-only", action="store_true",
                   help="only the rows of commands asking a running server (and --local)")
    p.add_argument("--out", default="", help="also write the table to this file")
    args = p.parse_args(argv)
    text = run(args)
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

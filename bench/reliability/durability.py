"""Durability (issue 29), tested the way SQLite's own tests do, on real files:

- I/O faults: every statement of a write (``remember``, ``remember_many``, ``update``, a
  write to a taken URI, a hard ``forget``) fails once, in turn, with
  ``sqlite3.OperationalError("disk I/O error")``: the statement fails and its transaction
  stays open, or SQLite has rolled the whole transaction back, or (for COMMIT) the commit
  reached the file but reported the error. Property: the call raises StoreError (or, where a
  best-effort step after the commit failed, returns with the write done), the write is whole
  (row, full-text row, vector, event, concepts) or absent (every table as before), recall
  agrees with the tables, and the store takes the next write.
- Power loss: acknowledged writes, then a copy of the file and its WAL at a random point,
  the WAL cut at a random byte (a torn tail, sometimes with garbage after the cut) no earlier
  than what the synchronous setting has synced: under FULL the last acknowledged commit, under
  NORMAL the last checkpoint. Property: the copy opens, integrity_check and FTS5's
  integrity-check say ok, every table agrees with the others, and the writes present are
  exactly those whose commit frames survived the cut (SQLite's recovery rule, read here from
  the WAL's own checksums): under FULL every acknowledged write, under NORMAL a prefix of them
  that holds every write checkpointed before the loss.

    PYTHONPATH=src python bench/reliability/durability.py [--sweeps 5] [--losses 200]
"""

from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import struct
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import engramdb
from engramdb import Draft, EngramError, StoreError
from engramdb.testing import FrozenClock

FAULT = "disk I/O error"
MODES = ("fails", "rolls_back", "commit_lands")
START = datetime(2026, 3, 1, tzinfo=UTC)


# ---------------------------------------------------------------- I/O faults


class Faults:
    """Counts the statements run once armed and fails the ``at``-th one, in one of MODES."""

    def __init__(self) -> None:
        self.at = 0          # 0: disarmed
        self.mode = "fails"
        self.seen = 0
        self.fired: str | None = None   # the statement that was failed

    def arm(self, at: int, mode: str) -> None:
        self.at, self.mode, self.seen, self.fired = at, mode, 0, None

    def run(self, conn: sqlite3.Connection, sql: str, statement: Callable[[], Any]) -> Any:
        if not self.at or (self.mode == "commit_lands" and sql != "COMMIT"):
            return statement()
        self.seen += 1
        if self.seen != self.at:
            return statement()
        self.at, self.fired = 0, sql
        if self.mode == "rolls_back" and conn.in_transaction:
            sqlite3.Connection.execute(conn, "ROLLBACK")   # as SQLite may do on SQLITE_IOERR
        elif self.mode == "commit_lands":
            statement()
        raise sqlite3.OperationalError(FAULT)


class FaultyCursor(sqlite3.Cursor):
    def execute(self, sql: str, parameters: Any = ()) -> Any:  # type: ignore[override]
        conn = self.connection
        return conn.faults.run(conn, sql, lambda: super(FaultyCursor, self).execute(  # type: ignore[attr-defined]
            sql, parameters))

    def executemany(self, sql: str, parameters: Any) -> Any:  # type: ignore[override]
        conn = self.connection
        return conn.faults.run(conn, sql, lambda: super(FaultyCursor, self).executemany(  # type: ignore[attr-defined]
            sql, parameters))


class FaultyConnection(sqlite3.Connection):
    """A real sqlite3 connection whose every statement passes through ``self.faults``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.faults = Faults()

    def cursor(self, factory: Any = FaultyCursor) -> Any:  # type: ignore[override]
        return super().cursor(factory)

    def execute(self, sql: str, parameters: Any = ()) -> Any:  # type: ignore[override]
        return self.faults.run(self, sql, lambda: super(FaultyConnection, self).execute(
            sql, parameters))

    def executemany(self, sql: str, parameters: Any) -> Any:  # type: ignore[override]
        return self.faults.run(self, sql, lambda: super(FaultyConnection, self).executemany(
            sql, parameters))


@contextmanager
def faulty_open(path: Path, **settings: Any) -> Iterator[tuple[engramdb.Memory, Faults]]:
    """engramdb.open over a FaultyConnection (sqlite3.connect is patched while it opens)."""
    real = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        return real(*args, factory=FaultyConnection, **kwargs)

    sqlite3.connect = connect  # type: ignore[assignment]
    try:
        mem = engramdb.open(path, embedder="hashing", clock=FrozenClock(START),
                            **{"auto_sleep_importance": 0, **settings})
    finally:
        sqlite3.connect = real
    try:
        yield mem, mem.store._db.faults  # type: ignore[attr-defined]
    finally:
        mem.close()


# ---------------------------------------------------------------- what "whole" means


def table_counts(db: sqlite3.Connection) -> dict[str, int]:
    names = [r[0] for r in sqlite3.Connection.execute(
        db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    return {n: sqlite3.Connection.execute(db, f'SELECT count(*) FROM "{n}"').fetchone()[0]
            for n in names}


CROSS_CHECKS = {
    "memory without its full-text row": "SELECT count(*) FROM memories m WHERE m.layer != "
    "'deleted' AND NOT EXISTS (SELECT 1 FROM memories_fts f WHERE f.rowid = m.rowid)",
    "full-text row without its memory": "SELECT count(*) FROM memories_fts f WHERE NOT EXISTS "
    "(SELECT 1 FROM memories m WHERE m.rowid = f.rowid)",
    "memory without its vector (nor one pending)": "SELECT count(*) FROM memories m WHERE "
    "m.layer != 'deleted' AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.mem_rowid = m.rowid) "
    "AND NOT EXISTS (SELECT 1 FROM pending_vectors p WHERE p.memory_id = m.id)",
    "vector without its memory": "SELECT count(*) FROM vectors v WHERE NOT EXISTS "
    "(SELECT 1 FROM memories m WHERE m.rowid = v.mem_rowid)",
    "memory without its creation event": "SELECT count(*) FROM memories m WHERE NOT EXISTS "
    "(SELECT 1 FROM events e WHERE e.memory_id = m.id AND e.op IN ('create', 'import'))",
    "event of no memory": "SELECT count(*) FROM events e WHERE e.memory_id != '' AND NOT EXISTS "
    "(SELECT 1 FROM memories m WHERE m.id = e.memory_id) AND e.memory_id NOT LIKE '*%'",
    "concept of no memory": "SELECT count(*) FROM concepts c WHERE NOT EXISTS "
    "(SELECT 1 FROM memories m WHERE m.rowid = c.mem_rowid)",
    "vector count off": "SELECT count(*) FROM scope_state s WHERE s.vec_count != (SELECT "
    "count(*) FROM vectors v WHERE v.user = s.user AND v.agent = s.agent)",
}


def broken(db: sqlite3.Connection) -> list[str]:
    """What is not whole in the file: SQLite's and FTS5's integrity checks, then the tables
    against each other. Empty when all is well."""
    run = sqlite3.Connection.execute
    problems = [] if run(db, "PRAGMA integrity_check").fetchone()[0] == "ok" else [
        "integrity_check"]
    try:
        run(db, "INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)")
    except sqlite3.DatabaseError as exc:
        problems.append(f"fts5 integrity-check: {exc}")
    return problems + [f"{n}: {c}" for n, sql in CROSS_CHECKS.items()
                       if (c := run(db, sql).fetchone()[0])]


# ---------------------------------------------------------------- the fault sweep


@dataclass
class Sweep:
    verb: str
    mode: str
    statements: int = 0      # faults injected (one per statement of the write)
    errors: dict[str, int] = field(default_factory=dict)   # what the caller saw
    written: int = 0         # faulted calls whose write is in the file anyway (commit landed)
    failures: list[str] = field(default_factory=list)


VERBS = ("remember", "remember_many", "update", "uri_update", "forget_hard")


@dataclass
class Write:
    """One write to fault: ``run`` it; ``applied()`` says whether it took effect, ``partly()``
    whether only part of it did; ``shown`` maps a text to whether recall should return it."""

    run: Callable[[], Any]
    applied: Callable[[], bool]
    partly: Callable[[], bool]
    shown: Callable[[bool], dict[str, bool]]


def _write(me: Any, verb: str, words: list[str]) -> Write:
    """The write of ``verb`` (what it changes is made here, before the fault is armed)."""
    texts = [f"{w} was noted while testing {verb}" for w in words]
    if verb in ("remember", "remember_many"):
        texts = texts[:1] if verb == "remember" else texts

        def stored() -> list[bool]:
            have = {m.content for m in me.list(limit=100_000)}
            return [t in have for t in texts]

        def run() -> Any:
            if verb == "remember":
                return me.remember(texts[0], kind="fact")
            return me.remember_many([Draft(t, kind="fact") for t in texts])

        return Write(run, lambda: all(stored()), lambda: any(stored()) and not all(stored()),
                     lambda done: {t: done for t in texts})
    old, new = texts[0], f"{words[0]} changed its wording for {verb}"
    uri = f"core://user/{words[0]}" if verb == "uri_update" else None
    memory = me.remember(old, kind="fact", uri=uri).memory
    if verb == "forget_hard":
        def gone() -> bool:
            return memory.id not in {m.id for m in me.list(limit=100_000)}

        return Write(lambda: me.forget(memory.id, hard=True), gone, lambda: False,
                     lambda done: {old: not done})
    run = (lambda: me.update(memory.id, content=new)) if verb == "update" else (
        lambda: me.remember(new, kind="fact", uri=uri))
    return Write(run, lambda: me.get(memory.id).content == new,
                 lambda: me.get(memory.id).content not in (old, new),
                 lambda done: {new: done, old: not done})


def sweep(path: Path, verb: str, mode: str, batch: int = 3, tag: str = "",
          **settings: Any) -> Sweep:
    """Fail statement 1, 2, ... of one ``verb`` call in turn (a fresh write each time) until a
    call runs out of statements before the fault; check the file and the store after each."""
    out = Sweep(verb, mode)
    with faulty_open(path, **settings) as (mem, faults):
        me = mem.scope(user="faults")
        db = mem.store._db  # type: ignore[attr-defined]
        me.remember(f"seed memory {tag} about the garden", kind="fact")
        at = 0
        while True:
            at += 1
            write = _write(me, verb, [f"zq{tag}{mode[:2]}{verb[:3]}{verb[-3:]}{at}x{i}"
                                      for i in range(batch)])
            before = table_counts(db)
            faults.arm(at, mode)
            try:
                write.run()
                error = None
            except Exception as exc:   # noqa: BLE001 - any escape is a finding
                error = exc
            fired, faults.at = faults.fired, 0
            if fired is None:
                if error is not None:
                    out.failures.append(f"{verb} failed with no fault: {error!r}")
                break
            out.statements += 1
            name = type(error).__name__ if error is not None else "none"
            out.errors[name] = out.errors.get(name, 0) + 1
            where = f"{verb} {mode}, fault at statement {at} ({fired[:40]!r})"
            if error is not None and not isinstance(error, StoreError):
                out.failures.append(f"{where}: the call gave {error!r}")
            out.failures += [f"{where}: {p}" for p in _check_after(db, me, write, before, error,
                                                                   out)]
    with sqlite3.connect(path) as db:   # and as the next process sees it
        out.failures += [f"reopened: {p}" for p in broken(db)]
    return out


def _check_after(db: sqlite3.Connection, me: Any, write: Write, before: dict[str, int],
                 error: Exception | None, out: Sweep) -> list[str]:
    problems = broken(db)
    applied = write.applied()
    if write.partly():
        problems.append("only part of the write is there")
    if applied:
        out.written += error is not None
        if error is not None and out.mode != "commit_lands":
            problems.append("the call failed, yet its write is stored")
    elif error is None:   # a fault swallowed on purpose must leave the write done
        problems.append("no error, yet the write is not there")
    elif table_counts(db) != before:
        diff = {k: (before.get(k), v) for k, v in table_counts(db).items() if before.get(k) != v}
        problems.append(f"nothing written, yet tables changed: {diff}")
    for text, shown in write.shown(applied).items():
        hits = me.recall(text, k=3, track=False)
        if shown != any(h.memory.content == text for h in hits):
            problems.append(f"recall {'misses' if shown else 'still shows'} {text[:24]!r}")
    try:   # the store takes the next write
        key = f"pr{out.verb}{out.mode}{out.statements}".replace("_", "")
        probe = f"{key} checks the store after a fault"
        if me.remember(probe, kind="fact").action.value != "add" or \
                me.recall(key, k=1, track=False)[0].memory.content != probe:
            problems.append("the next write is not found")
    except EngramError as exc:
        problems.append(f"the store refused the next write: {exc}")
    return problems


# ---------------------------------------------------------------- the WAL, as SQLite reads it


def _checksum(data: bytes, s1: int, s2: int, big: bool) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s1 = (s1 + words[i] + s2) & 0xFFFFFFFF
        s2 = (s2 + words[i + 1] + s1) & 0xFFFFFFFF
    return s1, s2


def wal_commits(wal: bytes) -> tuple[int, list[int]]:
    """(salt, the end offsets of the valid commit frames): frames count while their salt is the
    header's and the running checksum holds, as SQLite's recovery reads them."""
    if len(wal) < 32:
        return 0, []
    magic, _, page, _, salt1, salt2, c1, c2 = struct.unpack(">8I", wal[:32])
    big = bool(magic & 1)
    s1, s2 = _checksum(wal[:24], 0, 0, big)
    if magic not in (0x377F0682, 0x377F0683) or (s1, s2) != (c1, c2):
        return 0, []
    ends, at, size = [], 32, 24 + page
    while at + size <= len(wal):
        _, commit, f1, f2, fc1, fc2 = struct.unpack(">6I", wal[at : at + 24])
        if (f1, f2) != (salt1, salt2):
            break
        s1, s2 = _checksum(wal[at : at + 8], s1, s2, big)
        s1, s2 = _checksum(wal[at + 24 : at + size], s1, s2, big)
        if (s1, s2) != (fc1, fc2):
            break
        at += size
        if commit:
            ends.append(at)
    return salt1, ends


def synced_floor(path: Path, page: int) -> int:
    """The WAL offset a checkpoint has synced (the -shm's nBackfill, in frames)."""
    shm = Path(f"{path}-shm").read_bytes()
    frames = struct.unpack("=I", shm[96:100])[0]
    return 32 + frames * (24 + page) if frames else 0


# ---------------------------------------------------------------- simulated power loss


@dataclass
class Loss:
    synchronous: str
    losses: int = 0
    acknowledged: int = 0     # acknowledged writes at the copy points, summed
    lost: int = 0             # of them, rolled back by the cut (NORMAL only may)
    checkpointed: int = 0     # losses after a checkpoint had moved writes into the file
    in_flight_kept: int = 0   # losses whose unacknowledged last write survived whole
    failures: list[str] = field(default_factory=list)


def power_losses(folder: Path, synchronous: str, losses: int, writes: int = 12,
                 seed: int = 29) -> Loss:
    """``losses`` times: a fresh file, ``writes`` acknowledged writes (single and batched),
    one more in flight, then the cut copy, opened and checked."""
    rng = random.Random(seed)
    out = Loss(synchronous)
    for n in range(losses):
        out.losses += 1
        case = folder / f"loss{n}"
        case.mkdir()
        out.failures += _one_loss(case, synchronous, writes, rng, out)
        shutil.rmtree(case)
    return out


def _one_loss(case: Path, synchronous: str, writes: int, rng: random.Random,
              out: Loss) -> list[str]:
    path = case / "live.db"
    done: list[tuple[list[str], int, int]] = []   # (texts, WAL salt, last commit's end)
    acked = rng.randint(1, writes)
    with engramdb.open(path, embedder="hashing", clock=FrozenClock(START),
                       auto_sleep_importance=0, synchronous=synchronous) as mem:
        me = mem.scope(user="loss")
        db = mem.store._db  # type: ignore[attr-defined]
        page = db.execute("PRAGMA page_size").fetchone()[0]
        if rng.random() < 0.5:   # checkpoints (and WAL restarts) between the writes
            db.execute(f"PRAGMA wal_autocheckpoint = {rng.randint(8, 40)}")
        for i in range(acked + 1):   # the last one is in flight when the power goes
            texts = [f"loss write {i}.{j} kw{rng.randrange(10**9)}"
                     for j in range(1 if rng.random() < 0.5 else rng.randint(2, 6))]
            if len(texts) == 1:
                me.remember(texts[0], kind="fact")
            else:
                me.remember_many([Draft(t, kind="fact") for t in texts])
            salt, ends = wal_commits(Path(f"{path}-wal").read_bytes())
            done.append((texts, salt, ends[-1] if ends else 0))
        wal = Path(f"{path}-wal").read_bytes()
        image = path.read_bytes()
        floor = synced_floor(path, page)
        # what the file runs, not what was asked: FULL (2) and EXTRA (3) sync every commit
        syncs_commits = db.execute("PRAGMA synchronous").fetchone()[0] >= 2
    salt, ends = wal_commits(wal)
    out.checkpointed += floor > 0 or any(s != salt for _, s, _ in done)
    last_acked = done[acked - 1]
    if syncs_commits and last_acked[1] == salt:
        floor = max(floor, last_acked[2])     # the WAL was synced at the last commit
    cut = rng.randint(floor, len(wal))
    torn = wal[:cut] + (rng.randbytes(rng.randint(1, 4096)) if rng.random() < 0.5 else b"")
    copy = case / "copy.db"
    copy.write_bytes(image)
    Path(f"{copy}-wal").write_bytes(torn)
    survived = max([e for e in ends if e <= cut], default=0)
    expected = [t for texts, s, end in done if s != salt or end <= survived for t in texts]
    out.acknowledged += acked
    out.lost += sum(1 for texts, s, end in done[:acked] if s == salt and end > survived)
    out.in_flight_kept += done[-1][1] != salt or done[-1][2] <= survived
    with engramdb.open(copy, embedder="hashing", clock=FrozenClock(START)) as mem:
        stored = sorted(m.content for m in mem.scope(user="loss").list(limit=100_000))
    where = f"{synchronous} cut at {cut} of {len(wal)} (floor {floor})"
    problems = [] if stored == sorted(expected) else [
        f"{where}: expected {len(expected)} memories, found {len(stored)}"]
    if synchronous == "full" and any(t not in stored for texts, *_ in done[:acked]
                                     for t in texts):
        problems.append(f"{where}: an acknowledged write is missing")
    with sqlite3.connect(copy) as db:
        problems += [f"{where}: {p}" for p in broken(db)]
    return problems


# ---------------------------------------------------------------- the script


def run(sweeps: int, losses: int, verbose: bool = False) -> dict[str, Any]:
    figures: dict[str, Any] = {"sweeps": [], "losses": []}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(sweeps):
            for verb in VERBS:
                for mode in MODES:
                    results = [sweep(Path(tmp) / f"faults{r}.db", verb, mode, batch=2 + 4 * r,
                                     tag=str(r))]
                    if verb == "remember":   # again, each write setting off a sleep
                        results.append(sweep(Path(tmp) / f"sleeps{r}.db", verb, mode,
                                             tag=str(r), auto_sleep_importance=0.001))
                        results[-1].verb = "remember (auto-sleep)"
                    figures["sweeps"] += results
                    for result in results if verbose else []:
                        print(f"round {r + 1} {result.verb} {mode}: {result.statements} faults, "
                              f"{result.errors}, written {result.written}, "
                              f"{len(result.failures)} failures", flush=True)
        for synchronous in ("full", "normal"):
            figures["losses"].append(power_losses(Path(tmp), synchronous, losses))
    return figures


def _sweep_table(sweeps: list[Sweep]) -> None:
    print("| write | statements in one call | faults | raised StoreError | returned, write done "
          "| failed call with its COMMIT landed | failures |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for verb in dict.fromkeys(s.verb for s in sweeps):
        mine = [s for s in sweeps if s.verb == verb]
        sizes = ", ".join(str(s.statements) for s in mine if s.mode == "fails")
        print(f"| {verb} | {sizes} | {sum(s.statements for s in mine)} | "
              f"{sum(s.errors.get('StoreError', 0) for s in mine)} | "
              f"{sum(s.errors.get('none', 0) for s in mine)} | {sum(s.written for s in mine)} | "
              f"{sum(len(s.failures) for s in mine)} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sweeps", type=int, default=5, help="rounds of the fault sweep")
    ap.add_argument("--losses", type=int, default=200, help="power losses per setting")
    args = ap.parse_args(argv)
    figures = run(args.sweeps, args.losses, verbose=True)
    failures = [f for s in figures["sweeps"] for f in s.failures]
    _sweep_table(figures["sweeps"])
    for loss in figures["losses"]:
        print(f"power loss, synchronous={loss.synchronous}: {loss.losses} losses, "
              f"{loss.checkpointed} after a checkpoint, {loss.acknowledged} acknowledged "
              f"writes, {loss.lost} of them rolled back, in-flight write kept "
              f"{loss.in_flight_kept} times, {len(loss.failures)} failures")
        failures += loss.failures
    for failure in failures[:20]:
        print("FAIL", failure)
    print("PASS" if not failures else f"FAIL ({len(failures)})")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())

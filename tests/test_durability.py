"""What an acknowledged write survives (issue 29): the synchronous setting, I/O errors injected
into every statement of a write, and power loss simulated on a copy of the file and its WAL
cut at a random byte. The fast part of bench/reliability/durability.py, on real files."""

from __future__ import annotations

import importlib.util
import sqlite3
import sys
from pathlib import Path
from types import ModuleType

import pytest

import engramdb
from engramdb import Config, ConfigError
from engramdb.store.sqlite.store import SQLiteStore

BENCH = Path(__file__).resolve().parent.parent / "bench" / "reliability" / "durability.py"


@pytest.fixture(scope="module")
def durability() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reliability_durability", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["reliability_durability"] = module
    spec.loader.exec_module(module)
    return module


def _synchronous(mem: engramdb.Memory) -> int:
    return int(mem.store._db.execute("PRAGMA synchronous").fetchone()[0])  # type: ignore[attr-defined]


def test_a_file_syncs_every_commit_unless_told_normal(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "a.db", embedder="hashing") as mem:
        assert _synchronous(mem) == 2   # FULL
    with engramdb.open(tmp_path / "b.db", embedder="hashing", synchronous="normal") as mem:
        assert _synchronous(mem) == 1   # NORMAL
    monkeypatch.setenv("ENGRAMDB_SYNCHRONOUS", "normal")
    with engramdb.open(tmp_path / "c.db", embedder="hashing") as mem:
        assert _synchronous(mem) == 1


@pytest.mark.parametrize("value", ["off", "FAST", "", "extra", 2, None])
def test_a_bad_synchronous_is_refused_before_any_file_is_made(tmp_path, value):  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match="synchronous must be full .* or normal"):
        Config(synchronous=value)
    with pytest.raises(ConfigError, match="synchronous must be one of full, normal"):
        SQLiteStore(tmp_path / "x.db", synchronous=value)
    assert not (tmp_path / "x.db").exists()


def test_a_bad_synchronous_from_the_environment_names_the_setting(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("ENGRAMDB_SYNCHRONOUS", "off")
    with pytest.raises(ConfigError, match="synchronous must be full .*got 'off'"):
        engramdb.open(tmp_path / "x.db", embedder="hashing")
    assert not (tmp_path / "x.db").exists()


@pytest.mark.parametrize(("verb", "mode"), [
    ("remember", "fails"), ("remember", "rolls_back"), ("remember", "commit_lands"),
    ("remember_many", "fails"), ("remember_many", "commit_lands"), ("update", "fails"),
    ("uri_update", "fails"), ("forget_hard", "fails")])
def test_an_io_error_at_any_statement_of_a_write_leaves_it_whole_or_absent(  # type: ignore[no-untyped-def]
        tmp_path, durability, verb, mode):
    """bench/reliability/durability.py runs every verb in every mode, with larger batches."""
    result = durability.sweep(tmp_path / "faults.db", verb, mode, batch=2)
    assert result.failures == []
    assert result.statements >= (1 if mode == "commit_lands" else 10)   # each one faulted once
    # "none": the fault hit a best-effort step after the commit (a hard forget's WAL
    # truncation) and the call returned with its write done
    assert set(result.errors) <= {"StoreError", "none"}
    # a COMMIT that reached the file is there whole; no call that failed wrote anything
    assert result.written == (result.statements if mode == "commit_lands" else 0)


def test_an_io_error_in_the_sleep_a_write_sets_off_does_not_fail_the_write(  # type: ignore[no-untyped-def]
        tmp_path, durability):
    """Before issue 29 a disk I/O error in the automatic sleep after a write's commit made
    ``remember`` raise StoreError although its memory was stored."""
    result = durability.sweep(tmp_path / "faults.db", "remember", "fails", batch=1,
                              auto_sleep_importance=0.001)
    assert result.failures == []
    assert result.errors["none"] > 10 and result.errors["StoreError"] >= 10


def test_the_sweep_sees_a_store_left_in_a_failed_transaction(tmp_path, durability, monkeypatch):  # type: ignore[no-untyped-def]
    """The harness itself: before issue 29 a failed COMMIT left its transaction open, so the
    failed write stayed visible and every later write was refused."""
    def forget_caches_only(self):  # type: ignore[no-untyped-def]
        self._vectors.invalidate()
        self._id_order.invalidate()
        self._text.invalidate()

    monkeypatch.setattr(SQLiteStore, "_abandon", forget_caches_only)
    result = durability.sweep(tmp_path / "faults.db", "remember", "fails")
    assert any("refused the next write" in f for f in result.failures)


def test_power_loss_under_full_loses_no_acknowledged_write(tmp_path, durability):  # type: ignore[no-untyped-def]
    result = durability.power_losses(tmp_path, "full", losses=5, writes=8, seed=1)
    assert result.failures == []
    assert result.acknowledged > 0 and result.lost == 0


def test_the_power_loss_check_sees_a_store_that_does_not_sync_its_commits(  # type: ignore[no-untyped-def]
        tmp_path, durability, monkeypatch):
    """The harness itself: the cut follows the pragma the file runs, so a store that asked
    for FULL and ran NORMAL loses acknowledged writes, and the check says so."""
    import engramdb.store.sqlite.store as sqlite_store

    monkeypatch.setitem(sqlite_store.SYNCHRONOUS, "full", "NORMAL")
    result = durability.power_losses(tmp_path, "full", losses=5, writes=8, seed=1)
    assert result.lost > 0
    assert any("an acknowledged write is missing" in f for f in result.failures)


def test_power_loss_under_normal_keeps_a_whole_prefix(tmp_path, durability):  # type: ignore[no-untyped-def]
    """NORMAL's promise: what survives is every write up to some commit (at least the last
    checkpoint), each whole, and nothing after it."""
    result = durability.power_losses(tmp_path, "normal", losses=5, writes=8, seed=2)
    assert result.failures == []
    assert result.acknowledged > 0


def test_the_wal_reader_agrees_with_sqlite(tmp_path, durability):  # type: ignore[no-untyped-def]
    """Each commit adds one valid commit frame end; a flipped byte in the last frame ends the
    valid WAL at the commit before it, and SQLite's recovery drops that commit too."""
    path = tmp_path / "w.db"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("CREATE TABLE t (x)")
    for i in range(3):
        db.execute("INSERT INTO t VALUES (?)", (i,))
    wal = Path(f"{path}-wal").read_bytes()
    _, ends = durability.wal_commits(wal)
    assert len(ends) == 4 and ends[-1] == len(wal)
    copy = tmp_path / "copy.db"
    copy.write_bytes(path.read_bytes())
    Path(f"{copy}-wal").write_bytes(wal[:-1] + bytes([wal[-1] ^ 1]))
    assert durability.wal_commits(Path(f"{copy}-wal").read_bytes())[1] == ends[:-1]
    db.close()
    with sqlite3.connect(copy) as again:
        assert again.execute("SELECT count(*) FROM t").fetchone()[0] == 2

"""The embedded default store: one SQLite file (WAL), FTS5 over pre-tokenised text, and exact
cosine search over a per-scope float32 matrix kept in memory and refreshed incrementally."""


from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import ConfigError, StoreError
from ...lazy import built_once
from ...text.anchors import concept_names
from ..changes import Changes
from ..common import ts
from ..idorder import IdOrder
from .goals import GoalTable, KeyTable
from .migrations import MIGRATIONS
from .pending import PendingTable
from .recordcache import RecordCache
from .search import Search
from .sleep import SleepTables
from .triples import triples_json
from .upgrade import backup_before_migrating, remove_leftovers
from .writes import Writes

if TYPE_CHECKING:
    from ..textindex import TextIndex
    from ..vectors import VectorCache

APP_ID = 0x454E4752  # "ENGR" in the SQLite header's application_id
# What a commit waits for (README "Reliability"): FULL syncs the WAL at every commit, so an
# acknowledged write survives power loss; NORMAL syncs it only at checkpoints, so the last
# writes may roll back on power loss or an OS crash (never half of one: the WAL's checksums).
SYNCHRONOUS = {"full": "FULL", "normal": "NORMAL"}


def _concepts_json(data_json: str) -> str:
    """The memory's concept names as a JSON list (SQL's engramdb_concepts, for migration 10)."""
    return json.dumps(concept_names(data_json), ensure_ascii=False)



class SQLiteStore(Writes, Search, GoalTable, KeyTable, SleepTables, PendingTable):
    """The mix-ins hold the writes, reads, searches, links, sessions, goals, keys and sleep
    state; this class holds the connection, its setup and the transaction."""

    def __init__(self, path: str | os.PathLike[str], *, busy_timeout_ms: int = 10000,
                 synchronous: str = "full") -> None:
        if not isinstance(synchronous, str) or synchronous not in SYNCHRONOUS:
            raise ConfigError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, got "
                              f"{synchronous!r}")
        self.location = str(path)
        self._memory = self.location == ":memory:"
        if not self._memory:
            self._check_directory(Path(self.location))
        try:
            self._db = sqlite3.connect(
                self.location, isolation_level=None, check_same_thread=False,
                timeout=busy_timeout_ms / 1000,
            )
        except sqlite3.Error as exc:
            raise self._open_error(exc) from exc
        try:
            self._db.row_factory = sqlite3.Row
            self._lock = threading.RLock()
            self._building = self._lock   # built_once (lazy.py) makes the caches under it
            self._depth = 0
            self._scrub = False  # an erase is in this transaction: see _start_scrub
            self._secure_delete = 0
            self._configure(busy_timeout_ms, SYNCHRONOUS[synchronous])
            self._db.create_function("engramdb_concepts", 1, _concepts_json, deterministic=True)
            self._db.create_function("engramdb_triples", 2, triples_json, deterministic=True)
            self._id_order = IdOrder(self._db)
            self._changes = Changes(self._db)
            self._records = RecordCache(self._db, changes=self._changes)
            self._migrate()
        except BaseException as exc:
            self._db.close()
            if isinstance(exc, sqlite3.DatabaseError):
                raise self._open_error(exc) from exc
            raise

    # The vector and text caches (and numpy with them) are made on first use: reading
    # records (get, list, history, export) needs neither. One made after a rollback is empty,
    # as one invalidated by it would be.

    @built_once
    def _vectors(self) -> VectorCache:
        from ..vectors import VectorCache

        return VectorCache(self._db, self._lock, self._changes)

    @built_once
    def _text(self) -> TextIndex:
        from ..textindex import TextIndex

        return TextIndex(self._db, self._changes)

    # ---------------------------------------------------------------- setup

    def _open_error(self, exc: sqlite3.Error) -> StoreError:
        if "unable to open" in str(exc):
            return StoreError(f"cannot open or create {self.location}: {exc} (is the directory "
                              f"writable, and the path not a directory?)")
        return StoreError(f"{self.location} is not an engramdb database: {exc}")

    @staticmethod
    def _check_directory(path: Path) -> None:
        parent = path.parent if str(path.parent) else Path(".")
        if not parent.exists():
            raise StoreError(f"directory {parent} does not exist")
        if not path.exists() and not os.access(parent, os.W_OK):
            raise StoreError(f"directory {parent} is not writable")

    def _configure(self, busy_timeout_ms: int, synchronous: str) -> None:
        db = self._db
        db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        db.execute("PRAGMA foreign_keys = ON")
        # One statement, one snapshot: read apart, another process's first migration could
        # commit in between (id still 0, tables now there) and we would refuse a good file.
        app_id, tables = db.execute(
            "SELECT (SELECT application_id FROM pragma_application_id), "
            "(SELECT count(*) FROM sqlite_master)"
        ).fetchone()
        if app_id not in (0, APP_ID) or (app_id == 0 and tables > 0):
            raise StoreError(f"{self.location} is a SQLite file but not an engramdb database")
        if not self._memory:
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode.lower() != "wal":
                raise StoreError(f"cannot switch {self.location} to WAL (got {mode})")
            db.execute(f"PRAGMA synchronous = {synchronous}")

    def _migrate(self) -> None:
        # an older file is copied next to itself before it is migrated (upgrade.py); what a
        # process killed during that copy left is removed first
        self.upgrade_leftovers = [] if self._memory else remove_leftovers(self.location)
        self.upgrade_backup = None if self._memory else backup_before_migrating(
            self._db, self.location, max(m.version for m in MIGRATIONS))
        with self.transaction():
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            done = {r[0] for r in self._db.execute("SELECT version FROM schema_migrations")}
            newest = max(m.version for m in MIGRATIONS)
            if done and max(done) > newest:
                raise StoreError(
                    f"{self.location} has schema version {max(done)}, newer than this engramdb "
                    f"({newest}): upgrade engramdb"
                )
            for migration in MIGRATIONS:
                if migration.version in done:
                    continue
                for statement in migration.statements:
                    self._db.execute(statement)
                self._db.execute(
                    "INSERT INTO schema_migrations VALUES (?, ?, ?)",
                    (migration.version, migration.name, ts(datetime.now(UTC))),
                )
            self._db.execute(f"PRAGMA application_id = {APP_ID}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def steady(self) -> AbstractContextManager[None]:
        """One recall's reads: the caches look at another connection's commits once
        (store/changes.py), not at each of a dozen reads."""
        return self._changes.steady()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._db.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield
            except BaseException:
                self._abandon()
                raise
            else:
                try:
                    self._db.execute("COMMIT")
                except BaseException:  # the caches may hold what never reached the file
                    self._abandon()
                    raise
            finally:
                self._depth = 0
                if self._scrub:
                    self._end_scrub()

    def _abandon(self) -> None:
        """After a failed statement or COMMIT: roll back what is still open (a failed COMMIT,
        e.g. a disk I/O error, may leave the transaction open; SQLite may also have rolled it
        back already) and forget the caches, which may hold what never reached the file."""
        try:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
        finally:
            for cache in (self.__dict__.get("_vectors"), self._id_order, self._records,
                          self.__dict__.get("_text")):
                if cache is not None:
                    cache.invalidate()

    def _start_scrub(self) -> None:
        """Erased words must not stay in the file: freed space is zeroed (secure_delete), the
        full-text index is merged so its segments drop the deleted terms, and after the commit
        the WAL is checkpointed and truncated, so no old page image keeps them (best effort:
        a reader in another process can keep the WAL from being truncated)."""
        if not self._scrub:
            self._secure_delete = int(self._db.execute("PRAGMA secure_delete").fetchone()[0])
            self._db.execute("PRAGMA secure_delete = ON")
            self._scrub = True

    def _end_scrub(self) -> None:
        self._scrub = False
        try:   # as it was; after the commit, so a failure must not fail the erase it followed
            self._db.execute(f"PRAGMA secure_delete = {self._secure_delete}")
        except sqlite3.Error:
            pass   # left on: freed space stays zeroed, the safe side
        if not self._memory and not self._db.in_transaction:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            except sqlite3.Error:
                pass  # best effort: the next checkpoint writes the zeroed pages all the same

    # ---------------------------------------------------------------- embedder binding

    def embedder_info(self) -> tuple[str, int] | None:
        rows = dict(self._db.execute("SELECT key, value FROM meta WHERE key LIKE 'embedder_%'"))
        if "embedder_model" not in rows:
            return None
        return rows["embedder_model"], int(rows["embedder_dimensions"])

    def bind_embedder(self, model_id: str, dimensions: int) -> None:
        with self.transaction():
            info = self.embedder_info()
            if info is None:
                self._db.executemany(
                    "INSERT INTO meta(key, value) VALUES (?, ?)",
                    [("embedder_model", model_id), ("embedder_dimensions", str(dimensions))],
                )
            elif info != (model_id, dimensions):
                raise StoreError(
                    f"{self.location} was built with embedder {info[0]} ({info[1]} dimensions); "
                    f"refusing to use {model_id} ({dimensions} dimensions). Open it with the "
                    f"same embedder, or export and re-import into a new file."
                )

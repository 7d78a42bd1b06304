"""engramdb: memory for AI agents.

>>> import engramdb
>>> with engramdb.open(":memory:", embedder="hashing") as mem:
...     me = mem.scope(user="alice")
...     _ = me.remember("I moved to Berlin", kind="fact")
...     me.recall("where do I live?", k=1)[0].memory.content
'I moved to Berlin'
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from . import errors
from .clock import Clock
from .config import Config, default_path
from .errors import ConfigError, Conflict, EngramError, Invalid, NotFound, StoreError
from .lazy import lazy_names
from .model import (
    Action,
    Boot,
    Draft,
    Explanation,
    Goal,
    GoalStatus,
    Hit,
    Hits,
    IngestReport,
    Kind,
    Layer,
    Lifecycle,
    Link,
    Message,
    Priority,
    Record,
    Scope,
    Stats,
    Version,
    WriteResult,
)
from .registry import (
    make_embedder,
    register_conflict,
    register_embedder,
    register_similarity,
    worker_factory,
)

if TYPE_CHECKING:
    from .attention.context import Context
    from .embed.base import Embedder
    from .engine import Memory, ScopedMemory
    from .store.protocol import Store
    from .working.session import WorkingMemory

# The engine and what it stands on (numpy, the store, the read and write paths) load on first
# use, so that `import engramdb` and the CLI's --help stay quick; the names behave as before.
_LAZY = {
    "Context": ".attention.context", "Embedder": ".embed.base", "Memory": ".engine",
    "ScopedMemory": ".engine", "Store": ".store.protocol", "WorkingMemory": ".working.session",
}


__getattr__ = lazy_names(__name__, _LAZY)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"

__all__ = [
    "Action", "Boot", "Config", "ConfigError", "Conflict", "Context", "Draft", "EngramError",
    "Explanation", "Goal", "GoalStatus", "Hit", "Hits", "IngestReport", "Invalid", "Kind",
    "Layer", "Lifecycle", "Link", "Memory", "Message", "NotFound", "Priority", "Record", "Scope",
    "ScopedMemory", "Stats", "StoreError", "Version", "WorkingMemory", "WriteResult",
    "__version__", "errors", "open", "register_conflict", "register_embedder",
    "register_similarity",
]  # sorted; tests/test_public_surface.py pins it


def open(  # noqa: A001 - the public verb is engramdb.open
    url: str | os.PathLike[str] | None = None, *, embedder: str | Embedder | None = None,
    clock: Clock | None = None, config: Config | None = None, **settings: Any,
) -> Memory:
    """Open a memory store: a SQLite file path, ":memory:", or a postgresql:// URL.
    With no argument: ENGRAMDB_URL, else the per-user default file."""
    cfg = config or Config.load(**settings)
    target = str(url) if url is not None else (cfg.url or str(default_path()))
    postgres = target.startswith(("postgresql://", "postgres://"))
    if "://" in target and not postgres:
        raise ConfigError(f"unsupported store URL {target!r}: give a file path, ':memory:' or "
                          f"a postgresql:// URL")
    _limit_threads(cfg.threads)
    if url is None and not cfg.url:  # only the per-user default file gets its folder made
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder of {target}: {exc}") from exc
    from .embed.base import Embedder
    from .engine import Memory
    from .store.sqlite.store import SQLiteStore

    workers = None
    if isinstance(embedder, str) or embedder is None:
        name = embedder or cfg.embedder
        model = make_embedder(name, threads=cfg.threads)
        factory = worker_factory(name)
        if factory is not None:
            from .embed.workers import WorkerSpec

            workers = WorkerSpec(factory, {"threads": cfg.threads}, cfg.threads)
    elif isinstance(embedder, Embedder):
        model = embedder
    else:
        raise ConfigError("embedder must be a registry name or an Embedder object")
    store = _postgres(target) if postgres else SQLiteStore(
        target, busy_timeout_ms=cfg.busy_timeout_ms, synchronous=cfg.synchronous)
    try:
        return Memory(store, model, clock=clock, config=cfg, workers=workers)
    except BaseException:
        store.close()
        raise


def _postgres(url: str) -> Store:
    try:
        from .store.postgres.store import PostgresStore
    except ImportError as exc:
        raise ConfigError("the PostgreSQL backend needs psycopg: "
                          "pip install 'engramdb[postgres]'") from exc
    return PostgresStore(url)


def _limit_threads(threads: int) -> None:
    """Pin BLAS threads (numpy's matmul) so tests and servers do not oversubscribe.
    threadpoolctl limits the thread pools of the libraries loaded now: with numpy not loaded
    there is no BLAS to limit, and a command that reads no vector does not load threadpoolctl
    (and ctypes) for nothing (the models pin their own threads when they load)."""
    if "numpy" not in sys.modules:
        return
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=max(1, threads))

"""`engramdb serve`: open (create, migrate) the store once, then run uvicorn with N worker
processes, each opening the same store: the same SQLite file (WAL: readers never block, writers
queue on the busy timeout, ``Config.busy_timeout_ms``) or the same PostgreSQL database. The
workers read where from ENGRAMDB_URL: the file's absolute path, or the connection URL as given
(with its password: the environment of this process only, never printed). Over-long URLs and
headers are answered by wire.py. On a SQLite file, while it runs, it writes the discovery file
the CLI finds it by (discovery.py): a CLI command on the same file then asks this server."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from .. import discovery
from ..config import Config, parse_every
from ..errors import ConfigError, Invalid
from .wire import PROTOCOL

MAX_WORKERS = 64
POSTGRES = ("postgresql://", "postgres://")


def serve(db: str | None, *, embedder: str | None = None, host: str = "127.0.0.1",
          port: int = 8765, workers: int = 1, log_level: str = "info",
          metrics_public: bool = False, sleep_every: str | None = None) -> None:
    import uvicorn

    import engramdb

    if isinstance(workers, bool) or not isinstance(workers, int) \
            or not 1 <= workers <= MAX_WORKERS:
        raise Invalid(f"workers must be from 1 to {MAX_WORKERS}, got {workers!r}")
    if not 0 <= port <= 65535:
        raise Invalid(f"port must be from 0 to 65535, got {port}")
    if sleep_every is not None:
        parse_every(sleep_every)   # a bad period: ConfigError before anything starts
    with engramdb.open(db, embedder=embedder) as mem:  # fails here, once, on a bad store
        location = mem.store.location
        model = embedder or mem.config.embedder
    if location == ":memory:":
        raise ConfigError("serve needs a database file: its API keys are stored in it")
    os.environ["ENGRAMDB_URL"] = worker_url(db, location)  # the workers read it
    os.environ["ENGRAMDB_EMBEDDER"] = model
    if metrics_public:  # else the setting stays as the environment or config file has it
        os.environ["ENGRAMDB_METRICS_PUBLIC"] = "1"
    if sleep_every is not None:
        os.environ["ENGRAMDB_SLEEP_EVERY"] = sleep_every
    running = announce(location, host, port, model)
    if running is not None:   # uvicorn raises SIGTERM again once it has stopped: end cleanly
        signal.signal(signal.SIGTERM, stopped)
    try:
        uvicorn.run("engramdb.server.app:app_from_env", factory=True, host=host, port=port,
                    workers=workers if workers > 1 else None, log_level=log_level,
                    proxy_headers=False, server_header=False, http=PROTOCOL)
    finally:
        if running is not None:
            discovery.remove(running)


def stopped(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def announce(location: str, host: str, port: int, model: str) -> discovery.Running | None:
    """Write the discovery file of a SQLite ``location`` (not of a PostgreSQL URL, nor for
    port 0, whose port is not known here) and give the workers its token (TOKEN_ENV); None
    when none is written (a folder it cannot write in: the CLI then opens the file itself)."""
    from .app import TOKEN_ENV

    os.environ.pop(TOKEN_ENV, None)   # only the token this run writes is accepted
    if location.startswith(POSTGRES) or port == 0:
        return None
    running = discovery.Running(discovery.url_for(host, port), os.getpid(),
                                str(Path(location).resolve()), discovery.new_token(), model)
    try:
        discovery.write(running)
    except OSError:
        return None
    os.environ[TOKEN_ENV] = running.token
    return running


def worker_url(db: str | None, location: str) -> str:
    """Where each worker opens the store that was just opened at ``location``: a SQLite file's
    absolute path (a worker may start elsewhere), or the PostgreSQL URL it was opened with
    (``location`` is that URL without its password)."""
    if location.startswith(POSTGRES):
        url = db if db is not None else Config.load().url
        if not url.startswith(POSTGRES):  # cannot happen: the store was opened from it
            raise ConfigError("serve could not tell which PostgreSQL URL it opened")
        return url
    return os.path.abspath(location)

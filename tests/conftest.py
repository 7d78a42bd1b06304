from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import Any

import pytest

import engramdb
from engramdb.testing import FrozenClock

# the model runs in the test's own process: the suite already takes every core (pytest-xdist),
# and a test that wants the model workers says so (tests/test_embed_workers.py)
os.environ.setdefault("ENGRAMDB_EMBED_WORKERS", "1")


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))


@pytest.fixture(scope="module")
def model() -> Any:
    """The default embedder (its model threads pinned to 1), loaded once per test module."""
    from engramdb.registry import make_embedder

    return make_embedder("default", threads=1)


def pytest_configure(config):  # type: ignore[no-untyped-def]
    config.addinivalue_line("markers", "sqlite_only: reads the SQLite file itself; not run on "
                            "the other stores of a BACKENDS module")


def pytest_generate_tests(metafunc):  # type: ignore[no-untyped-def]
    """A module that sets ``BACKENDS = ("sqlite", "postgres")`` runs each of its tests that
    use ``mem`` (or ``me``) once on each store."""
    backends = getattr(metafunc.module, "BACKENDS", None)
    if metafunc.definition.get_closest_marker("sqlite_only"):
        backends = None
    if backends and "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", backends, indirect=True)


@pytest.fixture
def backend(request):  # type: ignore[no-untyped-def]
    return getattr(request, "param", "sqlite")


@pytest.fixture
def mem(tmp_path, clock, backend, request):  # type: ignore[no-untyped-def]
    target = request.getfixturevalue("pg_url") if backend == "postgres" else tmp_path / "memory.db"
    with engramdb.open(target, embedder="hashing", clock=clock) as m:
        yield m


@pytest.fixture
def me(mem):  # type: ignore[no-untyped-def]
    return mem.scope(user="alice", agent="noah")


from pg import pg_admin_url, pg_database, pg_url  # noqa: E402,F401 - PostgreSQL fixtures

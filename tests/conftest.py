from __future__ import annotations

from datetime import UTC, datetime

import pytest

import engramdb
from engramdb.testing import FrozenClock


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))


@pytest.fixture
def mem(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "memory.db", embedder="hashing", clock=clock) as m:
        yield m


@pytest.fixture
def me(mem):  # type: ignore[no-untyped-def]
    return mem.scope(user="alice", agent="noah")


from pg import pg_admin_url, pg_database, pg_url  # noqa: E402,F401 - PostgreSQL fixtures

from __future__ import annotations

import pytest

from engramdb.store.postgres import PostgresStore
from engramdb.testing import StoreContract


class TestPostgresStore(StoreContract):
    @pytest.fixture
    def store(self, pg_url):  # type: ignore[no-untyped-def]
        s = PostgresStore(pg_url)
        yield s
        s.close()

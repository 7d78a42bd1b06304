from __future__ import annotations

import pytest

from engramdb.store.sqlite.store import SQLiteStore
from engramdb.testing import StoreContract


class TestSQLiteStore(StoreContract):
    @pytest.fixture
    def store(self, tmp_path):  # type: ignore[no-untyped-def]
        s = SQLiteStore(tmp_path / "store.db")
        yield s
        s.close()

"""The public surface is pinned: what `import engramdb` offers, and where open() looks."""

from __future__ import annotations

import os

import pytest

import engramdb
import engramdb.testing

PUBLIC = [
    "Action", "Boot", "Config", "ConfigError", "Conflict", "Context", "Draft", "EngramError",
    "Explanation", "Goal", "GoalStatus", "Hit", "Hits", "IngestReport", "Invalid", "Kind",
    "Layer", "Lifecycle", "Link", "Memory", "Message", "NotFound", "Priority", "Record", "Scope",
    "ScopedMemory", "Stats", "StoreError", "Version", "WorkingMemory", "WriteResult",
    "__version__", "errors", "open", "register_conflict", "register_embedder",
    "register_similarity",
]


def test_all_is_pinned():  # type: ignore[no-untyped-def]
    assert PUBLIC == sorted(PUBLIC)
    assert engramdb.__all__ == PUBLIC


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_name_exists(name):  # type: ignore[no-untyped-def]
    assert getattr(engramdb, name) is not None


def test_star_import_gives_the_public_names():  # type: ignore[no-untyped-def]
    namespace: dict[str, object] = {}
    exec("from engramdb import *", namespace)
    assert sorted(k for k in namespace if k != "__builtins__") == PUBLIC


def test_errors_module_holds_the_exceptions():  # type: ignore[no-untyped-def]
    for name in ("EngramError", "NotFound", "Invalid", "Conflict", "StoreError", "ConfigError"):
        assert getattr(engramdb.errors, name) is getattr(engramdb, name)


def test_testing_kit_exposes_clock_embedder_and_contract():  # type: ignore[no-untyped-def]
    assert sorted(engramdb.testing.__all__) == ["FrozenClock", "HashingEmbedder", "StoreContract"]
    for name in engramdb.testing.__all__:
        assert getattr(engramdb.testing, name) is not None
    from engramdb.testing import FrozenClock, HashingEmbedder, StoreContract

    assert isinstance(StoreContract, type)
    assert HashingEmbedder(dimensions=16).embed_batch(["hello"]).shape == (1, 16)
    clock = FrozenClock()
    start = clock.now()
    assert start.tzinfo is not None
    assert (clock.advance(days=1) - start).days == 1


def test_frozen_clock_reads_a_naive_time_as_utc():  # type: ignore[no-untyped-def]
    from datetime import UTC, datetime

    from engramdb.testing import FrozenClock

    assert FrozenClock(datetime(2026, 1, 1)).now() == datetime(2026, 1, 1, tzinfo=UTC)
    with pytest.raises(engramdb.Invalid):
        FrozenClock("not a time")  # type: ignore[arg-type]


def test_version_is_a_string():  # type: ignore[no-untyped-def]
    assert isinstance(engramdb.__version__, str) and engramdb.__version__


# ---------------------------------------------------------------- where open() looks


@pytest.fixture
def clean_env(monkeypatch):  # type: ignore[no-untyped-def]
    for key in list(os.environ):
        if key.startswith("ENGRAMDB_"):
            monkeypatch.delenv(key)
    return monkeypatch


def test_open_without_argument_uses_engramdb_url(clean_env, tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "from-env.db"
    clean_env.setenv("ENGRAMDB_URL", str(path))
    clean_env.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    with engramdb.open(embedder="hashing") as mem:
        rec = mem.remember("I moved to Berlin").memory
        assert mem.stats().path == str(path)
    assert path.exists()
    assert not (tmp_path / "xdg").exists()
    with engramdb.open(path, embedder="hashing") as mem:
        assert mem.get(rec.id).content == "I moved to Berlin"


def test_engramdb_url_may_be_relative(clean_env, tmp_path):  # type: ignore[no-untyped-def]
    clean_env.chdir(tmp_path)
    clean_env.setenv("ENGRAMDB_URL", "relative.db")
    with engramdb.open(embedder="hashing") as mem:
        mem.remember("I moved to Berlin")
    assert (tmp_path / "relative.db").exists()


def test_engramdb_url_in_a_missing_directory_is_a_store_error(clean_env, tmp_path):  # type: ignore[no-untyped-def]
    clean_env.setenv("ENGRAMDB_URL", str(tmp_path / "missing" / "m.db"))
    with pytest.raises(engramdb.StoreError, match="does not exist"):
        engramdb.open(embedder="hashing")


def test_engramdb_url_may_name_postgresql(clean_env, pg_url):  # type: ignore[no-untyped-def]
    clean_env.setenv("ENGRAMDB_URL", pg_url)
    with engramdb.open(embedder="hashing") as mem:
        rec = mem.remember("I moved to Berlin").memory
        assert mem.get(rec.id) == rec
        assert mem.stats().path.startswith("postgresql://")


def test_open_without_anything_uses_the_per_user_file(clean_env, tmp_path):  # type: ignore[no-untyped-def]
    clean_env.setenv("XDG_DATA_HOME", str(tmp_path))
    with engramdb.open(embedder="hashing") as mem:
        rec = mem.remember("I moved to Berlin").memory
    default = tmp_path / "engramdb" / "memory.db"
    assert default.exists()
    with engramdb.open(default, embedder="hashing") as mem:
        assert mem.get(rec.id).content == "I moved to Berlin"


def test_engramdb_embedder_setting_is_read(clean_env, tmp_path):  # type: ignore[no-untyped-def]
    clean_env.setenv("ENGRAMDB_EMBEDDER", "hashing")
    with engramdb.open(tmp_path / "m.db") as mem:
        assert mem.embedder.model_id == "hashing-v1-384"


def test_an_explicit_url_wins_over_the_environment(clean_env, tmp_path):  # type: ignore[no-untyped-def]
    clean_env.setenv("ENGRAMDB_URL", str(tmp_path / "env.db"))
    with engramdb.open(tmp_path / "explicit.db", embedder="hashing") as mem:
        mem.remember("I moved to Berlin")
    assert (tmp_path / "explicit.db").exists()
    assert not (tmp_path / "env.db").exists()


def test_in_memory_store_is_a_throwaway(clean_env):  # type: ignore[no-untyped-def]
    with engramdb.open(":memory:", embedder="hashing") as mem:
        mem.remember("I moved to Berlin")
        assert mem.recall("Berlin", k=1)[0].memory.content == "I moved to Berlin"
    with engramdb.open(":memory:", embedder="hashing") as mem:
        assert mem.count() == 0

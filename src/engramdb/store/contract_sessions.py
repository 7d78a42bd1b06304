"""The store contract for working memory (sessions, turns, blobs): part of StoreContract."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ..errors import Conflict
from ..working.state import Blob, SessionInfo, Settings, Turn
from .contract_kit import ALICE, BOB, T0

SETTINGS = Settings(budget=500, keep=2, offload_tokens=100, encoding="cl100k_base",
                    summarizer="extractive")


def make_session(sid: str = "s1") -> SessionInfo:
    return SessionInfo(id=sid, settings=SETTINGS, created_at=T0, updated_at=T0)


def make_turn(seq: int, content: str = "hello", **changes: object) -> Turn:
    turn = Turn(seq=seq, role="user", content=content, at=T0 + timedelta(minutes=seq),
                tokens=1)
    return Turn(**{**turn.__dict__, **changes})


class SessionContract:
    """Mix-in of tests; needs a ``store`` fixture."""

    def test_session_roundtrip_and_update(self, store):  # type: ignore[no-untyped-def]
        info = make_session()
        store.save_session(ALICE, info)
        assert store.session(ALICE, "s1") == info
        later = info.replace(summary="- 决定: 用 PostgreSQL\n- budget 5", notes=["llm failed"],
                             ended_at=T0 + timedelta(hours=1), updated_at=T0 + timedelta(hours=1))
        store.save_session(ALICE, later)
        assert store.session(ALICE, "s1") == later
        assert store.sessions(ALICE) == [later]

    def test_sessions_are_scoped(self, store):  # type: ignore[no-untyped-def]
        store.save_session(ALICE, make_session())
        store.add_turn(ALICE, "s1", make_turn(1))
        store.put_blob(ALICE, Blob("r1", "s1", "big", 1, T0))
        assert store.session(BOB, "s1") is None
        assert store.sessions(BOB) == []
        assert store.turns(BOB, "s1") == []
        assert store.blob(BOB, "r1") is None

    def test_turns_in_order_and_folding(self, store):  # type: ignore[no-untyped-def]
        store.save_session(ALICE, make_session())
        turns = [make_turn(2, "二"), make_turn(1, "one", pinned=True),
                 make_turn(3, "[ref]", ref="r3", role="tool")]
        for t in turns:
            store.add_turn(ALICE, "s1", t)
        assert store.turns(ALICE, "s1") == sorted(turns, key=lambda t: t.seq)
        store.fold_turns(ALICE, "s1", [1, 2])
        assert [t.folded for t in store.turns(ALICE, "s1")] == [True, True, False]

    def test_turn_seq_is_unique(self, store):  # type: ignore[no-untyped-def]
        store.save_session(ALICE, make_session())
        store.add_turn(ALICE, "s1", make_turn(1))
        with pytest.raises(Conflict):
            store.add_turn(ALICE, "s1", make_turn(1, "again"))
        assert [t.content for t in store.turns(ALICE, "s1")] == ["hello"]

    def test_blob_roundtrip(self, store):  # type: ignore[no-untyped-def]
        blob = Blob("r1", "s1", "line\n" * 2000 + "结束", 4001, T0)
        store.put_blob(ALICE, blob)
        assert store.blob(ALICE, "r1") == blob
        assert store.blob(ALICE, "nope") is None
        with pytest.raises(Conflict):
            store.put_blob(ALICE, blob)

    def test_session_writes_roll_back_with_their_transaction(self, store):  # type: ignore[no-untyped-def]
        store.save_session(ALICE, make_session())
        with pytest.raises(RuntimeError), store.transaction():
            store.add_turn(ALICE, "s1", make_turn(1))
            store.put_blob(ALICE, Blob("r1", "s1", "big", 1, T0))
            raise RuntimeError("boom")
        assert store.turns(ALICE, "s1") == [] and store.blob(ALICE, "r1") is None

    def test_drop_scope_drops_its_sessions(self, store):  # type: ignore[no-untyped-def]
        for scope in (ALICE, BOB):
            store.save_session(scope, make_session())
            store.add_turn(scope, "s1", make_turn(1))
            store.put_blob(scope, Blob("r1", "s1", "big", 1, T0))
        store.drop_scope(ALICE, T0)
        assert store.session(ALICE, "s1") is None and store.turns(ALICE, "s1") == []
        assert store.blob(ALICE, "r1") is None
        assert store.session(BOB, "s1") is not None and store.blob(BOB, "r1") is not None

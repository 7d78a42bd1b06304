"""Ingest of a message over the content limit (write/offload.py): the message is kept, its
text whole in a working-memory blob that ``session(...).fetch`` returns, its head and a
summary in the turn event that recall finds; the rest of the conversation is ingested."""

from __future__ import annotations

import pytest

import engramdb
from engramdb import Config, Invalid, NotFound


def log_lines(n: int) -> str:
    return "\n".join(f"2025-03-0{1 + i % 9} 12:{i % 60:02d}:00 INFO worker-{i % 7} processed "
                     f"batch {i} in {i % 97} ms" for i in range(n))


def test_a_pasted_300kb_log_is_kept_and_fetched_whole(me):  # type: ignore[no-untyped-def]
    log = ("Deploy failed: the payments service could not reach host ledger-db-07.\n"
           + log_lines(4800) + "\nWe decided to roll back to release 4.2.1 on Friday.")
    assert len(log.encode()) > 300_000
    report = me.ingest([{"role": "user", "content": "The deploy broke again, here is the log"},
                        {"role": "user", "content": log},
                        {"role": "user", "content": "I moved to Lisbon last month"}],
                       session="deploy-chat", extractor="rules")
    assert (report.turns, report.skipped_turns, report.offloaded_turns) == (3, 0, 1)
    assert report.to_dict()["offloaded_turns"] == 1
    event = report.events[1].memory
    meta = event.metadata
    assert meta["bytes"] == len(log.encode()) and meta["offload_session"] == "deploy-chat"
    assert event.content.startswith("Deploy failed: the payments service")
    assert f"[offloaded {meta['offloaded']}" in event.content
    assert "roll back to release 4.2.1" in event.content  # the summary keeps the decision
    assert len(event.content.encode()) <= 65536
    assert me.session("deploy-chat").fetch(meta["offloaded"]) == log
    assert {r.memory.content for r in report.events} >= {"I moved to Lisbon last month"}
    hits = me.recall("which host could the payments service not reach?", k=3)
    assert event.id in [h.memory.id for h in hits]


def test_a_long_chinese_message_is_offloaded_too(tmp_path, clock):  # type: ignore[no-untyped-def]
    text = ("会议纪要：我们决定把发布推迟到3月15日。" + "服务器日志一切正常。" * 400
            + "王芳负责联系客户。")
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                       config=Config(max_content_bytes=4096)) as m:
        me = m.scope(user="u")
        report = me.ingest([{"role": "user", "content": "我把会议记录贴在下面"},
                            {"role": "user", "content": text},
                            {"role": "user", "content": "我下周去成都出差"}], extractor="rules")
        assert report.offloaded_turns == 1 and report.skipped_turns == 0
        event = report.events[1].memory
        assert event.content.startswith("会议纪要：我们决定把发布推迟到3月15日")
        assert "王芳负责联系客户" in event.content and len(event.content.encode()) <= 4096
        fetched = me.session(event.metadata["offload_session"]).fetch(
            event.metadata["offloaded"])
        assert fetched == text
        assert "我下周去成都出差" in {r.memory.content for r in report.events}


def test_an_ingest_session_id_no_working_session_can_have_gets_its_own(me):  # type: ignore[no-untyped-def]
    session = "s" * 300  # a valid ingest session, too long for a working session's id
    report = me.ingest([{"role": "user", "content": "x " * 40000}], session=session,
                       extractor="rules")
    meta = report.events[0].memory.metadata
    assert report.session == session and meta["offload_session"].startswith("ingest-")
    assert me.session(meta["offload_session"]).fetch(meta["offloaded"]) == "x " * 40000


@pytest.mark.parametrize("bad", ["", "nope", 7])
def test_fetching_an_unknown_offload_is_refused(me, bad):  # type: ignore[no-untyped-def]
    me.ingest([{"role": "user", "content": "y " * 40000}], session="s1", extractor="rules")
    with pytest.raises((Invalid, NotFound)):
        me.session("s1").fetch(bad)


def test_a_message_under_the_limit_is_not_offloaded(me):  # type: ignore[no-untyped-def]
    report = me.ingest([{"role": "user", "content": "z " * 1000}], session="s2",
                       extractor="rules")
    assert report.offloaded_turns == 0 and "offloaded" not in report.events[0].memory.metadata
    assert me.sessions() == []

"""Memory.ingest and `engramdb ingest`: turns kept as events, memories extracted from them and
linked back, decisions in conversation order, bad input refused whole. Real SQLite files;
the clock is frozen."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

import engramdb
from engramdb import Action, IngestReport, Invalid, Kind, Message
from engramdb.cli import app

CHAT = [
    {"role": "user", "content": "Hi! I live in Lisbon and I use Java 21.",
     "at": "2025-04-10T09:00:00Z"},
    {"role": "assistant", "content": "Nice. I live in the cloud.", "at": "2025-04-10T09:00:05Z"},
    {"role": "user", "content": "Remind me to renew my passport. 我对花生过敏。",
     "at": "2025-04-10T09:01:00Z"},
    {"role": "user", "content": "Actually I moved to Berlin. I use VS Code.",
     "at": "2025-04-10T09:02:00Z"},
]


def current(me, kind: str = "fact") -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(r.content for r in me.list(kind=kind, include_superseded=False))


def test_turns_become_events_and_facts_link_back_to_them(me):  # type: ignore[no-untyped-def]
    report = me.ingest(CHAT, session="chat-1")
    assert isinstance(report, IngestReport)
    assert (report.session, report.turns, report.extractor) == ("chat-1", 4, "rules")
    assert [r.memory.kind for r in report.events] == [Kind.EVENT] * 4
    assert [r.memory.metadata["turn"] for r in report.events] == [0, 1, 2, 3]
    assert report.events[1].memory.metadata["role"] == "assistant"
    assert report.events[0].memory.at == datetime(2025, 4, 10, 9, 0, tzinfo=UTC)
    by_text = {r.memory.content: r for r in report.extracted}
    assert set(by_text) == {"I live in Lisbon", "I use Java 21.",
                            "Remind me to renew my passport.", "我对花生过敏",
                            "I moved to Berlin.", "I use VS Code."}
    pending = by_text["Remind me to renew my passport."].memory
    assert pending.kind == Kind.PENDING
    assert (pending.source_session, pending.source_turn) == ("chat-1", "2")
    assert [e.content for e in me.sources(pending.id)] == [CHAT[2]["content"]]
    assert by_text["我对花生过敏"].memory.kind == Kind.FACT
    # a hit on a fact maps back to its turn
    hit = me.recall("allergy peanuts 花生过敏", k=5, kinds=["fact"], track=False)[0]
    assert me.sources(hit.memory.id)[0].metadata == {"session": "chat-1", "turn": 2,
                                                     "role": "user"}


def test_later_values_in_one_batch_supersede_earlier_ones(me):  # type: ignore[no-untyped-def]
    report = me.ingest(CHAT, session="s")
    moved = next(r for r in report.extracted if r.memory.content == "I moved to Berlin.")
    assert (moved.action, moved.rule) == (Action.SUPERSEDE, "slot_new_value")
    assert "I moved to Berlin." in current(me)
    assert "I live in Lisbon" not in current(me)
    assert "I use Java 21." in current(me)
    # the editor is another attribute than the language: VS Code replaced nothing
    code = next(r for r in report.extracted if r.memory.content == "I use VS Code.")
    assert code.action == Action.ADD
    assert len(me.history(moved.memory.id)) >= 2


def test_a_chinese_conversation(me):  # type: ignore[no-untyped-def]
    report = me.ingest([Message("user", "我住在上海。我喜欢喝咖啡。"),
                        Message("user", "我搬到了杭州。下次记得带伞。"),
                        Message("user", "去年三月我和王芳去了北京")],
                       at=datetime(2025, 4, 10, tzinfo=UTC))
    kinds = {r.memory.content: (r.memory.kind, r.action) for r in report.extracted}
    assert kinds["我住在上海"][0] == Kind.FACT
    assert kinds["我喜欢喝咖啡"][0] == Kind.PREFERENCE
    assert kinds["我搬到了杭州"] == (Kind.FACT, Action.SUPERSEDE)
    assert kinds["下次记得带伞"][0] == Kind.LESSON
    trip = next(r.memory for r in report.extracted if r.memory.kind == Kind.EVENT)
    assert (trip.at, trip.at_precision) == (datetime(2024, 3, 1, tzinfo=UTC), "month")
    assert trip.people == ["王芳"] and trip.places == ["北京"]
    hits = me.recall("我2024年3月做了什么", k=5, track=False)
    assert hits.plan["stages"]["window"]["inside"] == 1  # the rest follow, outside it
    assert [h.memory.content for h in hits][0] == "去年三月我和王芳去了北京"


def test_without_times_turns_take_the_ingest_time_then_the_clock(me, clock):  # type: ignore[no-untyped-def]
    given = datetime(2024, 1, 2, tzinfo=UTC)
    a = me.ingest([{"role": "user", "content": "I live in Oslo"}], at=given)
    assert a.events[0].memory.at == given and a.extracted[0].memory.at == given
    b = me.ingest([{"role": "user", "content": "I live in Rome"}])
    assert b.events[0].memory.at == clock.now()
    assert a.session != b.session  # each ingest gets a fresh session id unless one is given


def test_keep_turns_false_stores_only_extracted_memories(me):  # type: ignore[no-untyped-def]
    report = me.ingest(CHAT, keep_turns=False)
    assert report.events == []
    assert me.count(kind="event") == 0
    assert all(r.memory.metadata["source_events"] == [] for r in report.extracted)
    assert all(r.memory.source_turn is not None for r in report.extracted)


@pytest.mark.parametrize(("messages", "match"), [
    ("I live in Lisbon", "list of messages"),
    ([], "empty"),
    ([{"role": "user"}], "message 0: missing 'content'"),
    ([{"content": "hi there"}], "message 0: missing 'role'"),
    ([{"role": "user", "content": "fine"}, {"role": 3, "content": "x"}], "message 1: role"),
    ([{"role": "user", "content": ["a"]}], "content must be"),
    ([{"role": "user", "content": "   "}], "content must be"),
    ([{"role": "user", "content": "hello", "at": "soon"}], "message 0"),
    ([{"role": "user", "content": "hello", "at": 5}], "at must be"),
    ([{"role": "user", "content": "hello", "mood": "happy"}], "unknown field"),
    ([{"role": "user", "content": "hello", "speaker": 1}], "speaker"),
    (["just text"], "expected a dict or a Message"),
    ([Message("user", "hi", at=3.5)], "message 0: at must be"),  # type: ignore[arg-type]
])
def test_malformed_messages_are_refused_and_nothing_is_written(me, messages, match):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match=match):
        me.ingest(messages)
    assert me.count() == 0


def test_a_bad_message_late_in_the_list_writes_nothing(me):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="message 4: missing 'role'"):
        me.ingest([*CHAT, {"content": "no role"}])
    assert me.count() == 0


def test_a_turn_time_without_a_zone_is_utc(me):  # type: ignore[no-untyped-def]
    report = me.ingest([Message("user", "I moved to Berlin", at=datetime(2025, 1, 1, 9)),
                        {"role": "user", "content": "我搬到了柏林",
                         "at": "2025-01-01T17:00:00+08:00"},
                        {"role": "user", "content": "I like tea", "at": "2025-01-01T09:00:00"}],
                       extractor="rules")
    assert {r.memory.at for r in report.events} == {datetime(2025, 1, 1, 9, tzinfo=UTC)}


def test_bad_options_are_refused(me):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="extractor"):
        me.ingest(CHAT, extractor="magic")
    with pytest.raises(Invalid, match="session"):
        me.ingest(CHAT, session="  ")


def test_a_long_session_is_written_in_batches_with_progress(me):  # type: ignore[no-untyped-def]
    n = 10_000
    # the user says only the reminders; the assistant's turns are kept, never extracted
    messages = [{"role": "user" if i % 1000 == 0 else "assistant",
                 "content": f"Remind me to water plant number {i}" if i % 1000 == 0
                 else f"turn {i} talks about topic {i % 97} and item {i}"} for i in range(n)]
    seen: list[tuple[int, int]] = []
    report = me.ingest(messages, session="long", progress=lambda d, t: seen.append((d, t)))
    assert report.turns == n and len(report.events) == n
    assert len(seen) > 1 and seen[-1] == (n, n)  # embedded batch by batch
    assert me.count(kind="event") == n
    assert [r.memory.source_turn for r in report.extracted] == [str(i) for i in range(0, n, 1000)]
    assert me.count(kind="pending") == 10


def _moves(n: int) -> list[dict[str, str]]:
    return [{"role": "user", "content": f"I live in city number {i}"} for i in range(n)]


def test_a_slot_said_again_and_again_in_one_session_keeps_one_current_value(me):  # type: ignore[no-untyped-def]
    report = me.ingest(_moves(5))
    assert [r.action for r in report.extracted] == [Action.ADD] + [Action.SUPERSEDE] * 4
    assert current(me) == ["I live in city number 4"]
    chain = me.history(report.extracted[-1].memory.id)
    assert len({v.memory.id for v in chain}) == 5 and chain[-1].current


def test_many_values_of_one_slot_still_supersede(me):  # type: ignore[no-untyped-def]
    me.ingest(_moves(12))
    assert current(me) == ["I live in city number 11"]


# ---------------------------------------------------------------- the CLI


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    for name in ("URL", "USER", "AGENT", "CONFIG", "LLM_URL", "LLM_MODEL"):
        monkeypatch.delenv(f"ENGRAMDB_{name}", raising=False)
    db = str(tmp_path / "memory.db")

    def invoke(*args: str, code: int = 0, input: str | None = None):  # type: ignore[no-untyped-def]
        result = CliRunner().invoke(app, ["--db", db, "--create", *args], input=input,
                                    env={"ENGRAMDB_EMBEDDER": "hashing", "COLUMNS": "200"})
        assert result.exit_code == code, result.output
        return result

    return invoke


def test_cli_ingests_a_json_file(run, tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"session": "from-file", "messages": CHAT}), encoding="utf-8")
    result = run("ingest", str(path))
    assert "session from-file: 4 turns, 4 kept as events; extracted by rules" in result.stdout
    assert "supersede" in result.stdout
    stored = json.loads(run("--json", "status").stdout)["total"]
    data = json.loads(run("--json", "ingest", str(path)).stdout)
    assert data["session"] == "from-file" and data["extractor"] == "rules"
    # the same conversation again changes nothing: its turns are known, nothing is re-extracted
    assert data["counts"] == {} and data["repeated_turns"] == 4
    assert json.loads(run("--json", "status").stdout)["total"] == stored


def test_cli_ingests_json_lines_from_stdin_with_a_session(run):  # type: ignore[no-untyped-def]
    lines = "\n".join(json.dumps(m, ensure_ascii=False) for m in CHAT) + "\n"
    data = json.loads(run("--json", "ingest", "-", "--session", "s9", input=lines).stdout)
    assert data["session"] == "s9" and data["turns"] == 4
    listed = json.loads(run("--json", "list", "--kind", "pending").stdout)
    assert [m["content"] for m in listed] == ["Remind me to renew my passport."]


@pytest.mark.parametrize(("content", "code", "message"), [
    ("", 4, "empty"),
    ("{not json", 4, "line 1 is not JSON"),
    ('{"role": "user"}', 4, "missing 'content'"),
    ('{"messages": 3}', 4, "expected a JSON list"),
    ('[{"role": "user", "content": "hi there", "at": "tomorrow-ish"}]', 4, "message 0"),
])
def test_cli_bad_files_get_a_message_and_an_exit_code(run, tmp_path, content, code, message):  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = run("ingest", str(path), code=code)
    assert message in result.output
    assert "Traceback" not in result.output


def test_cli_missing_file_is_a_usage_error(run, tmp_path):  # type: ignore[no-untyped-def]
    result = run("ingest", str(tmp_path / "nope.json"), code=2)
    assert "cannot read" in result.output


def test_an_llm_asked_for_but_not_configured_is_a_config_error(run, tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(CHAT), encoding="utf-8")
    result = run("ingest", str(path), "--extractor", "llm", code=6)
    assert "ENGRAMDB_LLM_URL" in result.output


def test_ingest_opens_through_the_public_api(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock) as mem:
        report = mem.ingest([Message("user", "I use Java 21", speaker="Ana")], user="ana")
        assert report.extracted[0].memory.people == ["Ana"]
        assert mem.count(user="ana") == 2 and mem.count() == 0

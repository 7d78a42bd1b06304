"""Working memory: a session's window within a token budget, compression into a running
summary, pinned turns, offloading, the hand-over at the end, and state across a restart."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import engramdb
from engramdb.errors import Conflict, Invalid, NotFound
from engramdb.text.tokens import count_tokens
from engramdb.working.state import Turn
from engramdb.working.summary import marks, summarize_turn

PIN_EN = "Never connect to the production database."
PIN_ZH = "绝对不要连接生产数据库。"
CHATTER = ["ok", "thanks!", "sure, sounds good", "好的", "嗯嗯，谢谢"]


def report(lines: int) -> str:
    return "\n".join(f"test_{i:04d} PASSED in 0.{i % 10}s" for i in range(lines))


def chat(wm, n: int, zh: bool = False) -> None:  # type: ignore[no-untyped-def]
    for i in range(n):
        if zh:
            wm.add("user", f"第{i}步：我们决定把超时改为{i + 10}秒，3月{i % 28 + 1}日上线。")
        else:
            wm.add("user", f"Step {i}: we decided to set the timeout to {i + 10} seconds, "
                           f"shipping on 2026-03-{i % 28 + 1:02d}.")
        wm.add("assistant", CHATTER[i % len(CHATTER)])


# ---------------------------------------------------------------- the window


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base", "estimate"])
def test_add_and_prompt_with_exact_tokens(me, encoding):  # type: ignore[no-untyped-def]
    wm = me.session("s1", encoding=encoding)
    wm.add("system", "You are Noah, a coding assistant.")
    wm.add("user", "Deploy the service to staging please. 请部署到预发环境。")
    wm.add("assistant", "Done: staging is on build 4521.")
    prompt = wm.to_prompt()
    assert prompt == ("[Recent turns]\nsystem: You are Noah, a coding assistant.\n"
                      "user: Deploy the service to staging please. 请部署到预发环境。\n"
                      "assistant: Done: staging is on build 4521.")
    assert wm.tokens == count_tokens(prompt, encoding)
    assert [t.tokens for t in wm.turns()] == [count_tokens(t.content, encoding)
                                              for t in wm.turns()]
    assert [t.seq for t in wm.turns()] == [1, 2, 3]
    said = "Deploy the service to staging please. 请部署到预发环境。"
    assert wm.messages()[1] == {"role": "user", "content": said}


@pytest.mark.parametrize("zh", [False, True])
def test_over_budget_older_turns_fold_into_a_summary(me, zh):  # type: ignore[no-untyped-def]
    wm = me.session("s1", budget=300, keep=4)
    chat(wm, 40, zh)
    assert wm.tokens == count_tokens(wm.to_prompt()) <= 300
    window = wm.window()
    assert [t.seq for t in window][-4:] == [77, 78, 79, 80]  # the newest kept verbatim
    assert all(not t.folded for t in window)
    assert sum(t.folded for t in wm.turns()) == 80 - len(window)
    summary = wm.summary
    assert summary and summary.count("\n") + 1 <= 300 // 3
    assert count_tokens(summary) <= 300 // 3
    for chatter in CHATTER:
        assert chatter not in summary  # small talk is dropped
    last_folded = max(t.seq for t in wm.turns() if t.folded and t.role == "user")
    step = (last_folded - 1) // 2
    marker = f"第{step}步" if zh else f"Step {step}:"
    assert marker in summary  # the latest decision folded is the last to go
    assert (f"{step + 10}秒" if zh else f"{step + 10} seconds") in summary


def test_summary_keeps_names_numbers_dates_decisions_in_both_languages():  # type: ignore[no-untyped-def]
    def turn(text: str, role: str = "user") -> Turn:
        from datetime import UTC, datetime

        return Turn(1, role, text, datetime(2026, 1, 1, tzinfo=UTC), 1)

    assert marks("We decided to use PostgreSQL.") >= {"decision", "name"}
    assert marks("Ship it on 2026-03-05.") >= {"date", "number"}
    assert marks("我们决定用 PostgreSQL。") >= {"decision"}
    assert marks("张伟明天去上海。") >= {"date", "name"}
    assert marks("一共花了三千块。") >= {"number"}
    assert marks("ok thanks") == set() and marks("好的，谢谢") == set()
    said = "ok. Bob approved the budget of 40k. lol. 好的。王芳确认周五发布。"
    lines = summarize_turn(turn(said))
    assert lines == ["- user: Bob approved the budget of 40k.", "- user: 王芳确认周五发布。"]
    tool = summarize_turn(turn("pytest run\nall good\n3 failed, 120 passed\nbye", "tool"))
    assert tool == ["- tool: pytest run", "- tool: 3 failed, 120 passed"]


@pytest.mark.parametrize("pin", [PIN_EN, PIN_ZH])
def test_pinned_turns_are_never_compressed(me, pin):  # type: ignore[no-untyped-def]
    wm = me.session("s1", budget=250, keep=2)
    wm.add("user", pin, pin=True)
    chat(wm, 60, zh=pin == PIN_ZH)
    assert wm.tokens <= 250
    assert f"[Pinned]\nuser: {pin}" in wm.to_prompt()
    first = wm.turns()[0]
    assert first.pinned and not first.folded and first.content == pin
    assert wm.messages()[0]["role"] == "system" and pin in wm.messages()[0]["content"]


def test_repeated_folding_stops_at_the_kept_turns(me):  # type: ignore[no-untyped-def]
    wm = me.session("s1", budget=120, keep=3)
    for i in range(12):
        wm.add("user", f"Item {i}: the build number is {1000 + i}, keep it.")
    assert wm.tokens <= 120
    folded = [t.seq for t in wm.turns() if t.folded]
    assert folded == list(range(1, len(folded) + 1)) and len(folded) >= 5  # oldest first
    assert [t.seq for t in wm.window()][-3:] == [10, 11, 12]
    kept_only = count_tokens("[Recent turns]\n" + "\n".join(f"user: {t.content}"
                                                             for t in wm.turns()[-3:]))
    tight = me.session("s1", budget=kept_only + 5)
    assert [t.seq for t in tight.window()] == [10, 11, 12]  # only the kept turns remain
    assert tight.tokens <= kept_only + 5


def test_budget_smaller_than_the_kept_turns_degrades_without_cutting(me):  # type: ignore[no-untyped-def]
    """Documented degradation: pinned and kept turns stay verbatim, the summary is not shown
    while there is no room for it, and the window reports that it is over budget."""
    wm = me.session("s1", budget=300, keep=2, offload_tokens=10_000)
    wm.add("user", PIN_EN, pin=True)
    chat(wm, 12)
    assert not wm.over_budget and "[Summary of earlier turns]" in wm.to_prompt()
    heavy = wm.add("tool", report(60))   # about 900 tokens, kept verbatim (no offloading)
    assert heavy.ref is None and wm.over_budget and wm.tokens > 300
    assert [t.seq for t in wm.window()] == [1, 25, 26]
    assert "[Summary" not in wm.to_prompt()   # no room: the summary is not shown...
    assert "Step 11:" in wm.summary            # ...but kept, for when there is room again
    assert wm.to_dict()["over_budget"] is True
    wm.add("user", "Step 99: we decided to roll back to build 4400 on 2026-03-09.")
    wm.add("assistant", "ok")
    assert not wm.over_budget and wm.tokens <= 300
    prompt = wm.to_prompt()
    assert "[Summary of earlier turns]" in prompt and "Step 11:" in prompt
    assert PIN_EN in prompt and "test_0059" not in prompt  # the report was folded


def test_a_tiny_budget_keeps_pinned_and_kept_turns(me):  # type: ignore[no-untyped-def]
    wm = me.session("s1", budget=1, keep=1)
    wm.add("user", PIN_ZH, pin=True)
    wm.add("user", "第一步：我们决定先修测试。")
    wm.add("user", "第二步：然后发布。")
    assert wm.over_budget
    assert wm.to_prompt() == f"[Pinned]\nuser: {PIN_ZH}\n\n[Recent turns]\nuser: 第二步：然后发布。"


def test_a_smaller_budget_given_later_folds_at_once(me):  # type: ignore[no-untyped-def]
    wm = me.session("s1", budget=4000, keep=2)
    chat(wm, 20)
    assert not any(t.folded for t in wm.turns())
    smaller = me.session("s1", budget=200)
    assert smaller.settings.budget == 200 and smaller.settings.keep == 2
    assert smaller.tokens <= 200 and any(t.folded for t in smaller.turns())
    assert me.session("s1").settings.budget == 200  # stored


# ---------------------------------------------------------------- offloading


def test_heavy_content_is_offloaded_and_fetched_whole(me):  # type: ignore[no-untyped-def]
    wm = me.session("s1")
    text = report(2000)
    assert count_tokens(text) > 1000
    turn = wm.add("tool", text)
    assert turn.ref is not None and turn.ref.startswith("wm-")
    assert turn.content.startswith(f"[offloaded {turn.ref}: {count_tokens(text)} tokens, "
                                   "2000 lines; fetch to read] test_0000 PASSED in 0.0s")
    assert turn.tokens == count_tokens(turn.content) < 60
    assert text not in wm.to_prompt() and turn.content in wm.to_prompt()
    piped = wm.add("tool", text + "\n")    # `seq 1 2000 | ...`: a last newline adds no line
    assert "2000 lines; fetch to read]" in piped.content
    assert wm.fetch(turn.ref) == text


def test_offload_threshold_is_the_setting(me):  # type: ignore[no-untyped-def]
    wm = me.session("s1", offload_tokens=50)
    words = "alpha " * 50  # 50 tokens in cl100k_base
    assert count_tokens(words.strip()) == 50
    assert wm.add("tool", words.strip()).ref is None
    assert wm.add("tool", words + "omega").ref is not None
    zh = "数据库迁移完成。" * 20
    assert count_tokens(zh) > 50 and wm.add("tool", zh).ref is not None
    pinned = wm.add("user", zh, pin=True)
    assert pinned.ref is None and pinned.content == zh  # pinned: verbatim, never offloaded


def test_unknown_offload_reference_is_not_found(mem, me):  # type: ignore[no-untyped-def]
    wm = me.session("s1")
    ref = wm.add("tool", report(1500)).ref
    with pytest.raises(NotFound, match="wm-nope"):
        wm.fetch("wm-nope")
    with pytest.raises(Invalid):
        wm.fetch("")
    other = mem.scope(user="bob", agent="noah").session("s1")
    with pytest.raises(NotFound):
        other.fetch(ref)


# ---------------------------------------------------------------- restart, end, scopes


def test_state_survives_a_restart(tmp_path, clock):  # type: ignore[no-untyped-def]
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        wm = mem.session("s1", budget=300, keep=3, encoding="o200k_base")
        wm.add("user", PIN_ZH, pin=True)
        chat(wm, 30, zh=True)
        ref = wm.add("tool", report(1200)).ref
        before = (wm.to_prompt(), wm.summary, wm.turns(), wm.settings)
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        wm = mem.session("s1")
        assert (wm.to_prompt(), wm.summary, wm.turns(), wm.settings) == before
        assert wm.fetch(ref) == report(1200)
        wm.add("user", "继续。")
        assert wm.turns()[-1].seq == len(before[2]) + 1
        assert mem.sessions() == ["s1"]


def test_end_hands_over_every_turn_and_closes(tmp_path, clock):  # type: ignore[no-untyped-def]
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        wm = mem.session("s1", budget=150, keep=2)
        wm.add("user", PIN_EN, pin=True)
        chat(wm, 10)
        clock.advance(minutes=5)
        handover = wm.end()
        assert wm.ended
        assert len(handover.messages) == 21
        assert handover.messages[0] == {"role": "user", "content": PIN_EN,
                                        "at": wm.turns()[0].at}
        assert [m["content"] for m in handover.messages] == [t.content for t in wm.turns()]
        assert handover.pinned == [PIN_EN] and handover.summary == wm.summary
        assert handover.ended_at == clock.now()
        assert json.loads(json.dumps(handover.to_dict()))["session"] == "s1"
        # handed over: the turns are events of the session, the pinned turn is a rule
        assert handover.ingested is not None and handover.ingested.session == "s1"
        assert len(handover.ingested.events) == 21
        assert [r.memory.kind for r in handover.rules] == ["rule"]
        assert [r.content for r in mem.list(kind="rule")] == [PIN_EN]
        assert mem.recall("production database", k=3)[0].memory.content == PIN_EN
        with pytest.raises(Conflict, match="ended"):
            wm.add("user", "one more")
        with pytest.raises(Conflict):
            wm.end()
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        wm = mem.session("s1")
        assert wm.ended and len(wm.turns()) == 21
        with pytest.raises(Conflict):
            wm.add("user", "after the restart")


def test_sessions_are_scoped(mem):  # type: ignore[no-untyped-def]
    alice = mem.scope(user="alice", agent="noah").session("s1")
    alice.add("user", "alice's secret plan")
    bob = mem.scope(user="bob", agent="noah").session("s1")
    assert bob.turns() == [] and "secret" not in bob.to_prompt()
    mem.forget_scope(user="alice", agent="noah")
    assert mem.scope(user="alice", agent="noah").session("s1").turns() == []


def test_a_failed_write_leaves_nothing_half_written(me):  # type: ignore[no-untyped-def]
    first = me.session("s1")
    second = me.session("s1")   # a stale copy: its next seq is taken by the first
    first.add("user", "hello")
    with pytest.raises(Conflict):
        second.add("tool", report(1500))
    fresh = me.session("s1")
    assert [t.content for t in fresh.turns()] == ["hello"]
    assert all(t.ref is None for t in fresh.turns())


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"budget": 0}, "budget"), ({"budget": -5}, "budget"), ({"budget": True}, "budget"),
    ({"budget": 1.5}, "budget"), ({"keep": -1}, "keep"), ({"offload_tokens": 0}, "offload"),
    ({"encoding": "gpt2"}, "unknown token encoding"), ({"summarizer": "magic"}, "summarizer"),
])
def test_bad_settings_are_invalid(me, kwargs, message):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match=message):
        me.session("s1", **kwargs)
    assert me.sessions() == []  # nothing half-created


@pytest.mark.parametrize("session_id", ["", "   ", "x" * 201, "a\nb", 7, None, "\ud800"])
def test_bad_session_ids_are_invalid(me, session_id):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="session id"):
        me.session(session_id)


@pytest.mark.parametrize(("role", "content", "pin"), [
    ("robot", "hi", False), ("", "hi", False), (None, "hi", False), ("user", "", False),
    ("user", "   ", False), ("user", None, False), ("user", "bad \ud800", False),
    ("user", "hi", "yes"),
])
def test_bad_turns_are_invalid(me, role, content, pin):  # type: ignore[no-untyped-def]
    wm = me.session("s1")
    with pytest.raises(Invalid):
        wm.add(role, content, pin=pin)
    assert wm.turns() == [] and me.session("s1").turns() == []


# ---------------------------------------------------------------- the optional LLM summary


class ChatHandler(BaseHTTPRequestHandler):
    seen: list[dict] = []
    fail = False

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        ChatHandler.seen.append({"path": self.path, "auth": self.headers.get("Authorization"),
                                 "body": body})
        if ChatHandler.fail:
            self.send_response(503)
            self.end_headers()
            return
        turns = body["messages"][1]["content"].split("New turns:\n", 1)[1].splitlines()
        answer = "\n".join(f"- LLM point {len(ChatHandler.seen)}: {line[:30]}"
                           for line in turns[:2])
        payload = json.dumps({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 0,
            "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": answer}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def llm(monkeypatch) -> Iterator[str]:  # type: ignore[no-untyped-def]
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
                 "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), ChatHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    ChatHandler.seen, ChatHandler.fail = [], False
    url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    monkeypatch.setenv("ENGRAMDB_OPENAI_BASE_URL", url)
    monkeypatch.setenv("ENGRAMDB_OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ENGRAMDB_OPENAI_CHAT_MODEL", "summ-1")
    yield url
    httpd.shutdown()
    httpd.server_close()


def test_llm_summary_over_the_chat_completions_protocol(me, llm):  # type: ignore[no-untyped-def]
    wm = me.session("s1", budget=200, keep=2, summarizer="llm")
    chat(wm, 20)
    assert ChatHandler.seen, "the endpoint was never called"
    call = ChatHandler.seen[0]
    assert call["path"] == "/v1/chat/completions" and call["auth"] == "Bearer sk-test"
    assert call["body"]["model"] == "summ-1"
    assert [m["role"] for m in call["body"]["messages"]] == ["system", "user"]
    assert "user: Step 0:" in call["body"]["messages"][1]["content"]
    assert wm.summary.startswith("- LLM point")
    assert wm.tokens <= 200 and wm.notes == []


def test_a_failing_llm_falls_back_to_the_extractive_summary(me, llm):  # type: ignore[no-untyped-def]
    ChatHandler.fail = True
    wm = me.session("s1", budget=200, keep=2, summarizer="llm")
    chat(wm, 20)
    assert ChatHandler.seen and "LLM point" not in wm.summary
    assert "Step" in wm.summary
    assert wm.notes and "LLM summary failed" in wm.notes[0] and "extractive" in wm.notes[0]
    assert me.session("s1").notes == wm.notes  # stored


def test_a_file_from_before_working_memory_gains_its_tables(tmp_path, clock):  # type: ignore[no-untyped-def]
    """Schema migration 5 adds the session tables to an existing file, scope columns first."""
    import sqlite3

    path = tmp_path / "old.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        rec = mem.remember("I live in Berlin").memory
    db = sqlite3.connect(path)
    for table in ("wm_blobs", "wm_turns", "wm_sessions"):
        db.execute(f"DROP TABLE {table}")
    db.execute("DELETE FROM schema_migrations WHERE version = 5")
    db.commit()
    db.close()
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        assert mem.get(rec.id).content == "I live in Berlin"
        mem.session("s1").add("user", "hello")
        assert [t.content for t in mem.session("s1").turns()] == ["hello"]
    db = sqlite3.connect(path)
    assert 5 in [r[0] for r in db.execute("SELECT version FROM schema_migrations")]
    for table in ("wm_sessions", "wm_turns", "wm_blobs"):
        columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
        assert columns[:2] == ["user", "agent"]
    db.close()


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base", "estimate"])
def test_the_cheap_bound_is_never_below_the_exact_count(encoding):  # type: ignore[no-untyped-def]
    """Compaction skips the exact count when this bound fits: it must never under-count."""
    import random
    from datetime import UTC, datetime

    from engramdb.working.session import render, surely_fits
    from engramdb.working.state import Settings

    rng = random.Random(3)
    pieces = ["hello", " world", "\n", "  ", "我们决定", "。", "x=1;", "\t", "Ünïcode", "🙂",
              "2026-03-05", "  \n\n", "'s", "DECISION 7:", "数据库"]
    at = datetime(2026, 1, 1, tzinfo=UTC)
    for _ in range(200):
        window = []
        for seq in range(1, rng.randint(2, 40)):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))).strip() or "x"
            window.append(Turn(seq, rng.choice(["user", "developer", "tool"]), text, at,
                               count_tokens(text, encoding), pinned=rng.random() < 0.2))
        lines = [f"- user: {rng.choice(pieces)}{rng.choice(pieces)}"
                 for _ in range(rng.randint(0, 3))]
        exact = count_tokens(render("\n".join(lines), window), encoding)
        below = Settings(max(1, exact - 1), 1, 1, encoding, "extractive")
        assert not surely_fits(lines, window, below)  # never claims a fit it does not have


def test_end_extracts_facts_from_the_session_in_both_languages(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock) as mem:
        wm = mem.session("s2")
        wm.add("user", "I moved to Lisbon last month.")
        wm.add("assistant", "Noted.")
        wm.add("user", "我喜欢喝乌龙茶。")
        handover = wm.end()
        assert handover.ingested is not None
        extracted = [r.memory for r in handover.ingested.extracted]
        assert {r.kind.value for r in extracted} >= {"preference"}
        assert all(r.source_session == "s2" for r in extracted)
        assert any("乌龙茶" in r.content for r in extracted)
        assert any("Lisbon" in r.content for r in extracted)

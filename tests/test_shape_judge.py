"""The optional LLM judge of ambiguous supersession (write/shapejudge.py) against a real HTTP
server on loopback speaking the /v1/chat/completions wire protocol: the judge decides only the
cases the shape rules call ambiguous; a junk answer, an HTTP error or a timeout leaves the
rules' decision (both memories stay), and the write's evidence says what happened."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

import engramdb
from engramdb import Action, Config, ConfigError

T0 = datetime(2025, 1, 1, tzinfo=UTC)


class Judge(BaseHTTPRequestHandler):
    answer: Any = {"replaces": True}
    status = 200
    delay = 0.0
    seen: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Judge.seen.append(body)
        if Judge.delay:
            time.sleep(Judge.delay)  # the double is slow on purpose: the client must give up
        if Judge.status != 200:
            self._send(Judge.status, b'{"error": {"message": "overloaded"}}')
            return
        content = Judge.answer if isinstance(Judge.answer, str) else json.dumps(Judge.answer)
        self._send(200, json.dumps({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}]}).encode())

    def _send(self, status: int, payload: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        try:
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch):  # type: ignore[no-untyped-def]
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
                 "all_proxy"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Judge)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    Judge.answer, Judge.status, Judge.delay, Judge.seen = {"replaces": True}, 200, 0.0, []
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


def open_mem(tmp_path, clock, **config):  # type: ignore[no-untyped-def]
    return engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                         config=Config(**config))


@pytest.fixture
def judged(tmp_path, clock, server):  # type: ignore[no-untyped-def]
    with open_mem(tmp_path, clock, llm_url=server, llm_model="judge-1",
                  llm_timeout=30) as m:
        yield m.scope(user="u")


def pair(me, old: str, new: str, kind: str = "preference"):  # type: ignore[no-untyped-def]
    first = me.remember(old, kind=kind, at=T0).memory
    return first, me.remember(new, kind=kind, at=T0 + timedelta(days=1))


@pytest.mark.parametrize(("old", "new"), [
    ("Greta likes coffee", "Greta likes tea"),
    ("Sara manages the Berlin office", "Tom manages the Berlin office"),
    ("小王喜欢咖啡", "小王喜欢茶"),
])
def test_the_judge_decides_an_ambiguous_pair(judged, old, new):  # type: ignore[no-untyped-def]
    first, second = pair(judged, old, new, "fact")
    assert (second.action, second.rule) == (Action.SUPERSEDE, "shape_judged")
    assert second.evidence["old_id"] == first.id and second.evidence["diff"]
    assert second.evidence["shape_judge"][0]["decided_by"] == "llm"
    assert [r.content for r in judged.list(include_superseded=False)] == [new]
    asked = Judge.seen[0]["messages"][1]["content"]
    assert old in asked and new in asked and Judge.seen[0]["model"] == "judge-1"


def test_a_no_keeps_both(judged):  # type: ignore[no-untyped-def]
    Judge.answer = {"replaces": False}
    _, second = pair(judged, "Greta likes coffee", "Greta likes tea")
    assert second.action == Action.ADD
    assert second.evidence["shape_judge"][0]["replaces"] is False
    assert len(list(judged.list(include_superseded=False))) == 2


@pytest.mark.parametrize(("answer", "status", "delay", "why"), [
    ("Well, it depends on whether Greta changed her mind.", 200, 0.0, "not {"),
    ({"verdict": "same"}, 200, 0.0, "not {"),
    ({"replaces": "yes please"}, 200, 0.0, "not {"),
    ({"replaces": True}, 500, 0.0, "HTTP 500"),
    ({"replaces": True}, 200, 2.0, "did not answer"),
])
def test_a_judge_that_fails_leaves_the_rules_decision(tmp_path, clock, server, answer, status,  # type: ignore[no-untyped-def]
                                                     delay, why):
    Judge.answer, Judge.status, Judge.delay = answer, status, delay
    patience = 0.5 if delay else 30   # the slow judge must outlast the client's patience
    with open_mem(tmp_path, clock, llm_url=server, llm_model="judge-1",
                  llm_timeout=patience) as m:
        judged = m.scope(user="u")
        _, second = pair(judged, "小王喜欢咖啡", "小王喜欢茶")
        assert second.action == Action.ADD
        note = second.evidence["shape_judge"][0]
        assert note["decided_by"] == "rules" and why in note["failed"]
        assert len(list(judged.list(include_superseded=False))) == 2


@pytest.mark.parametrize(("old", "new", "action"), [
    ("Standup is at 9:30", "Standup is at 10:00", Action.SUPERSEDE),
    ("站会在9:30", "站会改到10:00", Action.SUPERSEDE),
    ("Mara lives in Oslo", "Mara works in Oslo", Action.ADD),
    ("李雷的生日是5月3日", "王芳的生日是5月3日", Action.ADD),
    ("Room 101 is booked for Friday", "Room 102 is booked for Friday", Action.ADD),
])
def test_what_the_rules_decide_is_never_asked(judged, old, new, action):  # type: ignore[no-untyped-def]
    _, second = pair(judged, old, new, "fact")
    assert second.action == action and "shape_judge" not in second.evidence
    assert Judge.seen == []


def test_without_a_judge_the_rules_keep_both(tmp_path, clock, server):  # type: ignore[no-untyped-def]
    with open_mem(tmp_path, clock, llm_url=server, llm_model="judge-1",
                  shape_judge="rules") as m:
        me = m.scope(user="u")
        _, second = pair(me, "Sara manages the Berlin office", "Tom manages the Berlin office",
                         "fact")
        assert second.action == Action.ADD and "shape_judge" not in second.evidence
    assert Judge.seen == []


def test_two_people_liking_one_city_are_two_facts_without_a_judge(tmp_path, clock):  # type: ignore[no-untyped-def]
    with open_mem(tmp_path, clock) as m:
        me = m.scope(user="u")
        for old, new in (("Sara likes Berlin", "Tom likes Berlin"),
                         ("Sara manages the Berlin office", "Tom manages the Berlin office")):
            _, second = pair(me, old, new, "fact")
            assert second.action == Action.ADD
        assert len(list(me.list(include_superseded=False))) == 4


@pytest.mark.parametrize(("config", "why"), [
    ({"shape_judge": "maybe"}, "shape_judge must be"),
    ({"shape_judge": ""}, "shape_judge must be"),
    ({"shape_judge": 1}, "shape_judge must be"),
    ({"shape_judge": "llm"}, "needs llm_url"),
])
def test_bad_shape_judge_settings_are_refused(config, why):  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match=why):
        Config(**config)


def test_one_write_asks_the_judge_once_and_the_rules_come_first(judged):  # type: ignore[no-untyped-def]
    judged.remember("Greta likes coffee", kind="preference", at=T0)
    judged.remember("Greta likes green apples", kind="preference", at=T0)
    Judge.seen = []
    Judge.answer = {"replaces": False}
    second = judged.remember("Greta likes tea", kind="preference", at=T0 + timedelta(days=1))
    assert second.action == Action.ADD and len(Judge.seen) == 1
    judged.remember("Standup is at 9:30", kind="fact", at=T0)
    Judge.seen = []
    moved = judged.remember("Standup is at 10:00", kind="fact", at=T0 + timedelta(days=1))
    assert moved.action == Action.SUPERSEDE and Judge.seen == []

"""The mem0-compatible Memory: mem0's own README quick-start runs with only its import
changed, the verbs give mem0's shapes, and bad input gets mem0's ValueError (an engramdb
Invalid too) with nothing written. The OpenAI endpoint is the loopback double."""

from __future__ import annotations

import importlib.metadata
import json
import re
from typing import Any

import pytest

import engramdb
from engramdb import Invalid
from engramdb.integrations.mem0 import Mem0Error, Memory
from openai_double import openai_double

BACKENDS = ("sqlite", "postgres")


def readme_quickstart() -> str:
    """The first python block of mem0's README (the installed package's own text) that
    imports Memory."""
    try:
        readme = importlib.metadata.metadata("mem0ai").get_payload()  # type: ignore[attr-defined]
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("mem0ai is not installed: its README is what this test runs")
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    return next(b for b in blocks if "from mem0 import Memory" in b)


@pytest.fixture
def m0(mem) -> Memory:  # type: ignore[no-untyped-def]
    return Memory(memory=mem)


def test_mem0_readme_quickstart_runs_with_only_the_import_changed(tmp_path, monkeypatch):
    pytest.importorskip("openai")  # the quick-start's own chat client
    code = readme_quickstart()
    assert code.count("from mem0 import Memory") == 1
    code = code.replace("from mem0 import Memory", "from engramdb.integrations.mem0 import Memory")
    lines = iter(["Hi, I'm Alex. I'm a vegetarian and I'm allergic to nuts.",
                  "What should I cook tonight?", "exit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    monkeypatch.setenv("ENGRAMDB_URL", str(tmp_path / "quick.db"))
    monkeypatch.setenv("ENGRAMDB_EMBEDDER", "hashing")
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    with openai_double() as (url, seen):
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        exec(compile(code, "mem0-readme", "exec"), {"__name__": "__main__"})
    assert len(seen) == 2  # one chat completion per user turn
    second_system = seen[1]["body"]["messages"][0]["content"]
    assert "allergic to nuts" in second_system and "vegetarian" in second_system
    with engramdb.open(tmp_path / "quick.db", embedder="hashing") as mem:
        stored = [r.content for r in mem.list(user="default_user")]
    assert "I'm allergic to nuts." in stored


def test_verbs_give_mem0_shapes(m0):  # type: ignore[no-untyped-def]
    added = m0.add([{"role": "user", "content": "I live in Berlin and I love hiking."},
                    {"role": "assistant", "content": "Nice!"}],
                   user_id="alice", metadata={"source": "chat"})
    assert added["results"] and {r["event"] for r in added["results"]} == {"ADD"}
    assert set(added["results"][0]) >= {"id", "memory", "event"}
    found = m0.search("where does she live?", filters={"user_id": "alice"}, top_k=3)
    top = found["results"][0]
    assert set(top) >= {"id", "memory", "hash", "metadata", "score", "created_at",
                        "updated_at", "user_id"}
    assert "agent_id" not in top and top["user_id"] == "alice"
    assert top["metadata"] == {"source": "chat"}  # engramdb's own keys sit under "engramdb"
    assert "Berlin" in top["memory"]
    # the older mem0 call form reaches the same memories
    older = m0.search("where does she live?", user_id="alice", limit=3)["results"]
    assert [r["id"] for r in older] == [r["id"] for r in found["results"]]
    all_of = m0.get_all(filters={"user_id": "alice"})["results"]
    assert {r["id"] for r in all_of} >= {r["id"] for r in added["results"]}
    mid = top["id"]
    assert m0.update(mid, "I live in Oslo now") == {"message": "Memory updated successfully!"}
    assert m0.get(mid)["memory"] == "I live in Oslo now"
    assert m0.get(mid)["metadata"] == {"source": "chat"}
    assert m0.delete(mid) == {"message": "Memory deleted successfully!"}
    assert m0.get(mid) is None
    events = [(h["event"], h["old_memory"], h["new_memory"]) for h in m0.history(mid)]
    assert events == [("ADD", None, top["memory"]),
                      ("UPDATE", top["memory"], "I live in Oslo now"),
                      ("DELETE", "I live in Oslo now", None)]


def test_ids_runs_and_metadata_filters(m0):  # type: ignore[no-untyped-def]
    m0.add("tea with lemon", user_id="bob", run_id="r1", metadata={"n": 1}, infer=False)
    m0.add("coffee black", user_id="bob", run_id="r2", metadata={"n": 5}, infer=False)
    m0.add("green tea", user_id="bob", agent_id="barista", infer=False)
    m0.add("我喜欢喝乌龙茶", user_id="carol", infer=False)
    texts = lambda res: sorted(r["memory"] for r in res["results"])  # noqa: E731
    assert texts(m0.get_all(filters={"user_id": "bob"})) == ["coffee black", "green tea",
                                                            "tea with lemon"]
    assert texts(m0.get_all(filters={"run_id": "r1"})) == ["tea with lemon"]
    assert texts(m0.get_all(filters={"agent_id": "barista"})) == ["green tea"]
    assert texts(m0.get_all(filters={"user_id": "bob", "n": {"gte": 2}})) == ["coffee black"]
    assert texts(m0.get_all(filters={"user_id": "bob", "OR": [{"n": 1}, {"n": 5}]})) == [
        "coffee black", "tea with lemon"]
    assert texts(m0.search("tea", filters={"user_id": "bob", "run_id": "r1"})) == [
        "tea with lemon"]
    assert texts(m0.search("乌龙茶", filters={"user_id": "carol"})) == ["我喜欢喝乌龙茶"]
    assert m0.get_all(filters={"user_id": "bob"}, top_k=1)["results"].__len__() == 1
    assert m0.delete_all(user_id="bob", run_id="r2") == {
        "message": "Memories deleted successfully!"}
    assert texts(m0.get_all(filters={"user_id": "bob"})) == ["green tea", "tea with lemon"]
    m0.reset()
    assert m0.get_all(filters={"user_id": "carol"})["results"] == []


BAD: list[tuple[str, Any]] = [
    ("no ids", lambda m: m.add("hello")),
    ("blank id", lambda m: m.add("hello", user_id="  ")),
    ("spaced id", lambda m: m.add("hello", user_id="a b")),
    ("bad messages", lambda m: m.add(42, user_id="u")),
    ("half-bad list", lambda m: m.add([{"role": "user", "content": "fine"}, {"role": "user"}],
                                      user_id="u", infer=False)),
    ("bad metadata", lambda m: m.add("x", user_id="u", metadata=["a"])),
    ("unknown kind", lambda m: m.add("x", user_id="u", memory_type="episodic")),
    ("search without scope", lambda m: m.search("x")),
    ("empty query", lambda m: m.search("  ", filters={"user_id": "u"})),
    ("bad threshold", lambda m: m.search("x", filters={"user_id": "u"}, threshold=2)),
    ("bad top_k", lambda m: m.get_all(filters={"user_id": "u"}, top_k=-1)),
    ("bad operator", lambda m: m.get_all(filters={"user_id": "u", "n": {"near": 1}})),
    ("missing memory", lambda m: m.update("nope", "x")),
    ("nothing to update", lambda m: m.update("nope")),
    ("delete missing", lambda m: m.delete("nope")),
    ("delete_all unscoped", lambda m: m.delete_all()),
    ("oversized content", lambda m: m.add("x" * 70000, user_id="u", infer=False)),
]


@pytest.mark.parametrize("why,call", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_a_value_error_and_writes_nothing(m0, why, call):  # type: ignore[no-untyped-def]
    m0.add("keep me", user_id="u", infer=False)
    before = [(s, m0.engine.count(user=s.user, agent=s.agent)) for s in m0.engine.scopes()]
    with pytest.raises(ValueError) as info:
        call(m0)
    assert isinstance(info.value, Invalid) and isinstance(info.value, Mem0Error)
    after = [(s, m0.engine.count(user=s.user, agent=s.agent)) for s in m0.engine.scopes()]
    assert after == before


def test_from_config_takes_engramdb_settings_and_ignores_mem0_providers(tmp_path, caplog):
    m = Memory.from_config({"url": str(tmp_path / "c.db"), "embedder": "hashing",
                            "vector_store": {"provider": "qdrant"}})
    try:
        assert m.add("hello there", user_id="u", infer=False)["results"][0]["event"] == "ADD"
        assert "vector_store" in caplog.text
    finally:
        m.close()
    with pytest.raises(engramdb.ConfigError):
        Memory.from_config({"url": str(tmp_path / "d.db"), "no_such_setting": 1})


def test_infer_uses_the_configured_llm_and_tags_what_it_extracts(tmp_path, monkeypatch):
    answer = {"memories": [
        {"category": "fact", "content": "Lives in Lisbon", "slot": "user/residence",
         "turns": [0]},
        {"category": "preference", "content": "喜欢葡式蛋挞", "slot": None, "turns": [2]}]}
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    with openai_double(lambda body: json.dumps(answer, ensure_ascii=False)) as (url, seen):
        m = Memory.from_config({"url": str(tmp_path / "llm.db"), "embedder": "hashing",
                                "llm_url": url, "llm_model": "extractor-1"})
        try:
            out = m.add([{"role": "user", "content": "I live in Lisbon."},
                         {"role": "assistant", "content": "Noted."},
                         {"role": "user", "content": "我喜欢葡式蛋挞"}],
                        user_id="ana", run_id="r1", metadata={"channel": "app"})
            items = m.get_all(filters={"run_id": "r1"})["results"]
        finally:
            m.close()
    assert len(seen) == 1 and seen[0]["body"]["model"] == "extractor-1"
    assert sorted(r["memory"] for r in out["results"]) == ["Lives in Lisbon", "喜欢葡式蛋挞"]
    assert {r["event"] for r in out["results"]} == {"ADD"}
    assert out["engramdb"] == {"extractor": "llm", "fallback_reason": None, "session": "r1"}
    assert all(i["metadata"] == {"channel": "app"} and i["run_id"] == "r1" for i in items)
    assert {i["engramdb"]["metadata"].get("extractor") for i in items} == {"llm"}

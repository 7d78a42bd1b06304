"""recall's ``keywords`` and ``time_context`` (the cognitive-agent package's names, issue 31):
more words to match lexically, and a time the answer falls in given apart from the query, in
English and Chinese; bad input is ``Invalid``; the CLI and HTTP doors pass them through."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

import httpx
import pytest
from typer.testing import CliRunner

from engramdb import Invalid
from live_server import auth, new_key, thread_server

# the clock (conftest) stands at Sunday 2026-03-01: last week is 16-22 February
LAST_WEEK = datetime(2026, 2, 18, 9, tzinfo=UTC)
THIS_WEEK = datetime(2026, 2, 26, 9, tzinfo=UTC)
LAST_YEAR = datetime(2025, 7, 3, 9, tzinfo=UTC)


@pytest.fixture
def trips(mem):  # type: ignore[no-untyped-def]
    made = {}
    for key, text, at in (("en_last", "Went hiking with Anna in the hills", LAST_WEEK),
                          ("en_this", "Went hiking with Anna by the lake", THIS_WEEK),
                          ("en_2025", "Went hiking with Anna in the Alps", LAST_YEAR),
                          ("zh_last", "和小李去香山爬山", LAST_WEEK),
                          ("zh_this", "和小李去西山爬山", THIS_WEEK),
                          ("tent", "Bought a new tent for camping", THIS_WEEK)):
        made[key] = mem.remember(text, kind="event", at=at).memory.id
    return made


def ids(hits) -> list[str]:  # type: ignore[no-untyped-def]
    return [h.memory.id for h in hits]


def test_time_context_in_words_puts_that_time_first(mem, trips):  # type: ignore[no-untyped-def]
    hits = mem.recall("hiking with Anna", k=3, time_context="last week", track=False)
    assert ids(hits)[0] == trips["en_last"]
    assert hits.plan["routing"]["mode"] == "window"
    assert "time_context" in hits.plan["routing"]["reason"]
    zh = mem.recall("和小李爬山", k=2, time_context="上周", track=False)
    assert ids(zh)[0] == trips["zh_last"]
    plain = mem.recall("和小李爬山", k=2, track=False)  # no window: both, either order
    assert set(ids(plain)) == {trips["zh_last"], trips["zh_this"]}


def test_time_context_narrows_it_does_not_erase(mem, trips):  # type: ignore[no-untyped-def]
    hits = mem.recall("hiking with Anna", k=3, time_context="2025", track=False)
    assert ids(hits)[0] == trips["en_2025"]
    assert set(ids(hits)) == {trips["en_2025"], trips["en_last"], trips["en_this"]}


def test_an_explicit_window_each_side_its_whole_unit(mem, trips):  # type: ignore[no-untyped-def]
    for given in ({"start": "2025-07", "end": "2025-07"},
                  (date(2025, 7, 1), "2025-07-31"),
                  {"start": datetime(2025, 7, 1, tzinfo=UTC)},   # open end: since July 2025
                  {"end": "2025-12"}):
        hits = mem.recall("hiking with Anna", k=3, time_context=given, track=False)
        first = trips["en_2025"] if given != {"start": datetime(2025, 7, 1, tzinfo=UTC)} \
            else None
        if first:
            assert ids(hits)[0] == first, given
        else:
            assert len(hits) == 3  # every one of them falls inside
    window = mem.recall("hiking", time_context={"start": "2025-07", "end": "2025-07"},
                        track=False).plan["window"]
    assert (window["start"], window["end"]) == ("2025-07-01T00:00:00+00:00",
                                                "2025-08-01T00:00:00+00:00")


def test_time_context_takes_the_place_of_the_querys_time(mem, trips):  # type: ignore[no-untyped-def]
    hits = mem.recall("hiking with Anna last week", k=3, time_context="2025", track=False)
    assert ids(hits)[0] == trips["en_2025"]
    assert any("gives way" in n for n in hits.plan["notes"])


def test_a_bare_month_given_as_time_context_is_applied(mem, trips):  # type: ignore[no-untyped-def]
    hits = mem.recall("hiking with Anna", k=3, time_context="in July", track=False)
    assert hits.plan["routing"]["mode"] == "window" and ids(hits)[0] == trips["en_2025"]


def test_keywords_match_lexically(mem, trips):  # type: ignore[no-untyped-def]
    hits = mem.recall("what did I do", k=1, keywords=["tent"], track=False)
    assert ids(hits) == [trips["tent"]]
    zh = mem.recall("我做了什么", k=1, keywords="香山", track=False)
    assert ids(zh) == [trips["zh_last"]]
    both = mem.recall("hiking", k=1, keywords=["lake", "湖"], track=False)
    assert ids(both) == [trips["en_this"]]
    assert "keywords: lake" in " ".join(both.plan["notes"])
    assert ids(mem.recall("hiking", k=3, keywords=[], track=False))  # none: as without


@pytest.mark.parametrize(("args", "says"), [
    ({"keywords": 42}, "keywords must be a string or a list"),
    ({"keywords": ["ok", 7]}, "keywords must be strings"),
    ({"keywords": {"a": 1}}, "a string or a list of strings, got dict"),
    ({"keywords": ["w"] * 65}, "at most 64"),
    ({"keywords": ["\ud800"]}, "valid text"),
    ({"time_context": 5}, "time_context must be"),
    ({"time_context": "   "}, "time_context is empty"),
    ({"time_context": "whenever"}, "names no time"),
    ({"time_context": "随便什么时候"}, "names no time"),
    ({"time_context": {"from": "2025"}}, "takes start and end"),
    ({"time_context": {}}, "give a start, an end or both"),
    ({"time_context": ("2025-03", "2025-01")}, "must come before"),
    ({"time_context": {"start": "March"}}, "time_context start"),
    ({"time_context": {"end": 2025}}, "time_context end must be"),
    ({"time_context": ["2025"]}, "time_context must be"),
])
def test_bad_keywords_and_time_context_are_invalid(mem, trips, args, says):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match=says):
        mem.recall("hiking", **args)


def test_the_cli_passes_them_through(tmp_path):  # type: ignore[no-untyped-def]
    from engramdb.cli import app

    db, env = str(tmp_path / "m.db"), {"ENGRAMDB_EMBEDDER": "hashing"}
    run = CliRunner().invoke
    for text, at in (("Went hiking with Anna in the Alps", "2025-07-03"),
                     ("Went hiking with Anna by the lake", "2026-02-26"),
                     ("买了一顶新帐篷", "2026-02-26")):
        assert run(app, ["--db", db, "--create", "remember", text, "--kind", "event",
                         "--at", at], env=env).exit_code == 0
    got = run(app, ["--db", db, "--json", "recall", "hiking", "--time-context", "2025"], env=env)
    assert json.loads(got.output)["hits"][0]["memory"]["content"].endswith("Alps")
    got = run(app, ["--db", db, "--json", "recall", "我买了什么", "-k", "1", "--keyword", "帐篷"],
              env=env)
    assert json.loads(got.output)["hits"][0]["memory"]["content"] == "买了一顶新帐篷"
    bad = run(app, ["--db", db, "recall", "hiking", "--time-context", "whenever"], env=env)
    assert bad.exit_code == 4 and "names no time" in bad.output


def test_the_http_door_passes_them_through(mem, trips):  # type: ignore[no-untyped-def]
    key = new_key(mem, "read", user="default", agent="default")
    with thread_server(mem) as base:
        post = lambda body: httpx.post(f"{base}/v1/recall", json=body, headers=auth(key))  # noqa: E731
        got = post({"query": "hiking with Anna", "time_context": "2025"})
        assert got.status_code == 200 and got.json()["hits"][0]["memory"]["id"] == \
            trips["en_2025"]
        got = post({"query": "hiking with Anna", "time_context": {"start": "2026-02-16",
                                                                   "end": "2026-02-22"}})
        assert got.json()["hits"][0]["memory"]["id"] == trips["en_last"]
        got = post({"query": "what did I do", "k": 1, "keywords": ["tent"]})
        assert [h["memory"]["id"] for h in got.json()["hits"]] == [trips["tent"]]
        for bad in ({"query": "x", "keywords": "tent"}, {"query": "x", "time_context": 3},
                    {"query": "x", "time_context": {"begin": "2025"}}):
            assert post(bad).status_code == 422, bad
        wrong = post({"query": "x", "time_context": "whenever"})
        assert wrong.status_code == 422 and "names no time" in wrong.json()["error"]["message"]


def test_a_naive_time_context_is_utc(mem, trips):  # type: ignore[no-untyped-def]
    """A datetime without a time zone is read as UTC, as everywhere (clock.aware)."""
    naive = mem.recall("hiking", time_context={"start": datetime(2025, 1, 1)}, track=False)
    aware = mem.recall("hiking", time_context={"start": datetime(2025, 1, 1, tzinfo=UTC)},
                       track=False)
    assert [h.memory.id for h in naive] == [h.memory.id for h in aware]

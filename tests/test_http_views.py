"""The /v1 routes behind the web page's pictures (server/views.py) over a real uvicorn
server and a seeded store (tests/web_seed.py): the timeline, a memory's strength curve,
lineage and link neighbourhood, the sleep log; keys, scopes and bad input (4xx in the error
shape). The curve is checked against the strength formula itself: a projected point is the
weight explain() gives once the clock gets there."""

from __future__ import annotations

from datetime import datetime, timedelta

import httpx
import pytest

from live_server import auth, new_key, thread_server
from test_http import error
from web_seed import seed

NOSUCH = "01NOSUCHIDNOSUCHIDNOSUCHID"


@pytest.fixture
def site(tmp_path):  # type: ignore[no-untyped-def]
    s = seed(tmp_path / "memory.db")
    with thread_server(s.mem) as url, httpx.Client(
            base_url=url, headers=auth(new_key(s.mem, "read")), timeout=30) as api:
        yield s, api, url
    s.mem.close()


def test_the_timeline_has_points_spans_superseded_and_archived(site):  # type: ignore[no-untyped-def]
    s, api, _ = site
    body = api.get("/v1/timeline").json()
    items = {i["id"]: i for i in body["items"]}
    assert body["now"] == s.clock.now().isoformat() and body["truncated"] is False
    assert [i["at"] for i in body["items"]] == sorted(i["at"] for i in body["items"])
    lisbon, berlin = items[s.lisbon], items[s.berlin]
    assert (lisbon["shape"], lisbon["superseded"], lisbon["superseded_by"]) == (
        "span", True, s.berlin)
    assert lisbon["invalid_at"] == berlin["valid_from"] and berlin["invalid_at"] is None
    assert (items[s.archived]["shape"], items[s.archived]["layer"]) == ("point", "archived")
    assert items[s.gist]["kind"] == "gist"
    assert "我最喜欢的菜是饺子" in {i["content"] for i in body["items"]}
    # a window: what happened in it and what still held in it (Lisbon held until 2025-11-23)
    window = api.get("/v1/timeline", params={"since": "2025-11-10T00:00:00Z",
                                             "until": "2025-12-01T00:00:00Z"}).json()
    ids = {i["id"] for i in window["items"]}
    assert {s.lisbon, s.berlin} <= ids and s.archived not in ids
    kickoff = api.get("/v1/timeline", params={"since": "2025-06-01T00:00:00Z",
                                              "until": "2025-07-01T00:00:00Z"}).json()
    assert [i["content"] for i in kickoff["items"]] == ["Kickoff of the engramdb project"]
    few = api.get("/v1/timeline", params={"limit": 2}).json()
    assert few["truncated"] is True and len(few["items"]) == 2


def test_a_projected_point_is_the_weight_explain_gives_later(site):  # type: ignore[no-untyped-def]
    s, api, _ = site
    fresh = s.me.remember("Dentist appointment", kind="event").memory.id
    curve = api.get(f"/v1/memories/{fresh}/curve", params={"ahead_days": 30,
                                                          "points": 31}).json()
    assert curve["half_life_days"] == 14 and curve["archive_below"] == 0.15
    now = datetime.fromisoformat(curve["now"])
    last = curve["points"][-1]
    assert datetime.fromisoformat(last["at"]) == now + timedelta(days=30) and last["projected"]
    assert not curve["points"][0]["projected"] and curve["uses"] == []
    # unused P3 event: 0.5 ** (t / 14) falls under 0.15 after about 38 days; not within 30
    assert curve["archive_at"] is None
    longer = api.get(f"/v1/memories/{fresh}/curve", params={"ahead_days": 60}).json()
    assert 38 <= (datetime.fromisoformat(longer["archive_at"]) - now).days <= 40
    s.clock.advance(days=30)
    later = api.get(f"/v1/memories/{fresh}/strength").json()
    assert later["weight"] == pytest.approx(last["weight"], abs=1e-6)


def test_a_used_memory_s_curve_has_its_uses_and_weighs_now_what_explain_says(site):  # type: ignore[no-untyped-def]
    s, api, _ = site
    curve = api.get(f"/v1/memories/{s.berlin}/curve").json()
    now_point = next(p for p in curve["points"] if p["at"] == curve["now"])
    weight = api.get(f"/v1/memories/{s.berlin}/strength").json()["weight"]
    assert now_point["weight"] == pytest.approx(weight, abs=1e-6) == curve["weight_now"]
    assert len(curve["uses"]) == 3 and curve["uses_not_kept"] == 0
    assert [c["op"] for c in curve["changes"]][:1] == ["create"]
    # each use lifts the weight: right after it the curve is higher than just before
    before = [p for p in curve["points"] if p["at"] < curve["uses"][0]["at"]][-1]
    assert curve["uses"][0]["weight"] > before["weight"]


def test_lineage_chain_gist_sources_and_turns(site):  # type: ignore[no-untyped-def]
    s, api, _ = site
    chain = api.get(f"/v1/memories/{s.berlin}/lineage").json()["chain"]
    assert [(c["id"], c["current"]) for c in chain] == [(s.lisbon, False), (s.berlin, True)]
    gist = api.get(f"/v1/memories/{s.gist}/lineage").json()
    assert [m["content"] for m in gist["gist_sources"]][0].startswith("Went to Harbin")
    assert len(gist["gist_sources"]) == 3 and len(gist["sentences"]) == 3
    assert gist["levels"] == [gist["gist_sources"]]  # a gist of episodes: one level down
    source = gist["gist_sources"][0]["id"]
    assert [g["id"] for g in api.get(f"/v1/memories/{source}/lineage").json()["gists"]] == [
        s.gist]
    turns = api.get(f"/v1/memories/{s.lisbon}/lineage").json()["turns"]
    assert [(t["kind"], t["content"]) for t in turns] == [("event", "I live in Lisbon now.")]


def test_graph_neighbours_by_relation(site):  # type: ignore[no-untyped-def]
    s, api, _ = site
    g = api.get(f"/v1/memories/{s.berlin}/graph").json()
    assert g["centre"]["id"] == s.berlin and g["truncated"] is False
    rels = {(x["source"], x["target"], x["relation"]) for x in g["links"]}
    assert (s.berlin, s.archived, "related") in rels and (s.archived, s.berlin, "caused") in rels
    assert "reminds" in {x["relation"] for x in g["links"]}
    weights = [x["weight"] for x in g["links"]]
    one = api.get(f"/v1/memories/{s.berlin}/graph", params={"limit": 1}).json()
    assert one["truncated"] is True and len(one["nodes"]) == 1
    assert one["links"][0]["weight"] == max(weights)


def test_the_sleep_log_reads_each_sleep_back_from_the_events(site):  # type: ignore[no-untyped-def]
    s, api, _ = site
    log = api.get("/v1/sleeps").json()
    assert log["last_at"] == "2026-01-20T09:00:00+00:00" and log["complete"] is True
    (first,) = log["sleeps"]
    assert first["phases"] == {"decay": {"archive": 5},
                               "consolidate": {"consolidate": 3, "create": 1}}
    assert s.gist in first["ids"] and first["memories"] == 6
    s.clock.advance(days=90)
    report = s.me.sleep()
    archived = report.phase("decay").counts().get("archived", 0)
    log = api.get("/v1/sleeps").json()
    assert [r["at"] for r in log["sleeps"]] == [report.at.isoformat(), first["at"]]
    assert log["sleeps"][0]["phases"].get("decay", {}).get("archive", 0) == archived > 0
    assert len(api.get("/v1/sleeps", params={"limit": 1}).json()["sleeps"]) == 1


@pytest.mark.parametrize(("path", "params", "status", "code"), [
    ("/v1/timeline", {"limit": 0}, 422, "invalid"),
    ("/v1/timeline", {"limit": "many"}, 422, "invalid"),
    ("/v1/timeline", {"since": "yesterday"}, 422, "invalid"),
    ("/v1/timeline", {"since": "2026-01-02T00:00:00Z", "until": "2026-01-01T00:00:00Z"},
     422, "invalid"),
    ("/v1/timeline", {"since": "2026-01-02T00:00:00+25:00"}, 422, "invalid"),  # no such zone
    ("/v1/memories/{id}/curve", {"ahead_days": -1}, 422, "invalid"),
    ("/v1/memories/{id}/curve", {"ahead_days": 99999}, 422, "invalid"),
    ("/v1/memories/{id}/curve", {"points": 1}, 422, "invalid"),
    ("/v1/memories/{id}/graph", {"limit": 0}, 422, "invalid"),
    ("/v1/sleeps", {"limit": 51}, 422, "invalid"),
    ("/v1/sleeps", {"limit": "x"}, 422, "invalid"),
    (f"/v1/memories/{NOSUCH}/curve", {}, 404, "not_found"),
    (f"/v1/memories/{NOSUCH}/lineage", {}, 404, "not_found"),
    (f"/v1/memories/{NOSUCH}/graph", {}, 404, "not_found"),
])
def test_bad_input_is_a_4xx_in_the_error_shape(site, path, params, status, code):  # type: ignore[no-untyped-def]
    s, api, _ = site
    error(api.get(path.replace("{id}", s.berlin), params=params), status, code)


def test_keys_and_scopes(site):  # type: ignore[no-untyped-def]
    s, api, url = site
    error(httpx.get(url + "/v1/timeline"), 401, "unauthorized")
    bob = auth(new_key(s.mem, "read", user="bob"))
    assert httpx.get(url + "/v1/timeline", headers=bob).json()["items"] == []
    for part in ("curve", "lineage", "graph"):  # alice's memory is not found for bob
        error(httpx.get(f"{url}/v1/memories/{s.berlin}/{part}", headers=bob), 404, "not_found")
    assert httpx.get(url + "/v1/sleeps", headers=bob).json() == {
        "last_at": None, "sleeps": [], "complete": True}

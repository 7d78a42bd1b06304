"""Typed links between memories: link, unlink, links, related, recall_path, and bad input."""

from __future__ import annotations

import pytest

from engramdb import Conflict, Invalid, Link, NotFound


def three(me):  # type: ignore[no-untyped-def]
    a = me.remember("The build failed on Friday", kind="event").memory
    b = me.remember("We pinned numpy to 1.26 after the failure", kind="event").memory
    c = me.remember("Release 2.0 shipped on Monday", kind="event").memory
    return a, b, c


def test_link_is_typed_directed_and_listed_from_both_ends(me, clock):  # type: ignore[no-untyped-def]
    a, b, _ = three(me)
    link = me.link(a.id, b.id, relation="caused", weight=0.9)
    assert isinstance(link, Link)
    assert (link.source, link.target, link.relation, link.weight) == (a.id, b.id, "caused", 0.9)
    assert link.created_at == clock.now()
    assert me.links(a.id) == [link] == me.links(b.id)


def test_linking_again_sets_the_weight_and_keeps_the_creation_time(me, clock):  # type: ignore[no-untyped-def]
    a, b, _ = three(me)
    first = me.link(a.id, b.id, "caused", 0.4)
    clock.advance(days=1)
    again = me.link(a.id, b.id, "caused", 0.7)
    assert again.created_at == first.created_at and again.updated_at == clock.now()
    assert [(x.relation, x.weight) for x in me.links(a.id)] == [("caused", 0.7)]


def test_links_accept_uris_and_default_to_related(me):  # type: ignore[no-untyped-def]
    a = me.remember("The config lives in ~/.engramdb.toml", uri="project://engramdb/config").memory
    b = me.remember("Presets are chosen by intent", kind="fact").memory
    link = me.link("project://engramdb/config", b.id)
    assert (link.source, link.relation, link.weight) == (a.id, "related", 0.5)


def test_unlink_removes_both_directions_or_one_relation(me):  # type: ignore[no-untyped-def]
    a, b, _ = three(me)
    me.link(a.id, b.id, "caused", 0.9)
    me.link(b.id, a.id, "reminds", 0.3)
    me.link(a.id, b.id, "related", 0.3)
    assert me.unlink(a.id, b.id, "related") == 1
    assert {x.relation for x in me.links(a.id)} == {"caused", "reminds"}
    assert me.unlink(b.id, a.id) == 2
    assert me.links(a.id) == []
    assert me.unlink(a.id, b.id) == 0


def test_related_walks_both_ways_with_the_strongest_path_first(me):  # type: ignore[no-untyped-def]
    a, b, c = three(me)
    me.link(a.id, b.id, "caused", 0.9)
    me.link(c.id, b.id, "evolved", 0.5)
    one = me.related(b.id, hops=1)
    assert [h.memory.id for h in one] == [a.id, c.id]
    assert one[0].score == pytest.approx(0.9)
    assert "caused <-" in one[0].explanation.notes[0]
    two = me.related(a.id, hops=2)
    assert [(h.memory.id, round(h.score, 3)) for h in two] == [(b.id, 0.9), (c.id, 0.45)]
    assert [h.memory.id for h in me.related(a.id, hops=1)] == [b.id]


def test_cycles_end_and_each_memory_comes_once(me):  # type: ignore[no-untyped-def]
    a, b, c = three(me)
    me.link(a.id, b.id, "related", 0.8)
    me.link(b.id, c.id, "related", 0.8)
    me.link(c.id, a.id, "related", 0.8)
    found = me.related(a.id, hops=3)
    assert sorted(h.memory.id for h in found) == sorted([b.id, c.id])


def test_recall_path_returns_the_uri_or_prefix_and_what_is_linked(me):  # type: ignore[no-untyped-def]
    cfg = me.remember("Config is TOML", uri="project://engramdb/config").memory
    cli = me.remember("The CLI uses typer", uri="project://engramdb/cli").memory
    other = me.remember("Tea with Li on Sunday", kind="event").memory
    me.link(cfg.id, other.id, "reminds", 0.6)
    assert [h.memory.id for h in me.recall_path("project://engramdb/config")] == [cfg.id]
    assert [h.memory.id for h in me.recall_path("project://engramdb/")] == [cli.id, cfg.id]
    with_links = me.recall_path("project://engramdb/config", hops=1)
    assert [h.memory.id for h in with_links] == [cfg.id, other.id]
    with pytest.raises(NotFound):
        me.recall_path("project://nothing/here")


def test_forgotten_memories_are_not_walked_and_erased_ones_lose_their_links(me):  # type: ignore[no-untyped-def]
    a, b, c = three(me)
    me.link(a.id, b.id, "caused", 0.9)
    me.link(a.id, c.id, "related", 0.9)
    me.forget(b.id)
    assert [h.memory.id for h in me.related(a.id, hops=1)] == [c.id]
    with pytest.raises(Conflict):
        me.link(b.id, c.id)
    me.forget(c.id, hard=True)
    assert [x.target for x in me.links(a.id)] == [b.id]


def test_dropping_a_scope_drops_its_links(mem):  # type: ignore[no-untyped-def]
    alice, bob = mem.scope(user="alice"), mem.scope(user="bob")
    a, b, _ = three(alice)
    x, y, _ = three(bob)
    alice.link(a.id, b.id, "caused", 0.9)
    bob.link(x.id, y.id, "caused", 0.9)
    alice.forget_scope()
    assert mem.store.link_count(alice.memory._scope("alice", None)) == 0
    assert len(bob.links(x.id)) == 1


@pytest.mark.parametrize("bad", [
    {"relation": "loves"}, {"relation": ""}, {"weight": 1.5}, {"weight": -0.1},
    {"weight": "0.5"}, {"weight": True},
])
def test_bad_relation_or_weight_is_invalid_and_writes_nothing(me, bad):  # type: ignore[no-untyped-def]
    a, b, _ = three(me)
    with pytest.raises(Invalid):
        me.link(a.id, b.id, **bad)
    assert me.links(a.id) == []


def test_missing_self_and_other_scope_memories_are_refused(mem, me):  # type: ignore[no-untyped-def]
    a, _, _ = three(me)
    theirs = mem.scope(user="bob").remember("Bob's secret plan", kind="fact").memory
    with pytest.raises(NotFound):
        me.link(a.id, "01NOSUCHMEMORY000000000000")
    with pytest.raises(NotFound):
        me.link(a.id, theirs.id)
    with pytest.raises(Invalid):
        me.link(a.id, a.id)
    with pytest.raises(Invalid):
        me.unlink(a.id, a.id, relation="nope")
    assert me.links(a.id) == []


@pytest.mark.parametrize("hops", [4, -1, 1.5, "2", True])
def test_hops_outside_the_cap_are_invalid(me, hops):  # type: ignore[no-untyped-def]
    a, _, _ = three(me)
    with pytest.raises(Invalid):
        me.related(a.id, hops=hops)
    with pytest.raises(Invalid):
        me.recall_path("project://x/", hops=hops)


def test_related_needs_at_least_one_hop(me):  # type: ignore[no-untyped-def]
    a, _, _ = three(me)
    with pytest.raises(Invalid):
        me.related(a.id, hops=0)


def test_chinese_memories_link_and_walk(me):  # type: ignore[no-untyped-def]
    a = me.remember("和小王去北海道滑雪", kind="event").memory
    b = me.remember("北海道的雪季从十二月开始", kind="fact").memory
    me.link(a.id, b.id, "reminds", 0.8)
    assert [h.memory.content for h in me.related(a.id, hops=1)] == ["北海道的雪季从十二月开始"]


# ---------------------------------------------------------------- the CLI door


def test_cli_link_related_path_and_recall_explain(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    import json

    from typer.testing import CliRunner

    from engramdb.cli import app

    for name in ("URL", "USER", "AGENT", "EMBEDDER", "CONFIG", "PRESET"):
        monkeypatch.delenv(f"ENGRAMDB_{name}", raising=False)
    runner = CliRunner()
    db = str(tmp_path / "m.db")

    def run(*args: str, code: int = 0):  # type: ignore[no-untyped-def]
        result = runner.invoke(app, ["--db", db, "--create", *args],
                               env={"ENGRAMDB_EMBEDDER": "hashing", "COLUMNS": "200"})
        assert result.exit_code == code, (result.stdout, result.stderr)
        if code:
            assert result.stderr.startswith("error: ") and "Traceback" not in result.output
        return result

    fail = json.loads(run("remember", "The build failed on Friday", "--kind", "event",
                          "--json").stdout)["memory"]["id"]
    pin = json.loads(run("remember", "numpy 2.0 broke the wheels", "--uri",
                         "project://ci/numpy", "--json").stdout)["memory"]["id"]
    made = json.loads(run("link", "project://ci/numpy", fail, "--relation", "caused",
                          "--weight", "0.9", "--json").stdout)
    assert (made["source"], made["target"], made["relation"]) == (pin, fail, "caused")
    assert "caused" in run("links", fail).stdout
    rel = json.loads(run("related", fail, "--hops", "2", "--json").stdout)
    assert [h["memory"]["id"] for h in rel] == [pin]
    assert "caused" in run("related", fail).stdout
    at = json.loads(run("path", "project://ci/", "--hops", "1", "--json").stdout)
    assert [h["memory"]["id"] for h in at] == [pin, fail]
    shown = run("recall", "why did the build fail", "--explain", "--no-track",
                "--preset", "lexical")
    assert "intent: causal (preset lexical" in shown.stderr
    assert "associated: activation" in shown.stdout and "caused" in shown.stdout
    assert run("recall", "why did the build fail", "--json").stdout.count('"intent"') == 1
    # the tracked recall above returned both: co-activation linked them, both ways
    assert "associated" in run("links", fail).stdout
    assert "removed 3 link(s)" in run("unlink", fail, pin).stdout
    assert "unknown relation" in run("link", fail, pin, "--relation", "loves", code=4).stderr
    assert "weight" in run("link", fail, pin, "--weight", "2", code=4).stderr
    assert "hops" in run("related", fail, "--hops", "9", code=4).stderr
    assert run("link", fail, "01NOSUCHMEMORY000000000000", code=3).stderr
    assert run("path", "project://nothing/", code=3).stderr


def test_links_travel_with_export_import_and_snapshots(mem, me, tmp_path):  # type: ignore[no-untyped-def]
    import io

    import engramdb

    a, b, c = three(me)
    me.link(a.id, b.id, "caused", 0.9)
    me.link(b.id, c.id, "evolved", 0.4)
    buf = io.StringIO()
    me.export(buf)
    with engramdb.open(tmp_path / "copy.db", embedder="hashing") as other:
        other.import_(io.StringIO(buf.getvalue()))
        copy = other.scope(user="alice", agent="noah")
        assert [(x.relation, x.weight) for x in copy.links(b.id)] == [("caused", 0.9),
                                                                      ("evolved", 0.4)]
    snap = tmp_path / "snap.jsonl"
    me.snapshot(snap)
    me.unlink(a.id, b.id)
    me.link(a.id, c.id, "reminds", 0.2)
    me.restore_snapshot(snap)
    assert [(x.source, x.relation) for x in me.links(a.id)] == [(a.id, "caused")]


def test_a_bad_link_line_rejects_the_import(mem, me):  # type: ignore[no-untyped-def]
    import io
    import json

    a, b, _ = three(me)
    me.link(a.id, b.id, "caused", 0.9)
    buf = io.StringIO()
    me.export(buf)
    lines = buf.getvalue().splitlines()
    bad = json.loads(lines[-1])
    bad["link"]["relation"] = "loves"
    text = "\n".join([*lines[:-1], json.dumps(bad)])
    other = mem.scope(user="carol")
    with pytest.raises(Invalid, match="bad link line"):
        other.memory.import_(io.StringIO(text))

"""recall(uri_prefix=...): only memories under the prefix fill the k places, however many
stronger matches live elsewhere in the scope; a bad prefix is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

import engramdb
from engramdb.errors import Invalid


@pytest.fixture
def mem(tmp_path: Path):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing") as m:
        for i in range(12):   # strong matches outside the prefix
            m.remember(f"The billing service deploy {i} failed on Friday", kind="event",
                       uri=f"project://billing/deploy-{i}")
        m.remember("The search service deploy failed once", kind="event",
                   uri="project://search/deploy-1")
        m.remember("搜索服务的部署周五失败了", kind="event", uri="project://search/deploy-2")
        m.remember("计费服务的部署周五失败了", kind="event", uri="project://billing/deploy-zh")
        yield m


def test_only_the_prefix_fills_the_places(mem) -> None:  # type: ignore[no-untyped-def]
    everywhere = mem.recall("which deploy failed on Friday?", k=3, track=False)
    assert all(h.memory.uri.startswith("project://billing/") for h in everywhere)
    hits = mem.recall("which deploy failed on Friday?", k=3, track=False,
                      uri_prefix="project://search/")
    assert {h.memory.uri for h in hits} == {"project://search/deploy-1",
                                            "project://search/deploy-2"}
    assert hits.plan["within"] == "project://search/"


def test_chinese_question_within_a_prefix(mem) -> None:  # type: ignore[no-untyped-def]
    hits = mem.recall("哪个部署周五失败了", k=2, track=False, uri_prefix="project://search/")
    assert hits and hits[0].memory.uri == "project://search/deploy-2"
    assert all(h.memory.uri.startswith("project://search/") for h in hits)


def test_kinds_and_prefix_together(mem) -> None:  # type: ignore[no-untyped-def]
    mem.remember("Search deploys need a green canary first", kind="rule",
                 uri="project://search/rules/canary")
    hits = mem.recall("search deploy", k=5, track=False, kinds=["rule"],
                      uri_prefix="project://search/")
    assert [h.memory.uri for h in hits] == ["project://search/rules/canary"]


def test_nothing_under_the_prefix_abstains(mem) -> None:  # type: ignore[no-untyped-def]
    hits = mem.recall("deploy failed", k=3, track=False, uri_prefix="project://payroll/")
    assert len(hits) == 0 and hits.abstained


@pytest.mark.parametrize("bad", ["nowhere", "bogus://x/", 7, ""])
def test_bad_prefix_is_refused(mem, bad) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid):
        mem.recall("deploy", uri_prefix=bad)


def test_the_doors_pass_the_prefix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's --uri-prefix reaches the engine (HTTP and MCP pass the same field)."""
    import json

    from typer.testing import CliRunner

    from engramdb.cli.app import app

    db = tmp_path / "m.db"
    monkeypatch.setenv("ENGRAMDB_EMBEDDER", "hashing")
    with engramdb.open(db) as m:
        m.remember("The billing deploy failed", kind="event", uri="project://billing/d1")
        m.remember("The search deploy failed", kind="event", uri="project://search/d1")
    out = CliRunner().invoke(app, ["--db", str(db), "--json", "recall", "deploy failed",
                                   "--uri-prefix", "project://search/"])
    assert out.exit_code == 0, out.output
    assert [h["memory"]["uri"] for h in json.loads(out.stdout)["hits"]] == ["project://search/d1"]
    bad = CliRunner().invoke(app, ["--db", str(db), "recall", "deploy", "--uri-prefix", "x"])
    assert bad.exit_code != 0 and "prefix" in bad.output

"""Markdown import of other systems' profile files: a sleep-cycle memory file's "## About me"
section (and "## 关于我") imports as identity; a layered-memory profile's own ``known_gaps:``,
``growth_edges:`` and ``open_questions:`` lines import as the GROWTH zone's self-knowledge,
not as dated log entries, and an export migrates back into the same zone."""

from __future__ import annotations

from pathlib import Path

import pytest

from engramdb.io.mdparse import about_the_user, parse

SLEEP_CYCLE = """# Agent memory

## About me
- Name: Alice Chen
- Works as a data engineer at Acme since 2024-03-01
- 2025-01-10: moved to Berlin
- Prefers tea over coffee

## Notes
- The deploy key rotates every 90 days
"""

SLEEP_CYCLE_ZH = """# 记忆

## 关于我
- 名字：王芳
- 从 2024-05-01 起在杭州做数据工程师
- 喜欢用 Python 写脚本

## 笔记
- 部署密钥每 90 天轮换一次
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_about_me_imports_as_identity(me, tmp_path):  # type: ignore[no-untyped-def]
    plan = me.migrate(_write(tmp_path, "memory.md", SLEEP_CYCLE), backup=tmp_path / "b.jsonl")
    got = {r.content: r for r in me.list()}
    assert plan.problems == []
    for text in ("Name: Alice Chen", "Works as a data engineer at Acme since 2024-03-01",
                 "moved to Berlin"):
        assert got[text].kind.value == "identity" and got[text].metadata["zone"] == "IDENTITY"
    assert got["Prefers tea over coffee"].kind.value == "preference"
    assert got["The deploy key rotates every 90 days"].kind.value == "fact"  # the next section


def test_guan_yu_wo_imports_as_identity(me, tmp_path):  # type: ignore[no-untyped-def]
    me.migrate(_write(tmp_path, "记忆.md", SLEEP_CYCLE_ZH), backup=tmp_path / "b.jsonl")
    got = {r.content: r for r in me.list()}
    assert got["名字：王芳"].kind.value == "identity"
    assert got["从 2024-05-01 起在杭州做数据工程师"].kind.value == "identity"
    assert got["喜欢用 Python 写脚本"].kind.value == "preference"
    assert got["部署密钥每 90 天轮换一次"].kind.value == "fact"


@pytest.mark.parametrize("heading, about", [
    ("About me", True), ("About myself", True), ("Who I am", True), ("Me", True),
    ("关于我", True), ("关于我自己", True), ("我是谁", True),
    ("About us", False), ("My projects", False), ("Notes about me and Rust", False),
    ("我的项目", False), ("关于我们", False), ("", False), ("2026-02-01", False),
])
def test_a_section_about_the_user_is_told_by_its_heading(heading, about):  # type: ignore[no-untyped-def]
    assert about_the_user(heading) is about


PROFILE = """# MEMORY.md

## IDENTITY
- [PERMANENT] My name is Alice

## GROWTH
- known_gaps: Rust lifetimes and async
- growth_edges: writing design docs for others
- open_questions: should the team move to Postgres?
- [LOG] 2026-02-14: shipped v1.2 with the new importer
"""

PROFILE_LISTS = """## GROWTH
known_gaps:
  - Kubernetes networking
  - SQL window functions
open_questions:
- which queue to use for the billing jobs
"""

PROFILE_ZH = """## 成长
- 成长方向：带新人做代码评审
- 待解决的问题：要不要把任务队列换成 Kafka
- 我的短板：前端性能调优
- 2026-02-01: 第一次做技术分享
"""


def growth(me):  # type: ignore[no-untyped-def]
    return {r.content: r for r in me.list() if r.metadata.get("zone") == "GROWTH"}


def test_profile_growth_lines_import_as_growth_not_the_log(me, tmp_path, clock):  # type: ignore[no-untyped-def]
    plan = me.migrate(_write(tmp_path, "MEMORY.md", PROFILE), backup=tmp_path / "b.jsonl")
    assert plan.problems == [] and plan.zones["GROWTH"] == 4
    got = growth(me)
    for text in ("known_gaps: Rust lifetimes and async",
                 "growth_edges: writing design docs for others",
                 "open_questions: should the team move to Postgres?"):
        assert got[text].kind.value == "fact"   # self-knowledge, undated
    assert got["shipped v1.2 with the new importer"].kind.value == "event"
    lines = me.export_memory_md().split("## GROWTH\n", 1)[1].splitlines()
    assert lines[:3] == ["- [CONTEXTUAL] known_gaps: Rust lifetimes and async",
                         "- [CONTEXTUAL] growth_edges: writing design docs for others",
                         "- [CONTEXTUAL] open_questions: should the team move to Postgres?"]
    assert lines[3] == "- [LOG] 2026-02-14: shipped v1.2 with the new importer"


def test_a_key_line_leads_the_list_under_it(me, tmp_path):  # type: ignore[no-untyped-def]
    me.migrate(_write(tmp_path, "MEMORY.md", PROFILE_LISTS), backup=tmp_path / "b.jsonl")
    assert set(growth(me)) == {"known_gaps: Kubernetes networking",
                               "known_gaps: SQL window functions",
                               "open_questions: which queue to use for the billing jobs"}
    assert {r.kind.value for r in growth(me).values()} == {"fact"}


def test_growth_keys_outside_a_zone_still_go_to_growth(me, tmp_path):  # type: ignore[no-untyped-def]
    flat = "- known_gaps: never tested the restore path\n- The API runs on port 8420\n"
    plan = me.migrate(_write(tmp_path, "notes.md", flat), dry_run=True)
    zones = {p.entry.text: (p.zone, p.kind.value) for p in plan.planned}
    assert zones["known_gaps: never tested the restore path"] == ("GROWTH", "fact")
    assert zones["The API runs on port 8420"] == ("QUICKREF", "fact")


def test_chinese_growth_lines(me, tmp_path):  # type: ignore[no-untyped-def]
    me.migrate(_write(tmp_path, "MEMORY.md", PROFILE_ZH), backup=tmp_path / "b.jsonl")
    got = growth(me)
    for text in ("成长方向：带新人做代码评审", "待解决的问题：要不要把任务队列换成 Kafka",
                 "我的短板：前端性能调优"):
        assert got[text].kind.value == "fact"
    assert got["第一次做技术分享"].kind.value == "event"


@pytest.mark.parametrize("text", [PROFILE, PROFILE_LISTS, PROFILE_ZH])
def test_export_then_import_keeps_growth_in_its_zone(mem, tmp_path, text):  # type: ignore[no-untyped-def]
    src, dst = mem.scope(user="a"), mem.scope(user="b")
    src.migrate(_write(tmp_path, "in.md", text), backup=tmp_path / "b1.jsonl")
    out = _write(tmp_path, "out.md", src.export_memory_md())
    plan = dst.migrate(out, backup=tmp_path / "b2.jsonl")
    assert plan.problems == []
    assert {(r.content, r.kind) for r in growth(dst).values()} == \
        {(r.content, r.kind) for r in growth(src).values()}
    assert dst.export_memory_md().split("-->", 1)[1] == src.export_memory_md().split("-->", 1)[1]
    again = src.migrate(out, backup=tmp_path / "b3.jsonl")
    assert set(again.actions) == {"noop"}


def test_bad_profile_input_is_reported_not_raised(me, tmp_path):  # type: ignore[no-untyped-def]
    text = "## GROWTH\nknown_gaps:\n-\n- [DUE:someday] learn Go\n## About me\n- ok\n"
    plan = me.migrate(_write(tmp_path, "bad.md", text), dry_run=True)
    problems = "\n".join(str(p) for p in plan.problems)
    assert "empty entry" in problems and "[DUE:someday] is not a date" in problems
    assert "'ok' skipped" in problems
    assert [(p.entry.text, p.kind.value) for p in plan.planned] == [
        ("known_gaps: learn Go", "pending")]   # a task is a task, whatever its key


def test_a_key_line_is_not_an_entry_and_a_paragraph_ends_its_list():  # type: ignore[no-untyped-def]
    parsed = parse("known_gaps:\n- Rust\n\nA paragraph of its own.\n- another item\n")
    assert [e.text for e in parsed.entries] == ["known_gaps: Rust", "A paragraph of its own.",
                                                "another item"]
    parsed = parse("known_gaps:\n- Rust\n- open_questions: which queue\n- Go\n")
    assert [e.text for e in parsed.entries] == ["known_gaps: Rust",
                                                "open_questions: which queue", "Go"]

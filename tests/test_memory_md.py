"""MEMORY.md: export in seven zones with lifecycle tags; the lessons sleep phase; migration of
a messy flat file, a zoned file, notes and journals (dry run, backup, idempotence, malformed
input); rules learned from mistakes, AGENTS.md style."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engramdb.errors import Invalid, NotFound
from engramdb.io.markdown import ZONES

DATA = Path(__file__).parent / "data"
MESSY = DATA / "messy_memory.md"


def zone_lines(md: str) -> dict[str, list[str]]:
    zones: dict[str, list[str]] = {}
    current = None
    for line in md.splitlines():
        if line.startswith("## "):
            current = line[3:]
            zones[current] = []
        elif line.startswith("- ") and current:
            zones[current].append(line)
    return zones


# ---------------------------------------------------------------- export


def test_export_puts_each_kind_in_its_zone_with_its_tags(me, clock):  # type: ignore[no-untyped-def]
    now = clock.now()
    me.remember("我叫李雷", kind="identity", uri="core://user/name")
    me.remember("I prefer pytest over unittest", kind="preference")
    me.remember("Billing runs on Temporal", kind="fact", uri="project://atlas/billing")
    me.remember("Never push to main", kind="rule")
    me.remember("The staging DB is on port 5433", kind="fact")
    me.remember("Renew the TLS certificate", kind="pending", due_at=now + timedelta(days=9))
    me.remember("Staging is frozen for the audit", kind="fact",
                expires_at=now + timedelta(days=7))
    me.remember("教训：先看环境变量再看缓存", kind="lesson")
    me.remember("Shipped Beacon 0.3", kind="event", at=datetime(2026, 2, 14, tzinfo=UTC))
    zones = zone_lines(me.export_memory_md())
    assert list(zones) == list(ZONES)
    assert zones["IDENTITY"] == ["- [PERMANENT] 我叫李雷",
                                 "- [CONTEXTUAL] I prefer pytest over unittest"]
    assert zones["PROJECTS"] == ["- [CONTEXTUAL] Billing runs on Temporal"]
    assert zones["RULES"] == ["- [LONG] Never push to main"]
    assert "- [TEMP] [EXPIRY:2026-03-08] Staging is frozen for the audit" in zones["QUICKREF"]
    assert zones["PENDING"] == ["- [CONTEXTUAL] [DUE:2026-03-10] Renew the TLS certificate"]
    assert zones["LESSONS"] == ["- [LONG] 教训：先看环境变量再看缓存"]
    assert zones["GROWTH"] == ["- [LOG] 2026-02-14: Shipped Beacon 0.3"]
    clock.advance(days=10)
    assert zone_lines(me.export_memory_md())["PENDING"] == [
        "- [CONTEXTUAL] [DUE:2026-03-10] [OVERDUE] Renew the TLS certificate"]


def test_export_leaves_superseded_and_forgotten_memories_out(me, clock):  # type: ignore[no-untyped-def]
    me.remember("I live in Lisbon", kind="fact")
    clock.advance(days=1)
    me.remember("I live in Berlin", kind="fact")
    gone = me.remember("a secret to forget", kind="fact").memory
    me.forget(gone.id)
    md = me.export_memory_md(uris=True)
    assert "Berlin" in md and "Lisbon" not in md and "secret" not in md


# ---------------------------------------------------------------- the lessons sleep phase


def test_sleep_turns_the_oldest_lessons_into_rules(me, clock):  # type: ignore[no-untyped-def]
    ids = []
    for i in range(7):
        lesson = f"lesson {i}: check the retry policy of service {chr(65 + i)} first"
        ids.append(me.remember(lesson, kind="lesson",
                               at=datetime(2026, 1, 1 + i, tzinfo=UTC)).memory.id)
    report = me.sleep()
    phase = report.phase("lessons")
    assert phase.examined == 7 and sorted(phase.ids("lesson_to_rule")) == sorted(ids[:2])
    assert [me.get(i).kind.value for i in ids] == ["rule"] * 2 + ["lesson"] * 5
    assert me.history(ids[0])[-1].op == "promote"
    zones = zone_lines(me.export_memory_md())
    assert len(zones["LESSONS"]) == 5 and len(zones["RULES"]) == 2
    again = me.sleep("lessons")
    assert again.changes == 0 and "nothing to merge" in again.phase("lessons").note


def test_an_incremental_sleep_counts_every_lesson(me):  # type: ignore[no-untyped-def]
    old = [me.remember(f"lesson {i}: pin the {w} version", kind="lesson",
                       at=datetime(2026, 1, 1 + i, tzinfo=UTC)).memory.id
           for i, w in enumerate(["numpy", "jieba", "sqlite", "psycopg", "uvicorn"])]
    assert me.sleep().changes == 0   # the first sleep (full): five lessons stay
    new = [me.remember(f"教训 {i}：发布前先跑第 {i} 组测试", kind="lesson",
                       at=datetime(2026, 2, 1 + i, tzinfo=UTC)).memory.id for i in range(3)]
    report = me.sleep()
    assert report.mode == "incremental"
    assert sorted(report.phase("lessons").ids("lesson_to_rule")) == sorted(old[:3])
    assert me.count(kind="lesson") == 5 and {me.get(i).kind.value for i in new} == {"lesson"}
    assert me.sleep(full=True).changes == 0


def test_five_lessons_stay_lessons(me):  # type: ignore[no-untyped-def]
    for i in range(5):
        me.remember(f"经验 {i}：部署前先在 staging 验证第 {i} 步", kind="lesson")
    assert me.sleep("lessons").changes == 0
    assert me.count(kind="lesson") == 5


# ---------------------------------------------------------------- migration


def test_dry_run_shows_the_plan_and_writes_nothing(me, tmp_path):  # type: ignore[no-untyped-def]
    backup = tmp_path / "backup.jsonl"
    plan = me.migrate(MESSY, dry_run=True, backup=backup)
    assert plan.dry_run and plan.actions == {} and plan.backup is None
    assert me.count() == 0 and not backup.exists()
    text = MESSY.read_text(encoding="utf-8")
    assert plan.entries_before == 69 and plan.chars_before == len(text)
    assert 50 <= len(plan.planned) < plan.entries_before
    assert plan.duplicates >= 6
    assert plan.chars_after > 0 and str(plan.chars_before) not in plan.summary()
    assert f"{plan.chars_before:,}" in plan.summary()
    by_text = {p.entry.text: p for p in plan.planned}
    assert by_text["不要在周五下午部署生产环境"].kind.value == "rule"
    assert by_text["我叫 Dana，中文名 魏丹"].kind.value == "identity"
    assert by_text["喜欢用 vim 键位，不喜欢鼠标操作"].kind.value == "preference"
    assert by_text["给 Beacon SDK 补充单元测试"].kind.value == "pending"  # label dropped
    assert by_text["给 Beacon SDK 补充单元测试"].due_at.date().isoformat() == "2026-03-20"
    assert by_text["第一次主持架构评审"].at == datetime(2026, 2, 20, tzinfo=UTC)
    assert by_text["Renew the TLS certificate for api.larkspur.dev"].zone == "PENDING"
    assert by_text["Clean up old feature flags"].kind.value == "pending"  # bad [DUE:] kept
    temp = by_text["Staging is frozen this week for the audit"]
    assert temp.expires_at == datetime(2026, 3, 8, tzinfo=UTC)
    assert by_text["Upgraded the CI runners to Ubuntu 24.04"].kind.value == "event"
    assert {p.zone for p in plan.planned} == set(ZONES)
    problems = "\n".join(str(p) for p in plan.problems)
    assert "[DUE:someday] is not a date" in problems
    assert "[EXPIRY:2026-13-40] is not a date" in problems
    assert "empty entry" in problems and "'ok' skipped" in problems
    assert "expired on 2026-01-31: not imported" in problems
    assert all(re.match(r"messy_memory\.md:\d+: ", str(p)) for p in plan.problems)


def test_migrate_backs_up_first_and_is_idempotent(me, tmp_path):  # type: ignore[no-untyped-def]
    me.remember("a memory that was there before", kind="fact")
    backup = tmp_path / "before.jsonl"
    plan = me.migrate(MESSY, backup=backup)
    assert plan.backup == str(backup) and backup.exists()
    assert sum(plan.actions.values()) == len(plan.planned) == me.count() - 1
    for item in plan.planned[:10]:
        rec = me.get(item.uri)
        assert rec.kind == item.kind and rec.metadata["zone"] == item.zone
        assert rec.metadata["source"] == item.entry.where
    again = me.migrate(MESSY, backup=tmp_path / "again.jsonl")
    assert again.actions == {"noop": len(again.planned)}
    me.restore_snapshot(backup)
    assert [r.content for r in me.list()] == ["a memory that was there before"]


def test_default_backup_goes_next_to_the_database(mem):  # type: ignore[no-untyped-def]
    plan = mem.migrate(DATA / "notes")
    assert plan.backup is not None and Path(plan.backup).exists()
    assert Path(plan.backup).parent == Path(mem.store.location).parent


def test_a_zoned_export_migrates_back_to_the_same_memories(mem, clock):  # type: ignore[no-untyped-def]
    src = mem.scope(user="a")
    src.migrate(MESSY, backup=Path(mem.store.location).parent / "b1.jsonl")
    md = src.export_memory_md(uris=True)
    path = Path(mem.store.location).parent / "MEMORY.md"
    path.write_text(md, encoding="utf-8")
    dst = mem.scope(user="b")
    plan = dst.migrate(path, backup=Path(mem.store.location).parent / "b2.jsonl")
    assert plan.problems == [] and plan.duplicates == 0
    mine = {(r.uri, r.kind, r.content, r.lifecycle, r.due_at, r.expires_at) for r in src.list()}
    theirs = {(r.uri, r.kind, r.content, r.lifecycle, r.due_at, r.expires_at)
              for r in dst.list()}
    assert theirs == mine
    assert dst.export_memory_md().split("-->", 1)[1] == src.export_memory_md().split("-->", 1)[1]
    # and into the scope it came from: nothing changes
    again = src.migrate(path, backup=Path(mem.store.location).parent / "b3.jsonl")
    assert set(again.actions) == {"noop"}


def test_notes_and_dated_journals(me, tmp_path):  # type: ignore[no-untyped-def]
    plan = me.migrate(DATA, dry_run=True)
    assert "journal/2026-02-26.md" in plan.sources and "notes/deploy.md" in plan.sources
    by_text = {p.entry.text: p for p in plan.planned}
    fixed = by_text["修好了 Beacon 的登录 bug"]
    assert fixed.kind.value == "event" and fixed.at == datetime(2026, 2, 26, tzinfo=UTC)
    assert by_text["read the retry docs before guessing"].kind.value == "lesson"
    send = by_text["Send the postmortem to the team"]
    assert send.kind.value == "pending" and send.at == datetime(2026, 2, 27, tzinfo=UTC)
    tag = by_text["Always tag the release before deploying"]
    assert tag.kind.value == "rule" and tag.entry.topic == "Deploying Atlas"
    assert by_text["部署后必须检查 Grafana 的错误率面板"].kind.value == "rule"
    assert by_text["小林负责 Beacon 的 iOS 端"].entry.topic == "Team"
    plan = me.migrate(DATA / "journal", backup=tmp_path / "b.jsonl")
    assert me.count(kind="event") == 3
    hit = me.recall("登录 bug", k=1)[0].memory
    assert hit.content == "修好了 Beacon 的登录 bug" and hit.uri.startswith("event://2026-02-26/")


def test_a_malformed_file_is_imported_as_far_as_valid(me, tmp_path):  # type: ignore[no-untyped-def]
    bad = tmp_path / "notes"
    bad.mkdir()
    (bad / "MEMORY.md").write_bytes(
        "## RULES\n- Never deploy on Fridays\n- broken \xff\xfe bytes here\n".encode("latin-1")
        .replace(b"\xc3\xbf\xc3\xbe", b"\xff\xfe")
        + "- [TEMP] [EXPIRY:soon] 临时：办公室网络维护\n## PENDING\n- [DUE:2026-02-30] 续签证书\n"
          "```\nunclosed code\n- not an entry\n".encode())
    (bad / "blob.md").write_bytes(b"\x00\x01binary\x00")
    plan = me.migrate(bad, backup=tmp_path / "b.jsonl")
    texts = sorted(r.content for r in me.list())
    assert texts == sorted(["Never deploy on Fridays", "临时：办公室网络维护", "续签证书"])
    problems = [str(p) for p in plan.problems]
    assert "blob.md:0: binary file: skipped" in problems
    assert any(p.startswith("MEMORY.md:3: undecodable") for p in problems)
    assert any("[EXPIRY:soon] is not a date" in p for p in problems)
    assert any("[DUE:2026-02-30] is not a date" in p for p in problems)
    assert any(p.startswith("MEMORY.md:7: code block never closed") for p in problems)
    assert me.get([p for p in plan.planned if p.entry.text == "续签证书"][0].uri).kind.value == (
        "pending")


def test_migrate_bad_paths(me, tmp_path):  # type: ignore[no-untyped-def]
    with pytest.raises(NotFound):
        me.migrate(tmp_path / "nope.md")
    (tmp_path / "empty").mkdir()
    with pytest.raises(Invalid, match="no Markdown"):
        me.migrate(tmp_path / "empty")
    only_noise = tmp_path / "noise.md"
    only_noise.write_text("- ok\n-\n- ???\n", encoding="utf-8")
    plan = me.migrate(only_noise, backup=tmp_path / "b.jsonl")
    assert plan.planned == [] and len(plan.problems) == 3 and plan.backup is None
    assert me.count() == 0


# ---------------------------------------------------------------- learned rules


def test_learn_from_mistake_keeps_a_rule_once(me, tmp_path):  # type: ignore[no-untyped-def]
    agents = tmp_path / "AGENTS.md"
    agents.write_text("# AGENTS.md\n\n## Style\n- Keep functions short\n", encoding="utf-8")
    first = me.learn_from_mistake("pushed straight to main", "Never push to main; open a PR",
                                  file=agents)
    assert first.added and first.file_added
    assert first.memory.kind.value == "rule"
    assert first.memory.metadata["learned_from"] == "pushed straight to main"
    again = me.learn_from_mistake("did it again", "never push to main, open a PR!", file=agents)
    assert not again.added and not again.file_added and again.memory.id == first.memory.id
    zh = me.learn_from_mistake("周五部署出了事故", "不要在周五下午部署", file=agents)
    assert zh.added and me.learn_from_mistake("又犯了", "不要在周五下午部署。").added is False
    text = agents.read_text(encoding="utf-8")
    assert text.count("Never push to main") == 1 and text.count("不要在周五下午部署") == 1
    assert "## Style\n- Keep functions short" in text
    assert "- Never push to main; open a PR (learned from: pushed straight to main)" in text
    assert me.count(kind="rule") == 2
    assert zone_lines(me.export_memory_md())["RULES"] == [
        "- [LONG] Never push to main; open a PR", "- [LONG] 不要在周五下午部署"]
    rendered = me.agents_md()
    assert "## Learned rules" in rendered and "(learned from: 周五部署出了事故)" in rendered


def test_two_rules_that_start_alike_are_both_kept(me):  # type: ignore[no-untyped-def]
    head = "Before deploying the billing service to production always check " * 2
    a = me.learn_from_mistake("m1", head + "the queue depth")
    b = me.learn_from_mistake("m2", head + "the error rate")
    assert a.added and b.added and a.memory.uri != b.memory.uri
    assert me.count(kind="rule") == 2


@pytest.mark.parametrize(("mistake", "rule"), [("", "a rule"), ("m", ""), ("m", "!!!"),
                                               (None, "r"), ("m", 3)])
def test_learn_refuses_bad_input(me, mistake, rule):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid):
        me.learn_from_mistake(mistake, rule)
    assert me.count() == 0


def test_a_hand_written_zoned_file_in_chinese(me, tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "MEMORY.md"
    path.write_text(
        "# 我的记忆\n\n## 身份\n- [PERMANENT] 我叫王芳，是数据工程师\n- 喜欢用 Python 写脚本\n\n"
        "## 规则\n- 不要在生产库上跑 DDL\n  （先在 staging 验证）\n\n"
        "## 待办\n- [DUE:2026-03-05] 提交季度报告\n- [DUE:2026-02-20] 续签 VPN 证书\n\n"
        "## 教训\n- 迁移前先备份\n\n## 成长\n- 2026-02-01: 第一次做技术分享\n",
        encoding="utf-8")
    plan = me.migrate(path, backup=tmp_path / "b.jsonl")
    assert plan.problems == []
    got = {r.content: r for r in me.list()}
    assert got["我叫王芳，是数据工程师"].kind.value == "identity"
    assert got["我叫王芳，是数据工程师"].lifecycle.value == "permanent"
    assert got["喜欢用 Python 写脚本"].kind.value == "preference"
    assert got["不要在生产库上跑 DDL （先在 staging 验证）"].kind.value == "rule"
    assert got["迁移前先备份"].kind.value == "lesson"
    assert got["第一次做技术分享"].at == datetime(2026, 2, 1, tzinfo=UTC)
    zones = zone_lines(me.export_memory_md())
    assert zones["PENDING"] == ["- [CONTEXTUAL] [DUE:2026-02-20] [OVERDUE] 续签 VPN 证书",
                                "- [CONTEXTUAL] [DUE:2026-03-05] 提交季度报告"]
    assert zones["GROWTH"] == ["- [LOG] 2026-02-01: 第一次做技术分享"]

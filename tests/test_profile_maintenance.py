"""The zoned profile's maintenance rules (issue 21): capacity warning with the budget, pending
reminder at 8, pending check at session end, LESSONS > 5 into RULES and the rules reviewed at
sleep, GROWTH filled from self-knowledge (io/profile.py, dynamics/rules_review.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest

import engramdb
from engramdb import ConfigError, Invalid


def _fill(mem, n: int = 6) -> None:  # type: ignore[no-untyped-def]
    for i in range(n):
        mem.remember(f"Fact number {i}: the staging host {i} runs Debian 12", kind="fact")
        mem.remember(f"事实 {i}：第 {i} 台预发机器在杭州机房", kind="fact")


def test_capacity_warning_names_the_tokens_and_the_budget(mem):  # type: ignore[no-untyped-def]
    _fill(mem)
    tokens = mem.profile_check(100000).tokens
    assert tokens > 50 and mem.profile_check(100000).warnings == []
    near = mem.profile_check(int(tokens / 0.9))
    assert len(near.warnings) == 1
    assert f"{tokens} of its {int(tokens / 0.9)}-token budget" in near.warnings[0]
    over = mem.profile_check(tokens - 1)
    assert over.warnings == [f"capacity: MEMORY.md holds {tokens} tokens, over its budget of "
                             f"{tokens - 1}; archive or merge entries"]
    assert mem.profile_check(int(tokens / 0.7)).warnings == []
    with pytest.raises(Invalid, match="budget"):
        mem.profile_check(0)


def test_pending_reminder_from_eight_items_overdue_first(mem, clock):  # type: ignore[no-untyped-def]
    start = clock.now()
    for i in range(7):
        mem.remember(f"Renew certificate number {i}", kind="pending",
                     due_at=start + timedelta(days=10 + i))
    assert mem.profile_check().pending == 7
    assert not [w for w in mem.profile_check().warnings if w.startswith("pending")]
    mem.remember("给妈妈打电话", kind="pending", due_at=start + timedelta(days=1))
    clock.advance(days=2)
    got = mem.profile_check()
    assert (got.pending, got.overdue) == (8, 1)
    reminder = [w for w in got.warnings if w.startswith("pending")]
    assert reminder and "8 open items (1 overdue)" in reminder[0]
    assert reminder[0].index("给妈妈打电话") < reminder[0].index("Renew certificate number 0")


def test_boot_carries_the_warnings_unless_turned_off(tmp_path, clock):  # type: ignore[no-untyped-def]
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing", clock=clock, profile_budget=20) as mem:
        _fill(mem, 2)
        warned = mem.boot()
        assert warned.warnings and warned.warnings[0].startswith("capacity")
        assert warned.to_dict()["warnings"] == warned.warnings
    with engramdb.open(path, embedder="hashing", clock=clock, profile_budget=0) as mem:
        assert mem.boot().warnings == []
    with pytest.raises(ConfigError, match="profile_budget"):
        engramdb.Config(profile_budget=-1)


def test_session_end_lists_the_open_pending_items(mem, clock):  # type: ignore[no-untyped-def]
    late = mem.remember("Pay the rent", kind="pending",
                        due_at=clock.now() + timedelta(hours=1)).memory
    clock.advance(days=1)
    wm = mem.session("chat-1")
    wm.add("user", "提醒我明天给牙医打电话。")
    wm.add("assistant", "好的。")
    got = wm.end()
    assert [r.content for r in got.pending][:1] == [late.content]
    assert any("牙医" in r.content for r in got.pending)
    assert got.to_dict()["pending"][0]["id"] == late.id


def test_more_than_five_lessons_become_rules_at_sleep(mem, clock):  # type: ignore[no-untyped-def]
    for i in range(7):
        mem.remember(f"教训 {i}：上线前先在预发环境验证第 {i} 项", kind="lesson")
        clock.advance(hours=1)
    report = mem.reflect("lessons")
    assert len(report.phase("lessons").ids("lesson_to_rule")) == 2
    assert mem.count(kind="lesson") == 5 and mem.count(kind="rule") == 2


def test_duplicate_rules_merge_and_opposites_retire_the_older(mem, clock):  # type: ignore[no-untyped-def]
    keep = mem.remember("Never push directly to main.", kind="rule").memory
    dup = mem.remember("never push directly to MAIN", kind="rule", uri="rule://again").memory
    old = mem.remember("Always deploy on Fridays", kind="rule").memory
    zh_old = mem.remember("周五一定要上线", kind="rule").memory
    clock.advance(days=1)
    new = mem.remember("Never deploy on Fridays", kind="rule").memory
    zh_new = mem.remember("周五不要上线", kind="rule").memory
    lessons = mem.sleep("lessons").phase("lessons")
    assert lessons.ids("rule_merged") == [dup.id]
    assert sorted(lessons.ids("rule_retired")) == sorted([old.id, zh_old.id])
    assert mem.get(dup.id).superseded_by == keep.id
    assert mem.get(old.id).superseded_by == new.id
    assert mem.get(zh_old.id).superseded_by == zh_new.id
    assert {r.id for r in mem.list(kind="rule", include_superseded=False)} == {
        keep.id, new.id, zh_new.id}
    assert [v.op for v in mem.history(dup.id)][-1] == "merge"
    assert mem.sleep("lessons").phase("lessons").counts() == {}


def test_unused_rules_are_flagged_and_a_use_clears_the_flag(mem, clock):  # type: ignore[no-untyped-def]
    rule = mem.remember("Always pin dependency versions", kind="rule").memory
    clock.advance(days=89)
    assert mem.sleep("lessons").phase("lessons").counts() == {}
    clock.advance(days=2)
    assert mem.sleep("lessons").phase("lessons").ids("rule_flagged_unused") == [rule.id]
    assert mem.get(rule.id).metadata["review"].startswith("unused since")
    assert mem.sleep("lessons").phase("lessons").counts() == {}
    assert mem.recall("pin dependency versions", k=1)[0].memory.id == rule.id
    assert mem.sleep("lessons").phase("lessons").ids("rule_unflagged") == [rule.id]
    assert "review" not in mem.get(rule.id).metadata


def test_growth_holds_self_knowledge_before_the_log(mem, clock):  # type: ignore[no-untyped-def]
    mem.remember("Shipped v1.2 with the new importer", kind="event")
    mem.remember("I'm not good at estimating database migrations", kind="fact")
    mem.remember("我不擅长写前端动画", kind="fact")
    mem.remember("Open question: should the cache live in Redis?", kind="fact")
    mem.remember("The staging host runs Debian 12", kind="fact")
    text = mem.export_memory_md()
    growth = text.split("## GROWTH")[1].strip().splitlines()
    assert len(growth) == 4
    assert "Shipped v1.2" in growth[-1]
    for word in ("estimating", "前端动画", "Open question"):
        assert any(word in line for line in growth[:3]), word
    assert "Debian" in text.split("## QUICKREF")[1].split("##")[0]


def test_self_knowledge_stays_a_fact_through_a_migration(mem, tmp_path):  # type: ignore[no-untyped-def]
    mem.remember("I'm not good at estimating database migrations", kind="fact")
    path = tmp_path / "MEMORY.md"
    path.write_text(mem.export_memory_md(), encoding="utf-8")
    other = mem.scope(user="copy")
    other.migrate(path)
    got = list(other.list())
    assert [(r.kind.value, r.content) for r in got] == [
        ("fact", "I'm not good at estimating database migrations")]
    assert "## GROWTH\n- [CONTEXTUAL] I'm not good" in other.export_memory_md()

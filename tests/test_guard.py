"""The write guard's quality gate and the slot rules (issue 4, write path), English and
Chinese."""

from __future__ import annotations

import pytest

from engramdb import Action, Draft, Invalid
from engramdb.model import Kind
from engramdb.write.guard import quality_failures
from engramdb.write.slots import extract_slot, slot_of


@pytest.mark.parametrize(("content", "failed"), [
    ("ok", "filler"),
    ("OK!", "filler"),
    ("好的", "filler"),
    ("嗯", "filler"),
    ("aaaaaaaaaaaa", "repeated_char"),
    ("hahahahahaha", "repeated_char"),
    ("?!?!?!?! a", "punctuation_run"),
    ("...!!! ??? 好", "punctuation_run"),
    ("42", "no_word"),
    ("x", "too_short"),
    ("Li", "too_short"),
])
def test_junk_is_rejected_with_the_failed_criteria(me, content, failed):  # type: ignore[no-untyped-def]
    r = me.remember(content)
    assert r.action == Action.REJECT and r.rule == "quality_gate"
    assert failed in r.evidence["failed"]
    assert me.count() == 0  # nothing stored


@pytest.mark.parametrize("content", ["Li", "李雷", "李"])
def test_short_identity_facts_are_allowed(me, content):  # type: ignore[no-untyped-def]
    r = me.remember(content, kind="identity")
    assert r.action == Action.ADD and me.count() == 1


@pytest.mark.parametrize("content", ["I moved to Berlin", "我住在北京", "李雷", "Went swimming",
                                     "Note 1", "v2.1 is out", "吃饭"])
def test_real_content_passes_the_gate(content):  # type: ignore[no-untyped-def]
    assert quality_failures(content, Kind.FACT) == []


@pytest.mark.parametrize("content", ["", "   ", "\n\t", "!!!", "……"])
def test_empty_or_symbol_only_content_is_still_invalid(me, content):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid):
        me.remember(content)


def test_a_reject_in_a_batch_is_per_item(me):  # type: ignore[no-untyped-def]
    results = me.remember_many([Draft("I moved to Berlin"), Draft("aaaaaaaa"),
                                Draft("我周末喜欢去吃火锅")])
    assert [r.action for r in results] == [Action.ADD, Action.REJECT, Action.ADD]
    assert results[1].evidence == {"failed": ["repeated_char"]}
    assert me.count() == 2


# ---------------------------------------------------------------- slots


@pytest.mark.parametrize(("content", "subject", "attribute", "value"), [
    ("My stack is Java 8", "user", "tech stack", "java 8"),
    ("We use Java 21", "user", "tech stack", "java 21"),
    ("Li lives in Lisbon", "li", "residence", "lisbon"),
    ("Li moved to Berlin.", "li", "residence", "berlin"),
    ("I'm living in Rome now", "user", "residence", "rome"),
    ("I moved to Berlin in March", "user", "residence", "berlin"),
    ("Li works at SAP", "li", "workplace", "sap"),
    ("The service runs on port 9000", "service", "port", "9000"),
    ("release 0.2.0", "project", "version", "0.2.0"),
    ("engramdb version 0.3.1", "engramdb", "version", "0.3.1"),
    ("Li's favourite colour is blue", "li", "favourite colour", "blue"),
    ("我住在北京", "user", "residence", "北京"),
    ("李现在住在柏林", "李", "residence", "柏林"),
    ("李搬到了上海", "李", "residence", "上海"),
    ("王小明在腾讯工作", "王小明", "workplace", "腾讯"),
    ("我的技术栈是Java 8", "user", "tech stack", "java 8"),
    ("我们用Java 21", "user", "tech stack", "java 21"),
    ("服务的端口是9000", "服务", "port", "9000"),
    ("我叫李雷", "user", "name", "李雷"),
])
def test_slot_rules(content, subject, attribute, value):  # type: ignore[no-untyped-def]
    slot = extract_slot(content)
    assert slot is not None
    assert (slot.subject, slot.attribute, slot.value) == (subject, attribute, value)


@pytest.mark.parametrize("content", ["I like hiking in the Alps", "My sister plays the violin",
                                     "My sister is a doctor", "Li's dog is very old",
                                     "Berlin is cold in winter", "我周末喜欢去吃火锅",
                                     "明天和Anna一起去Berlin开会"])
def test_text_without_a_slot_has_none(content):  # type: ignore[no-untyped-def]
    assert extract_slot(content) is None


def test_only_facts_preferences_and_procedures_have_slots():  # type: ignore[no-untyped-def]
    assert slot_of("Li lives in Berlin", Kind.FACT) is not None
    assert slot_of("Li lives in Berlin", Kind.PREFERENCE) is not None
    assert slot_of("Li lives in Berlin", Kind.EVENT) is None
    assert slot_of("Li lives in Berlin", Kind.IDENTITY) is None

"""Slot rules that tell attributes apart: the editor is not the language, the city one works
in is not the employer; English and Chinese."""

from __future__ import annotations

import pytest

from engramdb import Action
from engramdb.write.slots import extract_slot
from engramdb.write.tools import tool_attribute, tool_category


@pytest.mark.parametrize(("content", "attribute", "value"), [
    ("I use VS Code", "editor", "vs code"),
    ("I switched to Neovim", "editor", "neovim"),
    ("We use PostgreSQL 16", "database", "postgresql 16"),
    ("I use Firefox", "browser", "firefox"),
    ("I'm using macOS", "operating system", "macos"),
    ("I use zsh", "shell", "zsh"),
    ("I use Java 21", "tech stack", "java 21"),
    ("I program in Rust", "tech stack", "rust"),
    ("I use Slack", "tool:slack", "slack"),
    ("我用VS Code写代码", "editor", "vs code"),
    ("我们使用PostgreSQL", "database", "postgresql"),
    ("我改用Firefox了", "browser", "firefox"),
    ("我们用Java 21", "tech stack", "java 21"),
    ("Li works at SAP", "workplace", "sap"),
    ("Li works in Berlin", "work location", "berlin"),
    ("我在北京工作", "work location", "北京"),
    ("王小明在腾讯工作", "workplace", "腾讯"),
    ("赵杰在京东工作", "workplace", "京东"),  # jieba tags 京东 as a place
    ("赵杰在中兴工作", "workplace", "中兴"),
    ("赵杰在北京大学工作", "workplace", "北京大学"),
    ("赵杰在青岛工作", "work location", "青岛"),
    ("赵杰在昆山市工作", "work location", "昆山市"),
    ("My favorite color is blue", "favourite color", "blue"),
    ("Actually I moved to Berlin", "residence", "berlin"),
])
def test_attributes(content, attribute, value):  # type: ignore[no-untyped-def]
    slot = extract_slot(content)
    assert slot is not None
    assert (slot.subject, slot.attribute, slot.value) == ("user" if content[0] in "IW我A"
                                                          else slot.subject, attribute, value)


def test_tool_categories_need_a_whole_name():  # type: ignore[no-untyped-def]
    assert tool_category("go 1.22") == "tech stack"
    assert tool_category("google docs") is None  # "go" is not a prefix match of "google"
    assert tool_category("cursor") == "editor"
    assert tool_attribute("google docs") == "tool:google"


@pytest.mark.parametrize(("first", "second"), [
    ("My stack is Java 21", "I use VS Code"),
    ("I use Java 21", "I use IntelliJ"),
    ("I use VS Code", "I use PostgreSQL"),
    ("I use Slack", "I use Notion"),
    ("Li works at SAP", "Li works in Berlin"),
    ("我的技术栈是Java 21", "我用VS Code"),
    ("我在北京工作", "我在腾讯工作"),
    ("I work at Google", "I joined the running club as a volunteer"),
])
def test_different_attributes_both_stay_current(me, first, second):  # type: ignore[no-untyped-def]
    me.remember(first)
    result = me.remember(second)
    assert result.action == Action.ADD, result.rule
    assert sorted(r.content for r in me.list(include_superseded=False)) == sorted([first, second])


@pytest.mark.parametrize(("first", "second", "rule"), [
    ("I use VS Code", "I switched to Neovim", "slot_new_value"),
    ("My stack is Java 8", "I use Java 21", "slot_number_changed"),
    ("I use Slack 4", "I use Slack 5", "slot_number_changed"),
    ("Li works at SAP", "Li works for Google", "slot_new_value"),
    ("我用VS Code", "我改用Vim了", "slot_new_value"),
    ("王小明在腾讯工作", "王小明在阿里巴巴工作", "slot_new_value"),
    # a time opening the sentence, a "new"/"current" before the attribute: the same slot
    ("My favourite podcast is Radiolab", "Nowadays my favourite podcast is Hardcore History",
     "slot_new_value"),
    ("Our office address is 4 Elm Road", "As of this month, our office address is 9 Pine Lane",
     "slot_number_changed"),
    ("My dentist is Dr. Rao", "My new dentist is Dr. Kim", "slot_new_value"),
    ("My locker code is 1234", "My current locker code is 8812", "slot_number_changed"),
    # more ways to say the same attribute: joining a firm as a role, moving a service's port,
    # 跳槽到 / 入职
    ("I work for Siemens", "I joined Bosch as a test engineer", "slot_new_value"),
    ("The billing API runs on port 8080", "We moved the billing API to port 9090",
     "slot_number_changed"),
    ("我在京东上班", "我上个月跳槽到了美团", "slot_new_value"),
    ("陈晨在华为工作", "陈晨入职了小米", "slot_new_value"),
])
def test_the_same_attribute_still_supersedes(me, first, second, rule):  # type: ignore[no-untyped-def]
    me.remember(first)
    result = me.remember(second)
    assert (result.action, result.rule) == (Action.SUPERSEDE, rule)


# ---------------------------------------------------------------- questions name a slot


@pytest.mark.parametrize(("facts", "question", "answer"), [
    (["Dastormar works in Helsinki", "Dastormar works at Klarna"],
     "which company does Dastormar work at now?", "Dastormar works at Klarna"),
    (["Dastormar works at Klarna", "Dastormar works in Helsinki"],
     "which city does Dastormar work in?", "Dastormar works in Helsinki"),
    (["Vikamar's favourite colour is red", "Vikamar lives in Oslo"],
     "where does Vikamar live now?", "Vikamar lives in Oslo"),
    (["billing-api version 2.1.0", "billing-api runs on port 8080"],
     "which port does billing-api run on?", "billing-api runs on port 8080"),
    (["I use Java 21", "I use VS Code"], "which editor do I use?", "I use VS Code"),
    (["朱涛芳在重庆工作", "朱涛芳在小米工作"], "朱涛芳现在在哪家公司工作？", "朱涛芳在小米工作"),
    (["赵杰的服务的版本是2.0", "赵杰的服务的端口是8080"], "赵杰的服务现在的端口是多少？",
     "赵杰的服务的端口是8080"),
])
def test_the_fact_filling_the_asked_slot_comes_first(me, facts, question, answer):  # type: ignore[no-untyped-def]
    for fact in facts:
        me.remember(fact)
    hits = me.recall(question, k=5, track=False)
    assert hits[0].memory.content == answer
    assert hits[0].explanation.terms["slot_factor"] > 1
    assert hits.plan["asked_slot"]["attributes"]


def test_questions_without_a_slot_are_scored_as_before(me):  # type: ignore[no-untyped-def]
    me.remember("Dastormar works at Klarna")
    hits = me.recall("tell me about Dastormar", k=5, track=False)
    assert "asked_slot" not in hits.plan
    assert "slot_factor" not in hits[0].explanation.terms


@pytest.mark.parametrize(("now", "then", "question"), [
    ("I live in Tromsø.", "As an apprentice I lived in Bergen above a bike shop.",
     "Which town did I live in as an apprentice?"),
    ("Kestrin lives in Graz.", "While she trained as a nurse Kestrin lived in Linz.",
     "Where did Kestrin live while she trained?"),
])
def test_a_question_in_the_past_tense_asks_no_slot_of_now(me, now, then, question):  # type: ignore[no-untyped-def]
    """The slot table reads a statement in the present tense alone ("lived in Bergen" fills
    none), so a question asked in the past tense does not lift the value held now."""
    me.remember(now)
    me.remember(then)
    hits = me.recall(question, k=5, track=False)
    assert "asked_slot" not in hits.plan
    assert hits[0].memory.content == then
    assert "slot_factor" not in hits[0].explanation.terms
    present = me.recall(question.replace("did I", "do I").replace("did Kestrin", "does Kestrin"),
                        k=5, track=False)
    assert present.plan["asked_slot"]["attributes"] == ["residence"]

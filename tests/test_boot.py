"""Boot: what an agent loads at start, in a stable order, within a token budget."""

from __future__ import annotations

from typing import Any

import pytest

from engramdb import Invalid, Layer, Priority
from engramdb.text.tokens import count_tokens

BOOT_LIST = """# loaded at every start
knowledge://user/home

rule://style/short-answers
knowledge://user/pets
not a uri at all
core://user/name
knowledge://user/home
"""


def contents(boot: Any) -> list[str]:
    return [m.content for m in boot.memories]


def fill(me: Any) -> dict[str, str]:
    ids = {}
    ids["name"] = me.remember("My name is Li", uri="core://user/name").memory.id
    ids["persona"] = me.remember("I am Noah, a patient tutor",
                                 uri="core://agent/persona").memory.id
    ids["born"] = me.remember("I was born in Harbin", kind="identity").memory.id
    ids["style"] = me.remember("Answer in two sentences", uri="core://agent/style",
                               priority="P1").memory.id
    ids["home"] = me.remember("I live in Berlin", uri="knowledge://user/home").memory.id
    ids["rule"] = me.remember("Keep answers short", uri="rule://style/short-answers").memory.id
    ids["tea"] = me.remember("I like green tea", kind="preference").memory.id
    me.remember(BOOT_LIST, uri="system://boot")
    return ids


def test_boot_order_and_missing(me):  # type: ignore[no-untyped-def]
    fill(me)
    boot = me.boot()
    assert contents(boot) == [
        "I am Noah, a patient tutor",    # P0, by URI: core://agent/persona
        "My name is Li",                 # P0: core://user/name
        "I was born in Harbin",          # P0 without a URI: after those with one
        "Answer in two sentences",       # core://agent/ but P1: after every P0
        "I live in Berlin",              # then the boot list, in its order
        "Keep answers short",
        "I like green tea",              # then the profile (profile.py): facts, preferences
    ]
    assert boot.missing == ["knowledge://user/pets", "not a uri at all"]
    assert boot.tokens == sum(count_tokens(c) for c in contents(boot))
    assert boot.truncated is False
    assert me.boot() == boot  # stable


def test_boot_without_a_boot_list(me):  # type: ignore[no-untyped-def]
    me.remember("My name is Li", uri="core://user/name")
    me.remember("I like green tea", kind="preference")
    boot = me.boot()
    assert contents(boot) == ["My name is Li", "I like green tea"]  # the profile follows
    assert (boot.missing, boot.truncated) == ([], False)


def test_boot_of_an_empty_scope(me):  # type: ignore[no-untyped-def]
    boot = me.boot()
    assert (boot.memories, boot.missing, boot.tokens, boot.truncated) == ([], [], 0, False)
    assert boot.to_dict() == {"memories": [], "missing": [], "tokens": 0, "truncated": False,
                              "due": [], "warnings": [], "still_true": [],
                              "still_true_title": "Still true?"}


def test_boot_within_a_budget_keeps_a_prefix(me):  # type: ignore[no-untyped-def]
    fill(me)
    full = me.boot()
    costs = [count_tokens(c) for c in contents(full)]
    budget = sum(costs[:3]) + costs[3] - 1  # the fourth does not fit
    cut = me.boot(budget=budget)
    assert contents(cut) == contents(full)[:3]
    assert cut.tokens == sum(costs[:3]) <= budget
    assert cut.truncated is True and cut.missing == full.missing
    assert me.boot(budget=full.tokens) == full
    assert me.boot(budget=0).memories == [] and me.boot(budget=0).truncated


@pytest.mark.parametrize("budget", [-1, 1.5, "100", True])
def test_a_bad_budget_is_invalid(me, budget):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="budget"):
        me.boot(budget=budget)


def test_forgotten_superseded_and_archived_memories(mem, me):  # type: ignore[no-untyped-def]
    ids = fill(me)
    me.forget(ids["born"])
    me.forget(ids["home"])
    rule = me.get(ids["rule"])
    mem.store.save(rule.replace(layer=Layer.ARCHIVED, version=rule.version + 1), "archive")
    persona = me.get(ids["persona"])
    mem.store.save(persona.replace(invalid_at=persona.at, version=persona.version + 1),
                   "supersede")
    boot = me.boot()
    # a forgotten or superseded memory is not loaded; an archived one named by the list is
    assert contents(boot) == ["My name is Li", "Answer in two sentences", "Keep answers short",
                              "I like green tea"]
    assert boot.missing == ["knowledge://user/home", "knowledge://user/pets",
                            "not a uri at all"]


def test_the_boot_list_is_a_never_fading_system_memory(me):  # type: ignore[no-untyped-def]
    rec = me.remember("core://user/name", uri="system://boot").memory
    assert rec.priority == Priority.P0
    assert me.get("system://boot").id == rec.id
    assert me.boot().memories == []  # the list itself is never loaded
    assert me.boot().missing == ["core://user/name"]


def test_boot_is_scoped(mem, me):  # type: ignore[no-untyped-def]
    fill(me)
    bob = mem.scope(user="bob", agent="noah")
    bob.remember("My name is Bob", uri="core://user/name")
    assert contents(bob.boot()) == ["My name is Bob"]


@pytest.mark.parametrize(("text", "tokens"), [
    ("", 0), ("abcd", 1), ("abcde", 2), ("I live in Berlin", 4), ("你好", 2), ("你好abcd", 3),
    ("こんにちは", 5), ("안녕", 2),
])
def test_token_estimate(text, tokens):  # type: ignore[no-untyped-def]
    assert count_tokens(text, encoding="estimate") == tokens


def test_boot_loads_the_current_profile_by_priority_within_the_budget(me):  # type: ignore[no-untyped-def]
    me.remember("Always answer in English", kind="rule", importance=0.9)
    me.remember("Li drinks green tea", kind="preference", importance=0.4)
    me.remember("Li works as a nurse", kind="fact", importance=0.8)
    me.remember("The standup is at 9:30", kind="fact", importance=0.6)
    me.remember("The standup moved to 10:00", kind="fact", importance=0.6)  # supersedes
    me.remember("Went hiking on Sunday", kind="event")
    loaded = contents(me.boot())
    assert loaded == ["Always answer in English", "Li works as a nurse",
                      "The standup moved to 10:00", "Li drinks green tea"]
    cut = me.boot(budget=count_tokens("Always answer in English"))
    assert contents(cut) == ["Always answer in English"] and cut.truncated

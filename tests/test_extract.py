"""The rule extractor (write/extract.py): pure, messages in, drafts out, English and Chinese."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engramdb import Kind, Message
from engramdb.write.extract import Turn, anchors, classify, extract, sentences

SAID = datetime(2025, 4, 10, 15, 30, tzinfo=UTC)  # a Thursday


def turns(*contents: str, role: str = "user", at: datetime = SAID) -> list[Turn]:
    return [Turn(i, Message(role, c), at) for i, c in enumerate(contents)]


@pytest.mark.parametrize(("sentence", "kind"), [
    ("I use Java 21", Kind.FACT),
    ("I live in Lisbon", Kind.FACT),
    ("I'm allergic to peanuts", Kind.FACT),
    ("I am vegetarian", Kind.FACT),
    ("I'm from Porto", Kind.FACT),
    ("Li works at SAP", Kind.FACT),
    ("I really like hiking in the Alps", Kind.PREFERENCE),
    ("I hate cilantro", Kind.PREFERENCE),
    ("My favourite band is Muse", Kind.PREFERENCE),
    ("Remind me to renew my passport", Kind.PENDING),
    ("Please don't let me forget the dentist", Kind.PENDING),
    ("I need to call the bank", Kind.PENDING),
    ("Lesson learned: always pin versions", Kind.LESSON),
    ("Next time, book the hotel early", Kind.LESSON),
    ("我对花生过敏", Kind.FACT),
    ("我住在北京", Kind.FACT),
    ("我们用Java 21", Kind.FACT),
    ("我喜欢喝咖啡", Kind.PREFERENCE),
    ("我不喜欢香菜", Kind.PREFERENCE),
    ("提醒我给妈妈打电话", Kind.PENDING),
    ("别忘了交房租", Kind.PENDING),
    ("下次记得带伞", Kind.LESSON),
    ("教训是先备份再升级", Kind.LESSON),
    ("我得到的教训是先备份再升级", Kind.LESSON),   # 得到 is no "must" (zh:need_to)
])
def test_sentences_are_classified(sentence, kind):  # type: ignore[no-untyped-def]
    found = classify(sentence)
    assert found is not None, sentence
    assert found[0] == kind
    assert found[1].startswith(("zh:", "slot:zh:") if "\u4e00" <= sentence[0] <= "\u9fff"
                               or sentence[0] in "我别下教提" else ("en:", "slot:en:"))


@pytest.mark.parametrize("sentence", ["What do you think?", "Do you like Java?", "你喜欢咖啡吗？",
                                      "That sounds great", "haha", "好的谢谢",
                                      "The weather is nice"])
def test_chit_chat_and_questions_make_no_memory(sentence):  # type: ignore[no-untyped-def]
    assert classify(sentence) is None
    assert extract(turns(sentence)) == []


def test_only_user_turns_are_extracted():  # type: ignore[no-untyped-def]
    assert extract(turns("I use Java 21", role="assistant")) == []
    assert [d.content for d in extract(turns("I use Java 21"))] == ["I use Java 21"]


def test_a_turn_is_cut_into_sentences_each_with_its_source():  # type: ignore[no-untyped-def]
    drafts = extract(turns("Hi there!", "I live in Lisbon. I use Java 21! Remind me to call Li.",
                           "我对花生过敏。下次记得带伞"), session="s1")
    assert [(d.content, d.turn) for d in drafts] == [
        ("I live in Lisbon.", "1"), ("I use Java 21!", "1"), ("Remind me to call Li.", "1"),
        ("我对花生过敏", "2"), ("下次记得带伞", "2")]
    for d in drafts:
        assert d.session == "s1"
        assert d.metadata["session"] == "s1" and d.metadata["turn"] == int(d.turn)
        assert d.metadata["extractor"] == "rules" and d.metadata["rule"]


def test_extracted_text_keeps_the_users_language_and_drops_fillers():  # type: ignore[no-untyped-def]
    drafts = extract(turns("Oh, by the way, I use VS Code", "对了，我对花生过敏"))
    assert [d.content for d in drafts] == ["I use VS Code", "我对花生过敏"]


def test_relative_times_resolve_against_the_turns_time():  # type: ignore[no-untyped-def]
    drafts = extract(turns("Last month I went to Paris with Anna",
                           "Yesterday I met Tom at the station",
                           "去年三月我和王芳去了杭州", "三天前我们搬家了"))
    got = [(d.kind, d.at, d.at_precision) for d in drafts]
    assert got == [
        (Kind.EVENT, datetime(2025, 3, 1, tzinfo=UTC), "month"),
        (Kind.EVENT, datetime(2025, 4, 9, tzinfo=UTC), "day"),
        (Kind.EVENT, datetime(2024, 3, 1, tzinfo=UTC), "month"),
        (Kind.EVENT, datetime(2025, 4, 7, tzinfo=UTC), "day"),
    ]
    # the same words said a year later name another month
    later = extract(turns("Last month I went to Paris", at=datetime(2026, 1, 5, tzinfo=UTC)))
    assert later[0].at == datetime(2025, 12, 1, tzinfo=UTC)


def test_facts_without_a_time_are_dated_by_their_turn():  # type: ignore[no-untyped-def]
    (draft,) = extract(turns("I live in Lisbon"))
    assert draft.at == SAID and draft.at_precision is None


def test_anchors_name_people_and_places_in_both_languages():  # type: ignore[no-untyped-def]
    assert anchors("Last month I went to Paris with Anna") == (["Anna"], ["Paris"])
    people, places = anchors("去年三月我和王芳去了杭州")
    assert people == ["王芳"] and places == ["杭州"]
    assert anchors("我喜欢喝咖啡") == ([], [])


def test_the_speaker_is_an_anchor():  # type: ignore[no-untyped-def]
    (draft,) = extract([Turn(0, Message("user", "I live in Lisbon", speaker="Caroline"), SAID)])
    assert draft.people == ["Caroline"]


def test_sentences_split_in_both_languages():  # type: ignore[no-untyped-def]
    assert sentences("One thing. Two things! 三件事。四件事？") == [
        "One thing.", "Two things!", "三件事", "四件事"]


@pytest.mark.parametrize(("sentence", "kind"), [
    ("我们上个月在杭州开了会", Kind.EVENT),          # a broad rule, a period that has ended
    ("我儿子今年上初中了", Kind.FACT),               # ... a period it is still in
    ("My team changed its standup to 10am last month", Kind.EVENT),
    ("My team changed its standup to 10am this year", Kind.FACT),
])
def test_a_broad_rules_sentence_is_an_episode_only_in_a_period_that_ended(sentence, kind):  # type: ignore[no-untyped-def]
    now = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)
    drafts = extract([Turn(0, Message("user", sentence), now)])
    assert [d.kind for d in drafts] == [kind], [d.metadata for d in drafts]


def test_the_month_may_is_no_mood_word():  # type: ignore[no-untyped-def]
    """A word in title case after a sentence's first is a name (the month May, a person
    called Will), not the mood word it spells; at a sentence's start it is read as one."""
    from engramdb.write.reading import read

    assert "plan" not in read("We signed the lease on the 5th of May").moods
    assert "plan" not in read("The lease starts in May, Will said").moods
    assert "plan" in read("We may sign the lease next week").moods
    assert "plan" in read("Maybe we sign the lease. Will they agree?").moods


@pytest.mark.parametrize(("sentence", "kind"), [
    ("The plumber comes on Friday to fix the boiler.", Kind.PENDING),   # a day to come
    ("我的牙科复查在下周二下午三点。", Kind.PENDING),
    ("The pottery class meets every Tuesday evening.", Kind.FACT),     # every one: a habit
    ("陶艺课每周二晚上上。", Kind.FACT),
    ("上周六我们把客厅刷成了浅绿色。", Kind.EVENT),                       # one gone by
    ("We pushed the wine tasting to next Thursday.", Kind.PENDING),  # a change to a day to come
    ("家长会改到下周三了。", Kind.PENDING),
    ("Don't book any calls on Monday.", Kind.RULE),       # a rule's bare weekday: it holds then
    ("不要在周一开会。", Kind.RULE),
])
def test_a_statement_that_names_a_day_to_come_is_pending(sentence, kind):  # type: ignore[no-untyped-def]
    """A statement the rules only guessed (or left unread, kept where the examples vote: write/
    kindvote.py) that names a day after the one it is said on is a pending item."""
    drafts = extract(turns(sentence), unread=True)
    assert [d.kind for d in drafts] == [kind], [d.metadata for d in drafts]
    assert (drafts[0].metadata["rule"] in ("en:due", "zh:due")) == (kind == Kind.PENDING)

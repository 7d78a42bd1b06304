"""Emotion: valence and intensity given or read at write, shown by explain, slowing decay and
breaking attention ties (text/emotion.py, dynamics/strength.py, attention/score.py)."""

from __future__ import annotations

import math

import pytest

from engramdb import Draft, Invalid
from engramdb.text.emotion import emotion_for, read_emotion


@pytest.mark.parametrize(("text", "sign"), [
    ("She said she loves me", 1), ("I was so happy at the wedding", 1),
    ("我很开心", 1), ("她说她爱我", 1), ("这个方案不错", 1),
    ("My father died last spring", -1), ("I am not happy with the release", -1),
    ("我不开心", -1), ("我爸爸去世了", -1), ("心里很不安", -1),
])
def test_the_lexicon_reads_the_sign_in_both_languages(text, sign):  # type: ignore[no-untyped-def]
    got = read_emotion(text)
    assert got.cues, text
    assert math.copysign(1, got.valence) == sign and got.valence != 0
    assert 0 < got.intensity <= 1


@pytest.mark.parametrize("text", ["The meeting is at 3pm", "会议在三点", "It looks like rain",
                                  "用户住在柏林"])
def test_neutral_text_reads_zero(text):  # type: ignore[no-untyped-def]
    assert (read_emotion(text).valence, read_emotion(text).intensity) == (0.0, 0.0)


def test_negation_turns_a_cue_over_and_halves_it():  # type: ignore[no-untyped-def]
    plain, negated = read_emotion("I am happy"), read_emotion("I am not happy")
    assert negated.cues[0][1] == pytest.approx(-0.5 * plain.cues[0][1])
    zh = read_emotion("我开心").cues[0][1]
    assert read_emotion("我不开心").cues[0][1] == pytest.approx(-0.5 * zh)
    assert read_emotion("I don't hate it").valence > 0


def test_boosters_and_exclamations_make_it_stronger():  # type: ignore[no-untyped-def]
    assert read_emotion("I am very happy").intensity > read_emotion("I am happy").intensity
    assert read_emotion("我非常开心").intensity > read_emotion("我开心").intensity
    assert read_emotion("I am happy!!!").intensity > read_emotion("I am happy").intensity
    assert read_emotion("非常开心").valence > 0  # 非 of 非常 is not a negator


def test_opposing_feelings_cancel_in_valence_but_add_in_intensity():  # type: ignore[no-untyped-def]
    got = read_emotion("the outage at the wedding")
    assert abs(got.valence) < 0.05 and got.intensity > 0.6
    zh = read_emotion("婚礼上服务器宕机了")
    assert abs(zh.valence) < 0.05 and zh.intensity > 0.6


def test_what_the_caller_gives_wins_and_the_rest_is_read():  # type: ignore[no-untyped-def]
    assert emotion_for("The meeting is at 3pm", 0.2, 0.3) == (0.2, 0.3)
    assert emotion_for("The meeting is at 3pm", -0.9) == (-0.9, 0.9)
    v, i = emotion_for("I love this", None, 0.1)
    assert v > 0 and i == 0.1


# ---------------------------------------------------------------- through the library


def test_remember_reads_the_feeling_when_none_is_given(mem):  # type: ignore[no-untyped-def]
    loved = mem.remember("She said she loves me", kind="event").memory
    zh = mem.remember("她说她爱我，我特别感动", kind="event").memory
    plain = mem.remember("The meeting moved to room 4", kind="event").memory
    assert loved.valence > 0.5 and loved.intensity > 0.5
    assert zh.valence > 0.5 and zh.intensity > 0.5
    assert (plain.valence, plain.intensity) == (0.0, 0.0)
    stored = mem.get(loved.id)
    assert (stored.valence, stored.intensity) == (loved.valence, loved.intensity)


def test_remember_and_drafts_keep_given_values(mem):  # type: ignore[no-untyped-def]
    rec = mem.remember("The meeting moved to room 4", valence=-0.25, intensity=0.75).memory
    assert (mem.get(rec.id).valence, mem.get(rec.id).intensity) == (-0.25, 0.75)
    got = mem.remember_many([Draft("项目上线了", kind="event", valence=0.5, intensity=1),
                             Draft("Lunch at noon", kind="event")])
    assert (got[0].memory.valence, got[0].memory.intensity) == (0.5, 1.0)
    assert got[1].memory.intensity == 0.0


@pytest.mark.parametrize(("field", "value"), [
    ("valence", 1.5), ("valence", -1.01), ("valence", "happy"), ("valence", True),
    ("valence", float("nan")), ("intensity", -0.1), ("intensity", 1.2), ("intensity", "high"),
    ("intensity", float("inf")), ("intensity", [0.5]),
])
def test_out_of_range_or_non_numbers_are_refused(mem, field, value):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match=field):
        mem.remember("The meeting moved to room 4", **{field: value})
    with pytest.raises(Invalid, match=f"item 1: {field}"):
        mem.remember_many([Draft("ok one"), Draft("bad one", **{field: value})])
    assert mem.count() == 0


def test_a_uri_rewrite_takes_the_new_feeling(mem):  # type: ignore[no-untyped-def]
    first = mem.remember("I am happy with the team", uri="emotion://user/team").memory
    again = mem.remember("I am frustrated with the team", uri="emotion://user/team").memory
    assert first.valence > 0 > again.valence
    assert mem.get("emotion://user/team").valence == again.valence


def test_explain_shows_the_feeling_and_what_the_text_reads(mem):  # type: ignore[no-untyped-def]
    rec = mem.remember("我爸爸去世了", kind="event").memory
    got = mem.explain(rec.id)
    assert got.intensity == rec.intensity > 0 and got.valence == rec.valence < 0
    assert got.emotion_factor == pytest.approx(1 + 0.5 * rec.intensity)
    assert "去世" in got.emotion_cues and "去世" in str(got)
    assert got.to_dict()["intensity"] == round(rec.intensity, 6)
    plain = mem.explain(mem.remember("Lunch at noon", kind="event").memory.id)
    assert plain.emotion_factor == 1.0 and "no emotion cue" in str(plain)


def test_an_intense_memory_fades_slower_and_outlasts_a_neutral_one(mem, clock):  # type: ignore[no-untyped-def]
    neutral = mem.remember("Went to the office by bus", kind="event").memory
    intense = mem.remember("The outage at the wedding", kind="event").memory
    given = mem.remember("Went to the office by train", kind="event", intensity=1.0).memory
    clock.advance(days=30)
    w = {r.id: mem.explain(r.id).weight for r in (neutral, intense, given)}
    assert w[neutral.id] == pytest.approx(0.5 ** (30 / 14))  # exact half-life, no emotion
    assert w[given.id] == pytest.approx(0.5 ** (30 / 21))    # 14 d x 1.5
    assert w[neutral.id] < w[intense.id] < w[given.id]
    clock.advance(days=10)   # 40 days: the neutral event falls below 0.15, the others do not
    mem.sleep("decay")
    layers = {r.id: mem.get(r.id).layer.value for r in (neutral, intense, given)}
    assert layers == {neutral.id: "archived", intense.id: "core", given.id: "core"}


def test_emotion_breaks_an_attention_tie(mem, clock):  # type: ignore[no-untyped-def]
    calm = mem.remember("deploy window friday evening alpha", kind="event", importance=0.5,
                        valence=0.0, intensity=0.0).memory
    hot = mem.remember("deploy window friday evening bravo", kind="event", importance=0.5,
                       valence=-0.8, intensity=0.9).memory
    assert calm.id < hot.id   # without the emotion term the id would decide for calm
    clock.advance(days=1)
    ws = mem.focus("deploy window friday evening", k=2, track=False)
    scored = {s.memory.id: s for s in ws.audit}
    assert scored[hot.id].terms["emotion"] == 0.9 and scored[calm.id].terms["emotion"] == 0.0
    same = {k for k in scored[hot.id].terms if k != "emotion"
            and scored[hot.id].terms[k] != scored[calm.id].terms[k]}
    assert same == set(), same
    assert scored[hot.id].score - scored[calm.id].score == pytest.approx(0.04 * 0.9)
    assert [s.memory.id for s in ws.memories] == [hot.id, calm.id]


def test_words_that_hold_a_negator_character_negate_nothing():  # type: ignore[no-untyped-def]
    for text in ("我特别感动", "没想到这么开心", "未来很美好"):
        assert read_emotion(text).valence > 0, text
    moved = read_emotion("感动").cues[0][1]
    assert read_emotion("我特别感动").cues[0][1] == pytest.approx(1.3 * moved)

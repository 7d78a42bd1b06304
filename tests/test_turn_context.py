"""remember/remember_many of conversation events (kind event, a session) written without a
context get the neighbouring turns of their session as context, as ingest gives its turns
(write/turncontext.py): a reply is found by the words of what it answers, a question by its
answer. Real SQLite files and PostgreSQL; the clock is frozen."""

from __future__ import annotations

from datetime import UTC, datetime

from engramdb import Draft

BACKENDS = ("sqlite", "postgres")
AT = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


def turn(content: str, session: str, number: int, context: str | None = None) -> Draft:
    return Draft(content=content, kind="event", at=AT, session=session, turn=str(number),
                 context=context)


def test_a_batch_of_turns_takes_the_turns_around_each_in_its_session(me):  # type: ignore[no-untyped-def]
    results = me.remember_many([
        turn("Which bakery did you like best in Porto?", "s1", 0),
        turn("我们周末去爬黄山吧", "s2", 0),
        turn("The small one near the river, with the custard tarts.", "s1", 1),
        turn("好啊，我带上登山杖。", "s2", 1),
        turn("Did you bring any home?", "s1", 2),
    ])
    ctx = [me.get(r.memory.id).context for r in results]
    assert ctx == [
        "The small one near the river, with the custard tarts.",
        "好啊，我带上登山杖。",
        "Which bakery did you like best in Porto?\nDid you bring any home?",
        "我们周末去爬黄山吧",
        "The small one near the river, with the custard tarts.",
    ]


def test_a_single_remember_finds_the_previous_turn_in_the_store(me):  # type: ignore[no-untyped-def]
    me.remember("What was the name of your first dog?", kind="event", at=AT, session="c",
                turn="4")
    me.remember("Unrelated session turn", kind="event", at=AT, session="other", turn="9")
    reply = me.remember("Biscuit, a beagle who hated rain.", kind="event", at=AT,
                        session="c", turn="5")
    assert me.get(reply.memory.id).context == "What was the name of your first dog?"


def test_numbered_turns_take_the_nearest_lower_turn(me):  # type: ignore[no-untyped-def]
    me.remember_many([turn("turn two of the talk", "t", 2)])
    me.remember_many([turn("turn seven of the talk", "t", 7)])
    late = me.remember("turn five said late", kind="event", at=AT, session="t", turn="5")
    assert me.get(late.memory.id).context == "turn two of the talk"


def test_given_context_and_other_kinds_are_left_alone(me):  # type: ignore[no-untyped-def]
    results = me.remember_many([
        turn("Where do you keep the spare key?", "k", 0),
        turn("Under the blue flower pot.", "k", 1, context="my own context"),
        Draft(content="The spare key is under the blue flower pot.", session="k", turn="2"),
        Draft(content="no session here", kind="event", at=AT),
    ])
    ctx = [me.get(r.memory.id).context for r in results]
    assert ctx == ["Under the blue flower pot.", "my own context", None, None]


def test_a_reply_is_found_by_the_words_of_the_question_it_answers(me):  # type: ignore[no-untyped-def]
    me.remember_many([
        turn("What instrument did your grandmother play?", "g", 0),
        turn("The cello, every Sunday after lunch.", "g", 1),
        turn("你小时候最喜欢哪本书？", "h", 0),
        turn("《小王子》，我读了好多遍。", "h", 1),
    ] + [turn(f"filler line number {i} about the weather", "f", i) for i in range(20)])
    hits = me.recall("what instrument did the grandmother play", k=3)
    assert "The cello, every Sunday after lunch." in [h.memory.content for h in hits]
    hits = me.recall("小时候最喜欢的书", k=3)
    assert "《小王子》，我读了好多遍。" in [h.memory.content for h in hits]


def test_a_question_is_found_by_the_words_of_its_answer(me):  # type: ignore[no-untyped-def]
    me.remember_many([
        turn("Guess where we went on Saturday?", "q", 0),
        turn("We rented a canoe on Lake Bled!", "q", 1),
    ] + [turn(f"filler line number {i} about the weather", "f", i) for i in range(20)])
    hits = me.recall("canoe lake bled", k=2)
    assert "Guess where we went on Saturday?" in [h.memory.content for h in hits]

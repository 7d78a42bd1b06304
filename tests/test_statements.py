"""What the rule extractor keeps when no typed pattern reads a sentence (write/statement.py),
names (identity), and the memory commands said in conversation (write/commands.py), English
and Chinese, through the extractor, ``ingest`` and the mem0 facade."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engramdb import Kind, Message
from engramdb.write.extract import Turn, extract

SAID = datetime(2025, 4, 10, 15, 30, tzinfo=UTC)  # a Thursday


def kept(text: str) -> list[tuple[Kind, str]]:
    return [(d.kind, d.content) for d in extract([Turn(0, Message("user", text), SAID)])]


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("My go-to takeaway is Thai green curry.", Kind.FACT, "green curry"),
    ("I'm not great at public speaking.", Kind.FACT, "public speaking"),
    ("测试库在 db-test-03 上。", Kind.FACT, "db-test-03"),
    ("所有软件都给我用深色模式。", Kind.FACT, "深色模式"),
    ("How I make cold brew: coarse grind, 1 to 8 ratio, 18 hours in the fridge.",
     Kind.PROCEDURE, "cold brew"),
    ("发版流程：先改版本号，打 tag，然后推送 tag 触发 CI。", Kind.PROCEDURE, "版本号"),
    # a wh-word before a subject opens a clause, not a question
    ("When the kettle trips the fuse: unplug it, wait a minute, then reset the breaker.",
     Kind.PROCEDURE, "kettle"),
    ("When it comes to coffee I only drink a flat white from Ridgeway Roasters.", Kind.FACT,
     "Ridgeway Roasters"),
    ("My landlord finally fixed the boiler on Monday.", Kind.EVENT, "boiler"),
    ("周六我们从救助站领养了一只小猫。", Kind.EVENT, "小猫"),
    ("My name is Oskar Lindgren.", Kind.IDENTITY, "Oskar"),
    ("I'm Daniela, but everyone calls me Dani.", Kind.IDENTITY, "Dani"),
    ("我叫小明。", Kind.IDENTITY, "小明"),
])
def test_a_statement_no_pattern_reads_is_kept(text, kind, word):  # type: ignore[no-untyped-def]
    found = kept(text)
    assert len(found) == 1 and found[0][0] == kind and word in found[0][1]


@pytest.mark.parametrize("text", [
    "Sounds good, talk later.", "Hmm, let me think about it.", "Wow, interesting.",
    "Could you rewrite this paragraph to sound more formal?", "Good morning!",
    "好的，非常感谢！", "行，回头聊。", "嗯，我再想想。", "哇，有意思。", "早上好！",
    "帮我把这段话改得正式一点？", "一般来说租房好还是买房好？", "where did I put the charger",
    "how long does the warranty last"])
def test_small_talk_questions_and_requests_keep_nothing(text):  # type: ignore[no-untyped-def]
    assert kept(text) == []


@pytest.mark.parametrize(("text", "content"), [
    ("Remember that my locker code is 4471.", "My locker code is 4471"),
    ("please remember: the spare key is under the blue pot", "The spare key is under"),
    ("记住：我对花生过敏。", "我对花生过敏"),
])
def test_remember_that_keeps_the_rest_at_the_importance_of_an_ask(text, content):  # type: ignore[no-untyped-def]
    [draft] = extract([Turn(0, Message("user", text), SAID)])
    assert draft.content.startswith(content)
    assert draft.importance == 0.9 and draft.metadata and draft.metadata["asked"] is True


@pytest.mark.parametrize(("said", "forget", "other", "question"), [
    ("I live in Hangzhou.", "Forget that I live in Hangzhou.", "My sister lives in Lyon.",
     "where do I live?"),
    ("我住在杭州西湖区。", "忘掉我住在杭州西湖区这件事。", "我姐姐住在里昂。", "我住在哪里？"),
])
def test_forget_that_forgets_the_memory_its_turn_and_the_command(mem, said, forget, other,  # type: ignore[no-untyped-def]
                                                                 question):
    me = mem.scope(user="u", agent="a")
    me.ingest([{"role": "user", "content": said}], session="s1")
    kept_id = me.remember(other, kind="fact").memory.id
    report = me.ingest([{"role": "user", "content": forget}], session="s2")
    assert [r.content for r in report.forgotten] and not report.extracted
    assert all(said.rstrip("。.") in r.content for r in report.forgotten)
    hits = me.recall(question, k=5, track=False)
    assert [h.memory.id for h in hits] == [kept_id]   # no fact, no turn, no command left
    forgotten = report.forgotten[0]
    assert me.get(forgotten.id).layer.value == "deleted"   # soft: it can be restored


@pytest.mark.parametrize(("said", "forget"), [
    ("I drive a Polo.", "Forget that whole story about me driving a Polo."),
    ("我住在杭州。", "忘掉我住在杭州这件事。"),
])
def test_forget_names_a_short_memory_among_framing_words(mem, said, forget):  # type: ignore[no-untyped-def]
    """Every word of the memory said, and half the command's words the memory's: the
    command names it, though its framing words are half of it."""
    me = mem.scope(user="u", agent="a")
    kept = me.remember(said, kind="fact").memory
    report = me.ingest([{"role": "user", "content": forget}])
    assert [r.id for r in report.forgotten] == [kept.id]


@pytest.mark.parametrize(("said", "forget"), [
    ("I live in Hangzhou.", "Forget the phone number of the friend I met while living in "
                            "Hangzhou."),
    ("我住在杭州。", "忘掉我住在杭州时认识的那个朋友的电话。"),
])
def test_forget_of_something_else_that_mentions_a_memory_keeps_it(mem, said, forget):  # type: ignore[no-untyped-def]
    me = mem.scope(user="u", agent="a")
    kept = me.remember(said, kind="fact").memory
    report = me.ingest([{"role": "user", "content": forget}])
    assert report.forgotten == []
    assert me.get(kept.id).layer.value == "core"


def test_forget_with_no_shared_words_forgets_nothing(mem):  # type: ignore[no-untyped-def]
    me = mem.scope(user="u", agent="a")
    me.remember("I live in Hangzhou.", kind="fact")
    report = me.ingest([{"role": "user", "content": "Forget about the thing with my cousin."}])
    assert report.forgotten == []
    assert [h.memory.content for h in me.recall("where do I live", k=1, track=False)] == [
        "I live in Hangzhou."]


def test_mem0_add_keeps_a_declarative_message_and_honours_forget(tmp_path):  # type: ignore[no-untyped-def]
    from engramdb.integrations.mem0 import Memory

    m = Memory.from_config({"path": str(tmp_path / "m.db"), "embedder": "hashing"})
    out = m.add("I work as a data engineer at a logistics startup in Lisbon.", user_id="u")
    assert [r["memory"] for r in out["results"]] == [
        "I work as a data engineer at a logistics startup in Lisbon."]
    assert m.add("I'm learning German.", user_id="u")["results"]
    assert m.add("Sounds good, talk later.", user_id="u")["results"] == []
    gone = m.add("Forget that I'm learning German.", user_id="u")["results"]
    assert [(r["event"], r["memory"]) for r in gone] == [("DELETE", "I'm learning German.")]
    left = [r["memory"] for r in m.get_all(user_id="u")["results"]]
    assert left == ["I work as a data engineer at a logistics startup in Lisbon."]


def test_ingest_reads_a_long_turn_by_its_patterns_alone(mem):  # type: ignore[no-untyped-def]
    """Under ingest a turn is kept whole; of a turn of several sentences only what a typed
    pattern reads is extracted, while one sentence said alone is kept as a statement."""
    me = mem.scope(user="u", agent="a")
    long = ("Work has been a lot lately. The new release slipped twice. I like my team though.")
    report = me.ingest([{"role": "user", "content": long}])
    assert [(r.memory.kind.value, r.memory.content) for r in report.extracted] == [
        ("preference", "I like my team though.")]
    alone = me.ingest([{"role": "user", "content": "The new release slipped twice in March."}])
    assert [r.memory.kind.value for r in alone.extracted] == ["event"]
    zh = me.ingest([{"role": "user", "content": "测试库在 db-test-03 上。"}])
    assert [r.memory.content for r in zh.extracted] == ["测试库在 db-test-03 上"]


@pytest.mark.parametrize("text", [
    "Notebook battery died again.", "Remembered to water the plants.",
    "Remember to call the plumber tomorrow.", "忘记带钥匙了，只好等室友回来。",
    "Forgetting things is normal."])
def test_words_that_only_look_like_commands_are_no_commands(text):  # type: ignore[no-untyped-def]
    from engramdb.write.commands import command_of

    assert command_of(text) is None


@pytest.mark.parametrize(("ahead", "done"), [
    ("Next week I have to get the winter tyres changed.",
     "Last week I got the winter tyres changed."),
    ("下个月之前得把护照续签办了。", "上个月我把护照续签办了。"),
])
def test_a_plan_with_a_done_verb_is_no_past_episode(ahead, done):  # type: ignore[no-untyped-def]
    # "changed", 办了 say what is done by then: in the mood of a plan (write/reading.py) the
    # sentence names no past, and only the one said of a time gone by is an episode
    assert all(kind != Kind.EVENT for kind, _ in kept(ahead))
    assert [kind for kind, _ in kept(done)] == [Kind.EVENT]


def test_a_clocks_colon_is_no_label():  # type: ignore[no-untyped-def]
    # "X: a, b" is a label and steps (write/statement.py); a time such as 41:30 is no label
    [(kind, _)] = kept("Swam my first open-water mile on Saturday, 41:30, colder than I expected.")
    assert kind == Kind.EVENT


@pytest.mark.parametrize(("counted", "dated"), [
    ("我家阳台种了两盆茉莉。", "我们三号去花市买了两盆茉莉。"),
])
def test_a_chinese_count_names_no_time(counted, dated):  # type: ignore[no-untyped-def]
    # jieba tags 两盆 and 三号 alike as numbers; only a unit of the calendar or the clock (号,
    # 点, 月...) or a time word names a time, so a count with 了 says how things stand
    assert [kind for kind, _ in kept(counted)] == [Kind.FACT]
    assert [kind for kind, _ in kept(dated)] == [Kind.EVENT]

"""Conflicting values at recall time (recall/conflicts.py): two current memories that state
different values of one thing, the newer first for a question about now and the older first
for one about before, each explained; near misses (another subject, a second item, a value the
question names) keep their order. Real SQLite files, the hashing embedder, a frozen clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engramdb.recall.conflicts import (
    order_conflicts,
    read,
    replaces,
    same_frame,
    says_change,
    subjects_clash,
    unmentioned,
    values_conflict,
)


@pytest.fixture
def net_only(monkeypatch):  # type: ignore[no-untyped-def]
    """The write path's "changed_value" rule off (write/supersede.py ``CHANGED``): it now
    supersedes these pairs at write; the net is what is tested here, for the pairs the write
    path leaves side by side (said in other words, or in a conversation)."""
    import engramdb.write.supersede as supersede
    monkeypatch.setattr(supersede, "CHANGED", False)


def told(me, clock, first: str, second: str, days: int = 10) -> None:  # type: ignore[no-untyped-def]
    """``first``, then ``second`` ``days`` later; both stay current (the write path keeps
    both: what recall has to order)."""
    a = me.remember(first, at=clock.now() - timedelta(days=days + 1))
    b = me.remember(second, at=clock.now() - timedelta(days=1))
    assert me.get(a.memory.id).current and me.get(b.memory.id).current


def told_in_chat(me, clock, first: str, second: str, first_ago: int,  # type: ignore[no-untyped-def]
                 second_ago: int) -> None:
    """``first`` and ``second`` said by the user in two sessions, ``first_ago`` and
    ``second_ago`` days ago: turn events, which the write path never supersedes."""
    for text, ago, session in ((first, first_ago, "s1"), (second, second_ago, "s2")):
        me.ingest([{"role": "user", "content": text, "at": clock.now() - timedelta(days=ago)}],
                  session=session)


@pytest.mark.parametrize(("first", "second", "now", "before", "new", "old"), [
    ("I take 50 mg of sertraline every morning.",
     "Dr. Okafor increased my sertraline to 100 mg.",
     "What dose of sertraline do I take?", "What dose of sertraline did I take before?",
     "100 mg", "50 mg"),
    # (said as "其实是孙蕾，不是孙磊" the correction marks the old value: the write path
    # supersedes it, write/tripledecide.py)
    ("华信那边的对接人是孙磊。", "更正一下，华信的对接人现在是孙蕾。",
     "华信的对接人是谁？", "华信以前的对接人是谁？", "孙蕾。", "孙磊。"),
    # the newer names the older's value, in part, beside a new one (``replaces``)
    ("Sold the Focus, I drive a Toyota Yaris hybrid now.", "Traded the Yaris in for a Kia EV6.",
     "What car do I drive?", "What car did I drive before?", "EV6", "Yaris hybrid"),
    ("我在用的笔记软件是 Notion。", "嫌 Notion 太慢，换成了 Obsidian。", "我用什么笔记软件？",
     "我以前用什么笔记软件？", "Obsidian", "是 Notion"),
    # the change said after an opener, which the subject reading takes for the subject
    ("My train to Lyon departs at 6:50.", "hold on, I misread the booking, it's 8:05 not 6:50",
     "When does my Lyon train depart?", "When did my Lyon train depart before?", "8:05",
     "at 6:50"),
    ("我们部门的预算是八十万。", "唉，忙了一整天。对了，部门预算后来批成一百二十万了。",
     "部门的预算是多少？", "部门以前的预算是多少？", "一百二十万", "是八十万。"),
])
def test_newer_value_first_for_now_older_first_for_before(me, clock, net_only, first, second,  # type: ignore[no-untyped-def]
                                                          now, before, new, old) -> None:
    told(me, clock, first, second)
    hits = me.recall(now, k=3, track=False)
    assert [h.memory.content for h in hits[:2]] == [second, first]
    assert new in hits[0].memory.content
    assert hits.plan["stages"]["conflicts"] == [{"earlier": hits[1].memory.id,
                                                 "newer": hits[0].memory.id}]
    assert "newest value (was " in hits[0].why
    assert hits[1].why.count("earlier value: ") == 1 and "said later" in hits[1].why
    assert hits[1].explanation.terms["earlier_value"] == 1.0
    assert hits[0].explanation.terms["newer_value"] == 1.0
    past = me.recall(before, k=3, track=False)
    assert [h.memory.content for h in past[:2]] == [first, second]
    assert old in past[0].memory.content and "earlier value" in past[0].why


def test_a_number_written_as_a_word_is_a_value(tmp_path, clock, model) -> None:  # type: ignore[no-untyped-def]
    """"three" and "five" are values as "3" and "5" are (write/align.py NUMBER_WORDS): a
    correction with no change word, read by meaning (recall/changemeaning.py), comes first
    for a question about now (at 3d86e1d, before both, the older came first)."""
    import engramdb

    with engramdb.open(tmp_path / "m.db", clock=clock, embedder=model) as mem:
        me = mem.scope(user="ana")
        me.remember("Our piano tuner visits every three months.", kind="fact",
                    at=clock.now() - timedelta(days=30))
        me.remember("Sorry, I gave you the wrong interval: the piano tuner visits every five "
                    "months.", kind="fact", at=clock.now() - timedelta(days=2))
        hits = me.recall("How often does the piano tuner visit?", k=3, track=False)
        assert "five" in hits[0].memory.content
        assert hits.plan["stages"]["conflicts"]
    assert read("Our piano tuner visits every three months.").values == {"three": "quantity"}


@pytest.mark.parametrize(("first", "second", "question", "expected"), [
    ("My brother works at Siemens.", "My wife works at Roche.",           # another subject
     "Where does my brother work?", "My brother works at Siemens."),
    ("Our clients include Acme Logistics.", "We now also work for Harbor Foods.",  # "our X"
     "Is Acme Logistics a client?", "Our clients include Acme Logistics."),
    ("I live in Valencia.", "My parents now live in Zaragoza, not Madrid.",  # the user's
     "Where do I live?", "I live in Valencia."),
    ("小王的生日是十月二号。", "小刘的生日是十月二十号。",                    # another possessor
     "小王生日是哪天？", "小王的生日是十月二号。"),
    ("We sell to Canada.", "We no longer sell to Mexico.",               # another value denied
     "Where do we sell?", "We sell to Canada."),
    ("例会一般在周五下午三点。", "这周因为放假，例会改到周四下午三点。",        # this week only
     "例会一般什么时候？", "例会一般在周五下午三点。"),
    ("Our book club meets on Thursdays at 7pm.", "This Thursday book club moved to 8pm.",  # one day
     "When does book club usually meet?", "Our book club meets on Thursdays at 7pm."),
    ("我们的周会在每周一上午十点。", "下周一周会改到下午两点。",                  # one day
     "我们的周会一般几点？", "我们的周会在每周一上午十点。"),
])
def test_near_misses_keep_their_order(me, clock, first, second, question, expected) -> None:  # type: ignore[no-untyped-def]
    told(me, clock, first, second)
    hits = me.recall(question, k=3, track=False)
    assert hits[0].memory.content == expected
    assert "conflicts" not in hits.plan.get("stages", {})
    assert not any("earlier value" in h.why for h in hits)


@pytest.mark.parametrize(("first", "second", "question"), [
    ("Our standup is at 9:00.", "fyi standup moved to 9:45 from today", "When is standup?"),
    ("站会在每天九点。", "从今天起站会改到九点四十五。", "站会几点开？"),
])
def test_a_change_from_today_on_is_a_new_value(me, clock, net_only, first, second,  # type: ignore[no-untyped-def]
                                               question) -> None:
    """"from today", 今天起: where the new value starts, not a passing exception for today
    (which "this week the standup is at 10" is: ``test_near_misses_keep_their_order``)."""
    told(me, clock, first, second)
    hits = me.recall(question, k=3, track=False)
    assert [h.memory.content for h in hits[:2]] == [second, first]
    assert hits.plan["stages"]["conflicts"]


def test_a_question_that_names_a_time_is_left_to_the_window(me, clock, net_only) -> None:  # type: ignore[no-untyped-def]
    told(me, clock, "The car is insured with Admiral.", "We insure the car with Direct Line now.")
    hits = me.recall("Who insured the car in 2025?", k=3, track=False)
    assert "conflicts" not in hits.plan.get("stages", {})


def test_a_correction_said_in_conversation_ranks_first(me, clock) -> None:  # type: ignore[no-untyped-def]
    """Turn events are never superseded: the net orders them."""
    me.ingest([{"role": "user", "content": "The quarterly review is in room Everest.",
                "at": clock.now() - timedelta(days=3)}], session="s1")
    me.ingest([{"role": "user", "content": "Ah sorry, the quarterly review is in room "
                "Kilimanjaro now, not Everest.", "at": clock.now() - timedelta(days=1)}],
              session="s2")
    hits = me.recall("Where is the quarterly review?", k=3, track=False)
    assert "Kilimanjaro" in hits[0].memory.content
    assert any("earlier value" in h.why for h in hits if "Kilimanjaro" not in h.memory.content)


@pytest.mark.parametrize(("first", "second", "question", "new"), [
    ("Hi there! Quick thing, Lena's swim class is every Monday at 6.",
     "ugh, long day. Lena's swim coach moved her class, it's Thursday at 7 from now on.",
     "When is Lena's swim class?", "Thursday at 7"),
    ("早上好！女儿的舞蹈课在每周一晚上六点。", "唉，累坏了。对了，舞蹈老师把课调到周四晚上七点了。",
     "女儿的舞蹈课是什么时候？", "周四晚上七点"),
    # an opener that is a value alone (a time of day, a name called) states nothing of
    # anything: the turn still has one sentence that says a value
    ("Evening! Quick thing, Noor's chess club meets every Tuesday at 4.",
     "Noor's chess club moved to Fridays at 5, from now on.",
     "When does Noor's chess club meet?", "Fridays at 5"),
    ("老王！女儿的游泳课在每周二下午四点。", "女儿的游泳课改到周五下午五点了。",
     "女儿的游泳课是什么时候？", "周五下午五点"),
])
def test_a_turn_is_read_by_its_sentence_that_says_a_value(me, clock, first, second, question,  # type: ignore[no-untyped-def]
                                                         new) -> None:
    """An opener or an aside beside the change ("ugh, long day.", 唉，累坏了。) is not read:
    the sentence that says a value is."""
    told_in_chat(me, clock, first, second, 9, 1)
    hits = me.recall(question, k=3, track=False)
    assert new in hits[0].memory.content
    assert hits.plan["stages"]["conflicts"]


@pytest.mark.parametrize(("first", "echo", "second", "question", "new"), [
    ("Our team's lunch allowance is 20 a head.", "Noted: 20 per person for lunch.",
     "Heads up: the lunch allowance has gone up to 25 a head.",
     "How much can we spend on lunch per person?", "25"),
    ("阿姨的工钱一小时40。", "好的，保洁阿姨每小时40元。", "阿姨说工钱涨到一小时50了。",
     "保洁阿姨每小时多少钱？", "50"),
])
def test_an_assistants_echo_of_a_value_ranks_under_its_change(  # type: ignore[no-untyped-def]
        tmp_path, clock, model, first, echo, second, question, new) -> None:
    """The assistant's echo says the old value in the question's words, and ranked first;
    it is as old as the value it echoes, so the change comes first (at 042d3f5 the echo did)."""
    import engramdb

    with engramdb.open(tmp_path / "m.db", clock=clock, embedder=model) as mem:
        me = mem.scope(user="ana")
        me.ingest([{"role": "user", "content": first, "at": clock.now() - timedelta(days=20)},
                   {"role": "assistant", "content": echo,
                    "at": clock.now() - timedelta(days=20) + timedelta(seconds=1)}],
                  session="s1")
        me.ingest([{"role": "user", "content": second, "at": clock.now() - timedelta(days=1)}],
                  session="s2")
        hits = me.recall(question, k=3, track=False)
        assert new in hits[0].memory.content
        assert echo in [h.memory.content for h in hits[1:]]
        assert any(o == next(h.memory.id for h in hits if h.memory.content == echo)
                   for o in (p["earlier"] for p in hits.plan["stages"]["conflicts"]))


def test_an_assistants_turn_and_a_story_state_nothing_new(me, clock) -> None:  # type: ignore[no-untyped-def]
    """An assistant's or a tool's turn echoes or answers; a turn with values in several
    sentences tells a story: none is ordered as a newer value."""
    from engramdb.recall.conflicts import conflict, stating
    me.ingest([{"role": "user", "content": "My gym fee is $40 a month.",
                "at": clock.now() - timedelta(days=9)},
               {"role": "assistant", "content": "Noted, $40 a month.",
                "at": clock.now() - timedelta(days=9) + timedelta(seconds=1)},
               {"role": "tool", "content": "Billing lookup: the gym fee is $42 a month.",
                "at": clock.now() - timedelta(days=9) + timedelta(seconds=2)}], session="s1")
    me.ingest([{"role": "user", "content": "We went to Lisbon in May. Then we moved to Porto "
                "in June, and now the gym fee is $55 a month.",
                "at": clock.now() - timedelta(days=1)}], session="s2")
    turns = {r.content: r for r in me.list(limit=20) if "role" in r.metadata}
    fee, echo = turns["My gym fee is $40 a month."], turns["Noted, $40 a month."]
    tool = turns["Billing lookup: the gym fee is $42 a month."]
    story = next(r for c, r in turns.items() if c.startswith("We went to Lisbon"))
    assert stating(fee) and not stating(echo) and not stating(tool)
    assert not conflict(fee, story)


@pytest.mark.parametrize(("old", "new", "values", "change", "clash"), [
    ("Standup is at 9:15.", "Standup moved to 10:15.", True, True, False),
    ("Standup is at 9:15.", "Standup is run by Olivia.", False, False, False),  # time vs name
    ("on-call this rotation: Hannah", "on-call: Diego (swapped with Hannah)", True, True, False),
    ("I live in Valencia.", "My parents live in Zaragoza.", True, False, True),
    ("My car is a grey Skoda Octavia.", "My wife's car is now a red Fiat Panda.",
     True, True, True),
    ("We use Slack at work.", "My boss keeps hinting we could try Teams instead.",
     True, True, True),                                                      # "I" / "my boss"
    ("Our team lunch is at noon.", "Today's team lunch is pushed to 1:30.", True, True, True),
    ("前端项目部署在阿里云。", "后端项目部署在腾讯云。", True, False, False),  # 阿里云 is one value
    ("我的护照2026年到期。", "新护照办下来了，2036年到期。", True, True, False),
])
def test_the_three_readings(old, new, values, change, clash) -> None:  # type: ignore[no-untyped-def]
    a, b = read(old), read(new)
    assert values_conflict(a, b) is values
    assert says_change(a, b) is change
    assert subjects_clash(a, b) is clash


@pytest.mark.parametrize(("old", "new", "apart"), [
    ("My train to Lyon departs at 6:50.", "hold on, I misread the booking, it's 8:05 not 6:50",
     True),                                    # "hold": an opener read as the subject
    ("Our release train leaves on Tuesdays.", "The release train moved to Thursdays.", False),
    ("我们部门的预算是八十万。", "唉，忙了一整天。对了，部门预算后来批成一百二十万了。", True),
])
def test_unmentioned_subjects_are_the_write_paths_reading(old, new, apart) -> None:  # type: ignore[no-untyped-def]
    """Subjects neither text mentions of the other: asked before superseding at write
    (write/supersede.py), not by the recall-time net, which a change said after an opener
    would escape."""
    a, b = read(old), read(new)
    assert unmentioned(a, b) is apart
    assert not subjects_clash(a, b)


@pytest.mark.parametrize(("old", "new", "replaced"), [
    ("Sold the Focus, I drive a Toyota Yaris hybrid now.", "Traded the Yaris in for a Kia EV6.",
     True),                                     # "Yaris" names "Toyota Yaris" in part
    ("I drive a 2012 Ford Focus.", "Sold the Focus, I drive a Toyota Yaris hybrid now.", True),
    ("我在用的笔记软件是 Notion。", "嫌 Notion 太慢，换成了 Obsidian。", True),
    ("I drive a Toyota Yaris.", "My brother drives a Kia EV6.", False),   # the old value unnamed
    ("我开的车是大众宝来。", "宝来的保养是在4S店做的。", False),         # no new value of its kind
])
def test_a_newer_text_that_names_the_older_value_beside_a_new_one(old, new, replaced) -> None:  # type: ignore[no-untyped-def]
    assert replaces(read(old), read(new)) is replaced


def test_a_model_or_version_is_a_name_a_date_is_a_quantity() -> None:
    assert read("I drive a 2012 Ford Focus.").values == {"2012 ford focus": "name"}
    assert read("We moved to Java 21.").values == {"java 21": "name"}
    assert read("My appointment is on March 14.").values == {"march 14": "quantity"}


@pytest.mark.parametrize(("text", "values"), [
    ("Locker: 31 (12 was broken)", {"31": "quantity", "12": "quantity"}),
    ("We meet on Tuesdays, Fridays too.", {"tuesdays": "quantity", "fridays": "quantity"}),
    ("My tea is Earl Grey.", {"earl grey": "name"}),          # a space joins a value
    ("门禁密码：7731（原来的4410作废了）", {"7731": "quantity", "4410": "quantity"}),
])
def test_a_mark_between_two_values_sets_them_apart(text, values) -> None:  # type: ignore[no-untyped-def]
    assert read(text).values == values


def test_a_newer_value_beside_the_older_in_brackets_replaces_it(me, clock, net_only) -> None:  # type: ignore[no-untyped-def]
    """"31 (12 was broken)": two values, the new one and the older named again; read as one
    run ("31 12"), the older's value was named by it and no new value was left."""
    first, second = "My gym locker is number 12.", "gym locker: 31 (12 was broken)"
    assert replaces(read(first), read(second))
    told(me, clock, first, second)
    hits = me.recall("Which gym locker is mine?", k=3, track=False)
    assert [h.memory.content for h in hits[:2]] == [second, first]
    assert hits[1].explanation.terms["earlier_value"] == 1.0


def test_a_question_states_no_value() -> None:
    assert read("Should I move to Hamburg for the new job?").question
    assert read("我要不要搬去杭州？").question
    assert not read("I live in Munich.").question


@pytest.mark.parametrize(("old", "new", "same"), [
    ("Bob Kowalski said the release review was cold.", "Bob Kowalski works at Tyrell now.",
     False),                                            # only the name in common
    ("胡娜上周去了上海。", "胡娜现在喜欢奶茶，不喜欢包子。", False),
    ("家里wifi密码：qiuqiu2020", "wifi密码改了：maomao-777", True),  # what the value is of
    ("I take 50 mg of sertraline.", "Dr. Okafor increased my sertraline to 100 mg.", True),
])
def test_the_frame_is_more_than_a_name(old, new, same) -> None:  # type: ignore[no-untyped-def]
    assert same_frame(read(old), read(new)) is same


def test_episodes_happened_and_stay(me, clock) -> None:  # type: ignore[no-untyped-def]
    """Two meetings are two events, not two values of one."""
    me.remember("Budget meeting with Jack Costa: the budget is 2410 euros.", kind="event",
                at=clock.now() - timedelta(days=5))
    me.remember("Budget meeting with Jack Costa: the budget is now 3380 euros.", kind="event",
                at=clock.now() - timedelta(days=1))
    hits = me.recall("What is the budget?", k=3, track=False)
    assert len(hits) == 2 and "conflicts" not in hits.plan.get("stages", {})


@pytest.mark.parametrize("chat", [False, True])
def test_the_net_reads_what_a_default_recall_returns(me, clock, chat) -> None:  # type: ignore[no-untyped-def]
    """The five hits a recall returns by default, pair by pair: a pair of the first and the
    fifth is read (the newer placed first); one of the second and the sixth is not. Below the
    five, only the best hit's newer value said in a conversation is looked for (``_pull``):
    there the sixth, said after the best, takes the fifth place and is then set above the
    best; two remembered statements the write path has judged already."""
    for i in range(7):
        text = f"Rota note {i}: the lab cleaning rota covers bench {i}."
        at = clock.now() - timedelta(days=10 - i)
        if chat:
            me.ingest([{"role": "user", "content": text, "at": at}], session=f"s{i}")
        else:
            me.remember(text, at=at)
    hits = list(me.recall("lab cleaning rota", k=7, track=False))
    assert len(hits) == 7 and hits[0].memory.at < hits[5].memory.at
    for early, late, within in ((0, 4, True), (1, 5, False), (0, 5, chat)):
        pair = {hits[early].memory.id, hits[late].memory.id}
        ordered = list(hits)
        found = order_conflicts(ordered, "current", "lab cleaning rota",
                                lambda old, new, pair=pair: {old.id, new.id} == pair)
        assert bool(found) == within
        if within:
            older, newer = found[0]
            places = [h.memory.id for h in ordered]
            assert places.index(newer.memory.id) < places.index(older.memory.id) < 5
            assert sorted(h.memory.id for h in ordered) == sorted(h.memory.id for h in hits)
        else:
            assert ordered == hits


# a class and its details, each said in a session of its own: the details share the
# question's words; the time is said once
PIANO = ["女儿的钢琴课在每周二晚上五点半。", "女儿的钢琴课老师姓周。", "钢琴课的琴房在少年宫二楼。",
         "女儿的钢琴课学费按季度交。", "钢琴课要带两本练习册。", "女儿的钢琴课同学有三个。",
         "钢琴课结束后她会去买奶茶。", "女儿很喜欢钢琴课。", "钢琴课的老师很严格。"]
VIOLIN = ["Maya's violin lesson is on Wednesdays at six.", "Maya's violin teacher is Mr Okoro.",
          "The violin lessons are at the music school.",
          "Maya's violin lessons are paid each term.", "Maya takes two books to violin.",
          "Three other kids share Maya's violin lessons.",
          "Maya really enjoys her violin lessons.", "The violin teacher is very strict."]
BOOK_CLUB = ["Our book club meets at the Crown library.",
             "The book club is reading a novel by Ishiguro this month.",
             "Priya hosts the book club picnic in June.",
             "The book club has a group chat for reminders.", "I bring biscuits to book club.",
             "The book club was started by my neighbour Tom.",
             "Book club votes on the next title by email."]


def _chat_store(me, clock, said: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Each of ``said`` a user's turn of its own session, a day apart, in order."""
    for i, text in enumerate(said):
        me.ingest([{"role": "user", "content": text,
                    "at": clock.now() - timedelta(days=len(said) + 1 - i)}], session=f"s{i}")


@pytest.mark.parametrize(("said", "change", "question"), [
    (BOOK_CLUB, "The Crown library shut for repairs, so we gather at Hartley's cafe now.",
     "Where does our book club meet these days?"),
    (PIANO, "周老师调了排班，以后改成周五晚上七点了。", "女儿的钢琴课在每周几？"),
])
def test_the_best_hits_newer_value_is_found_below_the_top(me, clock, said, change,  # type: ignore[no-untyped-def]
                                                          question) -> None:
    """A change said in other words than the question's ranks under the turns that share its
    words; it states a new value of the best hit's, so it is looked for below the top five
    and placed first, the best marked as its earlier value."""
    _chat_store(me, clock, said)
    assert me.recall(question, k=5, track=False)[0].memory.content == said[0]
    me.ingest([{"role": "user", "content": change, "at": clock.now() - timedelta(hours=1)}],
              session="later")
    hits = me.recall(question, k=5, track=False)
    assert hits[0].memory.content == change
    assert hits[1].memory.content == said[0] and "earlier value" in hits[1].why
    assert hits.plan["stages"]["conflicts"]


@pytest.mark.parametrize(("said", "question", "best"), [
    (PIANO, "女儿喜欢钢琴课吗？", "女儿很喜欢钢琴课。"),
    (VIOLIN, "Does Maya enjoy her violin lessons?", "Maya really enjoys her violin lessons."),
])
def test_a_newer_turn_with_no_new_value_is_not_looked_for(me, clock, said, question,  # type: ignore[no-untyped-def]
                                                          best) -> None:
    """Below the top, a newer turn that shares the best hit's words but states no value of
    the kind the best states is not a newer value (read over every candidate, the words it
    shares pulled "the teacher is strict" over "she loves the class")."""
    _chat_store(me, clock, said)
    assert me.recall(question, k=3, track=False)[0].memory.content == best


@pytest.mark.parametrize(("old", "new", "clause"), [
    ("I park the car in bay 31 at the gym.",
     "Ugh what a month, the kettle died, my bus was late three times, and the gym reshuffled "
     "parking so my bay is 47 now.", "the gym reshuffled parking so my bay is 47 now."),
    ("我的车停在地库B区31号。",
     "唉最近真倒霉，热水器漏了两次水，物业还把车位重新分了，我现在的车位是B区47号。",
     "我现在的车位是B区47号。"),
])
def test_a_change_in_one_clause_of_a_chatty_sentence_is_read(old, new, clause) -> None:  # type: ignore[no-untyped-def]
    """A fact's sentence is read clause by clause too, those holding a value: the clause that
    says the new value has its own subject, not the sentence's opening words."""
    from engramdb.model import Kind, Lifecycle, Priority, Record
    from engramdb.recall.conflicts import _said, conflict
    from engramdb.write.extract import marked_sentences

    at = datetime(2026, 3, 1, tzinfo=UTC)
    first, then = (Record(id=i, user="u", agent="a", content=text, kind=Kind.FACT, uri=None,
                          priority=Priority.P2, lifecycle=Lifecycle.LONG, importance=0.5,
                          at=when, recorded_at=when, updated_at=when)
                   for i, text, when in (("m1", old, at), ("m2", new, at + timedelta(days=9))))
    assert clause in _said(then, marked_sentences(new), parts=True)
    assert clause not in _said(then, marked_sentences(new))   # the older is read whole
    assert conflict(first, then) and not conflict(then, first)


@pytest.mark.parametrize(("short", "full"), [
    ("I'm learning the cello.", "I am learning the cello."),
    ("We're renting a flat in Leeds.", "We are renting a flat in Leeds."),
    ("I've got a Honda Jazz now.", "I have got a Honda Jazz now."),
])
def test_a_contraction_is_its_pronoun_and_its_verb(short, full) -> None:  # type: ignore[no-untyped-def]
    """"I'm" reads as "I am": the user is the subject, and "i'm" is no word of the frame."""
    a, b = read(short), read(full)
    assert (a.subject, a.mentions, a.values) == (b.subject, b.mentions, b.values)


@pytest.mark.parametrize(("fact", "pending"), [
    ("Mei has violin lessons with Mr Dunn on Thursdays.",
     "Mei wants to switch to cello with Mrs Okafor after Easter."),
    ("Mei does ballet at the Riverside studio, she's in grade 3.",
     "Mei wants to move to tap once she finishes grade 4, prob after Easter."),
    ("我们家的宽带是电信的，100兆。", "想等合同到期换成联通的500兆。"),
])
def test_a_pending_item_after_a_fact_is_no_newer_value_of_it(me, clock, fact, pending) -> None:  # type: ignore[no-untyped-def]
    """What is to be done, said after how things stand, does not replace it (write path and
    recall's net alike), whatever words say the plan."""
    from engramdb.recall.conflicts import conflict
    a = me.remember(fact, kind="fact", at=clock.now() - timedelta(days=11)).memory
    b = me.remember(pending, kind="pending", at=clock.now() - timedelta(days=1)).memory
    assert me.get(a.id).current and me.get(b.id).current
    assert not conflict(me.get(a.id), me.get(b.id))
    changed = fact.replace("Thursdays", "Fridays").replace("grade 3", "grade 4") \
        .replace("100兆", "300兆")
    later = me.remember(changed, kind="fact").memory
    old = me.get(a.id)
    assert not old.current or conflict(old, me.get(later.id))  # a fact after a fact replaces it


@pytest.mark.parametrize(("first", "second", "question"), [
    ("家里的牙膏一直用冷酸灵的", "牙膏换成舒客了，便宜一点",
     "刷牙用的牙膏最近换了吗？现在是什么？"),
    ("办公室的打印纸一直买得力的", "打印纸换成晨光了，公司统一采购",
     "办公室的打印纸现在是哪家的？"),
])
def test_a_thing_then_a_change_word_then_its_new_value(me, clock, net_only, first, second,  # type: ignore[no-untyped-def]
                                                       question) -> None:
    """Where no typed value tells the two apart (jieba tags few brands as names: 冷酸灵, 得力
    and 晨光 are no values to it), the newer names a thing the older holds, a change word, and
    what it changed to: a newer value."""
    told(me, clock, first, second)
    hits = me.recall(question, k=3, track=False)
    assert hits[0].memory.content == second
    assert hits.plan["stages"]["conflicts"]


def test_a_changed_object_in_either_language() -> None:
    from engramdb.recall.untyped import changed_object
    old, new = "We keep the family recipes in a Notion page.", \
        "Recipes switched to a paper binder after the wifi died."
    assert changed_object(old, new)
    assert not changed_object(old, "Recipes never switched to anything else.")   # negated
    assert not changed_object(old, "Recipes are now in the kitchen drawer.")      # "now" alone
    assert not changed_object("Our dentist is in Selby.", "My sister moved to Leeds.")  # apart
    assert changed_object("家里的牙膏一直用冷酸灵的", "牙膏换成舒客了")
    assert not changed_object("家里的牙膏一直用冷酸灵的", "牙膏没换成舒客")

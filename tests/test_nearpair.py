"""Two current facts alike, of two subjects (recall/nearpair.py): a question about one ranks
its own fact first, whichever was said last. Real SQLite files, the hashing embedder, a
frozen clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engramdb.recall.nearpair import MIN_LEAN, _two_kinds


@pytest.mark.parametrize(("mine", "theirs", "about_me", "about_them"), [
    ("I work at Siemens.", "My wife works at Roche.",
     "Where do I work?", "Where does my wife work?"),
    ("I live in Hangzhou.", "My parents live in Shaoxing.",
     "Where do I live?", "Where do my parents live?"),
    ("我对青霉素过敏。", "我女儿对芒果过敏。", "我对什么过敏？", "我女儿对什么过敏？"),
    ("我住在杭州西湖区。", "我爸妈住在绍兴。", "我住在哪里？", "我爸妈住在哪里？"),
])
@pytest.mark.parametrize("mine_first", [True, False])
def test_each_question_ranks_its_own_fact_first(me, clock, mine, theirs, about_me,  # type: ignore[no-untyped-def]
                                                about_them, mine_first) -> None:
    first, second = (mine, theirs) if mine_first else (theirs, mine)
    a = me.remember(first, kind="fact", at=clock.now() - timedelta(days=3))
    b = me.remember(second, kind="fact", at=clock.now() - timedelta(days=1))
    assert me.get(a.memory.id).current and me.get(b.memory.id).current
    for question, want in ((about_me, mine), (about_them, theirs)):
        hits = me.recall(question, k=3, track=False)
        assert hits[0].memory.content == want, question
        moved = hits.plan["stages"].get("near", [])
        if moved:  # the move is said in the plan and in the hit's notes
            assert moved[0]["first"] == hits[0].memory.id and moved[0]["by"] == "subject"
            assert any(n.startswith("near miss") for n in hits[0].explanation.notes)


@pytest.mark.parametrize(("fact", "plan", "asked"), [
    ("Our Postgres is version 14.", "We're considering upgrading Postgres to 16 next quarter.",
     "Which Postgres version are we considering?"),
    ("我们的数据库是 MySQL 5.7。", "我们考虑明年把数据库升级到 MySQL 8。",
     "我们打算用哪个版本的数据库？"),
])
@pytest.mark.parametrize("fact_first", [True, False])
def test_a_question_in_a_mood_ranks_the_statement_in_it_first(me, clock, fact, plan,  # type: ignore[no-untyped-def]
                                                             asked, fact_first) -> None:
    first, second = (fact, plan) if fact_first else (plan, fact)
    me.remember(first, kind="fact", at=clock.now() - timedelta(days=3))
    me.remember(second, kind="fact", at=clock.now() - timedelta(days=1))
    hits = me.recall(asked, k=3, track=False)
    assert hits[0].memory.content == plan
    assert hits.plan["stages"]["near"][0]["by"] == "mood"


@pytest.mark.parametrize(("fact", "plan", "planned_q", "plain_q"), [
    ("The hall is painted grey.", "We plan to repaint the hall yellow in May.",
     "What colour are we going to paint the hall?", "What colour is the hall?"),
    ("我家客厅的墙刷的是米白色。", "准备明年春天把客厅重新粉刷成浅绿色。",
     "客厅的墙打算刷成什么颜色？", "客厅的墙现在是什么颜色？"),
])
@pytest.mark.parametrize("fact_first", [True, False])
def test_a_question_in_a_plans_mood_ranks_the_pending_plan_first_whatever_its_words(  # type: ignore[no-untyped-def]
        me, clock, fact, plan, planned_q, plain_q, fact_first) -> None:
    """The statement holds more of the question's words ("painted" / "paint"): the plan,
    kept as a pending item, is still what a question in its mood is about."""
    first, second = ((fact, "fact"), (plan, "pending")) if fact_first \
        else ((plan, "pending"), (fact, "fact"))
    me.remember(first[0], kind=first[1], at=clock.now() - timedelta(days=3))
    me.remember(second[0], kind=second[1], at=clock.now() - timedelta(days=1))
    hits = me.recall(planned_q, k=3, track=False)
    terms = {h.memory.content: h.explanation.terms["coverage"] for h in hits}
    assert terms[fact] > terms[plan]
    assert hits[0].memory.content == plan
    assert hits.plan["stages"]["near"][0]["by"] == "mood"
    assert me.recall(plain_q, k=3, track=False)[0].memory.content == fact


@pytest.mark.parametrize(("fact", "aside", "asked"), [
    ("Our team syncs every Tuesday at 10.", "Would Wednesday be a better day for the team sync?",
     "When does our team sync?"),
    ("I work as a nurse in Leeds.", "Years ago I worked as a lifeguard in Leeds.",
     "What do I work as?"),
    ("我们的周会在每周二上午十点。", "周会改到周三会不会更好？", "我们的周会在什么时候？"),
    ("我住在成都。", "小时候我在重庆住过几年。", "我住在哪里？"),
])
def test_a_plain_question_ranks_the_plain_statement_above_a_question_or_a_story(  # type: ignore[no-untyped-def]
        me, clock, fact, aside, asked) -> None:
    """Two hits the question's words weigh alike, the aside (a question said, a past story)
    first: a question in no mood moves the plain statement above it."""
    from engramdb.model import Explanation, Hit
    from engramdb.recall.nearpair import order_near
    from engramdb.registry import make_embedder
    model = make_embedder("hashing")
    said = {me.remember(text, kind="fact", at=clock.now() - timedelta(days=d)).memory.id: text
            for text, d in ((aside, 1), (fact, 3))}
    hits = [Hit(memory=me.get(mid), score=1.0, explanation=Explanation(terms={"coverage": 0.5}))
            for mid in said]
    moved = order_near(hits, asked, "current", model.embed_batch([asked], query=True)[0],
                       lambda ids: {mid: model.embed_batch([said[mid]])[0] for mid in ids})
    assert [h.memory.content for h in hits] == [fact, aside]
    assert [why for _, _, why in moved] == ["mood"]


@pytest.mark.parametrize(("older", "newer", "about_older", "about_newer"), [
    ("我常去的健身房早上六点开门。", "我常去的健身房在滨江路上。",
     "健身房几点开门？", "健身房在哪里？"),
    ("The API gateway runs on port 8443.", "The API gateway is owned by the platform team.",
     "Which port does the API gateway run on?", "Who owns the API gateway?"),
])
def test_two_attributes_of_one_subject_each_first_for_its_question(me, clock, older, newer,  # type: ignore[no-untyped-def]
                                                                  about_older,
                                                                  about_newer) -> None:
    me.remember(older, kind="fact", at=clock.now() - timedelta(days=3))
    me.remember(newer, kind="fact", at=clock.now() - timedelta(days=1))
    assert me.recall(about_older, k=3, track=False)[0].memory.content == older
    assert me.recall(about_newer, k=3, track=False)[0].memory.content == newer


@pytest.mark.parametrize(("text", "past"), [
    ("我们的周会在什么时候？", False),       # 什么时候 asks "when": no story
    ("小时候我在重庆住过几年。", True),
    ("Years ago I worked as a lifeguard in Leeds.", True),
    ("When does our team sync?", False),
])
def test_a_when_question_is_not_a_past_story(text, past) -> None:  # type: ignore[no-untyped-def]
    from engramdb.write.reading import read
    assert ("past" in read(text).moods) is past


@pytest.mark.parametrize(("usual", "once", "asked"), [
    ("Our standup is at 9:30 in room B.", "Next Tuesday standup moves to 11:00 for the offsite.",
     "When is our standup?"),
    ("我每周六上午去游泳馆游泳。", "这周六上午我改去爬香山。", "我周六上午一般做什么？"),
])
def test_a_plain_question_ranks_how_things_stand_above_one_day(me, clock, usual, once,  # type: ignore[no-untyped-def]
                                                             asked) -> None:
    """One occasion of a weekday ("next Tuesday", 这周六) is an exception or a plan for that
    day: a question in no mood is about how things stand."""
    me.remember(usual, kind="fact", at=clock.now() - timedelta(days=10))
    me.remember(once, kind="fact", at=clock.now() - timedelta(days=1))
    hits = me.recall(asked, k=3, track=False)
    assert hits[0].memory.content == usual
    assert hits.plan["stages"]["near"][0]["by"] == "mood"



def test_values_of_two_kinds_are_two_attributes_that_meaning_orders(  # type: ignore[no-untyped-def]
        tmp_path, clock, model, monkeypatch) -> None:
    """A quantity and a name are two attributes, not one value changed: the question's
    meaning, not time, lifts the older above the newer (the default embedder). The re-ranker's
    tie by meaning (recall/rerank.py) orders this pair already; switched off here, the near
    pair's lean does."""
    import engramdb
    from engramdb.recall import pipeline

    monkeypatch.setattr(pipeline, "standing_ties", lambda standings, size: {})
    older, newer = "Leo walks 10,000 steps every day.", "Leo's neighbour Ines never walks anywhere."
    with engramdb.open(tmp_path / "m.db", embedder=model, clock=clock) as mem:
        me = mem.scope(user="ana")
        me.remember(older, kind="fact", at=clock.now() - timedelta(days=3))
        me.remember(newer, kind="fact", at=clock.now() - timedelta(days=1))
        hits = me.recall("How active is Leo on foot?", k=3, track=False)
        assert hits[0].memory.content == older
        assert hits.plan["stages"]["near"][0]["by"] == "meaning"
        assert hits[0].explanation.terms["near_lean"] >= MIN_LEAN


@pytest.mark.parametrize(("x", "y", "two"), [
    ("Leo walks 10,000 steps every day.", "Leo's neighbour Ines never walks anywhere.", True),
    ("The lab laptop runs Windows.", "The lab laptop has 512 gigabytes of storage.", True),
    ("测试服务器装的是 CentOS。", "测试服务器有64G内存。", True),
    ("Standup is at 9:15.", "Standup is at 10:30.", False),       # one kind: maybe a change
    ("我的车位是A区12号。", "我的车位是C区7号。", False),
    ("I drink black coffee.", "I drink green tea.", False),       # no typed value: not told
])
def test_two_kinds_of_value(x, y, two) -> None:  # type: ignore[no-untyped-def]
    from types import SimpleNamespace

    def hit(text):  # type: ignore[no-untyped-def]
        return SimpleNamespace(memory=SimpleNamespace(content=text))

    assert _two_kinds(hit(x), hit(y)) is two


@pytest.mark.parametrize(("passing", "usual", "asked"), [
    ("This week choir rehearses on Friday evening, the hall is booked.",
     "Choir rehearses on Thursday evenings.", "When does choir rehearse this week?"),
    ("这周合唱团在周五晚上排练，礼堂被占了。", "合唱团在周四晚上排练。",
     "这周合唱团在什么时候排练？"),
])
@pytest.mark.parametrize("embedder", ["hashing", "default"])
def test_a_question_about_a_passing_while_ranks_what_holds_for_it_first(  # type: ignore[no-untyped-def]
        tmp_path, clock, passing, usual, asked, embedder, model) -> None:
    """A statement that names a while around when it was said ("this week", 这周: the time
    parser's window, recall/conflicts.py ``for_a_while``) is in the passing mood, and so is a
    question that names one around now: the usual arrangement, said later, ranks below it."""
    import engramdb

    with engramdb.open(tmp_path / "m.db", clock=clock,
                       embedder=model if embedder == "default" else embedder) as mem:
        me = mem.scope(user="ana")
        me.remember(passing, kind="fact", at=clock.now() - timedelta(days=1))
        me.remember(usual, kind="fact", at=clock.now() - timedelta(hours=2))
        hits = me.recall(asked, k=3, track=False)
        assert hits[0].memory.content == passing


@pytest.mark.parametrize(("habit", "exception", "asked"), [
    ("I cycle to the depot on Mondays.",
     "This Monday I'm taking the bus to the depot, the bike has a flat.",
     "How am I going to get to the depot this week?"),
    ("我每周一骑车去仓库。", "这周一自行车爆胎了，坐公交去仓库。", "这周我打算怎么去仓库？"),
])
def test_a_question_in_two_moods_is_about_a_statement_in_either(  # type: ignore[no-untyped-def]
        me, clock, habit, exception, asked) -> None:
    """A question about this week said as a plan ("going to", 打算) is in the passing mood
    and the plan's: a passing exception, in one of them, ranks above the habit, in neither,
    though the habit was said later."""
    me.remember(exception, kind="fact", at=clock.now() - timedelta(days=1))
    me.remember(habit, kind="fact", at=clock.now() - timedelta(hours=2))
    assert me.recall(asked, k=3, track=False)[0].memory.content == exception


@pytest.mark.parametrize(("old", "new", "asked", "value"), [
    ("The demo site builds from the main branch.",
     "The demo site now builds from the feature/will-merge branch.",
     "Which branch does the demo site build from?", "feature/will-merge"),
    ("我们的预发布环境从 develop 分支部署。", "预发布环境现在改成从 hotfix/next 分支部署了。",
     "预发布环境用哪个分支？", "hotfix/next"),
])
def test_a_mood_word_inside_a_code_marks_no_mood(me, old, new, asked, value) -> None:  # type: ignore[no-untyped-def]
    """"next" in hotfix/next and "will" in feature/will-merge are parts of a name, not a
    plan: the change supersedes the old branch."""
    from engramdb.write.reading import read
    assert "plan" not in read(new).moods
    assert "plan" in read("Next week the demo site may build from another branch.").moods
    first = me.remember(old, kind="fact")
    result = me.remember(new, kind="fact")
    assert result.action.value == "supersede" and result.evidence["old_id"] == first.memory.id
    assert value in me.recall(asked, k=3, track=False)[0].memory.content


@pytest.mark.parametrize(("habit", "exception", "usual", "now"), [
    ("I walk to the studio every morning.",
     "This week I'm driving to the studio because my ankle is sprained.",
     "How do I normally get to the studio?", "How am I getting there this week?"),
    ("我平时骑车去公司。", "这周我膝盖疼，坐地铁去公司。",
     "我一般怎么去公司？", "这几天我怎么去公司？"),
])
def test_a_habit_and_a_passing_exception_each_answer_their_question(  # type: ignore[no-untyped-def]
        me, clock, habit, exception, usual, now) -> None:
    """A question about how things usually are ranks the habit first, one about this week the
    exception, whichever holds more of the question's words."""
    me.remember(habit, kind="fact", at=clock.now() - timedelta(days=20))
    me.remember(exception, kind="fact", at=clock.now() - timedelta(days=1))
    assert me.recall(usual, k=3, track=False)[0].memory.content == habit
    assert me.recall(now, k=3, track=False)[0].memory.content == exception


@pytest.mark.parametrize(("habit", "exception", "usual", "ahead"), [
    ("The yoga class meets at 6 pm.",
     "Tomorrow the yoga class meets at 8 pm because the studio floor is being varnished.",
     "When does the yoga class normally meet?", "When does the yoga class meet tomorrow?"),
    ("乐队每周二晚上七点排练。", "明天乐队排练推到九点，鼓手的航班晚点了。",
     "乐队一般几点排练？", "明天乐队几点排练？"),
    ("The farm shop sells eggs by the dozen.",
     "This weekend the farm shop only sells eggs by the half dozen, the hens are moulting.",
     "How does the farm shop usually sell eggs?",
     "How is the farm shop selling eggs this weekend?"),
    ("The lift in our block works fine.",
     "For the next few days the lift in our block is out of order, so I'm taking the stairs.",
     "Does the lift in our block normally work?",
     "Is the lift in our block working these few days?"),
    ("我平时在家里洗澡。", "这两周热水器坏了，我去健身房洗澡。",
     "我一般在哪儿洗澡？", "这几天我在哪儿洗澡？"),
    ("菜市场的鱼摊早上六点开门。", "这个周末菜市场的鱼摊九点才开门，老板去喝喜酒了。",
     "鱼摊平时几点开门？", "这个周末鱼摊几点开门？"),
])
def test_an_exception_for_a_while_ahead_and_the_habit_each_answer_their_question(  # type: ignore[no-untyped-def]
        me, clock, habit, exception, usual, ahead) -> None:
    """A statement naming a while ahead of when it was said ("tomorrow", 这个周末, "the next
    few days": the time parser's window, recall/conflicts.py ``for_a_while``) is a passing
    exception, as one naming a while that holds it is (这两周): the habit answers how things
    usually are, and the exception a question about that while."""
    me.remember(habit, kind="fact", at=clock.now() - timedelta(days=5))
    me.remember(exception, kind="fact", at=clock.now() - timedelta(hours=1))
    assert me.recall(usual, k=3, track=False)[0].memory.content == habit
    assert me.recall(ahead, k=3, track=False)[0].memory.content == exception


@pytest.mark.parametrize(("habit", "exception", "usual", "now"), [
    ("We always eat Sunday lunch at home.",
     "This Sunday we're booked into the Harbour Inn for Dad's birthday.",
     "Where do we usually have Sunday lunch?", "Where are we eating this Sunday?"),
    ("我每周六下午去打羽毛球。", "这周末肩膀拉伤了，改成在家看球赛。",
     "我周末通常做什么运动？", "这个周末我干什么？"),
])
@pytest.mark.parametrize("by_meaning", [True, False])
def test_a_habit_and_an_exception_said_in_other_words_each_answer_their_question(  # type: ignore[no-untyped-def]
        tmp_path, clock, model, monkeypatch, habit, exception, usual, now, by_meaning) -> None:
    """The habit and the exception share no word that tells they are one frame; their
    meaning does (recall/framemeaning.py at nearpair.FRAMED), so a question about how things
    usually are ranks the habit first and one about this week the exception. Without the
    reading by meaning (a bar no pair reaches) one of the two questions gets the other."""
    import engramdb
    import engramdb.recall.pipeline as pipeline

    if not by_meaning:
        monkeypatch.setattr(pipeline, "FRAMED", 99.0)
    with engramdb.open(tmp_path / "m.db", clock=clock, embedder=model) as mem:
        me = mem.scope(user="ana")
        me.remember(habit, kind="fact", at=clock.now() - timedelta(days=3))
        me.remember(exception, kind="fact", at=clock.now() - timedelta(hours=1))
        firsts = [me.recall(q, k=3, track=False)[0].memory.content for q in (usual, now)]
    assert (firsts == [habit, exception]) is by_meaning


@pytest.mark.parametrize(("fact", "asked", "about_asking", "plain"), [
    ("Our boiler is a Worcester Bosch.", "Is a Vaillant boiler quieter than ours?",
     "Which boiler brand was I asking about?", "What boiler do we have?"),
    ("家里那台笔记本电脑是联想的。", "联想笔记本电脑换固态硬盘贵不贵？",
     "关于笔记本电脑我问过什么？", "家里那台笔记本电脑是哪家的？"),
])
@pytest.mark.parametrize("fact_first", [True, False])
def test_a_question_about_what_was_asked_ranks_the_question_said_first(  # type: ignore[no-untyped-def]
        me, clock, fact, asked, about_asking, plain, fact_first) -> None:
    """A question whose verb is one of asking ("was I asking", 我问过) is in the mood of a
    question said: the stored question first. A plain question keeps the statement first."""
    first, second = (fact, asked) if fact_first else (asked, fact)
    me.remember(first, kind="fact", at=clock.now() - timedelta(days=3))
    me.remember(second, kind="fact", at=clock.now() - timedelta(days=1))
    hits = me.recall(about_asking, k=3, track=False)
    assert hits[0].memory.content == asked
    assert me.recall(plain, k=3, track=False)[0].memory.content == fact


@pytest.mark.parametrize(("text", "asked"), [
    ("does the lido by the river open on Sundays? need to pack goggles", True),
    ("any room left in the Friday pottery class? ask at the desk", True),
    ("周日菜场开不开门？想去买条鱼", True),
    ("Guess what? We bought a narrowboat called Heron.", False),  # an opener, then the value
    ("你猜怎么着？我们搬到杭州了", False),
    ("The lido opens at 7 on Sundays.", False),
])
def test_a_text_whose_values_are_all_asked_is_a_question(text, asked) -> None:  # type: ignore[no-untyped-def]
    """A question said with why it is asked ends on the why, not the question mark."""
    from engramdb.write.reading import read
    assert ("question" in read(text).moods) is asked


@pytest.mark.parametrize(("leaning", "first", "why"), [
    ((1.0, 0.0, 0.0), "aside", ["meaning"]),   # the question leans to the aside one by 0.71
    ((0.7071, 0.7071, 0.0), "fact", []),        # it leans to neither: the plain statement stays
])
def test_a_plain_question_leaning_far_to_the_aside_one_ranks_it_first(  # type: ignore[no-untyped-def]
        me, clock, leaning, first, why) -> None:
    """A plain question ranks a plain statement above a question said, unless it leans toward
    the question said by ASIDE_LEAN or more (``near_lean``, in the question's own model)."""
    import numpy as np

    from engramdb.model import Explanation, Hit
    from engramdb.recall.nearpair import ASIDE_LEAN, order_near
    texts = {"fact": "The pool on Elm Street opens at 6 every morning.",
             "aside": "is the lido by the river open on Sundays? need to check"}
    axes = {"aside": np.array([1.0, 0.0, 0.0], np.float32),
            "fact": np.array([0.0, 1.0, 0.0], np.float32)}
    ids = {me.remember(texts[name], kind="fact", at=clock.now() - timedelta(days=d)).memory.id:
           name for name, d in (("aside", 1), ("fact", 3))}
    hits = [Hit(memory=me.get(mid), score=1.0, explanation=Explanation(terms={"coverage": 0.5}))
            for mid in sorted(ids, key=lambda mid: ids[mid] != "fact")]   # the fact above
    question = np.array(leaning, np.float32)
    moved = order_near(hits, "what is still open about the lido?", "current", question,
                       lambda wanted: {mid: axes[ids[mid]] for mid in wanted})
    assert ids[hits[0].memory.id] == first
    assert [w for _, _, w in moved] == why
    assert (float(question @ (axes["aside"] - axes["fact"])) / 2 ** 0.5 >= ASIDE_LEAN) \
        is (first == "aside")

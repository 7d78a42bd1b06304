"""Cross-lingual recall (recall/crosslingual.py): a question in one language finds a memory
written in the other in a mixed store, with the real default models; the language rule
(text/lang.py) and the per-scope language tally it stands on."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import engramdb
from engramdb.model import Scope
from engramdb.recall.crosslingual import LEG, LanguageMix
from engramdb.registry import make_embedder
from engramdb.testing import FrozenClock
from engramdb.text.lang import EN, ZH, language, other, script

# ---------------------------------------------------------------- the language rule


@pytest.mark.parametrize(("text", "lang"), [
    ("I moved to Vancouver last summer", EN),
    ("我去年夏天搬到了温哥华", ZH),
    ("我在Google工作", ZH),                       # a Latin name inside Chinese
    ("周末和Tom去Costco买东西", ZH),
    ("I really love 饺子 and noodles", EN),       # a Chinese word inside English
    ("Meeting with 王磊 at 3pm about the budget", EN),
    ("2024-05-08 12:00", EN),                     # neither script
    ("", EN),
    ("好", ZH),
    ("Café crème, très bon", EN),                 # Latin letters with accents
])
def test_language_of_a_text(text: str, lang: str) -> None:
    assert language(text) == lang


def test_other_language() -> None:
    assert other(EN) == ZH and other(ZH) == EN


def test_a_question_with_any_chinese_is_read_in_chinese() -> None:
    """``script``: the language the recall reads a question in (its model's half, its
    background): Chinese where it holds any Chinese character, where ``language`` weighs the
    two scripts' words."""
    mixed = "I really love 饺子 and noodles"
    assert script(mixed) == ZH and language(mixed) == EN
    assert script("我在Google工作") == ZH and script("Where do I work?") == EN and script("") == EN


# ---------------------------------------------------------------- the scope's tally


def test_language_mix_follows_writes_and_forgets(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing") as mem:
        scope = mem.default_scope
        mix = LanguageMix(mem.store)
        assert mix.of(scope).count(EN) == 0 and mix.of(scope).count(ZH) == 0
        en = mem.remember("I play tennis on Tuesdays").memory
        zh = mem.remember("我每周三去游泳").memory
        state = mix.of(scope)
        assert state.ids[EN] == {en.id} and state.ids[ZH] == {zh.id}
        mem.remember("My sister lives in Oslo")
        assert mix.of(scope).count(EN) == 2
        mem.forget(zh.id)                                   # soft: out of every search
        assert mix.of(scope).count(ZH) == 0 and mix.of(scope).count(EN) == 2
        mem.restore(zh.id)
        assert mix.of(scope).ids[ZH] == {zh.id}
        mem.forget(zh.id, hard=True)
        assert mix.of(scope).count(ZH) == 0 and mix.of(scope).count(EN) == 2
        other_scope = mem.scope(user="someone-else")
        other_scope.remember("他喜欢喝绿茶")
        assert mix.of(scope).count(ZH) == 0
        assert mix.of(Scope("someone-else", scope.agent)).count(ZH) == 1


def test_an_embedder_without_a_cross_lingual_half_adds_no_stage() -> None:
    with engramdb.open(":memory:", embedder="hashing") as mem:
        mem.remember("I play tennis on Tuesdays")
        mem.remember("我每周三去游泳")
        hits = mem.recall("tennis", k=3, track=False)
        assert "crosslingual" not in hits.plan
        assert all(LEG not in h.explanation.legs for h in hits)


# ---------------------------------------------------------------- real models, mixed store

FACTS = [  # (stored text, question in English, question in Chinese)
    ("My brother Kevin is getting married in Hawaii in June.",
     "Where is Kevin's wedding taking place?", "Kevin的婚礼在哪里举行？"),
    ("I'm allergic to penicillin, so doctors must not prescribe it.",
     "Which medicine must the user avoid?", "用户不能用哪种药？"),
    ("我爸爸退休以后每天都去水库钓鱼。",
     "What does the user's father do now that he is retired?", "用户的父亲退休后做什么？"),
    ("我女儿今年九月开始上小学。",
     "When does the user's daughter start school?", "用户的女儿什么时候开始上学？"),
]
DISTRACTORS = [
    "The printer on the third floor is out of toner.",
    "Our team standup moved to 10 am.",
    "I bought a new raincoat last week.",
    "我昨天看了一部很长的电影。",
    "周末天气不错，适合散步。",
    "我们小区的物业费又涨了。",
]


def opened(others: list[str]):  # type: ignore[no-untyped-def]
    """A store of FACTS and ``others`` with the default models: (memory, the facts' ids)."""
    mem = engramdb.open(":memory:", embedder=make_embedder("default"))
    ids = [r.memory.id for r in mem.remember_many([engramdb.Draft(t) for t, _, _ in FACTS])]
    mem.remember_many([engramdb.Draft(t) for t in others])
    yield mem, ids
    mem.close()


@pytest.fixture(scope="module")
def mixed():  # type: ignore[no-untyped-def]
    yield from opened(DISTRACTORS)


@pytest.mark.parametrize("n", range(len(FACTS)))
def test_a_question_in_the_other_language_finds_the_memory(mixed, n: int) -> None:  # type: ignore[no-untyped-def]
    mem, ids = mixed
    text, q_en, q_zh = FACTS[n]
    question = q_zh if language(text) == EN else q_en   # always the other language
    hits = mem.recall(question, k=3, track=False)
    assert ids[n] in [h.memory.id for h in hits], (question, text)
    stage = hits.plan["crosslingual"]
    assert stage["query_language"] == language(question)
    assert stage["other_language"] == language(text)
    assert stage["memories_in_it"] >= 2
    gold = next(h for h in hits if h.memory.id == ids[n])
    assert LEG in gold.explanation.legs
    assert LEG in gold.explanation.to_dict()["legs"]


def test_both_directions_are_exercised() -> None:
    langs = {language(t) for t, _, _ in FACTS}
    assert langs == {EN, ZH}


def test_a_store_in_one_language_runs_no_cross_lingual_stage() -> None:
    with engramdb.open(":memory:", embedder=make_embedder("default")) as mem:
        mem.remember_many([engramdb.Draft(t) for t in DISTRACTORS[:3]])
        mem.remember("My brother Kevin is getting married in Hawaii in June.")
        hits = mem.recall("Where is Kevin's wedding taking place?", k=3, track=False)
        assert "crosslingual" not in hits.plan
        assert all(LEG not in h.explanation.legs for h in hits)
        # the same store asked in Chinese: the English memories are the other language
        hits = mem.recall("Kevin的婚礼在哪里举行？", k=3, track=False)
        assert hits.plan["crosslingual"]["other_language"] == EN


# ---------------------------------------------------------------- a small mixed store

def test_a_few_memories_in_the_other_language_do_not_outrank_the_answer() -> None:
    """Three memories of one language, none on the question's topic, are no background: the
    best of them must not stand out by itself above the current answer in the other
    language (a user who writes in both, early on: a small store, one value superseded)."""
    clock = FrozenClock(datetime(2026, 3, 1, 12, tzinfo=UTC))
    with engramdb.open(":memory:", embedder=make_embedder("default"), clock=clock) as mem:
        for text in ["I go swimming every Saturday.", "My cousin works as a pilot.",
                     "The quarterly report is due next Tuesday.", "我喜欢喝绿茶。"]:
            mem.remember(text)
        mem.remember("我住在苏州。")
        clock.advance(days=20)
        answer = mem.remember("我搬到了厦门。")
        assert answer.rule == "slot_new_value"
        for question in ["我现在住在哪？", "Where do I live now?"]:
            hits = mem.recall(question, k=3, track=False)
            assert hits[0].memory.id == answer.memory.id, question


def test_a_small_scope_is_not_expanded_from_its_own_top_memories() -> None:
    """Pseudo-relevance feedback needs a pool: in a scope of six memories the top five are
    most of it, and a word two of them share ("喜欢") is no cue for the question."""
    with engramdb.open(":memory:", embedder=make_embedder("default")) as mem:
        for text in ["我喜欢周末去钓鱼。", "我喜欢吃川菜。", "我哥哥是律师。",
                     "下周一交季度报告。"]:
            mem.remember(text)
        answer = mem.remember("我每天骑自行车上班。").memory.id
        hits = mem.recall("我上班用什么交通工具？", k=3, track=False)
        assert "expansion" not in hits.plan.get("stages", {})
        assert hits[0].memory.id == answer


def test_a_chinese_question_on_an_english_scope_asks_no_main_model(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The main model's standings are read only for memories in the question's language, and
    there are none: the leg is the same list with the same scores without asking it (so e5
    need not load for it). With a memory in Chinese in the scope, it is asked."""
    from engramdb.recall.crosslingual import _search, cross_leg
    from engramdb.recall.plan import plan_query
    from engramdb.recall.presets import get_preset

    with engramdb.open(tmp_path / "m.db", embedder="hashing") as mem:
        for text in ("I moved to Berlin in May", "My sister likes green tea",
                     "I work as a nurse", "We adopted a cat named Mochi"):
            mem.remember(text)
        scope, preset = mem.default_scope, get_preset("default")

        def aligned(text: str):  # type: ignore[no-untyped-def]
            return mem.embedder.embed_batch([text], query=True)[0]

        asked: list[str] = []

        def main(plan):  # type: ignore[no-untyped-def]
            asked.append(plan.query)
            return aligned("a different model: " + plan.query)

        plan = plan_query("我养了什么宠物")
        _, lists = cross_leg(mem.store, LanguageMix(mem.store), aligned, scope, plan, preset,
                             main=main)
        assert asked == [] and plan.crosslingual is not None
        both = _search(mem.store, scope, plan, [aligned(plan.query), main(plan)],
                       LanguageMix(mem.store).of(scope), main_reads=False)
        assert lists[LEG] == both and len(both) == 4
        asked.clear()
        mem.remember("我们养了一只猫")
        cross_leg(mem.store, LanguageMix(mem.store), aligned, scope, plan_query("我养了什么宠物"),
                  preset, main=main)
        assert asked == ["我养了什么宠物"]


MORE = [
    "The dentist appointment got moved to Thursday morning.",
    "Our landlord finally fixed the leaking kitchen tap.",
    "I started reading a novel about a lighthouse keeper.",
    "The gym near the office closes early on Sundays.",
    "My laptop battery barely lasts three hours now.",
    "We ordered a new sofa; delivery takes six weeks.",
    "The team offsite is planned for the end of the quarter.",
    "I keep forgetting to water the basil on the balcony.",
    "公司楼下新开了一家面馆，味道一般。",
    "我上周把自行车送去修了刹车。",
    "孩子的钢琴课改到了周三晚上。",
    "最近每天早上都跑步三公里。",
    "家里的路由器老是断网，准备换一个。",
    "我们计划国庆节回老家看看。",
    "楼上邻居装修，白天特别吵。",
    "我开始用手账记录每天的开销。",
]


@pytest.fixture(scope="module")
def judged():  # type: ignore[no-untyped-def]
    """The mixed store with enough memories of each language to have a background."""
    yield from opened(DISTRACTORS + MORE)


@pytest.mark.parametrize("n", range(len(FACTS)))
def test_an_answer_in_the_other_language_stands_out_above_chance(judged, n: int) -> None:  # type: ignore[no-untyped-def]
    # it shares no word with the question: its standing above chance against the scope's
    # background (recall/across.py) is its evidence, above every other memory in its
    # language, and the floor an LLM's doors use keeps it
    mem, ids = judged
    text, q_en, q_zh = FACTS[n]
    question = q_zh if language(text) == EN else q_en
    every = mem.recall(question, k=10, track=False, relevance_floor=0)
    standing = {h.memory.id: h.explanation.terms["across"] for h in every
                if "across" in h.explanation.terms}
    assert standing.get(ids[n], 0) > 0, (question, standing)
    assert max(standing, key=standing.__getitem__) == ids[n]
    hits = mem.recall(question, k=3, track=False, relevance_floor=mem.config.answer_floor)
    assert ids[n] in [h.memory.id for h in hits], [(h.score, h.memory.content) for h in hits]

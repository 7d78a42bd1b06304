"""The read path's wider candidate set and second stage (issue 14): query expansion from the
top hits (recall/expand.py) and the feature re-ranker (recall/rerank.py), each shown in the
hit's explanation and the plan.
Real SQLite files and PostgreSQL; English and Chinese."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engramdb import Draft

BACKENDS = ("sqlite", "postgres")
AT = datetime(2025, 5, 1, 9, 0, tzinfo=UTC)

FILLER_EN = [f"note {i}: the {w} report was filed on time" for i, w in
             enumerate(["budget", "travel", "security", "hiring", "audit", "quarterly",
                        "inventory", "supplier", "training", "safety", "network", "legal"])]
FILLER_ZH = ["周一的会议改到了下午三点", "打印机又卡纸了", "新来的同事叫李雷", "午饭吃了牛肉面",
             "报销单已经交给财务", "下周要去上海出差", "办公室的空调坏了", "周五团建去爬山"]


def store(me, lines: list[str]) -> None:  # type: ignore[no-untyped-def]
    me.remember_many([Draft(content=c, kind="event", at=AT) for c in lines + FILLER_EN
                      + FILLER_ZH])


@pytest.mark.parametrize(("lines", "query", "reached"), [
    (["Ana plays the cello in the city orchestra", "Ana carries her cello to every rehearsal",
      "The orchestra rehearsal moved to the old cello hall"],
     "what does Ana play", "The orchestra rehearsal moved to the old cello hall"),
    (["小明每天晚上弹钢琴", "小明的钢琴老师非常严格", "钢琴老师说比赛在下周六举行"],
     "小明每天晚上做什么", "钢琴老师说比赛在下周六举行"),
])
def test_expansion_reaches_what_shares_the_top_hits_words(me, lines, query, reached):  # type: ignore[no-untyped-def]
    store(me, lines)
    hits = me.recall(query, k=5)
    stage = hits.plan["stages"]["expansion"]
    assert stage["terms"] and stage["from"] == 5
    found = {h.memory.content: h for h in hits}
    assert reached in found
    assert "expansion" in found[reached].explanation.legs


def test_no_expansion_without_a_word_match(me):  # type: ignore[no-untyped-def]
    store(me, ["Ana plays the cello in the city orchestra"])
    hits = me.recall("zebra xylophone quasar", k=5)
    assert "expansion" not in hits.plan.get("stages", {})


def test_the_reranker_explains_coverage_and_prefers_the_whole_question(me):  # type: ignore[no-untyped-def]
    store(me, ["My aunt gave me a blue ceramic teapot for my birthday",
               "The teapot shop was closed", "The ceramic class starts in June",
               "我姐姐送了我一个蓝色的陶瓷茶壶", "茶壶店关门了"])
    hits = me.recall("who gave me the blue ceramic teapot", k=3)
    top = hits[0]
    assert top.memory.content == "My aunt gave me a blue ceramic teapot for my birthday"
    terms = top.explanation.terms
    assert terms["coverage"] > max(h.explanation.terms["coverage"] for h in hits[1:])
    assert terms["rerank_factor"] > 1.0
    assert hits.plan["stages"]["rerank"]["depth"] >= 3
    zh = me.recall("谁送了我蓝色的陶瓷茶壶", k=2)
    assert zh[0].memory.content == "我姐姐送了我一个蓝色的陶瓷茶壶"

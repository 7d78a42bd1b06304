"""Recall's scores fall down the returned list (recall/pipeline.py ``falling``), so a cut-off
on the score keeps a head of the ranking; the hit's own relevance stays in its explanation."""

from __future__ import annotations

MEMORIES = ["I live in Berlin.", "I work at a bakery in Kreuzberg.", "My sister lives in Lyon.",
            "我在柏林的一家面包店上班。", "周末我常去湖边跑步。", "My dog Pepper is four."]
QUESTIONS = ["where do I live?", "where do I work?", "我在哪里上班？", "how old is Pepper?",
             "周末做什么？", "what's my sister's city?"]


def test_scores_fall_down_the_list(me):  # type: ignore[no-untyped-def]
    for text in MEMORIES:
        me.remember(text, kind="fact")
    for q in QUESTIONS:
        hits = me.recall(q, k=6, track=False)
        scores = [h.score for h in hits]
        assert scores == sorted(scores, reverse=True), (q, scores)
        # a hit ranked below another never shows its score (0 stays 0)
        pairs = zip(scores, scores[1:], strict=False)
        assert all(a > b or a == b == 0 for a, b in pairs), (q, scores)
        for h in hits:
            assert 0.0 <= h.score <= h.explanation.terms["relevance"] + 1e-4 <= 1.0 + 1e-4


def test_a_mem0_threshold_keeps_a_head_of_the_list(tmp_path):  # type: ignore[no-untyped-def]
    from engramdb.integrations.mem0 import Memory

    m = Memory.from_config({"path": str(tmp_path / "m.db"), "embedder": "hashing"})
    for text in MEMORIES:
        m.add(text, user_id="u", infer=False)
    every = m.search("where do I live?", filters={"user_id": "u"})["results"]
    assert every and every[0]["score"] > 0
    cut = every[len(every) // 2]["score"]
    kept = m.search("where do I live?", filters={"user_id": "u"}, threshold=cut)["results"]
    assert [r["id"] for r in kept] == [r["id"] for r in every[:len(kept)]]
    assert all(r["score"] >= cut for r in kept)

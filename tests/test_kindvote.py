"""The kind of a sentence the rules only guessed, from the nearest labelled examples
(write/kindvote.py), through ``ingest`` with the default embedder, English and Chinese.

The default model's vectors of the examples ship with the package (data/kind_examples.npz);
another model's are embedded once per process."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

import engramdb
from engramdb import Kind, Message
from engramdb.embed.shipped import PerModel
from engramdb.registry import make_embedder
from engramdb.write import kindvote
from engramdb.write.extract import Turn, extract
from engramdb.write.kindvote import NONE, book_for, examples, is_guess, shipped


def extracted(model: Any, text: str) -> list[Any]:
    with engramdb.open(":memory:", embedder=model) as mem:
        report = mem.ingest([{"role": "user", "content": text}], session="s")
        return [r.memory for r in report.extracted if r.action.value != "reject"]


def test_the_examples_hold_every_kind_in_both_languages() -> None:
    by_kind: dict[str, set[bool]] = {}
    for text, kind in examples():
        assert kind == NONE or kind in {k.value for k in Kind}, kind
        by_kind.setdefault(kind, set()).add(any("\u4e00" <= c <= "\u9fff" for c in text))
    emitted = {"identity", "fact", "preference", "event", "rule", "lesson", "procedure",
               "pending", NONE}
    assert set(by_kind) == emitted
    assert all(langs == {True, False} for langs in by_kind.values())


@pytest.mark.parametrize(("text", "kind"), [
    ("My mates at football call me Shorty.", Kind.IDENTITY),
    ("Aisle seat on long flights, always better for my back.", Kind.PREFERENCE),
    ("Cheap umbrellas break in the first storm, I've learned to buy a decent one.", Kind.LESSON),
    ("同学们都喊我阿飞。", Kind.IDENTITY),
    ("跑完步不拉伸，第二天腿疼得下不了楼，以后不敢省了。", Kind.LESSON),
])
def test_a_guessed_kind_comes_from_the_examples(model: Any, text: str, kind: Kind) -> None:
    [memory] = extracted(model, text)
    assert memory.kind == kind
    assert is_guess(memory.metadata["rule"])          # no typed pattern read it
    vote = memory.metadata["kind_vote"]
    assert vote["kind"] == kind.value and vote["lead"] > vote["needed"] > 0
    # what the rules alone would have kept, or "none" where they leave it out (a sentence in
    # the mood of a plan is no past statement: "以后" of the Chinese lesson)
    assert vote["guessed"] in ("fact", "event", NONE)


def test_a_label_and_steps_is_a_guess_the_examples_may_overrule(model: Any) -> None:
    # write/statement.py reads any label before a colon and two parts after it as a procedure;
    # a team's rules said so are voted a rule, and steps the examples do not overrule stay
    [rules] = extracted(model, "Team agreement: every pull request needs two reviews, no "
                               "merging on Fridays, tests must pass.")
    assert rules.kind == Kind.RULE and rules.metadata["kind_vote"]["guessed"] == "procedure"
    [steps] = extracted(model, "How I season the cast-iron pan: a thin coat of oil, upside down "
                               "in the oven, an hour at 250 degrees.")
    assert steps.kind == Kind.PROCEDURE and "kind_vote" not in steps.metadata


@pytest.mark.parametrize("text", ["Everyone at the office knows me as Jen from accounts.",
                                  "网上大家都叫我老猫。"])
def test_an_unclear_vote_keeps_the_rules_kind(model: Any, text: str) -> None:
    [memory] = extracted(model, text)
    vote = book_for(model).votes(model.embed_batch([memory.content]), ["fact"])[0]
    assert vote.kind != "fact" and not vote.clear       # another kind leads, but not clearly
    assert memory.kind == Kind.FACT and "kind_vote" not in memory.metadata


@pytest.mark.parametrize(("text", "kind"), [("I love hiking in the Alps.", Kind.PREFERENCE),
                                            ("提醒我给妈妈打电话", Kind.PENDING)])
def test_a_typed_pattern_keeps_its_kind_where_the_vote_agrees(model: Any, text: str,
                                                               kind: Kind) -> None:
    [memory] = extracted(model, text)
    assert memory.kind == kind and "kind_vote" not in memory.metadata


@pytest.mark.parametrize(("text", "typed", "kind"), [
    ("Takeaway: I really enjoy small jazz clubs more than big concerts", "en:lesson",
     Kind.PREFERENCE),
    ("奶茶一定要少糖去冰", "zh:must", Kind.PREFERENCE),
])
def test_a_typed_pattern_is_overturned_by_a_vote_leading_far(model: Any, text: str, typed: str,
                                                             kind: Kind) -> None:
    """A pattern's words ("takeaway:", 一定要) read a lesson or a rule; the examples' vote for
    the preference it says leads by more than TYPED_LEAD times what a guess needs."""
    [memory] = extracted(model, text)
    assert memory.metadata["rule"] == typed and memory.kind == kind
    vote = memory.metadata["kind_vote"]
    assert vote["lead"] > kindvote.TYPED_LEAD * vote["needed"]


@pytest.mark.parametrize(("text", "kept"), [("I like it", False), ("I love sushi!", True),
                                            ("我喜欢下雨天", True)])
def test_a_typed_reaction_is_dropped_only_by_a_vote_for_none_leading_far(model: Any, text: str,
                                                                        kept: bool) -> None:
    """"I like" reads a preference; the examples' vote for "none" drops the draft only where
    it leads by more than TYPED_LEAD times what a guess needs (a reaction), not where it leads
    less (a real preference, however short)."""
    drafts = extract([Turn(0, Message("user", text), datetime(2026, 1, 5, tzinfo=UTC))])
    assert [d.metadata["rule"] for d in drafts] == ["zh:like" if text[0] == "我" else "en:like"]
    assert [d.kind for d in kindvote.revote(drafts, model)] == ([Kind.PREFERENCE] if kept else [])


@pytest.mark.parametrize("text", ["I see, that makes a lot more sense now.",
                                  "刚刚那段解释我还是没太看懂。"])
def test_small_talk_the_fallback_kept_is_dropped_unless_asked(model: Any, text: str) -> None:
    assert extracted(model, text) == []
    asked = ("Remember that " + text[0].lower() + text[1:]) if text.isascii() else "记住：" + text
    [memory] = extracted(model, asked)
    assert memory.metadata.get("asked") is True


@pytest.mark.parametrize(("text", "kind"), [
    ("Sushi or ramen, ramen wins every time for me.", Kind.PREFERENCE),
    ("出门在外住青旅最自在。", Kind.PREFERENCE),
])
def test_a_statement_no_rule_reads_is_kept_where_the_examples_say(model: Any, text: str,
                                                                   kind: Kind) -> None:
    [memory] = extracted(model, text)
    assert memory.kind == kind and memory.metadata["rule"].endswith(":unread")
    assert memory.metadata["kind_vote"]["guessed"] == NONE


@pytest.mark.parametrize("text", ["The gas bill is still unpaid, it has to go out before Friday.",
                                  "水电费还没缴，月底前搞定。"])
def test_a_statement_that_names_a_day_to_come_is_kept_pending(model: Any, text: str) -> None:
    """No rule reads it; the day it names makes it a pending item (write/extract.py ``DUE``),
    which the examples' vote would overrule only leading far (it does not here)."""
    [memory] = extracted(model, text)
    assert memory.kind == Kind.PENDING and memory.metadata["rule"].endswith(":due")
    assert memory.due_at is not None


@pytest.mark.parametrize("text", ["Ha, okay, fair enough then.", "嗯，挺好的，就这样吧。"])
def test_small_talk_no_rule_reads_stays_out(model: Any, text: str) -> None:
    assert extracted(model, text) == []


def test_without_an_embedder_a_statement_no_rule_reads_is_no_draft() -> None:
    said = [Turn(0, Message("user", "Sushi or ramen, ramen wins every time for me."),
                 datetime(2026, 1, 5, tzinfo=UTC))]
    assert extract(said) == []                          # the pure extractor, as before
    [draft] = extract(said, unread=True)
    assert draft.metadata is not None and draft.metadata["rule"] == "en:unread"


def test_the_hashing_embedder_leaves_the_kind_to_the_rules() -> None:
    hashing = make_embedder("hashing")
    assert book_for(hashing) is None
    [memory] = extracted(hashing, "My mates at football call me Shorty.")
    assert memory.kind == Kind.FACT and "kind_vote" not in memory.metadata
    assert extracted(hashing, "Sushi or ramen, ramen wins every time for me.") == []


class Counting:
    """A model, counting the texts it embeds."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.model_id, self.dimensions = inner, inner.model_id, inner.dimensions
        self.texts = 0

        self.seen: list[str] = []

    def embed_batch(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        self.texts += len(texts)
        self.seen += texts
        return self.inner.embed_batch(texts, query=query)


def test_the_examples_are_embedded_once_per_model_id(model: Any) -> None:
    book = book_for(model)
    assert book is not None and book_for(make_embedder("default", threads=1)) is book
    counting = Counting(model)
    with engramdb.open(":memory:", embedder=counting) as mem:
        mem.ingest([{"role": "user", "content": "同学们都喊我阿飞。"}], session="a")
        mem.ingest([{"role": "user", "content": "My mates at football call me Shorty."}],
                   session="b")
    # each ingest: the turn, the extracted memory, and the one sentence voted on; no example
    assert counting.texts == 6


def test_under_the_mask_policy_the_vote_sees_no_value(model: Any) -> None:
    assert book_for(model) is not None                  # the examples, embedded beforehand
    counting = Counting(model)
    said = "The gas bill is still unpaid, send it to jane.doe@example.com before Friday."
    with engramdb.open(":memory:", embedder=counting, pii="mask") as mem:
        report = mem.ingest([{"role": "user", "content": said}], session="a")
        [result] = report.extracted
        assert result.memory.kind == Kind.PENDING
    assert counting.texts == 3 and not any("jane.doe" in text for text in counting.seen)


def test_the_default_models_example_vectors_ship_and_match_a_fresh_embedding(model: Any) -> None:
    """tools/shipped_vectors.py wrote them for these examples and this model (run it again after
    editing data/kind_examples.txt); a few embedded again agree with them."""
    vectors = shipped(model.model_id)
    assert vectors is not None, "examples changed: run tools/shipped_vectors.py"
    texts = [text for text, _ in examples()]
    assert vectors.shape == (len(texts), model.dimensions)
    picks = [0, len(texts) // 3, len(texts) - 1, *[i for i, t in enumerate(texts) if "我" in t][:2]]
    fresh = model.embed_batch([texts[i] for i in picks])
    assert np.all(np.sum(fresh * vectors[picks], axis=1) > 0.999)
    assert shipped("another-model") is None


def test_a_model_without_shipped_vectors_embeds_the_examples_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kindvote, "_BOOKS", PerModel())
    monkeypatch.setattr(kindvote, "shipped", lambda model_id: None)
    from engramdb.embed.use import USEEmbedder

    counting = Counting(USEEmbedder(threads=1))   # one of the default's two models: cheaper
    counting.model_id = "USE alone, as another model"
    book = book_for(counting)
    assert book is not None and counting.texts == len(examples())
    assert book_for(counting) is book and counting.texts == len(examples())

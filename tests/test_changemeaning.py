"""A change said with no change word (recall/changemeaning.py): the newer statement's meaning
stands out along the direction from plain statements to changes, so the net orders the pair
(newer first for a question about now, older first for one about before); a plain statement
of something else with another value does not. The default embedder, real SQLite files, a
frozen clock; English and Chinese."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from engramdb.embed.shipped import load
from engramdb.recall.changemeaning import (
    EXAMPLES,
    LOOKALIKE,
    SHIPPED,
    STANDING,
    TOWARD,
    book_for,
    examples,
    parts_of,
)
from engramdb.recall.changemeaning import PLAIN as PLAIN_LABEL
from engramdb.recall.conflicts import conflict, read, says_change
from engramdb.registry import make_embedder
from engramdb.text import is_cjk
from test_framemeaning import _stored, ordered_by_time  # two facts, 30 and 2 days old

CHANGES = [
    ("My gym membership is 45 dollars a month.",
     "The gym renewed my membership at 52 dollars a month.",
     "How much is my gym membership?", "How much was my gym membership before?"),
    ("宽带每月一百块。", "宽带合约到期续约，每月一百二。",
     "宽带每月多少钱？", "宽带以前每月多少钱？"),
]

# a correction of what was said before, in no change word: its own direction reads it
CORRECTIONS = [
    ("The recycling van comes on Tuesdays.",
     "My mistake earlier, the recycling van comes on Fridays.",
     "When does the recycling van come?", "When did the recycling van come before?"),
    ("The storage unit number is 114.",
     "Sorry, I gave you the wrong number, the storage unit is 141.",
     "What is the storage unit number?", "What was the storage unit number before?"),
]

# another thing with another value, said plainly: no change
PLAIN = [
    ("The gym closes at 10pm.", "The gym's sauna closes at 9pm.", "When does the gym close?"),
    ("我家狗每天吃两顿。", "我家猫每天吃三顿。", "我家狗每天吃几顿？"),
]



@pytest.mark.parametrize(("old", "new", "now_q", "before_q"), CHANGES)
def test_a_change_said_without_a_change_word_comes_first_for_now(
        tmp_path: Any, model: Any, old: str, new: str, now_q: str, before_q: str) -> None:
    assert not says_change(read(old), read(new))  # no change word, no denial, no "from X to Y"
    mem, me, a, b = _stored(tmp_path, model, old, new)
    with mem:
        assert me.get(a.id).current and me.get(b.id).current  # the write kept both
        assert not conflict(me.get(a.id), me.get(b.id))  # the words alone say no change
        ordered_by_time(me, a, b, now_q, before_q)


@pytest.mark.parametrize(("old", "new", "now_q"), PLAIN)
def test_a_plain_statement_of_another_thing_is_no_change(tmp_path: Any, model: Any, old: str,
                                                         new: str, now_q: str) -> None:
    book = book_for(model)
    assert book is not None
    assert book.standing(model.embed_batch([new])[0], is_cjk(new)) < STANDING
    mem, me, a, b = _stored(tmp_path, model, old, new)
    with mem:
        hits = me.recall(now_q, k=3, track=False)
        assert "conflicts" not in hits.plan["stages"] or not hits.plan["stages"]["conflicts"]
        assert {h.memory.id for h in hits} >= {a.id, b.id}
        assert not any(n.startswith(("earlier value", "newer value"))
                       for h in hits for n in h.explanation.notes)


@pytest.mark.parametrize(("old", "new", "now_q", "before_q"), CORRECTIONS)
def test_a_correction_said_without_a_change_word_comes_first_for_now(
        tmp_path: Any, model: Any, old: str, new: str, now_q: str, before_q: str) -> None:
    assert not says_change(read(old), read(new))
    mem, me, a, b = _stored(tmp_path, model, old, new)
    with mem:
        assert me.get(a.id).current and me.get(b.id).current
        assert not conflict(me.get(a.id), me.get(b.id))
        ordered_by_time(me, a, b, now_q, before_q)


def test_each_directions_examples_stand_above_its_plain_statements(model: Any) -> None:
    """In each script and for each direction (the changes, the corrections), the examples
    it is read from stand well above its plain ones along it, whose mean is its zero; most
    look-alikes of corrections read as no change."""
    book = book_for(model)
    assert book is not None and len(book.parts) == 2  # e5 and USE: the routed halves
    known = examples()
    assert {label for _, label in known} == {*TOWARD, PLAIN_LABEL, LOOKALIKE}
    vectors = load(SHIPPED, EXAMPLES, model.model_id)   # what a process reads (shipped)
    assert vectors is not None and len(vectors) == len(known)
    for cjk in (False, True):
        mine = [(book.along(v, cjk), label) for v, (text, label)
                in zip(vectors, known, strict=True) if is_cjk(text) == cjk]
        for toward, away in TOWARD.items():
            said = np.mean([stood[toward] for stood, label in mine if label == toward])
            plain = np.mean([stood[toward] for stood, label in mine if label in away])
            assert said - plain > 1.5
            assert abs(plain) < 0.05  # the plain examples' mean is the zero of the scale
        lookalikes = [max(stood.values()) for stood, label in mine if label == LOOKALIKE]
        assert np.mean(np.array(lookalikes) < STANDING) >= 0.8  # no change read in most


def test_an_embedder_without_meaning_reads_no_change() -> None:
    hashing = make_embedder("hashing")
    assert book_for(hashing) is None
    assert parts_of(hashing) == [slice(0, hashing.dimensions)]


def test_the_default_embedders_vectors_of_the_examples_ship(model: Any) -> None:
    """tools/shipped_vectors.py wrote them for these examples and this model (run it again after
    editing data/change_examples.txt): a process reads them, it does not embed the examples."""
    vectors = load(SHIPPED, EXAMPLES, model.model_id)
    assert vectors is not None, "examples changed: run tools/shipped_vectors.py"
    texts = [text for text, _ in examples()]
    assert vectors.shape == (len(texts), model.dimensions)
    fresh = model.embed_batch(texts[:4])
    assert np.allclose(vectors[:4], fresh, atol=2e-3)
    assert load(SHIPPED, EXAMPLES, "another-model") is None


def test_a_correction_said_in_a_conversation_comes_first_for_now(tmp_path: Any,
                                                                  model: Any) -> None:
    """A turn of a conversation is read along the corrections' direction alone: a correction
    said in chat, in no change word, is the newer value for a question about now."""
    from datetime import timedelta

    import engramdb
    from engramdb.testing import FrozenClock
    from test_framemeaning import NOW

    clock = FrozenClock(NOW - timedelta(days=5))
    with engramdb.open(tmp_path / "chat.db", embedder=model, clock=clock) as mem:
        me = mem.scope(user="ana")
        for text, reply, session in (
                ("The storage unit number is 114.", "Noted.", "s1"),
                ("Sorry, I gave you the wrong number, the storage unit is 141.", "Got it.",
                 "s2")):
            at = clock.now()
            me.ingest([{"role": "user", "content": text, "at": at},
                       {"role": "assistant", "content": reply, "at": at + timedelta(seconds=1)}],
                      session=session)
            clock.advance(days=3)
        hits = me.recall("What is the storage unit number?", k=3, track=False)
        assert "141" in hits[0].memory.content
        assert hits.plan["stages"]["conflicts"]

"""Recall's coverage of the query (rerank, relevance: ``lexical``) reads which query terms a
memory holds from the tokens its write stored in the text index (``hold``), not by tokenizing
its text again: the same sets, so the same scores, in English, Chinese and mixed text, with
stop words, keywords and a slot word among the indexed anchors, after updates and forgets."""

from __future__ import annotations

from datetime import UTC, datetime

import engramdb
from engramdb import Draft
from engramdb.model import Explanation, Hit, Layer, Scope
from engramdb.recall.plan import plan_query
from engramdb.recall.relevance import hold, lexical, query_terms
from engramdb.store.protocol import ListFilter
from engramdb.testing import FrozenClock

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ANN = Scope("ann", "default")
DRAFTS = [
    Draft("I live in Berlin now", kind="fact"),
    Draft("Maria does the e-mail for O'Brien every Monday", people=["Maria Lopez"],
          places=["Lisbon"], topics=["the does", "mail"]),
    Draft("王伟住在北京，喜欢吃火锅", people=["王伟"], places=["北京"], topics=["火锅"]),
    Draft("去Berlin开会 with 张伟 about the flat", people=["张伟"], context="上次说到里斯本的房子"),
    Draft("We talked about the flat", context="Maria asked where the flat in Lisbon is"),
    Draft("Tim reads The Name of the Wind on Tuesdays", people=["Tim"], topics=["books"]),
    Draft("周末和Maria去爬山", people=["Maria"], places=["香山"]),
    Draft("The meeting room is booked", topics=["会议室", "doing"]),
]
QUERIES = ["where does Maria live?", "Berlin flat", "王伟喜欢吃什么", "北京 火锅 Maria",
           "Lisbon e-mail mail", "what is Tim doing on Tuesday", "里斯本 房子", "books wind",
           "会议室 booked", "does doing done", "John Doe", "张伟 Berlin 开会", "香山 weekend"]


def check(store: object, layers: tuple[Layer, ...]) -> int:
    """Every memory's lexical score, tokenized and from the stored tokens; returns how many
    memories the stored tokens answered for."""
    listed = store.list(ANN, ListFilter(layers=layers))  # type: ignore[attr-defined]
    records = {r.id: r for r in listed}
    answered = 0
    for query in QUERIES:
        plan = plan_query(query, (), NOW)
        terms = query_terms(store, ANN, plan.tokens, layers)  # type: ignore[arg-type]
        hits = [Hit(rec, 0.0, Explanation()) for rec in records.values()]
        plain = [lexical(h, terms) for h in hits]   # nothing held: each text tokenized
        hold(store, ANN, records.values(), terms)  # type: ignore[arg-type]
        assert [lexical(h, terms) for h in hits] == plain, query
        assert terms.held, query   # the stored tokens answered (the check above can fail)
        answered += len(terms.held)
    return answered


def test_stored_tokens_give_the_same_coverage(tmp_path):  # type: ignore[no-untyped-def]
    clock = FrozenClock(NOW)
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock) as mem:
        ids = [r.memory.id for r in mem.remember_many(DRAFTS, user="ann")]
        store = mem.store
        store.search_text(ANN, ["berlin"], {"body": 1.0}, 5, [Layer.CORE])  # builds the index
        assert check(store, (Layer.CORE,)) > 0
        clock.advance(days=1)
        mem.update(ids[1], people=["Maria", "João"], user="ann")
        mem.remember("I live in Lisbon now", kind="fact", user="ann")   # supersedes Berlin
        mem.forget(ids[5], user="ann")
        assert check(store, (Layer.CORE,)) > 0
        assert check(store, (Layer.CORE, Layer.ARCHIVED)) > 0

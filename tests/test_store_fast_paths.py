"""The SQLite store answers text search from in-memory postings (and, failing that, ranks by
rowid): both must give exactly what the plain SQL query gives, through every kind of change."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

import engramdb
from engramdb import Draft
from engramdb.model import Layer, Scope
from engramdb.store.contract import make_record
from engramdb.store.sqlite.search import TEXT_FIELDS, scope_token
from engramdb.store.sqlite.store import SQLiteStore
from engramdb.testing import FrozenClock, HashingEmbedder
from engramdb.text import tokenize
from engramdb.write.prepare import index_text

NAMES = ["Alice Smith", "Bob Chen", "王伟", "李娜", "Zoë Müller", "İpek Yılmaz", "Ǆemal"]
PLACES = ["Berlin", "Paris", "北京", "上海", "Zürich", "São Paulo"]
WORDS = ("budget meeting flight dinner contract move apartment marathon review birthday "
         "sushi pizza project launch hiring 会议 项目 预算 旅行 生日 café naïve").split()
QUERIES = ["where does Alice live", "Berlin budget meeting", "王伟 北京 会议", "Zürich café",
           "project launch review", "birthday", "nothing matches zzzz", "Ǆemal İpek",
           "sushi or pizza in Paris", "São Paulo flight 2024", "预算"]
FIELDS = [{"body": 1.0}, {"anchors": 1.0}, {"body": 1.0, "anchors": 0.5, "context": 0.5},
          {"context": 2.0}, {"body": 0.3, "anchors": 0.5}]
LAYERS = [[Layer.CORE], [Layer.CORE, Layer.ARCHIVED], [Layer.DELETED]]


def sentence(rng: random.Random) -> Draft:
    words = rng.sample(WORDS, 4)
    text = f"{rng.choice(NAMES)} {words[0]} {words[1]} in {rng.choice(PLACES)} {words[2]} " \
           f"{rng.randint(1, 3000)} {words[3]}"
    return Draft(content=text, people=[rng.choice(NAMES)], places=[rng.choice(PLACES)],
                 context=rng.choice([None, f"chat about {rng.choice(WORDS)}"]))


def reference(store: SQLiteStore, scope: Scope, tokens: list[str], fields: dict[str, float],
              limit: int, layers: list[Layer]) -> list[tuple[str, float]]:
    """The plain SQL ranking the fast paths must reproduce."""
    terms = [t for t in dict.fromkeys(tokens) if t]
    columns = [f for f in TEXT_FIELDS if fields.get(f)]
    if not terms or not columns:
        return []
    phrase = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
    match = f'scope : "{scope_token(scope)}" AND {{{" ".join(columns)}}} : ({phrase})'
    weights = ", ".join(str(float(fields.get(f, 0.0))) for f in ("scope", *TEXT_FIELDS))
    rows = store._db.execute(
        f"SELECT m.id, -bm25(memories_fts, {weights}) AS s FROM memories_fts "
        f"JOIN memories m ON m.rowid = memories_fts.rowid WHERE memories_fts MATCH ? "
        f"AND m.layer IN ({', '.join('?' * len(layers))}) ORDER BY s DESC, m.id LIMIT ?",
        (match, *[lay.value for lay in layers], limit),
    )
    return [(r[0], float(r[1])) for r in rows]


def assert_same(store: SQLiteStore, scope: Scope) -> int:
    """Compare every query/fields/layers/limit; returns how many the postings answered."""
    answered = 0
    for query in QUERIES:
        tokens = tokenize(query)
        for fields in FIELDS:
            for layers in LAYERS:
                for limit in (1, 3, 50):
                    got = store.search_text(scope, tokens, fields, limit, layers)
                    assert got == reference(store, scope, tokens, fields, limit, layers), (
                        query, fields, layers, limit)
                    terms = [t for t in dict.fromkeys(tokens) if t]
                    answered += store._search_text_in_memory(
                        scope, terms, fields, limit, layers) is not None
                    if limit == 50:   # more words after the same ones (the expansion leg's
                        more = [*tokens, "review", "sushi", "北京"]   # ranking starts from
                        assert store.search_text(scope, more, fields, limit, layers) == \
                            reference(store, scope, more, fields, limit, layers)   # the last)
    vector = HashingEmbedder().embed_batch(["Berlin budget 王伟"], query=True)[0]
    for layers in LAYERS:
        fast = store.search_vector(scope, vector, 20, layers)
        rows = store._text.rows
        store._text.rows = lambda *args: None  # type: ignore[method-assign]
        try:
            assert fast == store.search_vector(scope, vector, 20, layers), layers
        finally:
            store._text.rows = rows  # type: ignore[method-assign]
    return answered


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))


def test_text_search_matches_sql_through_changes(tmp_path, clock):  # type: ignore[no-untyped-def]
    rng = random.Random(7)
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        for user in ("ann", "ben"):
            mem.remember_many([sentence(rng) for _ in range(150)], user=user)
        store, ann = mem.store, Scope("ann", "default")
        assert assert_same(store, ann) > 0  # the in-memory postings answered

        ids = [r.id for r in mem.list(user="ann")]
        for memory_id in ids[:20]:
            mem.forget(memory_id, user="ann")
        for memory_id in ids[20:35]:
            mem.update(memory_id, content="Berlin budget review " + sentence(rng).content,
                       user="ann")
        for memory_id in ids[35:45]:
            mem.update(memory_id, people=["Bob Chen", "李娜"], user="ann")
        mem.remember_many([sentence(rng) for _ in range(40)], user="ann")
        assert_same(store, ann)

        with engramdb.open(path, embedder="hashing", clock=clock) as other:  # another writer
            other.remember_many([sentence(rng) for _ in range(30)], user="ann")
            for memory_id in ids[45:55]:
                other.update(memory_id, content="birthday sushi in Paris", user="ann")
            for memory_id in ids[:5]:
                other.restore(memory_id, user="ann")
        assert_same(store, ann)

        mem.remember_many([sentence(rng) for _ in range(30)], user="cat")  # the newest rows
        for scope in (ann, Scope("ben", "default"), Scope("cat", "default")):
            assert_same(store, scope)
        with engramdb.open(path, embedder="hashing", clock=clock) as other:  # drops, erasures
            other.forget(ids[60], hard=True, user="ann")
            other.forget_scope(user="ben")
            other.forget_scope(user="cat")  # its rowids are handed out again below
            other.remember_many([sentence(rng) for _ in range(20)], user="ann")
            other.remember_many([sentence(rng) for _ in range(25)], user="ben")
        for scope in (ann, Scope("ben", "default"), Scope("cat", "default")):
            assert_same(store, scope)

        with pytest.raises(RuntimeError), store.transaction():
            mem.remember_many([sentence(rng) for _ in range(10)], user="ann")
            assert_same(store, ann)  # inside a transaction: the SQL path
            raise RuntimeError("roll back")
        assert_same(store, ann)
        assert_same(store, Scope("ben", "default"))


def test_text_search_matches_sql_when_ids_do_not_follow_rowids(tmp_path):  # type: ignore[no-untyped-def]
    rng = random.Random(3)
    store = SQLiteStore(tmp_path / "s.db")
    try:
        scope = Scope("alice", "noah")
        for n in range(80, 0, -1):  # newest id first, as an import of older memories can do
            rec = make_record(n, scope, content=sentence(rng).content,
                              at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=n))
            store.insert(rec, index_text(rec), None)
        assert_same(store, scope)
    finally:
        store.close()

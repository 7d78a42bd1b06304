"""Full text for the PostgreSQL store: the same tokens and the same BM25 as SQLite's FTS5.

engramdb's tokenizer (jieba + stemming) has already turned text into space-separated tokens;
FTS5's ``unicode61`` then splits those on anything that is not a letter or a digit and folds
case. ``fts_tokens`` does the same here, so a document has the same tokens on both backends.
The fields are stored as those tokens joined by single spaces, so PostgreSQL's ``simple``
configuration reads the same tokens back into the ``tsvector`` (a generated column: weight A =
body, B = anchors, C = context). The GIN index selects candidates; ``BM25_SQL`` ranks them on
the server from the tsvector's positions, or, for a query holding a phrase of several tokens,
``bm25`` counts each phrase in each field from the stored tokens, both with FTS5's formula
(fts5_aux.c: k1 = 1.2, b = 0.75, idf floored at 1e-6, column weights multiplying term
frequencies), so a candidate the index admits wrongly (a phrase across two fields) scores 0
and is dropped.

One difference, on purpose: the statistics (document count, average length, document
frequency) are the scope's own, where FTS5's are the whole file's. One tenant's memories do
not move another's ranking, and no query needs to look outside its scope (a distributed
database keeps each scope on one node). With one scope in the database the two agree exactly."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..bm25 import K1, B
from ..bm25 import idf as bm25_idf

FIELDS = ("body", "anchors", "context")
WEIGHT_LETTER = {"body": "A", "anchors": "B", "context": "C"}
_TOKEN = re.compile(r"[^\W_]+")


def fts_tokens(text: str | None) -> list[str]:
    """The tokens FTS5's unicode61 tokenizer reads from ``text``: runs of letters and digits,
    lower case."""
    return _TOKEN.findall(text.lower()) if text else []


@dataclass(frozen=True)
class Document:
    """A memory's searchable text as stored: each field as its tokens joined by spaces."""

    body: str
    anchors: str
    context: str
    length: int       # tokens in all fields, plus one (FTS5's scope column)
    anchor_terms: list[str]


def document(body: str, anchors: str, context: str) -> Document:
    fields = [fts_tokens(body), fts_tokens(anchors), fts_tokens(context)]
    return Document(
        body=" ".join(fields[0]), anchors=" ".join(fields[1]), context=" ".join(fields[2]),
        length=1 + sum(len(f) for f in fields), anchor_terms=sorted(set(fields[1])),
    )


def _quote(lexeme: str) -> str:
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def query_terms(tokens: Sequence[str]) -> list[tuple[str, ...]]:
    """The query's terms as FTS5 reads them: each a phrase of one or more tokens (a term
    with no letter or digit matches nothing), duplicates removed."""
    out: dict[tuple[str, ...], None] = {}
    for token in tokens:
        phrase = tuple(fts_tokens(token))
        if phrase:
            out[phrase] = None
    return list(out)


def tsquery(terms: Sequence[tuple[str, ...]], fields: Sequence[str]) -> str:
    """Any of the terms, in any of the fields."""
    letters = "".join(WEIGHT_LETTER[f] for f in fields)
    return " | ".join(
        "(" + " <-> ".join(f"{_quote(t)}:{letters}" for t in phrase) + ")" for phrase in terms)


def _occurrences(tokens: list[str], phrase: tuple[str, ...]) -> int:
    if len(phrase) == 1:
        return tokens.count(phrase[0])
    n = len(phrase)
    return sum(1 for i in range(len(tokens) - n + 1) if tuple(tokens[i : i + n]) == phrase)


@dataclass(frozen=True)
class Candidate:
    id: str
    layer: str
    body: str
    anchors: str
    context: str
    length: int


def bm25(
    candidates: Sequence[Candidate], terms: Sequence[tuple[str, ...]],
    weights: Mapping[str, float], docs: int, tokens: int, layers: set[str], limit: int,
) -> list[tuple[str, float]]:
    """FTS5's ``-bm25()`` over every row that matches (any layer: the document frequency
    counts them all), then the best ``limit`` in ``layers``, by score then id."""
    if not candidates or docs <= 0:
        return []
    fields = [f for f in FIELDS if weights.get(f)]
    freqs = []   # per candidate, per term: the weighted frequency
    for cand in candidates:
        split = {f: getattr(cand, f).split() for f in fields}
        freqs.append([sum(float(weights[f]) * _occurrences(split[f], phrase) for f in fields)
                      for phrase in terms])
    avgdl = float(tokens) / float(docs)
    idf = []
    for t in range(len(terms)):
        hits = sum(1 for row in freqs if row[t] != 0.0)
        idf.append(bm25_idf(docs, hits))
    scored = []
    for cand, row in zip(candidates, freqs, strict=True):
        if cand.layer not in layers:
            continue
        norm = K1 * ((1 - B) + (B * cand.length) / avgdl)
        score = 0.0
        for t, freq in enumerate(row):
            score += idf[t] * ((freq * (K1 + 1.0)) / (freq + norm))
        if any(row):
            scored.append((-score, cand.id))
    scored.sort()
    return [(memory_id, -neg) for neg, memory_id in scored[:limit]]


# BM25 in SQL for queries of single-token terms (the usual case): the same formula as
# ``bm25`` above, with each term's weighted frequency read from the tsvector's positions, so
# no candidate's text leaves the server. Parameters: scope (2), tsquery, terms, weights A/B/C,
# layers, limit.
BM25_SQL = """
WITH stats AS (
  SELECT docs::float8 AS n, tokens::float8 / docs AS avgdl FROM scope_stats
   WHERE user_id = %(user)s AND agent_id = %(agent)s AND docs > 0
), cand AS (
  SELECT id, layer, doc_len, tsv FROM memories
   WHERE user_id = %(user)s AND agent_id = %(agent)s AND tsv @@ %(query)s::tsquery
), tf AS (
  SELECT c.id, c.layer, c.doc_len, u.lexeme AS term,
         sum(CASE w WHEN 'A' THEN %(wa)s WHEN 'B' THEN %(wb)s ELSE %(wc)s END) AS freq
    FROM cand c, unnest(c.tsv) AS u, unnest(u.weights) AS w
   WHERE u.lexeme = ANY(%(terms)s) AND w = ANY(%(letters)s)
   GROUP BY 1, 2, 3, 4
), idf AS (
  SELECT term, greatest(ln((n - count(*) + 0.5) / (count(*) + 0.5)), 0)  AS raw
    FROM tf, stats GROUP BY term, n
)
SELECT tf.id, sum(CASE WHEN idf.raw > 0 THEN idf.raw ELSE 1e-6 END
                  * ((tf.freq * 2.2) / (tf.freq + 1.2 * (0.25 + (0.75 * tf.doc_len) / avgdl))))
       AS score
  FROM tf JOIN idf USING (term), stats
 WHERE tf.layer = ANY(%(layers)s)
 GROUP BY tf.id ORDER BY score DESC, tf.id LIMIT %(limit)s
"""

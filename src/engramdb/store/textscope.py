"""One scope's documents in the SQLite text index (textindex.py): the postings of its text
columns as FTS5 split them, each document's id, rowid, layer and length, and the checks that
the tokens are the ones FTS5 counted."""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from .fts5records import sizes as _sizes
from .postings import Postings

COLUMNS = ("scope", "body", "anchors", "context")   # the FTS5 table's columns, in order
Row = tuple[int, str, str, str, str, str, bytes, str]


def plain_token(token: str) -> bool:
    """A token FTS5 keeps as it is: ASCII letters and digits, lower case."""
    return token.isascii() and token.isalnum() and (token.islower() or token.isdigit())


@dataclass
class TextScope(Postings):
    token: str = ""
    seen_rowid: int = 0
    seen_seq: int = 0
    valid: bool = True
    # per document, in forms the garbage collector does not walk entry by entry (arrays of
    # machine integers, dicts of strings and ints it does not track), but the ids' list
    ids: list[str] = field(default_factory=list)
    rowids: array[int] = field(default_factory=lambda: array("q"))
    position: dict[int, int] = field(default_factory=dict)   # rowid -> live document
    where: dict[str, int] = field(default_factory=dict)      # memory id -> live document
    digest: array[int] = field(default_factory=lambda: array("q"))   # hash of its texts
    length: np.ndarray = field(default_factory=lambda: np.zeros(0))   # tokens, all columns
    alive: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    dead: int = 0
    layer_code: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int16))
    codes: dict[str, int] = field(default_factory=dict)               # layer -> code
    names: list[str] = field(default_factory=list)                    # code -> layer

    @property
    def size(self) -> int:
        return len(self.ids)

    def load(self, rows: Iterable[Row]) -> None:
        """Index the documents of a fresh scope in bulk, straight into the sorted arrays."""
        vocab = self.vocab
        setdefault = vocab.setdefault
        terms: list[int] = []
        cells: list[int] = []   # document * 3 + column, per token
        lengths: list[float] = []
        layers: list[int] = []
        for rowid, memory_id, _, body, anchors, context, sz, layer in rows:
            doc = self._append(rowid, memory_id, hash(((body, anchors, context), sz)))
            layers.append(self.code(layer))
            sizes = _sizes(sz)
            lengths.append(float(sum(sizes)))
            if not self._sizes_ok(sizes):
                continue
            for col, text in enumerate((body, anchors, context)):
                tokens = text.split() if text else []
                if len(tokens) != sizes[col + 1]:  # FTS5 split this text otherwise
                    self.valid = False
                terms.extend([setdefault(t, len(vocab)) for t in tokens])
                cells.extend([doc * 3 + col] * len(tokens))
        self.length = np.array(lengths, dtype=np.float64)
        self.alive = np.ones(len(lengths), dtype=bool)
        self.layer_code = np.array(layers, dtype=np.int16)
        if not all(plain_token(t) or t.lower() == t for t in vocab):
            self.valid = False
        self.sort_in(terms, cells, self.size)

    def add(self, row: Row) -> None:
        """Index one document (a changed one replaces its earlier version)."""
        rowid, memory_id, _, body, anchors, context, sz, layer = row
        texts = (body, anchors, context)
        digest = hash((texts, sz))
        old = self.position.get(rowid)
        if old is not None:
            if self.digest[old] == digest:
                self.layer_code[old] = self.code(layer)
                return
            self._kill(old)
        doc = self._append(rowid, memory_id, digest)
        sizes = _sizes(sz)
        if doc >= len(self.length):
            grow = max(64, len(self.length))
            self.length = np.concatenate([self.length, np.zeros(grow)])
            self.alive = np.concatenate([self.alive, np.zeros(grow, dtype=bool)])
            self.layer_code = np.concatenate([self.layer_code, np.zeros(grow, dtype=np.int16)])
        self.length[doc] = float(sum(sizes))
        self.alive[doc] = True
        self.layer_code[doc] = self.code(layer)
        if not self._sizes_ok(sizes):
            return
        vocab = self.vocab
        for col, text in enumerate(texts):
            tokens = text.split() if text else []
            if len(tokens) != sizes[col + 1]:
                self.valid = False
            for term, count in Counter(tokens).items():
                tid = vocab.get(term)
                if tid is None:
                    tid = vocab[term] = len(vocab)
                    if not plain_token(term) and term.lower() != term:
                        self.valid = False
                self.pend(tid, doc, col, count)

    def _append(self, rowid: int, memory_id: str, digest: int) -> int:
        doc = self.size
        self.ids.append(memory_id)
        self.rowids.append(rowid)
        self.digest.append(digest)
        self.position[rowid] = self.where[memory_id] = doc
        return doc

    def code(self, layer: str) -> int:
        code = self.codes.get(layer)
        if code is None:
            code = self.codes[layer] = len(self.names)
            self.names.append(layer)
        return code

    def layer_mask(self, layers: Iterable[str]) -> np.ndarray:
        """code -> is the layer among ``layers`` (index it with ``layer_code``)."""
        mask = np.zeros(len(self.codes) + 1, dtype=bool)
        mask[[self.codes[lay] for lay in layers if lay in self.codes]] = True
        return mask

    def holding(self, tid: int, layers: np.ndarray) -> int:
        """How many live documents in the layers of mask ``layers`` hold term ``tid``."""
        docs = self.postings(tid)[0]
        docs = docs[self.alive[docs] & layers[self.layer_code[docs]]]
        steps = np.diff(docs)
        if len(docs) < 2 or (steps >= 0).all():   # in document order (as built): count runs
            return int(np.count_nonzero(steps)) + 1 if len(docs) else 0
        return len(np.unique(docs))

    def _sizes_ok(self, sizes: list[int]) -> bool:
        if len(sizes) != len(COLUMNS) or sizes[0] != 1:  # one token in "scope"
            self.valid = False
        return self.valid

    def drop(self, rowid: int) -> None:
        doc = self.position.get(rowid)
        if doc is not None:
            self._kill(doc)

    def _kill(self, doc: int) -> None:
        self.alive[doc] = False
        del self.position[self.rowids[doc]]
        if self.where.get(self.ids[doc]) == doc:
            del self.where[self.ids[doc]]
        self.dead += 1

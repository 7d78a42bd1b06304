"""A memory's kind from the nearest labelled examples, where the rules only guessed, or
where they read words that say another kind.

The typed patterns (write/patterns.py) know a few dozen ways of saying a preference, a rule, a
lesson or a pending item; a sentence none of them reads is kept by a structural fallback
(write/statement.py, the broad subject rules) as a fact, or as an event when it names a past
time. People say "Window seats, if I get the choice." or "房租这个月还没交。" too: the fallback
calls them facts. Here the kind of such a sentence is read from meaning instead, by the
examples it is nearest to (data/kind_examples.txt: a few hundred sentences, English and
Chinese, casual and formal, many domains, each labelled with its kind or "none", nothing worth
keeping), and only where their vote stands clearly above the rule's guess:

- each kind's score is the mean cosine of its ``NEAREST`` closest examples;
- the vote is the kind with the best score; it replaces the rule's kind only when it leads the
  rule's kind by more than ``needed``: the lead that wrong votes stay under ``WRONG_SHARE`` of
  the time when each example is voted on by the others (leave one out). The margin is measured
  on the examples with the embedder in use, not chosen by hand, so each model gets its own;
- a clear vote for "none" drops the statement (small talk the fallback kept), unless the user
  asked for it to be kept ("remember that ...");
- a statement the fallback leaves out as small talk (rule "en:unread"/"zh:unread", made by
  write/extract.py ``unread`` for ``ingest``) is kept only where the best kind leads "none" by
  more than ``needed``, with that kind ("水电费还没缴，月底前搞定。": pending).

A sentence a typed pattern read (write/patterns.py) keeps its kind unless the vote for another
leads by ``TYPED_LEAD`` times ``needed``: a pattern's words are a strong sign, and still only
words ("一定要" reads a rule in "奶茶一定要少糖去冰", which says a preference; "I like" a
preference in "I like it", a reaction, which a vote for "none" that leads so far drops).

An embedder that reads words, not meaning (``lexical_only``: the hashing embedder) gives no
vote: the rules alone decide there. The examples are embedded once per process and embedder
model id, on the first guess that needs them, not at every write; for the default embedder
they are read from data/kind_examples.npz (written by tools/shipped_vectors.py,
embed/shipped.py: the model id and the examples' hash must match) instead of embedding 915
sentences (529 took ~9.5 s of CPU).
bench/kind_knn.py measures it; bench/results/kind_knn.md has the figures."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..embed.shipped import PerModel, data_lines, load
from ..model import Draft, Kind
from ..text import is_cjk
from .extract import DUE, GENERIC
from .patterns import PATTERNS

if TYPE_CHECKING:
    import numpy as np

EXAMPLES = "data/kind_examples.txt"
SHIPPED = "data/kind_examples.npz"   # the default embedder's vectors of EXAMPLES (float16)
NONE = "none"
NEAREST = 5         # a kind's score: the mean cosine of its NEAREST closest examples
WRONG_SHARE = 0.9   # a vote must lead by more than 9 wrong leave-one-out votes in 10 do
# the rules that guess: the structural fallback (write/statement.py: a statement, a past one,
# a label and steps, which is as often a rule or a lesson told with a colon), a dated past
# sentence only a broad rule matched, and the broad subject rules (write/extract.py GENERIC)
GUESSES = ("statement", "past_statement", "dated_event", "steps")
UNREAD = "unread"   # a statement the fallback left out (write/extract.py ``unread``)
# a kind a typed pattern read is overturned (or, by "none", dropped) by a vote that leads by this
# many times the lead a guess's needs (design extraction sets, 450 cases: 1x +6 / -4, 1.5x
# +2 / -0, 2x no change; bench/results/kind_knn.md)
TYPED_LEAD = 1.5
# the typed patterns' rules, and a due date's reading (write/extract.py ``DUE``)
TYPED = (frozenset(rule for _, rule, _ in PATTERNS) - GENERIC) | frozenset(DUE.values())

Embed = Callable[[Sequence[str]], "np.ndarray"]


def is_guess(rule: str) -> bool:
    """True for a rule id that only guesses the kind ("en:statement", "zh:subject") or
    read nothing ("en:unread")."""
    return rule in GENERIC or rule.split(":", 1)[-1] in (*GUESSES, UNREAD)


def votes(embedder: Any) -> bool:
    """Whether ``embedder`` gives the examples a vote (one that reads meaning)."""
    return not getattr(embedder, "lexical_only", False)


@lru_cache(maxsize=1)
def examples() -> tuple[tuple[str, str], ...]:
    """(sentence, kind) of every example line ("kind | sentence"; "#" starts a comment)."""
    return tuple((text, kind) for kind, text in data_lines(EXAMPLES, "|"))


def shipped(model: str) -> np.ndarray | None:
    """The shipped vectors of the examples for embedder ``model``: None for another model, or
    where the examples changed since they were written (or no file ships)."""
    return load(SHIPPED, EXAMPLES, model)


@dataclass(frozen=True)
class Vote:
    """The examples' kind for one sentence, its lead over the rule's kind and the lead a vote
    needs to count."""

    kind: str
    lead: float
    needed: float

    @property
    def clear(self) -> bool:
        return self.lead > self.needed

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "lead": round(self.lead, 3), "needed": round(self.needed, 3)}


class KindBook:
    """The examples' unit vectors, their kinds, and the lead a vote needs (leave one out)."""

    def __init__(self, vectors: np.ndarray, labels: Sequence[str]) -> None:
        import numpy as np

        self.kinds = tuple(sorted(set(labels)))
        self.vectors = np.asarray(vectors, dtype=np.float32)
        self.labels = np.array([self.kinds.index(k) for k in labels])
        self.needed = self._measured_lead()
        self._scripts: dict[bool, np.ndarray] = {}

    def of_script(self, cjk: bool) -> np.ndarray:
        """The rows of the examples in Chinese (``cjk``) or in other scripts."""
        if cjk not in self._scripts:
            mask = [is_cjk(text) == cjk for text, _ in examples()]
            self._scripts[cjk] = self.vectors[mask] if len(mask) == len(self.vectors) \
                else self.vectors[:0]
        return self._scripts[cjk]

    def scores(self, vectors: np.ndarray, leave_out: bool = False) -> np.ndarray:
        """(n, kinds): each kind's mean cosine over its NEAREST closest examples; with
        ``leave_out`` the rows are the examples themselves, each not voting on itself."""
        import numpy as np

        sims = np.asarray(vectors, dtype=np.float32) @ self.vectors.T
        if leave_out:
            np.fill_diagonal(sims, -np.inf)
        out = np.empty((sims.shape[0], len(self.kinds)), dtype=np.float32)
        for j in range(len(self.kinds)):
            own = sims[:, self.labels == j]
            top = min(NEAREST, own.shape[1] - (1 if leave_out else 0))
            out[:, j] = np.sort(own, axis=1)[:, -top:].mean(axis=1)
        return out

    def _measured_lead(self) -> float:
        """The lead over the right kind that wrong leave-one-out votes stay under
        WRONG_SHARE of the time."""
        import numpy as np

        scores = self.scores(self.vectors, leave_out=True)
        rows = np.arange(len(scores))
        best = scores.argmax(axis=1)
        leads = scores[rows, best] - scores[rows, self.labels]
        wrong = leads[best != self.labels]
        return float(np.quantile(wrong, WRONG_SHARE)) if len(wrong) else 0.0

    def votes(self, vectors: np.ndarray, guessed: Sequence[str]) -> list[Vote]:
        """The vote for each sentence's vector, against the kind the rules ``guessed``."""
        scores = self.scores(vectors)
        out = []
        for row, kind in zip(scores, guessed, strict=True):
            best = int(row.argmax())
            own = float(row[self.kinds.index(kind)]) if kind in self.kinds else float(row.min())
            out.append(Vote(self.kinds[best], float(row[best]) - own, self.needed))
        return out


_BOOKS: PerModel[KindBook] = PerModel()


def book_for(embedder: Any, embed: Embed | None = None) -> KindBook | None:
    """The examples embedded by ``embedder`` (once per process and model id), or None for an
    embedder without meaning (``lexical_only``). ``embed``: how to embed many texts (the
    memory's bulk embed, on its worker processes when they pay), default the embedder's own."""
    if not votes(embedder):
        return None
    model = str(getattr(embedder, "model_id", ""))

    def build() -> KindBook:
        known = examples()
        texts = [text for text, _ in known]
        vectors = shipped(model)
        if vectors is None:
            vectors = embed(texts) if embed is not None else embedder.embed_batch(texts)
        return KindBook(vectors, [kind for _, kind in known])

    return _BOOKS.get(model, build)


def vectors_for(embedder: Any, cjk: bool) -> np.ndarray | None:
    """The unit vectors of the examples in Chinese (``cjk``) or in other scripts, in
    ``embedder``'s model (None: an embedder without meaning): what recall reads two
    statements' meaning against (recall/framemeaning.py)."""
    book = book_for(embedder)
    return book.of_script(cjk) if book is not None else None


def revote(drafts: list[Draft], embedder: Any, embed: Embed | None = None,
           mask: bool = False) -> list[Draft]:
    """``drafts`` with the kind of each guessed one (metadata ``rule``: ``is_guess``) taken
    from the examples where their vote is clear (metadata ``kind_vote`` says so and keeps the
    rule's kind as ``guessed``); a clear "none" drops a draft the user did not ask for. A
    draft no rule read (``UNREAD``) is kept only where the examples clearly lead "none" (its
    guess), with their kind; without a vote (``embedder`` lexical) it is dropped. ``mask``
    (the PII policy "mask"): the embedder is given each text with its values as placeholders,
    as the write path gives it the memory (write/privacy.py)."""
    guessed = [i for i, d in enumerate(drafts) if d.kind is not None
               and (is_guess(_rule(d)) or _rule(d) in TYPED)]
    typed = {i for i in guessed if _rule(drafts[i]) in TYPED}
    unread = {i for i in guessed if _rule(drafts[i]).endswith(":" + UNREAD)}
    book = book_for(embedder, embed) if guessed else None
    if book is None:
        return [d for i, d in enumerate(drafts) if i not in unread]
    texts = [drafts[i].content for i in guessed]
    if mask:
        from .privacy import Masked, mask_text

        texts = [mask_text(text, Masked()) for text in texts]
    vectors = embed(texts) if embed is not None else embedder.embed_batch(texts)
    kinds = [NONE if i in unread else str(Kind(drafts[i].kind).value) for i in guessed]
    dropped = set(unread)
    for i, kind, vote in zip(guessed, kinds, book.votes(vectors, kinds), strict=True):
        if not vote.clear or vote.kind == kind or (
                i in typed and vote.lead <= TYPED_LEAD * vote.needed):
            continue
        meta = drafts[i].metadata or {}
        dropped.discard(i)
        if vote.kind == NONE:
            if not meta.get("asked"):
                dropped.add(i)
            continue
        drafts[i].kind = Kind(vote.kind)
        drafts[i].metadata = {**meta, "kind_vote": {**vote.to_dict(), "guessed": kind}}
    return [d for i, d in enumerate(drafts) if i not in dropped]


def _rule(draft: Draft) -> str:
    return str((draft.metadata or {}).get("rule", ""))

"""The Store protocol: where memories live. Typed in domain objects; it knows nothing of scoring."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple, Protocol

from ..model import ApiKey, Goal, GoalStatus, Layer, Link, Record, Scope

if TYPE_CHECKING:
    import numpy as np

    from ..working.state import Blob, SessionInfo, Turn


class Triple(NamedTuple):
    """What a fact says (write/triples.py): whom it is about ("user", "parents"), its frame
    with the values masked ("live in"), the values ("Hangzhou"). ``_asdict()`` names them."""

    subject: str
    predicate: str
    object: str


@dataclass(frozen=True)
class IndexText:
    """Pre-tokenised text for full-text search: the body and the anchors (people, places...)."""

    body: str
    anchors: str
    context: str = ""
    triples: tuple[Triple, ...] = ()   # kept in the store's triple table (write/triples.py)
    stance: str = ""                   # kept with them (write/stance.py), "" for none


@dataclass(frozen=True)
class ListFilter:
    kinds: tuple[str, ...] = ()
    priorities: tuple[str, ...] = ()     # "P0".."P3"; empty: any
    uri_prefix: str | None = None
    since: datetime | None = None        # on ``at``, inclusive
    until: datetime | None = None        # on ``at``, exclusive
    layers: tuple[Layer, ...] = (Layer.CORE,)
    current_only: bool = False           # hide superseded facts
    limit: int | None = None
    offset: int = 0
    newest_first: bool = False
    contains: str | None = None          # the content holds this text (case-insensitive)


SCOPE_EVENT = "*"  # the memory_id of an event about a whole scope (e.g. dropping it)


@dataclass(frozen=True)
class Event:
    seq: int
    memory_id: str
    op: str
    version: int
    at: datetime
    snapshot: Record | None
    actor: str | None = None   # who made the change, where known: "user", "sleep", "import"...
    reason: str | None = None  # why, where known


@dataclass(frozen=True)
class SleepState:
    """What a scope's last sleep left behind (dynamics/incremental.py)."""

    last_at: datetime | None = None  # when the last sleep ran; None: never
    event_seq: int = 0               # the newest event that sleep had seen
    params: str = ""                 # the decay settings it ran with
    importance: float = 0.0          # importance written since (auto sleep)


@dataclass(frozen=True)
class Pending:
    """A memory whose vector is still to be computed (``Config.embed = "deferred"``)."""

    scope: Scope
    memory_id: str
    judge: bool   # the write decisions that need its vector are still to run


class Store(Protocol):
    """Every method is scoped: no call can read or change another scope's memories."""

    location: str

    def close(self) -> None: ...

    def transaction(self) -> AbstractContextManager[None]:
        """One atomic unit of writes (re-entrant: nested calls join the outer one)."""
        ...

    def bind_embedder(self, model_id: str, dimensions: int) -> None:
        """Record the embedder on first use; refuse a different one with a clear error."""
        ...

    def embedder_info(self) -> tuple[str, int] | None: ...

    def insert(
        self, record: Record, text: IndexText, vector: np.ndarray | None, *,
        actor: str | None = None, reason: str | None = None,
    ) -> None: ...

    def import_record(
        self, record: Record, text: IndexText | None, vector: np.ndarray | None,
        events: Sequence[Event],
    ) -> None:
        """Insert a record together with its exported event log (no text: nothing to search,
        as for a tombstone)."""
        ...

    def save(
        self, record: Record, op: str, text: IndexText | None = None,
        vector: np.ndarray | None = None, *, actor: str | None = None, reason: str | None = None,
    ) -> None:
        """Write the new state of an existing record and log ``op``; text/vector when changed."""
        ...

    def erase(self, record: Record, *, actor: str | None = None,
              reason: str | None = None) -> None:
        """Hard forget: overwrite the memory with ``record`` (its tombstone, ``record.erased``),
        drop its text and vector, replace every earlier snapshot in its log by
        ``snapshot.scrubbed()``, and log op "erase" with the tombstone as its snapshot."""
        ...

    def rewrite_log(self, scope: Scope, memory_id: str,
                    rewrite: Callable[[Record], Record]) -> int:
        """Replace every snapshot in the memory's log by ``rewrite(snapshot)``, with the care of
        an erasure (freed space zeroed where the backend can): a redaction, so that history
        does not keep words that were erased elsewhere. Returns how many were rewritten."""
        ...

    def drop_scope(self, scope: Scope, at: datetime, op: str = "drop_scope", *,
                   actor: str | None = None, reason: str | None = None) -> int:
        """Remove every memory of the scope (every layer) with its text, vector and events,
        and log one event about the scope (memory_id ``SCOPE_EVENT``, no snapshot). Returns
        how many memories were removed."""
        ...

    def get(self, scope: Scope, memory_id: str) -> Record | None: ...

    def get_many(self, scope: Scope, ids: Sequence[str]) -> dict[str, Record]: ...

    def locate(self, memory_id: str) -> Record | None:
        """The memory with this id in whichever scope holds it (ids are unique across a
        store), every layer: one indexed read, for callers that hold only the id."""
        ...

    def ids_with_prefix(self, scope: Scope, prefix: str, limit: int) -> list[str]:
        """The ids of the scope's memories (every layer) that start with ``prefix``, in id
        order, at most ``limit`` of them: one indexed range read (an id given shortened, as
        a person copies it from a table)."""
        ...

    def concept_members(self, scope: Scope, concept: str, limit: int) -> list[str]:
        """The core memories holding ``concept`` (a name from ``anchors.concepts_of``), in id
        order: all of them, or some ``limit`` of them when there are more."""
        ...

    def concept_counts(self, scope: Scope, kinds: Sequence[str],
                       limit: int) -> list[tuple[str, int, str]]:
        """The concepts of the given kinds (``person``, ``place``, ``topic``: the part before
        the colon) that core memories hold: (concept name, how many memories, the smallest
        member id), most held first (then by name), at most ``limit``."""
        ...

    def triples(self, scope: Scope, *, ids: Sequence[str] | None = None,
                subject: str | None = None, predicate: str | None = None,
                limit: int = 1000) -> list[tuple[str, Triple]]:
        """(memory id, triple) of the scope's memories that are not forgotten, as the last
        index text written for each gave them (``IndexText.triples``), narrowed to ``ids``,
        a ``subject`` and a ``predicate`` where given; the newest memory first (ids sort by
        time), each memory's own order kept; at most ``limit``."""
        ...

    def stances(self, scope: Scope, ids: Sequence[str]) -> dict[str, str]:
        """memory id -> the stance its last index text carried (``IndexText.stance``), for
        those of ``ids`` that have one; written and dropped with the triples."""
        ...

    def get_by_uri(self, scope: Scope, uri: str) -> Record | None: ...

    def find_by_hash(self, scope: Scope, kind: str, content_hash: str) -> list[Record]: ...

    def list(self, scope: Scope, flt: ListFilter) -> Iterator[Record]: ...

    def count(self, scope: Scope, flt: ListFilter) -> int: ...

    def search_text(
        self, scope: Scope, tokens: Sequence[str], fields: Mapping[str, float], limit: int,
        layers: Sequence[Layer],
    ) -> list[tuple[str, float]]:
        """(id, BM25 score) best first over the weighted fields ("body", "anchors",
        "context"); tokens are plain words, never query syntax. ``Layer.COLD`` among the
        layers also scans the cold tier (store/cold.py), merged by score."""
        ...

    def archived_before(self, scope: Scope, before: datetime, limit: int) -> list[str]:
        """The ids of archived memories last changed before ``before`` (``updated_at``), in
        id order, at most ``limit``: what a sleep may move to the cold tier. A save that sets
        a memory's layer to ``cold`` moves its text, vector and passages out of every hot
        search structure into the cold tier; a save that sets another layer brings them
        back (store/cold.py)."""
        ...

    def search_vector(
        self, scope: Scope, vector: np.ndarray, limit: int, layers: Sequence[Layer],
    ) -> list[tuple[str, float]]:
        """(id, cosine) best first; each cosine computed for its pair alone, so the same
        pair scores the same in any search."""
        ...

    def search_vector_many(
        self, scope: Scope, vectors: np.ndarray, limit: int, layers: Sequence[Layer],
    ) -> list[list[tuple[str, float]]]:
        """``search_vector`` for each row of ``vectors`` (a batch of writes), in one pass
        where the backend can: the same ids and the same scores, to the last bit."""
        ...

    def vectors(self, scope: Scope, ids: Sequence[str]) -> dict[str, np.ndarray]: ...

    def put_passages(self, scope: Scope, memory_id: str, vectors: np.ndarray) -> bool:
        """Store a long memory's passage vectors (rows in order), replacing any it had, if the
        memory has its vector now; returns whether they were stored. The store drops them
        whenever that vector changes or goes (a new text, pending, forget, a dropped scope),
        and ``search_vector`` scores the memory by the best of its vector and its passages."""
        ...

    def passages(self, scope: Scope, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """The passage vectors (one row per passage, in order) of those of ``ids`` that have
        them."""
        ...

    def record_uses(self, scope: Scope, ids: Sequence[str], at: datetime, debounce_s: float) -> int:
        """Record one use of each memory, skipping those used within ``debounce_s``."""
        ...

    def events(self, scope: Scope, memory_id: str) -> list[Event]: ...

    def event_count(self, scope: Scope) -> int: ...

    def scopes(self) -> list[Scope]: ...

    # goals (the goal stack of attention/goals.py)

    def put_goal(self, goal: Goal) -> None:
        """Insert the goal, or replace the stored goal with the same scope and id."""
        ...

    def get_goal(self, scope: Scope, goal_id: str) -> Goal | None: ...

    def list_goals(self, scope: Scope, statuses: Sequence[GoalStatus] = ()) -> list[Goal]:
        """The scope's goals (of the given statuses; empty: all), oldest first."""
        ...

    def drop_goals(self, scope: Scope) -> int:
        """Remove every goal of the scope; returns how many."""
        ...
    # working memory (working/, migration 5): sessions, their turns, offloaded blobs

    def session(self, scope: Scope, session_id: str) -> SessionInfo | None: ...

    def sessions(self, scope: Scope) -> list[SessionInfo]:
        """Every session of the scope, oldest first."""
        ...

    def save_session(self, scope: Scope, info: SessionInfo) -> None:
        """Create the session or replace its settings, summary, notes and end time."""
        ...

    def add_turn(self, scope: Scope, session_id: str, turn: Turn) -> None:
        """Append a turn; its ``seq`` is new in the session (Conflict otherwise)."""
        ...

    def fold_turns(self, scope: Scope, session_id: str, seqs: Sequence[int]) -> None:
        """Mark these turns as compressed into the summary."""
        ...

    def turns(self, scope: Scope, session_id: str) -> list[Turn]:
        """The session's turns in ``seq`` order, folded ones included."""
        ...

    def put_blob(self, scope: Scope, blob: Blob) -> None: ...

    def blob(self, scope: Scope, ref: str) -> Blob | None: ...
    # ---------------------------------------------------------------- API keys (HTTP door)

    def insert_key(self, key: ApiKey, key_hash: str) -> None:
        """Store a new key under the hash of its secret (a taken id or hash: Conflict)."""
        ...

    def key_by_hash(self, key_hash: str) -> ApiKey | None:
        """The key whose secret hashes to ``key_hash``, revoked or not."""
        ...

    def list_keys(self, scope: Scope | None = None) -> list[ApiKey]:
        """Every key (of ``scope`` alone when given), by creation time, then id."""
        ...

    def revoke_key(self, key_id: str, at: datetime) -> ApiKey | None:
        """Mark the key revoked at ``at`` (once: a revoked key keeps its first time); None
        when no key has that id."""
        ...
    # ---------------------------------------------------------------- links (migration 4)
    # Typed, directed edges between memories of one scope. Hard forget (erase) drops a
    # memory's links; drop_scope drops the scope's.

    def put_link(self, link: Link) -> None:
        """Insert the link, or set the weight and updated_at of the one with the same scope,
        source, target and relation (its created_at stays)."""
        ...

    def get_link(self, scope: Scope, source: str, target: str, relation: str) -> Link | None: ...

    def links(self, scope: Scope, ids: Sequence[str],
              relations: Sequence[str] = ()) -> list[Link]:
        """Every link with either end in ``ids`` (only ``relations``, when given), ordered by
        source, target, relation."""
        ...

    def remove_links(self, scope: Scope, source: str, target: str,
                     relation: str | None = None) -> int:
        """Delete the links from ``source`` to ``target`` (of one relation, or all); returns
        how many."""
        ...

    def strengthen_links(self, scope: Scope, pairs: Sequence[tuple[str, str]], relation: str,
                         step: float, cap: float, at: datetime, debounce_s: float) -> int:
        """Add ``step`` to each (source, target) link of ``relation`` (a new one starts at
        ``step``), capped at ``cap``; links changed less than ``debounce_s`` before ``at`` are
        skipped. Returns how many changed."""
        ...

    def list_links(self, scope: Scope, *, relation: str | None = None,
                   below: float | None = None, since: datetime | None = None,
                   limit: int | None = None) -> list[Link]:
        """The scope's links (of one relation; with weight under ``below``; set or changed at
        or after ``since``), weakest first, then by source, target, relation: what a pruning
        pass reads."""
        ...

    def delete_links(self, scope: Scope, links: Sequence[Link]) -> int:
        """Delete exactly these links of the scope; returns how many were there."""
        ...

    def link_count(self, scope: Scope) -> int: ...
    def sleep_state(self, scope: Scope) -> SleepState: ...

    def save_sleep_state(self, scope: Scope, state: SleepState) -> None: ...

    def add_written_importance(self, scope: Scope, amount: float) -> float:
        """Add ``amount`` to the importance written since the last sleep; returns the sum."""
        ...

    def changed_since(self, scope: Scope, seq: int) -> tuple[int, list[str]]:
        """(the newest event seq of the scope, or ``seq`` when none is newer; the ids of the
        memories with an event after ``seq``, in first-change order)."""
        ...

    def set_due(self, scope: Scope, due: Mapping[str, datetime | None]) -> None:
        """Remember when each memory next needs a sleep's attention (None: never)."""
        ...

    def put_pii(self, scope: Scope, memory_id: str,
                values: Mapping[str, tuple[str, str]]) -> None:
        """Replace the memory's masked values (placeholder -> (kind, value); empty: none);
        ``erase`` and ``drop_scope`` delete them (write/privacy.py)."""
        ...

    def pii_values(self, scope: Scope, ids: Sequence[str]) -> dict[str, dict[str, str]]:
        """Per memory id, its placeholders and the values they stand for."""
        ...

    def due(self, scope: Scope, until: datetime) -> list[str]:
        """The memories whose due time is at or before ``until``."""
        ...

    # pending vectors (Config.embed = "deferred"; engine/deferred.py)
    def add_pending(self, scope: Scope, items: Mapping[str, bool]) -> None:
        """Mark memories (id -> judge) as waiting for their vector, inside the caller's
        transaction; a vector they had is dropped (it no longer matches their text)."""
        ...

    def pending(self, limit: int) -> list[Pending]:
        """Up to ``limit`` pending memories of any scope, oldest first."""
        ...

    def pending_count(self, scope: Scope | None = None) -> int:
        """How many memories wait for a vector: in ``scope``, or in every scope."""
        ...

    def finish_pending(self, scope: Scope, vectors: Mapping[str, np.ndarray],
                       drop: Sequence[str] = ()) -> list[str]:
        """Store the vectors of pending memories and take them, and ``drop``, off the pending
        set, in one transaction (or the caller's). A memory no longer pending (another process
        finished it) is left alone. Returns the ids whose vector was stored."""
        ...

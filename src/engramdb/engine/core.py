"""The engine's core: the store, the embedder, the clock and the config every verb group
uses, and the few helpers they share (scope checks, the clock's now, embedding, lookups)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Self

from ..clock import Clock, SystemClock, aware
from ..config import Config, parse_every
from ..embed.base import Embedder
from ..errors import Invalid, NotFound
from ..lazy import built_once
from ..model import (
    Action,
    Record,
    Scope,
)
from ..registry import comparers
from ..uri import validate_uri
from .idprefix import ID_LENGTH, full_id
from .scoped import ScopedMemory
from .sleeper import Sleeper

if TYPE_CHECKING:
    import numpy as np

    from ..dynamics.merge import NearHints
    from ..dynamics.rulebook import RuleBooks
    from ..dynamics.sleep import SleepReport
    from ..dynamics.stilltrue import StillTrue, Unconfirmed
    from ..dynamics.strength import DecayParams
    from ..embed.querycache import QueryCache
    from ..embed.workers import WorkerPool, WorkerSpec
    from ..recall.pipeline import Recaller
    from ..store.protocol import Store
    from .deferred import VectorWorker

log = logging.getLogger("engramdb")
USE_DEBOUNCE_S = 60.0
ACTOR = "user"  # who the event log names for a change made through the API
WRITES_VECTOR = (Action.ADD, Action.SUPERSEDE, Action.UPDATE)  # results that stored a vector
Progress = Callable[[int, int], None]


class Core:
    """What every verb group of ``Memory`` stands on."""

    def __init__(self, store: Store, embedder: Embedder, *, clock: Clock | None = None,
                 config: Config | None = None, workers: WorkerSpec | None = None) -> None:
        """``workers``: how a worker process builds the same model (embed/workers.py), for
        the bulk writes to run on every core; None: the model runs in this process only."""
        self.store = store
        self.embedder = embedder
        self._workers_spec = workers
        self._pool: WorkerPool | None = None
        self._bulk_work = 0   # what bulk embeds cost before the workers started (_pool_for)
        self.clock: Clock = clock or SystemClock()
        self.config = config or Config()
        self.default_scope = Scope(self.config.user, self.config.agent)
        # the similarity and conflict functions (compare.py); an unknown name stops here
        self.compare = comparers(self.config.similarity, self.config.conflict)
        store.bind_embedder(embedder.model_id, embedder.dimensions)
        self.last_auto_sleep: SleepReport | None = None
        self._building = threading.RLock()   # built_once: one build at a time
        self._catch_up()
        self.sleeper = Sleeper(store, self._sleep_in_background, self._now,
                               every_s=parse_every(self.config.sleep_every),
                               threshold=self.config.auto_sleep_importance)
        if self.sleeper.every is not None or self.config.sleep_in_background:
            self.sleeper.start()

    # The read and write machinery (and numpy, the read path, the write path with them) is
    # built on first use, once: a door that only reads records (get, list, history, stats,
    # export) does not load it.

    @built_once
    def decay_params(self) -> DecayParams:
        from ..dynamics.strength import params_from

        return params_from(self.config)

    @built_once
    def _near(self) -> NearHints:
        """What writes found near them, for the next sleep's merge."""
        from ..dynamics.merge import NearHints

        return NearHints()

    @built_once
    def _rule_books(self) -> RuleBooks:
        """The rules review's facts of each scope, kept between sleeps (dynamics/rulebook.py)."""
        from ..dynamics.rulebook import RuleBooks

        return RuleBooks()

    @built_once
    def _query_vectors(self) -> QueryCache:
        from ..embed.querycache import QueryCache

        return QueryCache(self._embed_uncached, self.config.query_cache)

    @built_once
    def _main_vectors(self) -> QueryCache | None:
        """A routed embedder's main model's query vectors (``embed_main``: a question in
        Chinese is read by it too, recall/pipeline.py), remembered like the query's own."""
        from ..embed.querycache import QueryCache

        main = getattr(self.embedder, "embed_main", None)
        return QueryCache(main, self.config.query_cache) if main is not None else None

    @built_once
    def _recaller(self) -> Recaller:
        from ..recall.changemeaning import book_for as change_book
        from ..recall.earlier import book_for as earlier_book
        from ..recall.pipeline import Recaller
        from ..recall.questionbank import bank_for, main_bank_for
        from ..recall.worldly import book_for as world_book
        from ..registry import statements
        from ..write.kindvote import vectors_for

        params, embed_query = self.decay_params, self._embed_query
        embedder = self.embedder
        return Recaller(self.store, embed_query, params,
                        getattr(embedder, "relevance_floor", None),
                        self.config.preset, self.config.assoc_slots, self.config.relevance_floor,
                        aligned=getattr(embedder, "embed_aligned", None),
                        main=self._main_vectors,
                        meaning=not getattr(embedder, "lexical_only", False),
                        # recall's own reading (None) reads meaning too; another is asked as is
                        conflict=None if self.compare.conflict_fn is statements
                        else self.compare.conflicts,
                        bank=lambda: bank_for(embedder),
                        main_bank=lambda: main_bank_for(embedder),
                        examples=lambda cjk: vectors_for(embedder, cjk),
                        changes=lambda: change_book(embedder),
                        world=lambda: world_book(embedder),
                        earlier=lambda: earlier_book(embedder))

    @built_once
    def _unconfirmed(self) -> Unconfirmed:
        """Each scope's facts and when each was last confirmed (dynamics/stilltrue.py)."""
        from ..dynamics.stilltrue import Unconfirmed

        return Unconfirmed(self.store)

    def _still_true(self, scope: Scope, k: int) -> tuple[list[StillTrue], str | None]:
        """The ``k`` longest overdue facts of the "still true?" queue, and the language most
        of the scope's facts are in (None: it has none)."""
        return self._unconfirmed.queue(scope, self._now(), self.config.still_true_days, k)

    @built_once
    def _later(self) -> VectorWorker:
        from .deferred import VectorWorker

        params = self.decay_params
        return VectorWorker(self.store, self._embed, self._now, params, compare=self.compare)

    # ---------------------------------------------------------------- plumbing

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the background sleep and the vector worker (after the sleep or batch in hand;
        what is still due or pending stays in the database for the next open), then close the
        store."""
        self.sleeper.close()
        if "_later" in self.__dict__:   # a worker was made (built_once)
            self._later.close()
        with self._building:
            pool, self._workers_spec, self._pool = self._pool, None, None
        if pool is not None:
            pool.close()
        self.store.close()

    def _catch_up(self) -> None:
        """At open: vectors a deferred write left pending (this process's or one that died)
        are finished now (``embed="sync"``: before the open returns) or by the worker."""
        if not self.store.pending_count():
            return
        if self.config.embed == "deferred":
            self._later.notify()
            return
        try:
            self._later.flush()
        except Exception as exc:  # still pending, still stored: the next open tries again
            log.warning("engramdb: computing pending vectors at open failed: %s", exc)

    def _sleep_in_background(self, scope: Scope) -> SleepReport:
        """What the background sleeper runs (engine/sleeper.py): the scope's sleep, as the
        automatic sleep after a write runs it (no catch-up of pending vectors)."""
        report: SleepReport = self._sleep(scope)  # type: ignore[attr-defined] # maintenance.py
        self.last_auto_sleep = report
        return report

    def scope(self, user: str | None = None, agent: str | None = None) -> ScopedMemory:
        return ScopedMemory(self, self._scope(user, agent))

    def _scope(self, user: str | None, agent: str | None) -> Scope:
        from ..text.checks import storable

        scope = Scope(self.default_scope.user if user is None else user,
                      self.default_scope.agent if agent is None else agent)
        for name, value in (("user", scope.user), ("agent", scope.agent)):
            if (not isinstance(value, str) or not value.strip() or len(value) > 200
                    or not storable(value)):
                raise Invalid(f"{name} must be a non-empty string of at most 200 characters")
        return scope

    def _now(self) -> datetime:
        return aware(self.clock.now(), "clock.now()")

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        """Memory texts' vectors: a long text's passages pooled (embed/pooled.py). The
        passages' own vectors wait in the store's memo for the write that stores the pooled
        vector (store/passages.py), which stores them with it."""
        from ..embed.pooled import embed_texts

        return embed_texts(self.embedder, texts, getattr(self.store, "passage_memo", None))

    def _embed_many(self, texts: Sequence[str], batch: int = 64,
                    progress: Progress | None = None) -> np.ndarray:
        """``_embed`` of many texts in chunks of at most ``batch``, ``progress(done, total)``
        after each chunk; in the model worker processes once bulk writes are enough to pay
        for them (embed/workers.py), with the same vectors."""
        from ..embed.pooled import embed_in_chunks, split

        chunks = split(texts, batch)
        return embed_in_chunks(self.embedder, texts, batch,
                               getattr(self.store, "passage_memo", None), progress,
                               self._pool_for(chunks) if len(chunks) > 1 else None)

    def _pool_for(self, chunks: list[list[str]]) -> WorkerPool | None:
        """The model workers for a bulk embed, or None (the model runs here): started once
        this Memory's bulk embeds add up to POOL_MIN_WORK, kept until ``close``."""
        from ..embed.workers import WorkerPool, bulk_work, model_bytes, pays, workers_for

        with self._building:
            spec = self._workers_spec
            if self._pool is not None or spec is None:
                return self._pool
            self._bulk_work += bulk_work(chunks)
            if not pays(self._bulk_work):
                return None
            many = workers_for(self.config.embed_workers, spec.threads,
                               model_bytes(self.embedder))
            if many < 2:
                self._workers_spec = None   # decided once: the model runs here
                return None
            self._pool = WorkerPool(spec, many - 1)   # this process embeds too
            return self._pool

    def _embed_query(self, text: str) -> np.ndarray:
        return self._query_vectors(text)

    def _embed_uncached(self, text: str) -> np.ndarray:
        return self.embedder.embed_batch([text], query=True)[0]

    def get(self, id_or_uri: str, *, user: str | None = None, agent: str | None = None,
            reveal: bool = False) -> Record:
        """One memory by id or URI. ``reveal=True``: the values its text masks (the PII
        policy, write/privacy.py) in place of their placeholders; doors allow it to admin keys
        only."""
        scope = self._scope(user, agent)
        found = self._get(scope, id_or_uri)
        if reveal is not True:
            return found
        from ..write.privacy import reveal_all

        return reveal_all(self.store, scope, [found])[0]

    def _get(self, scope: Scope, id_or_uri: str) -> Record:
        if not isinstance(id_or_uri, str) or not id_or_uri:
            raise Invalid("give a memory id or URI")
        if "://" in id_or_uri:
            found = self._at_uri(scope, validate_uri(id_or_uri))
        else:
            found = self.store.get(scope, self._id(scope, id_or_uri))
        if found is None:
            raise NotFound(f"no memory {id_or_uri!r} for user={scope.user} agent={scope.agent}")
        return found


    def _id(self, scope: Scope, given: str) -> str:
        """The whole id of a memory given by a unique prefix of its id (engine/idprefix.py),
        else ``given`` as it is; a prefix several memories share is refused (Invalid)."""
        if not isinstance(given, str) or len(given) >= ID_LENGTH or "://" in given:
            return given
        return full_id(self.store, scope, given) or given

    def _at_uri(self, scope: Scope, uri: str) -> Record | None:
        """The memory at the URI as stored, or as a masked write stored it (write/privacy.py:
        ``core://contacts/jane@example.com`` finds ``core://contacts/~email~3f9a0c2b71de``)."""
        found = self.store.get_by_uri(scope, uri)
        if found is None:
            from ..write.privacy import stored_uri

            masked = stored_uri(self.store, scope, uri)
            found = self.store.get_by_uri(scope, masked) if masked else None
        return found

    def _stored_prefix(self, scope: Scope, prefix: str | None) -> str | None:
        """A URI prefix with the whole values in it masked, as a masked write stores them
        (write/privacy.py); a prefix that stops inside a value stays as given."""
        if not isinstance(prefix, str) or "://" not in prefix:
            return prefix
        from ..write.privacy import stored_uri

        return stored_uri(self.store, scope, prefix) or prefix

    def _reload(self, rec: Record) -> Record:
        return self.store.get(rec.scope, rec.id) or rec
    def __iter__(self) -> Iterator[Record]:
        return self.list()


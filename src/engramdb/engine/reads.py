"""Reading: recall (the read path in recall/), explain, boot, list, count, stats."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from ..clock import aware
from ..errors import Invalid
from ..model import (
    MAX_K,
    Boot,
    Hits,
    Kind,
    Layer,
    Record,
    Scope,
    Stats,
)
from ..tracing import traced
from ..uri import validate_prefix
from .core import USE_DEBOUNCE_S, Core
from .idprefix import SHOWN, abbreviate

MAX_ROWS = 2**63 - 1   # a list's limit and offset: the largest integer SQLite and PostgreSQL hold

if TYPE_CHECKING:
    from ..dynamics.review import Review
    from ..dynamics.strength import Strength
    from ..io.profile import ProfileCheck
    from ..store.protocol import ListFilter


class ReadVerbs(Core):
    """Reading: recall (the read path in recall/), explain, boot, list, count, stats."""

    @traced("recall")
    def recall(self, query: str, k: int = 5, *, track: bool = True, preset: str | None = None,
               kinds: Sequence[str] | None = None, user: str | None = None,
               agent: str | None = None, reveal: bool = False,
               uri_prefix: str | None = None, keywords: str | Sequence[str] | None = None,
               time_context: object = None, relevance_floor: float | None = None,
               include_cold: bool = False) -> Hits:
        """The ``k`` memories that best answer ``query``. ``kinds``, ``uri_prefix``: only
        memories of those kinds, under that URI prefix (``"project://billing/"``), fill the k
        places. ``reveal=True``: masked values in place of their placeholders (as ``get``).
        ``keywords``: more words to match lexically; ``time_context``: the time the answer
        falls in ("last week", "上周", ``{"start": ..., "end": ...}``), applied as a time the
        query names (recall/hints.py). ``relevance_floor``: hits less relevant than this
        (0 to 1) are dropped, and none left is an abstention with its note (None: the
        configured ``Config.relevance_floor``; the doors an LLM reads pass
        ``Config.answer_floor``). ``include_cold=True``: the cold tier (memories archived for
        ``Config.cold_after``) is searched too, and what a cue wakes there comes back as an
        archived memory does: shown, and back in core when the cue is strong."""
        from ..recall.associate import HEBB_CAP, HEBB_DEBOUNCE_S, HEBB_STEP, hebbian_pairs
        from ..recall.hints import context_window, keyword_tokens
        from ..recall.judge import judge
        from ..recall.relevance import check_floor
        from ..recall.wake import promote
        from ..recall.why import describe
        from ..text.checks import storable
        from ..write.prepare import parse_kind

        scope = self._scope(user, agent)
        if not isinstance(query, str) or not query.strip():
            raise Invalid("query is empty")
        if not storable(query):
            raise Invalid("query is not valid Unicode text (it holds a lone surrogate)")
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
            raise Invalid(f"k must be an integer from 1 to {MAX_K}, got {k!r}")
        if not isinstance(include_cold, bool):
            raise Invalid(f"include_cold must be true or false, got {include_cold!r}")
        kinds = [kinds] if isinstance(kinds, str) else kinds
        kinds_t = tuple(parse_kind(x).value for x in kinds) if kinds else ()
        uri_prefix = self._stored_prefix(scope, uri_prefix)
        within = validate_prefix(uri_prefix) if uri_prefix is not None else None
        now = self._now()
        extra, window = keyword_tokens(keywords), context_window(time_context, now)
        floor = None if relevance_floor is None else check_floor(relevance_floor)
        hits = self._recaller.recall(scope, query, kinds_t, preset, k, now, within, extra,
                                     window, floor, cold=include_cold)
        if track and hits:  # every hit returned is used; strongly woken ones come back to core
            with self.store.transaction():
                promote(self.store, scope, hits, now)
                self.store.record_uses(scope, [h.memory.id for h in hits], now, USE_DEBOUNCE_S)
                self.store.strengthen_links(scope, hebbian_pairs(hits), "associated", HEBB_STEP,
                                            HEBB_CAP, now, HEBB_DEBOUNCE_S)
        if reveal is True and hits:
            from ..write.privacy import reveal_hits

            reveal_hits(self.store, scope, hits)
        describe(hits, query, now, hits.plan)
        judge(hits, query, now, self.config.still_true_days, self.config.archive_below)
        return hits

    def abbreviate(self, ids: Sequence[str], *, min_length: int = SHOWN,
                   user: str | None = None, agent: str | None = None) -> dict[str, str]:
        """Each id's shortest prefix of at least ``min_length`` characters that no other
        memory of the scope starts with, as git shortens commit ids (an id the scope does not
        hold stays whole). Every verb that takes a memory id takes such a prefix."""
        scope = self._scope(user, agent)
        given = list(ids) if not isinstance(ids, str) else None
        if given is None or not all(isinstance(i, str) for i in given):
            raise Invalid("give a list of memory ids")
        if isinstance(min_length, bool) or not isinstance(min_length, int) or min_length < 1:
            raise Invalid(f"min_length must be a positive integer, got {min_length!r}")
        return abbreviate(self.store, scope, given, min_length)

    def explain(self, id_or_uri: str, *, user: str | None = None,
                agent: str | None = None) -> Strength:
        """Why a memory weighs what it weighs: layer, retention, decay rate, priority,
        half-life and every term of its weight (dynamics/strength.py)."""
        from ..dynamics.decay import link_weights
        from ..dynamics.strength import assess

        rec = self._get(self._scope(user, agent), id_or_uri)
        links = link_weights(self.store, rec.scope, [rec.id]).get(rec.id, 0.0)
        return assess(rec, self._now(), self.decay_params, links)

    def boot(self, budget: int | None = None, *, user: str | None = None,
             agent: str | None = None) -> Boot:
        """What an agent loads at start: the P0 memories, the core://agent/ and core://user/
        memories, then the URIs listed in the memory at system://boot (one per line), within
        an optional token budget. Listed URIs that name no memory are reported in
        ``missing``. The order and the rules are in attention/boot.py."""
        from ..attention.boot import boot
        from ..dynamics.review import with_due
        from ..dynamics.stilltrue import with_still_true
        from ..io.profile import with_warnings
        from ..text.lang import EN

        scope = self._scope(user, agent)
        now, encoding = self._now(), self.config.encoding
        loaded = boot(self.store, scope, budget, encoding)
        loaded = with_due(loaded, self.store, scope, now, self.config.review_due, budget,
                          encoding)
        queued, lang = self._still_true(scope, self.config.still_true_shown)
        loaded = with_still_true(loaded, queued, lang or EN, budget, encoding)
        return with_warnings(loaded, self.store, scope, now, self.config.profile_budget,
                             encoding)

    def list(self, *, kind: str | Sequence[str] | None = None, uri_prefix: str | None = None,
             since: datetime | str | None = None, until: datetime | str | None = None,
             layer: str | Sequence[str] | None = None, include_superseded: bool = True,
             limit: int | None = None, offset: int = 0, newest_first: bool = False,
             contains: str | None = None, user: str | None = None,
             agent: str | None = None) -> Iterator[Record]:
        """The scope's memories by kind, URI prefix, time (``at``), layer and ``contains`` (text
        the content holds, case-insensitive), oldest first unless ``newest_first``."""
        scope = self._scope(user, agent)
        flt = self._filter(kind, self._stored_prefix(scope, uri_prefix), since, until, layer,
                           include_superseded, limit, offset, newest_first, contains)
        return self.store.list(scope, flt)

    def count(self, *, kind: str | Sequence[str] | None = None, uri_prefix: str | None = None,
              since: datetime | str | None = None, until: datetime | str | None = None,
              layer: str | Sequence[str] | None = None, contains: str | None = None,
              user: str | None = None, agent: str | None = None) -> int:
        scope = self._scope(user, agent)
        flt = self._filter(kind, self._stored_prefix(scope, uri_prefix), since, until, layer,
                           True, None, 0, False, contains)
        return self.store.count(scope, flt)

    @staticmethod
    def _filter(kind: str | Sequence[str] | None, uri_prefix: str | None,
                since: datetime | str | None, until: datetime | str | None,
                layer: str | Sequence[str] | None, include_superseded: bool,
                limit: int | None, offset: int, newest_first: bool,
                contains: str | None = None) -> ListFilter:
        from ..store.protocol import ListFilter

        kinds = [kind] if isinstance(kind, str) else list(kind or [])
        layers = [layer] if isinstance(layer, str) else list(layer or [Layer.CORE.value])
        try:
            layer_t = tuple(Layer(x) for x in layers)
        except ValueError:
            raise Invalid(f"unknown layer in {layers} (core, archived, cold, deleted)") from None
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                                  or not 0 <= limit <= MAX_ROWS):
            raise Invalid(f"limit must be an integer from 0 to {MAX_ROWS}, got {limit!r}")
        if isinstance(offset, bool) or not isinstance(offset, int) or \
                not 0 <= offset <= MAX_ROWS:
            raise Invalid(f"offset must be an integer from 0 to {MAX_ROWS} (how many memories "
                          f"to skip), got {offset!r}")
        kinds_t: tuple[str, ...] = ()
        if kinds:   # the write path's kind names load only when a kind is asked for
            from ..write.prepare import parse_kind

            kinds_t = tuple(parse_kind(k).value for k in kinds)
        return ListFilter(
            kinds=kinds_t,
            uri_prefix=validate_prefix(uri_prefix) if uri_prefix else None,
            since=aware(since, "since") if since else None,
            until=aware(until, "until") if until else None,
            layers=layer_t, current_only=not include_superseded, limit=limit, offset=offset,
            newest_first=newest_first, contains=_contains(contains),
        )

    def stats(self, *, user: str | None = None, agent: str | None = None) -> Stats:
        from ..store.protocol import ListFilter

        scope = self._scope(user, agent)
        by_layer = {lay.value: self.store.count(scope, ListFilter(layers=(lay,))) for lay in Layer}
        all_layers = tuple(Layer)
        by_kind = {k.value: n for k in Kind
                   if (n := self.store.count(scope, ListFilter(kinds=(k.value,),
                                                               layers=all_layers)))}
        return Stats(user=scope.user, agent=scope.agent, total=sum(by_layer.values()),
                     by_layer=by_layer, by_kind=by_kind, events=self.store.event_count(scope),
                     embedder=self.embedder.model_id, dimensions=self.embedder.dimensions,
                     path=self.store.location,
                     pending_vectors=self.store.pending_count(scope))

    def scopes(self) -> list[Scope]:
        return self.store.scopes()

    def due_for_review(self, k: int = 10, *, user: str | None = None,
                       agent: str | None = None) -> list[Review]:
        """The ``k`` memories most in need of review now, by FSRS over their uses
        (dynamics/review.py): due ones only, least retrievable first."""
        from ..dynamics.review import due_for_review

        return due_for_review(self.store, self._scope(user, agent), self._now(), k)

    def profile_check(self, budget: int | None = None, *, user: str | None = None,
                      agent: str | None = None) -> ProfileCheck:
        """The zoned profile's size against its token budget (default
        ``Config.profile_budget``) and its pending items, with the warnings they give
        (io/profile.py): capacity from 80% of the budget, a reminder from 8 pending items."""
        from ..io.profile import check

        if budget is None:
            budget = self.config.profile_budget
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise Invalid(f"budget must be a positive integer of tokens, got {budget!r}")
        return check(self.store, self._scope(user, agent), self._now(), budget,
                     self.config.encoding)


def _contains(text: object) -> str | None:
    """The text a listed memory must hold: None for none; blank text is no filter."""
    if text is None:
        return None
    if not isinstance(text, str) or len(text) > 200:
        raise Invalid(f"contains must be text of at most 200 characters, got {text!r:.60}")
    return text.strip() or None

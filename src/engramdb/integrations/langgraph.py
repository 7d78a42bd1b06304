"""LangGraph's ``BaseStore`` over engramdb: ``graph.compile(store=EngramStore(mem))``.

The store acts for one engramdb scope (``user``/``agent``; the configured defaults when not
given). An item ``(namespace, key)`` is the memory at ``note://langgraph/<ns>/.../@/<key>``
(labels and keys escaped into URI segments), so a namespace prefix is a URI prefix; its value
is kept whole in the memory's metadata and its text (the configured index fields, else every
string in it) is what recall searches. ``search(query=...)`` is engramdb's recall, ``filter``
and namespace matching are LangGraph's own (langgraph.store.memory's matchers). ``ttl`` (minutes)
is engramdb's ``expires_at``: an expired item is not returned, sleep retires it, and a read
with ``refresh_ttl`` pushes its expiry back. ``delete`` forgets the memory (its log stays)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from typing import Any

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        InvalidNamespaceError,
        Item,
        ListNamespacesOp,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
        TTLConfig,
        _ensure_refresh,
        _validate_namespace_labels,
        validate_op_namespace,
    )
    from langgraph.store.base.embed import get_text_at_path
    from langgraph.store.memory import _compare_values, _does_match
except ImportError as exc:  # pragma: no cover - the extra is installed by `make test`
    raise ImportError("EngramStore needs LangGraph: pip install 'engramdb[langgraph]'") from exc

from ..engine import Memory as Engine
from ..engine.lookup import at_uri, live, readable, set_expiry
from ..model import MAX_K, Record
from .langgraph_shapes import (
    current,
    namespace_of,
    prefix_of,
    put_item,
    strings,
    uri_of,
    value_text,
)

CHECKED_KEPT = 4096   # namespaces whose labels were checked, URIs built: at most this many


class EngramStore(BaseStore):
    """A LangGraph store whose items are engramdb memories of one scope."""

    supports_ttl = True

    def __init__(self, memory: Engine, *, user: str | None = None, agent: str | None = None,
                 index: dict[str, Any] | None = None, ttl: TTLConfig | None = None) -> None:
        self.engine = memory
        self.scope = memory._scope(user, agent)
        self.fields: list[str] = list((index or {}).get("fields") or ["$"])
        self.ttl_config = ttl
        self._checked: set[tuple[str, ...]] = set()   # namespaces whose labels passed

    # ---------------------------------------------------------------- BaseStore

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        for op in ops:
            _check(op)
        if len(ops) == 1 and _single_write(ops[0]):  # no snapshot to hold: one engine call
            return [self._run(ops[0])]
        with self.engine.store.transaction():
            return [self._run(op) for op in ops]

    def get(self, namespace: tuple[str, ...], key: str, *,
            refresh_ttl: bool | None = None) -> Item | None:
        """``BaseStore.get`` without a batch of one: the checks ``_check`` makes of a GetOp
        (LangGraph's label rules, a non-empty key), then the lookup."""
        namespace = tuple(namespace)
        self._check_labels(namespace)
        key = str(key)
        if not key:
            raise ValueError("a store key is a non-empty string")
        return self._get(namespace, key, _ensure_refresh(self.ttl_config, refresh_ttl))

    def _check_labels(self, namespace: tuple[str, ...]) -> None:
        """LangGraph's label rules, checked once per namespace (it raises for a bad one)."""
        try:
            known = namespace in self._checked
        except TypeError:   # an unhashable label: LangGraph's check names it
            known = False
        if not known:
            _validate_namespace_labels(namespace)
            if len(self._checked) >= CHECKED_KEPT:
                self._checked.clear()
            self._checked.add(namespace)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    def _run(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(op.namespace, op.key, op.refresh_ttl)
        if isinstance(op, PutOp):
            return self._put(op)
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._namespaces(op)
        raise ValueError(f"unknown store operation: {type(op).__name__}")

    # ---------------------------------------------------------------- operations

    def _get(self, namespace: tuple[str, ...], key: str, refresh_ttl: bool) -> Item | None:
        rec = readable(self.engine, at_uri(self.engine, self.scope, uri_of(tuple(namespace), key)))
        if rec is None:
            return None
        if refresh_ttl:
            rec = self._refresh(rec)
        return _item(rec)

    def _put(self, op: PutOp) -> None:
        if op.value is None:
            old = current(self.engine, self.scope, uri_of(op.namespace, op.key))
            if old is not None:
                self.engine.forget(old.id, reason="langgraph delete", **self._who())
            return None
        if not isinstance(op.value, dict):
            raise ValueError(f"a store value is a dict, got {type(op.value).__name__}")
        put_item(self.engine, self.scope, tuple(op.namespace), op.key, op.value,
                 self._text(op.value, op.index), ttl=op.ttl, expires_at=self._expiry(op.ttl))
        return None

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = tuple(op.namespace_prefix)
        want = op.offset + op.limit
        now = self.engine._now()

        def kept(found: list[tuple[Record, float | None]]) -> list[tuple[Record, float | None]]:
            return [(r, s) for r, s in found if _in(r, prefix) and live(r, now) is not None
                    and _filtered(r, op.filter)]

        if op.query:  # the recall keeps to the namespace; a filter may leave places empty
            k = min(MAX_K, 2 * want + 5 if op.filter else want)
            found = self._recall(op.query, k, True, prefix)
            out = kept(found)
            if len(out) < want and len(found) == k:  # others took the places: look deeper
                out = kept(self._recall(op.query, MAX_K, False, prefix))
        else:
            out = kept([(r, None) for r in self._listed(prefix)])
        out = out[op.offset:want]
        if op.refresh_ttl and any(_has_ttl(r) for r, _ in out):  # the refreshes: one write
            with self.engine.store.transaction():
                out = [(self._refresh(r), s) for r, s in out]
        return [_search_item(r, s) for r, s in out]

    def _recall(self, query: str, k: int, track: bool,
                prefix: tuple[str, ...]) -> list[tuple[Record, float | None]]:
        return [(h.memory, h.score) for h in self.engine.recall(
            query, k=k, track=track, uri_prefix=prefix_of(prefix),
            relevance_floor=self.engine.config.answer_floor, **self._who())]

    def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        now = self.engine._now()
        seen: set[tuple[str, ...]] = set()
        for rec in self._listed(()):
            if live(rec, now) is None:
                continue
            ns = namespace_of(rec)
            if all(_does_match(c, ns) for c in op.match_conditions or ()):
                seen.add(ns[: op.max_depth] if op.max_depth is not None else ns)
        return sorted(seen)[op.offset: op.offset + op.limit]

    # ---------------------------------------------------------------- plumbing

    def _who(self) -> dict[str, str]:
        return {"user": self.scope.user, "agent": self.scope.agent}

    def _listed(self, prefix: tuple[str, ...]) -> Iterator[Record]:
        return self.engine.list(uri_prefix=prefix_of(prefix), layer=("core", "archived"),
                                **self._who())

    def _text(self, value: dict[str, Any], index: Any) -> str:
        fields = self.fields if index is None or index is False else list(index)
        return value_text(value, [t for f in fields for t in (
            strings(value) if f == "$" else get_text_at_path(value, f))])

    def _expiry(self, ttl: float | None) -> datetime | None:
        if ttl is None:
            return None
        if isinstance(ttl, bool) or not isinstance(ttl, int | float) or ttl <= 0:
            raise ValueError(f"ttl is a positive number of minutes, got {ttl!r}")
        return self.engine._now() + timedelta(minutes=ttl)

    def _refresh(self, rec: Record) -> Record:
        if not _has_ttl(rec):
            return rec
        ttl = rec.metadata["langgraph"]["ttl"]
        return set_expiry(self.engine, self.scope, rec.id, self._expiry(ttl))


def _check(op: Op) -> None:
    """LangGraph's own namespace rules, also for ops handed straight to ``batch``; a key is a
    non-empty string, index fields are strings, a filter is a dict, limit and offset are
    counts (ValueError, as LangGraph's stores raise for a bad value)."""
    validate_op_namespace(op)
    if isinstance(op, PutOp) and not op.namespace:
        raise InvalidNamespaceError("Namespace cannot be empty.")
    if isinstance(op, GetOp | PutOp) and (not isinstance(op.key, str) or not op.key):
        raise ValueError("a store key is a non-empty string")
    if isinstance(op, PutOp) and op.index not in (None, False) and (
            not isinstance(op.index, list) or not all(isinstance(f, str) for f in op.index)):
        raise ValueError(f"index is a list of field paths (strings) or False, got {op.index!r}")
    if isinstance(op, SearchOp):
        if op.filter is not None and not isinstance(op.filter, dict):
            raise ValueError(f"a search filter is a dict, got {type(op.filter).__name__}")
        for name in ("limit", "offset"):
            value = getattr(op, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} is a non-negative integer, got {value!r}")


def _single_write(op: Op) -> bool:
    """Whether the op needs no transaction around it (a get's refresh is one write; a search
    holds its refreshes in one itself; a put may write twice: it runs in one)."""
    return isinstance(op, GetOp | ListNamespacesOp | SearchOp)


def _has_ttl(rec: Record) -> bool:
    """Whether a read pushes the item's expiry back: it was put with a ttl and expires."""
    return bool(rec.metadata.get("langgraph", {}).get("ttl")) and rec.expires_at is not None


def _in(rec: Record, prefix: tuple[str, ...]) -> bool:
    ns = namespace_of(rec)
    return bool(rec.metadata.get("langgraph")) and ns[: len(prefix)] == prefix


def _filtered(rec: Record, flt: dict[str, Any] | None) -> bool:
    value = rec.metadata["langgraph"]["value"]
    return all(_compare_values(value.get(k), v) for k, v in (flt or {}).items())


def _item(rec: Record) -> Item:
    lg = rec.metadata["langgraph"]
    return Item(value=lg["value"], key=lg["key"], namespace=tuple(lg["namespace"]),
                created_at=rec.recorded_at, updated_at=rec.updated_at)


def _search_item(rec: Record, score: float | None) -> SearchItem:
    lg = rec.metadata["langgraph"]
    return SearchItem(tuple(lg["namespace"]), lg["key"], lg["value"], rec.recorded_at,
                      rec.updated_at, score)


__all__ = ["EngramStore", "uri_of"]

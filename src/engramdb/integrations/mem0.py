"""A mem0-compatible ``Memory`` over engramdb: change ``from mem0 import Memory`` to
``from engramdb.integrations.mem0 import Memory`` and the program runs on engramdb.

Shapes follow mem0ai 2.2.1 (mem0/memory/main.py). ``user_id`` and ``agent_id`` are engramdb's
scope (user, agent; a missing one is the configured default); ``run_id`` is kept in the
memory's metadata with the ids it was added with, as mem0 keeps them in its payload.
``search``/``get_all`` scope by ``filters={"user_id": ...}`` as mem0 2.x does, and also take
the older top-level ``user_id=``/``agent_id=``/``run_id=``/``limit=``. ``add(infer=True)``
extracts with engramdb's extractor (the configured LLM, else the rules); ``infer=False`` stores
each message as given. ``score`` is engramdb's relevance (0..1, falling down the list:
recall/pipeline.py ``falling``); ``threshold`` keeps the hits whose score reaches it, a head of
the list (default: no cut, engramdb abstains by itself). What only engramdb knows is under the
extra key ``engramdb``. Bad input raises
``Mem0Error``: an ``engramdb.Invalid`` that is also a ``ValueError``, as mem0's are.
``AsyncMemory`` is mem0's ``AsyncMemory``: the same verbs awaited (``from mem0 import
AsyncMemory`` becomes ``from engramdb.integrations.mem0 import AsyncMemory``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import Any

from .. import open as open_memory
from ..engine import Memory as Engine
from ..engine.lookup import find_by_id, readable
from ..errors import EngramError, Invalid, NotFound
from ..model import MAX_K, Action, Draft, Hit, Record, Scope, WriteResult
from ..write.tagged import extract_tagged
from .mem0_shapes import (
    IDS,
    Mem0Error,
    NotFoundError,
    check_id,
    check_ids,
    check_limit,
    check_query,
    check_threshold,
    item,
    matches,
    payload,
    tag,
)

log = logging.getLogger(__name__)

MEM0_CONFIG_KEYS = frozenset({"vector_store", "llm", "embedder", "graph_store", "reranker",
                              "history_db_path", "version", "custom_fact_extraction_prompt",
                              "custom_update_memory_prompt", "custom_instructions"})
IDENTITY = frozenset({*IDS, "actor_id", "role"})
EVENTS = {Action.ADD: "ADD", Action.SUPERSEDE: "ADD", Action.UPDATE: "UPDATE",
          Action.NOOP: "NONE"}
DELETE_OPS = frozenset({"forget", "erase", "drop_scope"})
FILTERS_NEEDED = ("filters must contain at least one of: user_id, agent_id, run_id. "
                  "Example: filters={'user_id': 'u1'}")


class Memory:
    """mem0's ``Memory`` verbs over an engramdb store (``memory``: an open engramdb Memory;
    none: ``engramdb.open()`` with ``settings``, the default store)."""

    def __init__(self, config: dict[str, Any] | None = None, *,
                 memory: Engine | None = None) -> None:
        self.engine = memory if memory is not None else _open(config or {})

    @classmethod
    def from_config(cls, config_dict: dict[str, Any]) -> Memory:
        """engramdb settings (``url``, ``embedder``, ... as ``engramdb.open`` takes them); mem0's
        provider sections (vector_store, llm, ...) are ignored with a warning."""
        if not isinstance(config_dict, dict):
            raise Mem0Error("config must be a dict")
        return cls(config_dict)

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.engine.close()

    # ---------------------------------------------------------------- writes

    def add(self, messages: Any, *, user_id: Any = None, agent_id: Any = None,
            run_id: Any = None, metadata: dict[str, Any] | None = None, infer: bool = True,
            memory_type: str | None = None, prompt: str | None = None,
            **unsupported: Any) -> dict[str, Any]:
        ids = check_ids({"user_id": user_id, "agent_id": agent_id, "run_id": run_id}, "add")
        _refuse(unsupported, memory_type=memory_type, prompt=prompt)
        if metadata is not None and not isinstance(metadata, dict):
            raise Mem0Error("metadata must be a dict")
        mine = {k: v for k, v in (metadata or {}).items() if k not in IDENTITY}
        msgs = _messages(messages)
        scope = self._scope(ids)
        with _as_mem0():
            if not infer:
                drafts = [Draft(content=m["content"], metadata=_tagged(ids, mine, m))
                          for m in msgs if m["role"] != "system"]
                written = self.engine.remember_many(drafts, user=scope.user, agent=scope.agent)
                return {"results": [_event(r) for r in written if r.action != Action.REJECT]}
            report = extract_tagged(self.engine, msgs, metadata=tag(ids, mine),
                                    session=ids.get("run_id"), user=scope.user,
                                    agent=scope.agent)
        deleted = [{"id": rec.id, "memory": rec.content, "event": "DELETE"}
                   for rec in report.forgotten]   # "forget that ..." (write/commands.py)
        return {"results": [_event(r) for r in report.extracted if r.action != Action.REJECT]
                + deleted,
                "engramdb": {"extractor": report.extractor,
                             "fallback_reason": report.fallback_reason,
                             "session": report.session}}

    def update(self, memory_id: str, text: str | None = None,
               metadata: dict[str, Any] | None = None, data: str | None = None) -> dict[str, str]:
        text = data if text is None else text
        if text is None and metadata is None:
            raise Mem0Error("At least one of text, metadata, or expiration_date must be provided.")
        if metadata is not None and not isinstance(metadata, dict):
            raise Mem0Error("metadata must be a dict")
        rec = self._live(memory_id)
        meta = None
        if metadata is not None:
            meta = _merged(rec, {k: v for k, v in metadata.items() if k not in IDENTITY})
        with _as_mem0():
            self.engine.update(rec.id, content=text, metadata=meta, user=rec.user,
                               agent=rec.agent)
        return {"message": "Memory updated successfully!"}

    def delete(self, memory_id: str) -> dict[str, str]:
        rec = self._live(memory_id, f"Memory with id {memory_id} not found")
        with _as_mem0():
            self.engine.forget(rec.id, reason="mem0 delete", user=rec.user, agent=rec.agent)
        return {"message": "Memory deleted successfully!"}

    def delete_all(self, user_id: Any = None, agent_id: Any = None,
                   run_id: Any = None) -> dict[str, str]:
        given = {k: v for k, v in (("user_id", user_id), ("agent_id", agent_id),
                                   ("run_id", run_id)) if v is not None}
        if not given:
            raise Mem0Error("At least one filter is required to delete all memories. If you "
                            "want to delete all memories, use the `reset()` method.")
        flt = check_ids(given, "delete_all")
        post = {k: v for k, v in flt.items() if k == "run_id"}
        with self.engine.store.transaction():
            for scope in self._scopes(flt):
                for rec in list(self._listed(scope, post, None, layers=("core", "archived"))):
                    self.engine.forget(rec.id, reason="mem0 delete_all", user=scope.user,
                                       agent=scope.agent)
        return {"message": "Memories deleted successfully!"}

    def reset(self) -> None:
        """Empty the store, as mem0's reset does: every scope, its memories and their logs."""
        with self.engine.store.transaction():
            for scope in self.engine.scopes():
                self.engine.forget_scope(reason="mem0 reset", user=scope.user,
                                         agent=scope.agent)

    # ---------------------------------------------------------------- reads

    def get(self, memory_id: str) -> dict[str, Any] | None:
        if not isinstance(memory_id, str) or not memory_id.strip():  # _find, inlined: hot
            raise Mem0Error("memory_id must be a non-empty string")
        rec = readable(self.engine, find_by_id(self.engine, memory_id))
        return item(rec, None, scored=True) if rec is not None else None  # score: None, as mem0

    def get_all(self, *, filters: dict[str, Any] | None = None, top_k: int = 20,
                limit: int | None = None, user_id: Any = None, agent_id: Any = None,
                run_id: Any = None, **unsupported: Any) -> dict[str, Any]:
        _refuse(unsupported)
        flt = _filters(filters, user_id, agent_id, run_id)
        top_k = check_limit(top_k if limit is None else limit,
                            "top_k" if limit is None else "limit")
        post = _post(flt)
        out: list[dict[str, Any]] = []
        for scope in self._scopes(flt):
            if len(out) >= top_k:
                break
            room = top_k - len(out)
            out += [item(r) for r in self._listed(scope, post, None if post else room)][:room]
        return {"results": out}

    def search(self, query: str, *, top_k: int = 20, filters: dict[str, Any] | None = None,
               threshold: float | None = None, limit: int | None = None, user_id: Any = None,
               agent_id: Any = None, run_id: Any = None, rerank: bool = False,
               explain: bool = False, **unsupported: Any) -> dict[str, Any]:
        _refuse(unsupported)
        top_k = check_limit(top_k if limit is None else limit,
                            "top_k" if limit is None else "limit")
        cut = check_threshold(threshold)
        # a threshold of the caller's own replaces the answer floor (relevance, 0 to 1)
        floor = self.engine.config.answer_floor if cut is None else 0.0
        query = check_query(query)
        flt = _filters(filters, user_id, agent_id, run_id)
        post = _post(flt)
        if top_k == 0:
            return {"results": []}
        k = min(MAX_K, max(top_k * 4, 60) if post else top_k)
        hits: list[Hit] = []
        with _as_mem0():
            for scope in self._scopes(flt):
                hits += self.engine.recall(query, k=k, user=scope.user, agent=scope.agent,
                                           relevance_floor=floor)
        hits.sort(key=lambda h: -h.score)
        kept = [h for h in hits if matches(payload(h.memory), post)
                and (cut is None or h.score >= cut)][:top_k]
        return {"results": [_hit(h, explain) for h in kept]}

    def history(self, memory_id: str) -> list[dict[str, Any]]:
        rec = self._find(memory_id)
        if rec is None:
            return []
        with _as_mem0():
            versions = [v for v in self.engine.history(rec.id, user=rec.user, agent=rec.agent)
                        if v.memory.id == rec.id]
        out, before = [], None
        for v in versions:
            gone = v.op in DELETE_OPS
            now = None if gone else v.memory.content
            event = "ADD" if before is None and not out else "DELETE" if gone else "UPDATE"
            meta = payload(v.memory) if v.memory.content else {}
            out.append({"id": f"{rec.id}:{v.version}", "memory_id": rec.id,
                        "old_memory": before, "new_memory": now, "event": event,
                        "created_at": rec.recorded_at.isoformat(),
                        "updated_at": v.at.isoformat(), "is_deleted": gone,
                        "actor_id": meta.get("actor_id"), "role": meta.get("role"),
                        "engramdb": {"op": v.op, "version": v.version, "reason": v.reason,
                                     "actor": v.actor}})
            before = now
        return out

    # ---------------------------------------------------------------- plumbing

    def _scope(self, ids: dict[str, str]) -> Scope:
        default = self.engine.default_scope
        return Scope(ids.get("user_id", default.user), ids.get("agent_id", default.agent))

    def _scopes(self, flt: dict[str, Any]) -> list[Scope]:
        """The scopes a filter reaches: both ids name one; one id, every scope holding it;
        only a run_id, every scope (the run is matched in the metadata)."""
        user, agent = flt.get("user_id"), flt.get("agent_id")
        if user is not None and agent is not None:
            return [Scope(user, agent)]
        return [s for s in self.engine.scopes()
                if (user is None or s.user == user) and (agent is None or s.agent == agent)]

    def _listed(self, scope: Scope, post: dict[str, Any], limit: int | None,
                layers: tuple[str, ...] = ("core",)) -> Iterator[Record]:
        with _as_mem0():
            for rec in self.engine.list(layer=layers, include_superseded=False, limit=limit,
                                        user=scope.user, agent=scope.agent):
                if matches(payload(rec), post):
                    yield rec

    def _find(self, memory_id: Any) -> Record | None:
        if not isinstance(memory_id, str) or not memory_id.strip():
            raise Mem0Error("memory_id must be a non-empty string")
        return find_by_id(self.engine, memory_id)

    def _live(self, memory_id: Any, message: str | None = None) -> Record:
        rec = readable(self.engine, self._find(memory_id))
        if rec is None:
            raise NotFoundError(message or f"Memory with id {memory_id} not found. "
                                "Please provide a valid 'memory_id'")
        return rec


class AsyncMemory:
    """mem0's ``AsyncMemory``: the verbs of ``Memory`` as coroutines with the same arguments
    and return shapes. Each runs the engine call in a worker thread (``asyncio.to_thread``,
    as ``EngramStore.abatch`` does), so the event loop never waits on the store."""

    def __init__(self, config: dict[str, Any] | None = None, *,
                 memory: Engine | None = None) -> None:
        self.sync = Memory(config, memory=memory)

    @classmethod
    def from_config(cls, config_dict: dict[str, Any]) -> AsyncMemory:
        if not isinstance(config_dict, dict):
            raise Mem0Error("config must be a dict")
        return cls(config_dict)

    @property
    def engine(self) -> Engine:
        return self.sync.engine

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(self, *exc: object) -> bool:
        self.close()
        return False

    def close(self) -> None:
        self.sync.close()

    async def add(self, messages: Any, **kwargs: Any) -> dict[str, Any]:
        return await asyncio.to_thread(self.sync.add, messages, **kwargs)

    async def get(self, memory_id: str) -> dict[str, Any] | None:
        return await asyncio.to_thread(self.sync.get, memory_id)

    async def get_all(self, **kwargs: Any) -> dict[str, Any]:
        return await asyncio.to_thread(self.sync.get_all, **kwargs)

    async def search(self, query: str, **kwargs: Any) -> dict[str, Any]:
        return await asyncio.to_thread(self.sync.search, query, **kwargs)

    async def update(self, memory_id: str, text: str | None = None,
                     metadata: dict[str, Any] | None = None,
                     data: str | None = None) -> dict[str, str]:
        return await asyncio.to_thread(self.sync.update, memory_id, text, metadata, data)

    async def delete(self, memory_id: str) -> dict[str, str]:
        return await asyncio.to_thread(self.sync.delete, memory_id)

    async def delete_all(self, user_id: Any = None, agent_id: Any = None,
                         run_id: Any = None) -> dict[str, str]:
        return await asyncio.to_thread(self.sync.delete_all, user_id, agent_id, run_id)

    async def history(self, memory_id: str) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self.sync.history, memory_id)

    async def reset(self) -> None:
        await asyncio.to_thread(self.sync.reset)


class _as_mem0:  # noqa: N801 - used as a context manager, reads as a phrase
    """engramdb's Invalid and NotFound raised inside become Mem0Error / NotFoundError (still
    engramdb errors, and ValueErrors as mem0's are); other errors pass unchanged."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: object) -> bool:
        if isinstance(exc, Mem0Error) or not isinstance(exc, Invalid | NotFound):
            return False
        cls = NotFoundError if isinstance(exc, NotFound) else Mem0Error
        raise cls(str(exc)) from exc


def _open(config: dict[str, Any]) -> Engine:
    """engramdb settings; mem0's sections are dicts (its ``embedder`` too, where engramdb's
    is a name) and are left out with a warning."""
    ignored = sorted(k for k in config
                     if k in MEM0_CONFIG_KEYS and (k != "embedder" or isinstance(config[k], dict)))
    if ignored:
        log.warning("engramdb keeps its own store and extractor: mem0 settings %s are ignored",
                    ", ".join(ignored))
    settings = {k: v for k, v in config.items() if k not in ignored}
    url = settings.pop("url", None) or settings.pop("path", None)
    try:
        return open_memory(url, **settings)
    except TypeError as exc:
        raise Mem0Error(f"unknown engramdb setting: {exc}") from None


def _refuse(unsupported: dict[str, Any], **optional: Any) -> None:
    """mem0 arguments engramdb does not act on are refused, not silently dropped."""
    named = sorted([*unsupported, *(k for k, v in optional.items() if v is not None)])
    if named:
        raise Mem0Error(f"not supported by the engramdb mem0 adapter: {', '.join(named)}")


def _filters(filters: Any, user_id: Any, agent_id: Any, run_id: Any) -> dict[str, Any]:
    if filters is not None and not isinstance(filters, dict):
        raise Mem0Error("filters must be a dict")
    flt = dict(filters or {})
    for key, value in (("user_id", user_id), ("agent_id", agent_id), ("run_id", run_id)):
        if value is not None:
            flt[key] = value
    for key in IDS:
        if key in flt:
            flt[key] = check_id(flt[key], key)
    if not any(flt.get(k) for k in IDS):
        raise Mem0Error(FILTERS_NEEDED)
    return flt


def _post(flt: dict[str, Any]) -> dict[str, Any]:
    """What the scope does not decide: the run and the metadata conditions."""
    return {k: v for k, v in flt.items() if k not in ("user_id", "agent_id")}


def _messages(messages: Any) -> list[dict[str, str]]:
    if isinstance(messages, str):
        messages = [{"role": "user", "content": messages}]
    elif isinstance(messages, dict):
        messages = [messages]
    elif not isinstance(messages, list):
        raise Mem0Error("messages must be str, dict, or list[dict]")
    out = []
    for i, m in enumerate(messages):
        if (not isinstance(m, dict) or not isinstance(m.get("role"), str)
                or not isinstance(m.get("content"), str) or not m["content"].strip()):
            raise Mem0Error(f"message {i}: a message is a dict with a role and a non-empty "
                            "text content")
        msg = {"role": m["role"], "content": m["content"]}
        if isinstance(m.get("name"), str) and m["name"].strip():
            msg["speaker"] = m["name"]
        out.append(msg)
    if not out:
        raise Mem0Error("messages is empty: nothing to add")
    return out


def _tagged(ids: dict[str, str], mine: dict[str, Any], msg: dict[str, str]) -> dict[str, Any]:
    more = {"role": msg["role"]}
    if "speaker" in msg:
        more["actor_id"] = msg["speaker"]
    return tag(ids, mine, **more)


def _merged(rec: Record, changes: dict[str, Any]) -> dict[str, Any]:
    """The memory's metadata with the caller's metadata updated by ``changes``."""
    mine = rec.metadata.get("mem0")
    if not isinstance(mine, dict):
        return rec.metadata | changes
    return rec.metadata | {"mem0": mine | {"metadata": (mine.get("metadata") or {}) | changes}}


def _event(r: WriteResult) -> dict[str, Any]:
    meta = payload(r.memory)
    return {"id": r.memory.id, "memory": r.memory.content, "event": EVENTS[r.action],
            "actor_id": meta.get("actor_id"), "role": meta.get("role"),
            "engramdb": {"action": r.action.value, "rule": r.rule, "kind": r.memory.kind.value}}


def _similarity(hit: Hit) -> float:
    leg = hit.explanation.legs.get("dense")
    return leg.score if leg is not None else 0.0


def _hit(hit: Hit, explain: bool) -> dict[str, Any]:
    out = item(hit.memory, hit.score)
    out["engramdb"]["similarity"] = _similarity(hit)
    if explain:
        out["score_details"] = hit.explanation.to_dict()
    return out


__all__ = ["AsyncMemory", "EngramError", "Mem0Error", "Memory", "NotFoundError"]

"""The Memory facade: every verb a door (CLI, MCP, HTTP) offers goes through here."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from datetime import date, datetime
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from .attention.verbs import AttentionVerbs
from .clock import Clock, SystemClock, aware
from .config import Config
from .dynamics.decay import link_weights
from .dynamics.merge import NearHints
from .dynamics.redact import gists_of, redact
from .dynamics.sleep import SleepReport, run_sleep
from .dynamics.strength import Strength, assess, params_from
from .embed.base import Embedder
from .errors import Conflict, EngramError, Invalid, NotFound
from .graph import as_hit, check_hops, check_linkable, check_relation, check_weight, start_hit, walk
from .ids import new_id
from .model import (
    Action,
    Boot,
    Draft,
    Hit,
    Hits,
    IngestReport,
    Kind,
    Layer,
    Link,
    Message,
    Record,
    Scope,
    Stats,
    Version,
    WriteResult,
)
from .recall.associate import HEBB_CAP, HEBB_DEBOUNCE_S, HEBB_STEP, hebbian_pairs
from .recall.intent import classify
from .recall.pipeline import QueryPlan, Recaller, plan_query
from .recall.presets import PRESET_BY_INTENT, Preset, get_preset
from .recall.wake import promote
from .store.base import ListFilter, Store
from .uri import validate_prefix, validate_uri
from .write.batch import build_records, check_on_error, with_rejected
from .write.guard import check_content, content_hash, quality_failures, storable
from .write.llm_extract import ExtractionFailed
from .write.prepare import (
    check_anchors,
    check_importance,
    check_metadata,
    embed_text,
    index_text,
    parse_kind,
)
from .write.rollback import rolled_back
from .write.shape import OLDER_VALUE_RULES
from .write.supersede import (
    BatchNeighbours,
    Judgement,
    gated_importance,
    judge,
    neighbours,
    supersession_chain,
)

if TYPE_CHECKING:
    from .context import Context
    from .working.session import WorkingMemory

USE_DEBOUNCE_S = 60.0
ACTOR = "user"  # who the event log names for a change made through the API
WRITES_VECTOR = (Action.ADD, Action.SUPERSEDE, Action.UPDATE)  # results that stored a vector
MAX_K = 1000
Progress = Callable[[int, int], None]


class Memory(AttentionVerbs):
    """Long-term memory over one store. Use ``scope()`` for a view bound to a user and agent."""

    def __init__(self, store: Store, embedder: Embedder, *, clock: Clock | None = None,
                 config: Config | None = None) -> None:
        self.store = store
        self.embedder = embedder
        self.clock: Clock = clock or SystemClock()
        self.config = config or Config()
        self.default_scope = Scope(self.config.user, self.config.agent)
        store.bind_embedder(embedder.model_id, embedder.dimensions)
        self.decay_params = params_from(self.config)
        self.last_auto_sleep: SleepReport | None = None
        self._near = NearHints()   # what writes found near them, for the next sleep's merge
        self._recaller = Recaller(store, self._embed_query, self.decay_params,
                                  getattr(embedder, "relevance_floor", None),
                                  self.config.relevance_floor)

    # ---------------------------------------------------------------- plumbing

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.store.close()

    def scope(self, user: str | None = None, agent: str | None = None) -> ScopedMemory:
        return ScopedMemory(self, self._scope(user, agent))

    def _scope(self, user: str | None, agent: str | None) -> Scope:
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
        return self.embedder.embed_batch(list(texts))

    def _embed_query(self, text: str) -> np.ndarray:
        return self.embedder.embed_batch([text], query=True)[0]

    # ---------------------------------------------------------------- writes

    def remember(self, content: str, *, kind: str | Kind | None = None, uri: str | None = None,
                 at: datetime | date | str | None = None, importance: float | None = None,
                 metadata: dict[str, Any] | None = None, people: list[str] | None = None,
                 places: list[str] | None = None, topics: list[str] | None = None,
                 priority: str | None = None, expires_at: datetime | None = None,
                 due_at: datetime | None = None, session: str | None = None,
                 turn: str | None = None, context: str | None = None,
                 user: str | None = None, agent: str | None = None,
                 at_precision: str | None = None) -> WriteResult:
        """Write one memory. ``at`` (when it happened) may be a datetime (a moment), a date or
        "2025-03"-style text (that day, month or year: time windows treat it as the whole
        span), or a datetime with ``at_precision`` ("day", "week", "month", "year")."""
        draft = Draft(content=content, kind=kind, uri=uri, at=at, importance=importance,
                      metadata=metadata, people=people, places=places, topics=topics,
                      priority=priority, expires_at=expires_at, due_at=due_at, session=session,
                      turn=turn, context=context, at_precision=at_precision)
        return self.remember_many([draft], user=user, agent=agent)[0]

    def remember_many(self, drafts: Iterable[Draft], *, user: str | None = None,
                      agent: str | None = None, progress: Progress | None = None,
                      batch: int = 64, on_error: str = "raise") -> list[WriteResult]:
        """Write many memories in one transaction: all are validated first, so one bad draft
        rejects the batch and nothing is written; with ``on_error="skip"`` each bad draft is
        a REJECT result (rule "invalid_input", write/batch.py) and the others are written."""
        if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
            raise Invalid(f"batch must be a positive integer, got {batch!r}")
        scope = self._scope(user, agent)
        now = self._now()
        drafts = list(drafts)
        records, rejected = build_records(drafts, scope, lambda: new_id(now), now,
                                          self.config.max_content_bytes,
                                          check_on_error(on_error))
        if rejected:
            drafts = [d for i, d in enumerate(drafts) if i not in rejected]
        vectors = self._embed_in_batches([embed_text(r) for r in records], batch, progress)
        with self.store.transaction():
            near = (BatchNeighbours(self.store, scope, records, vectors)
                    if len(records) > 1 else None)
            results = []
            for i, (rec, vec, draft) in enumerate(zip(records, vectors, drafts, strict=True)):
                result = self._write(rec, vec, draft.kind is not None,
                                     draft.importance is not None, near, i)
                if near is not None and result.action in WRITES_VECTOR:
                    near.written(result.memory.id, vec)
                results.append(result)
            written = self._count_importance(scope, results)
        self._auto_sleep(scope, written, results)
        return with_rejected(results, rejected)

    def _embed_in_batches(self, texts: list[str], batch: int,
                          progress: Progress | None) -> np.ndarray:
        parts = []
        for start in range(0, len(texts), batch):
            parts.append(self._embed(texts[start : start + batch]))
            if progress:
                progress(min(start + batch, len(texts)), len(texts))
        if not parts:
            return np.zeros((0, self.embedder.dimensions), dtype=np.float32)
        return np.vstack(parts)

    def _write(self, rec: Record, vector: np.ndarray, kind_given: bool,
               importance_given: bool = True, near: BatchNeighbours | None = None,
               index: int = 0) -> WriteResult:
        failed = quality_failures(rec.content, rec.kind)
        if failed:  # nothing is stored; the record returned is the one that was refused
            return WriteResult(Action.REJECT, "quality_gate", rec, {"failed": failed})
        if rec.uri:
            existing = self.store.get_by_uri(rec.scope, rec.uri)
            if existing is not None:
                kind = rec.kind if kind_given else existing.kind
                return self._write_same_uri(existing, rec.replace(kind=kind), vector)
        for dup in self.store.find_by_hash(rec.scope, rec.kind.value, rec.content_hash):
            if rec.uri is not None and dup.uri != rec.uri:
                continue  # the same words under another URI (or none): the URI must be kept
            if dup.invalid_at is not None:
                continue  # a superseded value said again is current again (write/supersede.py)
            if rec.kind != Kind.EVENT or dup.at == rec.at:
                self.store.record_uses(rec.scope, [dup.id], rec.recorded_at, USE_DEBOUNCE_S)
                return WriteResult(Action.NOOP, "exact_duplicate", self._reload(dup),
                                   {"duplicate_of": dup.id})
        if rec.kind == Kind.EVENT:  # events never supersede nor merge: the log keeps them all
            self.store.insert(rec, index_text(rec), vector, actor=ACTOR, reason="new_memory")
            return WriteResult(Action.ADD, "new_memory", rec)
        nearby = neighbours(self.store, rec, vector, near, index)
        result = self._apply(judge(rec, nearby), rec, vector, importance_given, nearby.surprise)
        if result.action in WRITES_VECTOR:
            self._near.note(result.memory, nearby.near)
        return result

    def _apply(self, j: Judgement, rec: Record, vector: np.ndarray, importance_given: bool,
               surprise_: float) -> WriteResult:
        """Carry out a write/supersede.py judgement (inside the caller's transaction)."""
        old = j.target
        evidence = {**j.evidence, "surprise": round(surprise_, 4)}
        if j.action == Action.NOOP and old is not None:
            self.store.record_uses(rec.scope, [old.id], rec.recorded_at, USE_DEBOUNCE_S)
            return WriteResult(Action.NOOP, j.rule, self._reload(old), evidence)
        if j.action == Action.UPDATE and old is not None:
            new = old.replace(content=rec.content, content_hash=rec.content_hash,
                              at=max(old.at, rec.at), updated_at=rec.recorded_at,
                              version=old.version + 1)
            self.store.save(new, "update", index_text(new), vector, actor=ACTOR, reason=j.rule)
            return WriteResult(Action.UPDATE, j.rule, new,
                               {**evidence, "previous_version": old.version})
        if old is not None and not importance_given:
            rec = rec.replace(importance=max(rec.importance, old.importance))
        elif not importance_given:
            rec = rec.replace(importance=gated_importance(rec.importance, surprise_))
        if j.action == Action.SUPERSEDE and old is not None and j.rule in OLDER_VALUE_RULES:
            rec = rec.replace(invalid_at=old.at, superseded_by=old.id)
        self.store.insert(rec, index_text(rec), vector, actor=ACTOR, reason=j.rule)
        if j.action == Action.SUPERSEDE and old is not None and j.rule not in OLDER_VALUE_RULES:
            gone = old.replace(invalid_at=rec.at, superseded_by=rec.id,
                               updated_at=rec.recorded_at, version=old.version + 1)
            self.store.save(gone, "supersede", index_text(gone), actor=ACTOR,
                            reason=f"{j.rule}: {rec.id}")
        return WriteResult(j.action, j.rule, rec, evidence)

    def _write_same_uri(self, old: Record, rec: Record, vector: np.ndarray) -> WriteResult:
        if old.content_hash == rec.content_hash:
            self.store.record_uses(rec.scope, [old.id], rec.recorded_at, USE_DEBOUNCE_S)
            return WriteResult(Action.NOOP, "same_uri_same_content", self._reload(old),
                               {"uri": rec.uri})
        new = old.replace(
            content=rec.content, content_hash=rec.content_hash, kind=rec.kind,
            metadata=rec.metadata or old.metadata, people=rec.people or old.people,
            places=rec.places or old.places, topics=rec.topics or old.topics,
            at=rec.at, updated_at=rec.recorded_at, version=old.version + 1,
        )
        self.store.save(new, "update", index_text(new), vector, actor=ACTOR, reason="same_uri")
        return WriteResult(Action.UPDATE, "same_uri", new,
                           {"uri": rec.uri, "previous_version": old.version})

    def _reload(self, rec: Record) -> Record:
        return self.store.get(rec.scope, rec.id) or rec

    def update(self, memory_id: str, *, content: str | None = None, kind: str | None = None,
               uri: str | None = None, importance: float | None = None,
               metadata: dict[str, Any] | None = None, people: list[str] | None = None,
               places: list[str] | None = None, topics: list[str] | None = None,
               at: datetime | None = None, user: str | None = None,
               agent: str | None = None) -> Record:
        scope = self._scope(user, agent)
        changes: dict[str, Any] = {}
        if content is not None:
            changes["content"] = check_content(content, self.config.max_content_bytes)
            changes["content_hash"] = content_hash(changes["content"])
        if kind is not None:
            changes["kind"] = parse_kind(kind)
        if uri is not None:
            changes["uri"] = validate_uri(uri)
        if importance is not None:
            changes["importance"] = check_importance(importance)
        if metadata is not None:
            changes["metadata"] = check_metadata(metadata)
        for name, value in (("people", people), ("places", places), ("topics", topics)):
            if value is not None:
                changes[name] = check_anchors(name, value)
        if at is not None:
            changes["at"] = aware(at, "at")
        if not changes:
            raise Invalid("nothing to update: give at least one field")
        with self.store.transaction():
            old = self._get(scope, memory_id)
            if old.erased:
                raise Conflict(f"memory {memory_id} was erased (hard forget): it cannot change")
            if old.layer == Layer.DELETED:
                raise Conflict(f"memory {memory_id} is forgotten: restore it first")
            new = old.replace(**changes, updated_at=self._now(), version=old.version + 1)
            vector = self._embed([embed_text(new)])[0] if "content" in changes else None
            self.store.save(new, "update", index_text(new), vector, actor=ACTOR)
        return new

    def forget(self, memory_id: str, *, hard: bool = False, reason: str | None = None,
               user: str | None = None, agent: str | None = None) -> Record:
        """Soft delete: the memory leaves every search but stays in the log and can be restored.

        ``hard=True`` erases it: its content, metadata, anchors, context, emotion, text index
        and vector are gone, and so is the content of every earlier version in its log (history
        must not leak what was erased). A tombstone stays (id, scope, kind, URI, times, layer
        deleted, empty content) with an "erase" event; it can never be found or restored. A gist
        made from it is rebuilt from its other sources, its history too (dynamics/redact.py)."""
        if not hard:
            return self._set_layer(memory_id, Layer.DELETED, "forget", user, agent, reason)
        scope = self._scope(user, agent)
        with self.store.transaction():
            old = self._get(scope, memory_id)
            if old.erased:
                return old
            for gist in gists_of(self.store, old):
                redact(self.store, gist, old, self._embed, self._now(), ACTOR)
            tomb = old.scrubbed().replace(layer=Layer.DELETED, updated_at=self._now(),
                                          version=old.version + 1)
            self.store.erase(tomb, actor=ACTOR, reason=reason)
        return tomb

    def restore(self, memory_id: str, *, user: str | None = None,
                agent: str | None = None) -> Record:
        """Bring a forgotten or archived memory back to core. It counts as a use (so the next
        sleep does not archive it again at once) and clears an overdue mark."""
        rec = self._set_layer(memory_id, Layer.CORE, "restore", user, agent)
        self.store.record_uses(rec.scope, [rec.id], self._now(), USE_DEBOUNCE_S)
        return self._reload(rec)

    def _set_layer(self, memory_id: str, layer: Layer, op: str, user: str | None,
                   agent: str | None, reason: str | None = None) -> Record:
        scope = self._scope(user, agent)
        with self.store.transaction():
            old = self._get(scope, memory_id)
            if old.erased and layer != Layer.DELETED:
                raise Conflict(f"cannot {op} memory {old.id}: it was erased (hard forget) and "
                               f"nothing of it is left to bring back")
            if old.layer == layer:
                return old
            holder = self.store.get_by_uri(scope, old.uri) if old.uri else None
            if layer != Layer.DELETED and holder is not None and holder.id != old.id:
                raise Conflict(f"cannot {op} memory {old.id}: its URI {old.uri} now belongs to "
                               f"memory {holder.id}; forget that one first")
            new = old.replace(layer=layer, updated_at=self._now(), version=old.version + 1,
                              overdue_since=None if layer == Layer.CORE else old.overdue_since)
            self.store.save(new, op, actor=ACTOR, reason=reason)
        return new

    def rollback(self, memory_id: str, version: int, *, reason: str | None = None,
                 user: str | None = None, agent: str | None = None) -> Record:
        """Make the memory say again what ``version`` said (content, kind, URI, anchors,
        metadata...), as a new version logged "rollback"; its dedup hash, text index and vector
        follow the restored content. Its layer, uses and supersession stay as they are. A
        version that does not exist is NotFound; a forgotten memory must be restored first."""
        scope = self._scope(user, agent)
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise Invalid(f"version must be a positive integer, got {version!r}")
        with self.store.transaction():
            old = self._get(scope, memory_id)
            if old.erased:
                raise Conflict(f"memory {old.id} was erased (hard forget): no version of it "
                               f"holds anything to roll back to")
            if old.layer == Layer.DELETED:
                raise Conflict(f"memory {old.id} is forgotten: restore it first")
            target = self._version(scope, old, version)
            new = rolled_back(old, target, self._now())
            holder = self.store.get_by_uri(scope, new.uri) if new.uri else None
            if holder is not None and holder.id != old.id:
                raise Conflict(f"cannot roll memory {old.id} back to version {version}: its URI "
                               f"{new.uri} now belongs to memory {holder.id}")
            same_text = embed_text(new) == embed_text(old)
            vector = None if same_text else self._embed([embed_text(new)])[0]
            why = f"to version {version}" + (f": {reason}" if reason else "")
            self.store.save(new, "rollback", index_text(new), vector, actor=ACTOR, reason=why)
        return new

    def _version(self, scope: Scope, rec: Record, version: int) -> Record:
        snapshots: dict[int, Record] = {e.version: e.snapshot
                                        for e in self.store.events(scope, rec.id)
                                        if e.snapshot is not None}
        if version not in snapshots:
            known = ", ".join(str(v) for v in sorted(snapshots)) or "none"
            raise NotFound(f"memory {rec.id} has no version {version} (versions: {known})")
        return snapshots[version]

    def forget_scope(self, *, reason: str | None = None, user: str | None = None,
                     agent: str | None = None) -> int:
        """Remove everything one scope holds: its memories in every layer (core, archived,
        deleted), their text, vectors and event logs, in one transaction. Other scopes are
        untouched. One event about the scope stays ("drop_scope", memory_id "*", no content)
        as the audit trail. Returns how many memories were removed."""
        scope = self._scope(user, agent)
        with self.store.transaction():
            self.store.drop_goals(scope)
            return self.store.drop_scope(scope, self._now(), actor=ACTOR, reason=reason)

    # ---------------------------------------------------------------- reads

    def recall(self, query: str, k: int = 5, *, track: bool = True, preset: str | None = None,
               kinds: Sequence[str] | None = None, user: str | None = None,
               agent: str | None = None) -> Hits:
        scope = self._scope(user, agent)
        if not isinstance(query, str) or not query.strip():
            raise Invalid("query is empty")
        if not storable(query):
            raise Invalid("query is not valid Unicode text (it holds a lone surrogate)")
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
            raise Invalid(f"k must be an integer from 1 to {MAX_K}, got {k!r}")
        kinds = [kinds] if isinstance(kinds, str) else kinds
        kinds_t = tuple(parse_kind(x).value for x in kinds) if kinds else ()
        now = self._now()
        plan = plan_query(query, kinds_t, now)
        chosen = self._preset(plan, preset)
        hits = self._recaller.recall(scope, plan, chosen, k, now)
        if track and hits:  # every hit returned is used; strongly woken ones come back to core
            with self.store.transaction():
                promote(self.store, scope, hits, now)
                self.store.record_uses(scope, [h.memory.id for h in hits], now, USE_DEBOUNCE_S)
                self.store.strengthen_links(scope, hebbian_pairs(hits), "associated", HEBB_STEP,
                                            HEBB_CAP, now, HEBB_DEBOUNCE_S)
        return hits

    def _preset(self, plan: QueryPlan, name: str | None) -> Preset:
        """The preset named; else the configured one, unless that is "default": then the one
        the query's intent asks for (recall/intent.py). Association places: the config's, plus
        the preset's extra ones."""
        intent = classify(plan.query)
        plan.intent, plan.intent_reason = intent.name, intent.reason
        if name is None and self.config.preset == "default":
            name = PRESET_BY_INTENT[intent.name]
        chosen = get_preset(name or self.config.preset)
        plan.preset = chosen.name
        slots = self.config.assoc_slots
        return replace(chosen, assoc_slots=slots + chosen.assoc_extra if slots else 0)

    # ---------------------------------------------------------------- strength and sleep

    def explain(self, id_or_uri: str, *, user: str | None = None,
                agent: str | None = None) -> Strength:
        """Why a memory weighs what it weighs: layer, retention, decay rate, priority,
        half-life and every term of its weight (dynamics/strength.py)."""
        rec = self._get(self._scope(user, agent), id_or_uri)
        links = link_weights(self.store, rec.scope, [rec.id]).get(rec.id, 0.0)
        return assess(rec, self._now(), self.decay_params, links)

    def sleep(self, phase: str | None = None, *, full: bool = False, user: str | None = None,
              agent: str | None = None) -> SleepReport:
        """Maintenance: sync -> decay -> tidy -> consolidate -> govern, or the one ``phase``
        named. After a scope's first sleep a whole sleep is incremental (only what changed or
        is due); ``full=True`` looks at everything. Returns what each phase examined and
        changed (dynamics/sleep.py)."""
        if not isinstance(full, bool):
            raise Invalid(f"full must be true or false, got {full!r}")
        scope = self._scope(user, agent)
        return run_sleep(self.store, scope, self._now(), self.decay_params, phase,
                         embed=self._embed, polisher=self._polisher(), full=full,
                         near_hints=self._near.take(scope))

    def _polisher(self) -> Any:
        if not self.config.llm_url:
            return None
        from .dynamics.polish import Polisher

        return Polisher(self.config.llm_url, self.config.llm_model,
                        self.config.llm_api_key)

    def _count_importance(self, scope: Scope, results: list[WriteResult]) -> float:
        """Add what this write stored to the importance written since the last sleep."""
        amount = sum(r.memory.importance for r in results if r.action in WRITES_VECTOR)
        if self.config.auto_sleep_importance <= 0 or amount <= 0:
            return 0.0
        return self.store.add_written_importance(scope, amount)

    def _auto_sleep(self, scope: Scope, written: float, results: list[WriteResult]) -> None:
        """Sleep once the importance written since the last sleep reaches
        ``Config.auto_sleep_importance``; the write that set it off carries its summary in
        ``evidence["auto_sleep"]`` (the last result of the batch)."""
        threshold = self.config.auto_sleep_importance
        if threshold <= 0 or written < threshold or not results:
            return
        try:
            report = self.sleep(user=scope.user, agent=scope.agent)
        except EngramError as exc:  # the write itself is stored: say why no sleep followed
            results[-1].evidence["auto_sleep"] = {"importance_written": round(written, 4),
                                                  "threshold": threshold, "error": str(exc)}
            return
        self.last_auto_sleep = report
        results[-1].evidence["auto_sleep"] = {
            "importance_written": round(written, 4), "threshold": threshold,
            "mode": report.mode, "visited": report.visited, "changes": report.changes,
            "counts": {p.phase: p.counts() for p in report.phases if p.counts()}}

    def decay(self, *, user: str | None = None, agent: str | None = None) -> SleepReport:
        """The decay phase alone: archive the core memories whose weight fell below
        ``Config.archive_below``."""
        return self.sleep("decay", user=user, agent=agent)

    def get(self, id_or_uri: str, *, user: str | None = None,
            agent: str | None = None) -> Record:
        return self._get(self._scope(user, agent), id_or_uri)

    def _get(self, scope: Scope, id_or_uri: str) -> Record:
        if not isinstance(id_or_uri, str) or not id_or_uri:
            raise Invalid("give a memory id or URI")
        if "://" in id_or_uri:
            found = self.store.get_by_uri(scope, validate_uri(id_or_uri))
        else:
            found = self.store.get(scope, id_or_uri)
        if found is None:
            raise NotFound(f"no memory {id_or_uri!r} for user={scope.user} agent={scope.agent}")
        return found

    def history(self, id_or_uri: str, *, user: str | None = None,
                agent: str | None = None) -> list[Version]:
        """Every version of the memory, oldest first, and, when it is a link of a supersession
        chain (Lisbon -> Berlin -> Oslo), every version of every link, oldest link first. The
        version that holds now is marked ``current``."""
        scope = self._scope(user, agent)
        out: list[Version] = []
        for rec in supersession_chain(self.store, scope, self._get(scope, id_or_uri)):
            versions = [Version(e.version, e.op, e.at, e.snapshot, e.actor, e.reason)
                        for e in self.store.events(scope, rec.id) if e.snapshot is not None]
            if versions and rec.current:
                versions[-1].current = True
            out.extend(versions)
        return out

    def boot(self, budget: int | None = None, *, user: str | None = None,
             agent: str | None = None) -> Boot:
        """What an agent loads at start: the P0 memories, the core://agent/ and core://user/
        memories, then the URIs listed in the memory at system://boot (one per line), within
        an optional token budget. Listed URIs that name no memory are reported in
        ``missing``. The order and the rules are in boot.py."""
        from .boot import boot

        return boot(self.store, self._scope(user, agent), budget, self.config.encoding)

    def list(self, *, kind: str | Sequence[str] | None = None, uri_prefix: str | None = None,
             since: datetime | None = None, until: datetime | None = None,
             layer: str | Sequence[str] | None = None, include_superseded: bool = True,
             limit: int | None = None, offset: int = 0, newest_first: bool = False,
             user: str | None = None, agent: str | None = None) -> Iterator[Record]:
        flt = self._filter(kind, uri_prefix, since, until, layer, include_superseded, limit,
                           offset, newest_first)
        return self.store.list(self._scope(user, agent), flt)

    def count(self, *, kind: str | Sequence[str] | None = None, uri_prefix: str | None = None,
              since: datetime | None = None, until: datetime | None = None,
              layer: str | Sequence[str] | None = None, user: str | None = None,
              agent: str | None = None) -> int:
        flt = self._filter(kind, uri_prefix, since, until, layer, True, None, 0, False)
        return self.store.count(self._scope(user, agent), flt)

    @staticmethod
    def _filter(kind: str | Sequence[str] | None, uri_prefix: str | None,
                since: datetime | None, until: datetime | None,
                layer: str | Sequence[str] | None, include_superseded: bool,
                limit: int | None, offset: int, newest_first: bool) -> ListFilter:
        kinds = [kind] if isinstance(kind, str) else list(kind or [])
        layers = [layer] if isinstance(layer, str) else list(layer or [Layer.CORE.value])
        try:
            layer_t = tuple(Layer(x) for x in layers)
        except ValueError:
            raise Invalid(f"unknown layer in {layers} (core, archived, deleted)") from None
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                                  or limit < 0):
            raise Invalid("limit must be a non-negative integer")
        if not isinstance(offset, int) or offset < 0:
            raise Invalid("offset must be a non-negative integer")
        return ListFilter(
            kinds=tuple(parse_kind(k).value for k in kinds),
            uri_prefix=validate_prefix(uri_prefix) if uri_prefix else None,
            since=aware(since, "since") if since else None,
            until=aware(until, "until") if until else None,
            layers=layer_t, current_only=not include_superseded, limit=limit, offset=offset,
            newest_first=newest_first,
        )

    def __iter__(self) -> Iterator[Record]:
        return self.list()

    def stats(self, *, user: str | None = None, agent: str | None = None) -> Stats:
        scope = self._scope(user, agent)
        by_layer = {lay.value: self.store.count(scope, ListFilter(layers=(lay,))) for lay in Layer}
        all_layers = tuple(Layer)
        by_kind = {k.value: n for k in Kind
                   if (n := self.store.count(scope, ListFilter(kinds=(k.value,),
                                                               layers=all_layers)))}
        return Stats(user=scope.user, agent=scope.agent, total=sum(by_layer.values()),
                     by_layer=by_layer, by_kind=by_kind, events=self.store.event_count(scope),
                     embedder=self.embedder.model_id, dimensions=self.embedder.dimensions,
                     path=self.store.location)

    def index_scope(self, *, drop: bool = False, user: str | None = None,
                    agent: str | None = None) -> dict[str, Any]:
        """PostgreSQL: build (or ``drop``) the scope's own vector index, for a scope much larger
        than most in its database (store/pg_scopeindex.py); tens of seconds per 100,000
        memories, writes go on meanwhile. SQLite keeps each scope's vectors apart already."""
        scope = self._scope(user, agent)
        build = getattr(self.store, "build_scope_index", None)
        drop_index = getattr(self.store, "drop_scope_index", None)
        if build is None or drop_index is None:
            raise Invalid(f"{self.store.location} keeps each scope's vectors apart already: "
                          "a scope index is for PostgreSQL")
        if drop:
            return {"user": scope.user, "agent": scope.agent,
                    "dropped": drop_index(scope)}
        return {"user": scope.user, "agent": scope.agent, "built_in_s": round(build(scope), 3)}

    def scopes(self) -> list[Scope]:
        return self.store.scopes()

    # ---------------------------------------------------------------- import / export

    def export(self, fp: IO[str], *, user: str | None = None, agent: str | None = None,
               all_scopes: bool = False) -> int:
        from .io.jsonl import export_jsonl

        scopes = self.scopes() if all_scopes else [self._scope(user, agent)]
        return export_jsonl(self, fp, scopes)

    def import_(self, fp: IO[str], *, progress: Progress | None = None) -> dict[str, int]:
        from .io.jsonl import import_jsonl

        return import_jsonl(self, fp, progress)

    def snapshot(self, target: str | os.PathLike[str] | IO[str], *, user: str | None = None,
                 agent: str | None = None) -> int:
        """Write the scope (every layer, vectors, event logs) to a file path or a text stream,
        in the JSONL export format with the scope in its header. Returns the memory count."""
        from .io.snapshot import write_snapshot

        return write_snapshot(self, target, self._scope(user, agent), self._now())

    def restore_snapshot(self, source: str | os.PathLike[str] | IO[str], *,
                         user: str | None = None, agent: str | None = None) -> dict[str, int]:
        """Replace everything the scope holds with a snapshot of it, in one transaction: what
        was written since the snapshot is gone, what was forgotten since is back. The file
        must be a snapshot of this scope. Returns {"removed", "restored", "reembedded"}."""
        from .io.snapshot import restore_snapshot

        return restore_snapshot(self, source, self._scope(user, agent), self._now(), ACTOR)

    # ---------------------------------------------------------------- working memory, context

    def session(self, session_id: str, *, budget: int | None = None, keep: int | None = None,
                offload_tokens: int | None = None, encoding: str | None = None,
                summarizer: str | None = None, create: bool = True, user: str | None = None,
                agent: str | None = None) -> WorkingMemory:
        """The working memory of one session, created on first use with the configured
        settings (session_budget, session_keep, offload_tokens, encoding, summarizer); a
        setting given here replaces the stored one. ``create=False``: NotFound for a session
        that does not exist. See working/session.py."""
        from .working.open import open_session

        return open_session(self, self._scope(user, agent), session_id, create, budget=budget,
                            keep=keep, offload_tokens=offload_tokens, encoding=encoding,
                            summarizer=summarizer)

    def sessions(self, *, user: str | None = None, agent: str | None = None) -> list[str]:
        """The ids of the scope's sessions, oldest first."""
        return [s.id for s in self.store.sessions(self._scope(user, agent))]

    def context(self, query: str, budget: int = 800, *, session: str | None = None,
                k: int = 8, track: bool = True, encoding: str | None = None,
                user: str | None = None, agent: str | None = None) -> Context:
        """The block an agent puts in its prompt at the start of a turn: identity, rules, the
        active goal, triggered procedures, relevant memories with dates, and with a session
        its summary and recent turns, within ``budget`` tokens; what was cut is listed at the
        end. Layout and priorities: context.py, docs/context.md."""
        from .context import assemble

        scope = self._scope(user, agent)
        triggered = self.triggered_procedures(query, user=scope.user, agent=scope.agent)
        return assemble(self, scope, query, budget, session=session, k=k, track=track,
                        encoding=encoding, goal=self._context_goal(scope),
                        procedures=_procedure_lines(triggered),
                        shown=[t.procedure.id for t in triggered])

    def _context_goal(self, scope: Scope) -> list[str]:
        """The active goal's lines for context(): its title, constraints and open loops."""
        goal = self.active_goal(user=scope.user, agent=scope.agent)
        if goal is None:
            return []
        return ([f"- {goal.title}"] + [f"  - constraint: {c}" for c in goal.constraints]
                + [f"  - open: {o}" for o in goal.open_loops])


    # ---------------------------------------------------------------- links (graph.py)

    def link(self, a: str, b: str, relation: str = "related", weight: float = 0.5, *,
             user: str | None = None, agent: str | None = None) -> Link:
        """Link memory ``a`` to memory ``b`` (ids or URIs of one scope): "a caused b". Linking
        again sets the weight. Relations: graph.RELATIONS; weight from 0 to 1."""
        scope = self._scope(user, agent)
        relation, weight = check_relation(relation), check_weight(weight)
        with self.store.transaction():
            src, dst = self._get(scope, a), self._get(scope, b)
            check_linkable(src, dst)
            now = self._now()
            old = self.store.get_link(scope, src.id, dst.id, relation)
            link = Link(src.id, dst.id, relation, weight, old.created_at if old else now, now,
                        scope.user, scope.agent)
            self.store.put_link(link)
        return link

    def unlink(self, a: str, b: str, relation: str | None = None, *, user: str | None = None,
               agent: str | None = None) -> int:
        """Remove the links between ``a`` and ``b``, both ways (of one relation, or all);
        returns how many were removed."""
        scope = self._scope(user, agent)
        if relation is not None:
            check_relation(relation)
        with self.store.transaction():
            src, dst = self._get(scope, a), self._get(scope, b)
            return (self.store.remove_links(scope, src.id, dst.id, relation)
                    + self.store.remove_links(scope, dst.id, src.id, relation))

    def links(self, id_or_uri: str, *, user: str | None = None,
              agent: str | None = None) -> list[Link]:
        """Every link from or to the memory."""
        scope = self._scope(user, agent)
        return self.store.links(scope, [self._get(scope, id_or_uri).id])

    def related(self, id_or_uri: str, hops: int = 2, *, user: str | None = None,
                agent: str | None = None) -> list[Hit]:
        """Memories linked to this one, both ways, up to ``hops`` (1-3) links away, strongest
        path first (the product of its link weights)."""
        scope = self._scope(user, agent)
        hops = check_hops(hops, 1)
        return [as_hit(r) for r in walk(self.store, scope, [self._get(scope, id_or_uri)], hops)]

    def recall_path(self, uri_or_prefix: str, hops: int = 0, *, user: str | None = None,
                    agent: str | None = None) -> list[Hit]:
        """The memory at a URI, or every memory under a URI prefix ("project://engramdb/"),
        then what is linked to them up to ``hops`` (0-3) links away."""
        scope = self._scope(user, agent)
        hops = check_hops(hops, 0)
        if not isinstance(uri_or_prefix, str) or "://" not in uri_or_prefix:
            raise Invalid(f"give a URI or URI prefix, got {uri_or_prefix!r}")
        exact = self.store.get_by_uri(scope, validate_uri(uri_or_prefix)) if not \
            uri_or_prefix.endswith("/") else None
        if exact is not None:
            start = [exact]
        else:
            flt = ListFilter(uri_prefix=validate_prefix(uri_or_prefix), limit=MAX_K)
            start = list(self.store.list(scope, flt))
        if not start:
            raise NotFound(f"no memory at or under {uri_or_prefix!r} for user={scope.user} "
                           f"agent={scope.agent}")
        hits = [start_hit(r, f"at {r.uri}") for r in sorted(start, key=lambda r: r.uri or "")]
        return hits + [as_hit(r) for r in walk(self.store, scope, start, hops)]


    # ---------------------------------------------------------------- conversations

    def ingest(self, messages: Iterable[Message | dict[str, Any]], *, session: str | None = None,
               at: datetime | None = None, extractor: str = "auto", keep_turns: bool = True,
               progress: Progress | None = None, user: str | None = None,
               agent: str | None = None) -> IngestReport:
        """Remember a conversation: each turn as an event (``keep_turns``), then the facts,
        preferences, lessons, pending items and dated episodes extracted from the user's
        turns, each linked to its turn (metadata ``source_events``, ``session``, ``turn``).
        ``extractor``: "rules", "llm" (the configured OpenAI-compatible endpoint) or "auto"
        (the LLM when one is configured). A failed LLM answer falls back to the rules and the
        report says why. Everything is written in one transaction, in conversation order, so
        a later value in the batch supersedes an earlier one."""
        from .write.extract import extract
        from .write.ingest import check_messages, link_to_turns, turn_drafts
        from .write.llm_extract import choose_extractor

        scope = self._scope(user, agent)
        if extractor not in ("auto", "rules", "llm"):
            raise Invalid(f"extractor must be auto, rules or llm, got {extractor!r}")
        if session is not None and (not isinstance(session, str) or not session.strip()):
            raise Invalid("session must be a non-empty string")
        turns = check_messages(messages, aware(at, "at") if at is not None else self._now())
        session = session or new_id(self._now())
        llm = choose_extractor(self.config, extractor)
        report = IngestReport(session=session, turns=len(turns))
        drafts = None
        if llm is not None:
            try:
                drafts = llm.extract(turns, session=session)
                report.extractor = "llm"
            except ExtractionFailed as exc:
                report.fallback_reason = str(exc)
        if drafts is None:
            drafts = extract(turns, session=session)
        with self.store.transaction():
            if keep_turns:
                report.events = self.remember_many(turn_drafts(turns, session), user=scope.user,
                                                   agent=scope.agent, progress=progress,
                                                   on_error="skip")  # "...", "👍": counted
                report.skipped_turns = sum(r.rule == "invalid_input" for r in report.events)
            by_turn = {t.index: r for t, r in zip(turns, report.events, strict=False)
                       if r.action != Action.REJECT}
            repeated = {i for i, r in by_turn.items() if r.rule == "exact_duplicate"}
            report.repeated_turns = len(repeated)
            drafts = [d for d in drafts if not _from_turns(d) <= repeated]
            report.extracted = self.remember_many(link_to_turns(drafts, by_turn),
                                                  user=scope.user, agent=scope.agent)
        return report

    def sources(self, id_or_uri: str, *, user: str | None = None,
                agent: str | None = None) -> list[Record]:
        """The turn events an extracted memory came from (``metadata["source_events"]``)."""
        scope = self._scope(user, agent)
        ids = self._get(scope, id_or_uri).metadata.get("source_events") or []
        found = self.store.get_many(scope, [i for i in ids if isinstance(i, str)])
        return [found[i] for i in ids if i in found]


def _from_turns(draft: Draft) -> set[int]:
    meta = draft.metadata or {}
    turns = meta.get("turns") or [meta.get("turn")]
    return {t for t in turns if isinstance(t, int)}


def _procedure_lines(triggered: Sequence[Any]) -> list[str]:
    """A title line and the numbered steps of each triggered procedure."""
    lines: list[str] = []
    for t in triggered:
        p = t.procedure
        lines.append(f"- {p.title} (confidence {p.confidence:.2f})")
        lines += [f"  {i}. {step}" for i, step in enumerate(p.steps, 1)]
    return lines


class ScopedMemory:
    """A view of a Memory bound to one user and agent: the same verbs, no scope arguments."""

    _VERBS = ("remember", "remember_many", "recall", "get", "update", "forget", "restore",
              "history", "list", "count", "stats", "export", "rollback", "forget_scope",
              "boot", "snapshot", "restore_snapshot", "explain", "sleep", "decay",
              # attention (attention/verbs.py)
              "goal_start", "goal_pause", "goal_resume", "goal_done", "goal_note", "goals",
              "active_goal", "add_procedure", "procedures", "procedure_outcome",
              "triggered_procedures", "focus", "learn_from_mistake", "agents_md",
              "export_memory_md", "migrate",
              # working memory and context (working/, context.py)
              "session", "sessions", "context",
              # association (graph.py)
              "link", "unlink", "links", "related", "recall_path",
              # conversations (write/ingest.py)
              "ingest", "sources")

    def __init__(self, memory: Memory, scope: Scope) -> None:
        self.memory = memory
        self.user = scope.user
        self.agent = scope.agent

    def __getattr__(self, name: str) -> Any:
        if name not in self._VERBS:
            raise AttributeError(name)
        verb = getattr(self.memory, name)

        def bound(*args: Any, **kwargs: Any) -> Any:
            for key in ("user", "agent"):
                if kwargs.get(key) is None:
                    kwargs[key] = getattr(self, key)
                elif kwargs[key] != getattr(self, key):
                    raise Invalid(f"this view is bound to user={self.user!r} "
                                  f"agent={self.agent!r}: use Memory.scope() for another")
            if kwargs.get("all_scopes"):
                raise Invalid(f"this view is bound to user={self.user!r} agent={self.agent!r}: "
                              "export all scopes from the Memory itself")
            return verb(*args, **kwargs)

        bound.__name__ = name
        bound.__doc__ = verb.__doc__
        return bound

    def __iter__(self) -> Iterator[Record]:
        return self.memory.list(user=self.user, agent=self.agent)

    def __repr__(self) -> str:
        return f"ScopedMemory(user={self.user!r}, agent={self.agent!r})"

"""Writing: remember, remember_many and update, with the write guard, supersession and
the automatic sleep they may set off (write/)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from ..clock import aware
from ..errors import Conflict, Invalid
from ..ids import new_id
from ..model import (
    Action,
    Draft,
    Kind,
    Layer,
    Record,
    Scope,
    WriteResult,
)
from ..tracing import traced
from ..uri import validate_uri
from .boundary import translate
from .core import ACTOR, USE_DEBOUNCE_S, WRITES_VECTOR, Core, Progress

if TYPE_CHECKING:
    import numpy as np

    from ..dynamics.feedback import Feedback
    from ..write.shapejudge import LLMShapeJudge
    from ..write.supersede import BatchNeighbours, Judgement


class WriteVerbs(Core):
    """remember, remember_many, update."""

    def remember(self, content: str, *, kind: str | Kind | None = None, uri: str | None = None,
                 at: datetime | date | str | None = None, importance: float | None = None,
                 metadata: dict[str, Any] | None = None, people: list[str] | None = None,
                 places: list[str] | None = None, topics: list[str] | None = None,
                 priority: str | None = None, expires_at: datetime | str | None = None,
                 due_at: datetime | str | None = None, session: str | None = None,
                 turn: str | None = None, context: str | None = None,
                 user: str | None = None, agent: str | None = None,
                 at_precision: str | None = None, valence: float | None = None,
                 intensity: float | None = None) -> WriteResult:
        """Write one memory. ``at`` (when it happened) may be a datetime (a moment), a date or
        "2025-03"-style text (that day, month or year: time windows treat it as the whole
        span), or a datetime with ``at_precision`` ("day", "week", "month", "year").
        ``valence`` [-1, 1] and ``intensity`` [0, 1]: the feeling; None reads it from the
        content (text/emotion.py)."""
        draft = Draft(content=content, kind=kind, uri=uri, at=at, importance=importance,
                      metadata=metadata, people=people, places=places, topics=topics,
                      priority=priority, expires_at=expires_at, due_at=due_at, session=session,
                      turn=turn, context=context, at_precision=at_precision, valence=valence,
                      intensity=intensity)
        return self.remember_many([draft], user=user, agent=agent)[0]

    def remember_many(self, drafts: Iterable[Draft], *, user: str | None = None,
                      agent: str | None = None, progress: Progress | None = None,
                      batch: int = 64, on_error: str = "raise") -> list[WriteResult]:
        """Write many memories in one transaction: all are validated first, so one bad draft
        rejects the batch and nothing is written; with ``on_error="skip"`` each bad draft is
        a REJECT result (rule "invalid_input", write/batch.py) and the others are written."""
        from ..write.batch import build_records, check_on_error, with_rejected
        from ..write.prepare import embed_text
        from ..write.privacy import Screen, keep_masked
        from ..write.supersede import BatchNeighbours
        from ..write.turncontext import with_turn_context
        from .deferred import defer_vectors

        if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
            raise Invalid(f"batch must be a positive integer, got {batch!r}")
        scope = self._scope(user, agent)
        now = self._now()
        drafts = list(drafts)
        screen = Screen(self._pii_policy(scope), scope, self.store)
        records, rejected = build_records(drafts, scope, lambda: new_id(now), now,
                                          self.config.max_content_bytes,
                                          check_on_error(on_error), screen)
        kept = [i for i in range(len(drafts)) if i not in rejected]
        if rejected:
            drafts = [d for i, d in enumerate(drafts) if i not in rejected]
        records = with_turn_context(self.store, scope, records)  # write/turncontext.py
        deferred = self.config.embed == "deferred"   # vectors after the commit: deferred.py
        vectors = (None if deferred else
                   self._embed_in_batches([embed_text(r) for r in records], batch, progress))
        with self.store.transaction():
            near = (BatchNeighbours(self.store, scope, records, vectors)
                    if vectors is not None and len(records) > 1 else None)
            results = []
            for i, (rec, draft) in enumerate(zip(records, drafts, strict=True)):
                vec = None if vectors is None else vectors[i]
                result = self._write(rec, vec, draft.kind is not None,
                                     draft.importance is not None, near, i)
                keep_masked(self.store, screen, kept[i], rec, result)
                if near is not None and vec is not None and result.action in WRITES_VECTOR:
                    near.written(result.memory.id, vec)
                results.append(result)
            pending = defer_vectors(self.store, scope, results) if deferred else 0
            written = self._count_importance(scope, results)
        if pending:
            self._later.notify()
        if deferred and progress and records:
            progress(len(records), len(records))
        self._auto_sleep(scope, written, results)
        return with_rejected(results, rejected)

    @traced("write.embed")
    def _embed_in_batches(self, texts: list[str], batch: int,
                          progress: Progress | None) -> np.ndarray:
        return self._embed_many(texts, batch, progress)

    @traced("write")
    def _write(self, rec: Record, vector: np.ndarray | None, kind_given: bool,
               importance_given: bool = True, near: BatchNeighbours | None = None,
               index: int = 0) -> WriteResult:
        from ..write.guard import quality_failures
        from ..write.prepare import index_text
        from ..write.supersede import judge, neighbours
        from ..write.textnear import text_judgement, text_neighbours

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
        if vector is None:  # deferred: the text decides now, the vector later (deferred.py)
            nearby = text_neighbours(self.store, rec)
            verdict = text_judgement(judge(rec, nearby, self._shape_judge(), self.compare))
        else:
            nearby = neighbours(self.store, rec, vector, near, index, self.compare)
            verdict = judge(rec, nearby, self._shape_judge(), self.compare)
        result = self._apply(verdict, rec, vector, importance_given, nearby.surprise)
        if result.action in WRITES_VECTOR:
            self._near.note(result.memory, nearby.near)
        return result

    def _shape_judge(self) -> LLMShapeJudge | None:
        """The LLM judge of ambiguous shapes (write/shapejudge.py), or None: made once."""
        from ..write.shapejudge import choose_judge

        if not hasattr(self, "_judge_made"):
            self._judge_made = choose_judge(self.config)
        return self._judge_made

    def _apply(self, j: Judgement, rec: Record, vector: np.ndarray | None,
               importance_given: bool, surprise_: float) -> WriteResult:
        """Carry out a write/supersede.py judgement (inside the caller's transaction)."""
        from ..write.prepare import index_text
        from ..write.shape import OLDER_VALUE_RULES
        from ..write.supersede import gated_importance

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

    def _write_same_uri(self, old: Record, rec: Record,
                        vector: np.ndarray | None) -> WriteResult:
        from ..write.prepare import index_text

        if old.content_hash == rec.content_hash:
            self.store.record_uses(rec.scope, [old.id], rec.recorded_at, USE_DEBOUNCE_S)
            return WriteResult(Action.NOOP, "same_uri_same_content", self._reload(old),
                               {"uri": rec.uri})
        new = old.replace(
            content=rec.content, content_hash=rec.content_hash, kind=rec.kind,
            metadata=rec.metadata or old.metadata, people=rec.people or old.people,
            places=rec.places or old.places, topics=rec.topics or old.topics,
            valence=rec.valence, intensity=rec.intensity,
            at=rec.at, updated_at=rec.recorded_at, version=old.version + 1,
        )
        self.store.save(new, "update", index_text(new), vector, actor=ACTOR, reason="same_uri")
        return WriteResult(Action.UPDATE, "same_uri", new,
                           {"uri": rec.uri, "previous_version": old.version})
    def update(self, memory_id: str, *, content: str | None = None, kind: str | None = None,
               uri: str | None = None, importance: float | None = None,
               metadata: dict[str, Any] | None = None, people: list[str] | None = None,
               places: list[str] | None = None, topics: list[str] | None = None,
               at: datetime | str | None = None, valence: float | None = None,
               intensity: float | None = None, user: str | None = None,
               agent: str | None = None) -> Record:
        """Change fields in place, as a new version. New content with no valence or intensity
        given reads them again from the new text (text/emotion.py)."""
        from ..text.checks import check_content, content_hash
        from ..text.emotion import check_number
        from ..write.prepare import (
            check_anchors,
            check_importance,
            check_metadata,
            embed_text,
            index_text,
            parse_kind,
        )
        from ..write.privacy import mask_update

        scope = self._scope(user, agent)
        changes: dict[str, Any] = {}
        valence = check_number("valence", valence, -1.0, 1.0)
        intensity = check_number("intensity", intensity, 0.0, 1.0)
        if content is not None:
            changes["content"] = check_content(content, self.config.max_content_bytes)
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
        if not changes and valence is None and intensity is None:
            raise Invalid("nothing to update: give at least one field")
        with self.store.transaction():
            old = self._get(scope, memory_id)
            if old.erased:
                raise Conflict(f"memory {memory_id} was erased (hard forget): it cannot change")
            if old.layer == Layer.DELETED:
                raise Conflict(f"memory {memory_id} is forgotten: restore it first")
            if "content" in changes or "uri" in changes:
                content, uri_ = mask_update(self.store, self._pii_policy(scope), old,
                                            changes.get("content"), changes.get("uri"))
                if content is not None:
                    changes["content"], changes["content_hash"] = content, content_hash(content)
                if uri_ is not None:
                    changes["uri"] = uri_
            changes |= _emotion(old, changes.get("content"), valence, intensity)
            new = old.replace(**changes, updated_at=self._now(), version=old.version + 1)
            vector = self._embed([embed_text(new)])[0] if "content" in changes else None
            self.store.save(new, "update", index_text(new), vector, actor=ACTOR)
        return new

    def _pii_policy(self, scope: Scope) -> str:
        """The scope's PII policy: Config.pii, or its entry in Config.pii_scopes."""
        from ..text.piipolicy import scope_policy

        return scope_policy(self.config.pii, self.config.pii_scopes, scope)

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
        if self.config.sleep_in_background:  # engine/sleeper.py: the writer does not wait
            self.sleeper.mark(scope)
            results[-1].evidence["auto_sleep"] = {"importance_written": round(written, 4),
                                                  "threshold": threshold,
                                                  "scheduled": "background"}
            return
        try:
            report = self._sleep(scope)  # no catch-up of pending vectors (deferred.py)
        except Exception as exc:  # noqa: BLE001 - the write itself is stored (a disk I/O
            # error in the sleep included): say why no sleep followed, never fail the write
            results[-1].evidence["auto_sleep"] = {"importance_written": round(written, 4),
                                                  "threshold": threshold,
                                                  "error": str(translate(exc, "sleep"))}
            return
        self.last_auto_sleep = report
        results[-1].evidence["auto_sleep"] = {
            "importance_written": round(written, 4), "threshold": threshold,
            "mode": report.mode, "visited": report.visited, "changes": report.changes,
            "counts": {p.phase: p.counts() for p in report.phases if p.counts()}}

    def feedback(self, memory_id: str, useful: bool, *, user: str | None = None,
                 agent: str | None = None) -> Feedback:
        """Say whether a recalled memory was useful: useful strengthens it (a use, importance
        up), useless weakens it (importance down). See dynamics/feedback.py."""
        from ..dynamics.feedback import give_feedback

        scope = self._scope(user, agent)
        return give_feedback(self.store, scope, self._id(scope, memory_id), useful, self._now())


def _emotion(old: Record, content: str | None, valence: float | None,
             intensity: float | None) -> dict[str, float]:
    """An update's valence and intensity: new content reads what was not given from the new
    text; otherwise a value given alone keeps the other as it was."""
    from ..text.emotion import emotion_for

    if content is not None:
        v, i = emotion_for(content, valence, intensity)
    elif valence is None and intensity is None:
        return {}
    else:
        v = old.valence if valence is None else valence
        i = old.intensity if intensity is None else intensity
    return {"valence": v, "intensity": i}

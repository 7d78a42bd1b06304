"""Versions and removal: history, rollback, forget (soft and hard), restore, forget_scope."""

from __future__ import annotations

from ..errors import Conflict, Invalid, NotFound
from ..model import (
    Layer,
    Record,
    Scope,
    Version,
)
from .core import ACTOR, USE_DEBOUNCE_S, Core


class VersionVerbs(Core):
    """Versions and removal: history, rollback, forget (soft and hard), restore, forget_scope."""

    def history(self, id_or_uri: str, *, user: str | None = None,
                agent: str | None = None, reveal: bool = False) -> list[Version]:
        """Every version of the memory, oldest first, and, when it is a link of a supersession
        chain (Lisbon -> Berlin -> Oslo), every version of every link, oldest link first. The
        version that holds now is marked ``current``. ``reveal=True``: each version with the
        values the PII policy masked in it (as ``get``; an earlier version's values are kept
        with the memory until a hard forget)."""
        from ..write.chain import supersession_chain

        if not isinstance(reveal, bool):
            raise Invalid(f"reveal must be true or false, got {reveal!r}")
        scope = self._scope(user, agent)
        chain = supersession_chain(self.store, scope, self._get(scope, id_or_uri))
        values = self.store.pii_values(scope, [r.id for r in chain]) if reveal else {}
        out: list[Version] = []
        for rec in chain:
            versions = [Version(e.version, e.op, e.at, _revealed(e.snapshot, values.get(rec.id)),
                                e.actor, e.reason)
                        for e in self.store.events(scope, rec.id) if e.snapshot is not None]
            if versions and rec.current:
                versions[-1].current = True
            out.extend(versions)
        return out

    def forget(self, memory_id: str, *, hard: bool = False, reason: str | None = None,
               user: str | None = None, agent: str | None = None) -> Record:
        """Soft delete: the memory leaves every search but stays in the log and can be restored.

        ``hard=True`` erases it: its content, metadata, anchors, context, emotion, text index
        and vector are gone, and so is the content of every earlier version in its log (history
        must not leak what was erased). A tombstone stays (id, scope, kind, URI, times, layer
        deleted, empty content) with an "erase" event; it can never be found or restored. A gist
        made from it is rebuilt from its other sources, its history too (dynamics/redact.py)."""
        from ..dynamics.redact import gists_of, redact

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
        from ..write.prepare import embed_text, index_text
        from ..write.rollback import rolled_back

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


def _revealed(record: Record, values: dict[str, str] | None) -> Record:
    if not values:
        return record
    from ..write.privacy import revealed

    return revealed(record, values)

"""Turning a caller's arguments into a valid Record (or a clear Invalid error)."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from ..clock import aware
from ..errors import Invalid
from ..model import Draft, Kind, Layer, Lifecycle, Priority, Record, Scope
from ..store.protocol import IndexText
from ..text import tokenize
from ..text.checks import check_content, content_hash, storable
from ..text.duedate import due_from_text
from ..text.emotion import emotion_for
from ..text.timespan import check_precision, parse_at, start_of
from ..uri import domain_of, validate_uri
from .slots import slot_of
from .stance import encoded
from .triples import read_triples

PRIORITY_BY_KIND = {
    Kind.IDENTITY: Priority.P0, Kind.EMOTION: Priority.P1, Kind.RULE: Priority.P1,
    Kind.LESSON: Priority.P1, Kind.PROCEDURE: Priority.P1, Kind.GIST: Priority.P2,
    Kind.FACT: Priority.P2, Kind.PREFERENCE: Priority.P2, Kind.PENDING: Priority.P2,
    Kind.EVENT: Priority.P3,
}
PRIORITY_BY_DOMAIN = {
    "core": Priority.P0, "emotion": Priority.P1, "rule": Priority.P1, "lesson": Priority.P1,
    "procedure": Priority.P1, "knowledge": Priority.P2, "project": Priority.P2,
    "event": Priority.P3, "system": Priority.P0,  # system://boot and the like never fade
}
LIFECYCLE_BY_PRIORITY = {
    Priority.P0: Lifecycle.PERMANENT, Priority.P1: Lifecycle.LONG,
    Priority.P2: Lifecycle.CONTEXTUAL, Priority.P3: Lifecycle.LOG,
}
MAX_ANCHORS = 64
MAX_METADATA_DEPTH = 32   # dicts and lists inside one another in a memory's metadata


# The design's kind names, read as engramdb's kinds wherever a kind is parsed (writes, update,
# list/count/recall filters). "emotion" is the same name in both.
KIND_ALIASES = {
    "knowledge": Kind.FACT,      # what is known about the user or the world
    "idea": Kind.FACT,           # a thought worth keeping: knowledge that fades like a fact
    "story": Kind.EVENT,         # what happened: an episode of the log
    "interaction": Kind.EVENT,   # an exchange with someone: an episode too
}


def parse_kind(kind: str | Kind) -> Kind:
    if isinstance(kind, str) and not isinstance(kind, Kind) and kind in KIND_ALIASES:
        return KIND_ALIASES[kind]
    try:
        return Kind(kind)
    except ValueError:
        raise Invalid(
            f"unknown kind {kind!r} (one of {', '.join(k.value for k in Kind)}; aliases: "
            f"{', '.join(f'{a}={k.value}' for a, k in KIND_ALIASES.items())})"
        ) from None


def parse_priority(priority: str | Priority) -> Priority:
    try:
        return Priority(str(priority).upper())
    except ValueError:
        raise Invalid(f"unknown priority {priority!r} (P0, P1, P2 or P3)") from None


def check_importance(value: float | None) -> float:
    if value is None:
        return 0.5
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise Invalid(f"importance must be a number between 0 and 1, got {value!r}")
    return float(value)


def check_metadata(value: dict[str, Any] | None) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise Invalid("metadata must be a dict with string keys")
    if too_deep(value, MAX_METADATA_DEPTH):
        raise Invalid(f"metadata nests deeper than {MAX_METADATA_DEPTH} levels of objects and "
                      "lists: flatten it")
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")  # lone surrogates cannot be stored
        return json.loads(text)
    except (TypeError, ValueError) as exc:  # UnicodeEncodeError is a ValueError
        raise Invalid(f"metadata must be JSON-serialisable: {exc}") from exc


def too_deep(value: Any, limit: int) -> bool:
    """Whether ``value`` nests more than ``limit`` dicts and lists (read without recursion, so
    a value nested thousands deep is measured too)."""
    level: list[tuple[Any, int]] = [(value, 1)]
    while level:
        item, depth = level.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            level.extend((child, depth + 1) for child in children)
    return False


def check_anchors(name: str, value: list[str] | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str) or not all(
        isinstance(v, str) and v.strip() and storable(v) for v in value
    ):
        raise Invalid(f"{name} must be a list of non-empty strings")
    if len(value) > MAX_ANCHORS:
        raise Invalid(f"{name}: at most {MAX_ANCHORS} entries")
    return list(dict.fromkeys(v.strip() for v in value))


def derive_priority(kind: Kind, uri: str | None) -> Priority:
    if uri and domain_of(uri) in PRIORITY_BY_DOMAIN:
        return PRIORITY_BY_DOMAIN[domain_of(uri)]
    return PRIORITY_BY_KIND[kind]


def build_record(draft: Draft, scope: Scope, new_id: str, now: datetime,
                 max_bytes: int) -> Record:
    content = check_content(draft.content, max_bytes)
    valence, intensity = emotion_for(content, draft.valence, draft.intensity)
    kind = parse_kind(draft.kind) if draft.kind is not None else Kind.FACT
    uri = validate_uri(draft.uri) if draft.uri is not None else None
    priority = parse_priority(draft.priority) if draft.priority else derive_priority(kind, uri)
    expires_at = aware(draft.expires_at, "expires_at") if draft.expires_at else None
    at, precision = (parse_at(draft.at, draft.at_precision) if draft.at is not None
                     else (now, check_precision(draft.at_precision)))
    if precision is not None and draft.at is None:
        at = start_of(now, precision)
    due_at = aware(draft.due_at, "due_at") if draft.due_at else None
    if due_at is None and kind == Kind.PENDING:   # "call mom tomorrow": due when it was said + 1
        due_at = due_from_text(content, at)
    return Record(
        id=new_id, user=scope.user, agent=scope.agent, content=content, kind=kind, uri=uri,
        priority=priority,
        lifecycle=Lifecycle.TEMP if expires_at else LIFECYCLE_BY_PRIORITY[priority],
        importance=check_importance(draft.importance),
        at=at, at_precision=precision,
        recorded_at=now, updated_at=now, metadata=check_metadata(draft.metadata),
        people=check_anchors("people", draft.people), places=check_anchors("places", draft.places),
        topics=check_anchors("topics", draft.topics),
        source_session=_opt_str("session", draft.session), source_turn=_opt_str("turn", draft.turn),
        context=check_context(draft.context, max_bytes),
        expires_at=expires_at, due_at=due_at, valence=valence, intensity=intensity,
        layer=Layer.CORE, content_hash=content_hash(content),
    )


def check_context(value: object, max_bytes: int) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str) or not storable(value) or len(value.encode()) > max_bytes:
        raise Invalid(f"context must be text of at most {max_bytes} bytes")
    return value.strip()


def _opt_str(name: str, value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int) or not storable(str(value)):
        raise Invalid(f"{name} must be a string")
    return str(value)


def index_text(record: Record) -> IndexText:
    """What full-text search indexes for a record: its content, anchors and context. A current
    fact with a slot also carries its slot token among the anchors (see ``slot_token``)."""
    names = [*record.people, *record.places, *record.topics, *record.keywords]
    anchors = " ".join(tokenize(" ".join(names), keep_stopwords=True))
    token = slot_token(record)
    return IndexText(
        body=" ".join(tokenize(record.content)),
        anchors=f"{anchors} {token}".strip() if token else anchors,
        context=" ".join(tokenize(record.context or "")),
        triples=read_triples(record.content, record.kind),
        stance=encoded(record),
    )


def slot_token(record: Record) -> str | None:
    """One word naming the record's slot (subject and attribute), while the record is its
    current value: the write guard finds a slot's current value by this word however many
    look-alike episodes and former values surround it. None without a slot, with a URI (it is
    addressed by it), or once superseded or forgotten (its index text is then rewritten)."""
    if record.uri is not None or not record.current:
        return None
    slot = slot_of(record.content, record.kind)
    if slot is None:
        return None
    digest = hashlib.blake2b("\x1f".join(slot.key).encode(), digest_size=8).hexdigest()
    return f"slot{digest}"


def embed_text(record: Record) -> str:
    """What the embedder reads for a record: its content. The context is left to full-text
    search: embedding it too made indexing about 3x slower with the default model."""
    return record.content

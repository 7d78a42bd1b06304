"""Conversation ingestion, the parts the engine orchestrates: checking the messages, the turn
events (each turn kept as an episodic event: the evidence a fact came from, and what a
question about the conversation itself finds), and linking extracted memories to their turns.

Turns are kept as events because extracted facts lose the turn's context ("Yes, that one")
and the rules miss much of what is said; recall over raw turns is what bench/locomo.py
measures. Every extracted memory names its turn: ``session``/``turn`` on the record and
``metadata["source_events"]`` (the ids of the turn events), so a hit maps back."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from ..clock import aware
from ..config import Config
from ..errors import Invalid
from ..model import Draft, IngestReport, Kind, Message, WriteResult
from .extract import Turn, extract
from .kindvote import Embed, revote, votes
from .llm_extract import ExtractionFailed, choose_extractor
from .privacy import masked_turns, revealed_drafts

MAX_CONTEXT_CHARS = 500
_FIELDS = {"role", "content", "at", "speaker"}


def check_messages(messages: Iterable[Message | dict[str, Any]], default_at: datetime
                   ) -> list[Turn]:
    """Messages (``Message`` objects or dicts with role, content, optional at and speaker)
    -> turns; a bad one raises Invalid naming its index. ``at`` may be ISO 8601 text."""
    if isinstance(messages, str | bytes | dict) or not isinstance(messages, Iterable):
        raise Invalid("messages must be a list of messages (dicts or Message)")
    turns = []
    for i, raw in enumerate(messages):
        try:
            msg = _message(raw)
            at = aware(msg.at, "at") if msg.at is not None else default_at
        except Invalid as exc:
            raise Invalid(f"message {i}: {exc}") from None
        turns.append(Turn(i, msg, at))
    if not turns:
        raise Invalid("messages is empty: nothing to ingest")
    return turns


def _message(raw: object) -> Message:
    if isinstance(raw, dict):
        unknown = set(raw) - _FIELDS
        if unknown:
            raise Invalid(f"unknown field(s) {', '.join(sorted(map(str, unknown)))} "
                          f"(a message has {', '.join(sorted(_FIELDS))})")
        for name in ("role", "content"):
            if name not in raw:
                raise Invalid(f"missing {name!r}")
        raw = Message(role=raw["role"], content=raw["content"], at=_time(raw.get("at")),
                      speaker=raw.get("speaker"))
    if not isinstance(raw, Message):
        raise Invalid(f"expected a dict or a Message, got {type(raw).__name__}")
    if not isinstance(raw.role, str) or not raw.role.strip():
        raise Invalid("role must be a non-empty string")
    if not isinstance(raw.content, str) or not raw.content.strip():
        raise Invalid("content must be a non-empty string")
    if raw.speaker is not None and (not isinstance(raw.speaker, str) or not raw.speaker.strip()):
        raise Invalid("speaker must be a non-empty string")
    return Message(raw.role.strip().lower(), raw.content, raw.at,
                   raw.speaker.strip() if raw.speaker else None)


def _time(value: object) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    if not isinstance(value, str):
        raise Invalid(f"at must be ISO 8601 text or a datetime, got {type(value).__name__}")
    from ..clock import parse_time

    return parse_time(value, "at")


def turn_drafts(turns: list[Turn], session: str) -> list[Draft]:
    """One event per turn, the turns before and after it as context (helps search, not
    returned: a reply is found by what it answers, a question by its answer; LoCoMo dev
    through ingest R@10 0.747 -> 0.772 over the previous turn alone)."""
    drafts = []
    for pos, turn in enumerate(turns):
        msg = turn.message
        near = [turns[j].message.content[:MAX_CONTEXT_CHARS] for j in (pos - 1, pos + 1)
                if 0 <= j < len(turns)]
        meta: dict[str, Any] = {"session": session, "turn": turn.index, "role": msg.role}
        if msg.speaker:
            meta["speaker"] = msg.speaker
        drafts.append(Draft(content=msg.content, kind=Kind.EVENT, at=turn.at, metadata=meta,
                            people=[msg.speaker] if msg.speaker else None, session=session,
                            turn=str(turn.index), context="\n".join(near) or None))
    return drafts


def link_to_turns(drafts: list[Draft], events: dict[int, WriteResult]) -> list[Draft]:
    """Each extracted draft's metadata gets ``source_events``: the ids of its turns' events."""
    for draft in drafts:
        meta = dict(draft.metadata or {})
        turns = meta.get("turns") or [meta.get("turn")]
        ids = [events[t].memory.id for t in turns
               if isinstance(t, int) and t in events]
        meta["source_events"] = ids
        draft.metadata = meta
    return drafts


def extract_drafts(config: Config, turns: list[Turn], session: str, extractor: str,
                   report: IngestReport, pii: str = "keep", turns_kept: bool = False,
                   embedder: Any = None, embed: Embed | None = None) -> list[Draft]:
    """What the chosen extractor finds in the turns: the configured LLM ("auto" when one is
    configured, or "llm"), falling back to the rules when its answer fails (the report says
    which ran and why it fell back), or the rules. Under the PII policy "mask" (``pii``) the
    LLM is sent the turns with placeholders, and its drafts get the values back (the write
    path masks them again, keeping them with each memory: write/privacy.py). ``turns_kept``:
    each turn is kept as an event too (write/extract.py reads less of a long turn then).
    ``embedder``: the memory's; the kind of a draft the rules only guessed is then read from
    the nearest labelled examples where their vote is clear (write/kindvote.py; ``embed``
    embeds many texts, default the embedder's own call)."""
    if extractor not in ("auto", "rules", "llm"):
        raise Invalid(f"extractor must be auto, rules or llm, got {extractor!r}")
    llm = choose_extractor(config, extractor)
    if llm is not None:
        try:
            if pii == "mask":
                sent, values = masked_turns(turns)
                drafts = revealed_drafts(llm.extract(sent, session=session), values)
            else:
                drafts = llm.extract(turns, session=session)
            report.extractor = "llm"
            return drafts
        except ExtractionFailed as exc:
            report.fallback_reason = str(exc)
    voted = embedder is not None and votes(embedder)
    drafts = extract(turns, session=session, turns_kept=turns_kept, unread=voted)
    return revote(drafts, embedder, embed, mask=pii == "mask") if voted else drafts

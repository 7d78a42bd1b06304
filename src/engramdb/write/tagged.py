"""Extract memories from a conversation and write them with the caller's metadata.

``Memory.ingest`` keeps each turn as an event and links what it extracts to those events;
an adapter whose users expect only the extracted memories (mem0's ``add(..., infer=True)``)
keeps no turns and tags every memory with its own metadata (who said it, which run). The
extraction is the same: the configured LLM ("auto"/"llm", falling back to the rules when its
answer fails) or the rules. Everything is written in one transaction."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..ids import new_id
from ..model import IngestReport, Message
from ..text.piipolicy import scope_policy
from .commands import apply_forgets, split_forgets
from .ingest import check_messages, extract_drafts
from .prepare import check_metadata

if TYPE_CHECKING:
    from ..facade import Facade


def extract_tagged(memory: Facade, messages: Iterable[Message | dict[str, Any]], *,
                   metadata: dict[str, Any] | None = None, session: str | None = None,
                   extractor: str = "auto", user: str | None = None,
                   agent: str | None = None) -> IngestReport:
    """What ``ingest(keep_turns=False)`` extracts, each memory's metadata updated with
    ``metadata``. The report's ``extracted`` lists the writes (``events`` is empty)."""
    tags = check_metadata(metadata) if metadata is not None else {}
    now = memory._now()
    turns = check_messages(messages, now)
    session = session or new_id(now)
    report = IngestReport(session=session, turns=len(turns))
    scope = memory._scope(user, agent)
    drafts = extract_drafts(memory.config, turns, session, extractor, report,
                            scope_policy(memory.config.pii, memory.config.pii_scopes, scope),
                            embedder=memory.embedder, embed=memory._embed_many)
    drafts, forgets = split_forgets(drafts)
    for draft in drafts:
        draft.metadata = {**(draft.metadata or {}), **tags}
    report.extracted = memory.remember_many(drafts, user=user, agent=agent)
    report.forgotten = apply_forgets(memory, forgets, user, agent)
    return report

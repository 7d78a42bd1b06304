"""Conversations: working memory sessions (working/), the context block (attention/context.py),
ingest with extraction (write/) and the sources of what was extracted."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..clock import aware
from ..errors import Invalid
from ..ids import new_id
from ..model import (
    MAX_K,
    Action,
    Draft,
    IngestReport,
    Message,
    Record,
    Scope,
)

if TYPE_CHECKING:
    from ..attention.context import Context
    from ..working.session import WorkingMemory
    from ..write.offload import Offloaded
from .core import Core, Progress


class SessionVerbs(Core):
    """Working memory, the context block and conversations."""

    def session(self, session_id: str, *, budget: int | None = None, keep: int | None = None,
                offload_tokens: int | None = None, encoding: str | None = None,
                summarizer: str | None = None, create: bool = True, user: str | None = None,
                agent: str | None = None) -> WorkingMemory:
        """The working memory of one session, created on first use with the configured
        settings (session_budget, session_keep, offload_tokens, encoding, summarizer); a
        setting given here replaces the stored one. ``create=False``: NotFound for a session
        that does not exist. See working/session.py."""
        from ..working.open import open_session

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
        end. Layout and priorities: attention/context.py, docs/context.md."""
        from ..attention import prefetch
        from ..attention.context import assemble
        from ..dynamics import stilltrue
        from ..dynamics.review import due_lines
        from ..text.lang import EN, majority

        scope, now = self._scope(user, agent), self._now()
        triggered = self.triggered_procedures(query, user=scope.user, agent=scope.agent)
        goal = self.active_goal(user=scope.user, agent=scope.agent)
        ahead = prefetch.coming_up(self.store, scope, now, self.config.coming_up_days,
                                   goal.title if goal is not None else None,
                                   lambda q, n: self._warm(scope, q, n))
        queued, lang = self._still_true(scope, self.config.still_true_shown)
        lang = lang or majority(r.content for r in ahead.records) or EN
        return assemble(self, scope, query, budget, session=session, k=k, track=track,
                        encoding=encoding, goal=_goal_lines(goal),
                        procedures=_procedure_lines(triggered),
                        shown=[t.procedure.id for t in triggered] + ahead.ids
                        + [x.memory.id for x in queued],
                        review=due_lines(self.store, scope, now, self.config.review_due, track),
                        coming_up=list(zip(ahead.lines(now, lang), ahead.ids, strict=True)),
                        still_true=[stilltrue.line(x, lang) for x in queued],
                        titles={"coming_up": prefetch.title(lang),
                                "still_true": stilltrue.title(lang)})

    def _warm(self, scope: Scope, query: str, n: int) -> list[Record]:
        """The memories an untracked recall of ``query`` finds (prefetch: not a use)."""
        hits = self.recall(query, min(n, MAX_K), track=False, user=scope.user,
                           agent=scope.agent, relevance_floor=self.config.answer_floor)
        return [h.memory for h in hits]


    # ---------------------------------------------------------------- links (recall/graph.py)
    def ingest(self, messages: Iterable[Message | dict[str, Any]], *, session: str | None = None,
               at: datetime | str | None = None, extractor: str = "auto", keep_turns: bool = True,
               progress: Progress | None = None, user: str | None = None,
               agent: str | None = None) -> IngestReport:
        """Remember a conversation: each turn as an event (``keep_turns``), then the facts,
        preferences, lessons, pending items and dated episodes extracted from the user's
        turns, each linked to its turn (metadata ``source_events``, ``session``, ``turn``).
        ``extractor``: "rules", "llm" (the configured OpenAI-compatible endpoint) or "auto"
        (the LLM when one is configured). A failed LLM answer falls back to the rules and the
        report says why. Everything is written in one transaction, in conversation order, so
        a later value in the batch supersedes an earlier one."""
        from ..text.piipolicy import scope_policy
        from ..write.commands import (
            apply_forgets,
            command_events,
            forget_turns,
            split_forgets,
        )
        from ..write.ingest import check_messages, extract_drafts, link_to_turns, turn_drafts
        from ..write.offload import blob_session, offload_long, with_blobs
        from ..write.privacy import mask_blobs, refuse_texts

        scope = self._scope(user, agent)
        if extractor not in ("auto", "rules", "llm"):   # checked before anything is read
            raise Invalid(f"extractor must be auto, rules or llm, got {extractor!r}")
        if session is not None and (not isinstance(session, str) or not session.strip()):
            raise Invalid("session must be a non-empty string")
        turns = check_messages(messages, aware(at, "at") if at is not None else self._now())
        policy = scope_policy(self.config.pii, self.config.pii_scopes, scope)
        refuse_texts(policy, scope, [t.message.content for t in turns])
        session = session or new_id(self._now())
        report = IngestReport(session=session, turns=len(turns))
        turns, offloaded = offload_long(turns, self.config.max_content_bytes,
                                        blob_session(session, self._now()), self._now())
        mask_blobs(policy, offloaded)
        drafts = extract_drafts(self.config, turns, session, extractor, report, policy,
                                turns_kept=keep_turns, embedder=self.embedder,
                                embed=self._embed_many)
        with self.store.transaction():
            if offloaded:
                self._keep_blobs(scope, offloaded)
                report.offloaded_turns = len(offloaded)
            if keep_turns:
                report.events = self.remember_many(
                    with_blobs(turn_drafts(turns, session), offloaded), user=scope.user,
                    agent=scope.agent, progress=progress, on_error="skip")  # "...", "👍"
                report.skipped_turns = sum(r.rule == "invalid_input" for r in report.events)
            by_turn = {t.index: r for t, r in zip(turns, report.events, strict=False)
                       if r.action != Action.REJECT}
            repeated = {i for i, r in by_turn.items() if r.rule == "exact_duplicate"}
            report.repeated_turns = len(repeated)
            drafts = [d for d in drafts if not _from_turns(d) <= repeated]
            drafts, forgets = split_forgets(drafts)
            report.extracted = self.remember_many(link_to_turns(drafts, by_turn),
                                                  user=scope.user, agent=scope.agent)
            said = command_events(forgets, {t: r.memory.id for t, r in by_turn.items()})
            report.forgotten = apply_forgets(self, forgets, scope.user, scope.agent, said)
            forget_turns(self, said, scope.user, scope.agent)
        return report

    def _keep_blobs(self, scope: Scope, offloaded: list[Offloaded]) -> None:
        """The blobs of offloaded turns, in the working session they name (created when
        new), so that ``session(id).fetch(ref)`` returns each text whole."""
        from ..working.open import open_session

        for off in offloaded:
            open_session(self, scope, off.blob.session_id)
            self.store.put_blob(scope, off.blob)

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


def _goal_lines(goal: Any) -> list[str]:
    """The active goal's lines for context(): its title, constraints and open loops."""
    if goal is None:
        return []
    return ([f"- {goal.title}"] + [f"  - constraint: {c}" for c in goal.constraints]
            + [f"  - open: {o}" for o in goal.open_loops])


def _procedure_lines(triggered: Sequence[Any]) -> list[str]:
    """A title line and the numbered steps of each triggered procedure."""
    lines: list[str] = []
    for t in triggered:
        p = t.procedure
        lines.append(f"- {p.title} (confidence {p.confidence:.2f})")
        lines += [f"  {i}. {step}" for i, step in enumerate(p.steps, 1)]
    return lines


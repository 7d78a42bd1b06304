"""Working memory: one session's window of messages, within a token budget.

- ``add(role, content)`` appends a turn. A turn above ``offload_tokens`` (default 1,000) is
  stored whole in a blob and stands in the window as a one-line reference with a preview;
  ``fetch(ref)`` returns it whole. Pinned turns (``pin=True``: constraints such as "never
  connect to the production database") are never offloaded, folded or trimmed.
- The newest ``keep`` turns always stay verbatim. When the window passes ``budget`` tokens, the
  oldest other turns are folded into a running summary (working/summary.py; or an LLM, see
  working/llm.py), repeatedly, until the window fits or only pinned and kept turns remain. The
  summary holds at most a third of the budget; past that, its lowest-value lines go.
- Degradation, when the pinned and kept turns alone pass the budget: nothing is refused and
  nothing pinned or kept is cut. The window shows only the summary lines that fit (possibly
  none), the
  window stays over budget, and ``over_budget`` says so (``show`` reports it too). The
  stored summary keeps its lines: once the heavy kept turns are folded, they show again.
- ``to_prompt()`` renders the window: the summary, the pinned turns, then the recent turns
  (layout below). ``tokens`` is the exact count of that text in the session's encoding.
- ``end()`` closes the session and returns the hand-over: every turn, in order, with the
  summary and the pinned turns, for long-term memory.
- Everything lives in the store (migration 5): a session reopened after a restart is the same.

A session is meant for one agent at a time: it keeps its turns in memory between calls."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..errors import Conflict, EngramError, Invalid, NotFound
from ..ids import new_id
from ..io.profile import pending_at_end
from ..model import IngestReport, Record, Scope, WriteResult
from ..text.checks import storable
from ..text.tokens import count_tokens
from .layers import Layers, layers
from .layers_llm import LayerWriter
from .llm import ChatSummarizer
from .privacy import key as pii_key
from .privacy import revealed, screen_turn
from .state import Blob, SessionInfo, Settings, Turn
from .summary import fold, trim

if TYPE_CHECKING:
    from ..facade import Facade

ROLES = ("system", "developer", "user", "assistant", "tool")
MAX_TURN_BYTES = 16 * 1024 * 1024
PREVIEW_CHARS = 120
SUMMARY_SHARE = 3    # the summary holds at most budget // SUMMARY_SHARE tokens
TURN_MARGIN = 8      # tokens a turn may add to its own count in the window ("developer: ", \n)
HEADS_MARGIN = 40    # tokens of the three headers and the blank lines between parts
SUMMARY_HEAD = "[Summary of earlier turns]"
PINNED_HEAD = "[Pinned]"
RECENT_HEAD = "[Recent turns]"


@dataclass(frozen=True)
class Handover:
    """What a session hands to long-term memory when it ends: ``messages`` in the shape
    ``Memory.ingest`` reads (role, content, at), one per turn, oldest first; an offloaded turn
    is its reference line (``fetch`` has the whole text)."""

    session: str
    ended_at: datetime
    messages: list[dict[str, Any]]
    summary: str
    pinned: list[str] = field(default_factory=list)
    ingested: IngestReport | None = None      # what long-term memory extracted from the turns
    rules: list[WriteResult] = field(default_factory=list)  # the pinned turns, kept as rules
    pending: list[Record] = field(default_factory=list)  # open pending items, checked at the end

    def to_dict(self) -> dict[str, Any]:
        return {"session": self.session, "ended_at": self.ended_at.isoformat(),
                "messages": [{**m, "at": m["at"].isoformat()} for m in self.messages],
                "summary": self.summary, "pinned": self.pinned,
                "ingested": self.ingested.to_dict() if self.ingested else None,
                "rules": [r.to_dict() for r in self.rules],
                "pending": [r.to_dict() for r in self.pending]}


class WorkingMemory:
    """One session's short-term memory; get it from ``Memory.session(id)``."""

    def __init__(self, memory: Facade, scope: Scope, info: SessionInfo) -> None:
        self._memory = memory
        self.scope = scope
        self._info = info
        self._turns = memory.store.turns(scope, info.id)
        self._shown: str | None = None
        self._layer_writer: LayerWriter | None = None  # the LLM that words the layers
        self._layer_writer_read = False

    # ---------------------------------------------------------------- reading

    @property
    def id(self) -> str:
        return self._info.id

    @property
    def settings(self) -> Settings:
        return self._info.settings

    @property
    def summary(self) -> str:
        return self._info.summary

    @property
    def notes(self) -> list[str]:
        return list(self._info.notes)

    @property
    def ended(self) -> bool:
        return self._info.ended_at is not None

    def turns(self) -> list[Turn]:
        """Every turn of the session, folded ones included, oldest first."""
        return list(self._turns)

    def window(self) -> list[Turn]:
        """The turns in the window: pinned ones and those not folded into the summary."""
        return [t for t in self._turns if t.pinned or not t.folded]

    def to_prompt(self) -> str:
        return render(self._shown_summary(), self.window())

    def _shown_summary(self) -> str:
        """The summary as the window shows it: whole, unless the pinned and kept turns leave
        too little room (degraded), then its most valuable lines that fit."""
        if self._shown is None:
            self._shown = fit_summary(self._info.summary, self.window(), self.settings)
        return self._shown

    def messages(self) -> list[dict[str, str]]:
        """The window as chat messages: the summary and pinned turns as one system message,
        then the recent turns with their roles."""
        head = render(self._shown_summary(), [t for t in self.window() if t.pinned])
        out = [{"role": "system", "content": head}] if head else []
        return out + [{"role": t.role, "content": t.content} for t in self.window()
                      if not t.pinned]

    @property
    def tokens(self) -> int:
        return count_tokens(self.to_prompt(), self.settings.encoding)

    @property
    def over_budget(self) -> bool:
        return self.tokens > self.settings.budget

    def fetch(self, ref: str) -> str:
        """The whole content of an offloaded turn."""
        if not isinstance(ref, str) or not ref:
            raise Invalid("give an offload reference (wm-...)")
        blob = self._memory.store.blob(self.scope, ref)
        if blob is None:
            raise NotFound(f"no offloaded content {ref!r} for user={self.scope.user} "
                           f"agent={self.scope.agent}")
        return blob.content

    def to_dict(self) -> dict[str, Any]:
        info = self._info
        return {"id": info.id, "settings": info.settings.to_dict(),
                "created_at": info.created_at.isoformat(),
                "ended_at": info.ended_at.isoformat() if info.ended_at else None,
                "tokens": self.tokens, "over_budget": self.over_budget,
                "summary": info.summary, "notes": info.notes,
                "layers": self.layers().to_dict(),
                "turns": len(self._turns), "window": [t.to_dict() for t in self.window()],
                "prompt": self.to_prompt()}

    def layers(self, every: int | None = None, higher: int | None = None) -> Layers:
        """Its layered summaries: one every ``every`` turns, a higher one every ``higher`` of
        those, and a keyframe around each important turn (working/layers.py)."""
        from .layers import EVERY, HIGHER

        if not self._layer_writer_read:  # the configured LLM words them (working/layers_llm)
            self._layer_writer = LayerWriter.from_config(self._memory.config)
            self._layer_writer_read = True
        return layers(self._turns, EVERY if every is None else every,
                      HIGHER if higher is None else higher, self._layer_writer)

    # ---------------------------------------------------------------- writing

    def add(self, role: str, content: str, *, pin: bool = False) -> Turn:
        """Append a turn; offload it when heavy; fold older turns when over budget."""
        self._check_open()
        role, content = _check_turn(role, content, pin)
        content, masked = screen_turn(self._memory, self.scope, self.id, content)  # PII policy
        now = self._memory._now()
        enc = self.settings.encoding
        tokens = count_tokens(content, enc)
        blob = None
        if tokens > self.settings.offload_tokens and not pin:
            blob = Blob(f"wm-{new_id(now)}", self.id, content, tokens, now)
            content = reference(blob)
        turn = Turn(seq=len(self._turns) + 1, role=role, content=content, at=now,
                    tokens=count_tokens(content, enc), pinned=pin,
                    ref=blob.ref if blob else None)
        turns = [*self._turns, turn]
        folded, info = self._compact(turns, now)
        store = self._memory.store
        with store.transaction():
            if blob is not None:
                store.put_blob(self.scope, blob)
            if masked is not None:
                store.put_pii(self.scope, pii_key(self.id), masked.values)
            store.add_turn(self.scope, self.id, turn)
            if folded:
                store.fold_turns(self.scope, self.id, sorted(folded))
            store.save_session(self.scope, info)
        self._turns = [t if t.seq not in folded else _folded(t) for t in turns]
        self._info, self._shown = info, None
        return turn

    def apply_settings(self, settings: Settings) -> None:
        """New settings (a smaller budget folds at once), saved with the session."""
        now = self._memory._now()
        self._info = self._info.replace(settings=settings)
        folded, info = self._compact(list(self._turns), now)
        store = self._memory.store
        with store.transaction():
            if folded:
                store.fold_turns(self.scope, self.id, sorted(folded))
            store.save_session(self.scope, info)
        self._turns = [t if t.seq not in folded else _folded(t) for t in self._turns]
        self._info, self._shown = info, None

    def end(self) -> Handover:
        """Close the session (adding to it is then a Conflict) and hand it to long-term memory,
        in one transaction: the turns go through ``Memory.ingest`` (turn events and what the
        extractor finds, linked to their turns) and each pinned turn is kept as a rule. The
        hand-over lists the scope's open pending items, overdue first (io/profile.py)."""
        self._check_open()
        now = self._memory._now()
        info = self._info.replace(ended_at=now, updated_at=now)
        messages = [{"role": t.role, "content": t.content, "at": t.at} for t in self._turns]
        pinned = [t.content for t in self._turns if t.pinned]
        scope = {"user": self.scope.user, "agent": self.scope.agent}
        said = revealed(self._memory, self.scope, self.id, [m["content"] for m in messages])
        with self._memory.store.transaction():
            self._memory.store.save_session(self.scope, info)
            report = (self._memory.ingest([{**m, "content": text} for m, text
                                           in zip(messages, said, strict=True)],
                                          session=self.id, **scope) if messages else None)
            rules = [self._memory.remember(text, kind="rule", session=self.id, at=now, **scope)
                     for text in revealed(self._memory, self.scope, self.id, pinned)]
            self._memory.store.put_pii(self.scope, pii_key(self.id), {})  # now kept long-term
            pending = pending_at_end(self._memory.store, self.scope, now)
        self._info = info
        return Handover(session=self.id, ended_at=now, messages=messages,
                        summary=info.summary, pinned=pinned, ingested=report, rules=rules,
                        pending=pending)

    # ---------------------------------------------------------------- compaction

    def _compact(self, turns: list[Turn], now: datetime) -> tuple[set[int], SessionInfo]:
        """Fold the oldest foldable turns until the window fits; returns the folded seqs and
        the session's new state (nothing is written here)."""
        s = self.settings
        lines = [x for x in self._info.summary.splitlines() if x.strip()]
        notes = list(self._info.notes)
        folded: set[int] = set()
        kept = {t.seq for t in turns[-s.keep:]} if s.keep else set()

        def window() -> list[Turn]:
            return [t for t in turns if t.pinned or not (t.folded or t.seq in folded)]

        while not surely_fits(lines, window(), s) and (over := count_tokens(
                render("\n".join(lines), window()), s.encoding) - s.budget) > 0:
            foldable = [t for t in window() if not t.pinned and t.seq not in kept]
            if not foldable:
                break
            batch, freed = [], 0
            for t in foldable:  # the oldest first, enough of them to free the overflow
                batch.append(t)
                freed += t.tokens
                if freed >= over:
                    break
            lines = self._summarize(lines, batch, notes)
            folded.update(t.seq for t in batch)
        summary = "\n".join(lines)
        return folded, self._info.replace(summary=summary, notes=notes, updated_at=now)

    def _summarize(self, lines: list[str], batch: list[Turn], notes: list[str]) -> list[str]:
        s = self.settings
        cap = s.budget // SUMMARY_SHARE
        if s.summarizer == "llm":
            try:
                new = ChatSummarizer().summarize("\n".join(lines), batch, cap)
                return trim(new, cap, s.encoding)
            except EngramError as exc:
                notes.append(f"turns {batch[0].seq}-{batch[-1].seq}: LLM summary failed "
                             f"({exc}); extractive summary used")
        return trim(fold(lines, batch), cap, s.encoding)

    def _check_open(self) -> None:
        if self.ended:
            raise Conflict(f"session {self.id!r} has ended: start a new session to add turns")


def surely_fits(lines: list[str], window: list[Turn], s: Settings) -> bool:
    """A cheap bound, so that a window far under its budget is never counted whole: each
    turn's own tokens plus a margin for its "role: " and line break, plus the headers."""
    bound = (sum(t.tokens + TURN_MARGIN for t in window) + HEADS_MARGIN
             + sum(count_tokens(x, s.encoding) + 1 for x in lines))
    return bound <= s.budget


def fit_summary(summary: str, window: list[Turn], s: Settings) -> str:
    """The summary lines that fit beside the window's turns: all of them unless degraded."""
    lines = [x for x in summary.splitlines() if x.strip()]
    while lines and (over := count_tokens(render("\n".join(lines), window), s.encoding)
                     - s.budget) > 0:
        lines = trim(lines, count_tokens("\n".join(lines), s.encoding) - over, s.encoding)
    return "\n".join(lines)


def render(summary: str, window: list[Turn]) -> str:
    """The window as text: the summary, the pinned turns, the recent turns (empty parts
    left out)."""
    parts = []
    if summary.strip():
        parts.append(f"{SUMMARY_HEAD}\n{summary.strip()}")
    pinned = [t for t in window if t.pinned]
    recent = [t for t in window if not t.pinned]
    if pinned:
        parts.append(PINNED_HEAD + "\n" + "\n".join(f"{t.role}: {t.content}" for t in pinned))
    if recent:
        parts.append(RECENT_HEAD + "\n" + "\n".join(f"{t.role}: {t.content}" for t in recent))
    return "\n\n".join(parts)


def reference(blob: Blob) -> str:
    """The line an offloaded turn stands as: its reference, size and first line."""
    first = next((ln.strip() for ln in blob.content.splitlines() if ln.strip()), "")
    if len(first) > PREVIEW_CHARS:
        first = first[: PREVIEW_CHARS - 1] + "…"
    lines = len(blob.content.splitlines()) or 1   # a last newline ends a line, adds none
    return f"[offloaded {blob.ref}: {blob.tokens} tokens, {lines} lines; fetch to read] {first}"


def _folded(turn: Turn) -> Turn:
    return Turn(**{**turn.__dict__, "folded": True})


def _check_turn(role: object, content: object, pin: object) -> tuple[str, str]:
    if not isinstance(role, str) or role not in ROLES:
        raise Invalid(f"role must be one of {', '.join(ROLES)}, got {role!r}")
    if not isinstance(content, str) or not content.strip():
        raise Invalid("content is empty")
    if not storable(content):
        raise Invalid("content is not valid Unicode text (it holds a lone surrogate)")
    if len(content.encode("utf-8")) > MAX_TURN_BYTES:
        raise Invalid(f"content is over {MAX_TURN_BYTES // (1024 * 1024)} MiB")
    if not isinstance(pin, bool):
        raise Invalid(f"pin must be true or false, got {pin!r}")
    return role, content

"""Context assembly: the block an agent puts in its prompt at the start of a turn, within a token
budget, in a stable layout (docs/context.md).

Layout (empty sections are left out; each starts with its ``## Title`` line):

    ## Identity           boot (boot.py): P0, core://agent/, core://user/, the system://boot list
    ## Rules              current rule memories, most important first
    ## Active goal        extension point: lines the attention layer supplies (goal stack)
    ## Procedures         extension point: procedures the query or goal triggers
    ## Relevant memories  recall(query), best first, each with its date; superseded values only
                          when the query asks about the past or names a time (recall's routing)
    ## Due for review     Config.review_due memories due for review (dynamics/review.py); 0: none
    ## Session summary    the working-memory summary of the folded turns   (with a session)
    ## Pinned             the session's pinned turns                        (with a session)
    ## Recent turns       the session's turns in the window, oldest first   (with a session)
    ## Cut                what did not fit, one line each (at most MAX_CUT_LINES, then a count)

What fits is decided item by item in a fixed priority order, not the layout order: identity,
rules, pinned turns, the goal, the latest turn, procedures, memories (best first), the due
reviews, the other
recent turns (newest first), summary lines (newest first). An item that does not fit is cut and
the next one is tried. When something is cut, the fill is redone with room kept for the Cut
section (enough to name one item, at least 1/8 of the budget, at most 1/4). The Cut section
lists as many cut items as fit (at most MAX_CUT_LINES), then
"- and N more"; if not even "- N items" fits, the lowest-priority items kept give way to it.
``tokens`` is the exact count of ``text`` in the encoding, never above the budget (with a
budget too small even for "- N items", ``text`` is empty and ``cut`` lists everything)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import Invalid, NotFound
from ..model import MAX_K, Kind, Record, Scope
from ..store.protocol import ListFilter
from ..text.tokens import check_encoding, count_tokens
from .boot import boot

if TYPE_CHECKING:
    from ..facade import Facade

TITLES = {
    "identity": "Identity", "rules": "Rules", "goal": "Active goal",
    "procedures": "Procedures", "memories": "Relevant memories", "review": "Due for review",
    "summary": "Session summary",
    "pinned": "Pinned", "recent": "Recent turns",
}
LAYOUT = tuple(TITLES)
MAX_CUT_LINES = 8
LABEL_CHARS = 40
_DATED = re.compile(r"^\[[^\]]*\] ")  # a memory's date: not part of its label


@dataclass(frozen=True)
class ContextSection:
    name: str            # identity | rules | goal | procedures | memories | summary | ...
    title: str
    lines: list[str]
    tokens: int          # of the section's block as it stands in the text

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "lines": self.lines,
                "tokens": self.tokens}


@dataclass(frozen=True)
class Cut:
    """An item left out for the budget: its section, a short label, its own token count."""

    section: str
    label: str
    tokens: int

    def to_dict(self) -> dict[str, Any]:
        return {"section": self.section, "label": self.label, "tokens": self.tokens}


@dataclass(frozen=True)
class Context:
    """What ``Memory.context()`` returns: the prompt block and how it was made."""

    text: str
    tokens: int
    budget: int
    encoding: str
    sections: list[ContextSection] = field(default_factory=list)
    cut: list[Cut] = field(default_factory=list)
    # the memories whose lines the text holds, for a caller that links what it answers to
    # them (the agent's semantic cache, agent/cache.py); not part of the shown block
    memory_ids: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "tokens": self.tokens, "budget": self.budget,
                "encoding": self.encoding, "sections": [s.to_dict() for s in self.sections],
                "cut": [c.to_dict() for c in self.cut]}

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Item:
    section: str
    line: str
    rank: float          # fill priority: lower goes first
    order: int           # place inside its section
    memory_id: str | None = None   # the memory the line states, if it is one


def assemble(memory: Facade, scope: Scope, query: str, budget: int, *,
             session: str | None = None, k: int = 8, track: bool = True,
             encoding: str | None = None, goal: Sequence[str] = (),
             procedures: Sequence[str] = (), shown: Sequence[str] = (),
             review: Sequence[str] = ()) -> Context:
    enc = check_encoding(encoding or memory.config.encoding)
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise Invalid(f"budget must be a positive integer of tokens, got {budget!r}")
    # the session first: an unknown session fails before the tracked recall writes anything
    turns = _session(memory, scope, session) if session is not None else []
    items = _long_term(memory, scope, query, k, track, set(shown))
    items += [Item("goal", line, 30, i) for i, line in enumerate(goal)]
    items += [Item("procedures", line, 50, i) for i, line in enumerate(procedures)]
    items += [Item("review", line, 65, i) for i, line in enumerate(review)]
    return fit(items + turns, budget, enc)


def _long_term(memory: Facade, scope: Scope, query: str, k: int, track: bool,
               shown: set[str]) -> list[Item]:
    """Identity, rules and the relevant memories; ``shown``: ids placed in another section
    (the triggered procedures), not repeated."""
    known = boot(memory.store, scope, with_profile=False).memories
    items = [Item("identity", f"- {r.content}", 10, i, r.id) for i, r in enumerate(known)]
    seen = {r.id for r in known} | shown
    rules = sorted((r for r in memory.store.list(scope, ListFilter(
        kinds=(Kind.RULE.value,), current_only=True)) if r.id not in seen),
        key=lambda r: (-r.importance, r.id))
    items += [Item("rules", f"- {r.content}", 20, i, r.id) for i, r in enumerate(rules)]
    seen |= {r.id for r in rules}
    if k == 0:  # no unprompted recall (the agent's persona: agent/persona.py)
        return items
    wanted = min(k + len(seen), MAX_K)  # identity and rules are shown already: k besides them
    hits = memory.recall(query, wanted, track=track, user=scope.user, agent=scope.agent,
                         relevance_floor=memory.config.answer_floor)
    found = [h.memory for h in hits if h.memory.id not in seen][:k]
    items += [Item("memories", memory_line(r), 60, i, r.id) for i, r in enumerate(found)]
    return items


def memory_line(rec: Record) -> str:
    """A memory with its date; a superseded one with the span it held."""
    if rec.invalid_at is not None:
        return f"- [{rec.at.date()} → {rec.invalid_at.date()}, superseded] {rec.content}"
    return f"- [{rec.at.date()}] {rec.content}"


def _session(memory: Facade, scope: Scope, session_id: str) -> list[Item]:
    from ..working.open import check_session_id
    from ..working.session import WorkingMemory

    info = memory.store.session(scope, check_session_id(session_id))
    if info is None:
        raise NotFound(f"no session {session_id!r} for user={scope.user} agent={scope.agent}")
    wm = WorkingMemory(memory, scope, info)
    lines = [x for x in info.summary.splitlines() if x.strip()]
    n = len(lines)
    items = [Item("summary", line, 80 + (n - i) / (n + 1), i) for i, line in enumerate(lines)]
    window = wm.window()
    recent = [t for t in window if not t.pinned]
    items += [Item("pinned", f"{t.role}: {t.content}", 25, t.seq) for t in window if t.pinned]
    for i, t in enumerate(recent):
        newest = i == len(recent) - 1
        items.append(Item("recent", f"{t.role}: {t.content}",
                          40 if newest else 70 + (len(recent) - i) / (len(recent) + 1), t.seq))
    return items


def fit(items: list[Item], budget: int, encoding: str) -> Context:
    """Keep items in priority order while they fit; list the rest in the Cut section."""
    ordered = sorted(items, key=lambda x: (x.rank, x.order))
    kept, cut = _greedy(ordered, budget, encoding)
    if cut:  # leave room for the Cut lines to name what was left out
        kept, cut = _greedy(ordered, budget - _reserve(cut[0], budget, encoding), encoding)
    text = render(kept)
    while cut:
        text = _with_cut(kept, cut, budget, encoding)
        if text is not None:
            break
        if not kept:  # not even the shortest Cut section fits
            kept, cut, text = [], ordered, ""
            break
        cut.insert(0, kept.pop())  # the lowest-priority kept item gives way to the Cut lines
    return Context(text=text, tokens=count_tokens(text, encoding), budget=budget,
                   encoding=encoding, sections=_sections(kept, encoding),
                   cut=[Cut(c.section, _label(c.line), count_tokens(c.line, encoding))
                        for c in sorted(cut, key=lambda x: (x.rank, x.order))],
                   memory_ids=[x.memory_id for x in kept if x.memory_id is not None])


def _reserve(first: Item, budget: int, encoding: str) -> int:
    """Room for the Cut section: enough to name one item and count the rest, at least 1/8 of
    the budget, at most 1/4."""
    one = count_tokens(_block("cut", [_cut_line(first, encoding), "- and 99 more"]), encoding)
    return min(budget // 4, max(budget // 8, one)) + 2  # 2: the blank line before it


def _cut_line(c: Item, encoding: str) -> str:
    return f"- {c.section}: {_label(c.line)} ({count_tokens(c.line, encoding)} tokens)"


def _greedy(ordered: list[Item], limit: int, encoding: str) -> tuple[list[Item], list[Item]]:
    kept: list[Item] = []
    cut: list[Item] = []
    for item in ordered:
        if count_tokens(render(kept + [item]), encoding) <= limit:
            kept.append(item)
        else:
            cut.append(item)
    return kept, cut


def render(kept: list[Item], cut_lines: Sequence[str] = ()) -> str:
    blocks = [_block(name, lines) for name in LAYOUT if (lines := _lines_of(kept, name))]
    if cut_lines:
        blocks.append(_block("cut", list(cut_lines)))
    return "\n\n".join(blocks)


def _with_cut(kept: list[Item], cut: list[Item], budget: int, encoding: str) -> str | None:
    """The text with as many Cut lines as fit (the rest counted in a last line), or None
    when not even the count fits."""
    ordered = sorted(cut, key=lambda x: (x.rank, x.order))
    lines = [_cut_line(c, encoding) for c in ordered[:MAX_CUT_LINES]]
    for shown in range(len(lines), -1, -1):
        rest = len(ordered) - shown
        tail = [f"- and {rest} more" if shown else f"- {rest} items"] if rest else []
        text = render(kept, lines[:shown] + tail)
        if count_tokens(text, encoding) <= budget:
            return text
    return None


def _lines_of(kept: list[Item], name: str) -> list[str]:
    return [x.line for x in sorted((x for x in kept if x.section == name), key=lambda x: x.order)]


def _block(name: str, lines: list[str]) -> str:
    return "## " + TITLES.get(name, "Cut") + "\n" + "\n".join(lines)


def _label(line: str) -> str:
    text = " ".join(_DATED.sub("", line.lstrip("- ")).split())
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


def _sections(kept: list[Item], encoding: str) -> list[ContextSection]:
    out = []
    for name in LAYOUT:
        lines = _lines_of(kept, name)
        if lines:
            out.append(ContextSection(name, TITLES[name], lines,
                                      count_tokens(_block(name, lines), encoding)))
    return out

"""Each hit's verdict: does what it says still hold? "approved" or "questionable", with a
confidence, and the reasons, read from what the recall already holds (no store query, no
model call).

Each reason is a chance that the memory no longer holds, from one signal:

- **superseded** (0.9): a newer value replaced it (``invalid_at``; it is shown for a question
  about the past, or by its span);
- **newer value** (0.75): a newer hit states another value of what it states (recall/
  conflicts.py marked the pair);
- **contradicted** (0.5): another current hit fills the same slot (subject and attribute,
  write/slots.py) with another value, and neither says it changed: one of the two is wrong;
- **unconfirmed**: a fact or preference not stated again, recalled or confirmed for ``t``
  days has changed with chance ``1 - 2 ** (-t / period)`` (dynamics/stilltrue.py: the
  period grows with its priority and importance, ``Config.still_true_days``);
- **weak** (0.2): it was woken from the archive, or its strength is under the archive line;
- **inferred**: worded by a model (LLM extraction, 0.15), a summary of other memories (a gist,
  0.15), or said by the assistant, not the user (0.2). Said by the user (their own words, or
  written through the API) adds nothing.

The reasons combine as independent chances (``doubt = 1 - prod(1 - p)``). A doubt of 0.5 or
more is "questionable" with confidence ``doubt``; below, "approved" with ``1 - doubt``. So a
fact past its "still true?" period is questionable on that alone, as it is queued.
``Verdict.text()`` (engramdb/verdict.py) says it in the question's language, English or
Chinese; the CLI's ``--explain``, the MCP recall text and the web page's search show it beside
the hit's one-line ``why`` (which stays recall/why.py's)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..dynamics.stilltrue import QUEUE_KINDS, standing
from ..model import Hit, Kind, Layer, Record
from ..text import is_cjk
from ..text.lang import script
from ..verdict import APPROVED, EN, QUESTIONABLE, Reason, Verdict
from ..write.slots import slot_of
from .conflicts import EARLIER, later_of, stating
from .conflicts import NEWER as NEWER_TERM

SUPERSEDED, NEWER, CONTRADICTED = 0.9, 0.75, 0.5
WEAK, BY_MODEL, SUMMARY, BY_ASSISTANT = 0.2, 0.15, 0.15, 0.2
CHECKED = 20     # hits compared for contradictions


def judge(hits: Sequence[Hit], query: str, now: datetime, still_true_days: float,
          archive_below: float) -> None:
    """Set each hit's verdict, said in the question's language."""
    lang = script(query)
    against = contradictions(hits, query)
    for hit in hits:
        reasons = _reasons(hit, now, still_true_days, archive_below)
        if hit.memory.id in against:
            reasons.append(Reason("contradicted", CONTRADICTED, against[hit.memory.id]))
        hit.verdict = verdict(reasons, lang)


def verdict(reasons: list[Reason], lang: str = EN) -> Verdict:
    held = 1.0
    for r in reasons:
        held *= 1.0 - r.weight
    doubt = 1.0 - held
    if doubt >= 0.5:
        return Verdict(QUESTIONABLE, doubt, doubt, reasons, lang)
    return Verdict(APPROVED, 1.0 - doubt, doubt, reasons, lang)


def _reasons(hit: Hit, now: datetime, still_true_days: float,
             archive_below: float) -> list[Reason]:
    rec, out = hit.memory, []
    if rec.invalid_at is not None:
        out.append(Reason("superseded", SUPERSEDED, rec.superseded_by or ""))
    if hit.explanation.terms.get(EARLIER):
        out.append(Reason("newer_value", NEWER, later_of(hit) or ""))
    if rec.kind in QUEUE_KINDS and rec.invalid_at is None and still_true_days > 0:
        s = standing(rec, now, still_true_days)
        out.append(Reason("unconfirmed", s.doubt, f"{max(s.unconfirmed_days, 0.0):.0f}"))
    if hit.woken or rec.layer == Layer.ARCHIVED or hit.explanation.strength < archive_below:
        out.append(Reason("weak", WEAK))
    out += source(rec)
    return out


def source(rec: Record) -> list[Reason]:
    """Who worded it: a model, a summary of other memories, the assistant; none for the
    user's own words."""
    if rec.metadata.get("extractor") == "llm":
        return [Reason("by_model", BY_MODEL)]
    if rec.kind == Kind.GIST or rec.derived_from:
        return [Reason("summary", SUMMARY)]
    role = rec.metadata.get("role")
    if isinstance(role, str) and role not in ("user", "") and "speaker" not in rec.metadata:
        return [Reason("by_assistant", BY_ASSISTANT)]
    return []


def contradictions(hits: Sequence[Hit], query: str) -> dict[str, str]:
    """Hit id -> the id of another current hit that fills the same slot with another value
    (among the first CHECKED hits in the question's script; a pair recall/conflicts.py
    already ordered, where the newer said the change, is left to it)."""
    asked = is_cjk(query)
    slots = {}
    for h in hits[:CHECKED]:
        rec = h.memory
        if rec.current and stating(rec) and is_cjk(rec.content) == asked:
            found = slot_of(rec.content, rec.kind)
            if found is not None:
                slots[rec.id] = found
    out: dict[str, str] = {}
    marked = {h.memory.id for h in hits if h.explanation.terms.get(EARLIER)
              or h.explanation.terms.get(NEWER_TERM)}
    for a, sa in slots.items():
        for b, sb in slots.items():
            if a != b and sa.key == sb.key and sa.value != sb.value and a not in marked:
                out.setdefault(a, b)
    return out

"""A conversation message over the content limit (a pasted 300 KB log) is kept, not skipped:
its whole text goes to a blob of working memory (working/state.py, as a heavy working-memory
turn does), and the turn event holds its head, a reference line and an extractive summary of
the rest (working/summary.py: the sentences with a decision, date, number or name), so that
recall finds it and ``session(<ingest session>).fetch(ref)`` returns the text whole.
The event's metadata names the blob (``offloaded``) and the original size (``bytes``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from ..errors import Invalid
from ..ids import new_id
from ..model import Draft
from ..text.tokens import estimate_tokens
from ..working.open import check_session_id
from ..working.state import Blob
from ..working.summary import marks, sentences, value
from .extract import Turn

HEAD_BYTES = 2000       # the head of the text the event keeps (a long head buries the
#                         summary and costs the event its text match: BM25 weighs by length)
SUMMARY_LINES = 20      # at most this many summary sentences
LINE_CHARS = 240        # each at most this long
SCAN_SENTENCES = 5000   # the summary reads at most this many sentences of the rest
SCAN_CHARS = 1_000_000  # and at most this many characters of it


@dataclass
class Offloaded:
    index: int          # the turn's index in the conversation
    blob: Blob
    size: int           # the original text's UTF-8 bytes


def offload_long(turns: list[Turn], limit: int, session: str,
                 now: datetime) -> tuple[list[Turn], list[Offloaded]]:
    """The turns with each one over ``limit`` bytes replaced by its stand-in text, and the
    blobs to store."""
    out, blobs = [], []
    for turn in turns:
        text = turn.message.content
        size = len(text.encode("utf-8"))
        if size <= limit:
            out.append(turn)
            continue
        # the character estimate: a pure-Python BPE takes minutes on a 300 KB paste (and is
        # quadratic on a long run of one character); the count is only informative here
        blob = Blob(f"wm-{new_id(now)}", session, text, estimate_tokens(text), now)
        blobs.append(Offloaded(turn.index, blob, size))
        out.append(replace(turn, message=replace(turn.message,
                                                 content=stand_in(blob, size, limit))))
    return out, blobs


def stand_in(blob: Blob, size: int, limit: int) -> str:
    """Head, reference line and summary, within ``limit`` bytes."""
    text = blob.content
    lines = len(text.splitlines()) or 1   # a last newline ends a line, adds none
    ref = (f"[offloaded {blob.ref}: {size} bytes, about {blob.tokens} tokens, {lines} lines; "
           "fetch to read it whole]")
    head = _cut(text, min(HEAD_BYTES, limit // 4))
    out = f"{head}\n{ref}"
    summary = summarize(text[len(head):])
    if summary:
        out += "\nSummary:\n" + "\n".join(f"- {s}" for s in summary)
    return _cut(out, limit)


def summarize(text: str) -> list[str]:
    """The rest's sentences that carry something (decision, date, number, name), the most
    valuable first among them kept in text order, each once."""
    found = []
    cut = (s[:LINE_CHARS] for s in sentences(text[:SCAN_CHARS]))  # a line of 30,000 CJK
    for pos, sentence in enumerate(list(dict.fromkeys(cut))[:SCAN_SENTENCES]):  # characters
        if marks(sentence):                     # is read as 240: its names are tagged fast
            found.append((-value(sentence), pos, sentence))
    best = sorted(found)[:SUMMARY_LINES]
    return [s for _, _, s in sorted(best, key=lambda f: f[1])]


def _cut(text: str, limit: int) -> str:
    """At most ``limit`` UTF-8 bytes of ``text``, never splitting a character."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", errors="ignore")


def blob_session(session: str, now: datetime) -> str:
    """The working session the blobs go to: the ingest's session when it is a valid working
    session id, else a new one ("ingest-<id>")."""
    try:
        return check_session_id(session)
    except Invalid:
        return f"ingest-{new_id(now)}"


def with_blobs(drafts: list[Draft], offloaded: list[Offloaded]) -> list[Draft]:
    """The turn events' drafts, each offloaded one naming its blob in its metadata."""
    by_turn = {o.index: o for o in offloaded}
    for draft in drafts:
        off = by_turn.get(int(draft.turn or -1))
        if off is not None:
            draft.metadata = {**(draft.metadata or {}), "offloaded": off.blob.ref,
                              "offload_session": off.blob.session_id, "bytes": off.size}
    return drafts

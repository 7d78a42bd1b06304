"""Layered summaries of a session: every ``every`` turns a summary of those turns (level 1),
every ``higher`` level-1 summaries a summary of them (level 2), and a keyframe summary around
each important turn. Extractive and pure: computed from the stored turns whenever asked, so a
session reopened after a restart has the same layers, and nothing is written.

A sentence is taken by working/summary.py's rules (a decision, a date, a name, a number;
chatter is left out) and scored by its value there; a level-1 summary keeps its
``SENTENCES`` best sentences in the order they were said, a level-2 summary the best of its
level-1 sentences, ties going to the later sentence (the latest decision counts most). Every
sentence carries its sources: the turn numbers (``seq``) it came from, so a summary can always
be checked against what was said.

A turn is important when it is pinned (marked by the caller), or says that it is ("important",
"remember this", "critical", "重要", "记住", "关键"...), or is a decision said with a strong
feeling (text/emotion.py intensity >= ``INTENSE``). Its keyframe summary is its first
sentences and the last ones of the turn before it (what it answered), each with its source.

With an LLM configured (``Config.llm_url``), the level-1 and level-2 summaries are written by
the model instead, each sentence still naming its turns, checked, and the extractive summary
kept with the reason in ``note`` when the answer is refused or the call fails
(working/layers_llm.py); ``writer`` says which wrote each summary."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import EngramError, Invalid
from ..text.emotion import read_emotion
from .layers_llm import LayerWriter, turn_items
from .state import Turn
from .summary import MAX_LINE_CHARS, marks, sentences, value

EVERY = 8          # turns per level-1 summary
HIGHER = 4         # level-1 summaries per level-2 summary
SENTENCES = 3      # sentences a summary keeps
INTENSE = 0.5
_IMPORTANT = re.compile(
    r"\b(?:important|importantly|crucial|critical|remember\s+(?:this|that)|don't\s+forget|"
    r"do\s+not\s+forget|key\s+point|urgent|high\s+priority|top\s+priority|note\s+this)\b"
    r"|重要|记住|别忘了|不要忘记|关键|紧急|务必记得|划重点", re.IGNORECASE)


@dataclass(frozen=True)
class Sentence:
    text: str                      # "role: sentence"
    sources: tuple[int, ...]       # the turns (seq) it came from
    score: int

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "sources": list(self.sources)}


@dataclass(frozen=True)
class Summary:
    level: int                     # 1: of turns, 2: of level-1 summaries, 0: a keyframe
    turns: tuple[int, int]         # the first and last turn it covers
    sentences: tuple[Sentence, ...]
    parts: tuple[int, ...] = ()    # a level-2 summary: the indexes of its level-1 summaries
    reason: str | None = None      # a keyframe: why its turn is important
    writer: str = "extractive"     # or "llm" (working/layers_llm.py)
    note: str | None = None        # why the LLM's summary was not used

    @property
    def text(self) -> str:
        return "\n".join(s.text for s in self.sentences)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"level": self.level, "turns": list(self.turns),
                               "text": self.text,
                               "sentences": [s.to_dict() for s in self.sentences]}
        if self.level == 2:
            out["parts"] = list(self.parts)
        if self.reason is not None:
            out["reason"] = self.reason
        out["writer"] = self.writer
        if self.note is not None:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class Layers:
    every: int
    higher: int
    summaries: list[Summary] = field(default_factory=list)     # level 1, oldest first
    higher_summaries: list[Summary] = field(default_factory=list)
    keyframes: list[Summary] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"every": self.every, "higher": self.higher,
                "summaries": [s.to_dict() for s in self.summaries],
                "higher_summaries": [s.to_dict() for s in self.higher_summaries],
                "keyframes": [s.to_dict() for s in self.keyframes]}


def check_steps(every: object, higher: object) -> tuple[int, int]:
    for name, n in (("every", every), ("higher", higher)):
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 1000:
            raise Invalid(f"{name} must be an integer from 2 to 1000, got {n!r}")
    return every, higher  # type: ignore[return-value]


def layers(turns: Sequence[Turn], every: int = EVERY, higher: int = HIGHER,
           writer: LayerWriter | None = None) -> Layers:
    """The session's layered summaries (a level-1 summary once ``every`` turns are there; a
    level-2 one once ``higher`` level-1 summaries are); ``writer``: the LLM that words them."""
    every, higher = check_steps(every, higher)
    turns = sorted(turns, key=lambda t: t.seq)
    said = {t.seq: t.content for t in turns}
    if writer is not None:
        writer.down = None  # a new call: the endpoint gets one more chance
    firsts = [turns[i:i + every] for i in range(0, len(turns) - every + 1, every)]
    level1 = [_worded(_summary(1, chunk[0].seq, chunk[-1].seq, _sentences(chunk)),
                      turn_items(chunk), writer, said) for chunk in firsts]
    level2 = []
    for start in range(0, len(level1) - higher + 1, higher):
        group = level1[start:start + higher]
        pool = [s for part in group for s in part.sentences]
        made = _summary(2, group[0].turns[0], group[-1].turns[1], pool,
                        tuple(range(start, start + higher)))
        items = [(f"- (turns {', '.join(map(str, s.sources))}) {s.text}", s.sources)
                 for s in pool]
        level2.append(_worded(made, items, writer, said))
    return Layers(every, higher, level1, level2, keyframes(turns))


def _worded(extractive: Summary, items: list[tuple[str, tuple[int, ...]]],
            writer: LayerWriter | None, said: dict[int, str]) -> Summary:
    """The LLM's wording of a summary, or the extractive one (with the reason when the
    LLM was asked and its answer was not used)."""
    if writer is None or not items:
        return extractive
    try:
        pairs = writer.write(items, said)
    except EngramError as exc:
        return replace(extractive, note=f"LLM summary not used: {exc}")
    return replace(extractive, writer="llm",
                   sentences=tuple(Sentence(text, turns, 0) for text, turns in pairs))


def important(turn: Turn) -> str | None:
    """Why a turn is important (see the module doc), or None."""
    if turn.pinned:
        return "pinned"
    if _IMPORTANT.search(turn.content):
        return "said to be important"
    if "decision" in marks(turn.content) and read_emotion(turn.content).intensity >= INTENSE:
        return "a decision said with strong feeling"
    return None


def keyframes(turns: Sequence[Turn]) -> list[Summary]:
    out = []
    for i, turn in enumerate(turns):
        reason = important(turn)
        if reason is None:
            continue
        own = _sentences([turn], every_sentence=True)[:SENTENCES]
        before = _sentences(turns[i - 1:i], every_sentence=True)[-SENTENCES:] if i else []
        out.append(Summary(0, (turns[i - 1].seq if i else turn.seq, turn.seq),
                           tuple([*before, *own]), reason=reason))
    return out


def _sentences(turns: Sequence[Turn], every_sentence: bool = False) -> list[Sentence]:
    out: list[Sentence] = []
    for turn in turns:
        for part in dict.fromkeys(sentences(turn.content)):
            score = value(part)
            if score or every_sentence:
                out.append(Sentence(_line(turn.role, part), (turn.seq,), score))
    return out


def _summary(level: int, first: int, last: int, pool: list[Sentence],
             parts: tuple[int, ...] = ()) -> Summary:
    """The ``SENTENCES`` best of ``pool`` (later ones win ties), in the order they came."""
    best = sorted(range(len(pool)), key=lambda i: (-pool[i].score, -i))[:SENTENCES]
    kept = tuple(pool[i] for i in sorted(best))
    return Summary(level, (first, last), kept, parts)


def _line(role: str, sentence: str) -> str:
    text = " ".join(sentence.split())
    if len(text) > MAX_LINE_CHARS:
        text = text[: MAX_LINE_CHARS - 1] + "…"
    return f"{role}: {text}"

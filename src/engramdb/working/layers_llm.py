"""The optional LLM-written layer of a session's layered summaries (working/layers.py).

When an OpenAI-compatible endpoint is configured (``Config.llm_url`` / ``llm_model``:
ENGRAMDB_LLM_URL, ENGRAMDB_LLM_MODEL, ENGRAMDB_LLM_API_KEY, ENGRAMDB_LLM_TIMEOUT), each level-1
and level-2 summary is written by the model, and each of its sentences still names the turns it
came from. The model gets the numbered turns (level 1) or the level-1 sentences with their
turns (level 2) and must answer JSON only:

    {"sentences": [{"text": "...", "turns": [3, 5]}, ...]}

The answer is checked, and one failed check refuses it whole (``Refused`` says which):
JSON of that shape; 1 to ``SENTENCES`` sentences; each a non-empty text of at most
``MAX_LINE_CHARS`` characters in the language of its turns (Chinese turns, a Chinese sentence;
English turns, no Chinese); its ``turns`` a non-empty list of the turn numbers it was shown;
every number written in the sentence (digits) said in those turns (nothing invented). A
refused answer, or a failed call, gives the extractive summary instead, with the reason in
its ``note``. After one failed call the others of the same ``layers()`` are not attempted (a
down endpoint costs one timeout, not one per summary). Keyframes stay extractive (they are the
important turn's own words). Valid answers are kept in the process (the last ``KEPT`` by
endpoint, model and prompt), so asking for the layers again (a session shown after each turn
over HTTP) asks the model only for the summaries that are new."""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from ..config import Config
from ..errors import EngramError
from ..llm.chat import ChatFailed, Endpoint
from ..text.lang import language
from .state import Turn
from .summary import MAX_LINE_CHARS

SENTENCES = 3
KEPT = 1024
Pairs = list[tuple[str, tuple[int, ...]]]   # (sentence, the turns it came from)
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")
_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
SYSTEM = (
    "You summarise part of a conversation between a user and an AI agent. Keep what a later "
    "turn may need: names, numbers, dates, decisions, constraints, open tasks; drop small talk. "
    "Write at most {n} short sentences, each in the language of the turns it comes from "
    "(English or Chinese; never translate), and name for each sentence the numbers of the "
    "turns it comes from. Answer with JSON only: "
    '{{"sentences": [{{"text": "...", "turns": [1, 2]}}]}}')


_KEPT: OrderedDict[tuple[str, str, str], Pairs] = OrderedDict()
_LOCK = threading.Lock()


class Refused(EngramError):
    """The model's answer could not be used; the message says why."""


class LayerWriter:
    """Asks the configured endpoint for one summary at a time, and checks the answer."""

    def __init__(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint
        self.down: str | None = None           # why the endpoint failed in this layers() call

    @classmethod
    def from_config(cls, config: Config) -> LayerWriter | None:
        if not config.llm_url or not config.llm_model:
            return None
        return cls(Endpoint.of(config))

    def write(self, items: Pairs, said: dict[int, str]) -> Pairs:
        """The summary of ``items`` (a line shown to the model, the turns it stands for) as
        (sentence, turns) pairs; ``said``: each turn's text, to check the answer against.
        Raises ``Refused`` (a bad answer) or ``ChatFailed`` (no answer)."""
        prompt = "\n".join(line for line, _ in items)
        key = (self.endpoint.base_url.rstrip("/"), self.endpoint.model, prompt)
        with _LOCK:
            if key in _KEPT:
                _KEPT.move_to_end(key)
                return _KEPT[key]
        if self.down is not None:
            raise ChatFailed(self.down)
        messages = [{"role": "system", "content": SYSTEM.format(n=SENTENCES)},
                    {"role": "user", "content": prompt}]
        try:
            text = self.endpoint.complete(messages, response_format={"type": "json_object"})
        except ChatFailed as exc:
            self.down = str(exc)
            raise
        allowed = {n for _, turns in items for n in turns}
        found = check(text, allowed, said)
        with _LOCK:
            _KEPT[key] = found
            while len(_KEPT) > KEPT:
                _KEPT.popitem(last=False)
        return found


def turn_items(turns: Sequence[Turn]) -> Pairs:
    """A level-1 prompt: each turn numbered by its seq."""
    return [(f"[{t.seq}] {t.role}: {' '.join(t.content.split())}", (t.seq,)) for t in turns]


def check(answer: str, allowed: set[int], said: dict[int, str]) -> Pairs:
    """The (sentence, turns) pairs of a valid answer, or ``Refused``."""
    try:
        data = json.loads(_FENCE.sub("", answer.strip()))
    except ValueError:
        raise Refused("the answer is not JSON") from None
    items = data.get("sentences") if isinstance(data, dict) else None
    if not isinstance(items, list) or not 1 <= len(items) <= SENTENCES:
        raise Refused(f"the answer needs 1 to {SENTENCES} sentences under \"sentences\"")
    return [_item(i, item, allowed, said) for i, item in enumerate(items)]


def _item(i: int, item: Any, allowed: set[int],
          said: dict[int, str]) -> tuple[str, tuple[int, ...]]:
    if not isinstance(item, dict):
        raise Refused(f"sentence {i + 1} is not an object")
    text, turns = item.get("text"), item.get("turns")
    if not isinstance(text, str) or not text.strip():
        raise Refused(f"sentence {i + 1} has no text")
    text = " ".join(text.split())
    if len(text) > MAX_LINE_CHARS:
        raise Refused(f"sentence {i + 1} is longer than {MAX_LINE_CHARS} characters")
    if (not isinstance(turns, list) or not turns
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in turns)):
        raise Refused(f"sentence {i + 1} names no turns")
    stray = sorted(set(turns) - allowed)
    if stray:
        raise Refused(f"sentence {i + 1} names turns it was not shown: {stray}")
    source = " ".join(said.get(n, "") for n in turns)
    if language(source) != language(text):
        raise Refused(f"sentence {i + 1} is not in the language of its turns")
    digits = source.replace(",", "")
    invented = [d for d in _DIGITS.findall(text) if d.replace(",", "") not in digits]
    if invented:
        raise Refused(f"sentence {i + 1} has numbers its turns do not say: {invented}")
    return text, tuple(sorted(set(turns)))


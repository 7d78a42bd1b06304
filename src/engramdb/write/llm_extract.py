"""The optional LLM extractor: any OpenAI-compatible ``/chat/completions`` endpoint, asked for
the memories worth keeping as typed JSON. Configured by ``Config`` (ENGRAMDB_LLM_URL,
ENGRAMDB_LLM_MODEL, ENGRAMDB_LLM_API_KEY, ENGRAMDB_LLM_TIMEOUT); nothing is sent anywhere
unless ENGRAMDB_LLM_URL is set.

The answer must be JSON: ``{"memories": [{"category", "content", "turns", "slot"?}]}`` (a bare
list, or one object per line, is read too). Every item is checked (a known category, text
content in the language of its turns, turn ids that name user turns of this conversation);
one bad item rejects the whole answer: ``ExtractionFailed`` names why and the engine runs the
rule extractor instead, so nothing half-made is stored."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from ..config import Config
from ..errors import ConfigError, EngramError
from ..llm.chat import ChatFailed, Endpoint
from ..model import Draft, Kind
from ..text.tokenize import is_cjk
from .extract import Turn

CATEGORIES = {"fact": Kind.FACT, "preference": Kind.PREFERENCE, "lesson": Kind.LESSON,
              "pending": Kind.PENDING, "event": Kind.EVENT}
MAX_ITEMS_PER_TURN = 10
_CJK = re.compile(r"[\u3400-\u9fff]")
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")
SYSTEM_PROMPT = """You extract long-term memories from a conversation between a user and an \
assistant. Keep only what is worth remembering about the user and the people and things in \
their life: facts, preferences, lessons (rules for next time) and pending items (things to \
do or be reminded of); events only when they are dated episodes. Write each memory as one \
short sentence in the language the user used (never translate), in the first person when \
the user speaks of themself. Answer with JSON only: {"memories": [{"category": \
"fact|preference|lesson|pending|event", "content": "...", "slot": "subject/attribute or \
null", "turns": [ids of the turns it comes from]}]}. Answer {"memories": []} when nothing \
is worth keeping."""


class ExtractionFailed(EngramError):
    """The LLM did not give a usable answer; the message says why."""


class LLMExtractor:
    def __init__(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint

    def extract(self, turns: Sequence[Turn], *, session: str | None = None) -> list[Draft]:
        answer = self._ask(turns)
        return parse_answer(answer, turns, session, self.endpoint.model)

    def _ask(self, turns: Sequence[Turn]) -> str:
        lines = [f"[{t.index}] {t.message.role}"
                 + (f" ({t.message.speaker})" if t.message.speaker else "")
                 + f" at {t.at.isoformat()}: {t.message.content}" for t in turns]
        messages = [{"role": "system", "content": SYSTEM_PROMPT},
                    {"role": "user", "content": "\n".join(lines)}]
        try:
            return self.endpoint.complete(messages, response_format={"type": "json_object"})
        except ChatFailed as exc:
            raise ExtractionFailed(str(exc)) from None


def choose_extractor(config: Config, mode: str) -> LLMExtractor | None:
    """The LLM extractor ``mode`` asks for ("llm", or "auto" with one configured), or None."""
    if mode == "rules" or (mode == "auto" and not config.llm_url):
        return None
    if not config.llm_url or not config.llm_model:
        raise ConfigError("the LLM extractor needs ENGRAMDB_LLM_URL and ENGRAMDB_LLM_MODEL")
    return LLMExtractor(Endpoint.of(config))


def parse_answer(text: str, turns: Sequence[Turn], session: str | None,
                 model: str) -> list[Draft]:
    items = _items(_FENCE.sub("", text.strip()))
    by_index = {t.index: t for t in turns}
    if len(items) > MAX_ITEMS_PER_TURN * len(turns):
        raise ExtractionFailed(f"the LLM returned {len(items)} memories for {len(turns)} "
                               "turns: too many to be real")
    return [_draft(i, item, by_index, session, model) for i, item in enumerate(items)]


def _items(text: str) -> list[Any]:
    try:
        data = json.loads(text)
    except ValueError:
        try:  # JSON lines: one memory per line
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except ValueError:
            raise ExtractionFailed(f"the LLM's answer is not JSON: {text[:80]!r}") from None
    if isinstance(data, dict):
        data = data.get("memories")
    if not isinstance(data, list):
        raise ExtractionFailed("the LLM's answer has no list of memories")
    return data


def _draft(i: int, item: Any, turns: dict[int, Turn], session: str | None,
           model: str) -> Draft:
    def bad(why: str) -> ExtractionFailed:
        return ExtractionFailed(f"the LLM's memory {i} is unusable: {why}")

    if not isinstance(item, dict):
        raise bad("not an object")
    kind = CATEGORIES.get(str(item.get("category", "")).lower())
    content = item.get("content")
    ids = item.get("turns", item.get("evidence"))
    slot = item.get("slot")
    if kind is None:
        raise bad(f"unknown category {item.get('category')!r}")
    if not isinstance(content, str) or not content.strip():
        raise bad("no content")
    if (not isinstance(ids, list) or not ids
            or not all(isinstance(t, int) and not isinstance(t, bool) for t in ids)):
        raise bad("turns must be a non-empty list of turn ids")
    if any(t not in turns or turns[t].message.role != "user" for t in ids):
        raise bad(f"turns {ids} do not all name user turns of this conversation")
    if slot is not None and not isinstance(slot, str):
        raise bad("slot must be text or null")
    said = " ".join(turns[t].message.content for t in ids)
    if is_cjk(said) and not _CJK.search(content):
        raise bad("the user spoke Chinese and the memory is not in Chinese")
    first = turns[ids[0]]
    speaker = first.message.speaker
    meta: dict[str, Any] = {"session": session, "turn": ids[0], "turns": ids,
                            "extractor": "llm", "model": model}
    if slot:
        meta["slot"] = slot
    return Draft(content=content.strip(), kind=kind, at=first.at, session=session,
                 turn=str(ids[0]), people=[speaker] if speaker else None, metadata=meta)

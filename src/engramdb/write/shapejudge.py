"""The optional LLM judge of supersession (issue 13): the ambiguous cases of write/shape.py
asked of the configured OpenAI-compatible endpoint (``Config.llm_url`` / ``llm_model``).

Ambiguous, as write/shape.py decides it: the texts are one aligned sentence and differ in one
short span of plain words with no cue of a change ("Greta likes coffee" / "Greta likes tea":
a changed taste, or a second one?), or only in their subject while predicate and object stay
("Sara manages the Berlin office" / "Tom manages the Berlin office": the office's manager
changed, or two facts about two people?). Without a judge the rules keep both.

The judge is asked whether the new statement replaces the old one (one value of one attribute
of one subject). It answers JSON ``{"replaces": true|false}``; a bare "yes"/"no" is read too.
Any other answer, an HTTP error or a timeout counts as no answer: the rules decide and the
write's evidence says so (``shape_judge``)."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from ..config import Config
from ..errors import ConfigError

if TYPE_CHECKING:
    from ..llm.chat import Endpoint

MODES = ("auto", "rules", "llm")
MAX_ANSWER_TOKENS = 20
PROMPT = (
    "You maintain a memory of facts. A stored statement and a new statement differ in one "
    "place. Does the new statement REPLACE the stored one, because both give a value of the "
    "same attribute of the same subject and that attribute has one value at a time (a new "
    "address, a changed schedule, a new manager of one office)? Or do both hold side by side "
    "(two tastes, two people who like a city, two different attributes)? Answer only JSON: "
    '{"replaces": true} or {"replaces": false}.')
_YES = re.compile(r'^\W*(yes|true|是|对)\W*$', re.I)
_NO = re.compile(r'^\W*(no|false|否|不是)\W*$', re.I)


class LLMShapeJudge:
    """``judge(old, new)`` -> True (the new text replaces the old), False (both stay) or None
    (no usable answer); ``notes`` holds what happened on each call since ``begin()``."""

    def __init__(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint
        self.notes: list[dict[str, Any]] = []

    def begin(self) -> None:
        self.notes = []

    def __call__(self, old: str, new: str) -> bool | None:
        from ..llm.chat import ChatFailed  # httpx loads only when a judge is asked

        messages = [{"role": "system", "content": PROMPT},
                    {"role": "user", "content": f"Stored: {old}\nNew: {new}"}]
        try:
            answer = self.endpoint.complete(messages, max_tokens=MAX_ANSWER_TOKENS)
        except ChatFailed as exc:
            self.notes.append({"model": self.endpoint.model, "failed": str(exc),
                               "decided_by": "rules"})
            return None
        said = read_answer(answer)
        note: dict[str, Any] = {"model": self.endpoint.model, "answer": answer[:200]}
        if said is None:
            note.update(failed="the answer is not {\"replaces\": true|false}",
                        decided_by="rules")
        else:
            note.update(replaces=said, decided_by="llm")
        self.notes.append(note)
        return said


def read_answer(text: str) -> bool | None:
    """True / False from the judge's answer, or None when it says neither plainly."""
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`").removeprefix("json").strip()
    try:
        found = json.loads(body)
    except ValueError:
        found = None
    if isinstance(found, dict) and isinstance(found.get("replaces"), bool):
        return bool(found["replaces"])
    if isinstance(found, bool):
        return found
    if _YES.match(body):
        return True
    if _NO.match(body):
        return False
    return None


def check_mode(mode: object) -> str:
    if mode not in MODES:
        raise ConfigError(f"shape_judge must be auto, rules or llm, got {mode!r}")
    return str(mode)


def choose_judge(config: Config) -> LLMShapeJudge | None:
    """The judge ``Config.shape_judge`` asks for: "auto" (the configured endpoint, when one
    is), "llm" (it must be configured), "rules" (none)."""
    mode = check_mode(config.shape_judge)
    if mode == "rules" or not config.llm_url:
        if mode == "llm":
            raise ConfigError("shape_judge='llm' needs llm_url and llm_model")
        return None
    from ..llm.chat import Endpoint  # httpx loads only when a judge is configured

    return LLMShapeJudge(Endpoint.of(config))

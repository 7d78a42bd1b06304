"""An optional LLM summary of a session's older turns, from any OpenAI-compatible
``/v1/chat/completions`` endpoint, configured by environment:

ENGRAMDB_OPENAI_BASE_URL (default https://api.openai.com/v1), ENGRAMDB_OPENAI_API_KEY (or
OPENAI_API_KEY), ENGRAMDB_OPENAI_CHAT_MODEL (default gpt-4o-mini).

The model gets the running summary and the turns to fold, and answers the new summary, one
point a line. A failed call raises EngramError; working memory then falls back to the
extractive summary and says so in the session's notes."""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..errors import EngramError
from ..llm.chat import ChatFailed, Endpoint
from .state import Turn

INSTRUCTIONS = (
    "You keep the running summary of a conversation between a user and an AI agent. Merge the "
    "new turns into the summary. Keep every name, number, date, decision, constraint and open "
    "task; drop small talk. Write in the language of the turns (English or Chinese). Answer "
    "with the summary only, one point a line, each line starting with '- ', at most "
    "{words} words in all."
)


class ChatSummarizer:
    def __init__(self, base_url: str | None = None, api_key: str | None = None,
                 model: str | None = None, timeout: float = 60.0) -> None:
        env = os.environ.get
        self.endpoint = Endpoint(
            (base_url or env("ENGRAMDB_OPENAI_BASE_URL") or "https://api.openai.com/v1").rstrip("/"),
            model or env("ENGRAMDB_OPENAI_CHAT_MODEL") or "gpt-4o-mini",
            api_key or env("ENGRAMDB_OPENAI_API_KEY") or env("OPENAI_API_KEY") or "", timeout)

    def summarize(self, summary: str, turns: Sequence[Turn], max_tokens: int) -> list[str]:
        """The new summary lines (each "- ..."), merging ``turns`` into ``summary``."""
        new = "\n".join(f"{t.role}: {t.content}" for t in turns)
        messages = [
            {"role": "system", "content": INSTRUCTIONS.format(words=max(10, max_tokens // 2))},
            {"role": "user", "content": f"Summary so far:\n{summary or '(empty)'}\n\n"
                                        f"New turns:\n{new}"},
        ]
        try:
            text = self.endpoint.complete(messages, max_tokens=max(16, max_tokens))
        except ChatFailed as exc:
            raise EngramError(f"summary request to {self.endpoint.base_url} failed: {exc}"
                              ) from exc
        if not text.strip():
            raise EngramError(f"summary request to {self.endpoint.base_url} returned no text")
        return [_point(line) for line in text.splitlines() if line.strip()]


def _point(line: str) -> str:
    line = line.strip()
    return line if line.startswith("- ") else "- " + line.lstrip("-*• ").strip()

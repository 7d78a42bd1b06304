"""An optional LLM that rewords a gist (any OpenAI-compatible /chat/completions endpoint).

It may change the wording only. ``check_polish`` keeps its text when every number and every
name of the extractive gist survives and it brings no number or name of its own; otherwise the
extractive gist stays and the reason is recorded in ``metadata["polish"]``. A failed request is
not an error of the sleep: the extractive gist is kept and the failure is the reason."""

from __future__ import annotations

import re

import httpx

from ..llm.chat import ChatFailed, Endpoint
from ..model import Record
from ..text import normalize, tokenize

PROMPT = ("Rewrite these notes about the same theme as one short, fluent summary in the same "
          "language. Keep every name, place, date and number exactly; add nothing; drop "
          "nothing. Answer with the summary only.")
MAX_GROWTH = 2.0  # the rewording may be at most twice as long
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
_NAME = re.compile(r"\b[A-Z][\w'-]+")


class Polisher:
    """Calls ``{base_url}/chat/completions`` with ``model``; ``api_key`` as a Bearer token."""

    def __init__(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint
        self._client = httpx.Client(timeout=endpoint.timeout)

    def polish(self, text: str) -> tuple[str, str]:
        """(the reworded text, "") or ("", why it failed)."""
        messages = [{"role": "system", "content": PROMPT}, {"role": "user", "content": text}]
        try:
            wording = self.endpoint.complete(messages, client=self._client)
        except ChatFailed as exc:
            return "", f"the polish request to {self.endpoint.base_url} failed: {exc}"
        if not wording.strip():
            return "", "the model answered nothing"
        return wording.strip(), ""


def check_polish(original: str, wording: str, gist: Record) -> str:
    """Why ``wording`` may not replace ``original`` ("" when it may)."""
    if len(wording) > MAX_GROWTH * len(original):
        return f"the rewording is {len(wording)} characters, over {MAX_GROWTH:g}x the original"
    before, after = set(_NUMBER.findall(original)), set(_NUMBER.findall(wording))
    if before - after:
        return f"it dropped the number(s) {', '.join(sorted(before - after))}"
    if after - before:
        return f"it added the number(s) {', '.join(sorted(after - before))}"
    low_before, low_after = normalize(original), normalize(wording)
    names = [a for a in (*gist.people, *gist.places, *gist.topics) if normalize(a) in low_before]
    dropped = [a for a in names if normalize(a) not in low_after]
    if dropped:
        return f"it dropped the name(s) {', '.join(dropped)}"
    added = [a for a in (*gist.people, *gist.places) if normalize(a) in low_after
             and normalize(a) not in low_before]
    added += [w for w in dict.fromkeys(_NAME.findall(wording))
              if tokenize(w) and normalize(w) not in low_before]
    if added:
        return f"it added the name(s) {', '.join(added)}"
    return ""

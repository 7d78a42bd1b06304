"""One call to an OpenAI-compatible ``/chat/completions`` endpoint: what the optional LLM uses
(extraction, session summaries, gist wording, the shape judge, the agent's planner) share.
``Endpoint`` is where to send it: the configured ``llm_url`` / ``llm_model`` / ``llm_api_key``
/ ``llm_timeout`` (``Endpoint.of``), or for the agent the ``OPENAI_*`` environment when none is
configured (``Endpoint.resolve``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import httpx

from ..config import Config
from ..errors import ConfigError, EngramError


class ChatFailed(EngramError):
    """The endpoint could not be reached, failed, or sent no chat completion with text.
    ``status``: the HTTP status when the endpoint answered with an error."""

    status: int | None = None


def complete(base_url: str, model: str, api_key: str, messages: list[dict[str, Any]], *,
             timeout: float, client: httpx.Client | None = None, **extra: Any) -> str:
    """The text of the first choice for ``messages`` (temperature 0; ``extra`` adds body
    fields such as ``max_tokens`` or ``response_format``). ``api_key`` goes as a Bearer token
    when set; ``client`` reuses a connection pool."""
    content = message(base_url, model, api_key, messages, timeout=timeout, client=client,
                      **extra).get("content")
    if not isinstance(content, str):
        raise ChatFailed("the LLM's message has no text content")
    return content


def message(base_url: str, model: str, api_key: str, messages: list[dict[str, Any]], *,
            timeout: float, client: httpx.Client | None = None, **extra: Any) -> dict[str, Any]:
    """The first choice's whole message (``content``, and ``tool_calls`` when the body asked
    for tools) for ``messages``; the same request and errors as ``complete``."""
    url = f"{base_url.rstrip('/')}/chat/completions"
    body = {"model": model, "temperature": 0, "messages": messages, **extra}
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        resp = (client or httpx).post(url, json=body, headers=headers, timeout=timeout)
        resp.raise_for_status()
        found = resp.json()["choices"][0]["message"]
    except httpx.TimeoutException:
        raise ChatFailed(f"the LLM at {url} did not answer within {timeout:g}s") from None
    except httpx.HTTPStatusError as exc:
        failed = ChatFailed(f"the LLM at {url} answered HTTP {exc.response.status_code}")
        failed.status = exc.response.status_code
        raise failed from None
    except httpx.HTTPError as exc:
        raise ChatFailed(f"the LLM at {url} could not be reached: {exc}") from None
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise ChatFailed(f"the LLM at {url} sent no chat completion: {exc!r}") from None
    if not isinstance(found, dict):
        raise ChatFailed(f"the LLM at {url} sent no chat completion: message is not an object")
    return found


@dataclass(frozen=True)
class Endpoint:
    """An OpenAI-compatible chat endpoint: its base URL (".../v1"), model, key and timeout."""

    base_url: str
    model: str
    api_key: str = ""
    timeout: float = 30.0

    @classmethod
    def of(cls, config: Config) -> Endpoint:
        """The configured endpoint (``llm_url``, ``llm_model``, ``llm_api_key``,
        ``llm_timeout``), as set; callers check what they need set."""
        return cls(config.llm_url, config.llm_model, config.llm_api_key, config.llm_timeout)

    @classmethod
    def resolve(cls, config: Config | None = None) -> Endpoint:
        """The configured endpoint, else the OPENAI_* environment; ConfigError if neither."""
        cfg = config or Config()
        if cfg.llm_url:
            return cls.of(cfg)
        env = os.environ.get
        url, model = env("OPENAI_BASE_URL") or "", env("OPENAI_MODEL") or ""
        if not url or not model:
            raise ConfigError("the agent needs a chat endpoint: set llm_url and llm_model "
                              "(ENGRAMDB_LLM_URL, ENGRAMDB_LLM_MODEL) or OPENAI_BASE_URL and "
                              "OPENAI_MODEL")
        return cls(url, model, env("OPENAI_API_KEY") or "", cfg.llm_timeout)

    def complete(self, messages: list[dict[str, Any]], *, client: httpx.Client | None = None,
                 **extra: Any) -> str:
        """``complete`` at this endpoint."""
        return complete(self.base_url, self.model, self.api_key, messages,
                        timeout=self.timeout, client=client, **extra)

    def message(self, messages: list[dict[str, Any]], *, client: httpx.Client | None = None,
                **extra: Any) -> dict[str, Any]:
        """``message`` at this endpoint."""
        return message(self.base_url, self.model, self.api_key, messages,
                       timeout=self.timeout, client=client, **extra)

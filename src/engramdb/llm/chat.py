"""One call to an OpenAI-compatible ``/chat/completions`` endpoint: what the optional LLM uses
(extraction, session summaries, gist wording) share. Nothing here reads settings; callers
pass the endpoint they were configured with."""

from __future__ import annotations

from typing import Any

import httpx

from ..errors import EngramError


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

"""One call to an OpenAI-compatible ``/chat/completions`` endpoint: what the optional LLM uses
(extraction, session summaries, gist wording, the shape judge, the agent's planner) share.
``Endpoint`` is where to send it and how: the configured ``llm_*`` settings (``Endpoint.of``:
the memory's own LLM features read nothing else, so an ``OPENAI_*`` environment never sends
memories anywhere unasked), or for the agent (``Endpoint.resolve``) each setting from the first
of: the Config (an explicit argument, then ``ENGRAMDB_LLM_*``), ``OPENAI_COMPATIBLE_*``,
``OPENAI_*``. The URL, model and key come as one group from the first source that names a URL
or a model, so a key is only ever sent to the server it was set beside."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import httpx

from ..config import Config, llm_setting
from ..errors import ConfigError, EngramError


class ChatFailed(EngramError):
    """The endpoint could not be reached, failed, or sent no chat completion with text.
    ``status``: the HTTP status when the endpoint answered with an error."""

    status: int | None = None


DEFAULT_TIMEOUT = 30.0
ENV_PREFIXES = ("OPENAI_COMPATIBLE_", "OPENAI_")   # the agent's fallbacks, first wins


def complete(base_url: str, model: str, api_key: str, messages: list[dict[str, Any]], *,
             timeout: float, client: httpx.Client | None = None, **extra: Any) -> str:
    """The text of the first choice for ``messages`` (temperature 0 unless ``extra`` says;
    ``extra`` adds body fields such as ``max_tokens`` or ``response_format``). ``api_key`` goes
    as a Bearer token when set; ``client`` reuses a connection pool."""
    content = message(base_url, model, api_key, messages, timeout=timeout, client=client,
                      **extra).get("content")
    if not isinstance(content, str):
        raise ChatFailed("the LLM's message has no text content")
    return content


def message(base_url: str, model: str, api_key: str, messages: list[dict[str, Any]], *,
            timeout: float, client: httpx.Client | None = None, trust_env: bool = True,
            **extra: Any) -> dict[str, Any]:
    """The first choice's whole message (``content``, and ``tool_calls`` when the body asked
    for tools) for ``messages``; the same request and errors as ``complete``. ``trust_env``
    False: no proxy from the environment (without ``client``; a client has its own)."""
    url = f"{base_url.rstrip('/')}/chat/completions"
    body = {"model": model, "temperature": 0, "messages": messages, **extra}
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        if client is not None:
            resp = client.post(url, json=body, headers=headers, timeout=timeout)
        else:
            resp = httpx.post(url, json=body, headers=headers, timeout=timeout,
                              trust_env=trust_env)
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
    """An OpenAI-compatible chat endpoint: its base URL (".../v1"), model, key and timeout;
    the temperature of every request, a cap on each reply's tokens (None: none), and whether
    a proxy from the environment (HTTP_PROXY, HTTPS_PROXY, NO_PROXY) is used."""

    base_url: str
    model: str
    api_key: str = ""
    timeout: float = DEFAULT_TIMEOUT
    temperature: float = 0.0
    max_tokens: int | None = None
    use_env_proxy: bool = True

    @classmethod
    def of(cls, config: Config) -> Endpoint:
        """The configured endpoint (``llm_url``, ``llm_model``, ``llm_api_key``, and the
        tuning ``llm_*``), as set; callers check what they need set."""
        return cls(config.llm_url, config.llm_model, config.llm_api_key,
                   *_tuning(config, ()))

    @classmethod
    def resolve(cls, config: Config | None = None) -> Endpoint:
        """The agent's endpoint: the configured one, else the first of OPENAI_COMPATIBLE_*
        and OPENAI_* that names a base URL or a model (it must name both); each tuning value
        from the first of the Config, OPENAI_COMPATIBLE_*, OPENAI_*. ConfigError if there is
        no endpoint, or a value does not fit (naming the variable)."""
        cfg = config or Config()
        if cfg.llm_url:
            where = (cfg.llm_url, cfg.llm_model, cfg.llm_api_key)
        else:
            where = _from_env()
        return cls(*where, *_tuning(cfg, ENV_PREFIXES))

    def _send(self, messages: list[dict[str, Any]], client: httpx.Client | None,
              extra: dict[str, Any]) -> dict[str, Any]:
        body = {"temperature": self.temperature, **extra}
        if self.max_tokens is not None:   # a cap: a caller's own max_tokens may be lower
            body["max_tokens"] = min(self.max_tokens, extra.get("max_tokens") or self.max_tokens)
        return message(self.base_url, self.model, self.api_key, messages, timeout=self.timeout,
                       client=client, trust_env=self.use_env_proxy, **body)

    def complete(self, messages: list[dict[str, Any]], *, client: httpx.Client | None = None,
                 **extra: Any) -> str:
        """``complete`` at this endpoint."""
        content = self._send(messages, client, extra).get("content")
        if not isinstance(content, str):
            raise ChatFailed("the LLM's message has no text content")
        return content

    def message(self, messages: list[dict[str, Any]], *, client: httpx.Client | None = None,
                **extra: Any) -> dict[str, Any]:
        """``message`` at this endpoint."""
        return self._send(messages, client, extra)


def _from_env() -> tuple[str, str, str]:
    """(base URL, model, key) of the first OPENAI_COMPATIBLE_* / OPENAI_* group that names a
    URL or a model."""
    env = os.environ.get
    for prefix in ENV_PREFIXES:
        url, model = env(f"{prefix}BASE_URL") or "", env(f"{prefix}MODEL") or ""
        if url and model:
            return url, model, env(f"{prefix}API_KEY") or ""
        if url or model:
            have, lack = ("BASE_URL", "MODEL") if url else ("MODEL", "BASE_URL")
            raise ConfigError(f"{prefix}{have} is set but {prefix}{lack} is not: the agent "
                              f"needs both")
    raise ConfigError("the agent needs a chat endpoint: set llm_url and llm_model "
                      "(ENGRAMDB_LLM_URL, ENGRAMDB_LLM_MODEL), OPENAI_COMPATIBLE_BASE_URL and "
                      "OPENAI_COMPATIBLE_MODEL, or OPENAI_BASE_URL and OPENAI_MODEL (or try the "
                      "agent with its built-in demo stand-in: engramdb ask --llm demo; "
                      "docs/local-llms.md)")


def _tuning(cfg: Config, prefixes: tuple[str, ...]) -> tuple[float, float, int | None, bool]:
    """(timeout, temperature, max_tokens, use_env_proxy): each from the Config when set, else
    from the first environment variable ``prefix + NAME`` set, else the default."""
    defaults: dict[str, Any] = {"timeout": DEFAULT_TIMEOUT, "temperature": 0.0,
                                "max_tokens": None, "use_env_proxy": True}
    found = []
    for name, default in defaults.items():
        value = getattr(cfg, f"llm_{name}")
        for prefix in prefixes if value is None else ():
            raw = os.environ.get(f"{prefix}{name.upper()}", "").strip()
            if raw:
                value = llm_setting(name, raw, f"{prefix}{name.upper()}")
                break
        found.append(default if value is None else value)
    return found[0], found[1], found[2], found[3]

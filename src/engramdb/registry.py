"""Name -> factory for embedders and stores. Built-ins register like plugins would."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import ConfigError

_embedders: dict[str, Callable[..., Any]] = {}
_in_workers: set[str] = set()   # names whose model bulk writes run in worker processes


def register_embedder(name: str, factory: Callable[..., Any], *, workers: bool = False) -> None:
    """``workers=True``: the factory builds a local model that computes on this machine's
    CPU, so a bulk write may run copies of it in worker processes (embed/workers.py); the
    factory must then be a module-level function of an importable module."""
    _embedders[name] = factory
    if workers:
        _in_workers.add(name)
    else:
        _in_workers.discard(name)


def worker_factory(name: str) -> Callable[..., Any] | None:
    """The factory a worker process builds ``name``'s model with, or None: that embedder is
    not run in workers (hashing is cheaper than a process hop; a remote endpoint is not
    bound by this machine's cores)."""
    return _embedders[name] if name in _in_workers else None


def embedder_names() -> list[str]:
    return sorted(_embedders)


def make_embedder(name: str, **options: Any) -> Any:
    try:
        factory = _embedders[name]
    except KeyError:
        raise ConfigError(
            f"unknown embedder {name!r} (known: {', '.join(embedder_names())})"
        ) from None
    return factory(**options)


def _e5(threads: int = 1, **_: Any) -> Any:
    from .embed.e5 import E5Embedder

    return E5Embedder(threads=threads)


def _use(threads: int = 1, **_: Any) -> Any:
    from .embed.use import USEEmbedder

    return USEEmbedder(threads=threads)


def _hashing(dimensions: int = 384, **_: Any) -> Any:
    from .embed.hashing import HashingEmbedder

    return HashingEmbedder(dimensions=dimensions)


def _openai(**_: Any) -> Any:
    from .embed.openai import OpenAIEmbedder

    return OpenAIEmbedder()


def _routed(threads: int = 1, **_: Any) -> Any:
    from .embed.routed import RoutedEmbedder

    return RoutedEmbedder(_e5(threads=threads), _use(threads=threads))


register_embedder("default", _routed, workers=True)
register_embedder("e5", _e5, workers=True)
register_embedder("use", _use, workers=True)
register_embedder("hashing", _hashing)
register_embedder("openai", _openai)

"""Name -> factory for embedders and stores, and name -> function for the similarity and
conflict functions (compare.py). Built-ins register like plugins would."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .compare import cosine
from .errors import ConfigError

if TYPE_CHECKING:
    from .compare import Comparers

_embedders: dict[str, Callable[..., Any]] = {}
_similarities: dict[str, Callable[..., Any]] = {}
_conflicts: dict[str, tuple[Callable[..., Any], bool]] = {}   # name -> (function, at write)
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


def _checked(kind: str, name: object, fn: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"a {kind} function needs a name (non-empty text), got {name!r}")
    if not callable(fn):
        raise ConfigError(f"the {kind} function {name!r} must be callable, got "
                          f"{type(fn).__name__}")
    return name.strip()


def register_similarity(name: str, fn: Callable[..., Any]) -> None:
    """``fn(a, b) -> float``: how alike two memories are in meaning, on the cosine's scale
    (compare.py). Select it with ``Config(similarity=name)`` or ``ENGRAMDB_SIMILARITY``."""
    _similarities[_checked("similarity", name, fn)] = fn


def register_conflict(name: str, fn: Callable[..., Any], *, at_write: bool = True) -> None:
    """``fn(old, new) -> bool``: does ``new`` (said later) state another value of what ``old``
    states (compare.py). ``at_write``: the write guard asks it too, and supersedes. Select it
    with ``Config(conflict=name)`` or ``ENGRAMDB_CONFLICT``."""
    if not isinstance(at_write, bool):
        raise ConfigError(f"at_write must be True or False, got {at_write!r}")
    _conflicts[_checked("conflict", name, fn)] = (fn, at_write)


def similarity_names() -> list[str]:
    return sorted(_similarities)


def conflict_names() -> list[str]:
    return sorted(_conflicts)


def comparers(similarity: str, conflict: str) -> Comparers:
    """The functions these names select (ConfigError for a name not registered, naming the
    setting and its environment variable)."""
    from .compare import Comparers

    for setting, name, known in (("similarity", similarity, similarity_names()),
                                 ("conflict", conflict, conflict_names())):
        if name not in known:
            raise ConfigError(f"{setting} must name a registered {setting} function "
                              f"(ENGRAMDB_{setting.upper()}), got {name!r} (known: "
                              f"{', '.join(known)})")
    fn, at_write = _conflicts[conflict]
    return Comparers(similarity, _similarities[similarity], conflict, fn, at_write)


def statements(old: Any, new: Any) -> bool:
    """recall/conflicts.py's reading of two texts: ``new`` states a new value of what ``old``
    states."""
    from .recall.conflicts import conflict

    return conflict(old, new)


register_similarity("cosine", cosine)
register_conflict("statements", statements, at_write=False)

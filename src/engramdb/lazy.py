"""Parts made on first use, once: the engine's read and write machinery (engine/core.py), the
SQLite store's vector and text caches (store/sqlite/store.py) and a package's public names
(engramdb, engramdb.embed), so that a command that only reads records loads neither numpy nor
the models."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def lazy_names(package: str, where: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: each name of ``where`` (name -> the module
    relative to ``package`` that defines it) imported on first use and kept in the package."""

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(where[name], package), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


def built_once(build: Callable[[Any], T]) -> T:
    """A property whose value ``build(self)`` makes on first use, once per object (under the
    object's ``_building`` lock: two threads asking at once get the same one)."""
    name = build.__name__

    def get(self: Any) -> T:
        try:
            return self.__dict__[name]  # type: ignore[no-any-return]
        except KeyError:
            pass
        with self._building:
            if name not in self.__dict__:
                self.__dict__[name] = build(self)
            return self.__dict__[name]  # type: ignore[no-any-return]

    return property(get, doc=build.__doc__)  # type: ignore[return-value]

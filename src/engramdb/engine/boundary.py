"""The library's error boundary: whatever fails inside a public verb leaves as an EngramError.

engramdb raises its own errors on purpose (errors.py); anything else that escapes a verb is a
failure underneath it: the store's driver (sqlite3, psycopg), the file system, or a bug. A
caller that catches ``EngramError`` must not crash on those, so ``guarded`` wraps every
public method of a class (and the iterators they hand back) and turns:

- ``sqlite3.Error``, ``psycopg.Error`` and ``OSError`` into ``StoreError`` (the store cannot be
  used now: "database is locked", "disk I/O error", a lost connection...);
- any other ``Exception`` into ``Unexpected`` (an EngramError; logged with its traceback on
  the ``engramdb`` logger, since it is a bug).

The original exception stays chained as ``__cause__``. ``BaseException`` that is not an
``Exception`` (KeyboardInterrupt, SystemExit, GeneratorExit) passes through untouched."""

from __future__ import annotations

import functools
import inspect
import logging
import sqlite3
from collections.abc import Callable, Generator, Iterator
from typing import Any, TypeVar

from ..errors import EngramError, StoreError

log = logging.getLogger("engramdb")
C = TypeVar("C", bound=type)


class Unexpected(EngramError):
    """A failure that is neither bad input nor the store's: a bug, logged with its traceback."""

    code = "unexpected"


def _is_store_error(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.Error | OSError):
        return True
    return any(cls.__module__.split(".")[0] == "psycopg" and cls.__name__ == "Error"
               for cls in type(exc).__mro__)


def translate(exc: Exception, verb: str) -> EngramError:
    """The EngramError that stands for ``exc`` raised inside ``verb``."""
    if isinstance(exc, EngramError):
        return exc
    if _is_store_error(exc):
        return StoreError(f"{verb}: the store failed: {type(exc).__name__}: {exc}")
    log.error("unexpected error in %s", verb, exc_info=exc)
    return Unexpected(f"{verb}: unexpected {type(exc).__name__}: {exc}")


def _guard_iterator(items: Iterator[Any], verb: str) -> Generator[Any, None, None]:
    try:
        yield from items
    except EngramError:
        raise
    except Exception as exc:
        raise translate(exc, verb) from exc


def guard(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with every non-EngramError exception translated (see the module's note)."""
    verb = fn.__name__

    @functools.wraps(fn)
    def guarded_call(*args: Any, **kwargs: Any) -> Any:
        try:
            result = fn(*args, **kwargs)
        except EngramError:
            raise
        except Exception as exc:
            raise translate(exc, verb) from exc
        if isinstance(result, Iterator):   # list() reads lazily: guard it as it goes
            return _guard_iterator(result, verb)
        return result

    guarded_call.__engramdb_guarded__ = True  # type: ignore[attr-defined]
    return guarded_call


def guarded(cls: C) -> C:
    """Class decorator: ``guard`` every public method of ``cls``, inherited ones included."""
    for name, fn in inspect.getmembers(cls, inspect.isfunction):
        if name.startswith("_") or getattr(fn, "__engramdb_guarded__", False):
            continue
        if isinstance(inspect.getattr_static(cls, name), staticmethod | classmethod):
            continue
        setattr(cls, name, guard(fn))
    return cls

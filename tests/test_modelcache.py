"""A built model kept on disk for the next process (embed/modelcache.py): the USE backend's
arrays are written once and mapped after, with the same vectors; a folder that cannot be
written or a state that cannot be read costs a build, never an error."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from engramdb.embed import modelcache


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(modelcache.SETTING, str(folder))
    return folder


def test_a_state_is_kept_and_mapped_back(root: Path) -> None:
    state = {"table": np.arange(12, dtype=np.uint8).reshape(3, 4),
             "w": [np.ones((2, 2), np.float32), np.zeros(3, np.float32)],
             "eps": 1e-6, "dim": 512, "name": "x"}
    assert modelcache.save("m", "k1", state)
    back = modelcache.load("m", "k1")
    assert back is not None and set(back) == set(state)
    assert isinstance(back["table"], np.memmap)
    assert np.array_equal(back["table"], state["table"])
    assert all(np.array_equal(a, b) for a, b in zip(back["w"], state["w"], strict=True))
    assert (back["eps"], back["dim"], back["name"]) == (1e-6, 512, "x")
    back["table"][0, 0] = 99                     # copy on write: the file keeps its value
    assert modelcache.load("m", "k1")["table"][0, 0] == 0  # type: ignore[index]
    assert [p.name for p in root.iterdir()] == ["m-k1"]   # no temporary folder left
    assert modelcache.load("m", "k2") is None              # another key: nothing kept


def test_a_state_with_a_value_of_another_kind_is_not_kept(root: Path) -> None:
    assert not modelcache.save("m", "k", {"a": np.ones(2), "f": object()})
    assert modelcache.load("m", "k") is None
    assert not (root / "m-k").exists()


def test_a_second_save_keeps_the_first_state(root: Path) -> None:
    assert modelcache.save("m", "k", {"a": np.ones(2)})
    assert modelcache.save("m", "k", {"a": np.zeros(2)})
    assert np.array_equal(modelcache.load("m", "k")["a"], np.ones(2))  # type: ignore[index]


def test_a_folder_that_cannot_be_written_or_read_builds_again(root: Path) -> None:
    root.parent.mkdir(parents=True, exist_ok=True)
    root.write_text("a file where the folder would be")
    assert not modelcache.save("m", "k", {"a": np.ones(2)})
    assert modelcache.load("m", "k") is None


def test_a_state_missing_a_file_is_not_read(root: Path) -> None:
    assert modelcache.save("m", "k", {"a": np.ones(2), "b": [np.ones(1)]})
    (root / "m-k" / "b.0.npy").unlink()
    assert modelcache.load("m", "k") is None
    (root / "m-k" / "state.json").write_text(json.dumps({"a": {"type": "?"}}))
    assert modelcache.load("m", "k") is None


def test_the_default_folder_is_the_users_cache(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    monkeypatch.delenv(modelcache.SETTING, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert modelcache.cache_root() == tmp_path / "xdg" / "engramdb"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert modelcache.cache_root() == tmp_path / "home" / ".cache" / "engramdb"


def test_use_built_and_use_mapped_give_the_same_vectors(root: Path) -> None:
    from engramdb.embed.use import USEEmbedder

    texts = ["The ferry to Hvar leaves at seven", "表姐在厦门开了一家花店", "",
             "port 8443 · Java 21 · ☃ deee"]
    built = USEEmbedder(threads=1)
    first = built.embed_batch(texts)
    assert not isinstance(built._model.table, np.memmap)
    assert [p.name.split("-")[0] for p in root.iterdir()] == ["use"]
    mapped = USEEmbedder(threads=1)
    again = mapped.embed_batch(texts)
    assert isinstance(mapped._model.table, np.memmap)
    assert np.array_equal(first, again)
    assert mapped._model.threads == 1 and mapped._model.sp is not None

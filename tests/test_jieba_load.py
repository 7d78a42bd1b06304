"""jieba's dictionary cache is read whole (text/tokenize.py `_WholeFileMarshal`): where jieba
keeps its cache, building it on a machine that has none and reading it back stay jieba's. Both
runs here start from an empty temp folder (jieba puts its cache in the temp folder), in fresh
processes: the first builds the cache from the dictionary, the second reads it; they cut and
tag alike."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PROBE = """
import json, marshal, tempfile, os
from engramdb.text.tokenize import _WHOLE_WORDS, _jieba, tagged
import jieba
_jieba()
cache = os.path.join(tempfile.gettempdir(), "jieba.cache")
with open(cache, "rb") as f:
    freq, total = marshal.load(f)                       # the plain reader, for comparison
print(json.dumps({"words": jieba.lcut("我表妹上个月搬到了苏州工业园区"),
                  "tags": tagged("周三下午我和李娜去西湖边喝茶"),
                  "same": len(freq) == len(jieba.dt.FREQ) and all(    # but the made words
                      jieba.dt.FREQ[w] == n for w, n in freq.items() if w not in _WHOLE_WORDS),
                  "size": len(jieba.dt.FREQ)}, ensure_ascii=False))
"""


def test_jieba_builds_and_reads_its_cache_alike(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    runs = [json.loads(subprocess.run([sys.executable, "-c", PROBE], env=env, check=True,
                                      capture_output=True, text=True).stdout)
            for _ in range(2)]
    assert (tmp_path / "jieba.cache").stat().st_size > 1_000_000
    built, read = runs
    assert built == read
    assert read["same"] and read["size"] > 300_000
    assert read["words"][-1] == "苏州工业园区" and ["李娜", "nr"] in read["tags"]

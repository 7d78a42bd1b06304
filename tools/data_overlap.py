"""Which lines of the package's example texts (src/engramdb/data/*.txt) are, word for word, a text
of an evaluation set: the shared behaviour files (../shared/bench/behaviours/*.json, where that
folder is there) and bench/fresh*/*.json. The example files say that none is taken from an
evaluation set; an independent writer still lands on the same cliché now and then (a unit
conversion, a country's capital), and a held-out question that is also an example is scored
against itself. Compared after case, spaces and closing punctuation are set aside.

    python tools/data_overlap.py        # exit 1 and a list where a line repeats one
    python tools/data_overlap.py --near 0.5   # also list lines close to one (not a failure)

Close: the Jaccard overlap of the two texts' words (Latin letters and digits) and Chinese
character pairs is at least the given share; a list to read, since short questions of one
form share most of their words by construction.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETS = [*sorted((ROOT.parent / "shared" / "bench" / "behaviours").glob("*.json")),
        *sorted((ROOT / "bench").glob("fresh*/*.json"))]
DATA = sorted((ROOT / "src" / "engramdb" / "data").glob("*.txt"))


def key(text: str) -> str:
    return re.sub(r"[\s.?？。！!,，]+$", "", " ".join(text.split()).lower())


def strings(node: object) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from strings(value)


def grams(text: str) -> frozenset[str]:
    """The words (Latin letters and digits) and Chinese character pairs of ``text``."""
    low = text.lower().replace("'", "").replace("\u2019", "")
    han = re.findall(r"[\u4e00-\u9fff]+", low)
    return frozenset([*re.findall(r"[a-z0-9]+", low),
                      *(run[i:i + 2] for run in han for i in range(max(len(run) - 1, 1)))])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--near", type=float, default=None,
                    help="also list example lines this close to an evaluation text (0 to 1)")
    args = ap.parse_args()
    seen: dict[str, str] = {}
    for path in SETS:
        for text in strings(json.loads(path.read_text("utf-8"))):
            seen.setdefault(key(text), f"{path.parent.name}/{path.name}")
    near = [(g, text) for text in seen if len(g := grams(text)) >= 3] \
        if args.near is not None else []
    found = close = 0
    for path in DATA:
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if line.startswith("#"):
                continue
            for part in re.split(r"\t| \| ", line)[1:]:   # the first field is a label
                k = key(part)
                if k in seen:
                    print(f"{path.relative_to(ROOT)}:{n}: {part!r} is in {seen[k]}")
                    found += 1
                elif near and len(mine := grams(part)) >= 3:
                    share, text = max((len(mine & g) / len(mine | g), text) for g, text in near)
                    if share >= args.near:
                        print(f"{path.relative_to(ROOT)}:{n}: {part!r} is {share:.2f} close "
                              f"to {text!r} ({seen[text]})")
                        close += 1
    print(f"{len(SETS)} evaluation files, {len(DATA)} example files: {found} line(s) repeated"
          + (f", {close} close (at least {args.near:g})" if args.near is not None else ""))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

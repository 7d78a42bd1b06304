"""Which lines of the package's example texts (src/engramdb/data/*.txt) are, word for word, a text
of an evaluation set: the shared behaviour files (../shared/bench/behaviours/*.json, where that
folder is there) and bench/fresh*/*.json. The example files say that none is taken from an
evaluation set; an independent writer still lands on the same cliché now and then (a unit
conversion, a country's capital), and a held-out question that is also an example is scored
against itself. Compared after case, spaces and closing punctuation are set aside.

    python tools/data_overlap.py        # exit 1 and a list where a line repeats one
"""

from __future__ import annotations

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


def main() -> int:
    seen: dict[str, str] = {}
    for path in SETS:
        for text in strings(json.loads(path.read_text("utf-8"))):
            seen.setdefault(key(text), f"{path.parent.name}/{path.name}")
    found = 0
    for path in DATA:
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if line.startswith("#"):
                continue
            for part in re.split(r"\t| \| ", line)[1:]:   # the first field is a label
                k = key(part)
                if k in seen:
                    print(f"{path.relative_to(ROOT)}:{n}: {part!r} is in {seen[k]}")
                    found += 1
    print(f"{len(SETS)} evaluation files, {len(DATA)} example files: {found} line(s) repeated")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

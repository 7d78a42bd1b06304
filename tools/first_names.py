"""Write src/engramdb/data/first_names.txt.gz: the first names the English name finder
(write/names.py) trusts where a capitalised word could as well be a product or a company.

    pip install names-dataset==3.3.1   # Apache-2.0; 55 MB, 3-4 s and ~1 GB to load:
    python tools/first_names.py        # no runtime dependency, its list is derived here once

The names are the first names of names-dataset (Philippe Remy, Apache License 2.0, from public
Facebook profiles in 105 countries) ranked among the ``RANK`` most common of at least one
country, in Latin letters. Brands and words people sometimes give as a first name rank far
lower ("Zoom", "Spotify": below 5,000 everywhere; "Netflix", "Slack" not at all)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from names_dataset import NameDataset

RANK = 2000
OUT = Path(__file__).resolve().parents[1] / "src" / "engramdb" / "data" / "first_names.txt.gz"
HEADER = ("# first names ranked among the 2,000 most common of at least one country, from\n"
          "# names-dataset 3.3.1 by Philippe Remy (https://github.com/philipperemy/name-dataset),\n"
          "# Apache License 2.0; filtered by tools/first_names.py\n")


def main() -> None:
    names = NameDataset(load_last_names=False).first_names
    kept = sorted(n for n, v in names.items()
                  if v.get("rank") and min(v["rank"].values()) <= RANK
                  and re.fullmatch(r"[A-Z][a-z]+(?:['-][A-Z]?[a-z]+)?", n))
    text = HEADER + "\n".join(kept) + "\n"
    OUT.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))  # the same bytes each run
    print(f"{len(kept)} names -> {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()

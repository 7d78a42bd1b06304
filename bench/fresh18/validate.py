#!/usr/bin/env python3
"""Stdlib-only check for fresh18/extraction.json.

Checks: schema, 50 items per language (en/zh), unique ids of the form
<lang>-f18-NNN, allowed kinds, the per-language kind split, and that every
value is an exact case-insensitive substring of its item's text.
"""
import json
import re
import sys
from collections import Counter
from pathlib import Path

KINDS = {"identity", "fact", "preference", "event", "pending", "rule", "lesson", "procedure"}
SPLIT = {None: 8, "identity": 5, "fact": 8, "preference": 6, "event": 5,
         "pending": 5, "rule": 5, "lesson": 4, "procedure": 4}


def main(path):
    errors = []
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("schema") != 1:
        errors.append("top level must be an object with schema == 1")
    items = data.get("items") if isinstance(data, dict) else None
    if not isinstance(items, list):
        print("FAIL: items is not a list")
        return 1
    if len(items) != 100:
        errors.append(f"expected 100 items, got {len(items)}")

    ids = Counter()
    per_lang = Counter()
    split = {"en": Counter(), "zh": Counter()}
    for n, it in enumerate(items):
        where = f"item #{n}"
        if not isinstance(it, dict):
            errors.append(f"{where}: not an object")
            continue
        if set(it) != {"id", "lang", "text", "expect"}:
            errors.append(f"{where}: keys must be id, lang, text, expect; got {sorted(it)}")
        iid, lang, text, exp = it.get("id"), it.get("lang"), it.get("text"), it.get("expect")
        where = f"{iid or where}"
        ids[iid] += 1
        if lang not in ("en", "zh"):
            errors.append(f"{where}: bad lang {lang!r}")
            continue
        per_lang[lang] += 1
        if not isinstance(iid, str) or iid.endswith("-000") \
                or not re.fullmatch(rf"{lang}-f18-(0[0-4][0-9]|050)", iid):
            errors.append(f"{where}: id must be {lang}-f18-001..050")
        if not isinstance(text, str) or not text.strip():
            errors.append(f"{where}: empty text")
            continue
        if exp is None:
            split[lang][None] += 1
            continue
        if not isinstance(exp, dict) or set(exp) != {"kind", "values"}:
            errors.append(f"{where}: expect must be null or {{kind, values}}")
            continue
        kind, values = exp["kind"], exp["values"]
        if kind not in KINDS:
            errors.append(f"{where}: unknown kind {kind!r}")
        split[lang][kind] += 1
        if not isinstance(values, list) or not values:
            errors.append(f"{where}: values must be a non-empty list")
            continue
        low = text.casefold()
        for v in values:
            if not isinstance(v, str) or not v.strip():
                errors.append(f"{where}: empty/non-string value {v!r}")
            elif v.casefold() not in low:
                errors.append(f"{where}: value {v!r} is not a substring of the text")

    for iid, c in ids.items():
        if c > 1:
            errors.append(f"duplicate id {iid!r} ({c}x)")
    for lang in ("en", "zh"):
        if per_lang[lang] != 50:
            errors.append(f"{lang}: expected 50 items, got {per_lang[lang]}")
        for kind, want in SPLIT.items():
            got = split[lang][kind]
            if got != want:
                errors.append(f"{lang}: kind {kind or 'null'} expected {want}, got {got}")

    if errors:
        for e in errors:
            print("FAIL:", e)
        return 1
    print(f"OK: {len(items)} items, en={per_lang['en']} zh={per_lang['zh']}, split matches, "
          "all values are substrings")
    return 0


if __name__ == "__main__":
    default = Path(__file__).with_name("extraction.json")
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else default))

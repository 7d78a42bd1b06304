"""Extraction benchmark: the rule extractor (write/extract.py) on a labelled set of user turns,
precision and recall per type. Prints figures; it is not a test (tests/test_extraction_bench.py
holds the floor).

    PYTHONPATH=src .venv/bin/python bench/extraction.py              # both halves
    PYTHONPATH=src .venv/bin/python bench/extraction.py --errors     # the dev half's mistakes

The set (bench/data/extraction_en.txt, extraction_zh.txt; 160 turns each, plus 40 dev-only
turns in extraction_extra.txt written after the first measurement) is our own: facts,
preferences, rules, lessons, pending items, episodes and turns with nothing to keep, each line
``kinds | turn | people | places``. Lines alternate between two halves: the dev half (even
lines of each file) is the one rules were changed against; the held-out half (odd lines) is
only ever scored, and ``--errors`` refuses to show it.

Scoring, per turn: the set of kinds the extractor's drafts carry against the labelled kinds
(a type's precision: of the turns given that type, how many are labelled with it; recall: of
the turns labelled with it, how many were given it). People and places are scored per name
(the names of the turn's drafts against the labelled names).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from engramdb.model import Message
from engramdb.write.extract import Turn, extract

DATA = Path(__file__).parent / "data"
FILES = ("extraction_en.txt", "extraction_zh.txt")
EXTRA = "extraction_extra.txt"   # written after the first measurement: dev only
KINDS = ("fact", "preference", "rule", "lesson", "pending", "event")
TYPES = (*KINDS, "people", "places")
AT = datetime(2026, 3, 11, 12, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Case:
    text: str
    kinds: frozenset[str]
    people: frozenset[str]
    places: frozenset[str]
    lang: str
    half: str   # "dev" or "held-out"


@dataclass
class Tally:
    tp: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TYPES, 0))
    fp: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TYPES, 0))
    fn: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TYPES, 0))

    def add(self, kind: str, got: frozenset[str], want: frozenset[str]) -> None:
        self.tp[kind] += len(got & want)
        self.fp[kind] += len(got - want)
        self.fn[kind] += len(want - got)

    def precision(self, kind: str) -> float:
        found = self.tp[kind] + self.fp[kind]
        return self.tp[kind] / found if found else 1.0

    def recall(self, kind: str) -> float:
        wanted = self.tp[kind] + self.fn[kind]
        return self.tp[kind] / wanted if wanted else 1.0


def _names(field_: str) -> frozenset[str]:
    return frozenset(n.strip() for n in field_.split(",") if n.strip())


def load() -> list[Case]:
    cases = []
    for name in FILES:
        lang = name.split("_")[1][:2]
        lines = [x for x in (DATA / name).read_text(encoding="utf-8").splitlines()
                 if x.strip() and not x.startswith("#")]
        for i, line in enumerate(lines):
            kinds, text, people, places = (p.strip() for p in line.split("|"))
            cases.append(Case(text, frozenset() if kinds == "-" else _names(kinds),
                              _names(people), _names(places), lang,
                              "dev" if i % 2 == 0 else "held-out"))
    return cases + extra()


def extra() -> list[Case]:
    """The dev-only lines written after the first measurement (names in both languages)."""
    out = []
    for line in (DATA / EXTRA).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            kinds, text, people, places = (p.strip() for p in line.split("|"))
            lang = "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"
            out.append(Case(text, _names(kinds), _names(people), _names(places), lang, "dev"))
    return out


def predict(text: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    drafts = extract([Turn(0, Message("user", text), AT)], session="bench")
    return (frozenset(str(getattr(d.kind, "value", d.kind)) for d in drafts),
            frozenset(p for d in drafts for p in d.people or []),
            frozenset(p for d in drafts for p in d.places or []))


def score(cases: list[Case], errors: bool = False) -> Tally:
    tally = Tally()
    for case in cases:
        kinds, people, places = predict(case.text)
        for kind in KINDS:
            tally.add(kind, kinds & {kind}, case.kinds & {kind})
        tally.add("people", people, case.people)
        tally.add("places", places, case.places)
        wrong = (kinds, people, places) != (case.kinds, case.people, case.places)
        if errors and wrong:
            print(f"  {case.text!r}: got {sorted(kinds)} {sorted(people)} {sorted(places)}"
                  f" want {sorted(case.kinds)} {sorted(case.people)} {sorted(case.places)}")
    return tally


def table(title: str, tally: Tally) -> list[str]:
    lines = [f"### {title}", "", "| type | precision | recall | tp | fp | fn |",
             "|---|---|---|---|---|---|"]
    for kind in TYPES:
        lines.append(f"| {kind} | {tally.precision(kind):.2f} | {tally.recall(kind):.2f} | "
                     f"{tally.tp[kind]} | {tally.fp[kind]} | {tally.fn[kind]} |")
    return [*lines, ""]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--errors", action="store_true", help="list the dev half's mistakes")
    parser.add_argument("--out", type=Path, help="also write the tables to this file")
    args = parser.parse_args(argv)
    cases = load()
    out: list[str] = []
    for half in ("dev", "held-out"):
        chosen = [c for c in cases if c.half == half]
        if args.errors and half == "dev":
            print("dev-half mistakes:")
        tally = score(chosen, errors=args.errors and half == "dev")
        out += table(f"{half} half ({len(chosen)} turns: "
                     f"{sum(c.lang == 'en' for c in chosen)} English, "
                     f"{sum(c.lang == 'zh' for c in chosen)} Chinese)", tally)
    print("\n".join(out))
    if args.out:
        args.out.write_text("\n".join(out), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

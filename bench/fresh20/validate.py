"""Check the fresh20 held-out files: near_misses.json and updates.json. Standard library only.

    python bench/fresh20/validate.py     # exits 1 and lists every problem if any check fails

Topic of the set: everyday household life (family members, pets, food and drink, home, health,
money, children's activities), with values such as names, brands, sizes, amounts and places.

What runs:
- The shared checks of bench/fresh_check.py for updates (`check_updates`) and near misses
  (`check_near`): schema, ids, days in order, `current` in the last statement and in no earlier
  one, `previous` in the statement before it, values taken from user turns only for ingest
  chains, questions that copy no statement, text language, `expect_a` / `expect_b` in their own
  memory only, b written after a, 48 near-miss pairs (24 per language) covering all 8 types, and
  update subjects/attributes free of earlier sets' domains. Their fixed update counts are for
  40-chain sets; those count messages (SHARED_COUNT_RULES) are dropped and this set's update
  counts are checked below instead. Relevance, wake and extraction are not part of this set.
- Own rules for updates (`check_update_rules`): 24 chains, 12 per language; 8 `remember` and 4
  `ingest` per language; 3 chains with 3 values per language (2 `remember`, 1 `ingest`), every
  other chain with 2; kinds from fresh_check.KINDS, at least 2 kinds per language; ids
  f20-<lang>-NN numbered 01..12; `now_q` and `before_q` name neither `current` nor `previous`
  and are asked in the chain's language; every ingest statement has a user turn; at least one
  ingest chain per language has a named speaker.
- Own rules for near misses (`check_near_rules`): ids f20-nm-<lang>-NN numbered 01..24 per
  language; 3 pairs of each of the 8 types per language; days 0..6, with at least 4 different
  (a, b) day pairs per language; plan_vs_fact has one `pending` side and one `fact` side;
  past_story_vs_fact has one `event` side and one other side; question_vs_statement has exactly
  one side that is a question (ends in ? or ？, or holds one); no question copies a memory or
  names its own expected substring; questions are in the pair's language.
- No repeats (`check_no_repeats`): every sentence of this set (statements, turns, memories and
  questions) is compared, after lowercasing and removing spaces and punctuation, with every string
  in the earlier sets' JSON files (shared/bench/behaviours/*.json and bench/fresh*/*.json other
  than this folder); an equal string, or a near copy (English: word-set Jaccard >= 0.8 with 5+
  words; Chinese: character-bigram Jaccard >= 0.8 with 6+ bigrams), is a problem. Only this set's
  id and sentence are printed, never the earlier one.
"""

import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import fresh_check as fc  # noqa: E402

# domains that earlier sets used for update chains: fresh19's checker's list (which takes in
# fresh17's and the earlier ones) plus fresh19's own list (OWN_DOMAINS, which is also the list in
# fresh19's README). Matched against subject + attribute only (lowercase substrings).
_FRESH19 = fc.earlier("fresh19")
USED_DOMAINS = (*_FRESH19.USED_DOMAINS, *_FRESH19.OWN_DOMAINS)

# this set's own update-chain domains (not checked here): the next set should add them
OWN_DOMAINS = ("birthday party", "milkman", "milk order", "harness", "rugby", "first dance",
               "window box", "herbs", "current book", "school dinner", "driveway", "dinosaur",
               "heat pump", "flow temperature", "tooth fairy",
               "同学聚会", "十周年", "阅读打卡", "阅读时长", "爱喝的茶", "洗洁精", "杂志", "订阅",
               "底薪", "汽修", "修车", "生日礼物", "冰箱", "大米", "英语老师", "应急现金")

# fresh_check's fixed update counts (40 chains, 14/6 per language, 10 three-value chains):
# messages that start with these are replaced by this set's own counts
SHARED_COUNT_RULES = ("updates: counts", "updates: want 12 ingest", "updates: en wants",
                      "updates: zh wants")

NEAR_TYPES = ("same_attr_diff_subject", "diff_attr_same_subject", "temporary_exception",
              "plan_vs_fact", "past_story_vs_fact", "negation_of_other", "list_items",
              "question_vs_statement")
HAN = fc.HAN
bad = fc.bad


def check_update_rules() -> None:
    chains = fc.load("updates")["chains"]
    if len(chains) != 24:
        bad(f"updates: want 24 chains, got {len(chains)}")
    for lang in ("en", "zh"):
        cs = [c for c in chains if c.get("lang") == lang]
        via = Counter(c.get("via") for c in cs)
        three = [c for c in cs if len(c.get("statements", [])) == 3]
        three_via = Counter(c["via"] for c in three)
        if len(cs) != 12 or via != Counter({"remember": 8, "ingest": 4}):
            bad(f"updates: {lang} wants 12 chains, 8 remember and 4 ingest; got {len(cs)} "
                f"{dict(via)}")
        if len(three) != 3 or three_via != Counter({"remember": 2, "ingest": 1}):
            bad(f"updates: {lang} wants 3 chains with 3 values (2 remember, 1 ingest); got "
                f"{dict(three_via)}")
        kinds = Counter(c.get("kind") for c in cs)
        if len(kinds) < 2 or not set(kinds) <= fc.KINDS:
            bad(f"updates: {lang} wants 2+ kinds from KINDS; got {dict(kinds)}")
        if not any(c.get("via") == "ingest" and any(t.get("speaker") for st in c["statements"]
                                                    for t in st.get("turns", []))
                   for c in cs):
            bad(f"updates: {lang} has no ingest chain with a named speaker")
        nums = sorted(int(c["id"][-2:]) for c in cs if re.fullmatch(r".*-\d\d", c.get("id", "")))
        if nums != list(range(1, len(cs) + 1)):
            bad(f"updates: {lang} ids are not numbered 01..{len(cs):02d}")
    fc.check_chains(chains, "f20")


def check_near_rules() -> None:
    pairs = fc.load("near_misses")["pairs"]
    for lang in ("en", "zh"):
        ps = [p for p in pairs if p.get("lang") == lang]
        types = Counter(p.get("type") for p in ps)
        if types != Counter({t: 3 for t in NEAR_TYPES}):
            bad(f"near_misses: {lang} wants 3 pairs of each of the 8 types, got {dict(types)}")
        nums = sorted(int(p["id"][-2:]) for p in ps if re.fullmatch(r".*-\d\d", p.get("id", "")))
        if nums != list(range(1, len(ps) + 1)):
            bad(f"near_misses: {lang} ids are not numbered 01..{len(ps):02d}")
        days = Counter((p["a"]["day"], p["b"]["day"]) for p in ps)
        if len(days) < 4:
            bad(f"near_misses: {lang} day offsets hardly vary: {dict(days)}")
    for p in pairs:
        pid = p.get("id", "?")
        if not re.fullmatch(rf"f20-nm-{p.get('lang')}-\d\d", pid):
            bad(f"{pid}: id must be f20-nm-<lang>-NN")
        a, b = p.get("a", {}), p.get("b", {})
        for side, m in (("a", a), ("b", b)):
            if not isinstance(m.get("day"), int) or not 0 <= m["day"] <= 6:
                bad(f"{pid}: {side} day must be 0..6")
        ka, kb = a.get("kind"), b.get("kind")
        t = p.get("type")
        if t == "plan_vs_fact" and {ka, kb} != {"fact", "pending"}:
            bad(f"{pid}: plan_vs_fact wants one fact and one pending plan, got {ka}/{kb}")
        if t == "past_story_vs_fact" and [ka, kb].count("event") != 1:
            bad(f"{pid}: past_story_vs_fact wants one event side, got {ka}/{kb}")
        if t == "question_vs_statement" and \
                fc.is_question(a.get("text", "")) == fc.is_question(b.get("text", "")):
            bad(f"{pid}: question_vs_statement wants exactly one side that asks")
        for q, e in (("q_a", "expect_a"), ("q_b", "expect_b")):
            text = p.get(q, "")
            if text.strip("?？ ").lower() in (a.get("text", "") + "\n" + b.get("text", "")).lower():
                bad(f"{pid}: {q} copies a memory")
            if fc.has(text, p.get(e, "\0")):
                bad(f"{pid}: {q} names its own expected substring {p[e]!r}")
            if not fc.lang_ok(p.get("lang"), text):
                bad(f"{pid}: {q} is not in the pair's language")


def main() -> int:
    own = (check_update_rules, check_near_rules, fc.check_no_repeats)
    return fc.run_own(HERE, USED_DOMAINS, 48, own, SHARED_COUNT_RULES)


if __name__ == "__main__":
    sys.exit(main())

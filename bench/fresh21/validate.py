"""Check the fresh21 held-out files: near_misses.json and updates.json. Standard library only.

    python bench/fresh21/validate.py     # exits 1 and lists every problem if any check fails

Topic of the set: side work and amateur clubs: a freelancer's clients, invoices and rates, an
amateur drama society, amateur sports leagues (volleyball, softball, ice hockey, 气排球), a model
railway club and model aircraft, and home brewing (beer, fruit wine, rice wine), with values such
as names, amounts, dates, venues, roles and terms.

What runs:
- The shared checks of bench/fresh_check.py for updates (`check_updates`) and near misses
  (`check_near`): schema, ids, days in order, `current` in the last statement and in no earlier
  one, `previous` in the statement before it, values taken from user turns only for ingest
  chains, questions that copy no statement, text language, `expect_a` / `expect_b` in their own
  memory only, b written after a, 48 near-miss pairs (24 per language) covering all 8 types, and
  update subjects/attributes free of earlier sets' domains (USED_DOMAINS: fresh20's list plus
  fresh20's own). Their fixed update counts are for 40-chain sets; those count messages
  (SHARED_COUNT_RULES) are dropped and this set's update counts are checked below instead.
  Relevance, wake and extraction are not part of this set.
- Own rules for updates (`check_update_rules`): 24 chains, 12 per language; 8 `remember` and 4
  `ingest` per language; 3 chains with 3 values per language (2 `remember`, 1 `ingest`), every
  other chain with 2; kinds from fresh_check.KINDS, at least 2 kinds per language; ids
  f21-<lang>-NN numbered 01..12; `now_q` and `before_q` name neither `current` nor `previous`
  and are asked in the chain's language; every ingest statement has a user turn; at least one
  ingest chain per language has a named speaker; at least 10 style names per language.
- Own rules for near misses (`check_near_rules`): ids f21-nm-<lang>-NN numbered 01..24 per
  language; 3 pairs of each of the 8 types per language; days 0..6, with at least 4 different
  (a, b) day pairs per language; plan_vs_fact has one `pending` side and one `fact` side;
  past_story_vs_fact has one `event` side and one other side; question_vs_statement has exactly
  one side that is a question (ends in ? or ？, or holds one); temporary_exception has two `fact`
  sides; no question copies a memory or names its own expected substring; questions are in the
  pair's language; the two memories of a pair differ.
- No repeats (`check_no_repeats`): every sentence of this set (statements, turns, memories and
  questions) is compared, after lowercasing and removing spaces and punctuation, with every string
  in the earlier sets' JSON files (shared/bench/behaviours/*.json and bench/fresh*/*.json other
  than this folder); an equal string, or a near copy (English: word-set Jaccard >= 0.8 with 5+
  words; Chinese: character-bigram Jaccard >= 0.8 with 6+ bigrams), is a problem. Only this set's
  id and sentence are printed, never the earlier one.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import fresh_check as fc  # noqa: E402

# domains that earlier sets used for update chains: fresh20's checker's list (which takes in
# fresh19's and the earlier ones) plus fresh20's own list (OWN_DOMAINS, which is also the list in
# fresh20's README). Matched against subject + attribute only (lowercase substrings).
USED_DOMAINS = fc.domains_before("fresh20")

# this set's own update-chain domains (not checked here): the next set should add them
OWN_DOMAINS = ("spring production", "lantern players", "day rate", "volleyball", "match venue",
               "invoicing", "model railway", "railway club", "payment terms", "layout scale",
               "homebrew", "favourite hop", "go-to hop", "logo deadline", "softball", "umpire",
               "panto",
               "billing email", "invoice email",
               "话剧社", "剧目", "排练场地", "笔译", "千字", "气排球", "报名截止", "收款", "航模",
               "飞行场地", "冰球", "冰时费", "果酒", "泡酒", "绘本", "插画", "交稿", "队长",
               "春晚", "小品", "结款")


def main() -> int:
    return fc.run_set(HERE, "f21", USED_DOMAINS)


if __name__ == "__main__":
    sys.exit(main())

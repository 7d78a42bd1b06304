"""Check the fresh19 held-out files: updates.json, near_misses.json and extraction.json.
Standard library only.

    python bench/fresh19/validate.py     # exits 1 and lists every problem if any check fails

Topic of the set: schedules, appointments, deadlines, bookings and recurring routines (a day, a
time, a date or a place that later changes).

What runs:
- The shared checks of bench/fresh_check.py for updates (`check_updates`) and near misses
  (`check_near`): schema, ids, days in order, `current` in the last statement and in no earlier
  one, `previous` in the statement before it, values taken from user turns only for ingest
  chains, questions that copy no statement, text language, `expect_a` / `expect_b` in their own
  memory only, b written after a, and update subjects/attributes free of earlier sets' domains.
  Their fixed counts are for 40-chain sets with all 8 near-miss types; those count messages
  (listed in SHARED_COUNT_RULES) are dropped and this set's counts are checked below instead.
  Relevance and wake are not part of this set, so those checks are not run.
- Own rules for updates (`check_update_rules`): 30 chains, 15 per language; 9 `remember` and
  6 `ingest` per language; 8 chains with 3 values, 4 per language, of which 3 `remember` and 1
  `ingest`; every other chain has 2 values; kinds only `pending` and `fact`, both used in each
  language; ids f19-<lang>-NN; `now_q` and `before_q` name neither `current` nor `previous` and
  are asked in the chain's language; every ingest statement has a user turn; at least one ingest
  chain per language has a change said by a named speaker other than the first session's user.
- Own rules for near misses (`check_near_rules`): 20 pairs, 10 per language; only
  plan_vs_fact, temporary_exception, same_attr_diff_subject and diff_attr_same_subject, 5 of
  each; a on day 0 and b on day 3; plan_vs_fact is a fact then a pending plan; a
  temporary_exception is a fact then a fact (the one-off exception); the other two types use
  `pending` or `fact`; no question copies a memory; questions are in the pair's language.
- Extraction (`check_extraction`, fresh18's schema): items with exactly id, lang, text,
  expect; 60 items, 30 per language; ids <lang>-f19-001..030; `expect` null or {kind, values}
  with 1-2 non-empty values that each occur in the text (case-insensitive, as score.py compares);
  text language matches lang; no duplicate text; the per-language blocks: 001-010 pending,
  011-015 fact, 016-020 event, 021-025 plans/changes (pending, at most one fact), 026-030 null.
"""

import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import fresh_check as fc  # noqa: E402

# domains that earlier sets used for update chains: fresh17's checker's list (which takes in
# fresh16's and the earlier ones) plus fresh17's own list (OWN_DOMAINS, which is also the list in
# fresh17's README). The domains in fresh16's README are already in fresh17's USED_DOMAINS.
# Matched against subject + attribute only (lowercase substrings).
USED_DOMAINS = fc.domains_before("fresh17")

# this set's own update-chain domains (not checked here): the next set should add them
OWN_DOMAINS = ("septic", "life drawing", "life-drawing", "hospital radio", "request show",
               "citizenship", "shearing", "shearer", "sea cadets", "small claims", "court hearing",
               "bone density", "dexa", "bell ring", "tower practice", "cake tasting", "mahjong",
               "stairlift", "porto", "departure time", "hydrotherapy", "wind turbine",
               "consultation",
               "交房", "新房", "古筝", "视频通话", "通行证", "续签", "毕业照", "露天电影", "放映",
               "空调安装", "面签", "签证", "义诊", "提车", "新车", "机器人课", "产检", "仲裁",
               "开庭", "桥牌", "结题")

# fresh_check's fixed counts (40 chains, 14/6 per language, 10 three-value chains, all 8
# near-miss types): messages that start with these are replaced by this set's own counts
SHARED_COUNT_RULES = ("updates: counts", "updates: want 12 ingest", "updates: en wants",
                      "updates: zh wants", "near_misses: not every type is covered")

NEAR_TYPES = ("plan_vs_fact", "temporary_exception", "same_attr_diff_subject",
              "diff_attr_same_subject")
EXTRACTION_BLOCKS = ((1, 10, "pending"), (11, 15, "fact"), (16, 20, "event"),
                     (21, 25, "plan"), (26, 30, None))
HAN = fc.HAN
bad = fc.bad


def check_update_rules() -> None:
    chains = fc.load("updates")["chains"]
    if len(chains) != 30:
        bad(f"updates: want 30 chains, got {len(chains)}")
    for lang in ("en", "zh"):
        cs = [c for c in chains if c.get("lang") == lang]
        via = Counter(c.get("via") for c in cs)
        three = [c for c in cs if len(c.get("statements", [])) == 3]
        three_via = Counter(c["via"] for c in three)
        if len(cs) != 15 or via != Counter({"remember": 9, "ingest": 6}):
            bad(f"updates: {lang} wants 15 chains, 9 remember and 6 ingest; got {len(cs)} "
                f"{dict(via)}")
        if len(three) != 4 or three_via != Counter({"remember": 3, "ingest": 1}):
            bad(f"updates: {lang} wants 4 chains with 3 values (3 remember, 1 ingest); got "
                f"{dict(three_via)}")
        kinds = Counter(c.get("kind") for c in cs)
        if set(kinds) != {"pending", "fact"}:
            bad(f"updates: {lang} kinds must be pending and fact, both used; got {dict(kinds)}")
        if not any(c.get("via") == "ingest" and any(t.get("speaker") for st in c["statements"]
                                                    for t in st.get("turns", []))
                   for c in cs):
            bad(f"updates: {lang} has no ingest chain with a named speaker")
    fc.check_chains(chains, "f19")


def check_near_rules() -> None:
    pairs = fc.load("near_misses")["pairs"]
    types = Counter(p.get("type") for p in pairs)
    if set(types) - set(NEAR_TYPES):
        bad(f"near_misses: types outside this set's four: {sorted(set(types) - set(NEAR_TYPES))}")
    if types != Counter({t: 5 for t in NEAR_TYPES}):
        bad(f"near_misses: want 5 pairs of each of the four types, got {dict(types)}")
    for p in pairs:
        pid = p.get("id", "?")
        if not re.fullmatch(rf"f19-nm-{p.get('lang')}-\d\d", pid):
            bad(f"{pid}: id must be f19-nm-<lang>-NN")
        a, b = p.get("a", {}), p.get("b", {})
        if a.get("day") != 0 or b.get("day") != 3:
            bad(f"{pid}: want a on day 0 and b on day 3")
        ka, kb = a.get("kind"), b.get("kind")
        if p.get("type") == "plan_vs_fact" and (ka, kb) != ("fact", "pending"):
            bad(f"{pid}: plan_vs_fact wants a fact then a pending plan, got {ka}/{kb}")
        elif p.get("type") == "temporary_exception" and (ka, kb) != ("fact", "fact"):
            bad(f"{pid}: temporary_exception wants fact/fact, got {ka}/{kb}")
        elif not {ka, kb} <= {"fact", "pending"}:
            bad(f"{pid}: kinds must be fact or pending, got {ka}/{kb}")
        for q in ("q_a", "q_b"):
            text = p.get(q, "")
            if text.strip("?？ ").lower() in (a.get("text", "") + "\n" + b.get("text", "")).lower():
                bad(f"{pid}: {q} copies a memory")
            if not fc.lang_ok(p.get("lang"), text):
                bad(f"{pid}: {q} is not in the pair's language")


def check_extraction() -> None:
    items = fc.load("extraction")["items"]
    per_lang = Counter(it.get("lang") for it in items)
    if len(items) != 60 or per_lang != Counter({"en": 30, "zh": 30}):
        bad(f"extraction: want 60 items, 30 per language; got {len(items)} {dict(per_lang)}")
    ids = Counter(it.get("id") for it in items)
    for i, n in ids.items():
        if n > 1:
            bad(f"extraction: duplicate id {i}")
    texts = Counter(it.get("text") for it in items)
    for t, n in texts.items():
        if n > 1:
            bad(f"extraction: duplicate text {t!r}")
    split = {"en": Counter(), "zh": Counter()}
    for n, it in enumerate(items):
        iid = it.get("id") or f"item #{n}"
        if set(it) != {"id", "lang", "text", "expect"}:
            bad(f"{iid}: keys must be id, lang, text, expect; got {sorted(it)}")
            continue
        lang, text, exp = it["lang"], it["text"], it["expect"]
        m = re.fullmatch(rf"{lang}-f19-(\d\d\d)", iid) if lang in ("en", "zh") else None
        if not m or not 1 <= int(m.group(1)) <= 30:
            bad(f"{iid}: id must be <lang>-f19-001..030")
            continue
        if not isinstance(text, str) or not text.strip() or not fc.lang_ok(lang, text):
            bad(f"{iid}: empty text or text language does not match lang")
            continue
        num = int(m.group(1))
        block = next(k for lo, hi, k in EXTRACTION_BLOCKS if lo <= num <= hi)
        kind = None
        if exp is not None:
            if not isinstance(exp, dict) or set(exp) != {"kind", "values"}:
                bad(f"{iid}: expect must be null or {{kind, values}}")
                continue
            kind, values = exp["kind"], exp["values"]
            if kind not in fc.KINDS:
                bad(f"{iid}: unknown kind {kind!r}")
            if not isinstance(values, list) or not 1 <= len(values) <= 2:
                bad(f"{iid}: want 1-2 values")
                continue
            for v in values:
                if not isinstance(v, str) or not v.strip():
                    bad(f"{iid}: empty or non-string value {v!r}")
                elif not fc.has(text, v):
                    bad(f"{iid}: value {v!r} is not in the text")
        split[lang][block, kind] += 1
        if block == "plan":
            if kind not in ("pending", "fact"):
                bad(f"{iid}: a plan or change of schedule wants pending (or fact for a routine)")
        elif kind != block:
            bad(f"{iid}: block {block or 'null'} wants kind {block or 'null'}, got {kind}")
    for lang in ("en", "zh"):
        if split[lang]["plan", "fact"] > 1:
            bad(f"extraction: {lang} has more than one plan/change item of kind fact")
        kinds = Counter()
        for (_block, kind), n in split[lang].items():
            kinds[kind or "null"] += n
        print(f"extraction {lang}: {sum(kinds.values())} items {dict(sorted(kinds.items()))}")


def main() -> int:
    own = (check_update_rules, check_near_rules, check_extraction)
    return fc.run_own(HERE, USED_DOMAINS, 20, own, SHARED_COUNT_RULES)


if __name__ == "__main__":
    sys.exit(main())

"""Check the fresh14 held-out files (bench/fresh_check.py): schema, counts, and that each
expected substring occurs in the text it must match. Standard library only.

    python validate.py          # exits 1 and lists every problem if any check fails

Counts as in fresh11 to fresh13: 40 update chains (20 EN, 20 ZH; 14 remember and 6 ingest per
language; 5 chains with 3 values per language), 40 near-miss pairs (5 of each type, 20 per
language), 3 relevance stores (English, Chinese, mixed) of 30-40 memories with 20 on-topic (2-3
crosslingual) and 25 off-topic questions (at least 10 adjacent), and 16 wake episodes with 8
controls. The shared checker's relevance check is run unchanged except that its fixed count rule
(40 / 25 / 8-6-16) is replaced by these counts. Own rules (`extra`): the near-miss rules fresh10 to
fresh13 used (b on day 3 after a on day 0, plans pending, past stories event, the rest fact, a
question_vs_statement b is a question and no other b is, no question copies a memory, 5 pairs of
each type), crosslingual on-topic questions in the other language from their memory, paraphrase
questions in the memory's language, wake controls that share a topic word with an episode
without repeating a cue, the fade settings 30 / 24, two preference chains, and a "now" or
"before" question that names neither value of its chain.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import fresh_check  # noqa: E402
from fresh_check import bad, load, run  # noqa: E402

# the shared relevance check is kept if the earlier set's module swaps it
_FRESH13 = fresh_check.earlier("fresh13")
_FRESH13_DOMAINS = _FRESH13.USED_DOMAINS
# fresh13's rules (fresh12's, which it kept): they read the set run() checks (fresh_check.load)
main_lang, check_near_rules = _FRESH13.main_lang, _FRESH13.check_near_rules
check_relevance, check_wake_controls = _FRESH13.check_relevance, _FRESH13.check_wake_controls

# domains that earlier sets used for update chains: fresh13's checker's list (which takes in
# fresh12's and the earlier ones), plus the domains named in fresh13's README. Matched against
# subject + attribute only (lowercase substrings).
USED_DOMAINS = (*_FRESH13_DOMAINS,
                "glucose", "rowing", "purchase order", "sign off", "cockatiel", "cage", "bike",
                "station", "hairdresser", "d&d", "session night", "crisps", "assembly point",
                "fire", "brother's job", "go-live", "bedtime", "wristwatch", "watch", "offsite",
                "wife's car", "lunch spot", "fete", "headteacher", "cleaner", "breakdown",
                "三角梅", "肥料", "中国舞", "考级", "会议室", "属相", "猫爬架", "官网", "上线",
                "通勤", "老年大学", "最爱吃", "午休", "群主", "老公的工作", "耳机", "外甥",
                "女朋友", "代码评审", "洗面奶", "白内障", "手术", "篮球", "小名")


def check_update_rules() -> None:
    chains = load("updates")["chains"]
    prefs = sum(c["kind"] == "preference" for c in chains)
    if prefs != 2:
        bad(f"updates: {prefs} preference chains, want 2")
    for c in chains:
        for q in ("now_q", "before_q"):
            if fresh_check.has(c[q], c["current"]) or fresh_check.has(c[q], c["previous"]):
                bad(f"{c['id']}: {q} names a value of the chain")
        if c["lang"] == "zh" and main_lang(c["now_q"] + c["before_q"]) != "zh":
            bad(f"{c['id']}: zh chain with English questions")
        if c["lang"] == "en" and main_lang(c["now_q"] + c["before_q"]) != "en":
            bad(f"{c['id']}: en chain with Chinese questions")


if __name__ == "__main__":
    sys.exit(run(HERE, USED_DOMAINS, near_pairs=40,
                 extra=(check_update_rules, check_near_rules, check_wake_controls),
                 relevance=check_relevance))

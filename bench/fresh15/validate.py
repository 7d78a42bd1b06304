"""Check the fresh15 held-out files (bench/fresh_check.py): schema, counts, and that each
expected substring occurs in the text it must match. Standard library only.

    python validate.py          # exits 1 and lists every problem if any check fails

Counts as in fresh11 to fresh14: 40 update chains (20 EN, 20 ZH; 14 remember and 6 ingest per
language; 5 chains with 3 values per language), 40 near-miss pairs (5 of each type, 20 per
language), 3 relevance stores (English, Chinese, mixed) of 30-40 memories with 20 on-topic (2-3
crosslingual) and 25 off-topic questions (at least 10 adjacent), and 16 wake episodes with 8
controls. The shared checker's relevance check is run unchanged except that its fixed count rule
(40 / 25 / 8-6-16) is replaced by these counts. Own rules (`extra`), the ones fresh14 used and
kept from fresh13: the near-miss rules (b on day 3 after a on day 0, plans pending, past stories
event, the rest fact, a question_vs_statement b is a question and no other b is, no question
copies a memory, 5 pairs of each type), crosslingual on-topic questions in the other language
from their memory, paraphrase questions in the memory's language, wake controls that share a
topic word with an episode without repeating a cue, the fade settings 30 / 24, two preference
chains, a "now" or "before" question that names neither value of its chain and is asked in the
chain's language.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import fresh_check  # noqa: E402
from fresh_check import run  # noqa: E402

# the shared relevance check is kept if the earlier set's module swaps it
_FRESH14 = fresh_check.earlier("fresh14")
_FRESH14_DOMAINS = _FRESH14.USED_DOMAINS
# fresh14's rules (fresh13's and fresh12's, which it kept, plus its own update rule): they read
# the set that run() checks (fresh_check.load)
check_update_rules, check_near_rules = _FRESH14.check_update_rules, _FRESH14.check_near_rules
check_relevance, check_wake_controls = _FRESH14.check_relevance, _FRESH14.check_wake_controls

# domains that earlier sets used for update chains: fresh14's checker's list (which takes in
# fresh13's and the earlier ones), plus the domains named in fresh14's README. Matched against
# subject + attribute only (lowercase substrings).
USED_DOMAINS = (*_FRESH14_DOMAINS,
                "postcode", "squash", "payroll", "freezer", "sofa", "desk chair", "chair",
                "football", "five-a-side", "biscuit", "sign-in", "visitor", "surname", "flea",
                "padlock", "garden shed", "barber", "kitchen refit", "refit", "carer",
                "first aider", "walking group", "meeting point", "parents' evening",
                "shift pattern", "takeaway",
                "晾衣架", "挂牌价", "前台", "楼栋", "洗衣机", "述职", "电视", "床垫", "火锅",
                "档案室", "菜园", "村支书", "头像", "侄女", "年终奖", "团建", "工地", "身份证",
                "奶粉", "年夜饭")


if __name__ == "__main__":
    sys.exit(run(HERE, USED_DOMAINS, near_pairs=40,
                 extra=(check_update_rules, check_near_rules, check_wake_controls),
                 relevance=check_relevance))

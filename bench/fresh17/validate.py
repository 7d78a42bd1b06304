"""Check the fresh17 held-out files (bench/fresh_check.py): schema, counts, and that each
expected substring occurs in the text it must match. Standard library only.

    python validate.py          # exits 1 and lists every problem if any check fails

Counts as in fresh11 to fresh16: 40 update chains (20 EN, 20 ZH; 14 remember and 6 ingest per
language; 5 chains with 3 values per language), 40 near-miss pairs (5 of each type, 20 per
language), 3 relevance stores (English, Chinese, mixed) of 30-40 memories with 20 on-topic (2-3
crosslingual) and 25 off-topic questions (at least 10 adjacent), and 16 wake episodes with 8
controls. The shared checker's relevance check is run unchanged except that its fixed count rule
(40 / 25 / 8-6-16) is replaced by these counts. Own rules (`extra`), the ones fresh16 used (taken
from fresh16's module, which took them from fresh15's, which kept fresh14's): the near-miss rules
(b on day 3 after a on day 0, plans pending, past stories event, the rest fact, a
question_vs_statement b is a question and no other b is, no question copies a memory, 5 pairs of
each type), crosslingual on-topic questions in the other language from their memory, paraphrase
questions in the memory's language, wake controls that share a topic word with an episode without
repeating a cue, the fade settings 30 / 24, two preference chains, a "now" or "before" question
that names neither value of its chain and is asked in the chain's language.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import fresh_check  # noqa: E402
from fresh_check import run  # noqa: E402

# the shared relevance check is kept if the earlier set's module swaps it
_FRESH16 = fresh_check.earlier("fresh16")
_FRESH16_DOMAINS = _FRESH16.USED_DOMAINS
# fresh16's rules (fresh14's, which fresh15 and fresh16 imported unchanged): they read the set
# that run() checks (fresh_check.load)
check_update_rules, check_near_rules = _FRESH16.check_update_rules, _FRESH16.check_near_rules
check_relevance, check_wake_controls = _FRESH16.check_relevance, _FRESH16.check_wake_controls

# domains that earlier sets used for update chains: fresh16's checker's list (which takes in
# fresh15's and the earlier ones), fresh16's own list (OWN_DOMAINS), plus the domains named in
# fresh16's README that its OWN_DOMAINS does not already cover. Matched against subject +
# attribute only (lowercase substrings).
USED_DOMAINS = (*_FRESH16_DOMAINS, *_FRESH16.OWN_DOMAINS,
                "weekday alarm", "preventer", "staff canteen", "decorations", "paint colour",
                "door colour", "winter pitch", "drinks pub", "all-hands venue",
                "baby's middle name",
                "孩子看病", "医院", "上班的支行", "窗帘颜色", "项目代号")

# this set's own update-chain domains (not checked here): the next set should add them to its
# USED_DOMAINS, as this file adds fresh16's
OWN_DOMAINS = ("golf", "handicap", "cricket", "batting", "wordle", "first guess", "car boot",
               "pitch number", "parish council", "meeting night", "mindfulness", "meditation",
               "jury", "emergency contact", "screen time", "quilting", "tenpin", "bowling",
               "substack", "newsletter", "cardiologist", "heart specialist", "roof", "roofer",
               "mentor", "bridesmaid", "manuscript", "word count", "retirement do", "osteopath",
               "trade show", "stand number",
               "雅思", "抖音", "粉丝", "山羊", "档口", "喝酒", "微信", "昵称", "打车", "住校",
               "走读", "狗的品种", "品种", "演唱会", "集市", "集日", "网店", "竹编", "公交",
               "线路", "小卖部", "营业时间", "理财", "验厂", "蓝莓", "满月酒", "表妹", "对象",
               "鹦鹉")


if __name__ == "__main__":
    sys.exit(run(HERE, USED_DOMAINS, near_pairs=40,
                 extra=(check_update_rules, check_near_rules, check_wake_controls),
                 relevance=check_relevance))

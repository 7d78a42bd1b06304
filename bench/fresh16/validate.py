"""Check the fresh16 held-out files (bench/fresh_check.py): schema, counts, and that each
expected substring occurs in the text it must match. Standard library only.

    python validate.py          # exits 1 and lists every problem if any check fails

Counts as in fresh11 to fresh15: 40 update chains (20 EN, 20 ZH; 14 remember and 6 ingest per
language; 5 chains with 3 values per language), 40 near-miss pairs (5 of each type, 20 per
language), 3 relevance stores (English, Chinese, mixed) of 30-40 memories with 20 on-topic (2-3
crosslingual) and 25 off-topic questions (at least 10 adjacent), and 16 wake episodes with 8
controls. The shared checker's relevance check is run unchanged except that its fixed count rule
(40 / 25 / 8-6-16) is replaced by these counts. Own rules (`extra`), the ones fresh15 used (taken
from fresh14's module, which kept fresh13's and fresh12's): the near-miss rules (b on day 3 after a
on day 0, plans pending, past stories event, the rest fact, a question_vs_statement b is a
question and no other b is, no question copies a memory, 5 pairs of each type), crosslingual
on-topic questions in the other language from their memory, paraphrase questions in the memory's
language, wake controls that share a topic word with an episode without repeating a cue, the
fade settings 30 / 24, two preference chains, a "now" or "before" question that names neither
value of its chain and is asked in the chain's language.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import fresh_check  # noqa: E402
from fresh_check import run  # noqa: E402

# the shared relevance check is kept if the earlier set's module swaps it
_FRESH15 = fresh_check.earlier("fresh15")
_FRESH15_DOMAINS = _FRESH15.USED_DOMAINS
# fresh15's rules (fresh14's, which fresh15 imported unchanged): they read the set that run()
# checks (fresh_check.load)
check_update_rules, check_near_rules = _FRESH15.check_update_rules, _FRESH15.check_near_rules
check_relevance, check_wake_controls = _FRESH15.check_relevance, _FRESH15.check_wake_controls

# domains that earlier sets used for update chains: fresh15's checker's list (which takes in
# fresh14's and the earlier ones), plus the domains named in fresh15's README. Matched against
# subject + attribute only (lowercase substrings).
USED_DOMAINS = (*_FRESH15_DOMAINS,
                "flight number", "personal best", "10k", "school run", "trampoline",
                "lawnmower", "mower", "walking aid", "gamertag", "karaoke", "depot",
                "entrance", "bin collection", "nappy", "nappies", "hair colour", "bank",
                "loft conversion", "cat sitter", "stand-up", "netball", "stag do", "au pair",
                "holiday destination",
                "安全座椅", "公积金", "轮滑", "鞋码", "婴儿床", "搬家", "电饭煲", "午托", "零食",
                "班车", "助眠", "组长", "导航", "考研", "宽带", "对接人", "钓鱼", "高铁",
                "班主任", "小猫")

# this set's own update-chain domains (not checked here): the next set should add them to its
# USED_DOMAINS, as this file adds fresh15's README domains
OWN_DOMAINS = ("ring size", "reading glasses", "tea towel", "etsy", "alarm",
               "christmas decorations", "inhaler", "canteen", "tortoise", "hibernation",
               "counsellor", "train reading", "front door", "two-factor", "2fa",
               "authenticator", "christening", "campervan", "friday drinks", "all-hands",
               "leased car", "lease", "street party", "lodger", "middle name",
               "跳绳", "和平精英", "段位", "月租", "外婆", "住处", "早餐", "胃药", "同桌",
               "门牌号", "门诊", "热水器", "看病", "花艺", "工作室", "期末考试", "浏览器",
               "手工皂", "项目代号", "内部代号", "辅食", "露营", "营地", "支行", "窗帘")


if __name__ == "__main__":
    sys.exit(run(HERE, USED_DOMAINS, near_pairs=40,
                 extra=(check_update_rules, check_near_rules, check_wake_controls),
                 relevance=check_relevance))

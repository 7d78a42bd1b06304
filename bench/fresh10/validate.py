"""Check the fresh10 held-out files (bench/fresh_check.py): schema, counts, and that each
expected substring occurs in the text it must match. Standard library only.

    python validate.py          # exits 1 and lists every problem if any check fails

fresh10 has 40 near-miss pairs (20 per language), where earlier sets have 30, and adds its own
near-miss rules: at least 4 pairs of each of the first six types, b on day 3 after a on day 0,
plans pending, past stories event, the rest fact, a question_vs_statement b is a question, and
no question copies a memory.
"""

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from importlib import import_module  # noqa: E402

import fresh_check  # noqa: E402
from fresh_check import run  # noqa: E402

# domains that earlier helpers used for update chains: fresh9's checker's list (fresh8's, fresh7's
# and the earlier sets'), plus the domain lists in fresh9's README; the brief asks for new ones.
# Matched against subject + attribute only (lowercase substrings, so no bare "rent" or "key").
USED_DOMAINS = (*import_module("fresh9.validate").USED_DOMAINS,
                "knitting", "spare key", "house key", "hearing-aid", "hearing aid", "boiler",
                "window cleaner", "vpn", "shoe size", "sprint", "care home", "rabbit", "hay",
                "e-reader", "paper books", "cycling club", "board game", "toner", "printer",
                "scout", "anniversary", "rent share", "flatmate", "meal allowance", "kiln",
                "pottery", "mooring", "dinghy",
                "桶装水", "门禁", "密码", "买菜", "农历生日", "美术课", "表弟", "婚礼", "wifi",
                "身高", "生活费", "任务管理", "猫砂", "居住城市", "工资卡", "开户行", "座机",
                "围棋", "婚纱照", "装修", "工长", "大寿", "志愿", "值班", "车牌")

FIRST_SIX = ("same_attr_diff_subject", "diff_attr_same_subject", "temporary_exception",
             "plan_vs_fact", "past_story_vs_fact", "negation_of_other")


def check_near_rules() -> None:
    pairs = json.loads((HERE / "near_misses.json").read_text(encoding="utf-8"))["pairs"]
    types = Counter(p["type"] for p in pairs)
    for t in FIRST_SIX:
        if types[t] < 4:
            fresh_check.bad(f"near_misses: {t} has {types[t]} pairs, want at least 4")
    want_b = {"plan_vs_fact": "pending", "past_story_vs_fact": "event"}
    for p in pairs:
        pid = p["id"]
        if p["a"]["day"] != 0 or p["b"]["day"] != 3:
            fresh_check.bad(f"{pid}: want a on day 0 and b on day 3")
        if p["a"]["kind"] != "fact":
            fresh_check.bad(f"{pid}: a kind {p['a']['kind']!r}, want fact")
        if p["b"]["kind"] != want_b.get(p["type"], "fact"):
            fresh_check.bad(f"{pid}: b kind {p['b']['kind']!r} for {p['type']}")
        asked = p["b"]["text"].rstrip().endswith(("?", "？"))
        if p["type"] == "question_vs_statement" and not asked:
            fresh_check.bad(f"{pid}: question_vs_statement b is not a question")
        for q in ("q_a", "q_b"):
            if any(p[q].strip("?？ ").lower() in p[s]["text"].lower() for s in ("a", "b")):
                fresh_check.bad(f"{pid}: {q} copies a memory")


if __name__ == "__main__":
    sys.exit(run(HERE, USED_DOMAINS, near_pairs=40, extra=(check_near_rules,)))

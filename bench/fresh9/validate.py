"""Check the fresh9 held-out files (bench/fresh_check.py): schema, counts, and that each
expected substring occurs in the text it must match. Standard library only.

    python validate.py          # exits 1 and lists every problem if any check fails
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from importlib import import_module  # noqa: E402

from fresh_check import run  # noqa: E402

# domains that earlier helpers used for update chains: fresh8's checker's list (fresh7's and
# the earlier sets'), plus the domain lists in fresh8's README; the brief asks for new ones.
# Matched against subject + attribute only.
USED_DOMAINS = (*import_module("fresh8.validate").USED_DOMAINS,
                "electricity", "tariff", "makerspace", "lathe", "passport", "shell", "reunion",
                "savings", "interest rate", "ferret", "charging", "vitamin", "class teacher",
                "astronomy", "nas backup", "long flights", "pension", "orchestra", "staging",
                "deploy", "pocket money", "accommodation", "dog walker", "gp surgery",
                "燃气", "书法", "水价", "春节", "疫苗", "输入法", "定投", "透析", "放学", "柯基",
                "喂食", "电动车", "步数", "手环", "拍鸟", "相机", "node", "接孩子", "中秋",
                "编程课", "学费", "出差", "酒店", "甲状腺", "鱼缸", "换水")


if __name__ == "__main__":
    sys.exit(run(HERE, USED_DOMAINS))

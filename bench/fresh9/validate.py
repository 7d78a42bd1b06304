"""Check the fresh9 held-out files (bench/fresh_check.py): schema, counts, and that each
expected substring occurs in the text it must match. Standard library only.

    python validate.py          # exits 1 and lists every problem if any check fails
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from fresh_check import run  # noqa: E402

# domains that earlier helpers used for update chains (the lists in fresh7's and fresh8's
# checkers, plus the domain lists in fresh8's README); the brief asks for new ones. Matched
# against subject + attribute only.
USED_DOMAINS = ("vegetable patch", "band", "food pantry", "rental car", "pharmacy", "chess",
                "landlord", "soccer", "cloud bill", "coffee subscription", "dentist", "book club",
                "home internet", "piano", "trash", "carpool", "climbing gym", "beehive",
                "babysitter", "choir", "library", "blood-pressure", "parking", "cat food",
                "housekeeper", "building fee", "shuttle", "badminton", "restaurant",
                # fresh7
                "kayak", "thesis", "daycare", "coworking", "mortgage", "phone plan", "yoga",
                "vet", "antihistamine", "parcel", "podcast", "fishing", "language exchange",
                "locker", "cloud region", "sourdough", "swimming", "on-call", "contact lens",
                "tennis", "ballet", "office", "health check", "physio", "team meeting", "tutor",
                "myopia", "insurance", "personal training", "database", "farm plot", "defence",
                "bike-share", "instalment", "cholesterol", "school bus", "weekly report",
                "marathon", "storage", "芭蕾", "办公室", "体检", "理疗", "周会", "家教", "近视",
                "车险", "快递", "私教", "数据库", "农场", "答辩", "单车", "房贷", "降脂", "校车",
                "周报", "马拉松", "迷你仓", "合唱", "停车", "牙医", "钢琴", "羽毛球",
                # fresh8 (its README's domain lists)
                "electricity", "tariff", "makerspace", "lathe", "passport", "shell", "reunion",
                "savings", "interest rate", "ferret", "charging", "vitamin", "class teacher",
                "astronomy", "nas backup", "long flights", "pension", "orchestra", "staging",
                "deploy", "pocket money", "accommodation", "dog walker", "gp surgery",
                "燃气", "书法", "水价", "春节", "疫苗", "输入法", "定投", "透析", "放学", "柯基",
                "喂食", "电动车", "步数", "手环", "拍鸟", "相机", "node", "接孩子", "中秋",
                "编程课", "学费", "出差", "酒店", "甲状腺", "鱼缸", "换水")


if __name__ == "__main__":
    sys.exit(run(HERE, USED_DOMAINS))

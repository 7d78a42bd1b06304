"""Places probe: the place finder (write/names.py ``anchors``) on sentences written for this
probe on 2026-12-02, before that day's change (places after "in", "from", "在" must be known
places or have a place's shape) and used to make it: cities, countries and landmarks beside
shops, apps, firms, teams, people, months and languages after the same words, in English and
Chinese. Prints precision and recall of the places found; not a test
(tests/test_names_people.py holds cases of each kind).

    PYTHONPATH=src .venv/bin/python bench/places_probe.py
"""

from __future__ import annotations

from engramdb.write.names import anchors

CASES = [
 ("I grew up in Porto.", ["Porto"]),
 ("We flew to Reykjavik for the weekend.", ["Reykjavik"]),
 ("My parents live near Utrecht.", ["Utrecht"]),
 ("I got a package from Amazon today.", []),
 ("I posted the update in Slack.", []),
 ("The meeting is in March.", []),
 ("I wrote the script in Python.", []),
 ("I'm in the Marketing team.", []),
 ("I heard back from Google about the role.", []),
 ("We drove to Lake Tahoe last summer.", ["Lake Tahoe"]),
 ("She moved back to Nairobi.", ["Nairobi"]),
 ("I bought it in IKEA.", []),
 ("I read about it in The Guardian.", []),
 ("I visited Kyoto and Osaka.", ["Kyoto", "Osaka"]),
 ("He is from Chile.", ["Chile"]),
 ("I'm stuck in Zoom calls all day.", []),
 ("I got an email from Sarah.", []),
 ("I watched it in Netflix.", []),
 ("We had dinner in Chinatown.", ["Chinatown"]),
 ("I learned it from YouTube.", []),
 ("我在成都长大。", ["成都"]),
 ("下周去青岛出差。", ["青岛"]),
 ("我们在西湖边散步。", ["西湖"]),
 ("我在美团上班。", []),
 ("晚饭吃了海鲜。", []),
 ("我在淘宝上买了一双鞋。", []),
 ("我爸妈住在郑州。", ["郑州"]),
 ("我昨天去了颐和园。", ["颐和园"]),
 ("他是东北人。", ["东北"]),
 ("我在微信上跟他说了。", []),
 ("我们周末去了千岛湖。", ["千岛湖"]),
 ("我喜欢吃北京烤鸭。", []),
 ("我从深圳搬到了广州。", ["深圳", "广州"]),
 ("我在京东买了电脑。", []),
 ("今年春节回老家。", []),
 ("我在小红书上看到的。", []),
 ("我们在三亚度假。", ["三亚"]),
 ("我最近在学法语。", []),
 ("我在星巴克等你。", []),
 ("我们下个月去日本玩。", ["日本"]),
]


def main() -> None:
    tp = fp = fn = 0
    for text, want in CASES:
        got, wanted = set(anchors(text)[1]), set(want)
        tp, fp, fn = tp + len(got & wanted), fp + len(got - wanted), fn + len(wanted - got)
        if got != wanted:
            print(f"  {text}  got {sorted(got)}  want {sorted(wanted)}")
    print(f"precision {tp / (tp + fp):.2f}  recall {tp / (tp + fn):.2f}  "
          f"(tp {tp}, fp {fp}, fn {fn})")


if __name__ == "__main__":
    main()

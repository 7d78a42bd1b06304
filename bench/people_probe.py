"""People probe: the name finder (write/names.py ``anchors``) on sentences written for this
probe, not taken from the labelled extraction set (bench/extraction.py): roles, holidays,
organisations and tools that are no people, English names followed by a day or a language,
Chinese names jieba cuts wrongly (a glued adverb or time word, a cut-off surname), and Chinese
places jieba tags as names. Prints precision and recall of the people found; it is not a test
(tests/test_names_people.py holds cases of each kind).

    PYTHONPATH=src .venv/bin/python bench/people_probe.py
"""

from __future__ import annotations

from engramdb.write.names import anchors

FRESH = [
 ("We host the wiki with Confluence.", []),
 ("I paid with Revolut at the airport.", []),
 ("She implemented the parser with ANTLR.", []),
 ("I worked for Deloitte for three years.", []),
 ("My brother works for Siemens in Munich.", []),
 ("I registered for PyCon again.", []),
 ("We're saving for Diwali gifts.", []),
 ("Cooking for Thanksgiving took all day.", []),
 ("I voted for Greens last time.", []),
 ("Dinner for Valentine's Day was expensive.", []),
 ("I baked a cake for Lucia.", ["Lucia"]),
 ("I bought flowers for Ingrid.", ["Ingrid"]),
 ("I went hiking with Mateo.", ["Mateo"]),
 ("Coffee with Yara tomorrow at nine.", ["Yara"]),
 ("I coded the demo with Felix over the weekend.", ["Felix"]),
 ("I'm working with Hamid on the migration.", ["Hamid"]),
 ("I work for Rosa, the head of design.", ["Rosa"]),
 ("Pedro told me the office moves in June.", ["Pedro"]),
 ("I texted Leila about the party.", ["Leila"]),
 ("My neighbour Arjun has a new puppy.", ["Arjun"]),
 ("春节我要回老家。", []),
 ("中秋节和家人一起吃月饼。", []),
 ("我和吴磊约了周六打球。", ["吴磊"]),
 ("孙悦下个月去深圳出差。", ["孙悦"]),
 ("徐静说她不吃辣。", ["徐静"]),
 ("我喜欢吃杨桃。", []),
 ("苏打水喝完了。", []),
 ("我的同事马涛会帮忙。", ["马涛"]),
 ("白菜又涨价了。", []),
 ("高明的做法是先备份。", []),
 ("江南的春天很美。", []),
 ("我在读鲁迅的散文。", []),
 ("朱丽叶是我最喜欢的角色。", []),
 ("叶倩下周入职。", ["叶倩"]),
 ("汤圆煮好了。", []),
]
ROLES = [
 ("Remind me to call Mom on Sunday.", []),
 ("I had dinner with Dad last night.", []),
 ("Grandma turns ninety in May.", []),
 ("Thank God the flight was on time.", []),
 ("I asked Siri to set an alarm.", []),
 ("I asked Alexa to play jazz.", []),
 ("I told Marketing the launch date.", []),
 ("Email Finance the receipts by Friday.", []),
 ("I met HR about my contract.", []),
 ("We met Legal this morning.", []),
 ("Texted Mum that I'd be late.", []),
 ("Auntie Rose is visiting next week.", ["Rose"]),
 ("Uncle Ben gave me his old guitar.", ["Ben"]),
 ("Called Grandpa for his birthday.", []),
 ("I asked ChatGPT for a recipe.", []),
 ("I thanked Support for the quick fix.", []),
 ("Lunch with Engineering on Thursday.", []),
 ("Meet Dr. Okafor at 3pm.", ["Okafor"]),
 ("My dog Max loves the beach.", []),
 ("Ask Santa for a bike, my son says.", []),
 ("Send Nadia the invoice.", ["Nadia"]),
 ("Tell Jonas the meeting moved.", ["Jonas"]),
 ("Mom says hi.", []),
 ("Dad fixed the sink.", []),
 ("I visited Mom in Leeds.", []),
]
SURNAME_OR_DAY = [
 ("Lunch with Priya Friday.", ["Priya"]), ("Remind me to call Ben Monday morning.", ["Ben"]),
 ("I'm meeting Sarah June 3rd.", ["Sarah"]), ("Dinner with Omar Saturday night.", ["Omar"]),
 ("Email Chloe Tuesday about the lease.", ["Chloe"]), ("Met Kofi Accra last year.", ["Kofi"]),
 ("Tell Anna English is fine.", ["Anna"]),
]
ZH_NAMES = [
    "王芳", "李娜", "张伟", "刘洋", "陈静", "赵敏", "孙悦", "周婷", "吴敏", "郑洁",
]
ZH_CTX = [
    "{n}明天要去广州。", "{n}今天请假了。", "{n}昨天生日。", "{n}上周搬家了。", "{n}后天回国。",
    "{n}每天跑步。", "{n}已经到了。", "{n}现在在开会。", "{n}最近很忙。", "{n}马上就到。",
    "{n}今年三十岁。", "{n}其实不喜欢吃辣。", "{n}总是迟到。", "{n}一直在加班。", "{n}偶尔喝酒。",
]
PLACES = [
    "黄山", "周庄", "高雄", "金华", "石家庄", "马鞍山", "江阴", "林芝", "万州", "孙河", "宋庄",
    "许昌", "邯郸", "常州", "杨浦", "丽江", "朱家角", "徐州", "韩城", "叶城", "秦皇岛", "毛里求斯",
    "马德里", "柏林", "安吉",
]
PLACE_CTX = [
    "{p}的日出很美。", "我老家在{p}。", "下个月我们去{p}玩。", "{p}的房价涨了。", "我在{p}长大。",
    "我和朋友在{p}吃了烤鸭。",
]
ZH_GLUE_NAMES = [
    "陈静", "王芳", "李强", "张伟", "刘敏", "杨洋", "赵磊", "黄丽", "周杰", "吴刚", "徐慧", "孙涛",
    "马超", "朱琳", "胡军", "郭靖", "何平", "林峰", "罗敏", "梁爽", "宋佳", "郑浩", "谢娜", "韩雪",
    "唐宁", "冯静", "张秀英", "欧阳娜", "王建国", "李晓明",
]
ZH_GLUE_CTX = [
    "{n}下周去北京出差。", "昨天{n}请我吃饭。", "我和{n}一起跑步。", "{n}也喜欢喝咖啡。",
    "{n}说会议推迟了。", "我把文件发给{n}了。", "{n}都已经搬家了。", "提醒我给{n}打电话。",
    "{n}又迟到了。", "{n}要结婚了。", "{n}帮我修好了电脑。", "{n}在银行上班。",
    "听{n}说那家店关门了。", "我跟{n}吵架了。", "{n}让我明天交报告。", "上周{n}生了个女儿。",
    "{n}对花生过敏。", "{n}刚从上海回来。", "同事{n}升职了。", "我朋友{n}会弹钢琴。",
]


def cases() -> list[tuple[str, str, list[str]]]:
    """(group, sentence, the people it names)."""
    out = [("fresh", t, w) for t, w in FRESH] + [("roles", t, w) for t, w in ROLES]
    out += [("name boundary", t, w) for t, w in SURNAME_OR_DAY]
    out += [("zh time glue", c.format(n=n), [n]) for n in ZH_NAMES for c in ZH_CTX]
    out += [("zh places", c.format(p=p), []) for p in PLACES for c in PLACE_CTX]
    out += [("zh glue", c.format(n=n), [n]) for n in ZH_GLUE_NAMES for c in ZH_GLUE_CTX]
    return out


def main() -> None:
    totals: dict[str, list[int]] = {}
    for group, text, want in cases():
        got = set(anchors(text)[0])
        tp, fp, fn = len(got & set(want)), len(got - set(want)), len(set(want) - got)
        for key in (group, "all"):
            row = totals.setdefault(key, [0, 0, 0])
            row[0] += tp
            row[1] += fp
            row[2] += fn
    print("| group | precision | recall | tp | fp | fn |\n|---|---|---|---|---|---|")
    for key, (tp, fp, fn) in totals.items():
        p = tp / (tp + fp) if tp + fp else 1.0
        r = tp / (tp + fn) if tp + fn else 1.0
        print(f"| {key} | {p:.2f} | {r:.2f} | {tp} | {fp} | {fn} |")


if __name__ == "__main__":
    main()

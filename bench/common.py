"""What the scale benchmarks share (bench/scale.py on SQLite, bench/pg_scale.py on
PostgreSQL): the fixed clock, the deterministic synthetic corpus (English with some Chinese)
and percentiles."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import numpy as np

from engramdb import Draft

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

# ---------------------------------------------------------------- synthetic memories

FIRST = ("Alice Bob Carol David Emma Frank Grace Henry Isabel Jack Karen Liam Maria Noah Olivia "
         "Peter Quinn Rachel Samuel Tara Umar Victor Wendy Xavier Yusuf Zoe Hannah Oscar Lena "
         "Marco Sofia Tomas Priya Ravi Chen Mei Kenji Yuki Ahmed Fatima Lucas Nina Pablo Ingrid "
         "Sven Anya Dmitri Leila Omar Julia").split()
LAST = ("Smith Garcia Muller Rossi Dubois Novak Kim Tanaka Silva Jensen Kowalski Ivanova Brown "
        "Lopez Schmidt Moreau Costa Nguyen Patel Cohen Weber Fischer Hughes Murphy").split()
PLACES = ("Berlin Paris London Madrid Lisbon Rome Vienna Prague Warsaw Oslo Stockholm Helsinki "
          "Dublin Amsterdam Brussels Zurich Munich Hamburg Barcelona Milan Athens Istanbul Cairo "
          "Nairobi Lagos Toronto Vancouver Seattle Boston Chicago Denver Austin Mexico Lima Bogota "
          "Santiago Sydney Melbourne Auckland Tokyo Osaka Seoul Singapore Bangkok Mumbai Delhi "
          "Dubai Shanghai Beijing Shenzhen").split()
JOBS = ("engineer teacher nurse designer lawyer chef pilot doctor architect researcher "
        "accountant photographer translator farmer journalist carpenter manager consultant").split()
TOPICS = ("budget roadmap migration hiring launch contract invoice release security audit "
          "onboarding pricing marketing design review database backup outage deadline "
          "conference workshop training holiday wedding birthday move apartment garden "
          "marathon concert exhibition vaccine insurance mortgage taxes visa passport").split()
FOODS = ("sushi pizza ramen tacos curry dumplings paella falafel pasta salad steak noodles "
         "croissants hummus kimchi risotto burgers pho tofu oysters chocolate cheesecake").split()
ORGS = ("Acme Globex Initech Umbrella Hooli Vandelay Stark Wayne Cyberdyne Soylent Tyrell "
        "Monarch Gringotts Oscorp Wonka Aperture").split()
ADJ = ("quick long short late early quiet noisy expensive cheap difficult easy important "
       "boring exciting stressful relaxing sunny rainy cold warm").split()
WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
MONTHS = ("January February March April May June July August September October November "
          "December").split()
CN_SURNAMES = list("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗")
CN_GIVEN = ("伟 芳 娜 敏 静 丽 强 磊 军 洋 勇 艳 杰 娟 涛 明 超 秀英 华 平 刚 桂英 建华 文 辉 "
            "婷 雪 晨 宇 浩").split()
CN_PLACES = ("北京 上海 广州 深圳 杭州 成都 南京 武汉 西安 重庆 苏州 天津 青岛 厦门 长沙 "
             "昆明 大连 哈尔滨 香港 台北").split()
CN_TOPICS = ("预算 项目 会议 合同 旅行 婚礼 生日 搬家 面试 考试 体检 装修 签证 发布 报告 "
             "培训 年会 假期 房租 工资").split()
CN_FOODS = "火锅 饺子 烤鸭 米饭 面条 包子 小笼包 麻婆豆腐 奶茶 咖啡 月饼 粽子".split()
SYLLABLES = "ka ro ven mi tal zor ex an qui lo sha rin dor bel kor mun ta vi zen ul".split()

EN_TEMPLATES = (
    "{name} moved to {place} in {month} {year} and loves the {adj} weather there.",
    "{name} works as a {job} at {org} in {place} since {year}.",
    "Meeting with {name} about the {topic} on {weekday}; budget is {money} euros.",
    "{name} prefers {food} over {food2}, especially after a {adj} day.",
    "Reminder: call {name} at {hour}:{minute:02d} about the {topic} for project {code}.",
    "Flight {flight} to {place} leaves at {hour}:{minute:02d} on {weekday} {day} {month}.",
    "{name} said the {topic} review for {org} was {adj}; {count} people attended.",
    "My {relation} {name} has a birthday on {day} {month}; gift budget {money} dollars.",
    "Project {code}: {topic} is blocked until {name} from {org} signs the contract.",
    "I ran {count} km in {place} on {weekday} with {name}; it was {adj}.",
    "{name} recommended the {food} place near {place} station, table for {count} at {hour}pm.",
    "Lesson: never schedule the {topic} on a {weekday}, {name} is always {adj} then.",
)
ZH_TEMPLATES = (
    "{cname}上周去了{cplace}，花了{money}元。",
    "{cname}喜欢{cfood}，不喜欢{cfood2}。",
    "和{cname}在{cplace}讨论了{ctopic}，下次会议在{cmonth}月{day}日。",
    "{cname}在{cplace}的{org}公司当{job}。",
    "提醒：{day}号给{cname}打电话，说{ctopic}的事。",
)
MIXED_TEMPLATES = (
    "{name} said 明天在{cplace}见面 at {hour}pm about the {topic}.",
    "{cname} ({name}) moved from {cplace} to {place} for the {topic} at {org}.",
    "和{name}一起吃{cfood}, then we discussed project {code} in {place}.",
)
QUERY_TEMPLATES = (
    "where does {name} live now?",
    "what does {name} do at {org}?",
    "when is the {topic} meeting with {name}?",
    "what food does {name} like?",
    "project {code} {topic}",
    "flight to {place} on {weekday}",
    "who works as a {job} in {place}?",
    "{cname}去了哪里？",
    "{cname}喜欢吃什么",
    "{ctopic}的会议在{cplace}吗",
    "{name} {cplace} 见面",
    "birthday gift for {name}",
    "how much was the {topic} budget in {month} {year}?",
    "running in {place} with {name}",
)


class Zipf:
    """Pick from a list with probability ~ 1/rank: a few names are common, most are rare."""

    def __init__(self, items: Sequence[str], rng: random.Random, s: float = 1.0) -> None:
        self.items = list(items)
        rng.shuffle(self.items)
        weights = [1.0 / (i + 1) ** s for i in range(len(self.items))]
        total = sum(weights)
        self.cum = list(np.cumsum([w / total for w in weights]))
        self.rng = rng

    def __call__(self) -> str:
        import bisect

        return self.items[min(bisect.bisect(self.cum, self.rng.random()), len(self.items) - 1)]


class Corpus:
    """Deterministic synthetic memories and queries (seeded), English with some Chinese."""

    def __init__(self, seed: int) -> None:
        rng = self.rng = random.Random(seed)
        names = [f"{f} {ln}" for f in FIRST for ln in LAST]
        cnames = [s + g for s in CN_SURNAMES for g in CN_GIVEN]
        codes = sorted({"".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize()
                        for _ in range(3000)})
        self.pick = {
            "name": Zipf(names, rng), "place": Zipf(PLACES, rng), "job": Zipf(JOBS, rng),
            "topic": Zipf(TOPICS, rng), "food": Zipf(FOODS, rng), "org": Zipf(ORGS, rng),
            "adj": Zipf(ADJ, rng), "cname": Zipf(cnames, rng), "cplace": Zipf(CN_PLACES, rng),
            "ctopic": Zipf(CN_TOPICS, rng), "cfood": Zipf(CN_FOODS, rng), "code": Zipf(codes, rng),
        }

    def _fill(self, template: str) -> tuple[str, dict[str, str]]:
        rng, p = self.rng, self.pick
        values = {key: pick() for key, pick in p.items()}
        values.update(
            food2=p["food"](), cfood2=p["cfood"](), year=str(rng.randint(2015, 2026)),
            month=rng.choice(MONTHS), cmonth=str(rng.randint(1, 12)), day=str(rng.randint(1, 28)),
            weekday=rng.choice(WEEKDAYS), hour=str(rng.randint(1, 12)), minute=rng.randint(0, 59),
            money=str(rng.randint(1, 500) * 10), count=str(rng.randint(2, 40)),
            flight=f"{rng.choice('LH BA AF KL CA MU'.split())}{rng.randint(100, 9999)}",
            relation=rng.choice("sister brother cousin friend colleague neighbour aunt".split()),
        )
        return template.format(**values), values

    def draft(self, n: int) -> Draft:
        rng = self.rng
        roll = rng.random()
        pool = EN_TEMPLATES if roll < 0.7 else ZH_TEMPLATES if roll < 0.88 else MIXED_TEMPLATES
        text, values = self._fill(rng.choice(pool))
        text = f"{text} (#{n})"  # keeps every memory distinct, as real ones mostly are
        people = [values["name"]] if "{name}" in text or values["name"] in text else []
        places = [values["place"]] if values["place"] in text else []
        kind = rng.choice(("fact", "fact", "event", "event", "preference", "lesson"))
        at = NOW - timedelta(days=rng.uniform(0, 730))
        return Draft(content=text, kind=kind, at=at, metadata={"source": "bench", "n": n},
                     people=people or None, places=places or None)

    def query(self) -> str:
        return self._fill(self.rng.choice(QUERY_TEMPLATES))[0]


def pct(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q)) if values else float("nan")

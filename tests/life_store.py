"""One person's memories, English and Chinese: a personal store for the tests that judge
hits by meaning (tests/test_questionbank.py, tests/test_rerank_meaning.py)."""

# 24 memories: a scope of 20 or more is judged by the floor
LIFE = [
    "I work as a nurse on the night shift at St. Brennan's hospital.",
    "My daughter Ilse is seven and takes piano lessons on Saturdays.",
    "Our cat Biscuit needs thyroid pills twice a day.",
    "I drive a blue Skoda Octavia estate.",
    "My brother Anton repairs boats in Gdansk.",
    "We rent a two-bedroom flat above a bakery on Carver Street.",
    "I'm allergic to penicillin.",
    "Every Sunday I swim 40 lengths at the leisure centre.",
    "My favourite band is Fleetwood Mac.",
    "The boiler service is booked for March 3.",
    "I'm saving up for a trip to Japan next spring.",
    "My best friend Maud teaches yoga in the park.",
    "我在学日语，每周三晚上上网课。",
    "我妈妈住在苏州，退休前是会计。",
    "我不吃香菜。",
    "我们家的路由器密码贴在冰箱上。",
    "我女儿对花粉过敏，春天要戴口罩。",
    "我每天早上喝一杯豆浆。",
    "I keep my passport in the grey folder in the wardrobe.",
    "The car insurance renews in October with Fairline.",
    "Ilse's school is Hollybank Primary.",
    "I use a standing desk at home.",
    "我老公在银行做风控。",
    "我们打算明年夏天去青岛。",
]

# one language each, 20 memories or more: a scope the cross-lingual leg does not run over
ENGLISH = [text for text in LIFE if text.isascii()] + [
    "My manager Priya runs the ward's rota.",
    "I take the 6:40 bus to the hospital.",
    "Ilse wants a hamster for her birthday.",
    "Anton's boat is called the Marta.",
]
CHINESE = [text for text in LIFE if not text.isascii()] + [
    "我老家在扬州，每年春节回去。",
    "我们家的猫叫年糕，是只橘猫。",
    "我周末喜欢去公园跑步。",
    "我女儿在学小提琴，老师姓周。",
    "我家离地铁站走路十分钟。",
    "我最喜欢吃妈妈做的红烧肉。",
    "我在一家医院做护士，常上夜班。",
    "我们小区的物业电话贴在门口。",
    "我弟弟在杭州做程序员。",
    "我每周五晚上和朋友打羽毛球。",
    "我的车是一辆白色的丰田卡罗拉。",
    "我有轻微的鼻炎，春天会加重。",
    "我打算下个月去体检。",
]

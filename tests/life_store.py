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

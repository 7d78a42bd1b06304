"""The sentence patterns of the rule extractor (write/extract.py), English and Chinese.

Each entry is (kind, rule id, pattern); English patterns run on the lower-cased sentence with
contractions expanded, Chinese ones on the sentence as written. The first match wins, so the
order matters: pending ("remind me", "don't let me forget", "I need to", "提醒我", "我得",
"待办：") before rules ("always ...", "never ...", "don't ...", "一定要", "不要", "禁止",
"规则：") so that "don't forget to pay" is a pending item and "don't deploy on Fridays" a rule;
lessons ("lesson learned", "I realized that", "教训", "吃一堑") before rules so that
"lesson: never trust the default timeout" is a lesson; preferences, then facts.
bench/rules_ablation.py measures what each rule buys on data the team did not write (the
behaviour files and the fresh sets, with and without a model; bench/results/rules.md): a rule
whose sentences the statement fallback (write/statement.py) or the slot rules keep as the same
kind without it was deleted. bench/extraction.py measures them on a labelled set of 320 turns
of the team's own.
"""

from __future__ import annotations

from ..model import Kind

_I = r"(?:i|we)"
_TIME_ZH = r"[^我你他她，,。]{0,6}?"   # a short time said before the subject: "今晚", "四月前"
_REL_EN = (r"(?:sister|brother|wife|husband|son|daughter|mother|father|mom|dad|friend|cousin|"
           r"uncle|aunt|mentor|coworker|roommate|neighbou?r|"
           r"manager|boss|colleague|partner|girlfriend|boyfriend|team|company|office|"
           r"project|laptop|phone|car|birthday|name|email|address|main database|database)")

PENDING: tuple[tuple[Kind, str, str], ...] = (
    (Kind.PENDING, "en:remind", r"^(?:please\s+|can you\s+|could you\s+)?remind (?:me|us)\s+"
                                r"(?:to|that|about|of)\s+\S"),
    (Kind.PENDING, "en:dont_forget", r"^(?:please\s+)?(?:don't|do not) (?:let me |let us )?"
                                     r"forget\s+\S"),
    (Kind.PENDING, "en:todo", r"^(?:todo|to do|to-do)\s*[:：]\s*\S"),
    (Kind.PENDING, "en:need_to", r"^(?:i|we) (?:still )?(?:need to|have to|must|should|"
                                 r"have got to|gotta)\s+\S"),
    (Kind.PENDING, "zh:remind", r"^(?:请|麻烦)?你?(?:能|可以)?" + _TIME_ZH + r"提醒(?:我|我们)"),
    (Kind.PENDING, "zh:dont_forget", r"^(?:别|不要)(?:让我)?忘了|^记得(?:提醒|去|把|给|取消|"
                                     r"交|买|打)"),
    (Kind.PENDING, "zh:todo", r"^待办(?:事项)?\s*[:：]"),
    (Kind.PENDING, "zh:need_to", r"^" + _TIME_ZH + r"我们?[^我你他她，,。]{0,4}?"
                                 r"(?:还|也)?(?:需要|得(?!到)|必须|要记得|要(?!是|么))"),
)
LESSON: tuple[tuple[Kind, str, str], ...] = (
    (Kind.LESSON, "en:lesson", r"^(?:the |a |one |key |my |big )?(?:lesson(?:s)?(?: learned)?"
                               r"(?: here)?|note to self|takeaway|what i learned|learned today"
                               r"|mistake i made)\s*(?:[:：,-]|is\b|was\b)\s*\S"),
    (Kind.LESSON, "en:learned", r"^i(?: have)? (?:learn(?:ed|t)|realized|realised|found out)"
                                r" (?:that|the hard way|to)\s+\S"),
    (Kind.LESSON, "en:next_time", r"^next time\b,?\s*\S"),
    (Kind.LESSON, "en:never_again", r"^never again\b|^(?:always|never) (?:remember to|forget to)"
                                    r"|\bnever again[.!]?$"),
    (Kind.LESSON, "zh:next_time", r"^下次(?:记得|要|一定|别|不要|务必)"),
    (Kind.LESSON, "zh:lesson", r"^(?:教训是|经验是|我学到了|我明白了|以后(?:记得|要|别|不要))"),
    (Kind.LESSON, "zh:learned", r"教训|经验[是:：]|学到(?:了|的)|^吃一堑|^反思|^我(?:意识到|总结"
                                r"了?一下|发现.+以后)|不会再犯|再也不(?:会|要)"),
)
RULE: tuple[tuple[Kind, str, str], ...] = (
    (Kind.RULE, "en:rule", r"^(?:house |team |golden )?rule(?: of thumb)?\s*[:：-]\s*\S"),
    (Kind.RULE, "en:always_never", r"^(?:please\s+)?(?:from now on,?\s+)?(?:you\s+)?"
                                   r"(?:must\s+)?(?:always|never|do not ever|do not|don't ever"
                                   r"|don't)\s+(?!worry|mind|bother|know|think)[a-z]"),
    (Kind.RULE, "en:make_sure", r"^(?:please\s+)?(?:make sure|be sure) (?:to|you)\s+\S"),
    (Kind.RULE, "zh:rule", r"^(?:规则|原则|规定|约定)\s*[:：]"),
    (Kind.RULE, "zh:must", r"(?:永远不要|一定要|务必|禁止|不许|不准|不得|一律|千万(?:不要|别)|"
                           r"绝对不能|都必须|必须(?!在|赶)|请用|请始终|都要)"),
    (Kind.RULE, "zh:dont", r"^(?:请)?" + _TIME_ZH + r"(?:不要|别)(?!忘|担心|客气|急|管)"),
)
PREFERENCE: tuple[tuple[Kind, str, str], ...] = (
    (Kind.PREFERENCE, "en:like", rf"(?:^|, ){_I}\s+(?:really\s+|do(?:n't| not)\s+|also\s+"
                                 r"|totally\s+)?(?:like|love|enjoy|prefer|hate|dislike|adore|"
                                 r"detest|can't stand|cannot stand|am a (?:big )?fan of|am into)"
                                 r"\b"),
    (Kind.PREFERENCE, "en:rather", rf"^{_I}\s+would rather\b"),
    (Kind.PREFERENCE, "en:favourite", r"^my (?:all-time )?favou?rite\s+\S"),
    (Kind.PREFERENCE, "en:not_for_me", r"\bis not for me\b|\bi avoid\b"),
    (Kind.PREFERENCE, "zh:like", r"(?:^|[，,])" + _TIME_ZH + r"我(?:们)?(?:很|非常|特别|最|也|更|"
                                 r"比较|不太|不)?(?:喜欢|爱吃|爱喝|爱听|爱|讨厌|偏好|偏爱|更喜欢|"
                                 r"不喜欢|受不了|倾向于|习惯)"),
    (Kind.PREFERENCE, "zh:favourite", r"^我(?:最)?喜欢的.+是"),
    (Kind.PREFERENCE, "zh:rather", r"^比起.+(?:更喜欢|更爱|宁愿)"),
)
FACT: tuple[tuple[Kind, str, str], ...] = (
    (Kind.FACT, "en:allergy", rf"^{_I}\s+(?:am\s+)?(?:severely\s+)?allergic to\b"),
    (Kind.FACT, "en:diet", rf"^{_I}\s+(?:am\s+|are\s+)?(?:a\s+)?(?:vegetarian|vegan|pescatarian|"
                           r"lactose intolerant|diabetic|gluten[- ]free)\b"),
    (Kind.FACT, "en:origin", rf"^{_I}\s+(?:am|are|was|come)\s+(?:originally\s+)?"
                             r"(?:from|born in)\b"),
    (Kind.FACT, "en:identity", rf"^{_I}\s+(?:am|are) (?:a|an)\s+\S+"),
    (Kind.FACT, "en:have", rf"^{_I}\s+(?:have|have got|own)\s+(?:a|an|two|three|\d+)"
                           r"\s+\S"),
    (Kind.FACT, "en:use", rf"^{_I}\s+(?:am |are )?(?:just |now |currently )?(?:use|using|drive|"
                          r"speak|run|switched to|study|studying|work on|work with|write)\b"),
    (Kind.FACT, "en:my_x", rf"^(?:my|our)\s+(?:\w+\s+){{0,2}}?{_REL_EN}?(?:'s\s+\w+)?\s*"
                           r"(?:is|are|has|have|lives|works|goes|changed|runs|uses|studies|"
                           r"teaches|owns)\b"),
    (Kind.FACT, "en:the_user", r"^the user(?:'s)?\s+\w+"),
    (Kind.FACT, "zh:allergy", r"^我(?:们)?(?:对).+过敏|^我(?:有)?.*过敏"),
    (Kind.FACT, "zh:diet", r"^我(?:是)?(?:素食者|吃素|不吃)"),
    (Kind.FACT, "zh:origin", r"^我(?:是|来自|老家在|出生在|出生于)"),
    (Kind.FACT, "zh:have", r"^我(?:有|养了)(?:一|两|三|\d)"),
    (Kind.FACT, "zh:subject", r"^(?:我们?|用户|这个项目|我们?(?:的)?(?:公司|团队|项目|服务|数据库))"
                              r"(?:的)?[^，,。？?]{0,8}?(?:是|在|有|叫|用|会说|正在|每天|今年|目前|负责)"),
)
# a name the user goes by: the frames a language names a person with, the name capitalised
_NAME = r"(?-i:[A-Z][\w'-]+)"
IDENTITY: tuple[tuple[Kind, str, str], ...] = (
    (Kind.IDENTITY, "en:name", rf"^(?:my name is|my name's|(?:please )?call me|i go by|"
                               rf"everyone calls me|people call me)\s+{_NAME}"
                               rf"|^i am {_NAME}(?:\s+{_NAME})?\s*(?:[,.!]|$)"),
    (Kind.IDENTITY, "zh:name", r"^(?:我叫|我的名字(?:是|叫)|大家(?:都)?叫我|叫我)"
                               r"[^\s，,。！!？?]{1,8}(?:[，,。！!]|$)"),
)
PATTERNS = (*PENDING, *IDENTITY, *LESSON, *RULE, *PREFERENCE, *FACT)

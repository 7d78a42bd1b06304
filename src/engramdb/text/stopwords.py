"""Stop words: function words that carry no search signal, in English and Chinese."""

EN_STOP = frozenset(
    """a about above after again against all am an and any are aren arent as at be because been
    before being below between both but by can cannot could couldn couldnt did didn didnt do does
    doesn doesnt doing don dont down during each few for from further had hadn hadnt has hasn
    hasnt have haven havent having he hed hes her here heres hers herself him himself his how hows
    i id ill im ive if in into is isn isnt it its itself lets me more most mustn mustnt my myself
    no nor not of off on once only or other ought our ours ourselves out over own same shan shant
    she shed shes should shouldn shouldnt so some such than that thats the their theirs them
    themselves then there theres these they theyd theyll theyre theyve this those through to too
    under until up very was wasn wasnt we wed well were weve weren werent what whats when whens
    where wheres which while who whos whom why whys will with won wont would wouldn wouldnt you
    youd youll youre youve your yours yourself yourselves s t d ll m re ve also just yeah oh
    hey hi ok okay really""".split()
)

ZH_STOP = frozenset(
    """我 你 他 她 它 的 了 是 在 和 就 都 而 及 与 着 或 一个 没有 我们 你们 他们 她们 它们 这 那 这个 那个 之 也
    很 吧 呢 吗 啊 呀 哦 嗯 么 把 被 让 给 从 对 于 以 为 并 等 但 却 又 还 所以 因为 如果 那么
    什么 怎么 哪 哪里 哪儿 谁 几 多少 是否 么样 怎么样 自己 一下 一些 有些 这些 那些 已经 曾经 现在
    """.split()
)

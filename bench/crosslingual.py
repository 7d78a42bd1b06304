"""Cross-lingual recall probe: does a question in one language find a memory in the other?

32 facts of the kind an agent keeps about its user, each written in English and in Chinese,
each with a paraphrased question in both languages that shares few words with the fact. The
facts and questions were written for this probe (no data set) before any model was run on them.

Each scenario stores one memory set (all 32 facts in one language; ``mixed`` stores the
even-numbered facts in English and the odd-numbered ones in Chinese, like a bilingual user) and
asks every question; the gold answer is the fact the question was written for. Retrieval is
dense only: cosine over L2-normalised vectors in numpy. Fusions combine e5 and USE rankings.

    .venv/bin/python bench/crosslingual.py            # prints the tables and writes
                                                      # bench/results/crosslingual.md
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before any model engine loads

import argparse  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from engramdb.registry import make_embedder  # noqa: E402


@dataclass(frozen=True)
class Fact:
    kind: str
    en: str
    zh: str
    q_en: str
    q_zh: str


FACTS: tuple[Fact, ...] = (
    Fact(
        "preference",
        "I can't stand cilantro; it tastes like soap to me.",
        "我受不了香菜，吃起来像肥皂一样。",
        "Is there a herb I should leave out when I cook for them?",
        "给他做饭的时候哪种配料最好别放？",
    ),
    Fact(
        "identity",
        "My name is Lena Hoffmann and I was born in Hamburg.",
        "我叫莱娜·霍夫曼，出生在汉堡。",
        "Which city does the user originally come from?",
        "用户的老家是哪里？",
    ),
    Fact(
        "fact",
        "I work night shifts as a nurse at St. Mary's hospital.",
        "我在圣玛丽医院当护士，上夜班。",
        "What does the user do for a living?",
        "用户是做什么职业的？",
    ),
    Fact(
        "event",
        "Last Saturday my dog Biscuit had surgery on his knee.",
        "上周六我的狗饼干做了膝盖手术。",
        "Was the user's dog treated by a vet recently?",
        "用户家的狗最近是不是动过刀？",
    ),
    Fact(
        "plan",
        "We are flying to Tokyo for our honeymoon in April.",
        "我们四月份要飞去东京度蜜月。",
        "Where is the couple travelling after the wedding?",
        "他们婚后打算去哪儿旅行？",
    ),
    Fact(
        "preference",
        "I prefer tea to coffee, especially green tea with no sugar.",
        "比起咖啡我更喜欢喝茶，尤其是不加糖的绿茶。",
        "What hot drink should I offer the user?",
        "给用户准备什么热饮比较合适？",
    ),
    Fact(
        "fact",
        "I'm allergic to peanuts and always carry an EpiPen.",
        "我对花生过敏，随身带着肾上腺素笔。",
        "Is there any food that could be dangerous for the user?",
        "有什么东西用户绝对不能吃？",
    ),
    Fact(
        "event",
        "My sister Mei just gave birth to twins, a boy and a girl.",
        "我妹妹梅刚生了一对龙凤胎。",
        "Has anyone in the user's family had a baby lately?",
        "用户家里最近有没有添丁？",
    ),
    Fact(
        "fact",
        "I've been taking cello lessons for two years.",
        "我学大提琴已经两年了。",
        "Which musical instrument is the user learning?",
        "用户在练什么乐器？",
    ),
    Fact(
        "fact",
        "I drive a ten-year-old blue Toyota Corolla.",
        "我开一辆十年车龄的蓝色丰田卡罗拉。",
        "What kind of car does the user own?",
        "用户平时开的是什么车？",
    ),
    Fact(
        "plan",
        "I'm going to run the Berlin marathon in September.",
        "我九月份要去跑柏林马拉松。",
        "Is the user training for a race?",
        "用户最近在为什么比赛做准备？",
    ),
    Fact(
        "preference",
        "I hate phone calls; please text me instead.",
        "我讨厌接电话，有事请给我发消息。",
        "How does the user like to be contacted?",
        "联系用户用哪种方式最好？",
    ),
    Fact(
        "event",
        "I was laid off from my job at the bank in March.",
        "我三月份被银行裁员了。",
        "Is the user currently employed?",
        "用户现在还有工作吗？",
    ),
    Fact(
        "fact",
        "My apartment is on the sixth floor and the building has no elevator.",
        "我住在六楼，楼里没有电梯。",
        "Would it be hard to move heavy furniture into the user's home?",
        "往用户家里搬大件家具会很费劲吗？",
    ),
    Fact(
        "preference",
        "I'm vegetarian, but I still eat eggs and cheese.",
        "我吃素，不过鸡蛋和奶酪还是吃的。",
        "Does the user eat meat?",
        "用户吃肉吗？",
    ),
    Fact(
        "identity",
        "I turned thirty-four last month.",
        "我上个月刚满三十四岁。",
        "How old is the user?",
        "用户多大年纪了？",
    ),
    Fact(
        "plan",
        "I want to save enough for a down payment on a house by 2027.",
        "我想在2027年之前攒够买房的首付。",
        "What is the user saving money for?",
        "用户存钱是为了什么？",
    ),
    Fact(
        "identity",
        "My son Leo goes to the kindergarten by the river.",
        "我儿子利奥在河边那家幼儿园上学。",
        "Does the user have any children?",
        "用户有小孩吗？",
    ),
    Fact(
        "event",
        "I broke my wrist skiing in the Alps over Christmas.",
        "圣诞节在阿尔卑斯山滑雪时我摔断了手腕。",
        "How did the user get injured?",
        "用户是怎么受的伤？",
    ),
    Fact(
        "preference",
        "My favourite author is Haruki Murakami.",
        "我最喜欢的作家是村上春树。",
        "Which novelist does the user like best?",
        "用户最爱读谁的小说？",
    ),
    Fact(
        "plan",
        "I have a dentist appointment next Tuesday at 3 pm.",
        "我下周二下午三点约了牙医。",
        "When is the user getting their teeth checked?",
        "用户什么时候去检查牙齿？",
    ),
    Fact(
        "fact",
        "I speak Spanish fluently because my mother is from Mexico.",
        "我西班牙语说得很流利，因为我妈妈是墨西哥人。",
        "What foreign languages does the user know?",
        "用户会哪些外语？",
    ),
    Fact(
        "preference",
        "I'm terrified of flying, so I take the train whenever I can.",
        "我很怕坐飞机，能坐火车就坐火车。",
        "How does the user prefer to travel long distances?",
        "用户出远门喜欢用什么交通工具？",
    ),
    Fact(
        "event",
        "My grandfather passed away in January.",
        "我爷爷一月份去世了。",
        "Has the user lost a relative recently?",
        "用户最近失去了哪位亲人？",
    ),
    Fact(
        "preference",
        "I've supported Manchester United since I was a kid.",
        "我从小就是曼联的球迷。",
        "Which football club does the user follow?",
        "用户支持哪支足球队？",
    ),
    Fact(
        "preference",
        "I can't sleep unless the room is completely dark.",
        "房间不全黑我就睡不着。",
        "What does the user need to get a good night's rest?",
        "用户晚上休息有什么讲究？",
    ),
    Fact(
        "plan",
        "Next year I want to change careers and become a software developer.",
        "明年我想转行当程序员。",
        "Is the user thinking about a new profession?",
        "用户打算换个行业吗？",
    ),
    Fact(
        "fact",
        "I have a cat called Mochi who only eats wet food.",
        "我养了一只叫麻薯的猫，它只吃湿粮。",
        "What should I feed the user's kitten?",
        "用户家的小猫平时吃什么？",
    ),
    Fact(
        "event",
        "I moved from Shanghai to Vancouver last summer.",
        "我去年夏天从上海搬到了温哥华。",
        "Where does the user live now?",
        "用户现在住在哪个城市？",
    ),
    Fact(
        "preference",
        "I don't drink alcohol at all.",
        "我滴酒不沾。",
        "Should I bring a bottle of wine to the user's party?",
        "去用户家聚会带瓶红酒合适吗？",
    ),
    Fact(
        "fact",
        "Our wedding anniversary is on October 12.",
        "我们的结婚纪念日是10月12日。",
        "On what date did the user get married?",
        "用户是哪天结的婚？",
    ),
    Fact(
        "fact",
        "I go swimming every morning before work.",
        "我每天早上上班前去游泳。",
        "How does the user keep fit?",
        "用户平时怎么锻炼身体？",
    ),
)

LANGS = ("en", "zh")
MODELS = ("e5", "use", "hashing")
FUSIONS = ("rrf(e5,use)", "zavg(e5,use)")
ROUTED = "route: e5; zh query→rrf"
RRF_K = 60
def fact_text(fact: Fact, lang: str) -> str:
    return fact.en if lang == "en" else fact.zh


def question_text(fact: Fact, lang: str) -> str:
    return fact.q_en if lang == "en" else fact.q_zh


def memory_set(store: str) -> list[str]:
    """The stored memories: all in one language, or ``mixed`` (even en, odd zh)."""
    if store == "mixed":
        return [fact_text(f, "en" if i % 2 == 0 else "zh") for i, f in enumerate(FACTS)]
    return [fact_text(f, store) for f in FACTS]


# ---------------------------------------------------------------- scoring


def ranks_from_scores(scores: np.ndarray) -> np.ndarray:
    """(queries, memories) scores -> 0-based rank of each memory per query (0 = best)."""
    order = np.argsort(-scores, axis=1, kind="stable")
    ranks = np.empty_like(order)
    rows = np.arange(scores.shape[0])[:, None]
    ranks[rows, order] = np.arange(scores.shape[1])[None, :]
    return ranks


def rrf(score_sets: Sequence[np.ndarray]) -> np.ndarray:
    return sum(1.0 / (RRF_K + 1 + ranks_from_scores(s)) for s in score_sets)  # type: ignore[return-value]


def zavg(score_sets: Sequence[np.ndarray]) -> np.ndarray:
    """Average of per-query z-scored cosines (each model's scale and offset removed)."""
    total = np.zeros_like(score_sets[0])
    for s in score_sets:
        mean = s.mean(axis=1, keepdims=True)
        std = s.std(axis=1, keepdims=True)
        total += (s - mean) / np.where(std == 0, 1.0, std)
    return total / len(score_sets)


def hits(scores: np.ndarray) -> tuple[float, float, float]:
    """hit@1, hit@3, MRR when query i's gold memory is memory i."""
    gold_rank = np.diag(ranks_from_scores(scores))
    return (
        float(np.mean(gold_rank < 1)),
        float(np.mean(gold_rank < 3)),
        float(np.mean(1.0 / (gold_rank + 1))),
    )


# ---------------------------------------------------------------- measuring


@dataclass
class Row:
    method: str
    store: str
    ask: str
    hit1: float
    hit3: float
    mrr: float


def cosine_tables(embedders: dict[str, object]) -> dict[tuple[str, str, str], np.ndarray]:
    """(model, store, ask) -> (queries, memories) cosine matrix."""
    out: dict[tuple[str, str, str], np.ndarray] = {}
    for name, model in embedders.items():
        embed: Callable[..., np.ndarray] = model.embed_batch  # type: ignore[attr-defined]
        questions = {lang: embed([question_text(f, lang) for f in FACTS], query=True)
                     for lang in LANGS}
        for store in (*LANGS, "mixed"):
            memories = embed(memory_set(store), query=False)
            for ask in LANGS:
                out[(name, store, ask)] = questions[ask] @ memories.T
    return out


def method_scores(
    cos: dict[tuple[str, str, str], np.ndarray], store: str, ask: str
) -> dict[str, np.ndarray]:
    pair = [cos[("e5", store, ask)], cos[("use", store, ask)]]
    methods = {m: cos[(m, store, ask)] for m in MODELS}
    methods["rrf(e5,use)"] = rrf(pair)
    methods["zavg(e5,use)"] = zavg(pair)
    methods[ROUTED] = methods["rrf(e5,use)"] if ask == "zh" else methods["e5"]
    return methods


def evaluate(cos: dict[tuple[str, str, str], np.ndarray]) -> list[Row]:
    rows: list[Row] = []
    for store in (*LANGS, "mixed"):
        for ask in LANGS:
            for method, scores in method_scores(cos, store, ask).items():
                rows.append(Row(method, store, ask, *hits(scores)))
    return rows


def recall_rows(embedder: str) -> list[Row]:
    """The same scenarios through the public API: engramdb.open + remember_many + recall
    (default preset: BM25 + dense, fused), hit@1/hit@3 of the gold fact."""
    import engramdb

    rows: list[Row] = []
    for store in (*LANGS, "mixed"):
        with engramdb.open(":memory:", embedder=embedder) as mem:
            written = mem.remember_many([engramdb.Draft(t) for t in memory_set(store)])
            ids = [w.memory.id for w in written]
            for ask in LANGS:
                ranks = []
                for i, fact in enumerate(FACTS):
                    got = [h.memory.id for h in mem.recall(question_text(fact, ask), k=10,
                                                          track=False)]
                    ranks.append(got.index(ids[i]) if ids[i] in got else 99)
                r = np.array(ranks)
                rows.append(Row(f"recall[{embedder}]", store, ask, float(np.mean(r < 1)),
                                float(np.mean(r < 3)), float(np.mean(1.0 / (r + 1)))))
    return rows


def language_bias(cos: dict[tuple[str, str, str], np.ndarray]) -> str:
    """In the mixed store: hit@1 when the gold memory is in the question's language vs the
    other one, and how often the top-1 memory is in the question's language (half the memories
    are)."""
    stored = ["en" if i % 2 == 0 else "zh" for i in range(len(FACTS))]
    lines = [
        "| method | question | hit@1, gold in same language | hit@1, gold in other language "
        "| top-1 in question's language |",
        "|---|---|---|---|---|",
    ]
    for ask in LANGS:
        same = np.array([lang == ask for lang in stored])
        for method, scores in method_scores(cos, "mixed", ask).items():
            gold_rank = np.diag(ranks_from_scores(scores))
            top_same = same[np.argmax(scores, axis=1)]
            lines.append(
                f"| {method} | {ask} | {pct(float(np.mean(gold_rank[same] == 0)))} "
                f"| {pct(float(np.mean(gold_rank[~same] == 0)))} | {pct(float(top_same.mean()))} |"
            )
    return "\n".join(lines)


@dataclass
class Cost:
    model: str
    load_s: float
    query_ms: tuple[float, float]  # (wall, CPU) median per text
    memory_ms_single: tuple[float, float]
    memory_ms_batch: tuple[float, float]


def timed_ms(call: Callable[[], object]) -> tuple[float, float]:
    """(wall, process CPU) milliseconds of one call; CPU time is immune to a busy machine."""
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def medians(samples: list[tuple[float, float]], per: int = 1) -> tuple[float, float]:
    return (statistics.median(s[0] for s in samples) / per,
            statistics.median(s[1] for s in samples) / per)


def time_model(name: str, repeats: int) -> tuple[object, Cost]:
    start = time.perf_counter()
    model = make_embedder(name, threads=1)
    model.embed_batch(["warm up"], query=False)  # lazy load happens here
    load_s = time.perf_counter() - start

    def median_ms(texts: list[str], query: bool) -> tuple[float, float]:
        samples = [
            timed_ms(lambda: model.embed_batch([text], query=query))  # noqa: B023
            for _ in range(repeats)
            for text in texts
        ]
        return medians(samples)

    questions = [question_text(f, lang) for f in FACTS for lang in LANGS]
    memories = [fact_text(f, lang) for f in FACTS for lang in LANGS]
    batch = [timed_ms(lambda: model.embed_batch(memories, query=False)) for _ in range(repeats)]
    return model, Cost(
        name,
        load_s,
        median_ms(questions, True),
        median_ms(memories, False),
        medians(batch, per=len(memories)),
    )


# ---------------------------------------------------------------- report


def pct(x: float) -> str:
    return f"{x:.2f}"


def quality_table(rows: list[Row]) -> str:
    scenarios = [(s, a) for s in (*LANGS, "mixed") for a in LANGS]
    methods = list(dict.fromkeys(r.method for r in rows))
    head = "| method | " + " | ".join(f"{s}→{a} h@1 / h@3" for s, a in scenarios)
    head += " | mean h@1 | mean h@3 | mean MRR |"
    lines = [head, "|---" * (len(scenarios) + 4) + "|"]
    for method in methods:
        mine = {(r.store, r.ask): r for r in rows if r.method == method}
        cells = [f"{pct(mine[sc].hit1)} / {pct(mine[sc].hit3)}" for sc in scenarios]
        main = [mine[sc] for sc in scenarios if sc[0] != "mixed"]
        means = [statistics.mean(getattr(r, k) for r in main) for k in ("hit1", "hit3", "mrr")]
        lines.append(f"| {method} | " + " | ".join(cells) + " | "
                     + " | ".join(pct(m) for m in means) + " |")
    return "\n".join(lines)


def cost_table(costs: list[Cost]) -> str:
    lines = [
        "| model | load (s, wall) | per query (ms, 1 text) | per memory (ms, 1 text) "
        "| per memory (ms, batch of 64) |",
        "|---|---|---|---|---|",
    ]

    def cell(ms: tuple[float, float]) -> str:
        return f"{ms[1]:.2f} CPU / {ms[0]:.2f} wall"

    for c in costs:
        lines.append(f"| {c.model} | {c.load_s:.2f} | {cell(c.query_ms)} | "
                     f"{cell(c.memory_ms_single)} | {cell(c.memory_ms_batch)} |")
    return "\n".join(lines)


def report(rows: list[Row], bias: str, costs: list[Cost]) -> str:
    n = len(FACTS)
    return "\n".join([
        "# Cross-lingual recall probe",
        "",
        f"`.venv/bin/python bench/crosslingual.py` — {n} user facts, each in English and "
        "Chinese, with a paraphrased question in each language; dense retrieval only "
        "(numpy cosine), one memory set per scenario, gold = the fact the question was "
        f"written for. `A→B` = memories stored in A, question asked in B ({n} questions "
        "each). `mixed` = even facts stored in English, odd in Chinese. Means are over the "
        "four single-language scenarios. Fusions: RRF (k=60) of the two rankings; zavg = "
        "mean of per-query z-normalised cosines. `route` = e5 for English questions, "
        "rrf(e5,use) for Chinese ones. `recall[NAME]` = the same scenarios through "
        "`engramdb.open(embedder=NAME)` and `recall()` with the default preset (BM25 + "
        "dense, fused); `default` is the routed embedder (e5, and USE for a question in "
        "Chinese); MRR there is over the top 10.",
        "",
        quality_table(rows),
        "",
        "## Language bias in the mixed store (16 questions per cell)",
        "",
        bias,
        "",
        f"## Embedding cost, one thread ({platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores visible)",
        "",
        "Median per text, process CPU time and wall time (CPU time is the one to trust on "
        "a busy machine); a query and a memory embed one text per call; the batch column "
        "embeds all 64 fact texts (32 en + 32 zh) in one call.",
        "",
        cost_table(costs),
        "",
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="timing repeats")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results/crosslingual.md"))
    args = parser.parse_args()
    threadpool_limits(limits=1)
    embedders: dict[str, object] = {}
    costs: list[Cost] = []
    for name in MODELS:
        embedders[name], cost = time_model(name, args.repeats)
        costs.append(cost)
    cos = cosine_tables(embedders)
    rows = evaluate(cos) + recall_rows("e5") + recall_rows("default")
    text = report(rows, language_bias(cos), costs)
    print(text)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()

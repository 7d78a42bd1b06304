"""Check the fresh12 held-out files (bench/fresh_check.py): schema, counts, and that each
expected substring occurs in the text it must match. Standard library only.

    python validate.py          # exits 1 and lists every problem if any check fails

Counts as in fresh11: 40 update chains (20 EN, 20 ZH; 14 remember and 6 ingest per language; 5
chains with 3 values per language), 40 near-miss pairs (5 of each type), 3 relevance stores
(English, Chinese, mixed) of 30-40 memories with 20 on-topic (2-3 crosslingual) and 25 off-topic
questions, and 16 wake episodes with 8 controls. The shared checker's relevance check is run
unchanged except that its fixed count rule (40 / 25 / 8-6-16) is replaced by these counts. Own
rules (`extra`): the near-miss rules fresh10 and fresh11 used (b on day 3 after a on day 0, plans
pending, past stories event, the rest fact, a question_vs_statement b is a question, no question
copies a memory, 5 pairs of each type), crosslingual on-topic questions in the other language
from their memory, paraphrase questions in the memory's language, and wake controls that share a
topic word with an episode without repeating a cue.
"""

import re
import sys
from collections import Counter
from importlib import import_module
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import fresh_check  # noqa: E402
from fresh_check import bad, load, run  # noqa: E402

_FRESH11_DOMAINS = import_module("fresh11.validate").USED_DOMAINS

# domains that earlier sets used for update chains: fresh11's checker's list (which takes in
# fresh10's and the earlier ones), plus the domains named in fresh11's README. Matched against
# subject + attribute only (lowercase substrings).
USED_DOMAINS = (*_FRESH11_DOMAINS,
                "groomer", "error-tracking", "error tracking", "tyre", "line manager", "cheese",
                "handset", "mobile phone", "jiu-jitsu", "rnli", "donation", "hens", "chicken feed",
                "code freeze", "fencing", "grocery", "chimney", "parkrun", "caterer", "plumber",
                "secret santa", "removal", "spanish", "optician",
                "洗衣液", "咖啡", "校服", "工位", "楼层", "奶茶", "笔记", "跆拳道", "体重", "保养",
                "approve", "晨练", "报纸", "网盘", "职务", "鲜奶", "健身房", "年会", "年检",
                "乐器", "衬衫", "领围")

TYPES = ("same_attr_diff_subject", "diff_attr_same_subject", "temporary_exception",
         "plan_vs_fact", "past_story_vs_fact", "negation_of_other", "list_items",
         "question_vs_statement")
HAN = re.compile(r"[\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z]+")


def main_lang(text: str) -> str:
    """zh when Han characters outnumber Latin words, else en."""
    return "zh" if len(HAN.findall(text)) > len(LATIN.findall(text)) else "en"


def code_mixed(text: str) -> bool:
    """A memory written in both languages at once (some of the mixed store's memories)."""
    return len(HAN.findall(text)) >= 2 and len(LATIN.findall(text)) >= 2


def check_near_rules() -> None:
    pairs = load("near_misses")["pairs"]
    types = Counter(p["type"] for p in pairs)
    for t in TYPES:
        if types[t] != 5:
            bad(f"near_misses: {t} has {types[t]} pairs, want 5")
    want_b = {"plan_vs_fact": "pending", "past_story_vs_fact": "event"}
    for p in pairs:
        pid = p["id"]
        if p["a"]["day"] != 0 or p["b"]["day"] != 3:
            bad(f"{pid}: want a on day 0 and b on day 3")
        if p["a"]["kind"] != "fact":
            bad(f"{pid}: a kind {p['a']['kind']!r}, want fact")
        if p["b"]["kind"] != want_b.get(p["type"], "fact"):
            bad(f"{pid}: b kind {p['b']['kind']!r} for {p['type']}")
        asked = p["b"]["text"].rstrip().endswith(("?", "？"))
        if p["type"] == "question_vs_statement" and not asked:
            bad(f"{pid}: question_vs_statement b is not a question")
        if p["type"] != "question_vs_statement" and asked:
            bad(f"{pid}: b is a question but the type is {p['type']}")
        for q in ("q_a", "q_b"):
            if any(p[q].strip("?？ ").lower() in p[s]["text"].lower() for s in ("a", "b")):
                bad(f"{pid}: {q} copies a memory")
    for lang in ("en", "zh"):
        n = sum(p["lang"] == lang for p in pairs)
        if n != 20:
            bad(f"near_misses: {n} {lang} pairs, want 20")


def check_relevance() -> None:
    """The shared relevance check without its fixed counts, then this set's counts."""
    n0 = len(fresh_check.problems)
    fresh_check.check_relevance()
    fresh_check.problems[n0:] = [p for p in fresh_check.problems[n0:]
                                 if not re.match(r"^[\w-]+: counts ", p)]
    stores = load("relevance")["stores"]
    if sorted(s["lang"] for s in stores) != ["en", "mixed", "zh"]:
        langs = [s["lang"] for s in stores]
        bad(f"relevance: want one en, one zh and one mixed store, got {langs}")
    for st in stores:
        sid = st["id"]
        by = {m["id"]: m["text"] for m in st["memories"]}
        t_on = Counter(q["type"] for q in st["on_topic"])
        t_off = Counter(q["type"] for q in st["off_topic"])
        if not 30 <= len(st["memories"]) <= 40:
            bad(f"{sid}: {len(st['memories'])} memories, want 30-40")
        if len(st["on_topic"]) != 20 or not 2 <= t_on["crosslingual"] <= 3:
            bad(f"{sid}: on-topic {dict(t_on)}, want 20 with 2-3 crosslingual")
        if set(t_on) - {"paraphrase", "crosslingual"}:
            bad(f"{sid}: on-topic types {dict(t_on)}, want paraphrase and crosslingual only")
        if len(st["off_topic"]) != 25 or set(t_off) != {"general", "other_person", "adjacent"}:
            bad(f"{sid}: off-topic {dict(t_off)}, want 25 of all three types")
        if t_off["adjacent"] < 10:
            bad(f"{sid}: only {t_off['adjacent']} adjacent off-topic questions, want 10 or more")
        if len(set(q["q"] for q in st["on_topic"])) != len(st["on_topic"]):
            bad(f"{sid}: duplicate on-topic question")
        if len(set(q["expect"] for q in st["on_topic"])) != len(st["on_topic"]):
            bad(f"{sid}: two on-topic questions expect the same memory")
        if len(Counter(m["kind"] for m in st["memories"])) < 5:
            bad(f"{sid}: want memories of at least 5 kinds")
        if len(set(by.values())) != len(by):
            bad(f"{sid}: duplicate memory text")
        for q in st["on_topic"]:
            mem = by[q["expect"]]
            mem_lang, q_lang = main_lang(mem), main_lang(q["q"])
            if q["type"] == "crosslingual" and (code_mixed(mem) or mem_lang == q_lang):
                bad(f"{sid}: crosslingual question not in the other language from a "
                    f"one-language memory: {q['q']!r}")
            if q["type"] == "paraphrase" and not code_mixed(mem) and mem_lang != q_lang:
                bad(f"{sid}: paraphrase question in the other language: {q['q']!r}")
            if q["type"] == "paraphrase":
                if q_lang == "en":
                    shared = fresh_check.en_words(q["q"]) & fresh_check.en_words(mem)
                else:
                    shared = fresh_check.zh_bigrams(q["q"]) & fresh_check.zh_bigrams(mem)
                if shared:  # allowed ("mostly" paraphrases), listed for the writer's review
                    fresh_check.notes.append(f"{sid} {q['expect']}: paraphrase shares "
                                             f"{sorted(shared)}")


def check_wake_controls() -> None:
    data = load("wake")
    eps = data["episodes"]
    for c in data["controls"]:
        if c["lang"] == "zh":
            topic = any(fresh_check.zh_bigrams(c["q"]) & fresh_check.zh_bigrams(e["text"])
                        for e in eps if e["lang"] == "zh")
        else:
            topic = any(fresh_check.en_words(c["q"]) & fresh_check.en_words(e["text"])
                        for e in eps if e["lang"] == "en")
        if not topic:
            bad(f"{c['id']}: control shares no topic word with any episode")
        if c["q"] in {e["cues"][k] for e in eps for k in e["cues"]}:
            bad(f"{c['id']}: control repeats a cue")
    if len(data.get("background", [])) != 4:
        bad("wake: want 4 background memories")
    if data.get("fade") != {"advance_days_per_step": 30, "max_steps": 24}:
        bad(f"wake: fade {data.get('fade')}, want 30 days a step, at most 24 steps")


if __name__ == "__main__":
    sys.exit(run(HERE, USED_DOMAINS, near_pairs=40, extra=(check_near_rules, check_wake_controls),
                 relevance=check_relevance))

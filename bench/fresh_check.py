"""Check a held-out set's files (bench/freshN/: updates, near misses, relevance, wake) as the
fresh7 and fresh8 writers specified them: schema, counts, and that each expected substring occurs
in the text it must match (case-insensitive, as score.py compares). Standard library only. Each
set's validate.py runs it with the domains earlier sets used, which its chains must avoid:

    python bench/fresh8/validate.py     # exits 1 and lists every problem if any check fails
"""

import json
import re
from collections import Counter
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent   # the set's folder: run() sets it
USED_DOMAINS: tuple[str, ...] = ()       # domains earlier sets used: run() sets them
NEAR_PAIRS = 30                            # near-miss pairs a set holds, half per language
problems: list[str] = []
HAN = re.compile(r"[\u4e00-\u9fff]")
KINDS = {"fact", "preference", "event", "pending", "rule", "lesson", "procedure", "identity"}
STOP = set("""a an the and or but of to in on at by for with from into onto over off out up down
about as is are was were be been being am i me my mine we our us you your he his she her it its
they them their this that these those there here when where which who whom what why how do does
did done have has had not no so then than too very just still some any all each every one two
three time day night that's i'm it's while during after before again""".split())
notes: list[str] = []


def bad(msg: str) -> None:
    problems.append(msg)


def has(text: str, sub: str) -> bool:
    return sub.lower() in text.lower()


def load(name: str) -> dict:
    data = json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))
    if data.get("schema") != 1:
        bad(f"{name}: schema is not 1")
    return data


def stmt_text(st: dict, via: str, cid: str) -> str:
    if via == "remember":
        if set(st) != {"day", "text"}:
            bad(f"{cid}: remember statement keys {sorted(st)}")
        return st.get("text", "")
    if set(st) != {"day", "turns"}:
        bad(f"{cid}: ingest statement keys {sorted(st)}")
    for t in st.get("turns", []):
        if not {"role", "content"} <= set(t) or not set(t) <= {"role", "speaker", "content"}:
            bad(f"{cid}: turn keys {sorted(t)}")
        if t.get("role") not in ("user", "assistant"):
            bad(f"{cid}: role {t.get('role')!r}")
    # the value must come from what a user said, not only from an assistant's echo
    return "\n".join(t["content"] for t in st.get("turns", []) if t.get("role") == "user")


def check_updates() -> None:
    chains = load("updates")["chains"]
    keys = {"id", "lang", "via", "style", "subject", "attribute", "kind", "statements",
            "now_q", "before_q", "current", "previous"}
    ids = Counter(c.get("id") for c in chains)
    for i, n in ids.items():
        if n > 1:
            bad(f"updates: duplicate id {i}")
    for c in chains:
        cid = c.get("id", "?")
        if not keys <= set(c):
            bad(f"{cid}: missing {sorted(keys - set(c))}")
            continue
        if c["lang"] not in ("en", "zh") or c["via"] not in ("remember", "ingest"):
            bad(f"{cid}: lang/via {c['lang']}/{c['via']}")
        if c["kind"] not in KINDS:
            bad(f"{cid}: kind {c['kind']!r}")
        sts = c["statements"]
        if not 2 <= len(sts) <= 4:
            bad(f"{cid}: {len(sts)} statements")
            continue
        days = [s["day"] for s in sts]
        if days != sorted(days):
            bad(f"{cid}: days not in order {days}")
        texts = [stmt_text(s, c["via"], cid) for s in sts]
        if not has(texts[-1], c["current"]):
            bad(f"{cid}: current {c['current']!r} not in the last statement")
        if not has(texts[-2], c["previous"]):
            bad(f"{cid}: previous {c['previous']!r} not in the statement before the last")
        for j, t in enumerate(texts[:-1]):
            if has(t, c["current"]):
                bad(f"{cid}: current {c['current']!r} already in statement {j}")
        if has(c["current"], c["previous"]) or has(c["previous"], c["current"]):
            bad(f"{cid}: current and previous overlap")
        for q in ("now_q", "before_q"):
            if any(c[q].strip("?？ ").lower() in t.lower() for t in texts):
                bad(f"{cid}: {q} copies a statement")
        if c["lang"] == "zh" and not HAN.search(" ".join(texts)):
            bad(f"{cid}: zh chain without Chinese text")
        if c["lang"] == "en" and HAN.search(" ".join(texts)):
            bad(f"{cid}: en chain with Chinese text")
        for w in USED_DOMAINS:
            if w in (c["subject"] + " " + c["attribute"]).lower():
                bad(f"{cid}: subject/attribute uses an earlier domain word {w!r}")
        if has(texts[-1], c["previous"]):
            notes.append(f"{cid}: the last statement also names the old value ({c['style']})")
    by = Counter((c["lang"], c["via"]) for c in chains)
    three = sum(len(c["statements"]) >= 3 for c in chains)
    if len(chains) != 40 or by[("en", "remember")] + by[("en", "ingest")] != 20:
        bad(f"updates: counts {len(chains)} {dict(by)}")
    if sum(v for (_lang, via), v in by.items() if via == "ingest") != 12 or three != 10:
        bad(f"updates: want 12 ingest and 10 chains with 3 values, got {dict(by)} / {three}")
    for lang in ("en", "zh"):
        n3 = sum(len(c["statements"]) >= 3 for c in chains if c["lang"] == lang)
        if by[(lang, "remember")] != 14 or by[(lang, "ingest")] != 6 or n3 != 5:
            bad(f"updates: {lang} wants 14 remember, 6 ingest, 5 with 3 values; got "
                f"{by[(lang, 'remember')]}/{by[(lang, 'ingest')]}/{n3}")
    print(f"updates: {len(chains)} chains {dict(sorted(by.items()))}; {three} with 3+ values; "
          f"{len(set(c['style'] for c in chains))} styles")


def check_near() -> None:
    pairs = load("near_misses")["pairs"]
    types = {"same_attr_diff_subject", "diff_attr_same_subject", "temporary_exception",
             "plan_vs_fact", "past_story_vs_fact", "negation_of_other", "list_items",
             "question_vs_statement"}
    keys = {"id", "lang", "type", "a", "b", "q_a", "q_b", "expect_a", "expect_b", "expected"}
    for p in pairs:
        pid = p.get("id", "?")
        if not keys <= set(p):
            bad(f"{pid}: missing {sorted(keys - set(p))}")
            continue
        if p["type"] not in types:
            bad(f"{pid}: type {p['type']}")
        if p["expected"] != "both_current":
            bad(f"{pid}: expected {p['expected']}")
        for side in ("a", "b"):
            if set(p[side]) != {"text", "kind", "day"}:
                bad(f"{pid}: {side} keys {sorted(p[side])}")
            elif p[side]["kind"] not in KINDS:
                bad(f"{pid}: {side} kind {p[side]['kind']!r}")
            if (p["lang"] == "zh") != bool(HAN.search(p[side]["text"])):
                bad(f"{pid}: {side} text language does not match lang")
        a, b = p["a"]["text"], p["b"]["text"]
        if not has(a, p["expect_a"]) or has(b, p["expect_a"]):
            bad(f"{pid}: expect_a {p['expect_a']!r} must be in a and not in b")
        if not has(b, p["expect_b"]) or has(a, p["expect_b"]):
            bad(f"{pid}: expect_b {p['expect_b']!r} must be in b and not in a")
        if p["a"]["day"] >= p["b"]["day"]:
            bad(f"{pid}: b must be written after a")
    half = NEAR_PAIRS // 2
    if len(pairs) != NEAR_PAIRS or Counter(p["lang"] for p in pairs) != Counter({"en": half,
                                                                               "zh": half}):
        bad(f"near_misses: want {NEAR_PAIRS} pairs, {half} per language")
    if set(Counter(p["type"] for p in pairs)) != types:
        bad("near_misses: not every type is covered")
    print(f"near_misses: {len(pairs)} pairs {dict(Counter(p['lang'] for p in pairs))}; "
          f"types {dict(Counter(p['type'] for p in pairs))}")
    if len({p["id"] for p in pairs}) != len(pairs):
        bad("near_misses: duplicate ids")


def check_relevance() -> None:
    stores = load("relevance")["stores"]
    kinds = {"fact", "preference", "event", "pending", "rule", "lesson", "procedure"}
    for st in stores:
        sid = st.get("id", "?")
        if not {"id", "lang", "about", "memories", "on_topic", "off_topic"} <= set(st):
            bad(f"{sid}: missing store keys")
            continue
        by = {}
        for m in st["memories"]:
            if set(m) != {"id", "kind", "text"} or m["kind"] not in kinds:
                bad(f"{sid}/{m.get('id')}: memory keys or kind")
            if m["id"] in by:
                bad(f"{sid}: duplicate memory id {m['id']}")
            by[m["id"]] = m["text"]
        for q in st["on_topic"]:
            if set(q) != {"q", "expect", "expect_text", "type"}:
                bad(f"{sid}: on_topic keys {sorted(q)}")
            if q["expect"] not in by:
                bad(f"{sid}: on_topic expects unknown {q['expect']}")
            elif by[q["expect"]] != q["expect_text"]:
                bad(f"{sid}: expect_text differs from memory {q['expect']}")
            if q["type"] not in ("direct", "paraphrase", "crosslingual"):
                bad(f"{sid}: on_topic type {q['type']}")
            if q["q"] in by.values():
                bad(f"{sid}: question copies a memory: {q['q']!r}")
        for q in st["off_topic"]:
            if set(q) != {"q", "type"} or q["type"] not in ("general", "other_person", "adjacent"):
                bad(f"{sid}: off_topic {q}")
        t_off = Counter(q["type"] for q in st["off_topic"])
        if len(st["memories"]) != 40 or len(st["on_topic"]) != 25 or \
                t_off != Counter({"general": 8, "other_person": 6, "adjacent": 16}):
            bad(f"{sid}: counts {len(st['memories'])}/{len(st['on_topic'])}/{dict(t_off)}")
        for q in st["on_topic"]:
            if q["q"].strip("?？ ").lower() in by.get(q["expect"], "").lower():
                bad(f"{sid}: on-topic question is a piece of its memory: {q['q']!r}")
        offq = [q["q"] for q in st["off_topic"]]
        if len(set(offq)) != len(offq):
            bad(f"{sid}: duplicate off-topic question")
        kinds = dict(Counter(m['kind'] for m in st['memories']))
        types = dict(Counter(q['type'] for q in st['off_topic']))
        print(f"relevance {sid}: {len(st['memories'])} memories {kinds}; "
              f"{len(st['on_topic'])} on-topic; {len(st['off_topic'])} off-topic {types}")


def en_words(text: str) -> set[str]:
    """Content words, cut to a four-letter stem so that lake/lakeside or fell/fells collide
    (crude on purpose: it may flag a false match, never misses a shared stem)."""
    return {w[:4] for w in re.findall(r"[a-z]+", text.lower()) if w not in STOP and len(w) > 1}


def zh_bigrams(text: str) -> set[str]:
    out = set()
    for run in re.findall(r"[\u4e00-\u9fff]+", text):
        out |= {run[i:i + 2] for i in range(len(run) - 1)}
    return out


def check_wake() -> None:
    data = json.loads((HERE / "wake.json").read_text(encoding="utf-8"))
    if data.get("schema") != 1:
        bad("wake: schema is not 1")
    fade = data.get("fade", {})
    if set(fade) != {"advance_days_per_step", "max_steps"}:
        bad(f"wake: fade keys {sorted(fade)}")
    for m in data.get("background", []):
        if set(m) != {"text", "kind"}:
            bad(f"wake: background keys {sorted(m)}")
    eps, ctls = data["episodes"], data["controls"]
    ids = [e["id"] for e in eps] + [c["id"] for c in ctls]
    if len(set(ids)) != len(ids):
        bad("wake: duplicate ids")
    for e in eps:
        eid = e.get("id", "?")
        if set(e) != {"id", "lang", "text", "kind", "cues"} or e["kind"] != "event":
            bad(f"{eid}: episode keys or kind")
            continue
        cues = e["cues"]
        if set(cues) != {"exact", "paraphrase", "cross_lingual"}:
            bad(f"{eid}: cue keys {sorted(cues)}")
            continue
        zh = e["lang"] == "zh"
        if zh != bool(HAN.search(e["text"])):
            bad(f"{eid}: text language does not match lang")
        if cues["exact"] not in e["text"]:
            bad(f"{eid}: exact cue is not a verbatim piece of the episode")
        if zh:
            shared = zh_bigrams(cues["paraphrase"]) & zh_bigrams(e["text"])
            if not HAN.search(cues["paraphrase"]) or HAN.search(cues["cross_lingual"]):
                bad(f"{eid}: paraphrase must be Chinese and cross_lingual English")
        else:
            shared = en_words(cues["paraphrase"]) & en_words(e["text"])
            if HAN.search(cues["paraphrase"]) or not HAN.search(cues["cross_lingual"]):
                bad(f"{eid}: paraphrase must be English and cross_lingual Chinese")
        if shared:
            bad(f"{eid}: paraphrase shares content with the episode: {sorted(shared)}")
    for c in ctls:
        if set(c) != {"id", "lang", "q"}:
            bad(f"{c.get('id')}: control keys {sorted(c)}")
        elif (c["lang"] == "zh") != bool(HAN.search(c["q"])):
            bad(f"{c['id']}: control language does not match lang")
    le, lc = Counter(e["lang"] for e in eps), Counter(c["lang"] for c in ctls)
    if le != Counter({"en": 8, "zh": 8}) or lc != Counter({"en": 4, "zh": 4}):
        bad(f"wake: counts episodes {dict(le)} controls {dict(lc)}")
    print(f"wake: {len(eps)} episodes {dict(le)}, {3 * len(eps)} cues, "
          f"{len(ctls)} controls {dict(lc)}, {len(data.get('background', []))} background facts")


def earlier(name: str) -> ModuleType:
    """An earlier set's checker module (``fresh14`` -> fresh14/validate.py), for its rules and
    its USED_DOMAINS, with this module's shared relevance check kept: an earlier checker may
    swap it for its own."""
    shared = globals()["check_relevance"]
    module = import_module(f"{name}.validate")
    globals()["check_relevance"] = shared
    return module


def domains_before(name: str) -> tuple[str, ...]:
    """The update-chain domains of the sets up to ``name``: its checker's USED_DOMAINS (which
    takes in the earlier ones) and its OWN_DOMAINS."""
    prior = earlier(name)
    return (*prior.USED_DOMAINS, *prior.OWN_DOMAINS)


def run(here: Path, used_domains: tuple[str, ...], near_pairs: int = 30,
        extra: tuple[Callable[[], None], ...] = (),
        relevance: Callable[[], None] | None = None) -> int:
    """Check the set in ``here``; its update chains' subject and attribute must name none of
    ``used_domains``; ``near_pairs``: the near-miss pairs it holds; ``extra``: the set's own
    checks, run after these; ``relevance``: the set's own relevance check, in place of
    ``check_relevance``. Prints what it finds; 1 when any check fails."""
    _start(here, used_domains, near_pairs)
    _each((check_updates, check_near, relevance or check_relevance, check_wake, *extra))
    return _report()


def run_own(here: Path, used_domains: tuple[str, ...], near_pairs: int,
            own: tuple[Callable[[], None], ...], replaced: tuple[str, ...] = ()) -> int:
    """Check a set of update chains and near misses in ``here`` with the shared checks, less
    the problems that start with ``replaced`` (rules the set checks its own way), then with
    the set's ``own`` checks. Prints what it finds; 1 when any check fails."""
    _start(here, used_domains, near_pairs)
    _each((check_updates, check_near))
    problems[:] = [p for p in problems if not (replaced and p.startswith(replaced))]
    _each(own)
    return _report()


def _start(here: Path, used_domains: tuple[str, ...], near_pairs: int) -> None:
    global HERE, USED_DOMAINS, NEAR_PAIRS
    HERE, USED_DOMAINS, NEAR_PAIRS = here, used_domains, near_pairs
    problems.clear()
    notes.clear()


def _each(checks: tuple[Callable[[], None], ...]) -> None:
    for fn in checks:
        try:
            fn()
        except Exception as exc:  # noqa: BLE001 - report a broken file, keep checking the rest
            bad(f"{fn.__name__}: {type(exc).__name__}: {exc}")


def _report() -> int:
    for n in notes:
        print("note:", n)
    for p in problems:
        print("PROBLEM:", p)
    print("OK" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


def check_chains(chains: list[dict], prefix: str) -> None:
    """Each update chain: its id (``prefix``-<lang>-NN), two or three statements, questions
    in the chain's language that name neither value, and a user turn in each ingested one."""
    for c in chains:
        cid = c.get("id", "?")
        if not re.fullmatch(rf"{prefix}-{c.get('lang')}-\d\d", cid):
            bad(f"{cid}: id must be {prefix}-<lang>-NN")
        if len(c.get("statements", [])) not in (2, 3):
            bad(f"{cid}: want 2 or 3 statements")
        for q in ("now_q", "before_q"):
            text = c.get(q, "")
            for v in ("current", "previous"):
                if has(text, c.get(v, "\0")):
                    bad(f"{cid}: {q} names the {v} value {c[v]!r}")
            if (c.get("lang") == "zh") != bool(HAN.search(text)):
                bad(f"{cid}: {q} is not asked in the chain's language")
        if c.get("via") == "ingest":
            for j, st in enumerate(c["statements"]):
                if not any(t.get("role") == "user" for t in st.get("turns", [])):
                    bad(f"{cid}: ingest statement {j} has no user turn")

# ---------------------------------------------------------------- shared by the later validators
ROOT = Path(__file__).resolve().parent.parent            # the repository
SHARED = ROOT.parent / "shared" / "bench" / "behaviours"


def lang_ok(lang: str, text: str) -> bool:
    return (lang == "zh") == bool(HAN.search(text))


def is_question(text: str) -> bool:
    return "?" in text or "？" in text


def norm(s: str) -> str:
    return re.sub(r"[\W_]+", "", s.lower())


def en_set(s: str) -> set[str]:
    return set(re.findall(r"[a-z0-9']+", s.lower()))


def zh_set(s: str) -> set[str]:
    out = set()
    for run in re.findall(r"[\u4e00-\u9fff0-9a-z]+", s.lower()):
        out |= {run[i:i + 2] for i in range(len(run) - 1)}
    return out


def strings(node) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for v in node.values() for s in strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in strings(v)]
    return []


def own_sentences() -> list[tuple[str, str]]:
    out = []
    for c in load("updates")["chains"]:
        for st in c["statements"]:
            if "text" in st:
                out.append((c["id"], st["text"]))
            for t in st.get("turns", []):
                out.append((c["id"], t["content"]))
        out += [(c["id"], c["now_q"]), (c["id"], c["before_q"])]
    for p in load("near_misses")["pairs"]:
        out += [(p["id"], p["a"]["text"]), (p["id"], p["b"]["text"]), (p["id"], p["q_a"]),
                (p["id"], p["q_b"])]
    return out


def check_no_repeats() -> None:
    files = sorted(SHARED.glob("*.json")) + sorted(
        f for f in (ROOT / "bench").glob("fresh*/*.json") if f.parent != HERE)
    earlier = set()
    for f in files:
        try:
            earlier |= {s for s in strings(json.loads(f.read_text(encoding="utf-8")))
                        if len(s) >= 8}
        except (OSError, ValueError) as exc:
            bad(f"no_repeats: could not read an earlier file {f.name}: {exc}")
    exact = {norm(s) for s in earlier}
    en_sets = [x for x in (en_set(s) for s in earlier if not HAN.search(s)) if len(x) >= 5]
    zh_sets = [x for x in (zh_set(s) for s in earlier if HAN.search(s)) if len(x) >= 6]
    mine = own_sentences()
    seen = Counter(norm(t) for _, t in mine)
    for key, n in seen.items():
        if n > 1:
            bad(f"no_repeats: a sentence occurs {n} times in this set: {key!r}")
    for cid, text in mine:
        if norm(text) in exact:
            bad(f"{cid}: sentence repeats an earlier set: {text!r}")
            continue
        if HAN.search(text):
            x, pool, need = zh_set(text), zh_sets, 6
        else:
            x, pool, need = en_set(text), en_sets, 5
        if len(x) < need:
            continue
        for y in pool:
            if len(x & y) / len(x | y) >= 0.8:
                bad(f"{cid}: sentence nearly copies an earlier set's: {text!r}")
                break
    print(f"no_repeats: {len(mine)} sentences of this set against {len(earlier)} strings in "
          f"{len(files)} earlier files")


# ---------------------------------------------------------------- sets of 24 chains and 48 pairs
NEAR_TYPES = ("same_attr_diff_subject", "diff_attr_same_subject", "temporary_exception",
              "plan_vs_fact", "past_story_vs_fact", "negation_of_other", "list_items",
              "question_vs_statement")
# run()'s fixed update counts (40 chains, 14/6 a language, 10 with three values): a set of 24
# replaces the messages that start so by check_set_updates'
SET_COUNT_RULES = ("updates: counts", "updates: want 12 ingest", "updates: en wants",
                   "updates: zh wants")


def check_set_updates(prefix: str) -> None:
    """A set of 24 update chains (fresh20 on): 12 a language, 8 through remember and 4 through
    ingest, 3 with three values, 10+ style names, 2+ kinds."""
    chains = load("updates")["chains"]
    if len(chains) != 24:
        bad(f"updates: want 24 chains, got {len(chains)}")
    for lang in ("en", "zh"):
        cs = [c for c in chains if c.get("lang") == lang]
        via = Counter(c.get("via") for c in cs)
        three = [c for c in cs if len(c.get("statements", [])) == 3]
        three_via = Counter(c["via"] for c in three)
        if len(cs) != 12 or via != Counter({"remember": 8, "ingest": 4}):
            bad(f"updates: {lang} wants 12 chains, 8 remember and 4 ingest; got {len(cs)} "
                f"{dict(via)}")
        if len(three) != 3 or three_via != Counter({"remember": 2, "ingest": 1}):
            bad(f"updates: {lang} wants 3 chains with 3 values (2 remember, 1 ingest); got "
                f"{dict(three_via)}")
        kinds = Counter(c.get("kind") for c in cs)
        if len(kinds) < 2 or not set(kinds) <= KINDS:
            bad(f"updates: {lang} wants 2+ kinds from KINDS; got {dict(kinds)}")
        if not any(c.get("via") == "ingest" and any(t.get("speaker") for st in c["statements"]
                                                    for t in st.get("turns", []))
                   for c in cs):
            bad(f"updates: {lang} has no ingest chain with a named speaker")
        nums = sorted(int(c["id"][-2:]) for c in cs if re.fullmatch(r".*-\d\d", c.get("id", "")))
        if nums != list(range(1, len(cs) + 1)):
            bad(f"updates: {lang} ids are not numbered 01..{len(cs):02d}")
    for lang in ("en", "zh"):
        styles = {c.get("style") for c in chains if c.get("lang") == lang}
        if len(styles) < 10:
            bad(f"updates: {lang} wants 10+ style names, got {len(styles)}")
    check_chains(chains, prefix)


def check_set_near(prefix: str) -> None:
    """A set of 48 near-miss pairs (fresh20 on): 3 of each type a language, days 0-6."""
    pairs = load("near_misses")["pairs"]
    for lang in ("en", "zh"):
        ps = [p for p in pairs if p.get("lang") == lang]
        types = Counter(p.get("type") for p in ps)
        if types != Counter({t: 3 for t in NEAR_TYPES}):
            bad(f"near_misses: {lang} wants 3 pairs of each of the 8 types, got {dict(types)}")
        nums = sorted(int(p["id"][-2:]) for p in ps if re.fullmatch(r".*-\d\d", p.get("id", "")))
        if nums != list(range(1, len(ps) + 1)):
            bad(f"near_misses: {lang} ids are not numbered 01..{len(ps):02d}")
        days = Counter((p["a"]["day"], p["b"]["day"]) for p in ps)
        if len(days) < 4:
            bad(f"near_misses: {lang} day offsets hardly vary: {dict(days)}")
    for p in pairs:
        pid = p.get("id", "?")
        if not re.fullmatch(rf"{prefix}-nm-{p.get('lang')}-\d\d", pid):
            bad(f"{pid}: id must be {prefix}-nm-<lang>-NN")
        a, b = p.get("a", {}), p.get("b", {})
        for side, m in (("a", a), ("b", b)):
            if not isinstance(m.get("day"), int) or not 0 <= m["day"] <= 6:
                bad(f"{pid}: {side} day must be 0..6")
        ka, kb = a.get("kind"), b.get("kind")
        t = p.get("type")
        if t == "plan_vs_fact" and {ka, kb} != {"fact", "pending"}:
            bad(f"{pid}: plan_vs_fact wants one fact and one pending plan, got {ka}/{kb}")
        if t == "past_story_vs_fact" and [ka, kb].count("event") != 1:
            bad(f"{pid}: past_story_vs_fact wants one event side, got {ka}/{kb}")
        if t == "temporary_exception" and (ka, kb) != ("fact", "fact"):
            bad(f"{pid}: temporary_exception wants two fact sides, got {ka}/{kb}")
        if norm(a.get("text", "")) == norm(b.get("text", "")):
            bad(f"{pid}: the two memories are the same sentence")
        if t == "question_vs_statement" and \
                is_question(a.get("text", "")) == is_question(b.get("text", "")):
            bad(f"{pid}: question_vs_statement wants exactly one side that asks")
        for q, e in (("q_a", "expect_a"), ("q_b", "expect_b")):
            text = p.get(q, "")
            if text.strip("?？ ").lower() in (a.get("text", "") + "\n" + b.get("text", "")).lower():
                bad(f"{pid}: {q} copies a memory")
            if has(text, p.get(e, "\0")):
                bad(f"{pid}: {q} names its own expected substring {p[e]!r}")
            if not lang_ok(p.get("lang"), text):
                bad(f"{pid}: {q} is not in the pair's language")


def run_set(here: Path, prefix: str, used_domains: tuple[str, ...]) -> int:
    """Check a set of 24 update chains and 48 near-miss pairs (fresh20 on), ids ``prefix``-...,
    whose update chains avoid ``used_domains``, and that repeats no earlier set."""
    own = (lambda: check_set_updates(prefix), lambda: check_set_near(prefix), check_no_repeats)
    return run_own(here, used_domains, 48, own, SET_COUNT_RULES)

"""The residual question: does the best hit mean what is asked about its subject?

A measurement, no change to the library. For each relevance question (the behaviour files'
format: stores of memories, on-topic and off-topic questions), the store is built as the shared
scorer builds it (score.py ``run_relevance``: the same clock, kinds and recall), recalled at the
library's default floor (today's answer) and at floor 0 (the hits to read). The words (and
names) of the question that a hit HOLDS are removed from the question (a surface word is
removed when every one of its ``engramdb.text.tokenize`` tokens is among the hit's tokens);
what remains ("What car does drive?") is embedded as a query by the default embedder's model
for the question's language (e5 for English, USE for Chinese: the model half a routed query
fills), and scored:

    V0  the whole question's z: cos(question, hit) against the question's cosines to the
        scope's other memories of the hit's language (a control: no residual)
    V1  the residual's z: cos(residual, hit) the same way
    V2  the residual's standing against the question bank: (cos(residual, hit) - the hit's
        mean cosine to the bank's questions of the question's language) / their spread
    V3  the residual against the hit's residual (the hit less the words it shares with the
        question, embedded as a passage): raw cosine (V3raw) and z over the scope (V3z)
    V4  the max of V1 over the top 3 hits (each hit with its own residual); V4bank and
        V4pair the same for V2 and V3z

A question abstains under a variant when today's recall abstains, or when the best hit shares
a content word with the question, the residual still holds a content word, and the score is
under t. (Where the best hit shares nothing, the residual is the whole question: the signal is
not used; where the residual holds no content word, every word asked is held: kept.)

    python bench/residual_study.py collect --set dev            # dev records (cached)
    python bench/residual_study.py sweep --set dev --half design
    python bench/residual_study.py final --set dev --half held --pick V1=0.5 --pick V4=0.8
    python bench/residual_study.py final --set fresh --pick V1=0.5
    ENGRAMDB_LOCOMO_DIR=/work/shared/bench python bench/residual_study.py locomo \
        --pick V4bank=0.93          # LoCoMo dev, fit half (bench/locomo.py's stores and cache)

Embeddings are cached in $RESID_CACHE (default /tmp/resid10). Sets: dev
(../shared/bench/behaviours/relevance.json), fresh, fresh3, fresh4, fresh6 (bench/<set>/)."""

from __future__ import annotations

import argparse
import json
import os
import pickle
import re
import sys
import time
import zlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SETS = {"dev": Path("/work/shared/bench/behaviours/relevance.json"),
        **{n: ROOT / "bench" / n / "relevance.json"
           for n in ("fresh", "fresh3", "fresh4", "fresh6")}}
CACHE = Path(os.environ.get("RESID_CACHE", "/tmp/resid10"))
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)  # score.py's clock
VARIANTS = ("V0", "V1", "V2", "V3raw", "V3z", "V4", "V4bank", "V4pair")
MIN_BG = 8  # memories of the hit's language needed for a per-language background

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_PIECE = re.compile(rf"([{_CJK}]+)|([^\W_{_CJK}]+(?:'[^\W_{_CJK}]+)*)")


def half_of(text: str) -> str:
    return "design" if zlib.crc32(text.encode("utf-8")) % 2 == 0 else "held"


# ---------------------------------------------------------------- residuals
def surface(text: str) -> list[tuple[int, int, str]]:
    """(start, end, word) of the text's words: jieba's precise cut of a Chinese run, a Latin
    word otherwise."""
    import jieba

    out = []
    for m in _PIECE.finditer(text):
        if m.group(1):
            at = m.start()
            for w in jieba.cut(m.group(1), HMM=True):
                out.append((at, at + len(w), w))
                at += len(w)
        else:
            out.append((m.start(), m.end(), m.group(2)))
    return out


def residual(text: str, held: set[str]) -> tuple[str, bool, bool]:
    """``text`` less its words whose tokens are all in ``held``: (the rest, whether a word
    went, whether the rest still holds a content token)."""
    from engramdb.text import tokenize

    cut, rest = [], []
    for start, end, w in surface(text):
        toks = tokenize(w)
        if toks and all(t in held for t in toks):
            cut.append((start, end))
    if not cut:
        return text, False, bool(tokenize(text))
    pos = 0
    for start, end in cut:
        rest.append(text[pos:start])
        pos = end
    rest.append(text[pos:])
    out = " ".join("".join(rest).split())
    return out, True, bool(tokenize(out))


# ---------------------------------------------------------------- embeddings
class Vectors:
    """Unit vectors per model ('en' = the main model, e5; 'zh' = the cross-lingual one, USE),
    as queries or passages, cached on disk."""

    def __init__(self) -> None:
        from engramdb.registry import make_embedder

        self.emb = make_embedder("default", threads=1)
        self.path = CACHE / "vectors.pkl"
        self.kept: dict[tuple[str, bool, str], np.ndarray] = {}
        if self.path.exists():
            with open(self.path, "rb") as f:
                self.kept = pickle.load(f)
        self.timed: list[float] = []

    def model(self, lang: str):
        return self.emb.main if lang == "en" else self.emb.cjk

    def get(self, texts: list[str], lang: str, query: bool) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if (lang, query, t) not in self.kept]
        if missing:
            t0 = time.perf_counter()
            got = np.asarray(self.model(lang).embed_batch(missing, query=query), np.float32)
            if query and len(missing) == 1:
                self.timed.append(time.perf_counter() - t0)
            got /= np.maximum(np.linalg.norm(got, axis=1, keepdims=True), 1e-12)
            for t, v in zip(missing, got, strict=True):
                self.kept[(lang, query, t)] = v
        return np.stack([self.kept[(lang, query, t)] for t in texts])

    def save(self) -> None:
        CACHE.mkdir(parents=True, exist_ok=True)
        with open(self.path, "wb") as f:
            pickle.dump(self.kept, f)


def bank_rows(vecs: Vectors, lang: str) -> np.ndarray:
    from engramdb.recall.questionbank import questions

    return vecs.get([q for ql, q in questions() if ql == lang], lang, True)


# ---------------------------------------------------------------- collect
def zscore(c_hit: float, cos_all: np.ndarray, langs: list[str], hit_row: int) -> float:
    """The hit's cosine against the scope's other memories of its language (all memories
    where that language has under MIN_BG)."""
    same = np.array([lang == langs[hit_row] for lang in langs])
    same[hit_row] = False
    if same.sum() < MIN_BG:
        same = np.ones(len(langs), dtype=bool)
        same[hit_row] = False
    bg = cos_all[same]
    return float((c_hit - bg.mean()) / max(float(bg.std()), 1e-6))


def collect(name: str) -> list[dict]:
    import engramdb
    from engramdb.testing import FrozenClock
    from engramdb.text import is_cjk, tokenize

    out_path = CACHE / f"records_{name}.json"
    if out_path.exists():
        return json.loads(out_path.read_text("utf-8"))
    vecs = Vectors()
    banks = {lang: bank_rows(vecs, lang) for lang in ("en", "zh")}
    data = json.loads(SETS[name].read_text("utf-8"))
    records = []
    for st in data["stores"]:
        clock = FrozenClock(START)
        mem = engramdb.open(":memory:", embedder=vecs.emb, clock=clock)
        s = mem.scope(user="u", agent="bench")
        ids: dict[str, str] = {}
        texts: dict[str, str] = {}
        for i, m in enumerate(st["memories"]):
            clock.set(START + timedelta(days=i))
            got = s.remember(m["text"], kind=m.get("kind") or "fact").memory
            ids[m["id"]] = got.id
            texts[got.id] = got.content
        clock.set(START + timedelta(days=len(st["memories"]) + 1))
        order = list(texts)
        mtexts = [texts[i] for i in order]
        mlangs = ["zh" if is_cjk(t) else "en" for t in mtexts]
        passages = {lang: vecs.get(mtexts, lang, False) for lang in ("en", "zh")}
        bank_mean = {lang: passages[lang] @ banks[lang].T for lang in ("en", "zh")}
        bank_stat = {lang: (b.mean(axis=1), np.maximum(b.std(axis=1), 1e-6))
                     for lang, b in bank_mean.items()}
        qs = [(q, "on") for q in st["on_topic"]] + [(q, "off") for q in st["off_topic"]]
        for q, side in qs:
            text = q["q"]
            qlang = "zh" if is_cjk(text) else "en"
            today = s.recall(text, k=3, track=False)
            abst_today = bool(today.abstained or not today)
            ok = side == "on" and any(h.memory.id == ids.get(q.get("expect")) or
                                      h.memory.content == q.get("expect_text") for h in today)
            hits = s.recall(text, k=3, track=False, relevance_floor=0.0)
            ok0 = side == "on" and any(h.memory.id == ids.get(q.get("expect")) or
                                       h.memory.content == q.get("expect_text") for h in hits)
            P = passages[qlang]
            qv = vecs.get([text], qlang, True)[0]
            cos_q = P @ qv
            rec = {"set": name, "store": st["id"], "store_lang": st.get("lang", ""),
                   "q": text, "qlang": qlang, "side": side, "type": q.get("type", ""),
                   "half": half_of(text), "abst_today": abst_today, "ok_today": ok,
                   "ok_floor0": ok0, "hits": [], "score": {}}
            per_hit = []
            for rank, h in enumerate(hits):
                row = order.index(h.memory.id) if h.memory.id in texts else None
                if row is None:
                    continue
                htext = texts[h.memory.id]
                res, shared, content = residual(text, set(tokenize(htext)))
                rv = vecs.get([res], qlang, True)[0] if res.strip() else qv
                cos_r = P @ rv
                v1 = zscore(float(cos_r[row]), cos_r, mlangs, row)
                info = {"rank": rank, "text": htext, "score": round(float(h.score), 4),
                        "residual": res, "shared": shared, "content": content,
                        "V0": zscore(float(cos_q[row]), cos_q, mlangs, row), "V1": v1}
                mean, spread = bank_stat[qlang]
                info["V2"] = float((cos_r[row] - mean[row]) / spread[row])
                info["V2full"] = float((cos_q[row] - mean[row]) / spread[row])
                hres, _, _ = residual(htext, set(tokenize(text)))
                hv = vecs.get([hres], qlang, False)[0] if hres.strip() else P[row]
                c3 = float(hv @ rv)
                info["hit_residual"] = hres
                info["V3raw"] = c3
                info["V3z"] = zscore(c3, cos_r, mlangs, row)
                per_hit.append(info)
            rec["hits"] = per_hit
            if per_hit:
                top = per_hit[0]
                rec["shared"], rec["content"] = top["shared"], top["content"]
                rec["score"] = {v: top[v] for v in ("V0", "V1", "V2", "V2full", "V3raw", "V3z")}
                rec["score"]["V4"] = max(h["V1"] for h in per_hit)
                rec["score"]["V4bank"] = max(h["V2"] for h in per_hit)
                rec["score"]["V4pair"] = max(h["V3z"] for h in per_hit)
            records.append(rec)
        mem.close()
        vecs.save()
    if vecs.timed:
        print(f"residual embeddings: {len(vecs.timed)}, median "
              f"{1000 * float(np.median(vecs.timed)):.1f} ms", file=sys.stderr)
    out_path.write_text(json.dumps(records, ensure_ascii=False, indent=0), "utf-8")
    return records


# ---------------------------------------------------------------- scoring
def abstains(r: dict, variant: str, t: float) -> bool:
    if r["abst_today"]:
        return True
    if not r.get("shared") or not r.get("content") or variant not in r["score"]:
        return False
    return r["score"][variant] < t


def tally(recs: list[dict], variant: str | None, t: float) -> tuple[int, int, int, int]:
    """(on kept, on total, off abstained, off total)."""
    on = [r for r in recs if r["side"] == "on"]
    off = [r for r in recs if r["side"] == "off"]
    kept = sum(r["ok_today"] and not (variant and abstains(r, variant, t)) for r in on)
    ab = sum(r["abst_today"] if variant is None else abstains(r, variant, t) for r in off)
    return kept, len(on), ab, len(off)


def groups(recs: list[dict]) -> dict[str, list[dict]]:
    g: dict[str, list[dict]] = {"all": recs}
    for key in ("en", "zh", "mixed"):
        g[f"store {key}"] = [r for r in recs if r["store_lang"] == key]
    for cat in sorted({r["type"] for r in recs if r["side"] == "off"}):
        g[f"off {cat}"] = [r for r in recs if r["side"] == "on" or r["type"] == cat]
    return g


def cell(k: int, n: int, a: int, m: int) -> str:
    return f"{k}/{n}, {a}/{m}"


def sweep(recs: list[dict], thresholds: dict[str, list[float]]) -> None:
    g = groups(recs)
    names = [n for n in g if g[n]]
    print("| variant | t | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    print("| today | - | " + " | ".join(cell(*tally(g[n], None, 0)) for n in names) + " |")
    for v, ts in thresholds.items():
        for t in ts:
            print(f"| {v} | {t:g} | " + " | ".join(cell(*tally(g[n], v, t)) for n in names)
                  + " |")


def pick(recs: list[dict], variant: str, lost: int) -> tuple[float, int, int]:
    """The highest t (most abstention) that loses at most ``lost`` of today's on-topic
    answers; (t, on kept, off abstained)."""
    base = tally(recs, None, 0)
    best = (float("-inf"), base[0], base[2])
    vals = sorted({r["score"][variant] for r in recs if variant in r.get("score", {})})
    for lo, hi in zip(vals, vals[1:] + [vals[-1] + 1], strict=True):
        t = (lo + hi) / 2
        k, _, a, _ = tally(recs, variant, t)
        if base[0] - k <= lost and a >= best[2]:
            best = (t, k, a)
    return best


def distribution(recs: list[dict]) -> None:
    live = [r for r in recs if not r["abst_today"]]
    print("\nQuestions today answers (not abstained), by what the best hit shares:")
    for side in ("on", "off"):
        s = [r for r in live if r["side"] == side]
        print(f"  {side}: {len(s)}; shares a content word {sum(bool(r.get('shared')) for r in s)}"
              f"; of those, residual keeps a content word "
              f"{sum(bool(r.get('shared')) and bool(r.get('content')) for r in s)}")
    print("\nPercentiles 10/50/90 over those with a residual (on kept today | off answered):")
    for v in VARIANTS:
        on = [r["score"][v] for r in live if r["side"] == "on" and r["ok_today"]
              and r.get("shared") and r.get("content")]
        off = [r["score"][v] for r in live if r["side"] == "off"
               and r.get("shared") and r.get("content")]
        if on and off:
            print(f"  {v}: on {np.percentile(on, [10, 50, 90]).round(2).tolist()}  "
                  f"off {np.percentile(off, [10, 50, 90]).round(2).tolist()}")
    print("\nNo shared word (residual = whole question), what V1 = V0 says there:")
    for side in ("on", "off"):
        s = [r["score"]["V1"] for r in live if r["side"] == side and not r.get("shared")
             and r["score"]]
        if s:
            print(f"  {side}: n={len(s)}, V1 10/50/90 {np.percentile(s, [10, 50, 90]).round(2)}")


def dump(recs: list[dict]) -> None:
    for r in recs:
        if r["abst_today"] or not r["hits"]:
            continue
        top = r["hits"][0]
        sc = " ".join(f"{v}={r['score'][v]:.2f}" for v in VARIANTS)
        print(f"{r['side']:3} {r['type'][:5]:5} ok={int(r['ok_today'])} {r['q']!r} -> "
              f"{top['text'][:60]!r} | res={top['residual']!r} | hres="
              f"{top.get('hit_residual', '')[:40]!r} | {sc}")


def locomo(picks: list[tuple[str, float]], max_conv: int) -> None:
    """LoCoMo dev, fit half (conversations 1, 3, 5): the stores bench/locomo.py builds (its
    embedding cache in bench/.cache); each question recalled as bench/abstain.py does (k=10,
    the library's floor); V4bank (and V2) from the stored vectors of the top 3 hits. Counts
    the on-topic questions answered today (an evidence turn in the top 10) that each pick
    would make abstain, and the off-topic ones (bench/offtopic.py) it would abstain on."""
    sys.path.insert(0, str(ROOT / "bench"))
    from locomo import SHARED, EngramRetriever
    from offtopic import questions as offtopic_questions

    sys.path.insert(0, str(SHARED))
    import locomo_retrieval as lr  # type: ignore[import-not-found]

    from engramdb.model import Scope
    from engramdb.text import is_cjk, tokenize

    convs = lr.select_split(lr.load_locomo(str(SHARED / "locomo_dev.json")), "dev",
                            lr.load_splits(str(SHARED / "splits.json")))
    vecs = Vectors()
    banks = {lang: bank_rows(vecs, lang) for lang in ("en", "zh")}
    split = vecs.emb.main.dimensions
    retriever = EngramRetriever()
    rows = []
    try:
        for n, conv in enumerate(convs[:max_conv]):
            if n % 2:
                continue
            t0 = time.perf_counter()
            retriever.index(conv.conversation_id, conv.turns)
            print(f"{conv.conversation_id}: {len(conv.turns)} turns indexed in "
                  f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
            scope = Scope(conv.conversation_id, "locomo")
            asked = [(q.question, q.evidence, q.category) for q in conv.questions]
            asked += [(t, None, lang) for t, lang in
                      offtopic_questions(conv.speaker_a, conv.speaker_b)]
            for text, gold, cat in asked:
                hits = retriever.mem.recall(text, k=10, track=False,
                                            user=conv.conversation_id, agent="locomo")
                got = [h.memory.metadata.get("dia_id") for h in hits]
                qlang = "zh" if is_cjk(text) else "en"
                dims = slice(0, split) if qlang == "en" else slice(split, None)
                top = list(hits)[:3]
                stored = retriever.mem.store.vectors(scope, [h.memory.id for h in top])
                per = []
                for h in top:
                    res, shared, content = residual(text, set(tokenize(h.memory.content)))
                    rv = vecs.get([res], qlang, True)[0] if res.strip() else \
                        vecs.get([text], qlang, True)[0]
                    m = np.asarray(stored[h.memory.id][dims], np.float32)
                    m = m / max(float(np.linalg.norm(m)), 1e-12)
                    bank = banks[qlang] @ m
                    per.append((float((m @ rv - bank.mean()) / max(bank.std(), 1e-6)),
                                shared, content, res))
                rows.append({"q": text, "on": gold is not None, "cat": cat,
                             "abst_today": bool(hits.abstained or not hits),
                             "found": bool(gold) and bool(set(got) & set(gold)),
                             "r10": len(set(got) & set(gold)) / len(gold) if gold else 0.0,
                             "shared": bool(per and per[0][1]),
                             "content": bool(per and per[0][2]),
                             "residual": per[0][3] if per else "",
                             "score": {"V2": per[0][0], "V4bank": max(p[0] for p in per)}
                             if per else {}})
            vecs.save()
    finally:
        retriever.close()
    (CACHE / "locomo_rows.json").write_text(json.dumps(rows, ensure_ascii=False), "utf-8")
    on = [r for r in rows if r["on"]]
    off = [r for r in rows if not r["on"]]
    found = [r for r in on if r["found"] and not r["abst_today"]]
    print(f"on-topic {len(on)} (answered today: {len(found)}, R@10 "
          f"{sum(r['r10'] for r in on) / len(on):.3f}); off-topic {len(off)} "
          f"(abstained today {sum(r['abst_today'] for r in off)})")
    print(f"answered today whose best hit shares a content word and leaves one: "
          f"{sum(r['shared'] and r['content'] for r in found)}")
    for v, t in picks:
        lost = [r for r in found if abstains(r, v, t)]
        ab = sum(abstains(r, v, t) for r in off)
        r10 = sum(0.0 if abstains(r, v, t) else r["r10"] for r in on) / len(on)
        print(f"| {v} | {t:g} | {len(lost)}/{len(found)} ({100 * len(lost) / len(found):.1f} %)"
              f" | R@10 {r10:.3f} | off {ab}/{len(off)} |")
        for r in lost[:8]:
            print(f"    lost: {r['q']!r} (residual {r['residual']!r}, {r['score'][v]:.2f})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("collect", "sweep", "final", "dump", "locomo"))
    ap.add_argument("--set", action="append", choices=sorted(SETS), default=[])
    ap.add_argument("--conversations", type=int, default=5)
    ap.add_argument("--half", choices=("design", "held", "both"), default="both")
    ap.add_argument("--pick", action="append", default=[], help="VARIANT=t (final)")
    args = ap.parse_args()
    if args.what == "locomo":
        locomo([(p.split("=")[0], float(p.split("=")[1])) for p in args.pick],
               args.conversations)
        return 0
    recs = []
    for name in args.set:
        recs += collect(name)
    if args.half != "both":
        recs = [r for r in recs if r["half"] == args.half]
    if args.what == "collect":
        print(f"{len(recs)} records")
    elif args.what == "dump":
        dump(recs)
    elif args.what == "sweep":
        ts = {v: [float(x) for x in np.round(np.arange(-1.0, 3.01, 0.5), 2)]
              for v in ("V0", "V1", "V2", "V3z", "V4", "V4bank", "V4pair")}
        ts["V3raw"] = [0.75, 0.8, 0.82, 0.84, 0.86, 0.88]
        sweep(recs, ts)
        print("\nThe highest t losing at most 0 / 1 / 2 of today's on-topic answers "
              "(t: on kept, off abstained):")
        base = tally(recs, None, 0)
        print(f"  today: on {base[0]}/{base[1]}, off {base[2]}/{base[3]}")
        for v in VARIANTS:
            print(f"  {v}: " + "; ".join(
                f"lost<={n}: t={t:.3f} on {k} off {a}"
                for n in (0, 1, 2) for t, k, a in [pick(recs, v, n)]))
        distribution(recs)
    else:
        chosen = {}
        for p in args.pick:
            v, t = p.split("=")
            chosen.setdefault(v, []).append(float(t))
        sweep(recs, chosen)
    return 0


if __name__ == "__main__":
    sys.exit(main())

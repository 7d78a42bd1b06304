"""Measurement study: which signals, read at recall without an LLM, tell the wake file's control
questions that wake an episode (same domain, another thing) from the cues that mean it.

    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/wake_study.py collect   # stores + probes -> json
    ... collect --wrap                # each cue asked as a question (FRAMES)
    ... collect [--wrap] --gate bank:2.63   # the probes again with a gate (q_use, z-S4, bank)
    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/wake_study.py report    # tables and the rules

The json goes to /tmp/wake10 (WAKE_STUDY_CACHE). ``collect`` fades each wake file's episodes as
../shared/bench/behaviours/score.py ``run_wake`` does (the same clock steps, background facts,
episodes and sleep(full=True) until archived), then probes each cue and control with
recall(k=3) on a copy of the faded store, as the scorer does, and reads for every archived
episode (not only the 20 nearest the query) the signals below. Nothing under src/ changes: the
standings are read by wrapping recall/wakemeaning.py's ``averaged`` (it returns what it
returned) and by calling recall/background.py's ``standing`` per model.

Signals (per cue, for the intended episode and for each archived memory that wakes):
  S1 z (mean of the models, rescaled as recall does), z_e5, z_use, z - wake_at
  S2 z minus the next-best archived memory's z
  S3 the memory's standing against the question bank of the query's language
     (recall/questionbank.py, the shipped vectors, as pipeline ``_standings``), and per model
  S4 the query's own closeness to the bank: its top-5 mean cosine to the bank's questions of its
     language, as a z against the bank questions' own leave-one-out top-5 means, per model
  S5 content words (engramdb.text.tokenize) shared by the query and the memory

The dev file's cases are split into halves by bench/behaviours_half.py (crc32 of the episode
id); all ten controls are used on both halves (the design half holds 5, none of which wakes)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import zlib
from datetime import timedelta
from pathlib import Path
from statistics import median

os.environ.setdefault("OMP_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parents[1]
SCORER = Path("/work/shared/bench/behaviours/score.py")
FILES = {"dev": SCORER.parent / "wake.json", "fresh": ROOT / "bench" / "fresh" / "wake.json"}
CACHE = Path(os.environ.get("WAKE_STUDY_CACHE", "/tmp/wake10"))
OUT = CACHE / "signals.json"
WRAPPED = CACHE / "signals_wrapped.json"
# the form check: each cue asked as a question (one fixed frame per language, not tuned), to
# tell whether the query's typicality (S4) reads its meaning or only its form
FRAMES = {"en": "Do you remember {}?", "zh": "你还记得{}吗？"}


def scorer():
    spec = importlib.util.spec_from_file_location("behaviour_score", SCORER)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def half(key: str) -> str:
    return "design" if zlib.crc32(key.encode("utf-8")) % 2 == 0 else "held"


# ---------------------------------------------------------------- the bank in both models
def bank_vectors(model) -> dict:
    """The question bank embedded as queries by each model (e5, USE), cached."""
    import numpy as np

    from engramdb.recall.questionbank import questions

    path = CACHE / "bank.npz"
    known = questions()
    langs = np.array([lang for lang, _ in known])
    if path.exists():
        got = np.load(path)
        e5, use = got["e5"], got["use"]
    else:
        texts = [t for _, t in known]
        e5 = np.asarray(model.main.embed_batch(texts, query=True), dtype=np.float32)
        use = np.asarray(model.cjk.embed_batch(texts, query=True), dtype=np.float32)
        np.savez(path, e5=e5, use=use)
    out = {}
    for name, rows in (("e5", e5), ("use", use)):
        rows = rows / np.linalg.norm(rows, axis=1, keepdims=True)
        for lang in ("en", "zh"):
            part = rows[langs == lang]
            sims = part @ part.T
            np.fill_diagonal(sims, -np.inf)
            top = np.sort(sims, axis=1)[:, -5:].mean(axis=1)  # each question's top-5 in the rest
            out[(name, lang)] = (part, float(top.mean()), float(top.std()))
    return out


# ---------------------------------------------------------------- collect
def collect(wrap: bool = False, gate: tuple[str, float] | None = None) -> None:
    """``gate``: (signal, t) run with a meaning wake gated, to check the report's simulation:
    ("q_use", t) wakes by meaning only where the query's typicality in USE is <= t;
    ("z-S4", t) only a memory whose z less the query's mean typicality is >= t; ("bank", t) only
    a memory whose standing against the question bank (S3) is >= t. The gate wraps
    recall/wake.py's ``meaning_cue`` and ``_cues`` in this process only."""
    import numpy as np

    import engramdb.recall.wakemeaning as wm
    from engramdb.recall.background import standing as model_standing
    from engramdb.recall.questionbank import bank_for
    from engramdb.text import is_cjk, tokenize

    sc = scorer()
    ctx = sc.Ctx("default", False)
    model = ctx.model
    split = model.main.dimensions
    bank = bank_vectors(model)
    shipped = bank_for(model)
    captured: list[dict] = []
    original = wm.averaged

    def spy(backgrounds, scope, vectors, languages, asked, candidates):
        got = original(backgrounds, scope, vectors, languages, asked, candidates)
        captured.append({"backgrounds": backgrounds, "scope": scope, "vectors": list(vectors),
                         "languages": languages, "asked": asked})
        return got

    wm.averaged = spy
    import engramdb.recall.wake as wk

    plain_cue = wk.meaning_cue
    asking: dict = {}

    def gated_cue(z: float, at: float):
        if gate is not None:
            name, t = gate
            typical = asking["bank"]
            if name == "q_use" and typical["use"]["z"] > t:
                return None
            if name == "z-S4" and z - typical["z"] < t:
                return None
        return plain_cue(z, at)

    wk.meaning_cue = gated_cue
    plain_cues = wk._cues

    def gated_cues(store, scope, rec, query, text, meaning, z):
        found = plain_cues(store, scope, rec, query, text, meaning, z)
        if gate is None or gate[0] != "bank" or not found:
            return found
        vec = store.vectors(scope, [rec.id])[rec.id]
        stood = shipped.standings(text, dense_of(text), {rec.id: vec})[rec.id]
        kept = [c for c in found if c.kind != "meaning" or stood >= gate[1]]
        if kept and all(c.kind in wk._ANCHORED for c in kept) \
                and len({c.kind for c in kept}) < wk.MIN_KINDS:
            return []   # one anchor kind left: it needed the meaning beside it
        return kept

    wk._cues = gated_cues
    dense: dict = {}

    def dense_of(text: str):
        if text not in dense:
            dense[text] = model.embed_batch([text], query=True)[0]
        return dense[text]
    rows = []

    def one(name: str, path: Path) -> None:
        """One wake file: its store faded, each cue and control probed."""
        data = json.loads(path.read_text("utf-8"))
        eps, controls = data["episodes"], data["controls"]
        fade = data.get("fade", {})
        tmp = CACHE / name
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        base = str(tmp / "base.db")
        mem, s, clock = ctx.open(base)
        with mem:
            for m in data.get("background", []):
                s.remember(m["text"], kind=m.get("kind") or "fact",
                           priority="P0" if m.get("kind") == "fact" else None)
            ids = {}
            for i, e in enumerate(eps):
                clock.set(sc.START + timedelta(hours=i))
                ids[e["id"]] = s.remember(e["text"], kind=e.get("kind") or "event").memory.id
            for _ in range(1, fade.get("max_steps", 24) + 1):
                clock.advance(days=fade.get("advance_days_per_step", 30))
                s.sleep(full=True)
                if all(s.get(x).layer.value != "core" for x in ids.values()):
                    break
            archived = {k: x for k, x in ids.items() if s.get(x).layer.value == "archived"}
            faded_at = clock.now()
        of_id = {x: k for k, x in archived.items()}
        text_of = {e["id"]: e["text"] for e in eps}
        print(f"{name}: {len(archived)}/{len(eps)} archived", flush=True)

        def probe(query: str, intended: str | None) -> dict:
            p = str(tmp / "probe.db")
            shutil.copyfile(base, p)
            m2, s2, c2 = ctx.open(p)
            captured.clear()
            asking["bank"] = query_typical(query)
            with m2:
                c2.set(faded_at + timedelta(hours=1))
                hits = s2.recall(query, k=3)
                top = [h.memory.id for h in hits]
                layers = {k: s2.get(x).layer.value for k, x in archived.items()}
                woken = {h.memory.id: h.explanation.notes[0] for h in hits if h.woken}
                sig = signals(query, captured[-1] if captured else None)
            os.remove(p)
            row = {"query": query, "intended": intended,
                   "top_archived": [of_id[x] for x in top if x in of_id],
                   "woken": {of_id[x]: note for x, note in woken.items() if x in of_id},
                   "promoted": [k for k, v in layers.items() if v == "core"],
                   "query_bank": asking["bank"], "memories": sig}
            return row

        def query_typical(query: str) -> dict:
            lang = "zh" if is_cjk(query) else "en"
            out = {}
            for mname in ("e5", "use"):
                q = vectors_of(query, mname)
                part, mu, sd = bank[(mname, lang)]
                cos = np.sort(part @ q)
                out[mname] = {"max": float(cos[-1]), "top5": float(cos[-5:].mean()),
                              "z": float((cos[-5:].mean() - mu) / sd)}
            out["z"] = (out["e5"]["z"] + out["use"]["z"]) / 2
            return out

        def signals(query: str, cap: dict | None) -> dict:
            """Every archived episode's signals for ``query``."""
            if cap is None:
                return {}
            bgs, scope, vectors = cap["backgrounds"], cap["scope"], cap["vectors"]
            langs, asked = cap["languages"], cap["asked"]
            store = bgs.store
            mids = list(archived.values())
            found = store.vectors(scope, mids)
            lang_of = {m: "zh" if m in langs.get("zh", ()) else "en" for m in found}
            cands = [(m, lang_of[m], found[m]) for m in mids if m in found]
            avg = original(bgs, scope, vectors, langs, asked, cands)
            per = {}
            for v in vectors:
                bg = bgs.of(scope, v, langs)
                if bg is None:
                    continue
                per["e5" if int(bg.dims[0]) < split else "use"] = \
                    model_standing(bg, v, asked, cands)
            dense = model.embed_batch([query], query=True)[0]
            stood = shipped.standings(query, dense, {m: found[m] for m in found}) \
                if shipped is not None else {}
            qlang = "zh" if is_cjk(query) else "en"
            qtok = set(tokenize(query))
            out = {}
            for m in found:
                k = of_id[m]
                vec = found[m]
                bank_z = {}
                for mname, dims in (("e5", slice(0, split)), ("use", slice(split, None))):
                    part = bank[(mname, qlang)][0]
                    mv = vec[dims] / np.linalg.norm(vec[dims])
                    q = vectors_of(query, mname)
                    typical = part @ mv
                    bank_z[mname] = float((q @ mv - typical.mean()) / typical.std())
                out[k] = {"z": avg.get(m), "z_e5": per.get("e5", {}).get(m),
                          "z_use": per.get("use", {}).get(m),
                          "wake_at": wm.wake_at(len(langs.get(lang_of[m], ()))),
                          "bank": stood.get(m), "bank_e5": bank_z["e5"],
                          "bank_use": bank_z["use"],
                          "shared": len(qtok & set(tokenize(text_of[k]))),
                          "lang": lang_of[m]}
            return out

        qcache: dict = {}

        def vectors_of(query: str, mname: str):
            key = (query, mname)
            if key not in qcache:
                emb = model.main if mname == "e5" else model.cjk
                q = np.asarray(emb.embed_batch([query], query=True)[0], dtype=np.float32)
                qcache[key] = q / np.linalg.norm(q)
            return qcache[key]

        for e in eps:
            if e["id"] not in archived:
                continue
            for cue_type, cue in e["cues"].items():
                if wrap:
                    cue = FRAMES["zh" if is_cjk(cue) else "en"].format(cue.rstrip("?？。."))
                row = probe(cue, e["id"])
                row.update(set=name, kind=cue_type, id=e["id"], lang=e["lang"],
                           half=half(e["id"]) if name == "dev" else "fresh")
                row["ok"] = e["id"] in row["top_archived"] or e["id"] in row["promoted"]
                rows.append(row)
                print(f"  {e['id']} {cue_type}: ok={row['ok']} woken={list(row['woken'])}",
                      flush=True)
        for c in controls:
            row = probe(c["q"], None)
            row.update(set=name, kind="control", id=c["id"], lang=c["lang"],
                       half=(half(c["id"]) if name == "dev" else "fresh"))
            row["ok"] = not (row["top_archived"] or row["woken"] or row["promoted"])
            rows.append(row)
            print(f"  {c['id']}: clean={row['ok']} woken={list(row['woken'])}", flush=True)
    for name, path in FILES.items():
        one(name, path)
    wm.averaged = original
    wk.meaning_cue = plain_cue
    wk._cues = plain_cues
    out = CACHE / f"signals_{'wrapped' if wrap else 'plain'}_{gate[0]}_{gate[1]}.json" \
        if gate else WRAPPED if wrap else OUT
    out.write_text(json.dumps(rows, ensure_ascii=False, indent=1), "utf-8")
    print(f"wrote {out}")


# ---------------------------------------------------------------- report
def with_signals(rows: list[dict]) -> None:
    """Adds, per memory, S2 (its z over the next-best archived memory's), S4 (the query's
    typicality against the bank) and the combinations tried."""
    for row in rows:
        zs = {k: v["z"] for k, v in row["memories"].items() if v["z"] is not None}
        for k, v in row["memories"].items():
            rest = [z for o, z in zs.items() if o != k]
            v["margin"] = v["z"] - max(rest) if v["z"] is not None and rest else None
            v["over"] = v["z"] - v["wake_at"] if v["z"] is not None else None
            v["min_model"] = min(v["z_e5"], v["z_use"]) if None not in (v["z_e5"], v["z_use"]) \
                else None
            v["q_typical"] = row["query_bank"]["z"]
            v["q_e5"] = row["query_bank"]["e5"]["z"]
            v["q_use"] = row["query_bank"]["use"]["z"]
            for a in (0.5, 1.0):
                v[f"z-{a}*S4"] = v["z"] - a * row["query_bank"]["z"] if v["z"] is not None else None
            v["over_min"] = v["min_model"] - v["wake_at"] if v["min_model"] is not None else None


SIGNALS = ("z", "z_e5", "z_use", "over", "min_model", "over_min", "margin", "bank", "bank_e5",
           "bank_use", "q_typical", "q_e5", "q_use", "shared", "z-0.5*S4", "z-1.0*S4")
KINDS = ("exact", "paraphrase", "cross_lingual")


def groups(rows: list[dict], halves: tuple[str, ...]) -> dict[str, list[dict]]:
    """Each signal group's memories: the intended episode woken, per cue kind; the intended one
    missed; another episode woken by a cue; a control's woken memory (false wake); a control's
    best archived memory that did not wake."""
    out: dict[str, list[dict]] = {}
    for row in rows:
        if row["half"] not in halves:
            continue
        mems = row["memories"]
        if row["kind"] == "control":
            for k in row["woken"]:
                out.setdefault("false wake (control)", []).append(mems[k])
            if not row["woken"]:
                best = max(mems, key=lambda k: mems[k]["z"] if mems[k]["z"] is not None else -9)
                out.setdefault("control, best not woken", []).append(mems[best])
            continue
        if row["intended"] in row["woken"]:
            out.setdefault(f"woken: {row['kind']}", []).append(mems[row["intended"]])
        else:
            out.setdefault(f"missed: {row['kind']}", []).append(mems[row["intended"]])
        for k in row["woken"]:
            if k != row["intended"]:
                out.setdefault("other episode woken by a cue", []).append(mems[k])
    return out


def fmt(values: list[float]) -> str:
    vals = sorted(v for v in values if v is not None)
    if not vals:
        return "-"
    if len(vals) <= 3:
        return ", ".join(f"{v:.2f}" for v in vals)
    return f"{vals[0]:.2f} / {median(vals):.2f} / {vals[-1]:.2f}"


def table(rows: list[dict], halves: tuple[str, ...], signals: tuple[str, ...]) -> str:
    got = groups(rows, halves)
    order = [g for g in ("woken: exact", "woken: paraphrase", "woken: cross_lingual",
                         "missed: exact", "missed: paraphrase", "missed: cross_lingual",
                         "other episode woken by a cue", "false wake (control)",
                         "control, best not woken") if g in got]
    head = "| signal | " + " | ".join(f"{g} ({len(got[g])})" for g in order) + " |"
    lines = [head, "|" + "---|" * (len(order) + 1)]
    for s in signals:
        lines.append(f"| {s} | " + " | ".join(fmt([m[s] for m in got[g]]) for g in order)
                     + " |")
    return "\n".join(lines)


def gated(rows: list[dict], signal: str, at: float, halves: tuple[str, ...]) -> dict:
    """What a gate "a meaning wake needs ``signal`` >= ``at``" leaves: per cue kind the cues
    whose intended episode still wakes (a cue that woke it today and whose signal passes; a
    cue that gains a slot when another wake is gated is not counted), and the controls that
    still wake something."""
    out = {k: [0, 0] for k in KINDS}
    false = [0, 0]
    for row in rows:
        if row["half"] not in halves:
            continue
        mems = row["memories"]
        if row["kind"] == "control":
            false[1] += 1
            false[0] += any(mems[k][signal] is not None and mems[k][signal] >= at
                            for k in row["woken"])
            continue
        cell = out[row["kind"]]
        cell[1] += 1
        m = mems[row["intended"]]
        cell[0] += row["ok"] and m[signal] is not None and m[signal] >= at
    out["false"] = false
    return out


def cell(pair: list[int]) -> str:
    return f"{pair[0]}/{pair[1]}"


def counts(rows: list[dict]) -> str:
    """The scorer's own counts (intended episode in the top 3 or promoted; a control that
    brings any archived memory back) per half: design | held | fresh; controls: all ten dev
    ones under "dev"."""
    cells = []
    for where in ("design", "held", "fresh"):
        got = {k: [0, 0] for k in KINDS}
        for r in rows:
            if r["kind"] != "control" and r["half"] == where:
                got[r["kind"]][0] += r["ok"]
                got[r["kind"]][1] += 1
        cells += [cell(got[k]) for k in KINDS]
        if where != "design":
            ctl = [r for r in rows if r["kind"] == "control"
                   and (r["set"] == "fresh") == (where == "fresh")]
            cells.append(f"{sum(not r['ok'] for r in ctl)}/{len(ctl)}")
    return " | ".join(cells)


def runs() -> None:
    """The probes run again with each gate in place (``collect --gate``), beside today's."""
    print("\n## runs: the scorer's counts with the gate in the recall\n")
    print("| cues | gate | design: exact | para | cross | held: exact | para | cross | "
          "dev false | fresh: exact | para | cross | fresh false |")
    print("|" + "---|" * 13)
    for path in sorted(CACHE.glob("signals*.json"), key=lambda p: (len(p.name), p.name)):
        parts = path.stem.split("_", 2)
        cues = "as a question" if "wrapped" in path.stem else "as written"
        gate = "none" if len(parts) < 3 else parts[2].replace("_", " ")
        print(f"| {cues} | {gate} | {counts(json.loads(path.read_text('utf-8')))} |")


def report(rows: list[dict]) -> None:
    with_signals(rows)
    dev = [r for r in rows if r["set"] == "dev"]
    fresh = [r for r in rows if r["set"] == "fresh"]
    for r in dev:   # every control on both halves
        if r["kind"] == "control":
            r["half"] = "control"
    print("## dev, design half (all 10 controls)\n")
    print(table(dev, ("design", "control"), SIGNALS))
    print("\n## dev, held half (all 10 controls)\n")
    print(table(dev, ("held", "control"), SIGNALS))
    print("\n## fresh\n")
    print(table(fresh, ("fresh",), SIGNALS))
    # the gate on each signal that stops every dev control's false wake, chosen on the
    # design half: just above the highest value a woken control's memory has
    print("\n## gates: a meaning wake needs signal >= t; t just above the dev controls' "
          "false wakes\n")
    print("| signal | t | design: exact | para | cross | held: exact | para | cross | "
          "dev false | fresh: exact | para | cross | fresh false |")
    print("|" + "---|" * 13)
    woke = groups(dev, ("control",)).get("false wake (control)", [])
    base = {"t": None}
    for s in ("none", *SIGNALS):
        if s == "none":
            sig, t = "z", -99.0
        else:
            vals = [m[s] for m in woke if m[s] is not None]
            if not vals:
                continue
            sig, t = s, max(vals) + 1e-3
            if s in ("q_typical", "q_e5", "q_use"):   # a typical question is the suspect one
                continue
        d = gated(dev, sig, t, ("design", "control"))
        h = gated(dev, sig, t, ("held", "control"))
        f = gated(fresh, sig, t, ("fresh",))
        print(f"| {s} | {'' if s == 'none' else f'{t:.2f}'} | " + " | ".join(
            cell(x[k]) for x in (d,) for k in KINDS) + " | " + " | ".join(
            cell(h[k]) for k in KINDS) + f" | {cell(d['false'])} | " + " | ".join(
            cell(f[k]) for k in KINDS) + f" | {cell(f['false'])} |")
    del base
    # the query's typicality (S4) gates the other way: a meaning wake needs S4 <= t
    print("\n## gates on the query's typicality: a meaning wake needs S4 <= t\n")
    for s in ("q_typical", "q_e5", "q_use"):
        vals = [m[s] for m in woke]
        t = min(vals) - 1e-3
        flipped = [{**r, "memories": {k: {**v, "neg": -v[s]} for k, v in r["memories"].items()}}
                   for r in rows]
        fd = [r for r in flipped if r["set"] == "dev"]
        ff = [r for r in flipped if r["set"] == "fresh"]
        d = gated(fd, "neg", -t, ("design", "control"))
        h = gated(fd, "neg", -t, ("held", "control"))
        f = gated(ff, "neg", -t, ("fresh",))
        print(f"| {s} | {t:.2f} | " + " | ".join(cell(d[k]) for k in KINDS) + " | "
              + " | ".join(cell(h[k]) for k in KINDS) + f" | {cell(d['false'])} | "
              + " | ".join(cell(f[k]) for k in KINDS) + f" | {cell(f['false'])} |")


def main() -> int:
    CACHE.mkdir(parents=True, exist_ok=True)
    what = sys.argv[1] if len(sys.argv) > 1 else "report"
    if what == "collect":
        gate = None
        if "--gate" in sys.argv:
            name, t = sys.argv[sys.argv.index("--gate") + 1].split(":")
            gate = (name, float(t))
        collect(wrap="--wrap" in sys.argv, gate=gate)
        return 0
    report(json.loads(OUT.read_text("utf-8")))
    runs()
    return 0


if __name__ == "__main__":
    sys.exit(main())

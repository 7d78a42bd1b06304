"""Check extraction.json and updates.json in this folder against the schema that
/work/shared/bench/behaviours/score.py reads, and check every substring rule.
Run: /usr/bin/python3 validate.py   (stdlib only; does not import the library)"""
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
KINDS = {"identity", "fact", "preference", "event", "pending", "rule", "lesson", "procedure"}
errors = []


def need(cond, msg):
    if not cond:
        errors.append(msg)


def low(s):
    return s.lower()


def text_of(st, via):
    if via == "remember":
        return st["text"]
    return "\n".join(t["content"] for t in st["turns"])


# ---------------- extraction
ext = json.loads((HERE / "extraction.json").read_text(encoding="utf-8"))
need(set(ext) == {"schema", "items"} and ext["schema"] == 1, "extraction top level")
ids = set()
per = Counter()
for it in ext["items"]:
    need(set(it) == {"id", "lang", "text", "expect"}, f"{it.get('id')}: keys {sorted(it)}")
    need(it["id"] not in ids, f"{it['id']}: duplicate id")
    ids.add(it["id"])
    need(it["lang"] in ("en", "zh"), f"{it['id']}: lang")
    need(isinstance(it["text"], str) and it["text"].strip(), f"{it['id']}: text")
    e = it["expect"]
    if e is None:
        per[(it["lang"], "null")] += 1
        continue
    need(set(e) == {"kind", "values"}, f"{it['id']}: expect keys")
    need(e["kind"] in KINDS, f"{it['id']}: kind {e['kind']}")
    need(isinstance(e["values"], list) and e["values"], f"{it['id']}: values")
    for v in e["values"]:
        need(low(v) in low(it["text"]), f"{it['id']}: value {v!r} not in text")
    per[(it["lang"], e["kind"])] += 1
for lang in ("en", "zh"):
    row = {k: per[(lang, k)] for k in ["null", *sorted(KINDS)]}
    print("extraction", lang, sum(row.values()), row)
    need(sum(row.values()) == 50, f"extraction {lang}: not 50 items")
    need(row["null"] == 8, f"extraction {lang}: not 8 null")
    for k in KINDS:
        need(row[k] >= 4, f"extraction {lang}: fewer than 4 {k}")

# ---------------- updates
upd = json.loads((HERE / "updates.json").read_text(encoding="utf-8"))
need(set(upd) == {"schema", "chains"} and upd["schema"] == 1, "updates top level")
FIELDS = {"id", "lang", "via", "style", "subject", "attribute", "kind", "statements",
          "now_q", "before_q", "current", "previous"}
ids = set()
cnt = Counter()
three = Counter()
styles = Counter()
for c in upd["chains"]:
    cid = c.get("id")
    need(set(c) - {"note"} == FIELDS, f"{cid}: keys {sorted(c)}")
    need(cid not in ids, f"{cid}: duplicate id")
    ids.add(cid)
    need(c["lang"] in ("en", "zh") and c["via"] in ("remember", "ingest"), f"{cid}: lang/via")
    need(c["kind"] in KINDS, f"{cid}: kind")
    sts = c["statements"]
    need(2 <= len(sts) <= 4, f"{cid}: {len(sts)} statements")
    days = [s["day"] for s in sts]
    need(all(isinstance(d, int) for d in days) and days == sorted(days), f"{cid}: days")
    for s in sts:
        if c["via"] == "remember":
            need(set(s) == {"day", "text"} and s["text"].strip(), f"{cid}: remember statement")
        else:
            need(set(s) == {"day", "turns"} and s["turns"], f"{cid}: ingest statement")
            for t in s["turns"]:
                need(set(t) <= {"role", "speaker", "content"} and {"role", "content"} <= set(t),
                     f"{cid}: turn keys")
                need(t["role"] in ("user", "assistant"), f"{cid}: role")
            need(any(t["role"] == "user" for t in s["turns"]), f"{cid}: no user turn")
    last, prev = text_of(sts[-1], c["via"]), text_of(sts[-2], c["via"])
    cur, old = c["current"], c["previous"]
    need(low(cur) in low(last), f"{cid}: current {cur!r} not in last statement")
    need(low(old) in low(prev), f"{cid}: previous {old!r} not in the statement before it")
    # scoring sanity: the new value must not appear earlier, and the two values must differ
    for s in sts[:-1]:
        need(low(cur) not in low(text_of(s, c["via"])),
             f"{cid}: current appears in an earlier statement")
    need(low(cur) not in low(old) and low(old) not in low(cur), f"{cid}: current/previous overlap")
    for q in ("now_q", "before_q"):
        need(c[q].strip() and low(cur) not in low(c[q]) and low(old) not in low(c[q]),
             f"{cid}: {q} gives away a value")
    cnt[(c["lang"], c["via"])] += 1
    three[c["lang"]] += len(sts) >= 3
    styles[c["style"]] += 1
print("updates", dict(cnt), "three-step", dict(three))
print("styles", dict(sorted(styles.items())))
need(len(upd["chains"]) == 40, "updates: not 40 chains")
need(sum(v for (_lang, v_), v in cnt.items() if v_ == "remember") == 28,
     "updates: not 28 remember")
need(sum(three.values()) >= 6, "updates: fewer than 6 three-step")

if errors:
    print("\n".join("ERROR " + e for e in errors))
    sys.exit(1)
print("OK")

"""The readable text of each MCP tool's result (a tool answers with structured content, its
``to_dict()``, and this text)."""

from __future__ import annotations

from typing import Any


def line(m: dict[str, Any]) -> str:
    where = f" {m['uri']}" if m.get("uri") else ""
    state = "" if m.get("layer") == "core" else f" ({m.get('layer')})"
    return f"[{m['kind']}{where}]{state} {m['content']}  (id {m['id']})"


def lines(items: list[dict[str, Any]], empty: str) -> str:
    return "\n".join(f"- {line(m)}" for m in items) if items else empty


def write_text(r: dict[str, Any]) -> str:
    if r["action"] == "reject":
        failed = ", ".join(r["evidence"].get("failed", []))
        return f"reject ({r['rule']}: {failed}): nothing stored"
    return f"{r['action']} ({r['rule']}): {line(r['memory'])}"


def recall_text(r: dict[str, Any]) -> str:
    if not r["hits"]:
        return r["note"] or "nothing found"
    out = [f"{i}. {line(h['memory'])}  score {h['score']:.4f}"
           + (f"\n   why: {h['why']}" if h.get("why") else "")
           + (f"\n   verdict: {h['verdict']['text']}" if h.get("verdict") else "")
           for i, h in enumerate(r["hits"], start=1)]
    return "\n".join(out + ([f"note: {r['note']}"] if r["note"] else []))


def history_text(r: dict[str, Any]) -> str:
    return "\n".join(
        f"v{v['version']}{' (current)' if v['current'] else ''} {v['op']} at {v['at']}"
        f" by {v['actor'] or '?'}{': ' + v['reason'] if v['reason'] else ''} -> "
        f"{v['memory']['content'] or '(erased)'}" for v in r["versions"])


def boot_text(r: dict[str, Any]) -> str:
    out = [lines(r["memories"], "nothing to load")]
    out += [f"missing: {uri}" for uri in r["missing"]]
    out += [f"due for review: {line(m)}" for m in r.get("due", [])]
    if r.get("still_true"):
        out += [r["still_true_title"]] + [f"- {line(m)}" for m in r["still_true"]]
    out += [f"warning: {w}" for w in r.get("warnings", [])]
    cut = ", cut short by the budget" if r["truncated"] else ""
    return "\n".join(out + [f"({len(r['memories'])} memories, about {r['tokens']} tokens{cut})"])


def sleep_text(r: dict[str, Any]) -> str:
    out = [f"{p['phase']}: examined {p['examined']}, changed "
           f"{', '.join(f'{k} {n}' for k, n in p['counts'].items()) or 'nothing'}"
           f"{'; ' + p['note'] if p['note'] else ''}" for p in r["phases"]]
    return "\n".join(out + [f"{k}: skipped ({why})" for k, why in r["skipped"].items()])


def review_text(r: dict[str, Any]) -> str:
    return "\n".join(f"- [{x['kind']}] {x['content']}  (id {x['id']}; due {x['due_at']}, "
                     f"retrievability {x['retrievability']})" for x in r["reviews"]) \
        or "nothing due for review"


def profile_text(r: dict[str, Any]) -> str:
    head = (f"profile: {r['tokens']} of {r['budget']} tokens; {r['pending']} pending "
            f"({r['overdue']} overdue)")
    return "\n".join([head, *(f"warning: {w}" for w in r["warnings"])])


def entity_text(r: dict[str, Any]) -> str:
    head = (f"{r['name']} ({', '.join(r['kinds']) or 'named in text'}); "
            f"aliases: {', '.join(r['aliases']) or 'none'}; {r['memories']} memories, "
            f"first seen {r['first_seen']}, last seen {r['last_seen']}")
    facts = [f"- [{x['kind']}] {x['content']}  (id {x['id']})" for x in r["facts"]]
    triples = [f"- ({t['subject']}) {t['predicate']} -> {t['object']}"
               for t in r.get("triples", [])]
    changes = [" -> ".join(x["content"] for x in chain) for chain in r["history"]]
    return "\n".join([head, *facts, *triples, *(f"changed: {c}" for c in changes)])


def stats_text(r: dict[str, Any]) -> str:
    layers = ", ".join(f"{k} {n}" for k, n in r["by_layer"].items())
    kinds = ", ".join(f"{k} {n}" for k, n in r["by_kind"].items()) or "none"
    return (f"user={r['user']} agent={r['agent']}: {r['total']} memories ({layers}); "
            f"kinds: {kinds}; {r['events']} events; embedder {r['embedder']} "
            f"({r['dimensions']} dimensions); store {r['path']}")


def strength_text(r: dict[str, Any]) -> str:
    half = "never fades" if r["half_life_days"] is None else f"half-life {r['half_life_days']} d"
    return (f"{r['id']} {r['kind']} {r['priority']} layer={r['layer']}: weight {r['weight']}, "
            f"retention {r['retention']}, {r['uses']} use(s), {half}"
            f"{', archived at the next decay' if r['archivable'] else ''}")


def snapshot_text(r: dict[str, Any]) -> str:
    items = [f"- {i['name']} taken {i['at']}: {i['memories']} memories" for i in r["snapshots"]]
    if r["action"] == "restore" and r.get("restored"):
        items.append(", ".join(f"{k} {n}" for k, n in r["restored"].items()))
    return "\n".join(items) or "no snapshots"


def hits_text(r: dict[str, Any]) -> str:
    return "\n".join(f"{i}. {line(h['memory'])}  score {h['score']:.4f}"
                     for i, h in enumerate(r["hits"], start=1)) or "nothing linked"


def links_text(r: dict[str, Any]) -> str:
    out = [f"- {x['source']} -{x['relation']} ({x['weight']})-> {x['target']}"
           for x in r["links"]]
    if r.get("removed") is not None:
        out.append(f"removed {r['removed']} link(s)")
    return "\n".join(out) or "no links"


def context_text(r: dict[str, Any]) -> str:
    cut = f", {len(r['cut'])} item(s) cut" if r["cut"] else ""
    return f"{r['text'] or '(nothing to add)'}\n({r['tokens']} of {r['budget']} tokens{cut})"


def ingest_text(r: dict[str, Any]) -> str:
    counts = ", ".join(f"{k} {n}" for k, n in r["counts"].items()) or "nothing extracted"
    out = [f"session {r['session']}: {r['turns']} turn(s), {len(r['events'])} kept as events; "
           f"{r['extractor']} extractor: {counts}"]
    out += [f"- {x['action']} {line(x['memory'])}" for x in r["extracted"]
            if x["action"] != "reject"]
    out += [f"- forgot {f['id']}: {f['content']}" for f in r.get("forgotten", [])]
    return "\n".join(out)


def memories_text(r: dict[str, Any]) -> str:
    return "\n".join(f"- {line(m)}" for m in r["memories"]) or "no memories"


def focus_text(r: dict[str, Any]) -> str:
    goal = f"goal: {r['goal']['title']}\n" if r["goal"] else ""
    procs = "".join(f"procedure: {p['title']} ({p['why']})\n" for p in r["procedures"])
    mems = "\n".join(f"- [{m['kind']}] {m['content']}  score {m['score']}"
                     for m in r["memories"]) or "no memories in focus"
    return goal + procs + mems + ("\n(uncertain: check before acting)" if r["uncertain"] else "")


def goals_text(r: dict[str, Any]) -> str:
    out = [f"- {g['title']} [{g['status']}] (id {g['id']})"
           + "".join(f"\n  open: {x}" for x in g["open_loops"]) for g in r["goals"]]
    return "\n".join(out) or "no goals"


def session_text(r: dict[str, Any]) -> str:
    if r["action"] == "list":
        return "\n".join(r["sessions"]) or "no sessions"
    if r["action"] == "fetch":
        return str(r["content"])
    if r["action"] == "end":
        h = r["handover"]
        n = len(h["ingested"]["extracted"]) if h["ingested"] else 0
        return f"ended {h['session']}: {len(h['messages'])} turn(s) handed over, {n} extracted"
    w = r["session"]
    return f"{w['prompt'] or '(empty)'}\n({w['tokens']} tokens, {w['turns']} turn(s))"


def procedures_text(r: dict[str, Any]) -> str:
    return "\n".join(f"- {p.get('title', p['id'])} (id {p['id']})"
                     + (f": {p['why']}" if p.get("why") else "")
                     for p in r["procedures"]) or "no procedures"


def still_true_text(r: dict[str, Any]) -> str:
    return "\n".join(f"- [{x['kind']}] {x['content']}  (id {x['id']}; last confirmed "
                     f"{x['last_confirmed'][:10]}, doubt {x['doubt']})" for x in r["queue"]) \
        or "nothing to ask about: every fact was confirmed within its period"


def confirm_text(r: dict[str, Any]) -> str:
    return f"confirmed {r['id']}: {r['content']} (asked again from {r['next_at'][:10]})"

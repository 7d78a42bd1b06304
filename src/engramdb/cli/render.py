"""Output of the `engramdb` commands: JSON on stdout with --json, else rich tables and lines."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

import engramdb
from engramdb.model import Action, Hit, Hits, Link, Record, Stats, Version, WriteResult

from .options import Door

SHORT = 160  # characters of content shown in a table row


def emit(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def out() -> Console:
    return Console(highlight=False)


def err() -> Console:
    return Console(stderr=True, highlight=False)


def short(text: str, limit: int = SHORT) -> Text:
    return Text(text if len(text) <= limit else text[: limit - 1] + "…")


def when(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value else ""


def plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def record_table(rec: Record) -> Table:
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column("field", style="bold", no_wrap=True)
    table.add_column("value", overflow="fold")
    for name, value in rec.to_dict().items():
        if name != "content_hash" and value not in (None, "", [], {}):
            table.add_row(name, Text(plain(value)))
    return table


def records_table(records: Iterable[Record], show_layer: bool) -> Table:
    table = Table(show_lines=False)
    table.add_column("id", no_wrap=True)
    table.add_column("at", no_wrap=True)
    table.add_column("kind")
    if show_layer:
        table.add_column("layer")
    table.add_column("uri", overflow="fold")
    table.add_column("content", ratio=1, overflow="fold")
    for rec in records:
        layer = [rec.layer.value] if show_layer else []
        table.add_row(rec.id, when(rec.at), rec.kind.value, *layer, Text(rec.uri or ""),
                      short(rec.content))
    return table


def hits_table(hits: Hits) -> Table:
    table = Table()
    table.add_column("#", justify="right")
    table.add_column("score", justify="right")
    table.add_column("kind")
    table.add_column("content", ratio=1, overflow="fold")
    table.add_column("why", ratio=1, overflow="fold")
    table.add_column("id", no_wrap=True)
    for rank, hit in enumerate(hits, start=1):
        table.add_row(str(rank), f"{hit.score:.4f}", hit.memory.kind.value,
                      short(hit.memory.content), Text(hit.why), hit.memory.id)
    return table


def explain_hit(rank: int, hit: Hit) -> Text:
    e = hit.explanation
    legs = ", ".join(f"{name} rank {leg.rank} score {leg.score:.4f}"
                     for name, leg in e.legs.items())
    terms = ", ".join(f"{name}={value:.4f}" for name, value in e.terms.items())
    lines = [f"#{rank} {hit.memory.id}  score {hit.score:.4f}",
             f"  why: {hit.why}",
             f"  legs: {legs or 'none'}",
             f"  fused {e.fused:.4f}  strength {e.strength:.4f}  final {e.final:.4f}",
             f"  terms: {terms or 'none'}"]
    lines += [f"  note: {note}" for note in e.notes]
    return Text("\n".join(lines))


def versions_table(versions: list[Version]) -> Table:
    table = Table()
    chain = len({v.memory.id for v in versions}) > 1  # a supersession chain: name each link
    if chain:
        table.add_column("memory", no_wrap=True)
    table.add_column("version", justify="right")
    table.add_column("op")
    table.add_column("at", no_wrap=True)
    table.add_column("who")
    table.add_column("why", overflow="fold")
    table.add_column("layer")
    table.add_column("kind")
    table.add_column("content", ratio=1, overflow="fold")
    for v in versions:
        cells = [f"{v.version}*" if v.current else str(v.version), v.op, when(v.at),
                 Text(v.who), Text(v.reason or ""), v.memory.layer.value, v.memory.kind.value,
                 short(v.memory.content)]
        table.add_row(*([f"…{v.memory.id[-6:]}"] if chain else []), *cells)
    return table


def stats_table(stats: Stats) -> Table:
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column("field", style="bold", no_wrap=True)
    table.add_column("value", overflow="fold")
    table.add_row("path", Text(stats.path))
    table.add_row("embedder", Text(f"{stats.embedder} ({stats.dimensions} dimensions)"))
    table.add_row("scope", Text(f"user={stats.user} agent={stats.agent}"))
    table.add_row("memories", str(stats.total))
    for layer, n in stats.by_layer.items():
        table.add_row(f"  {layer}", str(n))
    table.add_row("by kind", ", ".join(f"{k} {n}" for k, n in stats.by_kind.items()) or "-")
    table.add_row("events", str(stats.events))
    if stats.pending_vectors:
        table.add_row("pending vectors", str(stats.pending_vectors))
    return table


def show_write(result: WriteResult, inferred: Any = None) -> None:
    """One line: action, id, kind (with the extractor rule that inferred it), write rule."""
    rec = result.memory
    failed = result.evidence.get("failed") if result.action == Action.REJECT else None
    guess = ""
    if inferred is not None:
        guess = (" (inferred: no rule matched, the default)" if inferred.rule == "default"
                 else f" (inferred by {inferred.rule})")
    out().print(Text(f"{result.action.value} {rec.id} kind={rec.kind.value}{guess} "
                     f"rule={result.rule}" + (f" uri={rec.uri}" if rec.uri else "")
                     + (f" failed={','.join(failed)} (nothing stored)" if failed else "")))


def info(d: Door, line: str) -> None:
    """An informational line: on stderr, only with -v/--verbose."""
    if d.verbose:
        err().print(Text(line))


def links_table(links: list[Link]) -> Table:
    table = Table()
    for col in ("source", "relation", "target", "weight", "updated"):
        table.add_column(col, no_wrap=col != "relation")
    for link in links:
        table.add_row(link.source, link.relation, link.target, f"{link.weight:.2f}",
                      when(link.updated_at))
    return table


def path_hits(hits: list[Hit], as_json: bool) -> None:
    if as_json:
        emit([h.to_dict() for h in hits])
        return
    table = Table()
    for col in ("#", "score", "content", "how", "id"):
        table.add_column(col, ratio=1 if col == "content" else None,
                         overflow="fold" if col == "content" else "ellipsis")
    for rank, hit in enumerate(hits, start=1):
        table.add_row(str(rank), f"{hit.score:.3f}", short(hit.memory.content),
                      Text("; ".join(hit.explanation.notes)), hit.memory.id)
    out().print(table)
    if not hits:
        err().print(Text("nothing is linked to it"))


def key_table(keys: list[engramdb.model.ApiKey]) -> Table:
    table = Table()
    for name in ("id", "user", "agent", "role", "name", "created", "revoked"):
        table.add_column(name, no_wrap=name in ("id", "role", "created", "revoked"))
    for k in keys:
        table.add_row(k.id, Text(k.user), Text(k.agent), k.role.value, Text(k.name),
                      when(k.created_at), when(k.revoked_at))
    return table


def show_goal(goal: Any, d: Door) -> None:
    if d.json:
        emit(goal.to_dict())
        return
    out().print(Text(f"{goal.status.value:<7} {goal.id}  {goal.title}"))
    for name in ("constraints", "open_loops", "evidence"):
        for item in getattr(goal, name):
            out().print(Text(f"        {name.rstrip('s').replace('_', ' ')}: {item}"))


def show_procedure(proc: Any) -> None:
    out().print(Text(f"{proc.title}  ({proc.uri}, confidence {proc.confidence:.2f}, "
                     f"{proc.successes} ok / {proc.failures} failed)"))
    out().print(Text(f"  triggers: {', '.join(proc.triggers)}"))
    for i, step in enumerate(proc.steps, 1):
        out().print(Text(f"  {i}. {step}"))

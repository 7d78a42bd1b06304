"""Output of the `engramdb` commands: JSON on stdout with --json, else rich tables and lines."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

import typer
from rich import box
from rich.cells import cell_len
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

import engramdb
from engramdb.model import Action, Hit, Hits, Link, Record, Stats, Version, WriteResult

from .options import Door
from .wrap import wrap

SHORT = 160  # characters of content shown in a table row


def emit(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def out() -> Console:
    """stdout. Tables fit its width; a line of text is never broken (soft wrap): the terminal
    wraps it, and a pipe (`| tail -1`, `> prompt.txt`) gets it whole."""
    return Console(highlight=False, soft_wrap=True)


def err() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


def short(text: str, limit: int = SHORT) -> Text:
    return Text(text if len(text) <= limit else text[: limit - 1] + "…")


def when(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value else ""


def plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def number(value: float, places: int = 3) -> str:
    """A float as a person reads it: at most ``places`` decimals, no trailing zeros (0.65, not
    0.6499999999999999); a value too small for them keeps two significant digits."""
    if value != 0 and abs(value) < 0.5 * 10 ** -places:
        return f"{value:.2g}"
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def rounded(value: Any) -> Any:
    """``value`` with every float in it (in lists and dicts too) rounded as ``number``."""
    if isinstance(value, float):
        return float(number(value))
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [rounded(v) for v in value]
    return value


def fields(values: dict[str, Any], spaced: bool = False) -> Table:
    """Name and value, one a line, floats rounded; ``spaced``: names with spaces, not _."""
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column("field", style="bold", no_wrap=True)
    table.add_column("value", overflow="fold")
    for name, value in values.items():
        shown = number(value) if isinstance(value, float) else plain(rounded(value))
        table.add_row(name.replace("_", " ") if spaced else name, Text(shown))
    return table


def record_table(rec: Record) -> Table:
    return fields({name: value for name, value in rec.to_dict().items()
                   if name != "content_hash" and value not in (None, "", [], {})})


# ---------------------------------------------------------------- tables that fit the terminal

MIN_CONTENT = 24   # the narrowest a content column gets: optional columns give way first
GAP = 2            # characters between two columns


@dataclass
class Column:
    """One column of a table laid out by ``fit``. ``drop``: 0 always shown, else the order in
    which it gives way (highest first) when the content column would get under MIN_CONTENT.
    ``content``: the column that takes the rest of the width (``wrap``: over several lines,
    else one line cut with an ellipsis)."""

    header: str
    cells: list[Text] | None   # None: not shown at all
    drop: int = 0
    justify: Literal["left", "right"] = "left"
    content: bool = False
    wrap: bool = True

    def width(self) -> int:
        lines = [line for cell in self.cells or [] for line in cell.plain.split("\n")]
        return max([cell_len(self.header), *(cell_len(line) for line in lines)])


def fit(columns: list[Column], width: int) -> Table:
    """The columns as a table no wider than ``width``: the content column gets what the
    others leave, and optional columns are left out (highest ``drop`` first) while it would
    get less than MIN_CONTENT characters."""
    kept = [c for c in columns if c.cells is not None]

    def room() -> int:
        return width - sum(c.width() for c in kept if not c.content) - GAP * (len(kept) - 1)

    for col in sorted((c for c in kept if c.drop), key=lambda c: -c.drop):
        if room() >= MIN_CONTENT:
            break
        kept.remove(col)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
    for col in kept:
        if col.content and col.wrap:   # broken as English and Chinese break (wrap.py)
            col.cells = [wrap(cell, max(room(), 1)) for cell in col.cells or []]
        if col.content:   # what the others leave, however narrow (the table never overflows)
            table.add_column(col.header, max_width=max(room(), 1),
                             overflow="fold" if col.wrap else "ellipsis", no_wrap=not col.wrap)
        else:
            table.add_column(col.header, justify=col.justify, no_wrap=True, overflow="ellipsis")
    for row in zip(*(c.cells or [] for c in kept), strict=True):
        table.add_row(*row)
    return table


def width() -> int:
    return out().width


def short_id(memory_id: str, names: Mapping[str, str] | None) -> Text:
    """The id as ``names`` (``Memory.abbreviate``) shortens it, else whole."""
    return Text((names or {}).get(memory_id, memory_id))


def with_line(text: str, extra: str, style: str = "dim") -> Text:
    """A cell: ``text``, and below it ``extra`` (when there is one) in a quieter style."""
    cell = short(text)
    if extra:
        cell.append("\n")
        cell.append(extra, style=style)
    return cell


def records_table(records: Iterable[Record], show_layer: bool,
                  names: Mapping[str, str] | None = None) -> Table:
    """One memory a row: id (shortened), when it happened, kind, layer (with ``show_layer``),
    and the content, with its URI below it."""
    recs = list(records)
    cols = [Column("id", [short_id(r.id, names) for r in recs]),
            Column("at", [Text(when(r.at)) for r in recs]),
            Column("kind", [Text(r.kind.value) for r in recs], drop=1),
            Column("layer", [Text(r.layer.value) for r in recs] if show_layer else None, drop=2),
            Column("content", [with_line(r.content, r.uri or "") for r in recs], content=True)]
    return fit(cols, width())


def hits_table(hits: Hits, names: Mapping[str, str] | None = None) -> Table:
    """One hit a row, best first: rank, score, id (shortened), kind, and the content with the
    one line that says why it is there below it (``Hit.why``)."""
    cols = [Column("#", [Text(str(n)) for n in range(1, len(hits) + 1)], justify="right"),
            Column("score", [Text(f"{h.score:.3f}") for h in hits], justify="right"),
            Column("id", [short_id(h.memory.id, names) for h in hits]),
            Column("kind", [Text(h.memory.kind.value) for h in hits], drop=1),
            Column("content", [with_line(h.memory.content, "why: " + h.why) for h in hits],
                   content=True)]
    return fit(cols, width())


def explain_hit(rank: int, hit: Hit, names: Mapping[str, str] | None = None) -> Group:
    """Every term of a hit's score (-v, --explain), numbers rounded to 3 decimals; each
    value wraps under itself."""
    e = hit.explanation
    legs = ", ".join(f"{name} rank {leg.rank} score {number(leg.score)}"
                     for name, leg in e.legs.items())
    terms = ", ".join(f"{name}={number(value)}" for name, value in e.terms.items())
    table = Table(show_header=False, box=None, pad_edge=False, padding=(0, 1, 0, 0))
    table.add_column("name", no_wrap=True)
    table.add_column("value", overflow="fold")
    said = hit.verdict.text() if hit.verdict is not None else "none"
    for name, value in (("  why:", hit.why), ("  verdict:", said), ("  legs:", legs or "none"),
                        ("  fused", f"{number(e.fused)}  strength {number(e.strength)}  "
                                    f"final {number(e.final)}"),
                        ("  terms:", terms or "none"), *(("  note:", n) for n in e.notes)):
        table.add_row(name, Text(value))
    return Group(Text(f"#{rank} {short_id(hit.memory.id, names)}  score {hit.score:.3f}"),
                 table)


def versions_table(versions: list[Version], names: Mapping[str, str] | None = None) -> Table:
    """One version a line, oldest first: the memory (in a supersession chain), the version
    (* the one that holds now), when, what made it, who, why, layer, kind and the content cut
    to the line; the optional columns give way to the content in a narrow terminal."""
    chain = len({v.memory.id for v in versions}) > 1  # a supersession chain: name each link
    cols = [Column("memory", [short_id(v.memory.id, names) for v in versions] if chain else None),
            Column("v", [Text(f"{v.version}*" if v.current else str(v.version))
                         for v in versions], justify="right"),
            Column("at", [Text(when(v.at)) for v in versions]),
            Column("op", [Text(v.op) for v in versions]),
            Column("who", [Text(v.actor or v.who) for v in versions], drop=3),
            Column("why", [short(v.reason or "", 24) for v in versions], drop=4),
            Column("layer", [Text(v.memory.layer.value) for v in versions], drop=6),
            Column("kind", [Text(v.memory.kind.value) for v in versions], drop=5),
            Column("content", [short(" ".join(v.memory.content.split())) for v in versions],
                   content=True, wrap=False)]
    return fit(cols, width())


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


def links_table(links: list[Link], names: Mapping[str, str] | None = None) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
    for col in ("source", "relation", "target", "weight", "updated"):
        table.add_column(col, no_wrap=col != "relation",
                         justify="right" if col == "weight" else "left")
    for link in links:
        table.add_row(short_id(link.source, names), link.relation, short_id(link.target, names),
                      f"{link.weight:.2f}", when(link.updated_at))
    return table


def path_hits(hits: list[Hit], as_json: bool, names: Mapping[str, str] | None = None) -> None:
    if as_json:
        emit([h.to_dict() for h in hits])
        return
    cols = [Column("#", [Text(str(n)) for n in range(1, len(hits) + 1)], justify="right"),
            Column("score", [Text(f"{h.score:.3f}") for h in hits], justify="right"),
            Column("id", [short_id(h.memory.id, names) for h in hits]),
            Column("content", [with_line(h.memory.content, "how: " + "; ".join(
                h.explanation.notes) if h.explanation.notes else "") for h in hits],
                content=True)]
    out().print(fit(cols, width()))
    if not hits:
        err().print(Text("nothing is linked to it"))


def key_table(keys: list[engramdb.model.ApiKey]) -> Table:
    """One key a row: id, role, when it was revoked (the day), when it was made (gives way
    first in a narrow terminal), and its scope with its name below it."""
    cols = [Column("id", [Text(k.id) for k in keys]),
            Column("role", [Text(k.role.value) for k in keys]),
            Column("created", [Text(when(k.created_at)) for k in keys], drop=1),
            Column("revoked", [Text(when(k.revoked_at)[:10]) for k in keys]),
            Column("scope / name", [with_line(f"{k.user}/{k.agent}", k.name) for k in keys],
                   content=True)]
    return fit(cols, width())


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

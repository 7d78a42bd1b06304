"""Every public verb (ScopedMemory._VERBS) is reachable from the CLI, MCP and HTTP.

For each verb, DOORS names the CLI command, the MCP tool and the HTTP route (method, path)
that reach it; EXCLUDED names a door where a verb is deliberately not offered, with why. The
test reads what each door really serves: the Typer app's commands (groups included), the MCP
server's registered tools, and the routes of the FastAPI app (its OpenAPI paths and methods).
A verb added to _VERBS without a mapping or an exclusion at every door fails here."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
import typer.main

import engramdb
from engramdb.cli import app as cli_app
from engramdb.engine import ScopedMemory
from engramdb.mcp import Door, Options, build_server
from engramdb.server import create_app

Route = tuple[str, str]  # (METHOD, /path)
ID = "/v1/memories/{memory_id}"
GOAL = ("POST", "/v1/goals/{goal_id}/{action}")
SESSION = "/v1/sessions/{session_id}"

# verb: (CLI command, MCP tool, HTTP routes); None where EXCLUDED says why
DOORS: dict[str, tuple[str | None, str | None, list[Route] | None]] = {
    "remember": ("remember", "remember", [("POST", "/v1/memories")]),
    "remember_many": (None, "remember_many", [("POST", "/v1/memories/batch")]),
    "recall": ("recall", "recall", [("POST", "/v1/recall")]),
    "get": ("get", "get", [("GET", ID), ("GET", "/v1/memories/by-uri")]),
    "abbreviate": ("list", None, [("GET", "/v1/short-ids")]),  # tables show ids shortened
    "update": ("update", "update", [("PATCH", ID)]),
    "forget": ("forget", "forget", [("DELETE", ID)]),
    "restore": ("restore", "restore", [("POST", ID + "/restore")]),
    "history": ("history", "history", [("GET", ID + "/history")]),
    "list": ("list", "list", [("GET", "/v1/memories")]),
    "count": ("count", "list", [("GET", "/v1/count")]),            # MCP: list's `total`
    "stats": ("status", "status", [("GET", "/v1/stats")]),
    "export": ("export", None, [("GET", "/v1/export")]),
    "rollback": ("rollback", "rollback", [("POST", ID + "/rollback")]),
    "forget_scope": ("forget", None, [("DELETE", "/v1/scope")]),   # CLI: forget --all
    "boot": ("boot", "boot", [("GET", "/v1/boot")]),
    "snapshot": ("snapshot", "snapshot", [("POST", "/v1/snapshots"), ("GET", "/v1/snapshots")]),
    "restore_snapshot": ("restore-snapshot", "snapshot",
                         [("POST", "/v1/snapshots/{name}/restore")]),
    "explain": ("explain", "explain", [("GET", ID + "/strength")]),
    "sleep": ("sleep", "sleep", [("POST", "/v1/sleep")]),
    "reflect": ("reflect", "reflect", [("POST", "/v1/reflect")]),
    "due_for_review": ("review", "due_for_review", [("GET", "/v1/review")]),
    "review_queue": ("review", "review_queue", [("GET", "/v1/review/still-true")]),
    "confirm": ("confirm", "confirm", [("POST", ID + "/confirm")]),
    "profile_check": ("profile", "profile_check", [("GET", "/v1/profile/check")]),
    "decay": ("sleep", "sleep", [("POST", "/v1/sleep")]),          # sleep's decay phase
    "goal_start": ("goal start", "goal", [("POST", "/v1/goals")]),
    "goal_pause": ("goal pause", "goal", [GOAL]),
    "goal_resume": ("goal resume", "goal", [GOAL]),
    "goal_done": ("goal done", "goal", [GOAL]),
    "goal_note": ("goal note", "goal", [GOAL]),
    "goals": ("goal list", "goal", [("GET", "/v1/goals")]),
    "active_goal": ("goal list", "goal", [("GET", "/v1/goals")]),  # --status active; `active`
    "add_procedure": ("procedure add", "procedure", [("POST", "/v1/procedures")]),
    "procedures": ("procedure list", "procedure", [("GET", "/v1/procedures")]),
    "procedure_outcome": ("procedure outcome", "procedure",
                          [("POST", "/v1/procedures/{procedure_id}/outcome")]),
    "triggered_procedures": ("procedure triggered", "procedure",
                             [("POST", "/v1/procedures/triggered")]),
    "focus": ("focus", "focus", [("POST", "/v1/focus")]),
    "learn_from_mistake": ("learn", "learn", [("POST", "/v1/rules")]),
    "agents_md": ("export", "markdown", [("GET", "/v1/markdown")]),         # agents-md
    "export_memory_md": ("export", "markdown", [("GET", "/v1/markdown")]),  # memory-md
    "migrate": ("migrate", None, None),
    "session": ("session add", "session", [("POST", SESSION + "/turns"), ("GET", SESSION),
                                           ("POST", SESSION + "/end"),
                                           ("GET", SESSION + "/offloaded/{ref}")]),
    "sessions": ("session list", "session", [("GET", "/v1/sessions")]),
    "context": ("context", "context", [("POST", "/v1/context")]),
    "link": ("link", "link", [("POST", "/v1/links")]),
    "unlink": ("unlink", "unlink", [("DELETE", "/v1/links")]),
    "links": ("links", "links", [("GET", ID + "/links")]),
    "related": ("related", "related", [("GET", ID + "/related")]),
    "recall_path": ("path", "recall_path", [("GET", "/v1/path")]),
    "ingest": ("ingest", "ingest", [("POST", "/v1/ingest")]),
    "sources": ("sources", "sources", [("GET", ID + "/sources")]),
    "feedback": ("feedback", "feedback", [("POST", ID + "/feedback")]),
    "entity": ("entity", "entity", [("GET", "/v1/entity")]),
    "entities": (None, None, [("GET", "/v1/entities")]),
    "triples": ("triples", None, [("GET", "/v1/triples")]),
    # the web page's pictures (server/views.py)
    "timeline": (None, None, [("GET", "/v1/timeline")]),
    "strength_curve": (None, None, [("GET", ID + "/curve")]),
    "lineage": (None, None, [("GET", ID + "/lineage")]),
    "neighbourhood": (None, None, [("GET", ID + "/graph")]),
    "sleep_log": (None, None, [("GET", "/v1/sleeps")]),
}
PICTURE = ("data for the web page's pictures; the CLI and MCP have the verbs they are drawn "
           "from (history, explain, links, sources, sleep)")

# (verb, door): why the verb is deliberately not offered there
EXCLUDED: dict[tuple[str, str], str] = {
    ("remember_many", "cli"): "one memory per `remember`; batches come as `import` (JSONL "
                              "records) or `ingest` (a conversation)",
    ("abbreviate", "mcp"): "ids go to programs whole; a person's table shortens them (every "
                           "verb that takes an id takes a unique prefix of it, at every door; "
                           "HTTP has it for the CLI's tables when a server answers them)",
    ("export", "mcp"): "a whole-scope JSONL stream, not a tool result; `list` pages instead",
    ("forget_scope", "mcp"): "an agent must not wipe its user's whole memory in one tool call;"
                             " CLI `forget --all` or an admin HTTP key",
    ("triples", "mcp"): "an agent reads a name's triples in the `entity` tool's answer",
    ("migrate", "mcp"): "reads a MEMORY.md path and writes a backup on the server's disk",
    ("migrate", "http"): "reads a MEMORY.md path and writes a backup on the server's disk",
    **{("entities", door): "the list a person browsing the web page starts from; at the CLI "
                           "and MCP, `entity NAME` answers for the name asked"
       for door in ("cli", "mcp")},
    **{(verb, door): PICTURE for verb in ("timeline", "strength_curve", "lineage",
                                          "neighbourhood", "sleep_log")
       for door in ("cli", "mcp")},
}
SESSION_COMMANDS = ("session add", "session show", "session end", "session fetch")


def cli_commands() -> set[str]:
    """Every command the `engramdb` CLI serves, groups spelled "goal start"."""
    def walk(cmd: Any, prefix: str) -> set[str]:
        if getattr(cmd, "commands", None):  # a group (typer ships its own click)
            return {n for name, sub in cmd.commands.items()
                    for n in walk(sub, f"{prefix} {name}".strip())}
        return {prefix}
    return walk(typer.main.get_command(cli_app), "")


def mcp_tools() -> set[str]:
    """The `all` profile's tools (the default `core` profile is a subset: test_mcp_profiles)."""
    server = build_server(Door(Options(db=":memory:", embedder="hashing", tools="all")))
    return {t.name for t in anyio.run(server.list_tools)}


def http_routes() -> set[Route]:
    with engramdb.open(":memory:", embedder="hashing") as mem:
        spec: dict[str, Any] = create_app(mem).openapi()
    return {(method.upper(), path) for path, ops in spec["paths"].items() for method in ops}


@pytest.fixture(scope="module")
def served() -> dict[str, set[Any]]:
    return {"cli": cli_commands(), "mcp": mcp_tools(), "http": http_routes()}


def gaps(verbs: tuple[str, ...], served: dict[str, set[Any]]) -> list[str]:
    """Every way a verb is not reachable: unmapped, mapped to nothing served, or neither
    mapped nor excluded at a door."""
    out = []
    for verb in verbs:
        if verb not in DOORS:
            out.append(f"{verb}: no entry in DOORS")
            continue
        cli, mcp, http = DOORS[verb]
        for door, target in (("cli", cli), ("mcp", mcp), ("http", http)):
            excluded = (verb, door) in EXCLUDED
            if target is None and not excluded:
                out.append(f"{verb}: nothing at {door} and no exclusion")
            elif target is not None and excluded:
                out.append(f"{verb}: both mapped and excluded at {door}")
            elif isinstance(target, str) and target not in served[door]:
                out.append(f"{verb}: {door} has no {target!r}")
            elif isinstance(target, list):
                out += [f"{verb}: http has no {m} {p}" for m, p in target
                        if (m, p) not in served[door]]
    return out


def test_every_verb_is_reachable_from_every_door(served: dict[str, set[Any]]) -> None:
    assert gaps(ScopedMemory._VERBS, served) == []


def test_the_tables_name_only_public_verbs_and_real_doors() -> None:
    assert set(DOORS) == set(ScopedMemory._VERBS)
    assert {verb for verb, _ in EXCLUDED} <= set(DOORS)
    assert {door for _, door in EXCLUDED} <= {"cli", "mcp", "http"}
    assert all(reason.strip() for reason in EXCLUDED.values())


def test_a_new_verb_without_a_mapping_fails(served: dict[str, set[Any]]) -> None:
    assert gaps((*ScopedMemory._VERBS, "teleport"), served) == ["teleport: no entry in DOORS"]


def test_a_mapping_to_a_missing_command_tool_or_route_fails(served: dict[str, set[Any]]) -> None:
    gone = {"cli": served["cli"] - {"links"}, "mcp": served["mcp"] - {"context"},
            "http": served["http"] - {("POST", "/v1/ingest")}}
    assert gaps(("links", "context", "ingest"), gone) == [
        "links: cli has no 'links'", "context: mcp has no 'context'",
        "ingest: http has no POST /v1/ingest"]


def test_the_session_verb_has_every_action_at_every_door(served: dict[str, set[Any]]) -> None:
    assert set(SESSION_COMMANDS) <= served["cli"]
    assert DOORS["session"][2] is not None and len(DOORS["session"][2]) == 4  # add show end fetch

"""The other doors, served from the command line: `engramdb serve` (HTTP, docs/http.md) and
`engramdb mcp` (docs/mcp.md). Each imports its server only when it runs."""

from __future__ import annotations

from typing import Annotated

import typer

from .guard import check_exists, guarded, make_parent
from .options import Door, command

commands = typer.Typer()


@command(commands)
def serve(
    d: Door,
    host: Annotated[str, typer.Option(metavar="HOST", help="Address to listen on.")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT", help="Port to listen on.")] = 8765,
    workers: Annotated[int, typer.Option(metavar="N", help="Worker processes, all on the "
                                         "same file.")] = 1,
    metrics_public: Annotated[bool, typer.Option(
        "--metrics-public", help="Serve /metrics without a key (else it needs an admin key); "
        "also ENGRAMDB_METRICS_PUBLIC=1.")] = False,
    sleep_every: Annotated[str | None, typer.Option(
        metavar="PERIOD", help="Sleep every scope with activity once a PERIOD (30m, 6h, 1d) in "
        "the background; also ENGRAMDB_SLEEP_EVERY. Default: off.", show_default=False)]
        = None,
) -> None:
    """Serve the HTTP API (/v1), its docs (/docs) and the web page (/); needs API keys."""
    with guarded(d):
        make_parent(check_exists(d))   # a path that does not exist: refused, unless --create
        from engramdb.server import serve as run_server

        run_server(d.db, embedder=d.embedder, host=host, port=port, workers=workers,
                   metrics_public=metrics_public, sleep_every=sleep_every)


@command(commands, "mcp")
def mcp_cmd(
    d: Door,
    http: Annotated[bool, typer.Option(
        "--http", help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (as "
        "--transport http).")] = False,
    transport: Annotated[str | None, typer.Option(
        metavar="NAME", help="stdio (default), http (streamable HTTP at /mcp) or sse (the "
        "older SSE transport: GET /sse, POST /messages/).", show_default=False)] = None,
    host: Annotated[str, typer.Option(metavar="HOST", help="With http or sse: the address to "
                                      "bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT", help="With http or sse: the port.")
                    ] = 8765,
    scope_per_call: Annotated[bool, typer.Option(
        "--scope-per-call", help="Let each tool call name its user and agent (else the "
        "server's scope only); also ENGRAMDB_MCP_SCOPE_PER_CALL=1.")] = False,
    snapshots: Annotated[str | None, typer.Option(
        metavar="DIR", help="Folder of the snapshot tool; else $ENGRAMDB_SNAPSHOT_DIR, else "
        "<db file>.snapshots/.", show_default=False)] = None,
    keys: Annotated[bool, typer.Option(
        "--keys", help="With http or sse: every request needs an API key (engramdb keys create), "
        "whose scope and role it acts with; also ENGRAMDB_MCP_KEYS=1.")] = False,
) -> None:
    """Serve this memory to agents over MCP (stdio by default; see docs/mcp.md)."""
    from engramdb.mcp import Options, serve
    from engramdb.mcp.http import TRANSPORTS

    if transport is not None and transport not in TRANSPORTS:
        raise typer.BadParameter(f"one of {', '.join(TRANSPORTS)}", param_hint="--transport")
    if http and transport not in (None, "http"):
        raise typer.BadParameter(f"--http is --transport http, not {transport}",
                                 param_hint="--transport")
    with guarded(d):
        make_parent(check_exists(d))   # a path that does not exist: refused, unless --create
        serve(Options(d.db, d.user, d.agent, d.embedder, scope_per_call, snapshots, keys),
              http=http, host=host, port=port, transport=transport)

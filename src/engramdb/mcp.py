"""The MCP server (`engramdb mcp`): every Memory verb as a tool, over stdio or streamable HTTP.

Built on the official SDK's ``MCPServer`` (``mcp.server.mcpserver``, SDK v2). This module only
maps: a tool's arguments (mcp_schema.py) go to one engine verb, and what the verb returns comes
back as structured content (its ``to_dict()``) plus readable text. Behaviour lives in the engine.

- Scope: every call acts for the server's user and agent (``--user``/``--agent``, else
  ENGRAMDB_USER/ENGRAMDB_AGENT, else "default"). When the operator allows it
  (``--scope-per-call`` or ENGRAMDB_MCP_SCOPE_PER_CALL=1), every tool also takes optional
  ``user`` and ``agent`` arguments; otherwise those arguments are rejected by the schema.
- Errors: an engramdb error comes back as a tool error (isError) reading "<code>: <message>",
  with structured content {"error": {"code", "message"}}; the server keeps serving. Arguments
  that do not fit the schema are rejected before the engine runs.
- The store opens on the first call that needs it (listing tools does not); engine calls are
  serialized by one lock, as the SDK runs tools on worker threads.
- stdout carries the protocol only: the SDK diverts file descriptor 1 to stderr while it
  serves, and logs go to stderr.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata
from mcp_types import CallToolResult, TextContent, ToolAnnotations

import engramdb

from . import mcp_auth, mcp_more, mcp_stdio
from . import mcp_schema as s
from .clock import parse_time
from .engine import Memory, ScopedMemory
from .errors import ConfigError, EngramError, Invalid, NotFound
from .io import snapshots
from .model import Draft, Role
from .uri import DOMAINS

log = logging.getLogger("engramdb.mcp")
TIMES = ("at", "expires_at", "due_at", "since", "until")
DEFAULT_PORT = 8765
LOOPBACK = ("127.0.0.1", "localhost", "::1")


# ---------------------------------------------------------------- the door: options, store


@dataclass(frozen=True)
class Options:
    """How the server was started. ``None`` falls back to ENGRAMDB_* settings (Config)."""

    db: str | None = None
    user: str | None = None
    agent: str | None = None
    embedder: str | None = None
    scope_per_call: bool = False
    snapshots: str | None = None   # folder; default: <db file>.snapshots/
    keys: bool = False             # HTTP: every request needs an API key (mcp_auth.py)

    def with_env(self) -> Options:
        """Fill what the command line left out from ENGRAMDB_MCP_SCOPE_PER_CALL,
        ENGRAMDB_MCP_KEYS and ENGRAMDB_SNAPSHOT_DIR."""
        return replace(self, scope_per_call=self.scope_per_call or _flag("SCOPE_PER_CALL"),
                       keys=self.keys or _flag("KEYS"),
                       snapshots=self.snapshots or os.environ.get("ENGRAMDB_SNAPSHOT_DIR") or None)


def _flag(name: str) -> bool:
    return os.environ.get(f"ENGRAMDB_MCP_{name}", "").strip().lower() in ("1", "true", "yes", "on")


class Door:
    """The server's one Memory, opened on first use; one lock serializes engine calls."""

    def __init__(self, options: Options,
                 opener: Callable[..., Memory] = engramdb.open) -> None:
        self.options = options
        self._open = opener
        self._memory: Memory | None = None
        self.lock = threading.RLock()

    def memory(self) -> Memory:
        with self.lock:
            if self._memory is None:
                o = self.options
                self._memory = self._open(o.db, embedder=o.embedder, user=o.user, agent=o.agent)
                log.info("opened %s", self._memory.store.location)
            return self._memory

    def scoped(self, args: Any, need: Role = Role.READ) -> ScopedMemory:
        user, agent = getattr(args, "user", None), getattr(args, "agent", None)
        if self.options.keys:   # the key decides the scope and what may be done there
            scope = mcp_auth.granted_scope(self, need, user, agent)
            return self.memory().scope(scope.user, scope.agent)
        return self.memory().scope(user, agent)

    def snapshot_folder(self) -> str:
        if self.options.snapshots:
            return self.options.snapshots
        return str(snapshots.default_folder(self.memory().store.location))

    def close(self) -> None:
        with self.lock:
            if self._memory is not None:
                self._memory.close()
                self._memory = None

    def invoke(self, verb: Verb, args: Any) -> CallToolResult:
        try:
            with self.lock:
                data = verb.run(Call(self.scoped(args, mcp_auth.role_of(verb)), self), args)
        except EngramError as exc:
            log.info("tool %s: %s: %s", verb.name, exc.code, exc)
            return error_result(exc)
        return CallToolResult(content=[TextContent(type="text", text=verb.text(data))],
                              structured_content=data)


def error_result(exc: EngramError) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=f"{exc.code}: {exc}")],
        structured_content={"error": {"code": exc.code, "message": str(exc)}},
        is_error=True,
    )


@dataclass(frozen=True)
class Call:
    """What a verb runs against: the scoped memory, and the door (for the snapshot folder)."""

    me: ScopedMemory
    door: Door


# ---------------------------------------------------------------- argument mapping


def fields(args: Any, *skip: str) -> dict[str, Any]:
    """The arguments as engine keywords: scope fields dropped, ISO times parsed."""
    out = {k: getattr(args, k) for k in type(args).model_fields
           if k not in ("user", "agent", *skip)}
    for name in TIMES:
        if out.get(name) is not None:
            out[name] = parse_time(out[name], name)
    return out


def drafts(args: s.RememberManyArgs) -> list[Draft]:
    return [Draft(**fields(item)) for item in args.items]


def listed(c: Call, a: s.ListArgs) -> dict[str, Any]:
    kw = fields(a)
    records = list(c.me.list(**kw))
    total = c.me.count(kind=kw["kind"], uri_prefix=kw["uri_prefix"], since=kw["since"],
                       until=kw["until"], layer=kw["layer"])
    return {"memories": [r.to_dict() for r in records], "total": total}


def snapshot(c: Call, a: s.SnapshotArgs) -> dict[str, Any]:
    mem, folder = c.me.memory, c.door.snapshot_folder()
    scope = {"user": c.me.user, "agent": c.me.agent}
    if a.action == "take":
        return {"action": "take", "snapshots": [snapshots.take(mem, folder, **scope).to_dict()]}
    if a.action == "list":
        found = snapshots.listing(mem, folder, **scope)
        return {"action": "list", "snapshots": [i.to_dict() for i in found]}
    if not a.name:
        raise Invalid("restore needs the name of a snapshot (see action 'list')")
    info = [i for i in snapshots.listing(mem, folder, **scope) if i.name == a.name]
    restored = snapshots.restore(mem, folder, a.name, **scope)
    return {"action": "restore", "snapshots": [i.to_dict() for i in info],
            "restored": restored}


# ---------------------------------------------------------------- readable text


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
    cut = ", cut short by the budget" if r["truncated"] else ""
    return "\n".join(out + [f"({len(r['memories'])} memories, about {r['tokens']} tokens{cut})"])


def sleep_text(r: dict[str, Any]) -> str:
    out = [f"{p['phase']}: examined {p['examined']}, changed "
           f"{', '.join(f'{k} {n}' for k, n in p['counts'].items()) or 'nothing'}"
           f"{'; ' + p['note'] if p['note'] else ''}" for p in r["phases"]]
    return "\n".join(out + [f"{k}: skipped ({why})" for k, why in r["skipped"].items()])


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


# ---------------------------------------------------------------- the tool table


@dataclass(frozen=True)
class Verb:
    """One tool: its arguments, its result schema, the engine call, and its readable text.
    To add a verb, append one Verb (and its Args/Out models in mcp_schema.py)."""

    name: str
    doc: str
    args: type[s.Args]
    out: type[s.Out]
    run: Callable[[Call, Any], dict[str, Any]]
    text: Callable[[dict[str, Any]], str]
    read_only: bool = False
    destructive: bool = False


def _one(c: Call, a: Any) -> dict[str, Any]:
    return c.me.get(a.id).to_dict()


VERBS: list[Verb] = [
    Verb("remember", "Remember one memory (fact, preference, event, ...). Says what the write "
         "did: add, update (same URI or same slot), supersede (a newer value), noop "
         "(already known) or reject (nothing stored), and why.",
         s.RememberArgs, s.WriteOut, lambda c, a: c.me.remember(**fields(a)).to_dict(),
         write_text),
    Verb("remember_many", "Remember several memories in one transaction; one invalid item "
         "rejects them all and nothing is written.",
         s.RememberManyArgs, s.WritesOut,
         lambda c, a: {"results": [r.to_dict() for r in c.me.remember_many(drafts(a))]},
         lambda r: "\n".join(write_text(x) for x in r["results"])),
    Verb("recall", "Find the memories that best answer a query (hybrid BM25 + dense + "
         "metadata, English and 中文), best first, each with its score and why. Tracked "
         "recalls strengthen what they return.",
         s.RecallArgs, s.RecallOut,
         lambda c, a: c.me.recall(a.query, a.k, track=a.track, preset=a.preset,
                                  kinds=a.kinds).to_dict(), recall_text),
    Verb("get", "One memory by id or URI (core://user/name).", s.RefArgs, s.MemoryOut, _one,
         line, read_only=True),
    Verb("list", "List memories with filters (kind, URI prefix, time, layer), oldest first "
         "unless newest_first, a page at a time (limit, offset); total counts every page.",
         s.ListArgs, s.ListOut, listed,
         lambda r: lines(r["memories"], "no memories") + f"\n({len(r['memories'])} of "
         f"{r['total']})", read_only=True),
    Verb("update", "Change fields of a memory in place, as a new version.", s.UpdateArgs,
         s.MemoryOut, lambda c, a: c.me.update(**{"memory_id": a.id, **fields(a, "id")})
         .to_dict(), line),
    Verb("forget", "Forget a memory: it leaves every search and `restore` brings it back. "
         "hard=true erases it for good (content and history; a tombstone stays).",
         s.ForgetArgs, s.MemoryOut,
         lambda c, a: c.me.forget(a.id, hard=a.hard, reason=a.reason).to_dict(),
         lambda r: f"{'erased' if not r['content'] else 'forgot'} {r['id']}", destructive=True),
    Verb("restore", "Bring a forgotten or archived memory back.", s.RestoreArgs, s.MemoryOut,
         lambda c, a: c.me.restore(a.id).to_dict(), lambda r: f"restored {line(r)}"),
    Verb("history", "Every version of a memory, oldest first, with what changed it, who and "
         "why; a superseded fact shows its whole chain (Lisbon -> Berlin -> Oslo).",
         s.RefArgs, s.HistoryOut,
         lambda c, a: {"versions": [v.to_dict() for v in c.me.history(a.id)]}, history_text,
         read_only=True),
    Verb("rollback", "Make a memory say again what one of its versions said, as a new "
         "version (see history for the numbers).", s.RollbackArgs, s.MemoryOut,
         lambda c, a: c.me.rollback(a.id, a.version, reason=a.reason).to_dict(),
         lambda r: f"now version {r['version']}: {line(r)}"),
    Verb("boot", "What an agent loads at start: identity (P0) memories, core://agent/ and "
         "core://user/ memories, then the URIs listed at system://boot, within a token "
         "budget.", s.BootArgs, s.BootOut, lambda c, a: c.me.boot(a.budget).to_dict(),
         boot_text, read_only=True),
    Verb("sleep", "Maintenance: sync, decay (archive what grew weak), tidy (expired, "
         "overdue), govern; or one phase. Reports what each phase changed.",
         s.SleepArgs, s.SleepOut, lambda c, a: c.me.sleep(a.phase).to_dict(), sleep_text),
    Verb("status", "Counts by layer and kind, events, the embedder and the store.",
         s.NoArgs, s.StatsOut, lambda c, a: c.me.stats().to_dict(), stats_text,
         read_only=True),
    Verb("explain", "Why a memory weighs what it weighs: layer, retention, uses, half-life "
         "and weight.", s.RefArgs, s.StrengthOut, lambda c, a: c.me.explain(a.id).to_dict(),
         strength_text, read_only=True),
    Verb("snapshot", "Snapshots of the whole scope: take one, list them (newest first), or "
         "restore one (everything the scope holds is replaced by it, in one transaction).",
         s.SnapshotArgs, s.SnapshotOut, snapshot, snapshot_text, destructive=True),
]
VERBS += [Verb(name, doc, args, out, run, text, read_only=ro, destructive=de)
          for name, doc, args, out, run, text, ro, de in mcp_more.TABLE]


# ---------------------------------------------------------------- the server


def tool(verb: Verb, door: Door) -> Tool:
    model = verb.args
    if door.options.scope_per_call:
        model = type(f"{verb.args.__name__}PerCall", (verb.args, s.ScopeArgs), {})

    def call(**kwargs: Any) -> CallToolResult:
        return door.invoke(verb, model.model_construct(**kwargs))

    return Tool(
        fn=call, name=verb.name, title=verb.name.replace("_", " "), description=verb.doc,
        parameters=model.model_json_schema(by_alias=True),
        fn_metadata=FuncMetadata(arg_model=model, output_model=verb.out), is_async=False,
        annotations=ToolAnnotations(read_only_hint=verb.read_only,
                                    destructive_hint=verb.destructive),
    )


def read(door: Door, fn: Callable[[ScopedMemory], str]) -> str:
    """A resource read in the server's scope; engramdb errors become resource errors."""
    try:
        with door.lock:
            return fn(door.scoped(None))
    except NotFound as exc:
        raise ResourceNotFoundError(f"{exc.code}: {exc}") from None
    except EngramError as exc:
        raise ResourceError(f"{exc.code}: {exc}") from None


def add_resources(server: MCPServer, door: Door) -> None:
    @server.resource("engramdb://boot", name="boot", mime_type="text/plain",
                     description="What the agent loads at start (the boot tool, as text)")
    def boot() -> str:
        return read(door, lambda me: boot_text(me.boot().to_dict()))

    @server.resource("engramdb://memory/{id}", name="memory", mime_type="application/json",
                     description="One memory by id, as JSON")
    def by_id(id: str) -> str:  # noqa: A002 - the template variable is named id
        return read(door, lambda me: _json(me.get(id).to_dict()))

    for domain in sorted(DOMAINS):
        server.resource(f"{domain}://{{+path}}", name=f"{domain} memory",
                        mime_type="application/json",
                        description=f"One memory by its URI, {domain}://...")(_by_uri(door, domain))


def _by_uri(door: Door, domain: str) -> Callable[[str], str]:
    def by_uri(path: str) -> str:
        return read(door, lambda me: _json(me.get(f"{domain}://{path}").to_dict()))

    return by_uri


def _json(data: dict[str, Any]) -> str:
    import json

    return json.dumps(data, ensure_ascii=False, indent=2)


def build_server(door: Door, host: str = "127.0.0.1", port: int = DEFAULT_PORT) -> MCPServer:
    keys: dict[str, Any] = {}
    if door.options.keys:
        keys = {"auth": mcp_auth.settings(host, port),
                "token_verifier": mcp_auth.KeyVerifier(door)}
    server = MCPServer(
        "engramdb", version=engramdb.__version__, log_level="INFO",
        instructions="Long-term memory for this user: `boot` at the start, `recall` before "
        "answering from memory, `remember` what is worth keeping, `forget`/`update` when the "
        "user corrects you.",
        tools=[tool(v, door) for v in VERBS], **keys,
    )
    add_resources(server, door)
    return server


def serve(options: Options, *, http: bool = False, host: str = "127.0.0.1",
          port: int = DEFAULT_PORT) -> None:
    """Run until the client goes away (stdio) or the process is stopped (HTTP)."""
    options = options.with_env()
    if options.keys and not http:
        raise ConfigError("--keys is for the HTTP transport (--http): over stdio, whoever "
                          "starts the process owns it")
    door = Door(options)
    server = build_server(door, host, port)
    where = f"http://{host}:{port}/mcp" if http else "stdio"
    scope = "per call" if options.scope_per_call else \
        f"user={options.user or '$ENGRAMDB_USER'} agent={options.agent or '$ENGRAMDB_AGENT'}"
    print(f"engramdb MCP server on {where}; scope {scope}", file=sys.stderr, flush=True)
    if http and options.keys:
        print("API keys required: 'Authorization: Bearer <key>' (engramdb keys create)",
              file=sys.stderr, flush=True)
    elif http and host not in LOOPBACK:
        print(f"warning: {host} is not a loopback address and the MCP endpoint has no keys: "
              "anyone who reaches it reads and writes this memory (start it with --keys)",
              file=sys.stderr, flush=True)
    try:
        if http:
            server.run("streamable-http", host=host, port=port)
        else:   # the SDK's stdio transport, answering malformed input (mcp_stdio.py)
            anyio.run(mcp_stdio.serve_stdio, server)
    finally:
        door.close()

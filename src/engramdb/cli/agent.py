"""The agent's commands: ask (one turn), chat (a REPL over a session), feedback on a memory,
and import-from (another memory system's export, io/foreign.py).

`ask` and `chat` need a chat endpoint (ENGRAMDB_LLM_URL and ENGRAMDB_LLM_MODEL, else
OPENAI_COMPATIBLE_BASE_URL and OPENAI_COMPATIBLE_MODEL, else OPENAI_BASE_URL and OPENAI_MODEL:
llm/chat.py), or `--llm demo`: the built-in stand-in (llm/demo.py, not a model; it quotes the
memories it is given). Without either they fail with exit 6 (a config error). A turn that did
not reach an answer the agent stands behind (a fallback, the step limit) still prints its
answer, and `ask` exits 7."""

from __future__ import annotations

import io
import json
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from engramdb.errors import EngramError, Invalid
from engramdb.io.foreign import SOURCES

if TYPE_CHECKING:  # the agent loads with the command that runs it (a quick --help)
    from engramdb.agent import Agent, TurnResult
    from engramdb.dynamics.feedback import Feedback
    from engramdb.llm.chat import Endpoint

from .guard import guarded, open_memory
from .inputs import read_file
from .io import show_import
from .options import Door, SkipBad, command
from .render import emit

commands = typer.Typer()
EXIT_NO_ANSWER = 7
CHAT_HELP = ("a plain line is a turn; /good ID and /bad ID say a memory was useful or not; "
             "/state prints the cognitive state; /help this; /quit (or end of input) ends")

Session = Annotated[str | None, typer.Option(
    metavar="ID", help="A working-memory session: the turn is added to it.")]
Goal = Annotated[str | None, typer.Option(
    metavar="TITLE", help="Start this goal unless it is the active one already.")]
MaxSteps = Annotated[int, typer.Option(
    "--max-steps", metavar="N", help="Planner steps allowed per turn (1 to 50).")]
Llm = Annotated[str | None, typer.Option(
    "--llm", metavar="demo", help="demo: the built-in stand-in, no server needed (not a model: "
    "it quotes the memories that share words with the question, and says so). Without it: "
    "the configured endpoint (docs/local-llms.md).", show_default=False)]
DEMO_NOTE = ("using the built-in demo stand-in (--llm demo), not a language model: its answers "
             "quote your memories; docs/local-llms.md sets up a real local LLM")


@command(commands)
def ask(
    d: Door,
    message: Annotated[str, typer.Argument(
        metavar="MESSAGE", help="What to ask; '-' reads it from stdin.")],
    session: Session = None,
    goal: Goal = None,
    max_steps: MaxSteps = 6,
    llm: Llm = None,
) -> None:
    """One agent turn: the answer on stdout (with --json: the whole turn, its steps included).
    Exit 7 when the turn ended without an answer the agent stands behind (answer still
    printed). --llm demo: try it with the built-in stand-in."""
    from engramdb.agent import Agent

    with guarded(d), open_memory(d) as mem, endpoint_for(llm) as endpoint:
        text = sys.stdin.read() if message == "-" else message
        result = Agent(mem, max_steps=max_steps, endpoint=endpoint).turn(
            text, session=session, goal=goal)
        show_turn(result, d.json)
    if not result.ok:
        raise typer.Exit(EXIT_NO_ANSWER)


@command(commands)
def chat(
    d: Door,
    session: Session = None,
    goal: Goal = None,
    max_steps: MaxSteps = 6,
    llm: Llm = None,
) -> None:
    """A conversation with the agent over one session (a new one unless --session): a plain
    line is a turn; /good ID and /bad ID say a memory was useful or not; /state prints the
    cognitive state; /help lists these; /quit or end of input ends. --llm demo: try it with the
    built-in stand-in."""
    from engramdb.agent import Agent

    with guarded(d), open_memory(d) as mem, endpoint_for(llm) as endpoint:
        agent = Agent(mem, max_steps=max_steps, endpoint=endpoint)
        sid = session or f"chat-{uuid.uuid4().hex[:8]}"
        typer.echo(f"session {sid}; {CHAT_HELP}", err=True)
        Chat(agent, sid, goal, d.json).run()


@contextmanager
def endpoint_for(llm: str | None) -> Iterator[Endpoint | None]:
    """The endpoint --llm names while the command runs (None: the configured one)."""
    if llm is None:
        yield None
        return
    if llm.strip().lower() != "demo":
        raise Invalid(f"--llm takes demo (the built-in stand-in), got {llm!r}; a real endpoint "
                      f"is set with ENGRAMDB_LLM_URL and ENGRAMDB_LLM_MODEL "
                      f"(docs/local-llms.md)")
    from engramdb.llm.demo import demo_llm

    typer.echo(DEMO_NOTE, err=True)
    with demo_llm() as endpoint:
        yield endpoint


class Chat:
    """The REPL's state: the agent, its session, the goal still to start, the last language."""

    def __init__(self, agent: Agent, session: str, goal: str | None, as_json: bool) -> None:
        self.agent, self.session, self.goal, self.json = agent, session, goal, as_json
        self.lang = "en"

    def run(self) -> None:
        while True:
            if sys.stdin.isatty():
                typer.echo("> ", nl=False, err=True)
            line = sys.stdin.readline()
            if not line or line.strip() in ("/quit", "/exit"):
                return
            if not line.strip():
                continue
            try:
                self.line(line.strip())
            except EngramError as exc:   # one bad line does not end the conversation
                typer.echo(f"error: {exc}", err=True)

    def line(self, line: str) -> None:
        word, _, rest = line.partition(" ")
        if word in ("/good", "/bad"):
            if not rest.strip():
                raise Invalid(f"{word} needs a memory id")
            done = self.agent.feedback(rest.strip(), word == "/good")
            self.emit(done.to_dict()) if self.json else show_feedback(done, False)
        elif word == "/state":
            state = self.agent.introspect()
            self.emit(state.to_dict()) if self.json else typer.echo(state.lines(self.lang))
        elif word == "/help":
            typer.echo(CHAT_HELP)
        elif word.startswith("/") and word[1:].isalpha():
            raise Invalid(f"unknown command {word}: {CHAT_HELP}")
        else:
            result = self.agent.turn(line, session=self.session, goal=self.goal)
            self.goal, self.lang = None, result.lang   # the goal is started once
            self.emit(result.to_dict()) if self.json else show_turn(result, False)

    @staticmethod
    def emit(data: Any) -> None:
        """With --json: one compact JSON document a line (JSON Lines)."""
        typer.echo(json.dumps(data, ensure_ascii=False))


def show_turn(result: TurnResult, as_json: bool) -> None:
    if as_json:
        emit(result.to_dict())
        return
    typer.echo(result.answer)
    if result.note:
        typer.echo(result.note, err=True)
    if not result.ok:
        typer.echo(f"the turn did not reach an answer ({result.source}): {result.error}",
                   err=True)


@command(commands)
def feedback(
    d: Door,
    memory_id: Annotated[str, typer.Argument(metavar="ID", help="A memory id.")],
    useful: Annotated[bool | None, typer.Option(
        "--useful/--useless", help="Was the memory useful (strengthen) or not (weaken)?",
        show_default=False)] = None,
) -> None:
    """Say whether a recalled memory was useful: --useful strengthens it, --useless weakens
    it."""
    if useful is None:
        raise typer.BadParameter("say --useful or --useless", param_hint="--useful/--useless")
    with guarded(d), open_memory(d) as mem:
        show_feedback(mem.feedback(memory_id, useful), d.json)


def show_feedback(done: Feedback, as_json: bool) -> None:
    if as_json:
        emit(done.to_dict())
    else:
        typer.echo(f"{'useful' if done.useful else 'useless'}: {done.id} importance "
                   f"{done.importance_before:.3f} -> {done.importance:.3f}")


@command(commands, "import-from")
def import_from(
    d: Door,
    source: Annotated[str, typer.Argument(
        metavar="SOURCE", help=f"The system that exported FILE: {', '.join(SOURCES)}.")],
    file: Annotated[str, typer.Argument(
        metavar="FILE", help="The export (JSON or JSONL); '-' reads stdin.")],
    skip_bad: SkipBad = False,
) -> None:
    """Import another memory system's export: a mem0 get_all dump, LangGraph store items
    (JSONL), a Letta archival-memory export. Every item is checked first: one bad item
    imports nothing (--skip-bad: the good ones are written, each bad one is named on stderr,
    exit 7). A time without a time zone is UTC. mem0 items keep their own user_id/agent_id;
    the others go into --user and --agent."""
    from engramdb.io.foreign import import_foreign

    with guarded(d):
        if source not in SOURCES:
            raise Invalid(f"unknown source {source!r}: one of {', '.join(SOURCES)}")
        text = read_file(file)
        with open_memory(d) as mem:
            counts = import_foreign(mem, io.StringIO(text), source, user=d.user,
                                    agent=d.agent, skip_bad=skip_bad)
        show_import(dict(sorted(counts.items())), d.json)


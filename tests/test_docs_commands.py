"""Every `engramdb` command shown in docs/*.md runs (issue 21: docs true to the code).

Each ```bash, ```sh, ```console or ```shell block is read as the reader would type it: a line
that starts with `engramdb` (after an optional `$ ` prompt and `VAR=value` settings), or pipes
into it, is a command; a command whose quotes are open goes on to the next line; with a `$ `
prompt the lines up to the next prompt are what it printed. The commands of one file run in
order, in a fresh folder, through bash (pipes and `; echo` as written) against a temp store
with the default embedder (as a reader runs them). Each must exit 0 and print what the doc
shows it printing, up to the first number or id of its first line (a table, a path or a
progress bar is not compared). Ids are carried over as a reader copies them: an id the doc
shows in a command's output is replaced, in the later commands, by the id the command really
printed at that place. `$ cat FILE` followed by its content makes that file first.

Not run, each for the reason given in SKIP: commands that need a server, the network or a
model endpoint. The folder holds links to the repository's `tests/` and `examples/`, which the
docs name by relative path."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
FENCE = re.compile(r"^```(bash|sh|console|shell)\n(.*?)^```", re.S | re.M)
ID = re.compile(r"\b(?:wm-)?[0-9A-HJKMNP-TV-Z]{26}\b")
SETTING = r"(?:[A-Z_][A-Z0-9_]*=\S+\s+)*"
# the engramdb command not run: why
SKIP = {"serve": "starts an HTTP server that runs until stopped",
        "mcp": "starts an MCP server that waits for a client",
        "ask": "needs a model endpoint (--llm demo: run in tests/test_agent_demo.py)",
        "chat": "needs a model endpoint (--llm demo: run in tests/test_agent_demo.py)"}
NETWORK = ("postgresql://", "needs a PostgreSQL server on the network")
GLOBAL_VALUE = {"--db", "--user", "--agent", "--embedder"}   # engramdb's options with a value


@dataclass
class Command:
    line: str
    shown: list[str] = field(default_factory=list)   # what the doc shows it printing


def commands(text: str) -> tuple[list[Command], dict[str, str]]:
    """The file's engramdb commands, in order, and the files its `$ cat FILE` lines show."""
    found: list[Command] = []
    files: dict[str, str] = {}
    for _, body in FENCE.findall(text):
        prompted = any(line.startswith("$ ") for line in body.splitlines())
        lines = body.splitlines()
        i = 0
        while i < len(lines):
            raw = lines[i]
            i += 1
            if prompted and not raw.startswith("$ "):
                continue
            line = raw[2:] if prompted else raw
            while not _complete(line) and i < len(lines):
                line += "\n" + lines[i]
                i += 1
            output: list[str] = []
            while prompted and i < len(lines) and not lines[i].startswith("$ "):
                output.append(lines[i])
                i += 1
            cat = re.fullmatch(r"cat (\S+)", line.strip())
            if cat:
                files[cat.group(1)] = "\n".join(output).strip() + "\n"
            elif re.search(rf"^{SETTING}engramdb\b|\|\s*engramdb\b", line.strip()):
                found.append(Command(_without_comment(line), output))
    return found, files


def _complete(line: str) -> bool:
    try:
        shlex.split(line, comments=True)
    except ValueError:
        return False
    return True


def _without_comment(line: str) -> str:
    """The line without a trailing `# ...` comment (outside quotes)."""
    out, quote = [], ""
    for n, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (n == 0 or line[n - 1].isspace()):
            break
        out.append(ch)
    return "".join(out).rstrip()


def leading(shown: list[str]) -> str | None:
    """The start of the first line the doc shows a command printing, up to its first number
    or id (those differ from run to run): what the real output must hold too. None for a
    table, a progress bar or a line that starts with a number."""
    first = next((x.strip() for x in shown if x.strip()), "")
    if not first or first[0] in "/┏┃┡│└━{[" or "━" in first:   # a path: the reader's own
        return None
    head = " ".join(re.split(r"[0-9]|wm-", first, maxsplit=1)[0].split())
    return head if len(head) >= 3 else None


def subcommand(line: str) -> str | None:
    """The engramdb command a line runs ("remember" in `engramdb --db x remember ...`)."""
    words = shlex.split(line, comments=True)
    if "engramdb" not in words:
        return None
    rest = words[words.index("engramdb") + 1:]
    while rest and rest[0].startswith("-"):
        rest = rest[2:] if rest[0] in GLOBAL_VALUE else rest[1:]
    return rest[0] if rest else None


def skipped(line: str) -> str | None:
    if NETWORK[0] in line:
        return NETWORK[1]
    return SKIP.get(subcommand(line) or "")


def environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAMDB_")}
    bin_dir = str(Path(sys.executable).parent)
    src = str(Path(__import__("engramdb").__file__).resolve().parent.parent)
    return env | {"HOME": str(home), "PATH": f"{bin_dir}:{env.get('PATH', '')}",
                  "PYTHONPATH": src, "ENGRAMDB_DB": str(home / "memory.db"),
                  "NO_COLOR": "1", "COLUMNS": "200"}


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_every_command_in_the_doc_runs(doc: Path, tmp_path: Path) -> None:
    found, files = commands(doc.read_text(encoding="utf-8"))
    for name in ("tests", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    for name, content in files.items():
        (tmp_path / name).write_text(content, encoding="utf-8")
    env = environment(tmp_path)
    ids: dict[str, str] = {}
    for cmd in found:
        if skipped(cmd.line):
            continue
        line = ID.sub(lambda m: ids.get(m.group(0), m.group(0)), cmd.line)
        done = subprocess.run(["bash", "-o", "pipefail", "-c", line], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300, check=False)
        expected_exit = re.search(r'echo "exit \$\?"', line) is None
        assert done.returncode == 0 or not expected_exit, (
            f"{doc.name}: `{line}` exited {done.returncode}\n{done.stdout}\n{done.stderr}")
        lead = leading(cmd.shown)
        assert lead is None or lead in " ".join((done.stdout + done.stderr).split()), (
            f"{doc.name}: `{line}` printed no {lead!r}\n{done.stdout}\n{done.stderr}")
        shown = ID.findall("\n".join(cmd.shown))
        printed = ID.findall(done.stdout + done.stderr)
        ids.update({a: b for a, b in zip(shown, printed, strict=False) if a not in ids})


def test_the_parser_reads_prompts_continuations_and_cat() -> None:
    text = ("```console\n$ cat chat.jsonl\n{\"role\": \"user\"}\n"
            "$ engramdb remember \"two\nlines\" --kind fact   # a comment\n"
            "add 01M8KJ6JDXF10NMA6TSSHKA2N4\n"
            "$ head -1 x\n```\n```bash\nengramdb status\nmake test\n```\n")
    found, files = commands(text)
    assert files == {"chat.jsonl": "{\"role\": \"user\"}\n"}
    assert [c.line for c in found] == ['engramdb remember "two\nlines" --kind fact',
                                      "engramdb status"]
    assert found[0].shown == ["add 01M8KJ6JDXF10NMA6TSSHKA2N4"]
    assert skipped("engramdb --db m.db serve --port 1") and not skipped("engramdb status")
    assert not skipped("engramdb --db chat.db ingest chat.jsonl --session chat-1")
    assert skipped("X=1 engramdb --json -v chat --session s1") == SKIP["chat"]

"""Every `engramdb` command shown in docs/*.md runs (issue 21: docs true to the code).

Each ```bash, ```sh, ```console or ```shell block is read as the reader would type it: a line
that starts with `engramdb` (after an optional `$ ` prompt and `VAR=value` settings), or pipes
into it, is a command; a command whose quotes are open goes on to the next line; with a `$ `
prompt the lines up to the next prompt are what it printed. The commands of one file run in
order, in a fresh folder, through bash (pipes and `; echo` as written) against a temp store
with the default embedder (as a reader runs them), in an 80-column terminal. Each must exit 0
and print every line the doc shows it printing, in order (`unmatched`: ids and numbers may
differ, `…` stands for what the doc leaves out, a path's folder is the reader's own, a progress
bar is not compared). Ids are carried over as a reader copies them: an id the doc
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


NUMBER = re.compile(r"[+-]?[0-9][0-9,]*(?:\.[0-9]+)?")
ELLIPSIS = re.compile(r"…|\.\.\.")
SHORT_ID = re.compile(r"\b(?:wm-|k)?(?=[0-9A-Z]*[0-9])(?=[0-9A-Z]*[A-Z])[0-9A-HJKMNP-TV-Z]{8,26}\b")


def _norm(line: str) -> str:
    """A printed line as compared: ids (whole or shortened) and numbers, which differ from
    run to run, as placeholders; whitespace folded."""
    return " ".join(NUMBER.sub("9", SHORT_ID.sub("ID", line)).split())


def unmatched(shown: list[str], printed: str) -> str | None:
    """The first line the doc shows a command printing that the command did not print, or
    None. Every shown line must be a printed line, in the doc's order: the same words, any
    ids and numbers, `…` (or `...`) for what the doc leaves out or what varies, and a path's
    folder left out (the reader's own). A progress bar is not compared."""
    lines = [_norm(x) for x in printed.splitlines() if x.strip()]
    at = 0
    for raw in shown:
        if not raw.strip() or "━" in raw:
            continue
        want = _norm(re.sub(r"^(?:~|/)\S*/", "…/", raw.strip()))
        parts = [part.strip() for part in ELLIPSIS.split(want)]
        while at < len(lines) and not _fits(parts, lines[at]):
            at += 1
        if at == len(lines):
            return raw
        at += 1
    return None


def _fits(parts: list[str], line: str) -> bool:
    """``line`` is ``parts`` joined by anything, whole: it starts with the first part, ends
    with the last and holds the others in order between (a `…` at an end leaves an empty
    part there, which fits anything)."""
    if len(parts) == 1:
        return line == parts[0]
    head, *middle, tail = parts
    if not line.startswith(head) or not line.endswith(tail):
        return False
    pos, end = len(head), len(line) - len(tail)
    for part in middle:
        pos = line.find(part, pos, end)
        if pos < 0:
            return False
        pos += len(part)
    return pos <= end


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
                  "NO_COLOR": "1", "COLUMNS": "80",
                  "PYTHONUNBUFFERED": "1"}


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
        # stdout and stderr in the order a terminal shows them (both unbuffered, one stream)
        done = subprocess.run(["bash", "-o", "pipefail", "-c", line], cwd=tmp_path, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=300, check=False)
        expected_exit = re.search(r'echo "exit \$\?"', line) is None
        assert done.returncode == 0 or not expected_exit, (
            f"{doc.name}: `{line}` exited {done.returncode}\n{done.stdout}")
        missing = unmatched(cmd.shown, done.stdout)
        assert missing is None, f"{doc.name}: `{line}` did not print {missing!r}\n{done.stdout}"
        shown = ID.findall("\n".join(cmd.shown))
        printed = ID.findall(done.stdout)
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


def test_the_output_check_reads_every_line_and_can_fail() -> None:
    printed = ("/tmp/x/notes.db\nembedder routed(e5|cjk:use) (896 dimensions)\n"
               "add 01M91K2T1M0RK1W1T4A4RAXGNQ kind=preference\nrule=new_memory\n"
               "1  0.793  01M91K0P1  fact  Maya lives in Berlin\n")
    assert unmatched(["/home/ann/notes.db", "embedder routed(e5|cjk:use) (384 dimensions)"],
                     printed) is None                              # numbers may differ
    assert unmatched(["/home/ann/notes.db", "embedder e5 (384 dimensions)"], printed) == (
        "embedder e5 (384 dimensions)")                            # a line after the first
    assert unmatched(["add 01M8KJ6K2B7Q0Z3J5W8RXH1C9D kind=preference rule=new_memory"],
                     printed) is not None                          # a line broken in two
    assert unmatched(["1  0.000  01M8KJ6J  fact  Maya lives in …"], printed) is None
    assert unmatched(["1 … Maya lives in Berlin", "add … kind=preference"], printed) == (
        "add … kind=preference")                                   # in the doc's order
    assert unmatched(["edb_…", "1500"], "edb_Zq3x\n1500\n\n") is None

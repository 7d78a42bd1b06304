"""A small agent on engramdb with two tools, against any OpenAI-compatible chat endpoint.

    export OPENAI_BASE_URL=http://127.0.0.1:8080/v1   # llama.cpp server, Ollama, vLLM, ...
    export OPENAI_MODEL=qwen2.5-7b-instruct
    export OPENAI_API_KEY=...                         # if the server wants one
    python examples/agent.py "What is 17% of 2,340?"
    python examples/agent.py                          # a chat: one turn per line, empty line ends

(ENGRAMDB_LLM_URL / ENGRAMDB_LLM_MODEL / ENGRAMDB_LLM_API_KEY take precedence, then
OPENAI_COMPATIBLE_BASE_URL / _MODEL / _API_KEY; docs/local-llms.md.) Memories go to
``--db`` (default agent-memory.db); ``--json`` prints every step of each turn.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime

import engramdb
from engramdb.agent import Agent


def percent_of(percent: float, amount: float) -> float:
    """Compute percent % of an amount.

    percent: the percentage, e.g. 17 for 17%
    amount: the amount to take it of
    """
    return round(amount * percent / 100, 4)


def today() -> str:
    """Today's date and the weekday (UTC)."""
    return datetime.now(UTC).strftime("%Y-%m-%d, %A")


def show(result: engramdb.agent.TurnResult, as_json: bool) -> None:
    if as_json:
        steps = [s.brief() for s in result.steps]
        print(json.dumps({"answer": result.answer, "ok": result.ok, "source": result.source,
                          "note": result.note, "error": result.error, "steps": steps},
                         ensure_ascii=False, indent=2))
        return
    print(result.answer)
    if result.note or result.error:
        print(f"  ({result.note or result.error})", file=sys.stderr)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("question", nargs="?", help="one question; none: a chat on stdin")
    ap.add_argument("--db", default="agent-memory.db")
    ap.add_argument("--embedder", default="hashing", help="hashing (no model) or default")
    ap.add_argument("--max-steps", type=int, default=6)
    ap.add_argument("--json", action="store_true", help="print every step")
    args = ap.parse_args()
    with engramdb.open(args.db, embedder=args.embedder) as mem:
        try:
            agent = Agent(mem, max_steps=args.max_steps)
        except engramdb.ConfigError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        agent.tool(percent_of, pure=True)
        agent.tool(today)
        if args.question:
            show(agent.turn(args.question), args.json)
            return 0
        session = "example-chat"
        for line in sys.stdin:
            if not line.strip():
                break
            show(agent.turn(line.strip(), session=session), args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())

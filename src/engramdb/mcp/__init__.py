"""The MCP door (`engramdb mcp`, docs/mcp.md): server.py runs the SDK's server, tools.py and
agent_tools.py map each tool to one engine verb, schema.py and results.py hold the tool
schemas, profiles.py which tools are listed (core, all), text.py the readable answers,
door.py the server's Memory, auth.py the API keys."""

from .door import Call, Door, Options
from .profiles import CORE, PROFILES
from .server import DEFAULT_PORT, build_server, error_result, serve
from .tools import VERBS, Verb

__all__ = ["CORE", "DEFAULT_PORT", "PROFILES", "VERBS", "Call", "Door", "Options", "Verb",
           "build_server", "error_result", "serve"]

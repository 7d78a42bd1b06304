"""An agent on top of the memory: a cognitive loop (loop.py), an LLM planner over any
OpenAI-compatible endpoint (planner.py), tools (tools.py, builtins.py), a cognitive state
(state.py), persona (persona.py), experience and consolidation (experience.py) and a semantic
cache (cache.py). ``from engramdb.agent import Agent``; ``demo_llm`` (llm/demo.py) is the
built-in stand-in for a model, to try the agent without one."""

from __future__ import annotations

from ..llm.demo import demo_llm
from .cache import SemanticCache
from .experience import is_trace
from .loop import Agent
from .persona import Persona
from .planner import Action, Endpoint, Planner
from .result import Evaluation, Step, TurnResult
from .state import Belief, CognitiveState
from .tools import Outcome, Read, Tool, ToolRegistry, schema_of

__all__ = ["Action", "Agent", "Belief", "CognitiveState", "Endpoint", "Evaluation", "Outcome",
           "Persona", "Planner", "Read", "SemanticCache", "Step", "Tool", "ToolRegistry",
           "TurnResult", "demo_llm", "is_trace", "schema_of"]

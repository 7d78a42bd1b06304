"""An agent on top of the memory: a cognitive loop (loop.py), an LLM planner over any
OpenAI-compatible endpoint (planner.py), tools (tools.py, builtins.py), a cognitive state
(state.py) with drives (drives.py), tool priors (priors.py), a note after each action
(notes.py) and the mission and limits (selfmodel.py), persona (persona.py), experience and
consolidation (experience.py) and a semantic cache (cache.py). ``from engramdb.agent import
Agent``; ``demo_llm`` (llm/demo.py) is the built-in stand-in for a model, to try the agent
without one."""

from __future__ import annotations

from ..llm.demo import demo_llm
from .cache import SemanticCache
from .drives import Drives
from .experience import is_trace
from .loop import Agent
from .notes import Note
from .persona import Persona
from .planner import Action, Endpoint, Planner
from .priors import Prior
from .result import Evaluation, Step, TurnResult
from .state import Belief, CognitiveState
from .tools import Outcome, Read, Tool, ToolRegistry, schema_of

__all__ = ["Action", "Agent", "Belief", "CognitiveState", "Drives", "Endpoint", "Evaluation",
           "Note", "Outcome", "Persona", "Planner", "Prior", "Read", "SemanticCache", "Step",
           "Tool", "ToolRegistry", "TurnResult", "demo_llm", "is_trace", "schema_of"]

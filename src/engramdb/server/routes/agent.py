"""The /v1 routes of the agent: one turn (``POST /v1/agent/turn``) and feedback on a memory
(``POST /v1/memories/{id}/feedback``), both with a write key.

The server keeps one Agent per scope (user, agent) for its lifetime, so the semantic cache and
what the persona learnt from reactions survive from one request to the next; turns of one
scope run one at a time. A turn needs a chat endpoint (``llm_url``/``llm_model``, else
OPENAI_COMPATIBLE_* or OPENAI_*: llm/chat.py): without one, or with a bad value, the answer is
503 ``config_error``. A turn that
ran is 200 whatever it reached: ``ok`` false (a fallback, the step limit) is in the body."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ...agent import Agent
from ...model import Scope
from .common import Write, ok

router = APIRouter(prefix="/v1")
_STRICT = ConfigDict(extra="forbid", strict=True)


class TurnIn(BaseModel):
    """One message to the agent (the arguments of ``Agent.turn``)."""

    model_config = _STRICT
    message: str = Field(description="What the user says (Chinese and English alike).")
    session: str | None = Field(None, description="A working-memory session the turn joins.")
    goal: str | None = Field(None, description="Start this goal unless it is the active one.")
    requires: list[str] = Field(default_factory=list,
                                description="Tools that must run before the turn may finish.")
    max_steps: int | None = Field(None, description="Planner steps allowed (1 to 50; "
                                  "default 6).")


class FeedbackIn(BaseModel):
    model_config = _STRICT
    useful: bool = Field(description="true strengthens the memory, false weakens it.")


@dataclass
class Agents:
    """The server's agents, one per scope, each with the lock its turns take."""

    by_scope: dict[Scope, tuple[Agent, threading.Lock]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def get(self, scope: Scope) -> tuple[Agent, threading.Lock] | None:
        with self.lock:
            return self.by_scope.get(scope)

    def for_scope(self, mem: object, scope: Scope) -> tuple[Agent, threading.Lock]:
        with self.lock:
            if scope not in self.by_scope:
                self.by_scope[scope] = (Agent(mem), threading.Lock())  # type: ignore[arg-type]
            return self.by_scope[scope]


def agents(app: FastAPI) -> Agents:
    with _CREATE:
        if not isinstance(getattr(app.state, "agents", None), Agents):
            app.state.agents = Agents()
        return app.state.agents  # type: ignore[no-any-return]


_CREATE = threading.Lock()


@router.post("/agent/turn", summary="One agent turn: the answer, its steps and evaluation")
def turn(body: TurnIn, c: Write, request: Request) -> JSONResponse:
    agent, lock = agents(request.app).for_scope(c.mem, c.grant.scope)
    with lock:
        result = agent.turn(body.message, session=body.session, goal=body.goal,
                            requires=body.requires, max_steps=body.max_steps)
    return ok(result.to_dict())


@router.post("/memories/{memory_id}/feedback",
             summary="Say whether a recalled memory was useful (strengthen) or not (weaken)")
def feedback(memory_id: str, body: FeedbackIn, c: Write, request: Request) -> JSONResponse:
    held = agents(request.app).get(c.grant.scope)
    if held is None:
        return ok(c.mem.feedback(memory_id, body.useful).to_dict())
    agent, lock = held
    with lock:   # the agent's own feedback: a reaction to what it brought up moves its persona
        return ok(agent.feedback(memory_id, body.useful).to_dict())

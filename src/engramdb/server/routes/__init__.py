"""The versioned HTTP API (/v1): each route parses its input, calls one Memory verb on the
caller's scope and returns the verb's own ``to_dict()``. No logic lives here: scope and role
checks are in engramdb/keys.py (through auth.py), limits in limits.py, the rest in the engine.
Reading routes need a read key and never change anything for it (``track`` only counts for
write keys); writing routes need a write key; restoring a snapshot and removing a whole scope
need an admin key.

To add a route: a function in the module of its topic taking ``c: Read`` (or ``Write``,
``Admin``; common.py) that calls ``c.mem.<verb>(...)`` and returns ``ok(result.to_dict())``."""

from __future__ import annotations

from fastapi import APIRouter

from . import admin, agent, attention, memories, recall, sessions, views

router = APIRouter()
for module in (memories, recall, admin, sessions, attention, views, agent):
    router.include_router(module.router)

__all__ = ["router"]

"""The Memory facade: every verb a door (CLI, MCP, HTTP, adapters) offers is a method of
``Memory``. The verbs are grouped by what they do, one module each, and composed here; every
group stands on ``Core`` (store, embedder, clock, config). Where each verb lives:
docs/architecture.md."""

from .boundary import guarded
from .goals import AttentionVerbs
from .links import LinkVerbs
from .maintenance import MaintenanceVerbs
from .reads import ReadVerbs
from .review import ReviewVerbs
from .sessions import SessionVerbs
from .versions import VersionVerbs
from .views import ViewVerbs
from .writes import WriteVerbs


@guarded   # every exception a verb lets out is an EngramError (boundary.py)
class Memory(WriteVerbs, VersionVerbs, ReadVerbs, LinkVerbs, MaintenanceVerbs, SessionVerbs,
             AttentionVerbs, ViewVerbs, ReviewVerbs):
    """Long-term memory over one store. Use ``scope()`` for a view bound to a user and agent."""

"""Pictures of memory over time, for the web page: the scope's timeline, a memory's strength
curve, its lineage (supersession chain, gists, sources) and link neighbourhood, and what the
last sleeps changed."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ..clock import aware
from .core import Core

if TYPE_CHECKING:
    from ..dynamics.curve import Curve
    from ..dynamics.sleeplog import SleepLog
    from ..recall.entities import EntityName
    from ..recall.entity import Entity
    from ..recall.lineage import Lineage, Neighbourhood
    from ..recall.timeline import Timeline


class ViewVerbs(Core):
    """timeline, strength_curve, lineage, neighbourhood, sleep_log, entity, entities."""

    def timeline(self, *, since: datetime | str | None = None, until: datetime | str | None = None,
                 limit: int = 500, user: str | None = None,
                 agent: str | None = None) -> Timeline:
        """The scope over time: points and spans of validity (recall/timeline.py)."""
        from ..recall.timeline import timeline

        return timeline(self.store, self._scope(user, agent), self._now(),
                        aware(since, "since") if since else None,
                        aware(until, "until") if until else None, limit)

    def strength_curve(self, id_or_uri: str, *, ahead_days: float | None = None,
                       points: int = 120, user: str | None = None,
                       agent: str | None = None) -> Curve:
        """A memory's weight over time and its projected fade (dynamics/curve.py)."""
        from ..dynamics.curve import strength_curve
        from ..dynamics.decay import link_weights

        rec = self._get(self._scope(user, agent), id_or_uri)
        links = link_weights(self.store, rec.scope, [rec.id]).get(rec.id, 0.0)
        return strength_curve(self.store, rec, self._now(), self.decay_params, links,
                              ahead_days, points)

    def lineage(self, id_or_uri: str, *, user: str | None = None,
                agent: str | None = None) -> Lineage:
        """Its supersession chain, gists, gist sources and turns (recall/lineage.py)."""
        from ..recall.lineage import lineage

        scope = self._scope(user, agent)
        return lineage(self.store, scope, self._get(scope, id_or_uri))

    def neighbourhood(self, id_or_uri: str, limit: int = 24, *, user: str | None = None,
                      agent: str | None = None) -> Neighbourhood:
        """Its linked neighbours and the links to them (recall/lineage.py)."""
        from ..recall.lineage import neighbourhood

        scope = self._scope(user, agent)
        return neighbourhood(self.store, scope, self._get(scope, id_or_uri), limit)

    def sleep_log(self, limit: int = 10, *, user: str | None = None,
                  agent: str | None = None) -> SleepLog:
        """What the last sleeps changed, from the event log (dynamics/sleeplog.py)."""
        from ..dynamics.sleeplog import sleep_log

        return sleep_log(self.store, self._scope(user, agent), limit)

    def entity(self, name: str, *, user: str | None = None,
               agent: str | None = None) -> Entity:
        """What the memory holds about one person, place, project or topic: aliases, first and
        last seen, current facts, episodes, supersession history (recall/entity.py)."""
        from ..recall.entity import entity

        return entity(self.store, self._scope(user, agent), name)

    def entities(self, limit: int = 100, *, user: str | None = None,
                 agent: str | None = None) -> list[EntityName]:
        """The people, places and topics the scope's memories name, most named first, each with
        how many memories name it (recall/entities.py)."""
        from ..recall.entities import entities

        return entities(self.store, self._scope(user, agent), limit)

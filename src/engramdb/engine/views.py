"""Pictures of memory over time, for the web page: the scope's timeline, a memory's strength
curve, its lineage (supersession chain, gists, sources) and link neighbourhood, and what the
last sleeps changed."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ..clock import aware
from ..errors import Invalid
from .core import Core

if TYPE_CHECKING:
    from ..dynamics.curve import Curve
    from ..dynamics.sleeplog import SleepLog
    from ..recall.entities import EntityName
    from ..recall.entity import Entity
    from ..recall.lineage import Lineage, Neighbourhood
    from ..recall.timeline import Timeline
    from ..recall.triples import Fact


class ViewVerbs(Core):
    """timeline, strength_curve, lineage, neighbourhood, sleep_log, entity, entities,
    triples."""

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

    def triples(self, id_or_uri: str | None = None, *, subject: str | None = None,
                predicate: str | None = None, current: bool = True, limit: int = 100,
                user: str | None = None, agent: str | None = None) -> list[Fact]:
        """The subject-predicate-object triples read from the scope's facts (write/triples.py):
        of one memory (``id_or_uri``), or of all, narrowed to a ``subject`` ("user",
        "parents") and a ``predicate`` ("live in"); only those that hold now unless
        ``current`` is False; the newest first (recall/triples.py)."""
        from ..recall.triples import check_limit, check_part, triples

        scope = self._scope(user, agent)
        subject = check_part("subject", subject)
        predicate = check_part("predicate", predicate)
        limit = check_limit(limit)
        if not isinstance(current, bool):
            raise Invalid(f"current must be true or false, got {current!r}")
        records = None if id_or_uri is None else [self._get(scope, id_or_uri)]
        return triples(self.store, scope, records=records, subject=subject,
                       predicate=predicate, current=current, limit=limit)

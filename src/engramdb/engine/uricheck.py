"""Rows whose URI today's rules refuse (issue 18): '.' and '..' segments, empty segments,
control characters. Older versions stored such URIs; this lists them so an operator can
rename (``update(id, uri=...)``) or forget them. Read only."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from ..model import Layer, Scope
from ..uri import DOMAINS, MAX_URI, path_problem

if TYPE_CHECKING:
    from ..facade import Facade


@dataclass(frozen=True)
class BadUri:
    user: str
    agent: str
    id: str
    uri: str
    layer: str
    problem: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def uri_problem(uri: str) -> str | None:
    """Why ``uri`` would be refused today, or None (validate_uri's checks, without raising)."""
    if len(uri) > MAX_URI:
        return f"longer than {MAX_URI} characters"
    domain, sep, path = uri.partition("://")
    if not sep:
        return "no '://'"
    if domain not in DOMAINS:
        return f"unknown domain {domain!r}"
    return path_problem(path)


def bad_uris(mem: Facade, scopes: list[Scope]) -> list[BadUri]:
    """Every row of ``scopes`` (any layer, superseded ones too) whose URI is refused today."""
    out = []
    layers = [layer.value for layer in Layer]
    for scope in scopes:
        for rec in mem.list(layer=layers, user=scope.user, agent=scope.agent):
            problem = uri_problem(rec.uri) if rec.uri is not None else None
            if problem:
                out.append(BadUri(scope.user, scope.agent, rec.id, rec.uri or "",
                                  str(rec.layer), problem))
    return out

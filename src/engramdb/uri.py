"""Memory URIs: ``domain://path`` such as ``core://user/name`` or ``event://2026-02-20/trip``."""

from __future__ import annotations

import re

from .errors import Invalid

DOMAINS = frozenset(
    {"core", "knowledge", "event", "lesson", "rule", "procedure", "pending", "project",
     "emotion", "gist", "note", "system"}
)
_SEGMENT = re.compile(r"^[\w.\-~@+]+$")
MAX_URI = 512


def path_problem(path: str) -> str | None:
    """Why a URI's path (after ``domain://``, one trailing '/' allowed) is refused, or None."""
    bad = next((c for c in path if ord(c) < 32 or 127 <= ord(c) < 160), None)
    if bad is not None:
        return f"it holds the control character {bad!r}"
    segments = path[:-1].split("/") if path.endswith("/") else path.split("/")
    if not path or "" in segments:
        return "it has an empty segment ('//', or nothing after '://')"
    if any(s in (".", "..") for s in segments):
        return "'.' and '..' segments are not allowed"
    if any(not _SEGMENT.fullmatch(s) for s in segments):
        return "the path must be '/'-separated segments of letters, digits, '.-_~@+'"
    return None


def validate_uri(uri: str) -> str:
    """Return the URI (without a trailing '/') if it is well formed, else raise Invalid saying
    why."""
    if not isinstance(uri, str) or not uri.strip():
        raise Invalid("uri must be a non-empty string like 'core://user/name'")
    if len(uri) > MAX_URI:
        raise Invalid(f"uri is longer than {MAX_URI} characters")
    domain, sep, path = uri.partition("://")
    if not sep:
        raise Invalid(f"uri {uri!r} has no '://': expected 'domain://path'")
    if domain not in DOMAINS:
        known = ", ".join(sorted(DOMAINS))
        raise Invalid(f"uri {uri!r}: unknown domain {domain!r} (one of {known})")
    problem = path_problem(path)
    if problem:
        raise Invalid(f"uri {uri!r}: {problem}")
    return f"{domain}://{path.removesuffix('/')}"


def validate_prefix(prefix: str) -> str:
    """A prefix may stop anywhere after the domain: 'core://', 'core://user', 'core://user/'."""
    if not isinstance(prefix, str):
        raise Invalid("uri prefix must be a string like 'core://user/'")
    domain, sep, path = prefix.partition("://")
    if not sep or domain not in DOMAINS:
        raise Invalid(f"uri prefix {prefix!r} must start with a known 'domain://'")
    problem = path_problem(path) if path else None
    if problem:
        raise Invalid(f"uri prefix {prefix!r}: {problem}")
    return prefix


def domain_of(uri: str) -> str:
    return uri.partition("://")[0]

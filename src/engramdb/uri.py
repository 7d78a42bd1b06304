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


def validate_uri(uri: str) -> str:
    """Return the URI unchanged if it is well formed, else raise Invalid saying why."""
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
    segments = path.rstrip("/").split("/") if path else []
    if not segments or any(not _SEGMENT.match(s) for s in segments):
        raise Invalid(
            f"uri {uri!r}: the path must be '/'-separated segments of letters, digits, '.-_~@+'"
        )
    return f"{domain}://{'/'.join(segments)}"


def validate_prefix(prefix: str) -> str:
    """A prefix may stop anywhere after the domain: 'core://', 'core://user', 'core://user/'."""
    domain, sep, path = prefix.partition("://")
    if not sep or domain not in DOMAINS:
        raise Invalid(f"uri prefix {prefix!r} must start with a known 'domain://'")
    if path and not all(_SEGMENT.match(s) for s in path.rstrip("/").split("/")):
        raise Invalid(f"uri prefix {prefix!r} has an invalid path")
    return prefix


def domain_of(uri: str) -> str:
    return uri.partition("://")[0]

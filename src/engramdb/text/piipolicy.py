"""The PII policy's names and its per-scope overrides (``Config.pii``, ``Config.pii_scopes``):
light enough for the config check to import without the detectors (text/pii.py) or the
write path (write/privacy.py applies the policy)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..errors import ConfigError
from ..model import Scope

POLICIES = ("keep", "mask", "refuse")


def parse_scopes(spec: str) -> dict[str, str]:
    """``"alice=mask, alice/helper=refuse"`` -> {"alice": "mask", "alice/helper": "refuse"}."""
    out: dict[str, str] = {}
    for part in re.split(r"[,;\n]", spec or ""):
        if not part.strip():
            continue
        name, sep, policy = part.partition("=")
        name, policy = name.strip(), policy.strip()
        if not sep or not name or name.count("/") > 1 or policy not in POLICIES:
            raise ConfigError(f"pii_scopes: expected user[/agent]=keep|mask|refuse, got "
                              f"{part.strip()!r}")
        out[name] = policy
    return out


def check_policy(name: str, value: object) -> None:
    if value not in POLICIES:
        raise ConfigError(f"{name} must be keep, mask or refuse, got {value!r}")


def policy_for(default: str, scopes: Mapping[str, str], scope: Scope) -> str:
    """The scope's policy: its user/agent entry, else its user entry, else the default."""
    return scopes.get(f"{scope.user}/{scope.agent}") or scopes.get(scope.user) or default


def scope_policy(pii: str, pii_scopes: str, scope: Scope) -> str:
    """The scope's policy from ``Config.pii`` and ``Config.pii_scopes``."""
    return policy_for(pii, parse_scopes(pii_scopes), scope)

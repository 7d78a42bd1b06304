"""Action priors: what the agent expects of each tool, learned from its own calls.

Per tool, the calls that succeeded and failed, their time (read on the memory's clock, so a
test moves it) and their cost (tokens of the output the planner has to read, counted with the
configured encoding). The predicted success is the mean of a Beta(1 + ok, 1 + failed)
posterior: 0.5 before the first call, (1 + ok) / (2 + n) after n. Its uncertainty is that
posterior's standard deviation over the one of Beta(1, 1) (1 before any call, falling as calls
are seen). A tool whose predicted success is under ``LOW`` is one the planner is warned about
when it picks it.

One event memory per tool and scope at ``system://agent/prior/<tool>``, updated after each call
(each update is a version, so ``history`` shows how the record moved); metadata ``prior``
holds the counts and totals."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..model import Kind, Layer, Record, Scope
from ..store.protocol import ListFilter
from .texts import PRIOR_CONTENT, PRIOR_LINE
from .uris import PREFIX, put

if TYPE_CHECKING:
    from ..engine import Memory

PRIORS = PREFIX + "prior/"
LOW = 0.3                       # predicted success under this: the planner is warned
_SD_FLAT = math.sqrt(1 / 12)    # standard deviation of Beta(1, 1)


@dataclass(frozen=True)
class Prior:
    tool: str
    ok: int = 0
    failed: int = 0
    seconds: float = 0.0        # all calls together
    tokens: int = 0             # of output, all calls together

    @property
    def calls(self) -> int:
        return self.ok + self.failed

    @property
    def success(self) -> float:
        """The predicted chance that the next call succeeds."""
        return (1 + self.ok) / (2 + self.calls)

    @property
    def uncertainty(self) -> float:
        a, b = 1 + self.ok, 1 + self.failed
        return math.sqrt(a * b / ((a + b) ** 2 * (a + b + 1))) / _SD_FLAT

    @property
    def mean_seconds(self) -> float:
        return self.seconds / self.calls if self.calls else 0.0

    @property
    def mean_tokens(self) -> float:
        return self.tokens / self.calls if self.calls else 0.0

    @property
    def low(self) -> bool:
        return self.calls > 0 and self.success < LOW

    def seen(self, ok: bool, seconds: float, tokens: int) -> Prior:
        """The prior after one more call."""
        return replace(self, ok=self.ok + ok, failed=self.failed + (not ok),
                       seconds=self.seconds + max(0.0, seconds), tokens=self.tokens + tokens)

    def line(self, lang: str) -> str:
        return PRIOR_LINE[lang].format(tool=self.tool, ok=self.ok, n=self.calls,
                                       p=self.success, secs=self.mean_seconds,
                                       tokens=self.mean_tokens)

    def meta(self) -> dict[str, Any]:
        return {"tool": self.tool, "ok": self.ok, "failed": self.failed,
                "seconds": round(self.seconds, 6), "tokens": self.tokens}

    def to_dict(self) -> dict[str, Any]:
        return {**self.meta(), "calls": self.calls, "success": round(self.success, 4),
                "uncertainty": round(self.uncertainty, 4),
                "mean_seconds": round(self.mean_seconds, 4),
                "mean_tokens": round(self.mean_tokens, 2), "low": self.low}

    @classmethod
    def from_record(cls, rec: Record) -> Prior:
        m = rec.metadata.get("prior") or {}
        try:
            return cls(str(m["tool"]), int(m.get("ok", 0)), int(m.get("failed", 0)),
                       float(m.get("seconds", 0.0)), int(m.get("tokens", 0)))
        except (KeyError, TypeError, ValueError):
            return cls(rec.uri.removeprefix(PRIORS) if rec.uri else "?")


def load_all(memory: Memory, scope: Scope) -> dict[str, Prior]:
    """Every tool's prior in the scope, by tool name."""
    recs = memory.store.list(scope, ListFilter(uri_prefix=PRIORS, current_only=True,
                                               layers=(Layer.CORE, Layer.ARCHIVED)))
    found = (Prior.from_record(r) for r in recs)
    return {p.tool: p for p in sorted(found, key=lambda p: p.tool)}


def save(memory: Memory, scope: Scope, prior: Prior, lang: str) -> Prior:
    uri = PRIORS + prior.tool
    content = PRIOR_CONTENT[lang].format(line=prior.line(lang))
    meta = {"prior": prior.meta(), "agent_trace": "prior"}
    put(memory, scope, uri, content, meta, kind=Kind.EVENT, priority="P2", importance=0.3)
    return prior

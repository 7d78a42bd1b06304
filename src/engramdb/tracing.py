"""Timing of the recall and write stages: OpenTelemetry spans when ``opentelemetry`` is
installed and a tracer provider is configured (no-op otherwise), and the durations handed to
observers (server/metrics.py turns them into Prometheus histograms). A stage is marked with a
one-line decorator, ``@traced("recall.search")``, on the function that runs it."""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
Observer = Callable[[str, float, Any, Any], None]  # stage, seconds, owner (self), result

OBSERVERS: list[Observer] = []


def observe(observer: Observer) -> Callable[[], None]:
    """Call ``observer`` after every traced stage; returns the function that stops it."""
    OBSERVERS.append(observer)
    return lambda: OBSERVERS.remove(observer) if observer in OBSERVERS else None


def traced(stage: str) -> Callable[[F], F]:
    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            tracer = _tracer()
            start = time.perf_counter()
            if tracer is None:
                result = fn(*args, **kwargs)
            else:
                with tracer.start_as_current_span(f"engramdb.{stage}"):
                    result = fn(*args, **kwargs)
            if OBSERVERS:
                took = time.perf_counter() - start
                for obs in list(OBSERVERS):
                    obs(stage, took, args[0] if args else None, result)
            return result

        return run  # type: ignore[return-value]

    return wrap


def _tracer() -> Any:
    """The engramdb tracer when a real tracer provider is set, else None (no span at all).
    Setting a provider imports ``opentelemetry.trace``; until then it is not imported here
    (its import costs a short-lived process, the CLI, more than the recall it would time)."""
    trace = sys.modules.get("opentelemetry.trace")
    if trace is None:
        return None
    provider = trace.get_tracer_provider()
    if type(provider).__name__ in ("ProxyTracerProvider", "NoOpTracerProvider"):
        return None
    return provider.get_tracer("engramdb")

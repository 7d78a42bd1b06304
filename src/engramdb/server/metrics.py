"""Prometheus metrics at ``/metrics`` (when ``prometheus-client`` is installed): requests and
their latency per route, recall and write stage latencies, writes by action, the store's size
and the memories waiting for a vector. One registry per app; each `engramdb serve` worker
reports its own process. The figures cover every scope, so ``/metrics`` needs an admin key
(as naming another scope does) unless ``Config.metrics_public`` opens it."""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from fastapi import Depends, FastAPI, Request, Response

from ..engine import Memory
from ..model import Role, WriteResult
from ..tracing import observe
from .auth import needs


def install(app: FastAPI, memory: Memory) -> None:
    try:
        import prometheus_client as pc
    except ImportError:
        return
    reg = pc.CollectorRegistry()
    requests = pc.Counter("engramdb_http_requests", "HTTP requests by route and status",
                          ["method", "route", "status"], registry=reg)
    latency = pc.Histogram("engramdb_http_request_seconds", "HTTP request latency by route",
                           ["method", "route"], registry=reg)
    stages = pc.Histogram("engramdb_stage_seconds", "Recall and write stage latency",
                          ["stage"], registry=reg)
    writes = pc.Counter("engramdb_writes", "Memory writes by action", ["action"], registry=reg)
    reg.register(_StoreSize(memory))
    owners = (memory, memory._recaller, memory.store)  # what each traced stage runs on

    def on_stage(stage: str, seconds: float, owner: Any, result: Any) -> None:
        if not any(owner is o for o in owners):
            return
        stages.labels(stage).observe(seconds)
        if isinstance(result, WriteResult):
            writes.labels(result.action.value).inc()

    app.state.stop_metrics = observe(on_stage)

    @app.middleware("http")
    async def measure(request: Request,
                      call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        start = time.perf_counter()
        response = await call_next(request)
        route = request.scope.get("route")
        name = getattr(route, "path", "unmatched")
        requests.labels(request.method, name, str(response.status_code)).inc()
        latency.labels(request.method, name).observe(time.perf_counter() - start)
        return response

    def metrics() -> Response:
        return Response(pc.generate_latest(reg), media_type=pc.CONTENT_TYPE_LATEST)

    guard = [] if memory.config.metrics_public else [Depends(needs(Role.ADMIN))]
    app.add_api_route("/metrics", metrics, methods=["GET"], include_in_schema=False,
                      dependencies=guard)


class _StoreSize:
    """Read at each scrape: memories per layer over every scope, the SQLite file size, and
    the memories waiting for a vector."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily

        from ..model import Layer

        count = GaugeMetricFamily("engramdb_memories", "Memories in the store by layer",
                                  labels=["layer"])
        for layer in Layer:
            total = sum(self.memory.count(layer=layer.value, user=s.user, agent=s.agent)
                        for s in self.memory.scopes())
            count.add_metric([layer.value], total)
        yield count
        yield GaugeMetricFamily(
            "engramdb_pending_vectors", "Memories stored whose vector is not computed yet; "
            "always 0 while every write embeds its memory before it returns", value=0)
        path = self.memory.store.location
        if os.path.isfile(path):
            yield GaugeMetricFamily("engramdb_store_bytes", "Size of the SQLite file",
                                    value=os.path.getsize(path))

"""Prometheus /metrics on a real HTTP server, and OpenTelemetry spans around recall and write
stages when a tracer provider is configured (none otherwise)."""

from __future__ import annotations

import functools

import httpx
import pytest

import engramdb

pytest.importorskip("prometheus_client")

from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

from engramdb.keys import Keys  # noqa: E402
from live_server import auth, new_key, serve_process, thread_server  # noqa: E402

# a loaded CI machine answers slower than httpx's default 5 s: no test here is about time
GET = functools.partial(httpx.get, timeout=60)
POST = functools.partial(httpx.post, timeout=60)


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for fam in text_string_to_metric_families(text) for s in fam.samples}


def test_metrics_count_routes_stages_writes_and_size(mem):  # type: ignore[no-untyped-def]
    key = Keys(mem).create(user="alice", agent="noah", role="write")[1]
    head = {"Authorization": f"Bearer {key}"}
    with thread_server(mem) as url:
        for text in ("I live in Berlin", "I live in Berlin", "我喜欢喝茶"):
            assert POST(f"{url}/v1/memories", json={"content": text},
                              headers=head).status_code in (200, 201)
        assert POST(f"{url}/v1/recall", json={"query": "where do I live?"},
                          headers=head).status_code == 200
        assert GET(f"{url}/nope").status_code == 404
        reply = GET(f"{url}/metrics", headers=auth(new_key(mem, "admin", "ops", "prom")))
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/plain")
    got = samples(reply.text)
    posted = [v for (n, labels), v in got.items() if n == "engramdb_http_requests_total"
              and ("route", "/v1/memories") in labels and ("method", "POST") in labels]
    assert sum(posted) == 3
    assert got[("engramdb_http_requests_total",
                (("method", "GET"), ("route", "unmatched"), ("status", "404")))] == 1
    assert got[("engramdb_writes_total", (("action", "add"),))] == 2
    assert got[("engramdb_writes_total", (("action", "noop"),))] == 1
    for stage in ("recall", "recall.search", "recall.rank", "write", "write.embed"):
        assert got[("engramdb_stage_seconds_count", (("stage", stage),))] >= 1
    assert got[("engramdb_memories", (("layer", "core"),))] == 2
    assert got[("engramdb_store_bytes", ())] > 0
    assert got[("engramdb_pending_vectors", ())] == 0
    assert "not computed yet" in reply.text  # what the figure means is in its help text


def test_pending_vectors_are_the_stores_count(mem):  # type: ignore[no-untyped-def]
    """Memories waiting for their vector (Config.embed = 'deferred') show in the gauge."""
    scope = engramdb.model.Scope("alice", "noah")
    ids = [mem.remember(text, user="alice", agent="noah").memory.id
           for text in ("I live in Berlin", "我喜欢喝茶")]
    with mem.store.transaction():
        mem.store.add_pending(scope, dict.fromkeys(ids, False))
    with thread_server(mem) as url:
        reply = GET(f"{url}/metrics", headers=auth(new_key(mem, "admin", "ops", "prom")))
    assert samples(reply.text)[("engramdb_pending_vectors", ())] == 2
    mem.flush()
    assert mem.store.pending_count() == 0


def test_metrics_need_an_admin_key(mem):  # type: ignore[no-untyped-def]
    """The figures cover every scope: a scoped key may not read them, as it may not name
    another scope; the admin key may."""
    with thread_server(mem) as url:
        codes = {who: GET(f"{url}/metrics", headers=head).status_code for who, head in (
            ("none", {}), ("unknown", auth("edb_not-a-key")),
            ("read", auth(new_key(mem, "read"))), ("write", auth(new_key(mem, "write"))),
            ("admin", auth(new_key(mem, "admin"))),
            ("admin as X-API-Key", {"X-API-Key": new_key(mem, "admin", "ops")}))}
        refused = GET(f"{url}/metrics")
    assert codes == {"none": 401, "unknown": 401, "read": 403, "write": 403, "admin": 200,
                     "admin as X-API-Key": 200}
    assert refused.json()["error"]["code"] and "engramdb_" not in refused.text


def test_metrics_public_opens_them_without_a_key(tmp_path):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "open.db", embedder="hashing", metrics_public=True) as mem, \
            thread_server(mem) as url:
        reply = GET(f"{url}/metrics")
        v1 = GET(f"{url}/v1/memories")
    assert reply.status_code == 200 and "engramdb_memories" in reply.text
    assert v1.status_code == 401  # only /metrics is opened


def test_serve_metrics_public_flag(tmp_path):  # type: ignore[no-untyped-def]
    db = tmp_path / "served.db"
    engramdb.open(db, embedder="hashing").close()
    with serve_process(db, 1, "--metrics-public") as url:
        assert GET(f"{url}/metrics").status_code == 200
    with serve_process(db) as url:
        assert GET(f"{url}/metrics").status_code == 401


def test_spans_when_opentelemetry_is_configured(me, monkeypatch):  # type: ignore[no-untyped-def]
    sdk = pytest.importorskip("opentelemetry.sdk.trace")
    export = pytest.importorskip("opentelemetry.sdk.trace.export")
    memory_exp = pytest.importorskip("opentelemetry.sdk.trace.export.in_memory_span_exporter")
    from opentelemetry import trace

    me.remember("before any tracer: no span")
    exporter = memory_exp.InMemorySpanExporter()
    provider = sdk.TracerProvider()
    provider.add_span_processor(export.SimpleSpanProcessor(exporter))
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: provider)
    me.remember("I work at the harbour")
    me.recall("where do I work?")
    names = {s.name for s in exporter.get_finished_spans()}
    assert {"engramdb.write", "engramdb.write.embed", "engramdb.recall",
            "engramdb.recall.search", "engramdb.recall.rank"} <= names


@pytest.mark.parametrize(("assoc_slots", "stages"), [(2, 1), (0, 0)])
def test_the_associate_stage_times_association_alone(tmp_path, assoc_slots, stages):  # type: ignore[no-untyped-def]
    """``recall.associate`` is counted where spreading activation runs, not for the query's
    embedding (which it once timed: the mark sat on the wrong method)."""
    from engramdb import tracing

    seen: list[str] = []
    stop = tracing.observe(lambda stage, *_: seen.append(stage))
    try:
        with engramdb.open(tmp_path / "a.db", embedder="hashing",
                           config=engramdb.Config(assoc_slots=assoc_slots)) as mem:
            me = mem.scope(user="u", agent="a")
            me.remember("Anna lives in Lisbon")
            me.remember("我住在杭州")
            seen.clear()
            me.recall("where does Anna live?")
    finally:
        stop()
    assert seen.count("recall.associate") == stages

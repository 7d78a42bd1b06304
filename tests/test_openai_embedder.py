"""The OpenAI-compatible embedder against a real HTTP server on loopback that speaks the
/v1/embeddings wire protocol (a double of the remote API, as the brief allows)."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

import engramdb
from engramdb.embed.openai import OpenAIEmbedder
from engramdb.errors import ConfigError, EngramError

DIM = 8


def fake_vector(text: str) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest()
    return [b - 128.0 for b in digest[:DIM]]


class Handler(BaseHTTPRequestHandler):
    seen: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Handler.seen.append({"path": self.path, "auth": self.headers.get("Authorization"),
                             "body": body})
        if body["model"] == "broken":
            self.send_response(500)
            self.end_headers()
            return
        data = [{"object": "embedding", "index": i, "embedding": fake_vector(t)}
                for i, t in enumerate(body["input"])]
        payload = json.dumps({"object": "list", "data": data[::-1], "model": body["model"],
                              "usage": {"prompt_tokens": 1, "total_tokens": 1}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch):  # type: ignore[no-untyped-def]
    """The double is on loopback: never route it through a proxy from the environment."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
                 "all_proxy"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    Handler.seen = []
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


def test_embeds_in_input_order_with_the_key(server):  # type: ignore[no-untyped-def]
    emb = OpenAIEmbedder(base_url=server, api_key="sk-test", model="m", dimensions=DIM)
    vectors = emb.embed_batch(["alpha", "beta", "gamma"])
    expected = np.array([fake_vector(t) for t in ["alpha", "beta", "gamma"]], dtype=np.float32)
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    assert np.allclose(vectors, expected, atol=1e-6)  # the server answered in reverse order
    assert Handler.seen[0]["path"] == "/v1/embeddings"
    assert Handler.seen[0]["auth"] == "Bearer sk-test"
    assert emb.model_id == "openai:m"


def test_configured_by_environment_through_open(server, monkeypatch, tmp_path):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("ENGRAMDB_OPENAI_BASE_URL", server)
    monkeypatch.setenv("ENGRAMDB_OPENAI_EMBED_MODEL", "m")
    monkeypatch.setenv("ENGRAMDB_OPENAI_EMBED_DIM", str(DIM))
    with engramdb.open(tmp_path / "m.db", embedder="openai") as mem:
        r = mem.remember("I moved to Berlin")
        assert mem.recall("Berlin", k=1, track=False)[0].memory.id == r.memory.id
        assert mem.stats().embedder == "openai:m"


def test_errors_are_clear(server):  # type: ignore[no-untyped-def]
    with pytest.raises(EngramError, match="failed"):
        OpenAIEmbedder(base_url=server, model="broken", dimensions=DIM).embed_batch(["x"])
    with pytest.raises(EngramError, match="returned 8-d vectors, configured 4"):
        OpenAIEmbedder(base_url=server, model="m", dimensions=4).embed_batch(["x"])


def test_needs_a_dimension(monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.delenv("ENGRAMDB_OPENAI_EMBED_DIM", raising=False)
    with pytest.raises(ConfigError, match="ENGRAMDB_OPENAI_EMBED_DIM"):
        OpenAIEmbedder(model="m")

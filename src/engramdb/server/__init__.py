"""The HTTP door: a FastAPI app over the Memory verbs, API keys, and the web page.

``create_app(memory)`` builds the app for an open Memory; ``serve(...)`` runs it with uvicorn
(what `engramdb serve` does). Routes, auth, limits and errors: docs/http.md."""

from __future__ import annotations

from .app import create_app
from .run import serve

__all__ = ["create_app", "serve"]

"""Security headers on every answer of the HTTP door (issue 18): the page, its static files,
the docs page, the API and every error, 413 and 404 included.

The page (static/index.html) loads one script and one stylesheet from /static and holds no
inline script, style or event handler, so the policy allows only the server's own files:
nothing inline, nothing from elsewhere, no framing (clickjacking of forget/edit), no form
posted elsewhere, no ``<base>``, and requests (``fetch``) to the same origin only."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; form-action 'self'; base-uri 'none'; "
       "frame-ancestors 'none'")
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
_NAMES = {name for name, _ in HEADERS}


class SecurityHeaders:
    """ASGI middleware: adds ``HEADERS`` to every HTTP response start (replacing any the app
    set under those names)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _NAMES]
                message = {**message, "headers": [*kept, *HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def install(app: Starlette) -> None:
    """Wrap ``app``'s whole stack, Starlette's ServerErrorMiddleware included (it answers the
    500s, outside any middleware added with ``add_middleware``)."""
    build = app.build_middleware_stack

    def build_with_headers() -> ASGIApp:
        return SecurityHeaders(build())

    app.build_middleware_stack = build_with_headers  # type: ignore[method-assign]

"""The pages' guard: browser sessions, CSRF checks and security headers, for every request.

One ASGI middleware (`PageGuard`) does it all, so a route or form someone adds later is
protected without doing anything but putting ``{{ csrf_field() }}`` in its form:

- **Session.** A browser holds one random, opaque cookie (`fd_session`); the seats it may
  act for are kept on the server under it (`fivedice.store.browser_seats`), so it can hold
  any number. A new session is only ever made on a GET or HEAD of a page: a request that
  did not carry the cookie (a cross-site form post, where SameSite=Lax keeps it back) never
  gets a new one, so it cannot replace the browser's seats.
- **CSRF.** Every POST, PUT, PATCH or DELETE outside `/api/` must come from this server's
  own pages: its `Origin` (or, without one, its `Referer`) must be the server's origin (the
  configured public URL's, or the one the request was addressed to), and it must carry the
  session's CSRF token (form field `csrf_token`, or header `X-CSRF-Token`). Otherwise: 403
  and nothing runs. The JSON API is exempt: it authenticates with a bearer token in a
  header, which another site cannot make a browser send.
- **Headers** on every answer, pages and API alike: a strict Content-Security-Policy (no
  inline script or style; `frame-ancestors 'none'`), X-Frame-Options DENY,
  X-Content-Type-Options nosniff, Referrer-Policy same-origin (invite links hold tokens),
  and Cache-Control no-store on everything but static files.
- **Redirects stay relative.** A redirect to an absolute URL on the request's own host
  (Starlette's trailing-slash redirect builds one from the Host header) is made relative,
  so a forged Host header never ends up in a Location (with a seat token in its query).
"""

from __future__ import annotations

import hmac
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from markupsafe import Markup, escape
from starlette.requests import Request, cookie_parser

from fivedice.core.errors import N_, FivediceError
from fivedice.web.security import Signer
from fivedice.web.wording import gettext_for, pick_language

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SESSION_COOKIE = "fd_session"
LANG_COOKIE = "fd_lang"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
PUBLIC_URL_ENV = "FIVEDICE_PUBLIC_URL"
MAX_FORM_BYTES = 64 * 1024  # the new-game form is about 1 kB; anything far bigger is not ours
SESSION_AGE = 365 * 24 * 3600
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_SESSION_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)

# No inline script or style anywhere: app.js and app.css are files. `data:` images: the
# empty favicon. The API docs page (Swagger UI from a CDN, with one inline script of
# FastAPI's) gets a looser policy of its own; it shows no game and holds no seat.
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' https://cdn.jsdelivr.net 'unsafe-inline'; "
    "style-src 'self' https://cdn.jsdelivr.net 'unsafe-inline'; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
    "worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
DOCS_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})


class PublicUrlError(FivediceError):
    """The configured public URL is not a site's address."""


def parse_public_url(text: str) -> str:
    """The origin (``scheme://host[:port]``) of a configured public URL.

    Raises:
        PublicUrlError: not an http(s) URL of a site's root (no path, query or fragment).
    """
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        parts, port = None, None
    if (
        parts is None
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username
        or parts.password
    ):
        raise PublicUrlError(
            N_(
                "the public URL must be a site's address such as https://dice.example.org,"
                " without a path, not {url!r}"
            ),
            url=text,
        )
    return _origin(parts.scheme, parts.hostname, port)


def _origin(scheme: str, host: str, port: int | None) -> str:
    default = {"http": 80, "https": 443}.get(scheme)
    shown = f"[{host}]" if ":" in host else host
    suffix = "" if port is None or port == default else f":{port}"
    return f"{scheme}://{shown.lower()}{suffix}"


def origin_of(url: str) -> str | None:
    """The origin of a URL (an Origin or Referer header), or None if it has none."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return _origin(parts.scheme, parts.hostname, port)


def csrf_token(signer: Signer, session: str) -> str:
    """The CSRF token of a session (an HMAC of it: nothing to store, same in every worker)."""
    return signer.mac(f"csrf:{session}")[:32]


def session_of(scope: Scope) -> str | None:
    """The browser session of a request (carried or just made), or None."""
    state = scope.get("state") or {}
    session = state.get("session")
    return session if isinstance(session, str) else None


def csrf_field_html(scope: Scope) -> Markup:
    """The hidden form field with the request's CSRF token."""
    token = (scope.get("state") or {}).get("csrf", "")
    return Markup('<input type="hidden" name="{}" value="{}">').format(CSRF_FIELD, token)


def _cookies(scope: Scope) -> dict[str, str]:
    # Starlette's lenient parser (as `request.cookies`): one odd cookie of another app on
    # the same host must not hide the session cookie, or a GET would replace it.
    found: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            found.update(cookie_parser(value.decode("latin-1")))
    return found


def _header(scope: Scope, wanted: bytes) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == wanted:
            return str(value.decode("latin-1"))
    return None


def _request_origin(scope: Scope) -> str | None:
    host = _header(scope, b"host")
    if not host:
        return None
    return origin_of(f"{scope.get('scheme', 'http')}://{host}")


class PageGuard:
    """The middleware described in the module docstring."""

    def __init__(self, app: ASGIApp, signer: Signer, public_origin: str | None = None) -> None:
        self.app = app
        self.signer = signer
        self.public_origin = public_origin

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        method: str = scope.get("method", "GET")
        is_api = path.startswith("/api/") or path == "/api"
        is_static = path.startswith("/static/")
        cookies = _cookies(scope)
        carried = cookies.get(SESSION_COOKIE, "")
        session = carried if _SESSION_SHAPE.fullmatch(carried) else None
        new_session = None
        if session is None and method in ("GET", "HEAD") and not is_api and not is_static:
            session = new_session = secrets.token_urlsafe(32)
        state = scope.setdefault("state", {})
        if session is not None:
            state["session"] = session
            state["csrf"] = csrf_token(self.signer, session)
        secure = scope.get("scheme") == "https" or (self.public_origin or "").startswith("https:")
        send = self._with_headers(scope, send, path, is_static, new_session, secure, state)
        if method in SAFE_METHODS or is_api:
            await self.app(scope, receive, send)
            return
        refusal = self._origin_refusal(scope)
        status = 403
        body = b""
        if refusal is None:
            body, too_big = await _read_body(receive)
            if too_big:
                refusal, status = N_("the form is too large"), 413
            elif session is None or not await self._token_ok(scope, body, state["csrf"]):
                refusal = N_(
                    "this form has expired or did not come from this site; reload the page"
                    " and try again"
                )
        if refusal is not None:
            await self._refuse(scope, send, refusal, status)
            return
        await self.app(scope, _replay(body, receive), send)

    def _origin_refusal(self, scope: Scope) -> str | None:
        """Why the request's Origin (or Referer) is not this server's, or None if it is."""
        claimed = _header(scope, b"origin")
        if claimed is None or claimed == "null":
            referer = _header(scope, b"referer")
            claimed = origin_of(referer) if referer else None
        else:
            claimed = origin_of(claimed)
        if claimed is None:
            return N_(
                "this form did not say which site it came from; reload the page and try again"
            )
        allowed = {self.public_origin, _request_origin(scope)} - {None}
        if claimed not in allowed:
            return N_("this form came from another site; nothing was done")
        return None

    async def _token_ok(self, scope: Scope, body: bytes, expected: str) -> bool:
        sent = _header(scope, CSRF_HEADER.encode())
        if sent is None:
            request = Request(scope, _replay(body, _no_more))
            try:
                form = await request.form(max_files=0, max_fields=200)
                value = form.get(CSRF_FIELD)
                await form.close()
            except Exception:  # not a form at all (or a malformed one): no token
                return False
            sent = value if isinstance(value, str) else None
        return sent is not None and hmac.compare_digest(sent.encode(), expected.encode())

    async def _refuse(self, scope: Scope, send: Send, reason: str, status: int) -> None:
        cookies = _cookies(scope)
        language = pick_language(cookies.get(LANG_COOKIE), _header(scope, b"accept-language"))
        _ = gettext_for(language)
        page = (
            f'<!doctype html><html lang="{language}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<title>fivedice</title><link rel="stylesheet" href="/static/app.css"></head>'
            f'<body><main id="main"><p class="error" role="alert">{escape(_(reason))}</p>'
            f'<p><a href="/">{escape(_("Back to the start"))}</a></p></main></body></html>'
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"text/html; charset=utf-8"),
                    (b"content-length", str(len(page)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": page})

    def _with_headers(
        self,
        scope: Scope,
        send: Send,
        path: str,
        is_static: bool,
        new_session: str | None,
        secure: bool,
        state: dict[str, Any],
    ) -> Send:
        policy = DOCS_POLICY if path in DOCS_PATHS else PAGE_POLICY
        host_origin = _request_origin(scope)

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                ours = dict(SECURITY_HEADERS)
                ours[b"content-security-policy"] = policy.encode()
                if not is_static:
                    ours[b"cache-control"] = b"no-store"  # game pages and answers hold tokens
                headers = [
                    (name, value)
                    for name, value in message.get("headers", ())
                    if name.lower() not in ours
                ]
                headers += ours.items()
                headers = [
                    (name, _relative(value, host_origin) if name.lower() == b"location" else value)
                    for name, value in headers
                ]
                if new_session is not None:
                    headers.append((b"set-cookie", _session_cookie(new_session, secure)))
                if state.get("drop_legacy_seats"):
                    headers.append(
                        (b"set-cookie", b"fd_seats=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax")
                    )
                message["headers"] = headers
            await send(message)

        return sending


def _relative(location: bytes, host_origin: str | None) -> bytes:
    """A Location on the request's own host (as its Host header names it) without the host."""
    text = location.decode("latin-1")
    if host_origin is None or origin_of(text) != host_origin:
        return location
    parts = urlsplit(text)
    relative = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return ("/" + relative.lstrip("/")).encode("latin-1")  # never "//host": scheme-relative


def _session_cookie(session: str, secure: bool) -> bytes:
    text = f"{SESSION_COOKIE}={session}; Max-Age={SESSION_AGE}; Path=/; HttpOnly; SameSite=Lax"
    return (text + ("; Secure" if secure else "")).encode()


async def _read_body(receive: Receive) -> tuple[bytes, bool]:
    """The whole request body, unless it is larger than MAX_FORM_BYTES (then True)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), False
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_FORM_BYTES:
            return b"", True
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks), False


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the body read already, then whatever the client sends next."""
    done = False

    async def replaying() -> Message:
        nonlocal done
        if not done:
            done = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replaying


async def _no_more() -> Message:
    return {"type": "http.disconnect"}


ROTATE_SESSION_KEY = "fivedice.rotate_session"


def rotate_session(scope: MutableMapping[str, Any]) -> None:
    """Asks the guard to give this browser a new session id with its answer (a seat was granted)."""
    scope[ROTATE_SESSION_KEY] = True

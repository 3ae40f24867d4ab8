"""The pages' guard: browser sessions, CSRF checks and security headers, for every request.

One ASGI middleware (`PageGuard`) does it all, so a route or form someone adds later is
protected without doing anything but putting ``{{ csrf_field() }}`` in its form:

- **Session.** A browser holds one opaque cookie (`fd_session`; over https
  `__Host-fd_session`, Secure, Path=/, no Domain, so no other site or subdomain can set
  it); the seats it may act for are kept on the server under it
  (`fivedice.store.browser_seats`), so it can hold any number. A new session is only ever
  made on a GET or HEAD of a page: a request that did not carry the cookie (a cross-site
  form post, where SameSite=Lax keeps it back) never gets a new one, so it cannot replace
  the browser's seats.
- **Only ids this server issued.** A session id is a random part and its HMAC under the
  server secret (`issue_session`), so every worker checks it without a lookup; any other id
  is replaced by a fresh, empty session (nobody can fix a victim's id in advance and ride
  it later). An id of an older server (43 random characters, no HMAC) that still holds
  something is upgraded once: to the id `upgraded_session` derives from it, with everything
  kept under it moved there; an id of that shape that holds nothing (one nobody was ever
  given, such as ``"A" * 43``) is replaced like any other. Over https only the
  `__Host-fd_session` cookie counts (only this host, over https, could have set it): a
  plain-named `fd_session` (which a sibling subdomain or a man in the middle of plain http
  can set) is never upgraded into it, only deleted.
- **Rotation.** When a route grants a seat it calls `rotate_session(request.scope)`; the
  answer then carries a new random id, and everything kept under the old one (seats, rooms
  it hosts, claims, tutorial progress) moves to it in one transaction: the old id holds
  nothing any more, so an id someone planted or saw earlier gives them nothing. Another
  grant that reached the server with the old id no later than `FORWARD_SECONDS` after
  the rotation (a double click, a second tab: sent before the browser had the new id) is
  forwarded: its seats go to the same new id, which its answer carries too, so the
  browser ends with every seat whichever answer it keeps. The forward is bound to the
  browser that was rotated (its address and User-Agent, `browser_of`): a grant with the
  same old id from anyone else gets a new id of its own, so a third party who planted the
  id cannot hold a window open and be handed the victim's new id; and the window runs
  from the rotation, no later request extends it. (The forward is in the worker that
  rotated; one old id's other requests — reads, moves — get nothing.) The same binding
  lets the requests an older-server browser had in flight reach its upgraded id. A grant's
  answer should be a redirect: a page rendered in it would carry the old id's CSRF token.
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
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Protocol
from urllib.parse import urlsplit

from markupsafe import Markup, escape
from starlette.concurrency import run_in_threadpool
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
SECURE_SESSION_COOKIE = "__Host-fd_session"  # over https: only this host, only https, Path=/
LANG_COOKIE = "fd_lang"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
PUBLIC_URL_ENV = "FIVEDICE_PUBLIC_URL"
MAX_FORM_BYTES = 64 * 1024  # the new-game form is about 1 kB; anything far bigger is not ours
SESSION_AGE = 365 * 24 * 3600
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FORWARD_SECONDS = 2.0  # a grant with a rotated id that arrived this soon after: forwarded
FORWARD_KEPT_SECONDS = 60.0  # how long a forward is remembered (for grants that waited)
_ISSUED_SHAPE = re.compile(r"([A-Za-z0-9_-]{32})\.([0-9a-f]{32})")  # random part . its HMAC
_OLD_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")  # an older server's: secrets.token_urlsafe(32)

# No inline script or style anywhere: app.js and app.css are files. `data:` images: the
# empty favicon. The service worker (/sw.js) and the web manifest come from the site itself.
# The API docs page (Swagger UI from a CDN, with one inline script of
# FastAPI's) gets a looser policy of its own; it shows no game and holds no seat.
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
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
ROOT_FILES = frozenset({"/sw.js", "/seats.css"})
"""Static files served from the root (the service worker's scope is the folder it is served
from): cacheable like `/static/`, and no session is started for them."""


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


def issue_session(signer: Signer, random_part: str | None = None) -> str:
    """A session id this server vouches for: a random part (32 URL-safe characters, 192
    bits) and the first 32 hex digits of its HMAC under the server secret."""
    random_part = random_part or secrets.token_urlsafe(24)
    return f"{random_part}.{signer.mac(f'session:{random_part}')[:32]}"


def is_issued_session(signer: Signer, text: str) -> bool:
    """Whether `text` is a session id this server issued (its HMAC checks out)."""
    found = _ISSUED_SHAPE.fullmatch(text)
    if found is None:
        return False
    expected = signer.mac(f"session:{found.group(1)}")[:32]
    return hmac.compare_digest(found.group(2).encode(), expected.encode())


def upgraded_session(signer: Signer, old: str) -> str:
    """The id an older server's session id `old` is upgraded to: derived from it under the
    secret, so that every request carrying `old` arrives at the same id (and nobody
    without the secret can compute it)."""
    return issue_session(signer, signer.mac(f"upgrade:{old}")[:32])


class SessionKeeper(Protocol):
    """What the guard needs of the place a session's seats are kept (`BrowserSeats`)."""

    def holds_anything(self, session: str) -> bool: ...

    def move_all(self, old: str, new: str) -> None: ...


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


def browser_of(scope: Scope) -> str:
    """What tells one browser from another for a session forward: the client's address
    (uvicorn's: the forwarded one only from a trusted proxy) and its User-Agent."""
    client = scope.get("client")
    return f"{client[0] if client else ''} {_header(scope, b'user-agent') or ''}"


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
    """The middleware described in the module docstring.

    Args:
        signer: the server secret's signer (CSRF tokens, session ids).
        public_origin: the configured public URL's origin; https makes the session cookie
            `__Host-fd_session` and Secure.
        sessions: where sessions' seats are kept (the hub's `BrowserSeats`), for upgrades
            and rotations; None: nothing is kept, ids are simply replaced.
    """

    def __init__(
        self,
        app: ASGIApp,
        signer: Signer,
        public_origin: str | None = None,
        sessions: SessionKeeper | None = None,
    ) -> None:
        self.app = app
        self.signer = signer
        self.public_origin = public_origin
        self.sessions = sessions
        # rotated (or upgraded) id -> (new id, when, the browser it was moved for)
        self._forwards: dict[str, tuple[str, float, str]] = {}
        self._forwards_lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        arrived = time.monotonic()
        path: str = scope.get("path", "")
        method: str = scope.get("method", "GET")
        is_api = path.startswith("/api/") or path == "/api"
        is_static = path.startswith("/static/") or path in ROOT_FILES
        is_page = not is_api and not is_static
        secure = scope.get("scheme") == "https" or (self.public_origin or "").startswith("https:")
        cookies = _cookies(scope)
        # Over https only the `__Host-` cookie, which only this host could set over https.
        carried = cookies.get(SECURE_SESSION_COOKIE if secure else SESSION_COOKIE, "")
        browser = browser_of(scope)
        session = None
        form_session = None  # whose CSRF token the forms of this request carry, if not ours
        new_session = None  # the id this answer gives the browser
        if is_issued_session(self.signer, carried):
            session = carried
        elif is_page and _OLD_SHAPE.fullmatch(carried) and await self._upgradable(carried, browser):
            session = new_session = await self._upgrade(carried, browser)
            form_session = carried  # (its pages' forms, shown before the upgrade)
            # (None: the store is down; the browser keeps its old cookie for next time)
        elif is_page and method in ("GET", "HEAD"):
            session = new_session = issue_session(self.signer)
        state = scope.setdefault("state", {})
        if session is not None:
            state["session"] = session
            state["csrf"] = csrf_token(self.signer, session)
        stale = secure and SESSION_COOKIE in cookies  # a plain-named one: deleted when replaced
        send = self._with_headers(
            scope, send, path, is_static, new_session, secure, stale, state, arrived, browser
        )
        if method in SAFE_METHODS or is_api:
            await self._run(scope, receive, send, is_api)
            return
        refusal = self._origin_refusal(scope)
        status = 403
        body = b""
        if refusal is None:
            body, too_big = await read_body(receive)
            expected = csrf_token(self.signer, form_session) if form_session else state.get("csrf")
            if too_big:
                refusal, status = N_("the form is too large"), 413
            elif expected is None or not await self._token_ok(scope, body, expected):
                refusal = N_(
                    "this form has expired or did not come from this site; reload the page"
                    " and try again"
                )
        if refusal is not None:
            await self._refuse(scope, send, refusal, status)
            return
        await self._run(scope, replay_body(body, receive), send, is_api)

    async def _run(self, scope: Scope, receive: Receive, send: Send, is_api: bool) -> None:
        """The app; if it fails before it answered, the 500 goes out here, through `send`,
        so that it carries the security headers too (then the error goes on up, to be
        logged: Starlette's own 500 is not sent twice)."""
        started = False

        async def noting(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, noting)
        except Exception:
            if not started:
                if is_api:
                    await _send_json(noting, 500, b'{"detail":"Internal Server Error"}')
                else:
                    await self._refuse(scope, noting, SERVER_ERROR, 500)
            raise

    def _forwarded(self, old: str, browser: str, arrived: float) -> str | None:
        """Where `old` was moved to for this browser no later than FORWARD_SECONDS before
        the request `arrived` (and on, if it moved again since for the same browser); None
        if it was not (or for another browser)."""
        with self._forwards_lock:
            now = time.monotonic()
            self._forwards = {
                k: v for k, v in self._forwards.items() if v[1] > now - FORWARD_KEPT_SECONDS
            }
            first = self._forwards.get(old)
            if first is None or first[2] != browser or arrived > first[1] + FORWARD_SECONDS:
                return None
            target, seen = old, {old}
            while (step := self._forwards.get(target)) and step[2] == browser:
                if step[0] in seen:
                    break
                target = step[0]
                seen.add(target)
            return target

    def _remember_forward(self, old: str, new: str, browser: str) -> None:
        with self._forwards_lock:
            self._forwards[old] = (new, time.monotonic(), browser)

    async def _upgradable(self, old: str, browser: str) -> bool:
        """Whether an older server's id is upgraded: it still holds something (an id
        nobody was given holds nothing), or this browser's upgrade of it just happened."""
        if self._forwarded(old, browser, time.monotonic()) is not None:
            return True
        keeper = self.sessions
        if keeper is None:
            return False
        try:
            return bool(await run_in_threadpool(keeper.holds_anything, old))
        except FivediceError:
            return False

    async def _upgrade(self, old: str, browser: str) -> str | None:
        """The id an older server's session id becomes, with everything kept under it moved
        there; None if the store cannot do it now."""
        forwarded = self._forwarded(old, browser, time.monotonic())
        if forwarded is not None:
            return forwarded
        new = upgraded_session(self.signer, old)
        keeper = self.sessions
        if keeper is not None:
            try:
                await run_in_threadpool(keeper.move_all, old, new)
            except FivediceError:
                return None
        self._remember_forward(old, new, browser)
        return new

    async def _rotate(self, old: str, arrived: float, browser: str) -> str | None:
        """A new id for session `old`, which a seat was just granted to, with everything
        kept under `old` moved to it; None (the old id stays) if the store cannot do it now.

        A grant of the same `browser` that `arrived` (time.monotonic()) no later than
        FORWARD_SECONDS after the last rotation of `old` (another request the browser sent
        before it had the new id) reuses that new id (or the id it rotated to since). Any
        other gets a new id of its own: whoever else holds `old` is not the browser that
        got the new one.
        """
        with self._forwards_lock:
            earlier = self._forwards.get(old)
        target = self._forwarded(old, browser, arrived)
        forwarded = target is not None
        if target is None:
            target = issue_session(self.signer)
            self._remember_forward(old, target, browser)
        if self.sessions is not None:
            try:
                await run_in_threadpool(self.sessions.move_all, old, target)
            except FivediceError:
                if not forwarded:
                    with self._forwards_lock:
                        if earlier is None:
                            self._forwards.pop(old, None)
                        else:
                            self._forwards[old] = earlier
                return None
        return target

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
            request = Request(scope, replay_body(body, _no_more))
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
        stale: bool,
        state: dict[str, Any],
        arrived: float,
        browser: str,
    ) -> Send:
        policy = DOCS_POLICY if path in DOCS_PATHS else PAGE_POLICY
        host_origin = _request_origin(scope)

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                given = new_session
                session = state.get("session")
                if scope.get(ROTATE_SESSION_KEY) and isinstance(session, str):
                    given = await self._rotate(session, arrived, browser) or given
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
                if given is not None:
                    headers.append((b"set-cookie", _session_cookie(given, secure)))
                    if stale:  # the plain-named cookie of an older server, over https
                        headers.append((b"set-cookie", _expired_cookie(SESSION_COOKIE, secure)))
                if state.get("drop_legacy_seats"):
                    headers.append((b"set-cookie", _expired_cookie("fd_seats", secure)))
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
    """The session cookie: over https `__Host-` named and Secure (no Domain, Path=/)."""
    name = SECURE_SESSION_COOKIE if secure else SESSION_COOKIE
    text = f"{name}={session}; Max-Age={SESSION_AGE}; Path=/; HttpOnly; SameSite=Lax"
    return (text + ("; Secure" if secure else "")).encode()


def _expired_cookie(name: str, secure: bool) -> bytes:
    text = f"{name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax"
    return (text + ("; Secure" if secure else "")).encode()


async def read_body(receive: Receive, most: int = MAX_FORM_BYTES) -> tuple[bytes, bool]:
    """The whole request body, unless it is larger than `most` bytes: then no more of it is
    read and the answer is (b"", True)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), False
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > most:
            return b"", True
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks), False


def replay_body(body: bytes, receive: Receive) -> Receive:
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
SERVER_ERROR = N_("Something went wrong on the server; try again in a moment.")


async def _send_json(send: Send, status: int, body: bytes) -> None:
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def rotate_session(scope: MutableMapping[str, Any]) -> None:
    """Asks the guard to give this browser a new session id with its answer (a seat was granted)."""
    scope[ROTATE_SESSION_KEY] = True

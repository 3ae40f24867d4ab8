"""A server's log: one JSON object a line (or plain text), each with its request and game.

`configure_logging("json" | "text")` sets up the root logger of a process (`fivedice serve`
and each of its workers: `$FIVEDICE_LOG_FORMAT`); uvicorn's own loggers pass through it too.
A JSON line holds:

- ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``, ``event`` (the message),
  ``worker`` (the pid);
- ``request_id`` and ``game`` (the store's number of the game, never its public id) while a
  request is served (`REQUEST_ID`, `GAME`: context variables the `Observe` middleware sets,
  so every line logged on the request's behalf carries them, threads included);
- for the access line of each request (logger ``fivedice.access``): ``method``, ``route``
  (the route's template: no ids, no query string), ``status``, ``duration_ms``;
- ``error`` (the exception's type and message) and ``traceback`` (one JSON string: the
  line stays one line) when an exception is logged.

Why a formatter of our own rather than python-json-logger: twenty lines of stdlib do it,
the fields are exactly these, and nothing is added to every worker's imports. What is
never logged: tokens, session ids, seeds, query strings, request bodies (the access line is
built from the route template and the status alone).
"""

from __future__ import annotations

import logging
import os
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, Literal

import orjson

LOG_FORMAT_ENV = "FIVEDICE_LOG_FORMAT"
ACCESS_LOG_ENV = "FIVEDICE_ACCESS_LOG"  # "0": no access lines (`fivedice serve --no-access-log`)
LogFormat = Literal["json", "text"]
LOG_FORMATS: tuple[LogFormat, ...] = ("json", "text")

REQUEST_ID: ContextVar[str | None] = ContextVar("fivedice_request_id", default=None)
GAME: ContextVar[int | None] = ContextVar("fivedice_game", default=None)

ACCESS_LOGGER = "fivedice.access"
ACCESS_FIELDS = ("method", "route", "status", "duration_ms")
_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message"}


class JsonFormatter(logging.Formatter):
    """One JSON object per record (see the module docstring).

    >>> record = logging.LogRecord("fivedice", logging.INFO, "", 0, "hello %s", ("you",), None)
    >>> orjson.loads(JsonFormatter().format(record))["event"]
    'hello you'
    """

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
            "worker": record.process or os.getpid(),
        }
        request_id, game = REQUEST_ID.get(), GAME.get()
        if request_id is not None:
            line["request_id"] = request_id
        if game is not None:
            line["game"] = game
        for name, value in record.__dict__.items():
            if name not in _STANDARD and not name.startswith("_"):
                line[name] = value  # (fields given with `extra=`)
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            line["error"] = f"{type(error).__name__}: {error}"
            line["traceback"] = self.formatException(record.exc_info)  # (one JSON string)
        # orjson: 5-10x faster than json.dumps, for a line every request writes.
        return orjson.dumps(line, default=str).decode()


class TextFormatter(logging.Formatter):
    """A readable line: time, level, worker, request, game, event and the extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        when = datetime.fromtimestamp(record.created, UTC).strftime("%H:%M:%S")
        parts = [when, record.levelname, f"[{record.process or os.getpid()}]"]
        request_id, game = REQUEST_ID.get(), GAME.get()
        if request_id is not None:
            parts.append(f"req={request_id}")
        if game is not None:
            parts.append(f"game={game}")
        parts.append(record.getMessage())
        parts += [
            f"{name}={value}"
            for name, value in record.__dict__.items()
            if name not in _STANDARD and not name.startswith("_")
        ]
        text = " ".join(str(part) for part in parts)
        if record.exc_info and record.exc_info[1] is not None:
            text += "\n" + self.formatException(record.exc_info)
        return text


def access_log_from_environment() -> bool:
    """`$FIVEDICE_ACCESS_LOG` (anything but "0": on)."""
    return os.environ.get(ACCESS_LOG_ENV, "1").strip() != "0"


def log_format_from_environment() -> LogFormat:
    """`$FIVEDICE_LOG_FORMAT` (json or text; default json)."""
    value = os.environ.get(LOG_FORMAT_ENV, "json").strip().lower()
    return "text" if value == "text" else "json"


def configure_logging(
    log_format: LogFormat, level: int = logging.INFO, *, access_log: bool = True
) -> None:
    """One handler on the root logger, to stderr, in `log_format`; uvicorn's loggers
    propagate to it (their own handlers are removed). Without `access_log` the access
    lines are left out (a busy server behind a balancer that logs requests already)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        uvicorn_logger = logging.getLogger(name)
        uvicorn_logger.handlers.clear()
        uvicorn_logger.propagate = True
    logging.getLogger(ACCESS_LOGGER).setLevel(logging.NOTSET if access_log else logging.WARNING)
    # Alembic tells of every migration context it sets up (each worker, at start): noise.
    logging.getLogger("alembic").setLevel(logging.WARNING)
    # (uvicorn's access log stays off: ours names the route template, not the raw path.)
    logging.getLogger("uvicorn.access").disabled = True

"""What one client may send: bodies bounded before parsing, deep JSON a 422, event streams per
address capped, validation errors that never echo the input (web/limits.py)."""

from __future__ import annotations

import asyncio
import json

import pytest

from fivedice.web.limits import (
    ERRORS_SHOWN,
    EdgeLimits,
    RequestLimits,
    default_max_connections,
    json_depth_exceeds,
    quiet_errors,
)
from tests.web.support import new_game

MARKER = "Zq7-unique-marker-never-echoed"
DEEP = 3000


def deep_json(depth: int = DEEP) -> bytes:
    return b'{"version": 0, "action": ' + b"[" * depth + b"]" * depth + b"}"


def test_a_body_of_20_mb_is_refused_with_a_small_413_and_creates_nothing(client, service):
    before = len(service.store.list_games())
    body = b'{"players": [{"name": "' + b"x" * (20 * 1024 * 1024) + b'"}]}'
    answer = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 413
    assert len(answer.content) < 200 and "too large" in answer.json()["detail"]
    assert len(service.store.list_games()) == before


def test_a_chunked_body_over_the_limit_is_refused_while_it_arrives(client, service):
    sent = []

    def chunks():
        for _ in range(100):  # 100 × 8 kB: far over 64 kB, with no Content-Length
            sent.append(1)
            yield b"[" + b"1," * 4096 + b"1]"

    answer = client.post(
        "/api/games", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert "content-length" not in answer.request.headers
    assert answer.status_code == 413
    assert service.store.list_games() == []


def test_a_body_within_the_limit_still_reaches_the_route(client):
    data, _headers = new_game(client)
    assert data["id"]


def test_a_page_form_over_the_limit_is_refused_in_the_visitors_language(client):
    answer = client.post("/games", data={"name0": "x" * 70_000}, headers={"Accept-Language": "nl"})
    assert answer.status_code == 413
    assert len(answer.content) < 200 and "too large" not in answer.text


@pytest.mark.parametrize("route", ["actions", "games", "rooms", "join"])
def test_json_nested_3000_deep_is_a_422_on_every_api_route(client, route):
    data, headers = new_game(client)
    path = {
        "actions": f"/api/games/{data['id']}/actions",
        "games": "/api/games",
        "rooms": "/api/rooms",
        "join": "/api/rooms/ABCDEF/join",
    }[route]
    answer = client.post(
        path, content=deep_json(), headers={**headers[0], "Content-Type": "application/json"}
    )
    assert answer.status_code == 422
    assert "nested" in answer.json()["detail"] and len(answer.content) < 300


def test_the_action_route_refuses_deep_json_itself_if_it_ever_gets_it(app, service):
    """Below the middleware (a larger depth allowed): a 422 still, not a 500."""
    from tests.web.support import TestClient

    limits = next(m for m in app.user_middleware if m.cls is RequestLimits)
    app.user_middleware.remove(limits)
    app.middleware_stack = None  # (rebuilt without the limits)
    with TestClient(app) as raw:
        data, headers = new_game(raw)
        answer = raw.post(
            f"/api/games/{data['id']}/actions",
            content=deep_json(),
            headers={**headers[0], "Content-Type": "application/json"},
        )
    assert answer.status_code == 422 and "too deep" in answer.text


def test_validation_errors_never_echo_what_was_sent(client):
    data, headers = new_game(client)
    bodies = [
        ("/api/games", {"players": [{"name": MARKER * 50}], "seed": MARKER}),
        ("/api/games", {"players": MARKER, MARKER * 3: 1}),
        ("/api/games", {"players": [{"name": "Ann", "level": MARKER}]}),
        (f"/api/games/{data['id']}/actions", {"action": MARKER * 10, "version": MARKER}),
        ("/api/rooms", {"players": [{"name": "Ann", "kind": MARKER}]}),
    ]
    for path, body in bodies:
        answer = client.post(path, json=body, headers=headers[0])
        assert answer.status_code == 422, answer.text
        assert MARKER not in answer.text
        assert len(answer.content) < 2000


def test_a_body_wrong_in_thousands_of_places_lists_a_few():
    errors = [
        {"type": "int_type", "loc": ("body", n), "msg": "bad", "input": n} for n in range(5000)
    ]
    quiet = quiet_errors(errors)
    assert len(quiet) == ERRORS_SHOWN and all("input" not in item for item in quiet)


def test_a_huge_last_event_id_is_neither_read_as_a_version_nor_echoed(client):
    data, _headers = new_game(client)
    answer = client.get(f"/api/games/{data['id']}/events", headers={"Last-Event-ID": "7" * 100_000})
    assert answer.status_code == 422
    assert len(answer.content) < 500 and "7777777777" not in answer.text


def test_json_depth_ignores_brackets_inside_strings():
    assert not json_depth_exceeds(json.dumps({"a": "[" * 100}).encode(), limit=3)
    assert not json_depth_exceeds(json.dumps({"a": '\\"[[[[[[' * 10}).encode(), limit=3)
    assert json_depth_exceeds(deep_json(40), limit=32)
    assert not json_depth_exceeds(deep_json(30), limit=32)


def test_the_connection_cap_leaves_room_below_the_file_limit():
    assert default_max_connections(1024) == 896
    assert default_max_connections(100_000) < 100_000
    assert default_max_connections(40) >= 16


def test_limits_come_from_the_environment_and_refuse_nonsense():
    limits = EdgeLimits.from_environment(
        {"FIVEDICE_HEADER_TIMEOUT": "2.5", "FIVEDICE_STREAMS_PER_CLIENT": "3"}
    )
    assert limits.header_timeout == 2.5 and limits.streams_per_client == 3
    assert EdgeLimits.from_environment(limits.environment()) == limits
    with pytest.raises(ValueError, match="FIVEDICE_BODY_TIMEOUT"):
        EdgeLimits.from_environment({"FIVEDICE_BODY_TIMEOUT": "soon"})
    with pytest.raises(ValueError, match="streams_per_client"):
        EdgeLimits(streams_per_client=0)


async def _call(app, scope):
    """Runs an ASGI app on a bodiless request; (status, headers) of its answer."""
    sent = []

    async def receive():
        await asyncio.sleep(3600)  # (a stream waits for the client to leave)

    async def send(message):
        sent.append(message)

    task = asyncio.create_task(app(scope, receive, send))
    await asyncio.sleep(0.01)
    return task, sent


def test_event_streams_per_client_address_are_capped_with_a_429():
    async def stream(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await receive()

    limits = RequestLimits(stream, EdgeLimits(streams_per_client=2, retry_after=7))

    def scope(address):
        return {
            "type": "http",
            "method": "GET",
            "path": "/api/games/abc/events",
            "headers": [],
            "client": (address, 1234),
        }

    async def run():
        calls = [await _call(limits, scope("10.0.0.1")) for _ in range(3)]
        other = await _call(limits, scope("10.0.0.2"))
        statuses = [sent[0]["status"] for _task, sent in (*calls, other)]
        refused = calls[2][1][0]
        calls[0][0].cancel()  # one stream ends: its place is free again
        await asyncio.sleep(0.01)
        again = await _call(limits, scope("10.0.0.1"))
        for task, _sent in (*calls, other, again):
            task.cancel()
        return statuses, refused, again[1][0]["status"]

    statuses, refused, again = asyncio.run(run())
    assert statuses == [200, 200, 429, 200]
    assert (b"retry-after", b"7") in refused["headers"]
    assert again == 200

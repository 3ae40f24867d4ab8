"""The API and the new-game form refuse names that pass for another, in the visitor's
language, and keep the names of every writing system."""

from __future__ import annotations

from tests.web.support import FORM


def test_the_api_refuses_a_mixed_script_name_and_a_lookalike_seat(client):
    mixed = client.post("/api/games", json={"players": [{"name": "P\u0430ul"}]})  # Cyrillic а
    assert mixed.status_code == 422 and "one script" in mixed.text
    alike = client.post(
        "/api/games", json={"players": [{"name": "Ann"}, {"name": "\u0391\u039d\u039d"}]}
    )
    assert alike.status_code == 422 and "looks like" in alike.text
    kept = client.post(
        "/api/games", json={"players": [{"name": "山田たろう"}, {"name": "Zoë 👩\u200d💻"}]}
    )
    assert kept.status_code == 201, kept.text
    assert [p["name"] for p in kept.json()["players"]] == ["山田たろう", "Zoë 👩\u200d💻"]


def test_the_form_says_why_in_the_visitors_language(client):
    page = client.post(
        "/games", data={**FORM, "name0": "B\u0435a"}, headers={"Accept-Language": "de"}
    )
    assert page.status_code == 422 and "einer Schrift" in page.text

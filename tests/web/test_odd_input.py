"""Odd input on the web: ids and form fields of digits `int()` does not take, and names with
control characters, are refused clearly (404 or 422), never a 500."""

from __future__ import annotations

import pytest

UNICODE_DIGITS = ["\u00b2", "\u0663", "\u00b2\u00b3"]  # str.isdigit() says yes, int() says no


@pytest.mark.parametrize("number", UNICODE_DIGITS)
def test_an_id_of_unicode_digits_is_unknown_not_a_traceback(client, number):
    """A public id whose number part is a
    superscript or another script's digit was passed to int() and answered 500."""
    for path in (
        f"/g/{number}-0000",
        f"/g/{number}-0000/review",
        f"/g/{number}-0000/sheet",
        f"/t/{number}-0000",
        f"/api/games/{number}-0000",
    ):
        response = client.get(path)
        assert response.status_code == 404, (path, response.status_code)


@pytest.mark.parametrize("number", UNICODE_DIGITS)
def test_odd_digits_in_the_sheet_and_table_forms_are_refused(client, app, number):
    """`/sheet?columns=²` and a table game's `first=²` were 500s; now a clear refusal."""
    assert client.get("/sheet", params={"columns": number}).status_code == 422
    assert client.get("/sheet.pdf", params={"columns": number}).status_code == 422
    made = client.post(
        "/table",
        data={"name0": "Ann", "name1": "Bob", "preset": "classic", "first": number},
        follow_redirects=False,
    )
    assert made.status_code == 422
    assert app.state.hub.service.store.list_games() == []


def test_sheet_page_names_follow_the_one_rule_for_names(client):
    """On /sheet, a name with an escape or a line break is refused (422)."""
    for names in ("Ann,a\x1b[31mb", "a\nb", "\u202eevil"):
        assert client.get("/sheet", params={"players": names}).status_code == 422
        assert client.get("/sheet.pdf", params={"players": names}).status_code == 422

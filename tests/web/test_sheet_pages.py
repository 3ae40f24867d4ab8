"""The score sheet pages: the form with its print-ready sheet, the PDF downloads, refusals."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.web.support import new_game


def read_pdf(data: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def test_the_page_shows_the_form_and_the_sheet(client):
    response = client.get("/sheet", params={"players": "Ann, Bob", "preset": "classic-five"})
    assert response.status_code == 200
    html = response.text
    assert 'action="/sheet"' in html and 'formaction="/sheet.pdf"' in html
    assert html.count('class="sheet-page') == 1
    assert ">Ann<" in html and ">Bob<" in html
    assert "Exactly 1-2-3-4-5: score 30" in html  # classic-five's fixed straights
    assert 'data-key="yahtzee_bonus"' not in html  # classic-five pays no extra-Yahtzee bonus
    assert "print-a4-portrait" in html


def test_more_than_six_columns_print_on_several_pages(client):
    html = client.get("/sheet", params={"columns": "8", "paper": "letter"}).text
    assert html.count('class="sheet-page print-letter-portrait"') == 2
    assert "Game 8" in html


def test_the_page_speaks_the_visitors_language(client):
    html = client.get("/sheet", headers={"accept-language": "de"}).text
    assert "Spielblock" in html and "Gesamtsumme" in html
    dutch_sheet = client.get("/sheet", params={"lang": "nl"}, headers={"accept-language": "de"})
    assert "Eindtotaal" in dutch_sheet.text  # the sheet in Dutch, the page around it German
    assert "Sprache des Spielblocks" in dutch_sheet.text


def test_the_pdf_download(client):
    response = client.get(
        "/sheet.pdf",
        params={"players": "Ann,Bob", "preset": "triple", "paper": "letter", "lang": "nl"},
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/pdf"
    assert response.headers["content-disposition"] == 'attachment; filename="fivedice-sheet.pdf"'
    pages, text = read_pdf(response.content)
    assert pages == 1
    assert "Ann" in text and "Bob" in text and "Eindtotaal" in text and "×3" in text


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"paper": "a3"}, "the paper is a4 or letter, not &#39;a3&#39;"),
        ({"columns": "many"}, "a whole number from 1 to 60"),
        ({"columns": "61"}, "1 to 60 columns, not 61"),
        ({"preset": "nope"}, "no rule preset is called"),
        ({"opt_joker": "maybe"}, "Joker must be one of"),
        ({"players": "A,B,C", "columns": "2"}, "3 players need at least 3 columns"),
    ],
)
@pytest.mark.parametrize("path", ["/sheet", "/sheet.pdf"])
def test_bad_input_is_refused_with_the_form_and_the_reason(client, path, params, words):
    response = client.get(path, params=params)
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("text/html")
    assert words in response.text
    assert 'class="sheet-page' not in response.text
    assert 'action="/sheet"' in response.text  # the form again, to correct


def test_a_saved_games_sheet(client):
    data, headers = new_game(client, match_length=2)
    game = data
    for _turn in range(4):
        game = client.post(
            f"/api/games/{data['id']}/actions",
            json={"action": "roll", "version": game["version"]},
            headers=headers[game["current_seat"]],
        ).json()
        box = game["placements"][0]["box"]
        game = client.post(
            f"/api/games/{data['id']}/actions",
            json={"action": f"score {box}", "version": game["version"]},
            headers=headers[game["current_seat"]],
        ).json()
    totals = [player["total"] for player in game["players"]]
    page = client.get(f"/g/{data['id']}/sheet")
    assert page.status_code == 200
    assert f'href="/g/{data["id"]}"' in page.text  # back to the game
    assert "Game 2" in page.text
    pdf = client.get(f"/g/{data['id']}/sheet.pdf", params={"paper": "letter"})
    assert pdf.status_code == 200
    assert pdf.headers["content-type"] == "application/pdf"
    number = data["id"].split("-")[0]
    assert pdf.headers["content-disposition"] == (
        f'attachment; filename="fivedice-game-{number}.pdf"'
    )
    pages, text = read_pdf(pdf.content)
    assert pages == 1
    assert f"Match totals: Ann {totals[0]}, Bob {totals[1]}" in text
    # The game page links to its sheet.
    assert f'href="/g/{data["id"]}/sheet"' in client.get(f"/g/{data['id']}").text


def test_a_saved_games_sheet_refuses_bad_ids_and_paper(client):
    assert client.get("/g/1-forged/sheet.pdf").status_code == 404
    assert client.get("/g/1-forged/sheet").status_code == 404
    data, _headers = new_game(client)
    refused = client.get(f"/g/{data['id']}/sheet.pdf", params={"paper": "a5"})
    assert refused.status_code == 422
    assert "a4 or letter" in refused.text

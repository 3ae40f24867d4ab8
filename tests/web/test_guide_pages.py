"""The strategy guide pages: the guide ready to print in any language, its PDF, refusals."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader


def test_the_page_shows_the_guide_in_the_visitors_language(client):
    english = client.get("/guide")
    assert english.status_code == 200
    assert "<h1>Strategy guide</h1>" in english.text
    assert 'class="guide-rules"' in english.text and "points a game" in english.text
    assert 'formaction="/guide.pdf"' in english.text
    german = client.get("/guide", headers={"accept-language": "de"})
    assert "Strategieleitfaden" in german.text and "Was du behältst" in german.text


def test_the_guide_in_another_language_than_the_page(client):
    html = client.get("/guide", params={"lang": "ja"}, headers={"accept-language": "fr"}).text
    assert "戦略ガイド" in html and '<article class="guide" lang="ja">' in html
    assert "Langue du guide" in html  # the form around it stays French


def test_the_menu_links_to_the_guide(client):
    assert '<a href="/guide">Strategy guide</a>' in client.get("/").text


@pytest.mark.slow
def test_the_pdf_download(client):
    response = client.get("/guide.pdf", params={"lang": "es", "paper": "letter"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/pdf"
    assert 'filename="fivedice-guide-es.pdf"' in response.headers["content-disposition"]
    reader = PdfReader(io.BytesIO(response.content))
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "Guía de estrategia" in text and "Qué guardar" in text


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"rules": "yatzy"}, "a strategy guide exists for classic, not &#39;yatzy&#39;"),
        ({"paper": "a3"}, "the paper is a4 or letter, not &#39;a3&#39;"),
    ],
)
@pytest.mark.parametrize("path", ["/guide", "/guide.pdf"])
def test_bad_choices_are_refused_with_the_reason(client, params, words, path):
    response = client.get(path, params=params)
    assert response.status_code == 422
    assert words in response.text
    assert "Traceback" not in response.text

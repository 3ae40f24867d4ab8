"""A Japanese player meets no English on the pages (issue 13): every main page, a whole game
played through the page forms, and the finished game's review and verify pages are read as a
browser shows them (visible text, titles, labels, placeholders and button values)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from fivedice.web.pages import LANG_COOKIE
from tests.web.test_pages import start, version_of

ALLOWED = {
    # What the player types or reads as a name: the app's name, the CPU seats, the dice
    # notation of the rules, and the hash names of the fair-dice check.
    "fivedice",
    "CPU",
    "SHA",
    "HMAC",
    "Ann",
    "PDF",
}
"""The only ASCII words a Japanese page may show (kept small on purpose)."""

WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


class VisibleText(HTMLParser):
    """The text a reader meets: element text outside <script>/<style> and outside elements
    marked as another language (the language switcher's own names), and the attributes shown
    or read aloud (title, alt, aria-label, placeholder, a button's value)."""

    SHOWN = ("title", "alt", "aria-label", "placeholder")
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
            "track", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.open: list[tuple[str, bool]] = []  # each open element, and whether it is hidden

    def hidden(self) -> bool:
        return any(hidden for _tag, hidden in self.open)

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        lang = values.get("lang")
        hidden = tag in ("script", "style", "template") or (lang is not None and lang != "ja")
        if tag not in self.VOID:
            self.open.append((tag, hidden))
        if hidden or self.hidden():
            return
        for name in self.SHOWN:
            if values.get(name):
                self.parts.append(values[name])
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.parts.append(values["value"])

    def handle_endtag(self, tag):
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index][0] == tag:
                del self.open[index:]
                break

    def handle_data(self, data):
        if not self.hidden():
            self.parts.append(data)


def english_words(page: str) -> list[str]:
    """The ASCII words of a page's visible text that are not on the allow-list."""
    reader = VisibleText()
    reader.feed(page)
    return sorted({w for part in reader.parts for w in WORD.findall(part) if w not in ALLOWED})


def assert_japanese(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    assert re.search(r"[\u3040-\u30ff]", response.text), url  # kana: the page is Japanese
    assert english_words(response.text) == [], url
    return response.text


def test_the_main_pages_show_no_english(client):
    client.cookies.set(LANG_COOKIE, "ja")
    for url in ("/", "/rules", "/rules?preset=triple", "/stats", "/highscores", "/resume",
                "/join", "/sheet", "/table", "/tutorial"):
        assert_japanese(client, url)

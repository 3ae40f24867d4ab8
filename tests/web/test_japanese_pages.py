"""A Japanese player meets no English on the pages: every main page, a whole game
played through the page forms, and the finished game's review and verify pages are read as a
browser shows them (visible text, titles, labels, placeholders and button values)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from fivedice.web.guard import LANG_COOKIE
from tests.web.support import FORM, start, version_of

ALLOWED = {
    # The app's and the CPU seats' names, file formats and names, the fair-dice hash, keys.
    "fivedice",
    "CPU",
    "PDF",
    "A4",
    "SHA-256",
    "README",
    "R",  # the keys of the game page: R rolls, H shows the hint
    "H",
}
"""The only ASCII words a Japanese page may show (kept small on purpose)."""

WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’-]*")


class VisibleText(HTMLParser):
    """The text a reader meets: element text outside <script>/<style> and outside elements
    marked as another language (the language switcher's own names), and the attributes shown
    or read aloud (title, alt, aria-label, placeholder, a button's value)."""

    SHOWN = ("title", "alt", "aria-label", "placeholder")
    VOID = frozenset(
        [
            "area",
            "base",
            "br",
            "col",
            "embed",
            "hr",
            "img",
            "input",
            "link",
            "meta",
            "source",
            "track",
            "wbr",
        ]
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.open: list[tuple[str, bool]] = []  # each open element, and whether it is hidden

    def hidden(self) -> bool:
        return any(hidden for _tag, hidden in self.open)

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        lang = values.get("lang")
        hidden = (
            tag in ("script", "style", "template", "code", "kbd")  # code: what one types
            or (lang is not None and lang != "ja")  # another language's own words
            or "hreflang" in values  # the language switcher's codes
        )
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


def english_words(page: str, typed: frozenset[str] = frozenset()) -> list[str]:
    """The ASCII words of a page's visible text that are not on the allow-list (nor `typed`:
    what this page's player typed or is to type, such as a room code)."""
    reader = VisibleText()
    reader.feed(page)
    words = {w for part in reader.parts for w in WORD.findall(part)}
    # A typed token may start with a digit ("8KUUUW"), which WORD leaves out of the word.
    return sorted(w for w in words if w not in ALLOWED and not any(w in t for t in typed))


def assert_japanese(client, url: str, typed: frozenset[str] = frozenset()) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    assert re.search(r"[\u3040-\u30ff]", response.text), url  # kana: the page is Japanese
    assert english_words(response.text, typed) == [], url
    return response.text


def test_the_main_pages_show_no_english(client):
    client.cookies.set(LANG_COOKIE, "ja")
    for url in (
        "/",
        "/rules",
        "/rules?preset=triple",
        "/stats",
        "/highscores",
        "/resume",
        "/join",
        "/sheet",
        "/table",
        "/tutorial",
    ):
        assert_japanese(client, url)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_a_whole_game_in_japanese_shows_no_english(client, app, service):
    """New game, hint, coach, chances, refused moves, zero confirmations, every CPU turn, the
    end of the game, and its review, rules, sheet and verify pages."""
    client.cookies.set(LANG_COOKIE, "ja")
    location = start(client, name0="太郎", name1="", seed="")
    game_id = app.state.hub.game_id(location.rsplit("/", 1)[1])
    assert_japanese(client, location)
    client.post(location + "/coach")
    client.post(location + "/chances")
    view = service.load(game_id)
    while not view.is_over:
        if view.is_cpu_turn:
            _action, view = service.cpu_step(game_id, view.version)
            assert_japanese(client, location)
            continue
        client.post(location + "/act", data={"action": "roll", "version": view.version})
        page = assert_japanese(client, location + "?hint=1")
        # A stale page's move is refused, in Japanese.
        stale = client.post(location + "/act", data={"action": "roll", "version": 0})
        assert english_words(stale.text) == []
        view = service.load(game_id)
        worst = min(view.state.placements(), key=lambda p: p.points)
        action = {"action": f"score {worst.category.key}", "version": view.version}
        asked = client.post(location + "/act", data=action)
        assert english_words(asked.text) == []
        if service.load(game_id).version == view.version:  # a 0 is confirmed first
            assert "0" in asked.text
            client.post(location + "/act", data={**action, "confirm_zero": "1"})
        view = service.load(game_id)
        assert view.version > version_of(page)
    assert_japanese(client, location)
    for page in ("/review", "/rules", "/sheet", "/verify"):
        assert_japanese(client, location + page)
    stats = assert_japanese(client, "/stats")  # the finished game counts, under its preset's name
    assert "クラシック" in stats and "太郎" in stats
    assert_japanese(client, "/resume")


def test_refusals_and_unknown_pages_are_japanese(client):
    client.cookies.set(LANG_COOKIE, "ja")
    for url in ("/no-such-page", "/g/1-nothing", "/r/222222"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert english_words(response.text) == [], url
    refused = client.post("/games", data={**FORM, "seed": "たくさん"})
    assert refused.status_code == 422 and english_words(refused.text) == []
    malformed = client.post("/g/1-nothing/act", data={"action": "roll", "version": "二"})
    assert malformed.status_code in (404, 422) and english_words(malformed.text) == []
    # The API keeps its JSON for programs.
    assert client.get("/api/games/999999").headers["content-type"].startswith("application/json")


def test_the_table_tutorial_and_room_pages_show_no_english(client, app):
    from fivedice.service.tutorial import LESSONS
    from tests.web.support import ORIGIN, ROOM_FORM, PageClient, post_at_table, start_table

    client.cookies.set(LANG_COOKIE, "ja")
    # At the table: the entry form, the boxes for the dice, a refusal, a score.
    location = start_table(client, "太郎", "花子")
    assert_japanese(client, location)
    page = post_at_table(client, f"{location}/dice", dice="3 3 3 5 5")
    assert english_words(page.text) == []
    refused = post_at_table(client, f"{location}/score", box="full_house", points="30")
    assert refused.status_code == 409 and english_words(refused.text) == []
    assert english_words(post_at_table(client, f"{location}/score", box="full_house").text) == []
    # Every lesson of the tutorial, and a roll in the first.
    for lesson in LESSONS:
        assert_japanese(client, f"/tutorial/{lesson.key}")
    rolled = client.post(f"/tutorial/{LESSONS[0].key}/act", data={"action": "roll"})
    assert english_words(rolled.text) == []
    # A room: the host's waiting room, and a friend's invitation and join form.
    response = client.post(
        "/games", data={**ROOM_FORM, "name0": "太郎", "name1": "花子"}, follow_redirects=False
    )
    room = response.headers["location"]
    code = frozenset([room.removeprefix("/r/")])  # the room code, typed by friends who join
    page = assert_japanese(client, room, code)
    invite = re.findall(r'data-invite value="([^"]+)"', page)[0].replace("&amp;", "&")
    with PageClient(app, headers={"Origin": ORIGIN}) as friend:
        friend.cookies.set(LANG_COOKIE, "ja")
        assert_japanese(friend, invite, code)
        wrong = friend.post("/join", data={"code": "222222", "name": "花子"})
        assert wrong.status_code == 404 and english_words(wrong.text) == []

"""The winning-chances bar on the game page: shown by default, switched off and on per browser."""

from __future__ import annotations

import re

from fivedice.core.rules import find_ruleset
from fivedice.strategy.moments import moments_of
from tests.web.support import start


def figures(html: str) -> list[int]:
    """The percentages written under the bar."""
    return [int(p) for p in re.findall(r": (\d+)%</span>", html)]


def test_the_bar_shows_each_seats_chance_and_can_be_switched_off(client):
    moments_of(find_ruleset("classic"))  # the page does not wait for the tables: have them
    page = start(client, level1="master")
    html = client.get(page).text
    assert 'id="chances"' in html
    assert 'class="chance-bar"' in html
    percents = figures(html)
    assert percents == [50, 50]  # nobody has rolled: the seats are even
    widths = [
        float(w)
        for w in re.findall(r'<rect class="chance-\d" x="[\d.]+" y="0" width="([\d.]+)"', html)
    ]
    assert abs(sum(widths) - 100) < 1e-6
    pid = page.rsplit("/", 1)[1]

    off = client.post(f"/g/{pid}/chances", follow_redirects=True)
    assert off.status_code == 200
    assert 'class="chance-bar"' not in off.text
    assert 'aria-pressed="false"' in off.text and "Chances: off" in off.text
    assert 'class="chance-bar"' not in client.get(page).text  # the browser remembers

    on = client.post(f"/g/{pid}/chances", follow_redirects=True)
    assert 'class="chance-bar"' in on.text and "Chances: on" in on.text


def test_a_solo_game_has_no_bar(client):
    page = start(client, kind1="none")
    assert 'id="chances"' not in client.get(page).text


def test_master_is_offered_on_the_new_game_page(client):
    assert re.search(r'<option value="master"[^>]*>', client.get("/").text)


def test_the_bars_label_is_punctuated_as_each_language_writes_it(client):
    """The label's colon comes from the catalog: "勝率：" in Japanese, "Chances to win:" in
    English (not an ASCII colon after Japanese)."""
    from fivedice.web.guard import LANG_COOKIE

    moments_of(find_ruleset("classic"))
    page = start(client, level1="master")
    label = re.compile(r'<span class="label">([^<]*)</span>')
    assert label.search(client.get(page).text).group(1).strip() == "Chances to win:"
    client.cookies.set(LANG_COOKIE, "ja")
    shown = label.search(client.get(page).text).group(1).strip()
    assert shown.endswith("：") and ":" not in shown


def test_switching_the_coach_keeps_the_bar_switched_off(client):
    """The board a script fetches after the coach is switched keeps every other preference:
    a bar switched off stays off."""
    from fivedice.web.routers.pages import FRAGMENT_HEADER

    moments_of(find_ruleset("classic"))
    page = start(client, level1="master")
    pid = page.rsplit("/", 1)[1]
    client.post(f"/g/{pid}/chances", follow_redirects=True)  # the bar off
    board = client.post(f"/g/{pid}/coach", headers={FRAGMENT_HEADER: "1"})
    assert board.status_code == 200
    assert 'class="chance-bar"' not in board.text
    assert "Chances: off" in board.text

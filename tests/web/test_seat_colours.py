"""One colour per seat: the palette is one list, read by the chances bar's stylesheet and by
the review charts; charts keep their text readable on a phone."""

from __future__ import annotations

import base64
import re

from fivedice.web.palette import SEAT_COLORS, contrast, seat_color
from tests.web.support import finish, start

PAPER = "#fbfaf6"  # app.css --paper
MOVER = "#fff3d4"  # app.css: the head of the seat whose turn it is


def test_every_seat_colour_is_readable_as_text_on_the_page_and_on_white():
    assert len(set(SEAT_COLORS)) == len(SEAT_COLORS) == 8
    for color in SEAT_COLORS:
        for background in (PAPER, "#ffffff", MOVER):
            assert contrast(color, background) >= 4.5, (color, background)


def test_no_stylesheet_keeps_a_seat_palette_of_its_own():
    from fivedice.web.routers.alive import STATIC_DIR

    for sheet in STATIC_DIR.glob("*.css"):
        assert not re.search(r"\.chance-\d\s*\{[^}]*#", sheet.read_text()), sheet.name


def charts_of(page: str) -> list[str]:
    found = re.findall(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', page)
    return [base64.b64decode(encoded).decode() for encoded in found]


def test_each_review_chart_draws_every_seat_in_its_own_colour(client, app, service):
    location = start(client)  # Ann against a CPU
    public_id = location.rsplit("/", 1)[-1]
    game_id = app.state.hub.game_id(public_id)
    finish(service, game_id)
    charts = charts_of(client.get(f"/g/{public_id}/review").text)
    assert len(charts) == 2
    for svg in charts:
        assert f"stroke: {seat_color(0)}" in svg and f"stroke: {seat_color(1)}" in svg


def test_a_seats_own_chart_draws_its_expected_score_in_its_colour():
    from fivedice.web.review_chart import chart_svg

    svg = chart_svg([0, 1, 2], [250.0, 240.0, 245.0], [0, 20, 45], ("E", "S", "T"),
                    seats=(3,)).decode()  # fmt: skip
    assert f"stroke: {seat_color(3)}" in svg and f"stroke: {seat_color(0)}" not in svg


def test_chart_text_is_at_least_12_css_pixels_on_a_phone():
    from fivedice.web.review_chart import NARROWEST_DISPLAY_PX, chart_size, text_points

    assert NARROWEST_DISPLAY_PX <= 360 - 2 * 12  # a 360-pixel phone, the page's margins off
    for with_chances in (False, True):
        width_points = chart_size(with_chances)[0] * 72  # matplotlib's SVG: 72 points an inch
        shown = text_points() * NARROWEST_DISPLAY_PX / width_points
        assert shown >= 11.9
        assert text_points() * 560 / width_points <= 22  # and not shouting on a desktop

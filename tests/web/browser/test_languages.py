"""The main pages in Japanese (and French, Spanish) in a real browser, on a phone and a desktop.

Each page is checked as a player would meet it: the page says its language (`<html lang>`),
nothing runs off the side (no horizontal scrolling, the score card inside its box), the
Japanese texts are there, and the fonts asked for include a Japanese one (Debian's
fonts-noto-cjk, installed by scripts/system-deps.sh, draws them in the screenshots).
Screenshots go to `test-artifacts/` (git-ignored), named `lang-<language>-<width>-<page>.png`,
for a person to look at.
"""

from __future__ import annotations

import pytest

from fivedice.core.categories import CATEGORIES
from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import RuleSet
from fivedice.i18n import set_language
from fivedice.i18n.formats import number
from fivedice.web.wording import gettext_for
from fivedice.wording.text import box_name, describe_rules
from tests.web.browser.support import ARTIFACTS, start_game, version, wait_for_turn, wait_moved

pytestmark = pytest.mark.slow

CJK_FONT = "Noto Sans CJK JP"


def words(language: str) -> dict[str, object]:
    """What the pages must say in `language`, from the catalogs (never typed twice)."""
    _ = gettext_for(language)
    try:
        set_language(language)
        boxes = [box_name(category) for category in CATEGORIES]
        rules = describe_rules(RuleSet())[0]
    finally:
        set_language("en")
    return {
        "new_game": _("New game"),
        "statistics": _("Statistics"),
        "boxes": boxes,
        "rules": rules,
        "classic": _("Classic"),
    }


def finish_a_solo_game(app, name: str) -> float:
    """A finished (non-practice) game of `name` in the server's database, for the
    statistics page: scores the first allowed box every turn. Returns the final total."""
    service = app.state.hub.service
    view = service.create_game(GameSettings(seats=(Seat(name),)))
    while not view.is_over:
        state = view.state
        first = state.placements()[0].category.key if state.dice is not None else ""
        action = f"score {first}" if first else "roll"
        view = service.apply_action(view.game_id, action, view.version)
    return float(view.state.match_totals[0])


def check_page(page, language: str, width: int, name: str) -> None:
    """The checks every page passes, and its screenshot."""
    page.wait_for_load_state("networkidle")
    assert page.locator("html").get_attribute("lang") == language
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= width, f"{name}: the page is {scroll} px wide in a {width} px window"
    if language == "ja":
        family = page.evaluate("() => getComputedStyle(document.body).fontFamily")
        assert CJK_FONT in family, family
    page.screenshot(path=str(ARTIFACTS / f"lang-{language}-{width}-{name}.png"), full_page=True)


@pytest.mark.parametrize(
    ("language", "locale", "width"),
    [("ja", "ja-JP", 360), ("ja", "ja-JP", 1280), ("fr", "fr-CA", 360), ("es", "es-419", 360)],
)
def test_main_pages_in_the_language_of_the_browser(browser, served, language, locale, width):
    base, app = served
    said = words(language)
    player = {"ja": "花子", "fr": "Amélie", "es": "Íñigo"}[language] + f" {width}"
    total = finish_a_solo_game(app, player)
    context = browser.new_context(
        viewport={"width": width, "height": 740 if width < 700 else 900},
        device_scale_factor=1,
        is_mobile=width < 700,
        has_touch=width < 700,
        locale=locale,  # the browser's Accept-Language, region tag included
    )
    page = context.new_page()

    page.goto(base + "/")
    assert said["new_game"] in page.locator("main").inner_text()
    check_page(page, language, width, "1-new-game")

    start_game(page, base, seed="5")
    wait_for_turn(page)
    before = version(page)
    page.locator("#roll").click()
    wait_moved(page, before)
    card = page.locator("table.card")
    shown = card.inner_text()
    for box in said["boxes"]:
        assert box in shown, box
    frame = page.locator("main").bounding_box()
    box = card.bounding_box()
    assert (
        frame and box and box["x"] >= 0 and box["x"] + box["width"] <= frame["x"] + frame["width"]
    )
    container = page.evaluate(
        "() => { const s = document.querySelector('table.card').closest('.scroll');"
        " return [s.scrollWidth, s.clientWidth]; }"
    )
    assert container[0] <= container[1], f"the card scrolls sideways: {container}"
    for selector in ("#roll", "#die-5", "td.legal button >> nth=0"):
        bounds = page.locator(selector).bounding_box()
        assert bounds and bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= width, selector
    check_page(page, language, width, "2-game")

    page.goto(base + "/stats")
    text = page.locator("main").inner_text()
    assert said["statistics"] in text and player in text and said["classic"] in text
    assert number(total, 1, language) in text  # a single game: its total is the average
    check_page(page, language, width, "3-statistics")

    page.goto(base + "/rules")
    assert said["rules"] in page.locator("main").inner_text()
    check_page(page, language, width, "4-rules")
    context.close()

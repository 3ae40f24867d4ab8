"""The review page: chart, decisions, links from the end of the game and the games list."""

from __future__ import annotations

import base64
import re
from html import escape

import pytest

from fivedice.wording.review import percent
from tests.web.support import finish, start


def started_game(client, app, **changes):
    location = start(client, **changes)
    public_id = location.rsplit("/", 1)[-1]
    return public_id, app.state.hub.game_id(public_id)


def chart_of(page: str) -> bytes:
    found = re.findall(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', page)
    assert found, "no chart"
    return base64.b64decode(found[0])


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_finished_game_links_to_its_review_which_shows_every_decision(client, app, service):
    public_id, game_id = started_game(client, app)
    finish(service, game_id)
    game_page = client.get(f"/g/{public_id}").text
    assert f'href="/g/{public_id}/review"' in game_page  # the end of the game links here
    page = client.get(f"/g/{public_id}/review")
    assert page.status_code == 200
    html = page.text
    review = service.review(game_id)
    for seat in review.seats:
        assert f"Expected points lost: {seat.total_loss:.2f}" in html
        assert f"Every decision ({len(seat.decisions)})" in html
    assert "Values are exact" in html
    svg = chart_of(html)
    assert svg.lstrip().startswith(b"<?xml") and b"<svg" in svg
    assert b"<script" not in svg and b"javascript:" not in svg
    assert b"expected final score" in svg and b"points scored" in svg
    assert "<script>" not in html  # nothing inline: the page has app.js only
    assert ' style="' not in html
    # The greedy human loses points; the costliest decisions are listed with what was best.
    assert html.count('<ol class="costliest">') >= 1
    assert "best: " in html


def test_the_games_list_links_to_reviews_of_finished_games_only(client, app, service):
    done, done_id = started_game(client, app, seed="3")
    finish(service, done_id)
    playing, _ = started_game(client, app, seed="4")
    resume = client.get("/resume").text
    assert f'href="/g/{done}/review"' in resume
    assert f'href="/g/{playing}/review"' not in resume
    assert f'href="/g/{playing}"' in resume  # still listed to continue
    dropped, dropped_id = started_game(client, app, seed="6")
    service.abandon(dropped_id)
    assert f"/g/{dropped}" not in client.get("/resume").text  # abandoned: not offered at all
    assert client.get(f"/g/{dropped}/review").status_code == 200  # but it can be reviewed


def test_a_game_in_progress_is_not_reviewed(client, app):
    public_id, _ = started_game(client, app)
    page = client.get(f"/g/{public_id}/review")
    assert page.status_code == 409
    assert "still in progress" in page.text
    assert "data:image/svg" not in page.text
    assert client.get("/g/nonsense/review").status_code == 404


def test_the_review_speaks_the_visitors_language(client, app, service):
    public_id, game_id = started_game(client, app, kind1="none")
    finish(service, game_id)
    client.get("/lang/nl")
    html = client.get(f"/g/{public_id}/review").text
    assert "Verwachte punten verloren" in html
    assert "verwachte eindscore" in chart_of(html).decode()


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_match_review_counts_games_and_marks_where_each_begins(client, app, service):
    public_id, game_id = started_game(client, app, kind1="none", match_length="2")
    finish(service, game_id)
    html = client.get(f"/g/{public_id}/review").text
    assert '<th scope="col">Game</th>' in html
    assert "game 2, turn" in html  # the costliest decisions say which game
    assert chart_of(html).count(b"<svg") == 1


def test_a_two_seat_review_charts_the_chances_of_winning(client, app, service):
    public_id, game_id = started_game(client, app)  # Ann against a CPU
    finish(service, game_id)
    html = client.get(f"/g/{public_id}/review").text
    review = service.review(game_id)
    charts = re.findall(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(charts) == 2  # one per seat
    for encoded in charts:
        svg = base64.b64decode(encoded).decode()
        assert "chance of winning" in svg and "100%" in svg  # the second panel, 0-100 %
        assert "Ann" in svg and review.seats[1].name in svg  # its legend names both seats
    assert 'height="480"' in html and "chances of winning at those moments" in html
    final = percent(review.seats[0].curve[-1].win_chance)
    assert escape(f"{final} after the last turn") in html  # the chart's alt text says it too


def test_a_solo_review_chart_has_no_chances_panel(client, app, service):
    public_id, game_id = started_game(client, app, kind1="none")
    finish(service, game_id)
    svg = chart_of(client.get(f"/g/{public_id}/review").text).decode()
    assert "expected final score" in svg and "chance of winning" not in svg


def test_the_chances_panel_is_drawn_below_with_a_legend():
    from fivedice.web.review_chart import chart_svg

    chances = [("Ann", [0.5, 0.7, 1.0]), ("Bob", [0.5, 0.3, 0.0])]
    svg = chart_svg([0, 1, 2], [250.0, 240.0, 245.0], [0, 20, 45], ("E", "S", "T"), [],
                    chances, "chance of winning").decode()  # fmt: skip
    assert "axes_2" in svg and "legend_2" in svg  # a second panel with its own legend
    assert "chance of winning" in svg and "100%" in svg and "Bob" in svg
    plain = chart_svg([0, 1, 2], [250.0, 240.0, 245.0], [0, 20, 45], ("E", "S", "T")).decode()
    assert "axes_2" not in plain and "chance of winning" not in plain


def test_the_chart_is_plain_svg_with_both_series():
    from fivedice.web.review_chart import chart_svg, data_url

    svg = chart_svg([0, 1, 2], [250.0, 240.0, 245.0], [0, 20, 45], ("E", "S", "T"), [1])
    assert svg.startswith(b"<?xml") and b"</svg>" in svg and b"<script" not in svg
    assert data_url(svg).startswith("data:image/svg+xml;base64,")


def test_the_costliest_decisions_say_why_the_best_was_better(client, app, service, classic_table):
    from fivedice.strategy.breakdown import breakdown_of
    from fivedice.wording.review import decision_why

    breakdown_of(classic_table.rules)  # at hand: the page never waits for it
    public_id, game_id = started_game(client, app)
    finish(service, game_id)
    html = client.get(f"/g/{public_id}/review").text
    review = service.review(game_id, explain=True)
    worst = review.seats[0].costliest[0]
    why = decision_why(worst, review.rules)
    assert why is not None and why.startswith("Why: +")
    assert f'<span class="why">{escape(why)}</span>' in html
    page = client.get(f"/g/{public_id}/review", headers={"Accept-Language": "de"}).text
    assert '<span class="why">Warum: +' in page and " bei " in page


def test_a_several_column_review_says_why_by_column_as_an_estimate(
    client, app, service, classic_table
):
    from fivedice.strategy.breakdown import breakdown_of
    from fivedice.wording.review import decision_why

    breakdown_of(classic_table.rules)  # the one-column breakdown at hand: no waiting
    public_id, game_id = started_game(client, app, preset="triple", kind1="none")
    view = service.load(game_id)
    while not view.is_over:  # the human scores greedily, in whichever column
        if view.state.dice is None:
            view = service.apply_action(game_id, "roll", view.version)
        best = max(view.state.placements(), key=lambda p: p.points)
        action = f"score {best.column + 1}:{best.category.key}"
        view = service.apply_action(game_id, action, view.version)
    html = client.get(f"/g/{public_id}/review").text
    review = service.review(game_id, explain=True)
    worst = review.seats[0].costliest[0]
    why = decision_why(worst, review.rules)
    assert why is not None and why.startswith("Why (estimated): +") and "(column " in why
    assert f'<span class="why">{escape(why)}</span>' in html
    page = client.get(f"/g/{public_id}/review", headers={"Accept-Language": "fr"}).text
    assert '<span class="why">Pourquoi (estimation) : +' in page and "(colonne " in page


def test_the_games_list_offers_no_review_the_review_would_refuse(client, app, service):
    # Maxi Yatzy with saved rolls has no solved table to judge against: no link to a refusal.
    maxi, maxi_id = started_game(client, app, seed="5", preset="maxi-yatzy")
    finish(service, maxi_id)
    classic, classic_id = started_game(client, app, seed="7")
    finish(service, classic_id)
    resume = client.get("/resume").text
    assert f'href="/g/{classic}/review"' in resume
    assert f'href="/g/{maxi}/review"' not in resume
    assert resume.count("<li><span>Ann, CPU 2") == 2  # both listed, one with its review

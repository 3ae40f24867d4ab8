"""The statistics page's skill sections: each player's loss per decision over their games.

Renders what the service's `skill` returns (`fivedice.strategy.review.SkillStats`, through
`GameService.skill`) in the visitor's language, with a chart of the loss per decision game by
game drawn as the review's chart is (`review_chart.skill_chart_svg`, an SVG ``data:`` URL).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fivedice.web.review_chart import chart_size, data_url, skill_chart_svg
from fivedice.web.wording import in_language
from fivedice.wording.review import phase_note, skill_chart_labels, skill_heading, skill_lines
from fivedice.wording.text import preset_title

if TYPE_CHECKING:
    from fivedice.service.games import SkillStats

__all__ = ["skill_heading", "skill_section"]


def skill_section(skill: SkillStats, language: str) -> dict[str, Any]:
    """One player's skill under one set of rules, as the template shows it."""
    return in_language(language, _section, skill)


def _section(skill: SkillStats) -> dict[str, Any]:
    title, headline, *details = skill_lines(skill)
    losses = [
        game.proficiency.loss_per_decision
        for game in skill.games
        if game.proficiency.loss_per_decision is not None
    ]
    chart = None
    if len(losses) >= 2:
        chart = data_url(skill_chart_svg(losses, skill_chart_labels()))
    width, height = chart_size(False)
    games_label, loss_label = skill_chart_labels()
    return {
        "heading": f"{skill.profile} · {preset_title(skill.rules)}",
        "title": title,
        "headline": headline,
        "details": details,
        "exact": skill.exact,
        "chart": chart,
        "chart_size": (round(width * 100), round(height * 100)),
        "chart_alt": f"{loss_label} / {games_label}: "
        + ", ".join(f"{loss:.2f}" for loss in losses),
        "phase_note": phase_note(),
    }

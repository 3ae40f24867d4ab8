"""The strategy guide for the front ends: the derived guide's data, by preset.

The guide is shipped with the package (`strategy.guide`); the front ends render it with
`wording.guide.guide_text` (words) and `sheet.guide_pdf` (a printable page).

>>> guide_data("classic")["rules"]
'classic'
"""

from __future__ import annotations

from typing import Any

from fivedice.core.errors import N_, SettingsError
from fivedice.strategy.guide import GUIDE_FILES, load_guide

__all__ = ["GUIDE_PRESETS", "GuideRulesError", "check_guide_rules", "guide_data"]

GUIDE_PRESETS: tuple[str, ...] = tuple(GUIDE_FILES)
"""The presets a guide was derived for."""


class GuideRulesError(SettingsError):
    """No guide was derived for these rules. Parameters: `names` (the presets that have one)
    and `text` (what was asked for)."""


def check_guide_rules(name: str) -> str:
    """The preset named `name` (any case, outer spaces ignored) if a guide exists for it.

    Raises:
        GuideRulesError: no guide for it.
    """
    wanted = name.strip().lower()
    if wanted not in GUIDE_PRESETS:
        raise GuideRulesError(
            N_("a strategy guide exists for {names}, not {text!r}"),
            names=", ".join(GUIDE_PRESETS),
            text=name,
        )
    return wanted


def guide_data(name: str = "classic") -> dict[str, Any]:
    """The guide derived for a preset, as data (`strategy.guide.Guide.as_data()`).

    Raises:
        GuideRulesError: no guide for it.
    """
    return load_guide(check_guide_rules(name)).as_data()

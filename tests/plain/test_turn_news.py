"""The plain mode announces what a score does to the turns: rolls saved for later turns."""

from __future__ import annotations

from tests.plain.test_presets import play


def test_rolls_not_used_are_announced_as_saved(tmp_path) -> None:
    # Maxi Yatzy saves unused rolls: Ann scores after one roll and keeps two for later.
    out = play("maxi-yatzy", "roll\nscore chance\nquit\n", tmp_path, players=("Ann", "Bob"))
    assert "You have 2 rolls saved for later turns." in out

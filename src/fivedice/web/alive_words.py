"""The words of the parts that make the game feel alive and installable: the sound toggle,
the Yahtzee celebration, Copy and Share, the offline page. Merged into `wording.texts`, so
templates read them as ``t.name`` like every other message; the parameter is called `_` so
that the catalogs' extraction finds the literals."""

from __future__ import annotations

from collections.abc import Callable


def alive_texts(_: Callable[[str], str]) -> dict[str, str]:
    """The messages, translated by `_`."""
    return {
        "sound_on": _("Sound and vibration: on"),
        "sound_off": _("Sound and vibration: off"),
        "yahtzee_cheer": _("Yahtzee! All the dice alike."),
        "copy_link": _("Copy link"),
        "link_copied": _("Link copied"),
        "copy_failed": _("Could not copy: select the link and copy it yourself."),
        "share": _("Share"),
        "share_text": _("Join my game of fivedice"),
        "offline_title": _("You are offline"),
        "offline_note": _(
            "fivedice needs a connection to play: the dice are rolled on the server. Your "
            "games are kept there and go on where they stopped."
        ),
        "try_again": _("Try again"),
    }

"""One person at the keyboard: every default name of the human counts as one profile."""

from __future__ import annotations

from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import find_ruleset
from fivedice.i18n import use_language
from fivedice.plain.game import build_settings
from fivedice.service.settings import default_human_name
from fivedice.wording.labels import cpu_name
from tests.support.players import play_out


def test_the_command_line_and_the_new_game_screen_seat_the_same_default_name() -> None:
    from fivedice.tui.screens.setup import SetupForm

    rules = find_ruleset("classic")
    for language, name in (("en", "You"), ("ja", "あなた"), ("de", "Du")):
        with use_language(language):
            assert default_human_name() == name
            cli = build_settings(rules, [], ["casual", "expert"], "first_seat", 1)
            form = SetupForm.default().settings()
            cpus = [cpu_name(1, "casual"), cpu_name(2, "expert")]
            first_cpu = cpu_name(1)  # the form shows the level in its own field
        assert cli.seats[0].name == form.seats[0].name == name
        # CPUs are numbered from 1, on the command line and on the form alike.
        assert [s.name for s in cli.seats[1:]] == cpus
        assert form.seats[1].name == first_cpu


def test_games_under_every_default_name_are_one_profile_in_statistics(service) -> None:
    # A game as "Player" (the former --cpu default), one as "You", one as "あなた".
    for name in ("Player", "You", "あなた"):
        view = service.create_game(GameSettings((Seat(name),)))
        play_out(service, view.game_id)
    view = service.create_game(GameSettings((Seat("Ann"),)))
    play_out(service, view.game_id)

    with use_language("en"):
        profiles = {(s.profile, s.games) for s in service.stats()}
        assert profiles == {("You", 3), ("Ann", 1)}
        [mine] = service.stats("player")  # any of the default names finds the one profile
        assert mine.games == 3
        players = {entry.profile for entry in service.high_scores()["classic"]}
        assert players == {"You", "Ann"}
    with use_language("ja"):
        assert {s.profile for s in service.stats()} == {"あなた", "Ann"}


def test_custom_rules_are_named_by_what_differs_in_the_statistics(service) -> None:
    rules = find_ruleset("classic", {"upper_bonus_threshold": 70})
    view = service.create_game(GameSettings((Seat("Ann"),), rules))
    play_out(service, view.game_id)
    [stats] = service.stats()
    assert stats.rules.startswith("custom-")
    with use_language("en"):
        assert service.rules_titles() == {stats.rules: "Classic, bonus at 70"}
    with use_language("ja"):
        assert service.rules_titles()[stats.rules].startswith("クラシック")

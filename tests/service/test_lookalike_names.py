"""Names that pass for another are refused; the names of every writing system are kept.

Two rules of Unicode's security mechanisms (UTS #39) on top of the core's refusal of what
cannot be seen: a name keeps to the scripts of one writing system, and no two seats of a
game or a room look alike (the same skeleton, different names)."""

from __future__ import annotations

import pytest

from fivedice.core.errors import SettingsError
from fivedice.core.names import PlayerNameError
from fivedice.core.rules import find_ruleset
from fivedice.service.games import GameService
from fivedice.service.lookalikes import check_scripts, skeleton
from fivedice.service.rooms import RoomSeatSpec, RoomService
from fivedice.service.settings import game_settings
from fivedice.store.database import Store

CLASSIC = find_ruleset("classic")

KEPT = {
    "plain Latin": "Ann",
    "accents": "Zoë Müller-Ñúñez",
    "apostrophe and digits": "Jean-Luc O'Neil 2",
    "Japanese kanji and kana": "山田たろう",
    "Japanese with Latin": "Taro タロウ",
    "katakana": "ヤマダ",
    "Korean": "김철수",
    "Chinese with bopomofo": "小明ㄅ",
    "Greek alone": "Σωκράτης",
    "Cyrillic alone": "Иван",
    "emoji sequence": "Ann 👩\u200d💻",
    "emoji with variation selector": "❤️ Bea",
    "fullwidth Latin": "Ｔａｒｏ",
    "Arabic": "ليلى",
    "Hindi with a combining mark": "प्रिया",
}

REFUSED = {
    "a Cyrillic а in a Latin name": "P\u0430ul",
    "a Greek Ο in a Latin name": "B\u039fB",
    "Latin with Greek": "Ωmega",
    "Cyrillic with Latin": "Иван Ivan",
    "Armenian օ in a Latin name": "B\u0585b",
    "Cherokee with Latin": "\u13f4ob",
}


@pytest.mark.parametrize("name", KEPT.values(), ids=KEPT.keys())
def test_names_of_one_writing_system_are_kept(name):
    assert check_scripts(name) == name
    assert game_settings([(name, None), ("Someone", "beginner")], CLASSIC).seats[0].name == name


@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
def test_names_that_mix_scripts_are_refused_naming_the_scripts(name):
    with pytest.raises(PlayerNameError, match="one script") as refused:
        game_settings([(name, None)], CLASSIC)
    assert "Latin" in str(refused.value)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ann", "\u0391\u039d\u039d"),  # Greek capitals ΑΝΝ
        ("Ann", "\U0001d400\U0001d427\U0001d427"),  # mathematical bold 𝐀𝐧𝐧
        ("Ann", "\u24b6nn"),  # circled Ⓐ
        ("Pop", "\u0420\u043e\u0440"),  # all Cyrillic: Рор
        ("Bob", "Ｂｏｂ"),  # fullwidth
    ],
)
def test_two_seats_that_look_alike_are_refused(first, second):
    assert skeleton(first) == skeleton(second)
    with pytest.raises(SettingsError, match="looks like"):
        game_settings([(first, None), (second, None)], CLASSIC)


@pytest.mark.parametrize(("first", "second"), [("Ann", "Anna"), ("Bo", "Bö"), ("Zoe", "Zoë")])
def test_names_that_only_resemble_each_other_sit_together(first, second):
    assert skeleton(first) != skeleton(second)
    assert len(game_settings([(first, None), (second, None)], CLASSIC).seats) == 2


def test_a_room_refuses_a_joiner_whose_name_looks_like_a_seated_one(tmp_path):
    service = GameService(Store(f"sqlite:///{tmp_path / 'rooms.sqlite3'}"))
    rooms = RoomService(service)
    room = rooms.create(
        [RoomSeatSpec("me", "Ann"), RoomSeatSpec("open", "Player 2")],
        host_session="host",
        options={"rules": "classic"},
    )
    with pytest.raises(PlayerNameError, match="looks like"):
        rooms.join(room, "joiner", name="\u0391\u039d\u039d")  # Greek ΑΝΝ
    with pytest.raises(PlayerNameError, match="one script"):
        rooms.join(room, "joiner", name="B\u0435a")  # a Cyrillic е in Bea
    assert rooms.claims(room.room_id) == []  # (refused: no seat taken)
    joined, seat = rooms.join(room, "joiner", name="Bea")
    assert [s.name for s in joined.seats] == ["Ann", "Bea"] and seat == 1
    service.store.close()

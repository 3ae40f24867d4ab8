"""A Hold'em game's record: it replays, it verifies, and a changed die does not."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from fivedice.core.fairdice import DiceSeeds
from fivedice.core.game import Seat
from fivedice.core.holdem import Bet, HoldemRules, Raise, legal_actions, new_game
from fivedice.core.holdem.record import (
    HoldemRecord,
    holdem_record_to_text,
    holdem_terms,
    parse_holdem_record,
    verify_holdem_record,
)
from fivedice.core.record import RecordError, RecordingDice
from fivedice.core.verify import VerifyRefusedError


def finished_record(seed: int = 3) -> HoldemRecord:
    seeds = DiceSeeds(bytes(range(32)), ("", "mine"))
    record = HoldemRecord(
        (Seat("Ann"), Seat("Bob")),
        HoldemRules(starting_stack=60),
        dice_commitment=seeds.commitment,
        client_seeds=seeds.client_seeds,
    )
    seeds = replace(seeds, terms=holdem_terms(record))
    recording = RecordingDice(seeds.dice(0))
    record = replace(record, server_seed=seeds.server_seed)

    new_game(record.players, record.rules, recording, record.button)
    record = replace(record, deal_faces=tuple(recording.values))
    rng = random.Random(seed)
    while record.status != "finished":
        state = record.rebuild()
        action = rng.choice([a for a in legal_actions(state) if str(a) != "fold"])
        if isinstance(action, (Bet, Raise)):
            action = type(action)((state.raise_range(state.to_act or 0) or (0, 0))[1])
        record = record.played(str(action), seeds.dice(len(record.actions) + 1))
    return record


def test_a_finished_record_replays_and_verifies():
    record = finished_record()
    text = holdem_record_to_text(record)
    parsed = parse_holdem_record(text)
    assert parsed.rebuild().is_game_over
    verification = verify_holdem_record(parsed)
    assert verification.ok and verification.committed and verification.rolls >= 2


def test_a_changed_die_fails_verification():
    text = holdem_record_to_text(finished_record())
    head, _, faces = text.partition("0 deal | ")
    changed = head + "0 deal | " + ("2" if faces[0] != "2" else "3") + faces[1:]
    verification = verify_holdem_record(parse_holdem_record(changed))
    assert not verification.ok
    assert verification.first_bad_action == 0


def test_a_changed_action_fails_verification():
    record = finished_record()
    entries = list(record.actions)
    entries[0] = replace(entries[0], action="fold" if entries[0].action != "fold" else "call")
    verification = verify_holdem_record(replace(record, actions=tuple(entries)))
    assert not verification.ok


def test_a_record_in_progress_shows_no_dice_and_cannot_be_verified():
    record = finished_record()
    ongoing = replace(record, status="in_progress", actions=record.actions[:1])
    text = holdem_record_to_text(ongoing)
    assert "server_seed" not in text and "|" not in text
    with pytest.raises(VerifyRefusedError):
        verify_holdem_record(parse_holdem_record(text))


def test_a_record_that_is_not_one_is_refused():
    with pytest.raises(RecordError):
        parse_holdem_record("# fivedice game record 1\n")

"""Records nobody can alter unseen: `fivedice verify` says "Verified" only for a signed record
whose every line is as it was signed and whose every roll was committed to; any change to any
line is refused (status 1), and dice nobody can check are "not verifiable" (status 3)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.core.game import FirstPlayer, GameSettings, Seat
from fivedice.core.record import split_signature
from fivedice.core.rules import PRESETS, find_ruleset
from fivedice.core.verify import SignatureStatus, Verdict
from fivedice.service.games import GameService
from fivedice.service.records import check_record_text
from fivedice.service.signing import record_key, trusted_key
from fivedice.store import Store
from fivedice.strategy.limits import cpus_supported
from tests.conftest import TEST_RECORD_KEY
from tests.support.players import play_out, simple_cpu_factory
from tests.support.tampering import header, tamperings, unsigned

runner = CliRunner()


def duel(preset: str) -> GameSettings:
    rules = find_ruleset(preset)
    # Rules no CPU plays (none of the presets now) are played by two people.
    other = Seat("CPU", cpu_level="casual") if cpus_supported(rules) else Seat("Bob")
    return GameSettings((Seat("Ann"), other), rules, FirstPlayer.HIGHEST_DIE)


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Records signed with the tests' key: a finished fair-dice game of every preset, a
    practice game (a seed of the client's) and a game still in progress."""
    root = tmp_path_factory.mktemp("records")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FIVEDICE_RECORD_KEY", TEST_RECORD_KEY)  # (module fixtures come first)
        store = Store(f"sqlite:///{root / 'games.sqlite3'}")
        service = GameService(store, cpu_factory=simple_cpu_factory)
        made = {}
        for preset in PRESETS:
            view = service.create_game(duel(preset.name), client_seeds=["ann's seed", None])
            play_out(service, view.game_id)
            made[preset.name] = service.export(view.game_id)
        practice = service.create_game(duel("classic"), seed=7)
        play_out(service, practice.game_id)
        made["practice"] = service.export(practice.game_id)
        playing = service.create_game(duel("classic"))
        play_out(service, playing.game_id, limit=5)
        made["in progress"] = service.export(playing.game_id)
        store.close()
    return made


def verify(tmp_path: Path, text: str | bytes, *options: str):
    path = tmp_path / "record.txt"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return runner.invoke(app, ["verify", str(path), *options])


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("preset", [preset.name for preset in PRESETS])
def test_a_true_record_of_every_preset_is_verified(records, tmp_path, preset):
    text = records[preset]
    check = check_record_text(text)
    assert check.verdict is Verdict.VERIFIED, check.problems
    assert check.signature.status is SignatureStatus.VALID and check.committed
    result = verify(tmp_path, text)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Verified:")
    assert record_key().fingerprint in result.stdout  # whom to compare with /fairness/key


@pytest.mark.parametrize(
    "kind",
    [
        "a die",
        "the server seed",
        "a client seed",
        "the game seed",
        "the rules (totals fixed)",
        "a player renamed",
        "a score moved to another box (totals fixed)",
        "a total",
        "the status (finished -> abandoned)",
        "the practice flag (no -> yes)",
        "the game id",
        "the start time",
        "the fair-dice lines removed",
        "a comment line added",
    ],
)
def test_every_kind_of_tampered_record_is_refused(records, tmp_path, kind):
    changed = tamperings(records["classic"])[kind]
    assert changed != records["classic"]
    check = check_record_text(changed)
    assert check.verdict is Verdict.ALTERED
    result = verify(tmp_path, changed)
    assert result.exit_code == 1, result.output
    assert "Verified" not in result.stdout
    assert "The record does not verify:" in result.stdout


def test_a_change_the_dice_and_the_log_cannot_see_is_named_as_a_broken_signature(records, tmp_path):
    changed = tamperings(records["classic"])["a player renamed"]
    result = verify(tmp_path, changed)
    assert result.exit_code == 1
    assert "does not match the record: a line was changed" in result.stdout
    assert record_key().fingerprint in result.stdout


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_changing_any_single_line_of_a_true_record_is_never_verified(records):
    """Property-style: every line, changed in one of several ways, breaks the verdict."""
    text = records["classic"]
    lines = text.split("\n")[:-1]  # (the text ends with a line break)
    edits = [
        lambda line: line + " ",
        lambda line: line[:-1] + ("7" if line[-1:] != "7" else "8") if line else "x",
        lambda line: None,  # the line removed
        lambda line: line.upper() if line != line.upper() else line.lower() + "x",
    ]
    for index, line in enumerate(lines):
        for edit in (edits[index % len(edits)], edits[(index + 1) % len(edits)]):
            new = edit(line)
            changed_lines = lines[:index] + ([] if new is None else [new]) + lines[index + 1 :]
            changed = "\n".join(changed_lines) + "\n"
            if changed == text:
                continue
            try:
                verdict = check_record_text(changed).verdict
            except ValueError:  # (not readable: `fivedice verify` exits 2)
                continue
            assert verdict is not Verdict.VERIFIED, (index, line, new)


def test_a_tampered_record_without_its_signature_is_not_verifiable(records, tmp_path):
    # (A change the dice do not see: only the signature vouched for the status.)
    changed = unsigned(tamperings(records["classic"])["the status (finished -> abandoned)"])
    check = check_record_text(changed)
    assert check.verdict is Verdict.UNSIGNED and check.signature.status is SignatureStatus.MISSING
    result = verify(tmp_path, changed)
    assert result.exit_code == 3, result.output
    assert "Verified" not in result.stdout
    assert result.stdout.startswith("Not fully verifiable:")


def test_a_practice_record_is_not_verifiable(records, tmp_path):
    check = check_record_text(records["practice"])
    assert check.verdict is Verdict.PRACTICE and check.signature.status is SignatureStatus.VALID
    result = verify(tmp_path, records["practice"])
    assert result.exit_code == 3, result.output
    assert result.stdout.startswith("Not verifiable: a practice game.")
    assert "Verified" not in result.stdout
    # Nothing vouches for an old (unsigned) record with dice known in advance.
    bare = verify(tmp_path, unsigned(records["practice"]))
    assert bare.exit_code == 3 and bare.stdout.startswith("Not verifiable: the record carries")
    # And a record passed off as one that counts is refused.
    counted = verify(tmp_path, header(records["practice"], "practice", lambda _: "no"))
    assert counted.exit_code == 1


def test_a_game_in_progress_is_not_verifiable_yet(records, tmp_path):
    result = verify(tmp_path, records["in progress"])
    assert result.exit_code == 3, result.output
    assert result.stdout.startswith("Not verifiable yet:") and "in progress" in result.stdout


OTHER_KEY = "0123456789abcdef" * 4


def test_a_record_signed_by_another_key_is_refused_under_key(records, tmp_path, monkeypatch):
    ours = record_key()
    monkeypatch.setenv("FIVEDICE_RECORD_KEY", OTHER_KEY)
    theirs = record_key()
    assert theirs.fingerprint != ours.fingerprint
    body, _ = split_signature(tamperings(records["classic"])["the status (finished -> abandoned)"])
    forged = theirs.sign(body)  # a forger's record, signed with the forger's own key
    # Without --key the signature holds, and the fingerprint printed is the forger's.
    loose = verify(tmp_path, forged)
    assert loose.exit_code == 0 and theirs.fingerprint in loose.stdout
    assert ours.fingerprint not in loose.stdout and "--key" in loose.stdout
    for pinned in (ours.fingerprint, ours.public_key.hex(), ours.fingerprint.replace("-", "")):
        refused = verify(tmp_path, forged, "--key", pinned)
        assert refused.exit_code == 1, refused.output
        assert f"not the one you trust ({ours.fingerprint})" in refused.stdout
        accepted = verify(tmp_path, records["classic"], "--key", pinned)
        assert accepted.exit_code == 0 and "--key" not in accepted.stdout
    key_file = tmp_path / "key.txt"
    key_file.write_text(ours.published)
    assert verify(tmp_path, forged, "--key", str(key_file)).exit_code == 1
    assert verify(tmp_path, records["classic"], "--key", str(key_file)).exit_code == 0


@pytest.mark.parametrize("key", ["nonsense", "abc", "0" * 63, "x" * 5000])
def test_a_key_to_trust_that_cannot_be_read_is_status_2(records, tmp_path, key):
    result = verify(tmp_path, records["classic"], "--key", key)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "a key to trust is a fingerprint" in result.stderr


def test_the_published_key_reads_back_as_the_key_to_trust() -> None:
    key = record_key()
    assert trusted_key(key.published).public_key == key.public_key
    assert trusted_key(key.fingerprint).fingerprint == key.fingerprint


@pytest.mark.parametrize(
    "hostile",
    [
        b"\x00\xff\xfe" * 1000,
        b"# fivedice game record 1\n" + b"[" * 100_000,
        "# fivedice game record 1\nseed: 1\n\nsignature: ed25519 zz zz\n",
        "# fivedice game record 1\n" + "x" * 3_000_000 + "\n",
    ],
    ids=["binary", "deep", "a broken signature line", "huge"],
)
def test_hostile_input_is_status_2(tmp_path, hostile):
    result = verify(tmp_path, hostile)
    assert result.exit_code == 2, result.output[-300:]
    assert "Traceback" not in result.output and len(result.output) < 400


def test_the_rules_and_players_are_bound_into_the_dice_even_against_the_signer(records, tmp_path):
    """A record re-signed by the server's own key after a player was renamed or the rules
    changed (totals fixed) still fails: its dice are no longer the ones the seeds give."""
    key = record_key()
    for kind in ("a player renamed", "the rules (totals fixed)", "the practice flag (no -> yes)"):
        body, _ = split_signature(tamperings(records["classic"])[kind])
        resigned = key.sign(body)
        check = check_record_text(resigned)
        assert check.signature.status is SignatureStatus.VALID
        assert check.verdict is Verdict.ALTERED, kind
        # The roll-off (two dice: alike by chance once in 36) or the first roll differs.
        assert check.first_bad_action in (0, 1), kind
        result = verify(tmp_path, resigned, "--key", key.fingerprint)
        assert result.exit_code == 1 and "the seeds give" in result.stdout, kind

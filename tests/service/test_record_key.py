"""The installation's record key: one per installation (a 0600 file made atomically, shared by
every worker) unless `$FIVEDICE_RECORD_KEY` names it; a bad one is a clear error."""

from __future__ import annotations

import stat
import threading

import pytest

from fivedice.service.signing import KEY_ENV, RecordKeyError, record_key


def test_the_key_file_is_made_once_private_and_read_back(tmp_path, monkeypatch):
    monkeypatch.delenv(KEY_ENV)
    path = tmp_path / "data" / "record-key"
    first = record_key(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(path.read_text().strip()) == 64
    assert record_key(path).public_key == first.public_key
    # Another process (a fresh cache) reads the same key from the file.
    from fivedice.service import signing

    monkeypatch.setattr(signing, "_loaded", {})
    assert record_key(path).public_key == first.public_key


def test_workers_racing_to_make_the_key_all_get_the_same_one(tmp_path, monkeypatch):
    monkeypatch.delenv(KEY_ENV)
    from fivedice.service import signing

    path = tmp_path / "record-key"
    keys: list[bytes] = []

    def worker() -> None:
        keys.append(signing._private_key(signing._key_file_text(path), path).public_key()
                    .public_bytes_raw())  # fmt: skip

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(keys) == 8 and len(set(keys)) == 1


def test_the_environment_names_the_key(monkeypatch, tmp_path):
    monkeypatch.setenv(KEY_ENV, "ab" * 32)
    key = record_key(tmp_path / "unused")
    assert not (tmp_path / "unused").exists()
    signed = key.sign("# fivedice game record 1\n")
    assert signed.endswith("\n") and signed.splitlines()[-1].startswith("signature: ed25519 ")


@pytest.mark.parametrize("configured", ["short", "zz" * 32, "ab" * 33])
def test_a_bad_key_in_the_environment_is_a_clear_error(monkeypatch, configured):
    monkeypatch.setenv(KEY_ENV, configured)
    with pytest.raises(RecordKeyError, match="is not 64 hex digits"):
        record_key()

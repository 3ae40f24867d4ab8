import pytest

from fivedice.i18n import set_language


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """Tests read English text whatever the machine's locale."""
    monkeypatch.setenv("FIVEDICE_LANG", "en")
    set_language("en")


@pytest.fixture(autouse=True)
def private_database(tmp_path_factory, monkeypatch):
    """No test writes to the user's own database: each gets its own SQLite file."""
    path = tmp_path_factory.mktemp("db") / "fivedice.sqlite3"
    monkeypatch.setenv("FIVEDICE_DATABASE_URL", f"sqlite:///{path}")

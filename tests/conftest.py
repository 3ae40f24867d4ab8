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


@pytest.fixture(autouse=True)
def environment_restored():
    """Commands such as `serve` export settings for their workers (os.environ); whatever a
    test's command sets is taken back after it, so no test sees another's settings."""
    import os

    before = dict(os.environ)
    yield
    for name in set(os.environ) - set(before):
        del os.environ[name]
    for name, value in before.items():
        if os.environ.get(name) != value:
            os.environ[name] = value

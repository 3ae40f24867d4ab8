import pytest

from fivedice.i18n import set_language


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """Tests read English text whatever the machine's locale."""
    monkeypatch.setenv("FIVEDICE_LANG", "en")
    set_language("en")

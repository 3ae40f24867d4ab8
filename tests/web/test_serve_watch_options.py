"""`fivedice serve --log-format` and `--metrics-allow`: offered, and a bad value refused
cleanly (exit 2, a translated message, nothing started)."""

from __future__ import annotations

import json
import logging

import pytest
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.web.logs import JsonFormatter, TextFormatter


def test_serve_offers_the_log_format_and_who_reads_metrics():
    output = CliRunner().invoke(app, ["serve", "--help"], terminal_width=200).output
    assert "--log-format" in output and "--metrics-allow" in output


def test_serve_refuses_a_log_format_it_does_not_know(tmp_path):
    db = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    result = CliRunner().invoke(app, ["serve", "--db", db, "--log-format", "xml"])
    assert result.exit_code == 2 and "json or text" in result.output


@pytest.mark.parametrize("language", ["en", "de"])
def test_serve_refuses_a_metrics_allow_list_that_is_not_addresses(tmp_path, language, monkeypatch):
    monkeypatch.setenv("FIVEDICE_LANG", language)
    db = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    result = CliRunner().invoke(app, ["serve", "--db", db, "--metrics-allow", "10.0.0.0/8, lan"])
    assert result.exit_code == 2 and "'lan'" in result.output
    expected = {"en": "not an address", "de": "weder eine Adresse"}[language]
    assert expected in result.output


def test_the_text_log_line_carries_the_same_fields():
    record = logging.LogRecord("fivedice.access", logging.INFO, "", 0, "request", None, None)
    record.route = "/api/games/{game_id}"
    text = TextFormatter().format(record)
    assert "INFO" in text and "request" in text and "route=/api/games/{game_id}" in text
    assert json.loads(JsonFormatter().format(record))["route"] == "/api/games/{game_id}"


def test_an_exception_is_one_json_line_with_its_traceback():
    try:
        raise RuntimeError("the database went away")
    except RuntimeError:
        import sys

        record = logging.LogRecord(
            "uvicorn.error", logging.ERROR, "", 0, "boom", None, sys.exc_info()
        )
    text = JsonFormatter().format(record)
    assert "\n" not in text
    line = json.loads(text)
    assert line["error"] == "RuntimeError: the database went away"
    assert "Traceback" in line["traceback"] and line["level"] == "error"


def test_the_access_log_can_be_left_out():
    from fivedice.web.logs import ACCESS_LOGGER, configure_logging

    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        configure_logging("json", access_log=False)
        assert not logging.getLogger(ACCESS_LOGGER).isEnabledFor(logging.INFO)
        configure_logging("json")
        assert logging.getLogger(ACCESS_LOGGER).isEnabledFor(logging.INFO)
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in handlers:
            root.addHandler(handler)
        root.setLevel(level)
        logging.getLogger(ACCESS_LOGGER).setLevel(logging.NOTSET)

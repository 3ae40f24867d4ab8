"""Schemathesis: requests generated from the OpenAPI schema never break the server, and every
answer matches the schema (bounded: a few dozen examples per operation)."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from fivedice.service.games import GameService
from fivedice.web import create_app
from fivedice.web.rates import RateSettings
from tests.web.support import SECRET, UNCOUNTED

# Built at import: schemathesis makes one test per operation from a loaded schema (its lazy
# fixture loader does not work with this pytest). The database is a throwaway directory.
_directory = Path(tempfile.mkdtemp(prefix="fivedice-schema-"))
atexit.register(shutil.rmtree, _directory, True)
_service = GameService.open(f"sqlite:///{_directory / 'web.sqlite3'}")
_app = create_app(_service, SECRET, rates=RateSettings(**UNCOUNTED))
schema = schemathesis.openapi.from_asgi("/openapi.json", _app)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@schema.parametrize()
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_api_conforms_to_its_schema(case):
    # Excluded: "a schema-valid request must be accepted". Some rules cannot be written in
    # JSON Schema (player names unique ignoring case; an existing game), so those 422/404s
    # are right; every other check (no 5xx, documented codes, response schemas, schema-
    # violating requests refused) runs.
    case.call_and_validate(excluded_checks=[positive_data_acceptance])

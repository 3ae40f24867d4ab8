"""The files a host deploys with (deploy/): the systemd unit parses and names only options
systemd knows; HAProxy accepts its configuration with the addresses filled in from the
environment, as the cluster tests fill them in; the environment file sets every variable
the unit uses."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
UNIT = DEPLOY / "fivedice.service"
INSTALLED = "/opt/fivedice/.venv/bin/fivedice"


def _unit_here(tmp_path: Path) -> Path:
    """The unit with this checkout's `fivedice` and environment file in place of the
    installed ones (systemd-analyze checks that the command exists)."""
    fivedice = Path(sys.executable).parent / "fivedice"
    text = UNIT.read_text().replace(INSTALLED, str(fivedice))
    text = text.replace("/etc/fivedice/fivedice.env", str(DEPLOY / "fivedice.env"))
    here = tmp_path / "fivedice.service"
    here.write_text(text)
    return here


def test_the_systemd_unit_parses_without_a_warning(tmp_path):
    assert INSTALLED in UNIT.read_text()
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    if not (Path(sys.executable).parent / "fivedice").exists():
        pytest.skip("the fivedice command is not installed in this environment")
    checked = subprocess.run(
        ["systemd-analyze", "verify", str(_unit_here(tmp_path))],
        capture_output=True,
        text=True,
        timeout=60,
    )
    # systemd-analyze exits 0 on an unknown key or a bad value, but says so.
    assert checked.returncode == 0 and not checked.stdout + checked.stderr, checked


def test_the_unit_stops_gently_and_is_hardened():
    sections: dict[str, dict[str, list[str]]] = {}
    section = ""
    for line in UNIT.read_text().replace("\\\n", " ").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _sep, value = line.partition("=")
        sections.setdefault(section, {}).setdefault(key, []).append(value)
    service = sections["Service"]
    # SIGTERM to the supervisor alone (it stops its workers gently), SIGHUP replaces them.
    assert service["KillMode"] == ["mixed"] and service["KillSignal"] == ["SIGTERM"]
    assert service["ExecReload"] == ["/bin/kill -HUP $MAINPID"]
    assert "--graceful-timeout ${FIVEDICE_GRACEFUL_TIMEOUT}" in " ".join(service["ExecStart"])
    for hardening in ("NoNewPrivileges", "ProtectSystem", "PrivateTmp", "DynamicUser"):
        assert service[hardening][0] in ("yes", "strict"), hardening
    # Every variable the unit uses is set in the example environment file, and the graceful
    # timeout leaves time before systemd's SIGKILL.
    settings = dict(
        line.split("=", 1)
        for line in (DEPLOY / "fivedice.env").read_text().splitlines()
        if line and not line.startswith("#")
    )
    used = set(re.findall(r"\$\{(\w+)\}", " ".join(service["ExecStart"])))
    assert used and used <= set(settings)
    assert int(settings["FIVEDICE_GRACEFUL_TIMEOUT"]) + 5 < int(service["TimeoutStopSec"][0])


def test_haproxy_accepts_its_configuration_with_the_addresses_filled_in():
    haproxy = shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if os.path.exists("/usr/sbin/haproxy") else None
    )
    if haproxy is None:
        pytest.skip("haproxy is not installed (scripts/system-deps.sh installs it)")
    environment = {
        **os.environ,
        "FIVEDICE_LB_BIND": "127.0.0.1:18080",
        "FIVEDICE_WEB1": "10.77.0.11:8000",
        "FIVEDICE_WEB2": "10.77.0.12:8000",
        "FIVEDICE_WEB3": "10.77.0.13:8000",
    }
    checked = subprocess.run(
        [haproxy, "-c", "-f", str(DEPLOY / "haproxy.cfg")],
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "[WARNING]" not in checked.stdout + checked.stderr
    # Without the addresses it is refused: the variables are really read.
    unset = {k: v for k, v in environment.items() if k != "FIVEDICE_WEB2"}
    refused = subprocess.run(
        [haproxy, "-c", "-f", str(DEPLOY / "haproxy.cfg")],
        env=unset,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode != 0


def test_haproxy_checks_readiness_and_retries_only_what_is_safe_to_send_again():
    config = (DEPLOY / "haproxy.cfg").read_text()
    assert 'option httpchk GET "${FIVEDICE_HEALTH_PATH-/readyz}"' in config
    assert re.search(r"^\s*option forwardfor", config, re.M)
    retry_on = re.search(r"^\s*retry-on (.*)$", config, re.M)
    assert retry_on is not None
    # Never a timeout or a junk answer: a request that reached a worker and got no answer
    # in time may still be running there.
    assert set(retry_on.group(1).split()) == {"conn-failure", "empty-response", "503"}

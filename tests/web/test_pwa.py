"""The site is installable: a web manifest with icons, a service worker at the root (its
scope the whole site) that never keeps games or the API, and an offline page."""

from __future__ import annotations

import json
import re

import pytest
from PIL import Image

from tests.web.support import open_room


def test_pages_link_the_manifest_and_load_alive_js(client):
    page = client.get("/").text
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page
    assert '<script src="/static/alive.js" defer></script>' in page
    assert '<link rel="stylesheet" href="/seats.css">' in page


def test_the_manifest_is_served_as_a_manifest_with_a_name_a_start_and_icons(client):
    response = client.get("/static/manifest.webmanifest")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(response.text)
    assert manifest["name"] == "fivedice" and manifest["short_name"] == "fivedice"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])


def test_every_icon_of_the_manifest_is_a_png_of_its_stated_size(client, tmp_path):
    manifest = client.get("/static/manifest.webmanifest").json()
    for icon in manifest["icons"]:
        response = client.get(icon["src"])
        assert response.status_code == 200
        assert response.headers["content-type"] == "image/png"
        path = tmp_path / "icon.png"
        path.write_bytes(response.content)
        with Image.open(path) as image:
            assert f"{image.width}x{image.height}" == icon["sizes"]


def test_the_service_worker_is_served_from_the_root_as_javascript(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["service-worker-allowed"] == "/"
    assert "no-store" not in response.headers.get("cache-control", "")
    assert "set-cookie" not in response.headers  # a static file: no session for it


def kept_by_the_worker() -> tuple[str, list[str]]:
    """The service worker's script and the paths it keeps at install."""
    from fivedice.web.routers.alive import STATIC_DIR

    script = (STATIC_DIR / "sw.js").read_text()
    kept = re.search(r"const PRECACHED = \[(.*?)\];", script, re.S)
    assert kept is not None
    offline = re.search(r'const OFFLINE = "([^"]+)";', script)
    assert offline is not None
    return script, [offline.group(1), *re.findall(r'"([^"]+)"', kept.group(1))]


def test_the_service_worker_keeps_only_static_files_and_the_offline_page():
    script, paths = kept_by_the_worker()
    assert "/offline" in paths
    for path in paths:
        assert path in ("/offline", "/seats.css") or path.startswith("/static/"), path
    assert "/api" not in script and "/g/" not in script  # games and the API: never kept
    assert 'request.method !== "GET"' in script  # forms and moves always go to the network


def test_every_file_the_service_worker_keeps_is_served(client):
    _script, paths = kept_by_the_worker()
    for path in paths:
        assert client.get(path).status_code == 200, path


def test_the_offline_page_says_so_in_the_visitors_language(client):
    page = client.get("/offline")
    assert page.status_code == 200
    assert "You are offline" in page.text and 'id="try-again"' in page.text
    japanese = client.get("/offline", headers={"Accept-Language": "ja"}).text
    assert 'lang="ja"' in japanese and "You are offline" not in japanese


def test_the_pages_policy_lets_the_site_register_its_worker_and_manifest(client):
    policy = client.get("/").headers["content-security-policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy
    assert "script-src 'self';" in policy  # still no inline script


def test_the_seat_colours_are_a_stylesheet_of_the_one_palette(client):
    from fivedice.web.palette import SEAT_COLORS

    response = client.get("/seats.css")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/css")
    for seat, color in enumerate(SEAT_COLORS):
        assert f".chance-{seat}, .seat-{seat} {{ --seat: {color}; fill: {color};" in response.text


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_invitations_offer_copy_and_share_buttons(client):
    page = client.get(open_room(client)).text
    boxes = re.findall(r'<span class="invite-box">(.*?)</span></span>', page, re.S)
    assert boxes, "no invitation"
    for box in boxes:
        assert "data-invite" in box
        assert 'class="copy-link">Copy link</button>' in box
        assert 'class="share-link">Share</button>' in box

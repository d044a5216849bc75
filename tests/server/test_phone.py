"""The room on a phone (issue 28, item 8): installable (the web app manifest, its icons, the
service worker and what it keeps), the offline page in every language, and the self-voicing
setting kept like the other preferences (off by default, its rate within limits)."""

from __future__ import annotations

import html
import json
import re
import shutil
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from belote.i18n import LANGUAGES, translate
from belote.server import app_shell
from belote.server.app import create_app
from belote.server.settings import PlayerSettings, from_session
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import guest

REQUIRED = ("name", "short_name", "start_url", "scope", "display", "theme_color",
            "background_color", "icons")


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> object:
    return create_app(make_settings(tmp_path_factory.mktemp("phone")))


@pytest.fixture
def client(room: object) -> Iterator[TestClient]:
    with client_for(room) as c:  # a fresh client each: its own cookies
        yield c


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's header; fails on anything that is not a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", data[:16]
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def worker_list(source: str, name: str) -> object:
    """The JSON value of ``const NAME = ...;`` in the worker's source."""
    found = re.search(rf"^const {name} = (.+?);", source, re.M)
    assert found, f"no {name} in the worker"
    return json.loads(found.group(1))


# ---------------------------------------------------------------------- the manifest
def test_the_manifest_is_valid_json_with_the_required_fields_and_icons_of_their_sizes(
        client: TestClient) -> None:
    response = client.get("/manifest.webmanifest?lang=it")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(response.text)
    assert all(manifest.get(field) for field in REQUIRED), manifest
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/", "/", "standalone")
    assert manifest["lang"] == "it" and manifest["name"] == translate("it", "web.phone.app.name")
    for colour in (manifest["theme_color"], manifest["background_color"]):
        assert re.fullmatch(r"#[0-9a-f]{6}", colour)
    sizes = set()
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200 and image.headers["content-type"] == "image/png"
        width, height = png_size(image.content)
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
        sizes.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    # An unknown language: the reader's (the browser's first one the room speaks).
    french = client.get("/manifest.webmanifest?lang=xx", headers={"accept-language": "fr"})
    assert json.loads(french.text)["lang"] == "fr"


def test_every_page_links_the_manifest_the_icon_and_registers_the_worker(
        client: TestClient) -> None:
    page = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest?lang=en">' in page
    assert '<meta name="theme-color" content="#1d5e3a">' in page  # the light theme's felt
    assert '<script src="/static/install.js" defer></script>' in page
    assert '<link rel="icon" href="/static/icons/icon-192.png" type="image/png">' in page


# ---------------------------------------------------------------------- the service worker
def test_the_worker_is_served_at_the_root_uncached_and_keeps_only_files_that_exist(
        client: TestClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["service-worker-allowed"] == "/"
    assert response.headers["cache-control"] == "no-cache"
    source = response.text
    assert re.search(r'^const VERSION = "[0-9a-f]{16}";', source, re.M)
    shell = worker_list(source, "SHELL")
    assert isinstance(shell, list) and "/static/sala.css" in shell
    assert "/static/icons/icon-512.png" in shell and "/static/voice.js" in shell
    for path in shell:
        # The shell only: static files and the offline pages, never a page with a person's data.
        assert path.startswith(("/static/", "/offline/")), path
        assert client.get(path).status_code == 200, path
    assert worker_list(source, "OFFLINE") == {lang: f"/offline/{lang}" for lang in LANGUAGES}
    # Nothing but GET, and nothing of the socket or the forms: only pages and the shell.
    assert 'request.method !== "GET"' in source and 'request.mode === "navigate"' in source


def test_the_worker_s_version_follows_the_content_of_the_shell(tmp_path: Path) -> None:
    """A deploy that changes a static file changes /sw.js (a new cache); the same files
    give the same version (every process of one deploy agrees)."""
    first, second, changed = (tmp_path / n for n in ("a", "b", "c"))
    for folder in (first, second, changed):
        shutil.copytree(app_shell.STATIC, folder)
    (changed / "sala.css").write_text((changed / "sala.css").read_text() + "\n/* new */\n")
    versions = [app_shell.version(folder) for folder in (first, second, changed)]
    assert versions[0] == versions[1] != versions[2]
    assert app_shell.shell_files(first) == app_shell.shell_files()


# ---------------------------------------------------------------------- the offline page
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_offline_page_says_the_room_needs_a_connection_in_each_language(
        client: TestClient, lang: str) -> None:
    guest(client, "Zelda")
    client.post("/preferences", data={"lang": "it", "next": "/"})
    response = client.get(f"/offline/{lang}")
    assert response.status_code == 200
    page = html.unescape(response.text)
    assert f'<html lang="{lang}">' in page
    for key in ("web.phone.offline.heading", "web.phone.offline.text",
                "web.phone.offline.retry"):
        assert translate(lang, key) in page, key
    # The worker keeps it: it names nobody, and takes nothing of the session.
    assert "Zelda" not in page and "set-cookie" not in response.headers


def test_an_offline_page_in_a_language_the_room_does_not_speak_is_not_found(
        client: TestClient) -> None:
    assert client.get("/offline/de").status_code == 404


# ---------------------------------------------------------------------- self-voicing
def _settings(client: TestClient) -> dict[str, object]:
    found = re.search(r"data-settings='([^']*)'", client.get("/").text)
    assert found
    data: dict[str, object] = json.loads(html.unescape(found.group(1)))
    return data


def test_self_voicing_is_off_by_default_and_saved_like_the_other_preferences(
        client: TestClient) -> None:
    assert PlayerSettings().voice is False
    assert (_settings(client)["voice"], _settings(client)["voice_rate"]) == (False, 100)
    page = client.get("/").text
    assert 'id="pref-voice" name="voice" value="on" aria-describedby="pref-voice-help" >' in page
    assert translate("en", "web.phone.voice.help") in html.unescape(page)
    client.post("/preferences", data={"settings": "1", "pace": "1", "volume": "50",
                                      "speak": ["plays"], "voice": "on", "voice_rate": "150",
                                      "next": "/"})
    assert (_settings(client)["voice"], _settings(client)["voice_rate"]) == (True, 150)
    assert 'id="pref-voice" name="voice" value="on" aria-describedby="pref-voice-help" checked>' \
        in client.get("/").text
    for rate in ("210", "25", "130", "abc", ""):
        answer = client.post("/preferences", data={"settings": "1", "pace": "1",
                                                   "volume": "50", "voice_rate": rate},
                             headers={"Accept": "application/json"})
        assert answer.status_code == 400, rate
        assert answer.json()["error"] == translate("en", "error.web.bad_voice_rate")
        assert (_settings(client)["voice"], _settings(client)["voice_rate"]) == (True, 150)
    # Unticked, it is off again (the form without the box).
    client.post("/preferences", data={"settings": "1", "pace": "1", "volume": "50",
                                      "voice_rate": "75", "next": "/"})
    assert (_settings(client)["voice"], _settings(client)["voice_rate"]) == (False, 75)


def test_a_stored_voice_setting_no_longer_valid_reads_as_the_default() -> None:
    assert from_session({"voice": True, "voice_rate": 175}) == PlayerSettings(
        voice=True, voice_rate=175)
    assert from_session({"voice": "yes"}).voice is False  # only a real true
    assert from_session({"voice": True, "voice_rate": 999}) == PlayerSettings()

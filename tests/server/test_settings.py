"""Per-player table settings (pace, spoken categories, sound cues): kept for the device (a
guest's, a visitor's; tests/server/test_settings_places.py: the account's), limits enforced
by the server, bad input refused with a message and nothing changed."""

from __future__ import annotations

import html
import json
import re

from starlette.testclient import TestClient

from belote.server.settings import PACE_MAX, PlayerSettings, from_session
from tests.server.helpers import guest

GOOD = {"settings": "1", "pace": "1.5", "speak": ["bids", "scores"], "sounds": "on",
        "volume": "30", "theme": "dark", "deck": "four", "suits": "hcds", "trump_first": "on",
        "next": "/"}


def _page_settings(client: TestClient) -> dict[str, object]:
    text = client.get("/").text
    found = re.search(r"data-settings='([^']*)'", text)
    assert found, "the page carries the player's settings"
    data: dict[str, object] = json.loads(html.unescape(found.group(1)))
    return data


def test_settings_are_kept_on_the_device_and_given_to_the_page(client: TestClient) -> None:
    assert _page_settings(client)["speak"] == list(PlayerSettings().speak)
    client.post("/preferences", data=GOOD)
    assert _page_settings(client) == {"pace": 1.5, "speak": ["bids", "scores"],
                                      "sounds": True, "volume": 30, "theme": "dark",
                                      "deck": "four", "suits": "hcds", "trump_first": True,
                                      "voice": False, "voice_rate": 100}
    assert 'class="theme-dark deck-four"' in client.get("/").text
    guest(client, "Ada")  # signing in keeps them
    assert _page_settings(client)["pace"] == 1.5


def test_a_pace_out_of_limits_is_refused_and_changes_nothing(client: TestClient) -> None:
    client.post("/preferences", data=GOOD)
    for pace in (str(PACE_MAX + 0.5), "-1", "abc", "nan", "inf"):
        response = client.post("/preferences", data={**GOOD, "pace": pace, "lang": "it"},
                               follow_redirects=False)
        assert response.status_code == 303
        page = client.get("/").text
        assert "The pause must be a number of seconds from 0 to 3" in page, pace
        assert _page_settings(client)["pace"] == 1.5
        assert '<html lang="en">' in page  # the language did not change either


def test_an_unknown_category_or_volume_is_refused(client: TestClient) -> None:
    client.post("/preferences", data={**GOOD, "speak": ["plays", "gossip"]},
                follow_redirects=False)
    assert "Unknown announcement category" in client.get("/").text
    client.post("/preferences", data={**GOOD, "volume": "101"}, follow_redirects=False)
    assert "The volume must be from 0 to 100" in client.get("/").text
    client.post("/preferences", data={**GOOD, "theme": "neon"}, follow_redirects=False)
    assert "Unknown colour theme" in client.get("/").text
    assert _page_settings(client)["speak"] == list(PlayerSettings().speak)


def test_stored_settings_that_are_no_longer_valid_read_as_the_defaults() -> None:
    assert from_session({"pace": 99}) == PlayerSettings()
    assert from_session({"speak": "plays"}) == PlayerSettings()
    assert from_session(None) == PlayerSettings()


def test_the_v_keys_pace_change_loses_queued_announcements_the_table_page_saves_in_place(
        client: TestClient) -> None:
    """Review of issue 21: the table page saves its preferences with a fetch (no reload);
    the room answers JSON: the settings now in force and "saved", or why nothing changed."""
    json_only = {"Accept": "application/json"}
    answer = client.post("/preferences", data={**GOOD, "verbosity": "brief"},
                         headers=json_only, follow_redirects=False)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"settings": {"pace": 1.5, "speak": ["bids", "scores"],
                                          "sounds": True, "volume": 30, "theme": "dark",
                                          "deck": "four", "suits": "hcds",
                                          "trump_first": True, "voice": False,
                                          "voice_rate": 100},
                             "lang": "en", "verbosity": "brief", "saved": "Saved.",
                             "source": "device", "device_own": False,
                             "source_text": "Settings of this device."}
    assert _page_settings(client)["pace"] == 1.5  # kept on the device
    refused = client.post("/preferences", data={**GOOD, "pace": "9"}, headers=json_only,
                          follow_redirects=False)
    assert refused.status_code == 400
    assert refused.json()["error"].startswith("The pause must be a number of seconds from 0")
    assert _page_settings(client)["pace"] == 1.5
    # Without scripts (a plain form post) the page reloads, as before.
    assert client.post("/preferences", data=GOOD, follow_redirects=False).status_code == 303


def test_an_unknown_suit_order_is_refused_and_changes_nothing(client: TestClient) -> None:
    """The hand's order (issue 25): one of SUIT_ORDERS, or nothing changes."""
    client.post("/preferences", data=GOOD)
    for suits in ("hhhh", "", "HCDS", "shdc "):
        client.post("/preferences", data={**GOOD, "suits": suits, "trump_first": "",
                                          "pace": "0.5"}, follow_redirects=False)
        page = client.get("/").text
        assert "Unknown order of the suits: nothing was changed." in page, suits
        assert _page_settings(client)["suits"] == "hcds"
        assert _page_settings(client)["trump_first"] is True
        assert _page_settings(client)["pace"] == 1.5
    refused = client.post("/preferences", data={**GOOD, "suits": "xx", "lang": "it"},
                          headers={"Accept": "application/json"}, follow_redirects=False)
    assert refused.status_code == 400
    assert refused.json()["error"] == "Unknown order of the suits: nothing was changed."
    client.post("/preferences", data={**GOOD, "suits": "shdc", "trump_first": ""})
    assert (_page_settings(client)["suits"], _page_settings(client)["trump_first"]) == (
        "shdc", False)
    client.post("/preferences", data={k: v for k, v in GOOD.items()
                                      if k not in ("suits", "trump_first")})
    assert (_page_settings(client)["suits"], _page_settings(client)["trump_first"]) == (
        "hdcs", False)  # a form without them (an older page): the defaults


def test_the_preferences_form_offers_the_hand_order_in_every_language(
        client: TestClient) -> None:
    for lang, words in (("en", "hearts, clubs, diamonds, spades"),
                        ("it", "cuori, fiori, quadri, picche"),
                        ("es", "corazones, tréboles, diamantes, picas"),
                        ("fr", "cœur, trèfle, carreau, pique")):
        client.post("/preferences", data={"lang": lang, "next": "/"})
        page = html.unescape(client.get("/").text)
        assert 'id="pref-suits" name="suits"' in page and 'name="trump_first"' in page
        assert words in page, lang


def test_a_stored_suit_order_no_longer_valid_reads_as_the_default() -> None:
    assert from_session({"suits": "nope"}) == PlayerSettings()
    assert from_session({"suits": "shdc", "trump_first": True}) == PlayerSettings(
        suits="shdc", trump_first=True)
    assert from_session({"trump_first": "yes"}).trump_first is False  # only a real true

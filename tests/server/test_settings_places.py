"""Where the settings are kept (issue 25, item 7): with the account (every device), on one
device (its own, or a guest's), and which apply: the device's own, then the account's, then
what the device last used, then the defaults.  Each "device" here is a cookie jar."""

from __future__ import annotations

import base64
import html
import json
import re
import time
from typing import Any
from unittest import mock

from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from starlette.testclient import TestClient

from belote.server.settings import (
    FORMAT,
    PlayerSettings,
    Preferences,
    defaults,
    in_force,
    preferences_from_data,
)
from belote.server.settings_sources import COOKIE, MAX_COOKIE
from tests.server.helpers import create_table, read_store, sit_with_bots, until
from tests.server.test_accounts import Devices

GOOD = {"settings": "1", "pace": "1.5", "speak": ["bids", "scores"], "sounds": "on",
        "volume": "30", "theme": "dark", "deck": "four", "suits": "hcds", "trump_first": "on",
        "verbosity": "brief", "lang": "en", "next": "/"}
PHONE = {**GOOD, "pace": "3", "theme": "contrast", "speak": ["plays"], "suits": "shdc"}
JSON = {"Accept": "application/json"}
DAY = 24 * 3600


def page(devices: Devices, who: str) -> tuple[dict[str, Any], str, str]:
    """(the table settings, the verbosity chosen, where they come from) as ``who``'s page
    shows them."""
    text = html.unescape(devices(who, "get", "/").text)
    found = re.search(r"data-settings='([^']*)'", text)
    source = re.search(r'<span id="pref-source">([^<]*)</span>', text)
    verbosity = re.search(r'<option value="(\w+)" selected>', text[text.find("pref-verbosity"):])
    assert found and source and verbosity, "the page carries the settings and their source"
    return json.loads(found.group(1)), verbosity.group(1), source.group(1)


def set_cookie(devices: Devices, who: str, name: str, value: str | None) -> None:
    """Change ``who``'s cookie jar (None: drop the cookie), as a browser's user or an
    attacker could."""
    jar = devices.use(who).cookies
    if value is None:
        jar.delete(name)
    else:
        jar.set(name, value, domain="testserver.local")
    devices._jars[who] = jar


def save(devices: Devices, who: str, form: dict[str, Any], **kw: Any) -> Any:
    return devices(who, "post", "/preferences", data=form, follow_redirects=False, **kw)


def account_row(client: TestClient, account: int = 1) -> Any:
    return read_store(client.app, lambda s: s.account_settings(account))


# ---------------------------------------------------------------------- which apply
def test_the_devices_own_settings_come_before_the_accounts_before_the_devices_last() -> None:
    phone = Preferences("it", "brief", PlayerSettings(pace=3.0, theme="contrast"))
    account = Preferences("fr", "normal", PlayerSettings(pace=1.0))
    last = Preferences("es", "brief", PlayerSettings(pace=0.5))
    assert in_force(phone, True, account) == (phone, "device")
    assert in_force(last, False, account) == (account, "account")  # signing in: the account's
    assert in_force(last, False, None) == (last, "device")  # a guest, a visitor
    assert in_force(None, False, account) == (account, "account")
    assert in_force(None, False, None, 0.5) == (defaults(0.5), "defaults")
    assert defaults(0.5).table.pace == 0.5 and defaults().lang is None


def test_stored_preferences_of_another_release_or_no_longer_valid_read_as_defaults() -> None:
    chosen = Preferences("it", "brief", PlayerSettings(pace=1.5, suits="shdc"))
    assert preferences_from_data(json.loads(json.dumps(chosen.to_data()))) == chosen
    assert preferences_from_data({**chosen.to_data(), "v": FORMAT + 1}) is None
    assert preferences_from_data({"lang": "it"}) is None  # no version: not ours
    strays: tuple[object, ...] = (None, [], "it", 3)
    for data in strays:
        assert preferences_from_data(data) is None
    odd = preferences_from_data({"v": FORMAT, "lang": "xx", "verbosity": "loud",
                                 "table": {"pace": 99}}, 0.25)
    assert odd == Preferences(None, "normal", PlayerSettings(pace=0.25))


# ---------------------------------------------------------------------- the account's
def test_settings_saved_for_the_account_come_back_on_another_device_after_signing_in(
        client: TestClient) -> None:
    devices = Devices(client)
    devices.register("laptop", "Ada")
    assert page(devices, "laptop")[2] == "Default settings."
    assert 'id="pref-where-account" name="where" value="account" checked' in devices(
        "laptop", "get", "/").text  # an account holder saves for the account unless told
    save(devices, "laptop", GOOD)
    assert page(devices, "laptop") == (
        {"pace": 1.5, "speak": ["bids", "scores"], "sounds": True, "volume": 30,
         "theme": "dark", "deck": "four", "suits": "hcds", "trump_first": True,
         "voice": False, "voice_rate": 100},
        "brief", "Settings of your account.")
    assert account_row(client)["table"]["pace"] == 1.5
    # Another device: the defaults until it signs in, then the account's.
    assert page(devices, "phone")[0]["pace"] == 0.0
    assert page(devices, "phone")[2] == "Default settings."
    devices.login("phone", "Ada")
    assert page(devices, "phone") == page(devices, "laptop")
    # The room's socket speaks them too (the hand's order, from the account's settings).
    save(devices, "laptop", {**GOOD, "suits": "shdc"})
    devices("phone", "post", "/logout", data={}, follow_redirects=False)
    devices.login("phone", "Ada")  # the account's cache is this process's: no wait
    table_id = create_table(devices.use("phone"))
    with devices.connect("phone", table_id) as ws:
        sit_with_bots(ws)
        frame = until(ws, lambda f: f["t"] in ("sync", "update") and len(
            f["d"]["view"].get("hand") or []) >= 5)
    suits = [c["suit"] for c in frame["d"]["view"]["hand"]]
    assert suits == sorted(suits, key=[3, 0, 1, 2].index), suits


def test_a_device_only_setting_stays_on_its_device_until_it_uses_the_accounts_again(
        client: TestClient) -> None:
    devices = Devices(client)
    devices.register("laptop", "Ada")
    save(devices, "laptop", GOOD)
    devices.login("phone", "Ada")
    assert 'id="pref-forget" name="device" value="forget" hidden' in devices(
        "phone", "get", "/").text  # nothing of its own to forget yet
    answer = save(devices, "phone", {**PHONE, "where": "device"}, headers=JSON)
    assert answer.json()["source_text"] == "Settings of this device."
    assert answer.json()["device_own"] is True
    phone = page(devices, "phone")
    assert (phone[0]["pace"], phone[0]["theme"], phone[2]) == (
        3.0, "contrast", "Settings of this device.")
    text = devices("phone", "get", "/").text
    assert 'id="pref-where-device" name="where" value="device" checked' in text
    assert 'id="pref-forget" name="device" value="forget" >' in text
    # The account and the other device are untouched.
    assert account_row(client)["table"]["pace"] == 1.5
    assert page(devices, "laptop")[0]["pace"] == 1.5
    # The account's settings changed elsewhere: the phone keeps its own.
    save(devices, "laptop", {**GOOD, "pace": "0.5"})
    assert page(devices, "phone")[0]["pace"] == 3.0
    # "Use my account's settings here": the phone follows the account again.
    forgotten = save(devices, "phone", {**PHONE, "device": "forget"})
    assert forgotten.status_code == 303
    assert page(devices, "phone")[0]["pace"] == 0.5
    assert page(devices, "phone")[2] == "Settings of your account."
    assert account_row(client)["table"]["theme"] == "dark"  # the phone's did not go there


def test_saving_for_the_account_on_a_device_with_its_own_settings_makes_it_follow_the_account(
        client: TestClient) -> None:
    devices = Devices(client)
    devices.register("phone", "Ada")
    save(devices, "phone", {**PHONE, "where": "device"})
    save(devices, "phone", {**GOOD, "where": "account"})
    assert page(devices, "phone")[2] == "Settings of your account."
    save(devices, "phone", {**GOOD, "pace": "2.5"})  # no choice on the form: the account
    assert account_row(client)["table"]["pace"] == 2.5


# ---------------------------------------------------------------------- guests, signing in
def test_a_guests_settings_survive_a_new_session_on_the_same_device(
        client: TestClient) -> None:
    devices = Devices(client)
    devices.guest_as("tablet", "Ada")
    save(devices, "tablet", {**PHONE, "lang": "it"})
    assert page(devices, "tablet")[2] == "Impostazioni di questo dispositivo."
    assert "pref-where" not in devices("tablet", "get", "/").text  # a guest: this device
    devices("tablet", "post", "/logout", data={}, follow_redirects=False)
    set_cookie(devices, "tablet", "sala", None)  # the session cookie gone too
    devices.guest_as("tablet", "Bea")
    shown = page(devices, "tablet")
    assert (shown[0]["pace"], shown[0]["theme"], shown[2]) == (
        3.0, "contrast", "Impostazioni di questo dispositivo.")
    assert '<html lang="it">' in devices("tablet", "get", "/").text
    assert page(devices, "stranger")[0]["pace"] == 0.0  # another device: the defaults


def test_signing_in_merges_nothing_the_accounts_settings_apply_and_stay_after_signing_out(
        client: TestClient) -> None:
    devices = Devices(client)
    devices.register("laptop", "Ada")
    save(devices, "laptop", GOOD)
    devices.guest_as("cafe", "Bea")
    save(devices, "cafe", {**PHONE, "lang": "fr"})  # a guest's: this device's
    devices("cafe", "post", "/logout", data={}, follow_redirects=False)
    devices.login("cafe", "Ada")
    shown = page(devices, "cafe")
    assert (shown[0]["pace"], shown[0]["theme"], shown[2]) == (
        1.5, "dark", "Settings of your account.")
    assert account_row(client)["lang"] == "en"  # nothing of the guest's went there
    # Signing out keeps the page as it was (the account's, kept on the device).
    devices("cafe", "post", "/logout", data={}, follow_redirects=False)
    shown = page(devices, "cafe")
    assert (shown[0]["pace"], shown[2]) == (1.5, "Settings of this device.")
    # A new account on a device with a guest's settings: they stay the device's; the
    # account holds nothing until it saves.
    devices.guest_as("kiosk", "Cleo")
    save(devices, "kiosk", PHONE)
    devices("kiosk", "post", "/logout", data={}, follow_redirects=False)
    devices.register("kiosk", "Dora")
    assert page(devices, "kiosk")[0]["pace"] == 3.0
    assert page(devices, "kiosk")[2] == "Settings of this device."
    assert account_row(client, 2) is None


# ---------------------------------------------------------------------- refusals
def test_bad_values_are_refused_in_words_and_change_nothing_anywhere(
        client: TestClient) -> None:
    devices = Devices(client)
    devices.register("laptop", "Ada")
    save(devices, "laptop", GOOD)
    save(devices, "laptop", {**PHONE, "where": "device"})
    before = (account_row(client), page(devices, "laptop"),
              devices.use("laptop").cookies.get(COOKIE))
    for form, words in (({**GOOD, "pace": "9", "where": "account"}, "The pause must be"),
                        ({**GOOD, "pace": "9", "where": "device"}, "The pause must be"),
                        ({**GOOD, "theme": "neon"}, "Unknown colour theme"),
                        ({**GOOD, "where": "cloud"}, "Unknown place to keep the settings")):
        refused = save(devices, "laptop", {**form, "lang": "it"}, headers=JSON)
        assert refused.status_code == 400 and words in refused.json()["error"], form
        save(devices, "laptop", form)
        assert words in devices("laptop", "get", "/").text, form
        assert (account_row(client), page(devices, "laptop"),
                devices.use("laptop").cookies.get(COOKIE)) == before, form
    # A guest cannot save for an account (a page from before signing out, say).
    devices.guest_as("tablet", "Bea")
    refused = save(devices, "tablet", {**GOOD, "where": "account"}, headers=JSON)
    assert refused.status_code == 400
    assert refused.json()["error"] == ("Sign in to an account to save settings for every "
                                       "device: nothing was changed.")
    assert page(devices, "tablet")[2] == "Default settings."
    assert devices.use("tablet").cookies.get(COOKIE) is None


# ---------------------------------------------------------------------- the device's cookie
def _signed(client: TestClient, data: object, key: str | None = None) -> str:
    secret = key or client.app.state.room.secret  # type: ignore[attr-defined]
    return str(URLSafeTimedSerializer(secret, salt="sala-device-settings").dumps(data))


def test_a_tampered_or_outdated_device_cookie_reads_as_none_never_an_error_page(
        client: TestClient) -> None:
    devices = Devices(client)
    save(devices, "phone", PHONE)
    good = devices.use("phone").cookies.get(COOKIE)
    assert good and len(good) < 600  # bounded: known keys, checked values
    current = {**Preferences(table=PlayerSettings(pace=3.0)).to_data(), "own": False}
    for value in (good[:-3] + ("abc" if not good.endswith("abc") else "xyz"),  # tampered
                  "not-a-cookie", good + "." + "A" * MAX_COOKIE,
                  _signed(client, current, key="another room's key"),
                  _signed(client, {**current, "v": FORMAT + 1}),  # another release's
                  _signed(client, [1, 2, 3])):
        set_cookie(devices, "visitor", COOKIE, value)
        assert devices("visitor", "get", "/").status_code == 200, value
        settings, _, source = page(devices, "visitor")
        assert (settings["pace"], source) == (0.0, "Default settings."), value
    # Ours, with a value no longer valid: that one reads as its default, the rest stays.
    set_cookie(devices, "visitor", COOKIE, _signed(client, {**current, "lang": "<b>"}))
    response = devices("visitor", "get", "/")
    assert '<html lang="en">' in response.text and page(devices, "visitor")[0]["pace"] == 3.0
    # A signed-in account with a tampered cookie: the account's settings apply.
    devices.register("laptop", "Ada")
    save(devices, "laptop", GOOD)
    set_cookie(devices, "laptop", COOKIE, "tampered")
    assert page(devices, "laptop")[2] == "Settings of your account."


def test_the_settings_a_browser_kept_in_its_session_before_move_to_the_device(
        client: TestClient) -> None:
    """The release before kept them in the session cookie: read once as the device's (not
    its own), moved to the device's cookie, and gone from the session."""
    secret = client.app.state.room.secret  # type: ignore[attr-defined]
    old = {"lang": "es", "verbosity": "brief", "settings": {"pace": 2.5, "theme": "dark"}}
    cookie = TimestampSigner(secret).sign(base64.b64encode(json.dumps(old).encode()))
    devices = Devices(client)
    set_cookie(devices, "old", "sala", cookie.decode())
    shown = page(devices, "old")
    assert (shown[0]["pace"], shown[0]["theme"], shown[1], shown[2]) == (
        2.5, "dark", "brief", "Ajustes de este dispositivo.")
    assert devices.use("old").cookies.get(COOKIE)
    set_cookie(devices, "old", "sala", None)  # the session cookie alone is gone: they stay
    assert page(devices, "old")[0]["pace"] == 2.5


def test_the_device_cookie_is_signed_again_after_a_week_and_read_no_more_after_400_days(
        client: TestClient) -> None:
    """Browsers keep a cookie 400 days at most: a player who comes now and then keeps their
    settings because a page signs the cookie again once it is a week old."""
    current = {**Preferences(table=PlayerSettings(pace=2.5)).to_data(), "own": False}
    devices = Devices(client)
    for days, kept, signed_again in ((1, True, False), (8, True, True), (401, False, False)):
        with mock.patch("itsdangerous.timed.time.time", return_value=time.time() - days * DAY):
            value = _signed(client, current)
        set_cookie(devices, "tablet", COOKIE, value)
        response = devices("tablet", "get", "/")
        fresh = [v for v in response.headers.get_list("set-cookie")
                 if v.startswith(f"{COOKIE}=")]
        assert bool(fresh) is signed_again, days
        assert (page(devices, "tablet")[0]["pace"] == 2.5) is kept, days

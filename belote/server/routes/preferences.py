"""Preferences: language, verbosity and the table settings (pace, speech, sounds, theme,
deck, the hand's order), kept for this device (a signed cookie) or with the account (its
row): :mod:`belote.server.settings_sources` says which apply.

The form's ``where`` says where a save goes: ``device`` (this device only) or ``account``
(every device of the account without settings of its own; this one then follows the
account).  Without it, a save goes where the settings in force come from.  The button
``device=forget`` drops this device's own settings: the account's apply here again.
"""

from __future__ import annotations

import json

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from belote.i18n import LANGUAGES, translate
from belote.i18n.announce import VERBOSITIES
from belote.server.routes.common import back, language, local_target, read_form
from belote.server.settings import (
    DEFAULT_SUITS,
    PlayerSettings,
    Preferences,
    SettingsError,
    from_form,
    in_force,
)
from belote.server.settings_sources import InForce, settings_of
from belote.server.shared import shared

PLACES = ("device", "account")  # where the form may ask to keep the settings


def _chosen(data: FormData) -> PlayerSettings:
    """The table settings on the form; raises ``SettingsError`` for a value out of range."""
    return from_form(str(data.get("pace", "0")), [str(c) for c in data.getlist("speak")],
                     str(data.get("sounds")) if data.get("sounds") else None,
                     str(data.get("volume", "50")), str(data.get("theme", "light")),
                     str(data.get("deck", "two")), str(data.get("suits", DEFAULT_SUITS)),
                     str(data.get("trump_first")) if data.get("trump_first") else None,
                     str(data.get("voice")) if data.get("voice") else None,
                     str(data.get("voice_rate", "100")))


def _saved(request: Request, found: InForce) -> Response:
    """What the table page is told once it saved in place: the preferences now in force,
    and where they come from (the form says it)."""
    lang = found.prefs.lang or language(request)
    return JSONResponse({
        "settings": json.loads(found.prefs.table.to_json()), "lang": lang,
        "verbosity": found.prefs.verbosity, "saved": translate(lang, "web.js.prefs_saved"),
        "source": found.source, "device_own": found.device_own,
        "source_text": translate(lang, f"web.prefs.source.{found.source}")})


def _refused(request: Request, data: FormData, in_place: bool, code: str) -> Response:
    """Nothing changes; the player is told why (``error.web.{code}``)."""
    if in_place:
        return JSONResponse({"error": translate(language(request), f"error.web.{code}")}, 400)
    return back(request, local_target(data), code)


async def _forget_device(request: Request, data: FormData, in_place: bool) -> Response:
    """This device's own settings dropped: the account's (or the defaults) apply here."""
    found, sources = settings_of(request), shared(request).saved_settings
    account = None if found.account is None else await sources.account(found.account)
    prefs, source = in_force(None, False, account, sources.default_pace)
    now = InForce(prefs, source, False, found.account)
    response = _saved(request, now) if in_place else back(request, local_target(data))
    return sources.forget_device(response)


async def preferences(request: Request) -> Response:
    data = await read_form(request)
    # The table page saves in place (fetch, ``Accept: application/json``): no reload, so
    # the moves waiting for its pace and the moves it holds are kept (docs/room.md).
    in_place = "application/json" in request.headers.get("accept", "")
    if data.get("device") == "forget":
        return await _forget_device(request, data, in_place)
    found, sources = settings_of(request), shared(request).saved_settings
    where = str(data.get("where") or found.place)
    if where not in PLACES:
        return _refused(request, data, in_place, "bad_settings_place")
    if where == "account" and found.account is None:  # a page from before signing out
        return _refused(request, data, in_place, "settings_need_account")
    table = found.prefs.table
    if data.get("settings") == "1":  # the table settings were on the form
        try:
            table = _chosen(data)
        except SettingsError as error:  # nothing changes, the player is told why
            return _refused(request, data, in_place, error.code)
    lang, verbosity = data.get("lang"), data.get("verbosity")
    prefs = Preferences(lang if lang in LANGUAGES else found.prefs.lang,
                        verbosity if verbosity in VERBOSITIES else found.prefs.verbosity,
                        table)
    if where == "account":
        assert found.account is not None
        await sources.save_account(found.account, prefs)
        now = InForce(prefs, "account", False, found.account)
    else:  # an account holder's device settings are its own; a guest's are the device's
        now = InForce(prefs, "device", found.account is not None, found.account)
    response = _saved(request, now) if in_place else back(request, local_target(data))
    # Saved for the account, the device keeps a copy (not its own: the account's apply
    # while signed in), so that signing out keeps the page as it is, as it did before.
    return sources.keep_on_device(response, prefs, now.device_own)


routes = [Route("/preferences", preferences, methods=["POST"])]

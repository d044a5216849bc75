"""Preferences: language, verbosity and the table settings (pace, speech, sounds, theme,
deck, the hand's order), kept in the session cookie."""

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
    SettingsError,
    from_form,
    from_session,
)
from belote.server.shared import shared


def _chosen(data: FormData) -> PlayerSettings:
    """The table settings on the form; raises ``SettingsError`` for a value out of range."""
    return from_form(str(data.get("pace", "0")), [str(c) for c in data.getlist("speak")],
                     str(data.get("sounds")) if data.get("sounds") else None,
                     str(data.get("volume", "50")), str(data.get("theme", "light")),
                     str(data.get("deck", "two")), str(data.get("suits", DEFAULT_SUITS)),
                     str(data.get("trump_first")) if data.get("trump_first") else None)


def _saved(request: Request) -> Response:
    """What the table page is told once it saved in place: the preferences now in force."""
    default_pace = shared(request).settings.default_pace
    return JSONResponse({
        "settings": json.loads(from_session(request.session.get("settings"),
                                            default_pace).to_json()),
        "lang": language(request),
        "verbosity": request.session.get("verbosity", "normal"),
        "saved": translate(language(request), "web.js.prefs_saved")})


async def preferences(request: Request) -> Response:
    data = await read_form(request)
    lang, verbosity = data.get("lang"), data.get("verbosity")
    # The table page saves in place (fetch, ``Accept: application/json``): no reload, so
    # the moves waiting for its pace and the moves it holds are kept (docs/room.md).
    in_place = "application/json" in request.headers.get("accept", "")
    if data.get("settings") == "1":  # the table settings were on the form
        try:
            chosen = _chosen(data)
        except SettingsError as error:  # nothing changes, the player is told why
            if in_place:
                return JSONResponse({"error": translate(language(request),
                                                        f"error.web.{error.code}")}, 400)
            return back(request, local_target(data), error.code)
        request.session["settings"] = chosen.to_session()
    if lang in LANGUAGES:
        request.session["lang"] = lang
    if verbosity in VERBOSITIES:
        request.session["verbosity"] = verbosity
    if in_place:
        return _saved(request)
    return back(request, local_target(data))


routes = [Route("/preferences", preferences, methods=["POST"])]

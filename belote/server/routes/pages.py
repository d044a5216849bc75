"""Pages: the templates, what every page is given (one context processor), and the pages
that say no (a refusal, an error).

Pages are rendered on the server (Jinja2) and work without scripts for the lobby; a
handler passes only what its own page shows, :func:`page_context` adds the rest.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.templating import Jinja2Templates

from belote.i18n import LANGUAGES, translate
from belote.i18n.announce import VERBOSITIES
from belote.i18n.plural import count_text
from belote.server.app_shell import THEME_COLOURS
from belote.server.levels import seats_at
from belote.server.limits import Refusal
from belote.server.routes.common import account, identity, language
from belote.server.seats import level_label
from belote.server.settings import (
    CATEGORIES,
    DECKS,
    PACE_MAX,
    SUIT_ORDERS,
    THEMES,
    VOICE_RATE_MAX,
    VOICE_RATE_MIN,
    VOICE_RATE_STEP,
)
from belote.server.settings_sources import settings_of
from belote.server.shared import shared

# What an HTTP error says, by status (a limit's refusal names its own message).
ERROR_KEYS = {400: "limits.bad_form", 401: "error.web.sign_in", 403: "error.web.forbidden",
              404: "error.web.not_found"}
JSON_PATHS = ("/analysis", ".json")  # answers read by scripts or saved as files: JSON errors


def page_context(request: Request) -> dict[str, Any]:
    """What every page gets: its reader's language and words (``count_text``: a message
    that counts, in the count's plural form), who is signed in, their preferences, the
    message the previous form left (shown once), the choices the settings form offers, and
    where the settings in force come from (the device, the account, the defaults)."""
    lang = language(request)
    prefs = settings_of(request)

    def t(key: str, **kw: Any) -> str:
        return translate(lang, key, **kw)

    who = identity(request)
    return {
        "t": t, "level_label": lambda level: level_label(lang, level), "lang": lang,
        "seats_at": seats_at,
        "count_text": lambda key, count, **kw: count_text(lang, key, count, **kw),
        "languages": LANGUAGES, "me": who[1] if who else None, "account": account(request),
        "verbosity": prefs.prefs.verbosity, "verbosities": VERBOSITIES,
        "path": request.url.path, "flash": _flash(request, lang),
        "settings": prefs.prefs.table, "settings_source": prefs.source,
        "settings_place": prefs.place, "device_own": prefs.device_own,
        "categories": CATEGORIES, "pace_max": PACE_MAX, "themes": THEMES, "decks": DECKS,
        "suit_orders": tuple(SUIT_ORDERS),
        "voice_rates": (VOICE_RATE_MIN, VOICE_RATE_MAX, VOICE_RATE_STEP),
        "theme_colour": THEME_COLOURS.get(prefs.prefs.table.theme, THEME_COLOURS["light"]),
    }


def _flash(request: Request, lang: str) -> str | None:
    """The message a form left for the next page (taken: it is shown once)."""
    flash = request.session.pop("flash", None)
    detail = request.session.pop("flash_detail", None)
    if flash and detail:
        return translate(lang, "error.web.bad_rules_detail", detail=detail)
    return translate(lang, f"error.web.{flash}") if flash else None


@functools.cache
def _environment(directory: Path) -> Environment:
    """One Jinja2 environment per folder of templates, shared by every app of the process.

    Its cache holds each page compiled once: a process serves one app, but the tests make
    hundreds, and each compiling every page again took a quarter of a server test's time.
    Nothing per app lives in it (the context processor is the app's ``Jinja2Templates``'s;
    the ``url_for`` it adds reads the request); Jinja still reloads a page whose file
    changed (``auto_reload``, the default), as before."""
    return Environment(loader=FileSystemLoader(directory), autoescape=select_autoescape(["html"]))


def make_templates(directory: Path) -> Jinja2Templates:
    return Jinja2Templates(env=_environment(directory), context_processors=[page_context])


def render(request: Request, template: str, status: int = 200, **values: Any) -> Response:
    """``template`` with ``values`` and what every page gets (:func:`page_context`)."""
    return shared(request).templates.TemplateResponse(request, template, values,
                                                        status_code=status)


def error_page(request: Request, status: int, key: str) -> Response:
    """The error page saying message ``key``, in the reader's language."""
    return render(request, "error.html", status=status,
                  message=translate(language(request), key))


def refused(request: Request, template: str, status: int, code: str,
            **values: Any) -> Response:
    """``template`` again, saying why the form was refused (``error.web.{code}``)."""
    text = translate(language(request), f"error.web.{code}")
    return render(request, template, status=status, error=text, message=text, **values)


async def http_error(request: Request, exc: Exception) -> Response:
    """Any HTTPException as a page (JSON for the JSON paths), with its headers kept."""
    status = getattr(exc, "status_code", 500)
    headers = getattr(exc, "headers", None)
    # A limit's refusal says what it was, and when to come back (Retry-After).
    key = exc.key if isinstance(exc, Refusal) else ERROR_KEYS.get(status, "error.web.server")
    message = translate(language(request), key)
    if request.url.path.endswith(JSON_PATHS):
        return JSONResponse({"error": message}, status_code=status, headers=headers)
    response = render(request, "error.html", status=status, message=message)
    response.headers.update(headers or {})
    return response


__all__ = ["error_page", "http_error", "make_templates", "page_context", "refused", "render"]

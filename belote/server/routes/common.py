"""What every handler needs of a request: who asks, in which language, from where, and the
form of a POST from this site (with its limits); and the answers shared by every page.

The session cookie is signed and holds the id of a session kept on the server
(:mod:`belote.server.auth.sessions`); the language is one of the preferences in force
(:mod:`belote.server.settings_sources`).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from urllib.parse import urlsplit

from starlette.convertors import Convertor, register_url_convertor
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import RedirectResponse, Response

from belote.i18n import LANGUAGES
from belote.server.auth.sessions import SCOPE_KEY, public_id
from belote.server.limits import Refusal, count_fields
from belote.server.persistence import SessionRow
from belote.server.settings_sources import settings_of
from belote.server.shared import shared

log = logging.getLogger(__name__)


class IdConvertor(Convertor[int]):
    """A table id in a path: at most nine digits, so that a huge number is a plain 404 (no
    overflow in the database driver)."""

    regex = "[0-9]{1,9}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("id", IdConvertor())  # before any route names ``{...:id}``

ID_DIGITS = 9  # as IdConvertor: a longer number is no id of ours, never a driver overflow


def form_id(value: object) -> int | None:
    """A positive id (a table, an account, a report...) from a form field or a query
    parameter, else None: absent, empty, malformed, 0 (database ids start at 1) or longer
    than nine digits.  ASCII digits only: ``str.isdigit`` also accepts "²", which
    ``int`` refuses."""
    text = str(value or "").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > ID_DIGITS:
        return None
    number = int(text)
    return number if number > 0 else None


def language(conn: HTTPConnection) -> str:
    """The language chosen (the preferences in force), else the browser's first one we
    speak."""
    lang = settings_of(conn).prefs.lang
    if lang in LANGUAGES:
        return str(lang)
    header = conn.headers.get("accept-language", "")
    for part in header.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


def session(conn: HTTPConnection) -> SessionRow | None:
    """The connection's live server session (see ``ServerSessions``), or None."""
    row = conn.scope.get(SCOPE_KEY)
    return row if isinstance(row, SessionRow) else None


def identity(conn: HTTPConnection) -> tuple[str, str] | None:
    """(public id, name) of the signed-in person: the public id owns seats at tables."""
    row = session(conn)
    return None if row is None else (public_id(row.id), row.name)


def account(conn: HTTPConnection) -> int | None:
    """The signed-in person's account (None: a guest, or nobody signed in)."""
    row = session(conn)
    return None if row is None else row.account


def address(conn: HTTPConnection) -> str:
    # The peer's address; uvicorn replaces it with X-Forwarded-For only for the proxies
    # named by --forwarded-allow-ips.
    return conn.client.host if conn.client else "unknown"


def same_origin(conn: HTTPConnection) -> bool:
    """Whether a form or a WebSocket comes from a page of this site (or an allowed origin)."""
    origin = conn.headers.get("origin")
    if origin is None:
        return bool(conn.scope["type"] == "http")  # browsers always send Origin on WebSockets
    if origin in shared(conn).settings.allowed_origins:
        return True
    return urlsplit(origin).netloc == conn.headers.get("host", "")


async def read_form(request: Request) -> FormData:
    """The form of a POST from this site.  Its body is capped (BodyLimit: 413) and its
    fields are counted as sent, empty ones too (400), before the form parser sees it:
    what is parsed costs the event loop a few milliseconds at most."""
    if not same_origin(request):
        raise HTTPException(403, "cross-origin form")
    state = shared(request)
    limit = state.settings.max_form_fields
    body = await request.body()
    if count_fields(body, request.headers.get("content-type", "")) > limit:
        log.warning("form refused: more than %d fields to %s from %s",
                    limit, request.url.path, address(request))
        state.refused["too_many_fields"] += 1
        raise Refusal(400, "limits.too_many_fields")
    return await request.form(max_files=0, max_fields=limit,
                              max_part_size=state.settings.max_body_bytes)


def local_target(data: FormData) -> str:
    """The form's ``next`` page, if it is a page of this site (never another host)."""
    target = str(data.get("next", "/"))
    return target if target.startswith("/") and not target.startswith("//") else "/"


def back(request: Request, to: str, error: str | None = None) -> Response:
    """See ``to`` (303), with the ``error.web.*`` message ``error`` shown there once."""
    if error:
        request.session["flash"] = error
    return RedirectResponse(to, status_code=303)


def signed_in(request: Request) -> tuple[str, str]:
    """(public id, name) of the signed-in person; nobody signed in: 401."""
    found = identity(request)
    if found is None:
        raise HTTPException(401)
    return found


def own_account(request: Request) -> SessionRow:
    """The session of a signed-in account (not a guest); otherwise 401."""
    current = session(request)
    if current is None or current.account is None:
        raise HTTPException(401)
    return current


def when(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


__all__ = ["IdConvertor", "account", "address", "back", "form_id", "identity", "language",
           "local_target", "own_account", "read_form", "same_origin", "session",
           "signed_in", "when"]

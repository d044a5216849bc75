"""Help and report: the page (and the dialog that F4 opens on every page) with the keys and
the report form, the report itself, and the warnings a person is told at the next page load.

A report names its person by account id, chosen among the people the server saw where it
was made: the seats and the chat of a table (its log), or a profile.  The choices offered are
the server's, and a report naming anyone else there is refused.  A table's people are
offered, by name and seat only, to those who were at it; a report from anyone else is
refused: a report is never a way to read a table's chat or who sat there.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from belote.i18n import seat_name, translate
from belote.server.keys import help_rows
from belote.server.moderation.service import REASONS, TEXT_MAX, ModerationError, sanction_text
from belote.server.routes.access import may_replay
from belote.server.routes.common import (
    account,
    form_id,
    identity,
    language,
    own_account,
    read_form,
)
from belote.server.routes.pages import render
from belote.server.shared import shared

log = logging.getLogger(__name__)

# Looks at a table's or a profile's people (each reads the table's log) one account may take:
# a burst, then an hour's worth (in the database: the same in every process).  F4 on a
# table is a few a game; past this, help still opens, without the list.
PEOPLE_BURST = 30
PEOPLE_PER_HOUR = 300.0
# The pages whose table a report from them is about (the table, its replay).
TABLE_PAGES = re.compile(r"^/(?:table|replay)/([0-9]{1,9})(?:[/.?#]|$)")


def _table_of(request: Request) -> int | None:
    """The table the report is about: ``table=``, or the page it was opened from."""
    found = form_id(request.query_params.get("table"))
    if found is not None:
        return found
    match = TABLE_PAGES.match(request.query_params.get("from", ""))
    return int(match.group(1)) if match else None


async def _choices(request: Request, table_id: int | None,
                   player: int | None) -> list[dict[str, Any]]:
    """The people this report may name, never the reporter: the profile's account, or the
    table's people as its log shows them (seated now or earlier, at their last seat, or
    speaking in its last chat lines), and
    those only to someone who was at the table (:meth:`Moderation.was_at`): the others
    would learn who plays where.  Each is said by name and seat alone: what they wrote is
    for the moderators, who read it in the report (the server keeps it from the log)."""
    state, me, lang, who = shared(request), account(request), language(request), identity(request)
    if me is None:
        return []
    moderation = state.moderation
    people: dict[int, dict[str, Any]] = {}
    if (table_id is not None and await may_replay(request, table_id)
            and await moderation.was_at(me, table_id, who[0] if who else None)):
        context = await moderation.store.table_context(table_id)
        for seat in (*context.seats, *context.left) if context else ():
            if isinstance(seat["account"], int) and seat["account"] != me:
                people[seat["account"]] = {"id": seat["account"], "label": translate(
                    lang, "web.moderation.choice.seat", name=seat["name"],
                    seat=seat_name(seat["seat"], lang))}
        for line in reversed(context.chat if context else []):
            speaker = line["account"]
            if isinstance(speaker, int) and speaker != me and speaker not in people:
                people[speaker] = {"id": speaker, "label": translate(
                    lang, "web.moderation.choice.unseated", name=line["name"])}
    if player is not None and player != me:
        for found, name in (await moderation.store.names({player})).items():
            people[found] = {"id": found, "label": name}
    return list(people.values())


async def _help_values(request: Request) -> dict[str, Any]:
    table_id = _table_of(request)
    player = form_id(request.query_params.get("player"))
    lang = language(request)
    state = shared(request)
    me = account(request)
    choices: list[dict[str, Any]] = []
    message = None
    if me is not None and (table_id is not None or player is not None):
        looks = state.store.rate_limits.bucket("report_people", PEOPLE_BURST, PEOPLE_PER_HOUR)
        if await looks.take(f"account:{me}"):
            choices = await _choices(request, table_id, player)
        else:
            state.refused["report_people"] += 1
            log.info("help: account %d looked at too many tables' people", me)
            message = translate(lang, "web.moderation.help.too_fast")
    return {"keys": help_rows(lang), "reasons": REASONS, "text_max": TEXT_MAX,
            "table_id": table_id, "choices": choices, "message": message,
            "moderator": await state.moderation.is_moderator(me)}


async def help_page(request: Request) -> Response:
    """The help-and-report page; ``panel=1``: its body alone, for the F4 dialog."""
    values = await _help_values(request)
    if request.query_params.get("panel") == "1":
        return render(request, "_help_panel.html", **values)
    return render(request, "help.html", **values)


async def report(request: Request) -> Response:
    """File a report; JSON for the dialog (``Accept: application/json``), else the page."""
    data = await read_form(request)
    wants_json = "application/json" in request.headers.get("accept", "")
    current = own_account(request)
    assert current.account is not None
    target, table_id = form_id(data.get("target")), None
    if data.get("table"):
        table_id = form_id(data.get("table"))
        if table_id is None:
            return _answer(request, wants_json, 400, "error.bad_form")
    if target is None:
        return _answer(request, wants_json, 400, "error.no_choice")
    if table_id is not None and not await may_replay(request, table_id):
        return _answer(request, wants_json, 404, "error.no_table")
    who = identity(request)
    try:
        await shared(request).moderation.report(
            current.account, target, table_id, str(data.get("reason", "")),
            str(data.get("text", ""))[:TEXT_MAX * 4], uid=who[0] if who else None)
    except ModerationError as error:
        status = {"too_many": 429, "already_reported": 409,
                  "not_your_table": 403}.get(error.code, 400)
        return _answer(request, wants_json, status, f"error.{error.code}")
    return _answer(request, wants_json, 200, "report.filed")


def _answer(request: Request, wants_json: bool, status: int, key: str) -> Response:
    message = translate(language(request), f"web.moderation.{key}")
    if wants_json:
        return JSONResponse({"ok": status == 200, "message": message}, status_code=status)
    return render(request, "help.html", status=status, message=message, ok=status == 200,
                  keys=help_rows(language(request)), reasons=REASONS, text_max=TEXT_MAX,
                  table_id=None, choices=[])


async def notices(request: Request) -> Response:
    """The warnings the signed-in account was not told yet, each in words (the page says
    them once, politely, and marks them seen)."""
    me = account(request)
    if me is None:
        return JSONResponse({"notices": []})
    lang = language(request)
    found = await shared(request).moderation.notices(me)
    return JSONResponse({"notices": [{"id": s.id, "text": sanction_text(lang, s)}
                                     for s in found]})


async def notices_seen(request: Request) -> Response:
    data = await read_form(request)
    me = account(request)
    if me is None:
        raise HTTPException(401)
    ids = [n for n in (form_id(v) for v in data.getlist("id")[:20]) if n is not None]
    marked = await shared(request).moderation.seen(me, ids)
    return JSONResponse({"marked": marked})


routes = [
    Route("/help", help_page, methods=["GET"]),
    Route("/report", report, methods=["POST"]),
    Route("/notices", notices, methods=["GET"]),
    Route("/notices/seen", notices_seen, methods=["POST"]),
]

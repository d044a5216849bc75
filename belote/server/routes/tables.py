"""Tables: open one (rules, name, privacy), its page, the lobby's seat forms, a rematch, and
an invitation to a private table.

A seat form decodes into the same command as the table page's WebSocket frame
(:func:`belote.server.protocol.decode_form`) and goes through the same path in the table
(:meth:`belote.server.table.Table.command`): one check of each field, one of the seat.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from belote.i18n import messages
from belote.i18n.flag_problems import refusal_detail
from belote.i18n.sheet import rule_sheet
from belote.rules import PRESETS
from belote.server import protocol as P
from belote.server.keys import bindings_for_client, help_rows
from belote.server.levels import own_levels_for
from belote.server.limits import Refusal
from belote.server.routes.access import may_enter
from belote.server.routes.common import (
    account,
    address,
    back,
    language,
    local_target,
    read_form,
    signed_in,
)
from belote.server.routes.pages import error_page, render
from belote.server.shared import shared
from belote.server.table import TableError
from belote.text import TextError, clean_text

MAX_FLAGS_TEXT = 2000  # characters of NAME=VALUE lines in the table form
MAX_TABLE_NAME = 40
MAX_TARGET_TEXT = 32
MAX_CODE = 16  # characters of an invitation code looked at
INVITATIONS_KEPT = 20  # tables a browser's invitations are remembered for
RULES_DETAIL = 800  # characters of the explanation of refused rules
# A seat form's field refused by the protocol, as the page says it (``error.web.*``).
FIELD_REFUSALS = {"seat": "bad_seat", "level": "bad_level"}


@dataclass(frozen=True, slots=True)
class Person:
    """The signed-in person behind a form, as the table knows who sends a command."""

    uid: str
    name: str
    account: int | None


def _rule_texts(data: FormData) -> list[str]:
    """The flag lines and the target score typed on the form (raises ``TextError``)."""
    flags = str(data.get("flags", ""))
    texts = clean_text(flags, MAX_FLAGS_TEXT, multiline=True).splitlines() if (
        flags.strip()) else []
    target = str(data.get("target", "")).strip()
    if target:
        texts.append(f"target_score={clean_text(target, MAX_TARGET_TEXT)}")
    return texts


def _table_name(data: FormData) -> str:
    name_text = str(data.get("table_name", "")).strip()
    return clean_text(name_text, MAX_TABLE_NAME) if name_text else ""


async def create(request: Request) -> Response:
    data = await read_form(request)
    uid, _ = signed_in(request)
    preset = str(data.get("preset", ""))
    if preset not in PRESETS:
        return back(request, "/", "bad_preset")
    try:
        texts = _rule_texts(data)
    except TextError:
        return back(request, "/", "bad_rules")
    try:
        table_name = _table_name(data)
    except TextError:
        return back(request, "/", "bad_table_name")
    room = shared(request).room
    try:
        await room.check_creation(uid, address(request))
        table = await room.create_table(preset, texts, creator=uid, name=table_name,
                                        private=data.get("private") == "on",
                                        pause=data.get("pause") == "on")
    except TableError as error:
        return back(request, "/", error.code)
    except ValueError as error:
        # Which flag, which value, what is allowed (the names are the rule sheet's).
        detail = refusal_detail(error, language(request))[:RULES_DETAIL]
        request.session["flash_detail"] = detail
        return back(request, "/", "bad_rules")
    return back(request, f"/table/{table.id}")


async def seat_action(request: Request) -> Response:
    """A seat form (sit, stand, add or remove a bot, start), or a finished match's rematch."""
    data = await read_form(request)
    uid, name = signed_in(request)
    room = shared(request).room
    try:
        table = room.table(int(request.path_params["table_id"]))
        if not may_enter(request, table):
            raise TableError("private")
        if request.path_params["what"] == "rematch":
            new = await room.rematch(table, uid, address(request))
            return back(request, f"/table/{new.id}")
        command = P.decode_form(request.path_params["what"], data)
        if isinstance(command, P.Sit) and await shared(request).moderation.removed_from(
                account(request), table.id):  # a moderator removed this person from here
            return error_page(request, 403, "web.moderation.said.removed")
        await table.command(Person(uid, name, account(request)), command)
    except P.ProtocolError as error:
        if error.code == "unknown_type":
            raise HTTPException(404) from None
        return back(request, local_target(data), FIELD_REFUSALS.get(error.detail, "bad_seat"))
    except TableError as error:
        return back(request, local_target(data), error.code)
    return back(request, local_target(data))


async def table_page(request: Request) -> Response:
    table_id = int(request.path_params["table_id"])
    room = shared(request).room
    if table_id not in room.tables:
        row = await shared(request).store.table(table_id)
        if row is not None and row.status == "finished":
            return back(request, f"/replay/{table_id}")
        if row is not None and row.status == "broken":
            return error_page(request, 410, "error.web.broken")
        if row is not None and row.status == "saved":  # resumed from the saved games
            return back(request, "/saved", "saved_table")
        raise HTTPException(404)
    table = room.tables[table_id]
    if not may_enter(request, table):
        return error_page(request, 403, "error.web.private")
    if table.finished:  # a finished match is read as its replay
        return back(request, f"/replay/{table_id}")
    lang = language(request)
    strings = {key.removeprefix("web.js."): text for key, text in messages(lang).items()
               if key.startswith("web.js.")}
    # Saving the table (docs/room.md, "Saved games"): S["saved.ask"], ...
    strings.update({key.removeprefix("web."): text for key, text in messages(lang).items()
                    if key.startswith("web.saved.js.")})
    return render(request, "table.html", table_id=table_id, levels=shared(request).levels,
                  table=table, keys=help_rows(lang), bindings=json.dumps(bindings_for_client()),
                  strings=json.dumps(strings, ensure_ascii=False),
                  bot_levels=json.dumps(own_levels_for(table.rules.players)),
                  rules_text=rule_sheet(table.rules, lang))


async def join(request: Request) -> Response:
    """An invitation: /join/CODE (the link) or the lobby's code form."""
    if request.method == "POST":
        data = await read_form(request)
        code = str(data.get("code", ""))
    else:
        code = str(request.path_params.get("code", ""))
    state = shared(request)
    wait = await state.limits.code_guesses.refused(address(request))
    if wait is not None:
        raise Refusal(429, "limits.code_guesses", wait)
    try:
        table_id = await state.room.table_by_code(code[:MAX_CODE])
    except TableError as error:
        await state.limits.code_guesses.wrong(address(request))
        return back(request, "/", error.code)
    # The tables invited to (the session's cookie: any of the room's processes reads it).
    invited = [t for t in request.session.get("invited", []) if isinstance(t, int)]
    request.session["invited"] = [*invited[-INVITATIONS_KEPT:], table_id]
    return back(request, f"/table/{table_id}")


routes = [
    Route("/tables", create, methods=["POST"]),
    Route("/join", join, methods=["POST"]),
    Route("/join/{code}", join),
    Route("/tables/{table_id:id}/{what}", seat_action, methods=["POST"]),
    Route("/table/{table_id:id}", table_page),
]

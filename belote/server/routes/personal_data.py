"""The account's own data: download it all (a JSON file), or delete the account
(:mod:`belote.server.personal_data`; both on the account page, for its signed-in owner)."""

from __future__ import annotations

import asyncio
import json
import logging

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from belote.server.personal_data.deletion import delete_account
from belote.server.personal_data.export import export
from belote.server.routes.common import back, own_account, read_form
from belote.server.routes.mail import confirm_password, notify
from belote.server.routes.pages import render
from belote.server.shared import shared

log = logging.getLogger(__name__)
HOUR = 3600.0


async def export_data(request: Request) -> Response:
    # A POST from the room's own form (read_form checks the origin): as a GET, any other
    # site could spend the owner's hourly exports with an image's address.
    await read_form(request)
    current = own_account(request)
    assert current.account is not None
    state = shared(request)
    exports = state.store.rate_limits.window("data_exports", state.settings.exports_per_hour,
                                             HOUR, state.settings.limiter_max_keys)
    key = f"account:{current.account}"
    if await exports.blocked(key):
        state.refused["data_exports"] += 1
        log.info("data export of account %d refused: its hourly limit", current.account)
        notify(request, "web.mail.error.exports_limited", alert=True)
        return back(request, "/account")
    await exports.hit(key)
    data = await export(state.store.engine, current.account, today=state.daily.today())
    if data is None:
        raise HTTPException(401)
    # A long history is megabytes of JSON: written in a thread, the loop free meanwhile.
    body = await asyncio.to_thread(json.dumps, data, ensure_ascii=False, indent=1)
    return Response(body,
                    media_type="application/json", headers={
                        "Content-Disposition": 'attachment; filename="sala-account.json"',
                        "Cache-Control": "no-store"})


async def delete(request: Request) -> Response:
    data = await read_form(request)
    current = own_account(request)
    assert current.account is not None
    state = shared(request)
    if data.get("confirm") != "yes":
        notify(request, "web.mail.error.delete_unconfirmed", alert=True)
        return back(request, "/account")
    refusal = await confirm_password(request, current, str(data.get("password", "")))
    if refusal is not None:
        notify(request, f"web.mail.error.{refusal}", alert=True)
        return back(request, "/account")
    ended = [row.id for row in await state.sessions.of_account(current.account)]
    deleted = await delete_account(state.store.engine, current.account)
    if deleted is None:
        raise HTTPException(401)
    # Their sockets close, and every process forgets them at once (the rows went with the
    # account: their ids were read before).
    await state.sessions.end_account(current.account, ids=ended)
    request.session.pop("sid", None)
    return render(request, "mail_result.html", heading="web.mail.deleted.heading",
                  message="web.mail.deleted.text", deleted=deleted.matches)


routes = [
    Route("/account/export", export_data, methods=["POST"]),
    Route("/account/delete", delete, methods=["POST"]),
]

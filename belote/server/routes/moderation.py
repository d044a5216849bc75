"""The moderators' queue: open reports with their context, oldest first; the sanctions in
force, each with its lifting; the audit log; and the forms of the actions.

Only moderators (``belote moderator add NAME``) see it or act: anyone else gets 403 (401
when not signed in with an account).  Every action names its person by account id and says
why; a refused one changes nothing and says what was wrong.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from belote.i18n import seat_name, translate
from belote.server.moderation.service import (
    ACTIONS,
    CLOSINGS,
    HOURS,
    REASONS,
    ModerationError,
    moment,
)
from belote.server.routes.common import form_id, language, own_account, read_form
from belote.server.routes.pages import render
from belote.server.shared import shared

QUEUE = "/moderation"
SAID = "moderation_said"  # the session's key for what the last action said


async def _moderator(request: Request) -> int:
    """The signed-in moderator's account; 401 without an account, 403 without the role."""
    current = own_account(request)
    assert current.account is not None
    if not await shared(request).moderation.is_moderator(current.account):
        raise HTTPException(403)
    return current.account


async def queue(request: Request) -> Response:
    await _moderator(request)
    moderation = shared(request).moderation
    store = moderation.store
    reports = await store.open_reports()
    now = moderation.clock()
    every = await store.all_in_force(now)
    names = await store.names({s.account for s in every})
    said = request.session.pop(SAID, None)
    lang = language(request)
    return render(request, "moderation_queue.html", reports=reports, sanctions=every,
                  names=names, audit=await store.audit(), actions=ACTIONS, closings=CLOSINGS,
                  hours=HOURS, reasons=REASONS, moment=moment,
                  seat_label=lambda n: seat_name(n, lang),
                  # (a cookie written before messages were named whole: said no more)
                  said=translate(lang, said) if isinstance(said, str)
                  and said.startswith(("web.moderation.", "modfix.")) else None)


def _done(request: Request, key: str, status: int = 303) -> Response:
    """Back to the queue, which says ``web.moderation.<key>`` once."""
    return _said(request, f"web.moderation.{key}", status)


def _refused(request: Request, error: ModerationError) -> Response:
    """Back to the queue, which says why the action was refused."""
    return _said(request, error.key)


def _said(request: Request, message: str, status: int = 303) -> Response:
    request.session[SAID] = message  # the message's whole id
    return RedirectResponse(QUEUE, status_code=status)


async def act(request: Request) -> Response:
    """Take an action on an account, from a report or not."""
    moderator = await _moderator(request)
    data = await read_form(request)
    target = form_id(data.get("account"))
    if target is None:
        return _done(request, "error.no_player")
    hours_text = str(data.get("hours", "") or "")
    hours = form_id(hours_text) if hours_text else None
    if hours_text and hours is None:  # a malformed duration is refused, never "no end"
        return _done(request, "error.bad_duration")
    try:
        await shared(request).moderation.act(
            moderator, target, str(data.get("action", "")), str(data.get("reason", "")),
            hours=hours, report=form_id(data.get("report")),
            table_id=form_id(data.get("table")))
    except ModerationError as error:
        return _refused(request, error)
    return _done(request, f"done.{data.get('action')}")


async def lift(request: Request) -> Response:
    moderator = await _moderator(request)
    data = await read_form(request)
    sanction = form_id(data.get("sanction"))
    if sanction is None:
        return _done(request, "error.not_in_force")
    try:
        await shared(request).moderation.lift(moderator, sanction, str(data.get("reason", "")))
    except ModerationError as error:
        return _refused(request, error)
    return _done(request, "done.lift")


async def close(request: Request) -> Response:
    moderator = await _moderator(request)
    data = await read_form(request)
    report_id = form_id(data.get("report"))
    if report_id is None:
        return _done(request, "error.not_open")
    status = str(data.get("status", ""))
    try:
        await shared(request).moderation.close(moderator, report_id, status,
                                               str(data.get("reason", "")))
    except ModerationError as error:
        return _refused(request, error)
    return _done(request, f"done.{status}")


routes = [
    Route(QUEUE, queue, methods=["GET"]),
    Route(f"{QUEUE}/act", act, methods=["POST"]),
    Route(f"{QUEUE}/lift", lift, methods=["POST"]),
    Route(f"{QUEUE}/close", close, methods=["POST"]),
]

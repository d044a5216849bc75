"""E-mail for accounts: the address on the account page (set, changed or removed with the
password; its verification link sent again), the verification link, and the password reset
("forgot my password", asked by account name or address; the link's page that chooses the
new password).  The flows and their limits are :mod:`belote.server.mail.service`."""

from __future__ import annotations

import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from belote.server.auth import AuthError, check_password
from belote.server.mail.sender import MailFailed
from belote.server.mail.service import MailError
from belote.server.mail.store import TokenCheck
from belote.server.persistence import SessionRow
from belote.server.routes.common import (
    address,
    back,
    language,
    own_account,
    read_form,
    session,
    when,
)
from belote.server.routes.pages import render
from belote.server.shared import shared

log = logging.getLogger(__name__)
PASSWORD_READ = 1024  # characters of a typed password looked at (as at sign-in)
TOKEN_READ = 128  # characters of a link's token looked at (a real one has 43)
NOTICE = "mail_notice"  # the session's key for the account page's next message
# A link's page must not hand its token to another site in a Referer header.  Not
# "no-referrer": with it, Chromium sends "Origin: null" with the page's own form, which the
# room refuses as cross-origin (tests/browser/test_mail_accounts.py found it).
PRIVATE_PAGE = {"Referrer-Policy": "same-origin", "Cache-Control": "no-store"}
# The status of a refused link, by why.
LINK_STATUS = {"unknown": 404, "used": 410, "expired": 410}


def notify(request: Request, key: str, alert: bool = False) -> None:
    """Leave message ``key`` (``web.mail.*``) for the account page's next view."""
    request.session[NOTICE] = {"key": key, "alert": alert}


async def account_mail_context(request: Request, account: int) -> dict[str, Any]:
    """What the account page shows of the e-mail: the address, whether it is verified,
    whether the room can send mail, and the message a form left."""
    mail = shared(request).mail
    stored = await mail.address_of(account)
    notice = request.session.pop(NOTICE, None)
    return {"email": None if stored is None else stored.address,
            "email_verified": None if stored is None or stored.verified is None
            else when(stored.verified),
            "mail_ready": mail.ready,
            "mail_per_hour": shared(request).settings.mails_per_account_per_hour,
            "notice": notice if isinstance(notice, dict) else None}


async def confirm_password(request: Request, current: SessionRow, typed: str) -> str | None:
    """None if ``typed`` is the account's password, else why not (a ``web.mail.error.*``
    code).  Wrong passwords count against the sign-in limit of the account's name, as at
    sign-in: a stolen session cannot guess the password faster there."""
    state = shared(request)
    limit_key = f"name:{current.name_key}"
    if await state.limits.login_by_name.blocked(limit_key):
        return "password_limited"
    found = await state.store.account_by_key(current.name_key)
    if found is None or found.id != current.account:
        return "bad_password"
    if not await state.passwords.verify(found.password_hash, typed[:PASSWORD_READ]):
        await state.limits.login_by_name.fail(limit_key)
        return "bad_password"
    return None


# ---------------------------------------------------------------------- the address
async def change_email(request: Request) -> Response:
    data = await read_form(request)
    current = own_account(request)
    assert current.account is not None
    refusal = await confirm_password(request, current, str(data.get("password", "")))
    if refusal is not None:
        notify(request, f"web.mail.error.{refusal}", alert=True)
        return back(request, "/account")
    typed = str(data.get("email", ""))
    try:
        sent = await shared(request).mail.change_address(current.account, typed,
                                                         language(request))
    except MailError as error:
        notify(request, f"web.mail.error.{error.code}", alert=True)
        return back(request, "/account")
    except MailFailed:
        notify(request, "web.mail.error.send_failed", alert=True)
        return back(request, "/account")
    if not typed.strip():
        notify(request, "web.mail.notice.removed")
    else:
        notify(request, "web.mail.notice.link_sent" if sent else "web.mail.notice.unchanged")
    return back(request, "/account")


async def resend(request: Request) -> Response:
    await read_form(request)
    current = own_account(request)
    assert current.account is not None
    try:
        await shared(request).mail.send_verification(current.account, language(request))
    except MailError as error:
        notify(request, f"web.mail.error.{error.code}", alert=True)
    except MailFailed:
        notify(request, "web.mail.error.send_failed", alert=True)
    else:
        notify(request, "web.mail.notice.link_sent")
    return back(request, "/account")


def _link_refused(request: Request, found: TokenCheck) -> Response:
    response = render(request, "mail_result.html", status=LINK_STATUS[found.outcome],
                      heading="web.mail.link.refused", message=f"web.mail.link.{found.outcome}",
                      alert=True)
    response.headers.update(PRIVATE_PAGE)
    return response


async def verify(request: Request) -> Response:
    token = request.query_params.get("token", "")[:TOKEN_READ]
    found = await shared(request).mail.verify(token)
    if found.outcome != "ok":
        return _link_refused(request, found)
    response = render(request, "mail_result.html", heading="web.mail.verified.heading",
                      message="web.mail.verified.text", address=found.address)
    response.headers.update(PRIVATE_PAGE)
    return response


# ---------------------------------------------------------------------- password reset
async def forgot_page(request: Request) -> Response:
    return render(request, "forgot.html", ready=shared(request).mail.ready)


async def forgot(request: Request) -> Response:
    data = await read_form(request)
    mail = shared(request).mail
    try:
        await mail.request_reset(str(data.get("who", "")), address(request),
                                 language(request))
    except MailError as error:
        status = {"not_ready": 503, "requests_limited": 429}.get(error.code, 400)
        return render(request, "forgot.html", status=status, ready=mail.ready,
                      error=f"web.mail.error.{error.code}")
    # The same answer whether or not the account exists, has a verified address, or was
    # held back by its own limit.
    return render(request, "forgot.html", ready=mail.ready, done=True,
                  per_hour=shared(request).settings.mails_per_account_per_hour)


async def reset_page(request: Request) -> Response:
    token = request.query_params.get("token", "")[:TOKEN_READ]
    found = await shared(request).mail.check_reset(token)
    if found.outcome != "ok":
        return _link_refused(request, found)
    response = render(request, "reset.html", token=token)
    response.headers.update(PRIVATE_PAGE)
    return response


async def reset(request: Request) -> Response:
    data = await read_form(request)
    state = shared(request)
    token = str(data.get("token", ""))[:TOKEN_READ]
    try:
        password = check_password(str(data.get("password", "")))
    except AuthError as error:
        found = await state.mail.check_reset(token)
        if found.outcome != "ok":
            return _link_refused(request, found)
        # The link stays valid: the same form, saying what the password lacks.
        response = render(request, "reset.html", status=400, token=token,
                          error=f"error.web.{error.code}")
        response.headers.update(PRIVATE_PAGE)
        return response
    found = await state.mail.use_reset(token)
    if found.outcome != "ok":
        return _link_refused(request, found)
    assert found.account is not None
    await state.store.set_password_hash(found.account, await state.passwords.hash(password))
    # Every session of the account ends (whoever knew the old password is signed out).
    # Every process forgets them at once (not at its next minute's touch).
    ended = await state.sessions.end_account(found.account)
    current = session(request)
    if current is not None and current.account == found.account:
        request.session.pop("sid", None)
    log.info("account %d: password reset by mail; %d sessions ended", found.account, ended)
    response = render(request, "mail_result.html", heading="web.mail.reset_done.heading",
                      message="web.mail.reset_done.text", sign_in=True)
    response.headers.update(PRIVATE_PAGE)
    return response


__all__ = ["account_mail_context", "confirm_password", "notify", "routes"]

routes = [
    Route("/account/email", change_email, methods=["POST"]),
    Route("/account/email/resend", resend, methods=["POST"]),
    Route("/account/email/verify", verify, methods=["GET"]),
    Route("/account/forgot", forgot_page, methods=["GET"]),
    Route("/account/forgot", forgot, methods=["POST"]),
    Route("/account/reset", reset_page, methods=["GET"]),
    Route("/account/reset", reset, methods=["POST"]),
]

"""Accounts and sessions: play as a guest, sign up, sign in and out, and the account page
(the sessions of an account, each of which may be ended from there)."""

from __future__ import annotations

import logging

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from belote.server.auth import AuthError, check_name, check_password, name_key
from belote.server.auth.sessions import SCOPE_KEY, public_id
from belote.server.moderation.service import sanction_text
from belote.server.persistence import Account, NameTaken
from belote.server.personal_data.deletion import name_retired
from belote.server.routes.common import (
    address,
    back,
    language,
    local_target,
    own_account,
    read_form,
    session,
    when,
)
from belote.server.routes.mail import account_mail_context
from belote.server.routes.pages import refused, render
from belote.server.settings_sources import settings_of
from belote.server.shared import shared

log = logging.getLogger(__name__)
PASSWORD_READ = 1024  # characters of a typed password looked at (a longer one is cut)


async def start_session(request: Request, name: str, key: str, account: int | None) -> None:
    """A new server session for this browser, ending its previous one (a new id at every
    sign-in).  The preferences are not in the session (the device's cookie, the account's
    row: :mod:`belote.server.settings_sources`): signing in changes which apply, never
    what either holds.  A guest's name taken meanwhile by another live guest:
    ``AuthError("name_in_use")``."""
    current = session(request)
    row = await shared(request).sessions.start(
        name, key, account, user_agent=request.headers.get("user-agent", ""),
        address=address(request), replacing=current.id if current else None)
    request.session.clear()
    request.session["sid"] = row.id
    request.scope[SCOPE_KEY] = row


async def _free_guest_name(request: Request, name: str, key: str) -> bool:
    """Whether a guest name may be taken here: not held by another guest, or held by one
    who left (no socket open), whose old session then ends."""
    state, current = shared(request), session(request)
    holder = await state.sessions.guest_holding(key)
    if holder is None or (current is not None and holder == current.id):
        return True
    if await state.services.connected(public_id(holder)):
        return False
    log.info("guest name %r passes to a newcomer: its holder is not connected", name)
    await state.sessions.end(holder)
    return True


async def guest(request: Request) -> Response:
    data = await read_form(request)
    state = shared(request)
    address_key = f"ip:{address(request)}"
    if await state.limits.new_guests.blocked(address_key):
        return refused(request, "error.html", 429, "guest_limited")
    try:
        name = check_name(str(data.get("name", "")))
    except AuthError as error:
        return back(request, "/", error.code)
    key = name_key(name)
    # Names are unique among connected guests: one who left does not keep the name.
    if not await _free_guest_name(request, name, key):
        return back(request, "/", "name_in_use")
    if await state.store.account_by_key(key) is not None:
        return back(request, "/", "name_registered")
    if await name_retired(state.store.engine, key):  # a deleted account's: never given again
        return back(request, "/", "name_taken")
    await state.limits.new_guests.hit(address_key)
    try:
        await start_session(request, name, key, None)
    except AuthError as error:
        return back(request, "/", error.code)
    # A sign-up may have taken the name between the check and the claim: look again.
    if await state.store.account_by_key(key) is not None:
        await state.sessions.end(request.session.pop("sid"))
        return back(request, "/", "name_registered")
    return back(request, local_target(data))  # an invitation link leads on to its table


async def login_page(request: Request) -> Response:
    mode = "register" if request.url.path == "/register" else "login"
    # ``next``: where to go once signed in (an invitation link), a page of this site only.
    target = str(request.query_params.get("next", ""))[:300]
    return render(request, "login.html", mode=mode,
                  next=target if target.startswith("/") and not target.startswith("//")
                  else "")


async def _account_named(request: Request, name: str) -> Account | None:
    store = shared(request).store
    found = await store.account_by_key(name_key(name))
    if found is not None and found.name != name:
        # Two old accounts that fold alike (migration 0002): the exact name wins.
        exact = await store.user(name)
        if exact is not None:
            found = Account(exact[0], name, exact[1])
    return found


async def login(request: Request) -> Response:
    data = await read_form(request)
    state, limits = shared(request), shared(request).limits
    name = " ".join(str(data.get("name", "")).split())
    password = str(data.get("password", ""))[:PASSWORD_READ]
    address_key, name_limit_key = f"ip:{address(request)}", f"name:{name_key(name)}"
    if await limits.login_by_address.blocked(address_key):
        return refused(request, "login.html", 429, "rate_limited", mode="login")
    found = await _account_named(request, name)
    # The owner's own browser is not held back by a block on the name.
    known = found is not None and state.devices.account(request) == found.id
    if not known and await limits.login_by_name.blocked(name_limit_key):
        return refused(request, "login.html", 429, "rate_limited", mode="login")
    # An unknown name is checked against a dummy hash: the answer takes as long.
    if not await state.passwords.verify(found.password_hash if found else None, password):
        await limits.login_by_address.fail(address_key)
        if not known:
            await limits.login_by_name.fail(name_limit_key)
        return refused(request, "login.html", 401, "bad_login", mode="login")
    assert found is not None
    barred = await state.moderation.barred(found.id)
    if barred is not None:
        # Suspended or banned: the right password, but no session; told until when, why.
        text = sanction_text(language(request), barred)
        return render(request, "login.html", status=403, error=text, message=text,
                      mode="login")
    await limits.login_by_name.clear(name_limit_key)
    if state.passwords.needs_rehash(found.password_hash):
        await state.store.set_password_hash(found.id, await state.passwords.hash(password))
    await start_session(request, found.name, name_key(found.name), found.id)
    return state.devices.remember(back(request, local_target(data)), found.id)


async def register(request: Request) -> Response:
    data = await read_form(request)
    state = shared(request)
    address_key = f"ip:{address(request)}"
    if await state.limits.signups.blocked(address_key):
        return refused(request, "login.html", 429, "signup_limited", mode="register")
    try:
        name = check_name(str(data.get("name", "")))
        password = check_password(str(data.get("password", "")))
    except AuthError as error:
        return refused(request, "login.html", 400, error.code, mode="register")
    key, current = name_key(name), session(request)
    if await name_retired(state.store.engine, key):  # a deleted account's: never given again
        return refused(request, "login.html", 409, "name_taken", mode="register")
    holder = await state.sessions.guest_holding(key)
    if holder is not None and (current is None or holder != current.id):
        if await state.services.connected(public_id(holder)):
            return refused(request, "login.html", 409, "name_in_use", mode="register")
        await state.sessions.end(holder)  # a guest who left does not keep the name
        holder = None
    await state.limits.signups.hit(address_key)
    # Hold the name among guests while the account is made, so that no guest takes it
    # between the check above and the insert.
    reserved = state.sessions.reserve(key) if holder is None else None
    try:
        account = await state.store.add_user(name, await state.passwords.hash(password),
                                                  key)
    except NameTaken:
        return refused(request, "login.html", 409, "name_taken", mode="register")
    finally:
        if reserved is not None:
            state.sessions.unreserve(reserved)
    await start_session(request, name, key, account)
    return state.devices.remember(back(request, "/"), account)


async def logout(request: Request) -> Response:
    await read_form(request)
    current = session(request)
    if current is not None:
        await shared(request).sessions.end(current.id)
    request.session.pop("sid", None)
    # The account's settings in force stay on this device once signed out (its own, or a
    # guest's, stay as they are), as the preferences always did.
    found, response = settings_of(request), back(request, "/")
    if found.source == "account":
        shared(request).saved_settings.keep_on_device(response, found.prefs, False)
    return response


async def account_page(request: Request) -> Response:
    current = own_account(request)
    assert current.account is not None
    rows = await shared(request).sessions.of_account(current.account)
    return render(request, "account.html", current=public_id(current.id), sessions=[
        {"id": public_id(r.id), "created": when(r.created), "seen": when(r.last_seen),
         "agent": r.user_agent, "address": r.address} for r in rows],
        **await account_mail_context(request, current.account))


async def end_session(request: Request) -> Response:
    data = await read_form(request)
    current = own_account(request)
    assert current.account is not None
    sessions = shared(request).sessions
    if data.get("others") is not None:
        await sessions.end_others(current.account, current.id)
        return back(request, "/account")
    target = str(data.get("session", ""))
    rows = await sessions.of_account(current.account)
    match = next((r for r in rows if public_id(r.id) == target), None)
    if match is None:
        return back(request, "/account", "no_session")
    await sessions.end(match.id)
    if match.id == current.id:
        request.session.pop("sid", None)
        return back(request, "/")
    return back(request, "/account")


routes = [
    Route("/guest", guest, methods=["POST"]),
    Route("/login", login_page, methods=["GET"]),
    Route("/login", login, methods=["POST"]),
    Route("/register", login_page, methods=["GET"]),
    Route("/register", register, methods=["POST"]),
    Route("/logout", logout, methods=["POST"]),
    Route("/account", account_page, methods=["GET"]),
    Route("/account/end", end_session, methods=["POST"]),
]

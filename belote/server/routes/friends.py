"""Friends: the friends page (player search, requests, friends with their presence,
invitations, the block list), its forms, an invitation link, and the personal socket every
page of a signed-in account opens to be told of invitations anywhere in the room.

A form names the other person by account id (the search and the lists give it), never by a
typed name; a person acts only on their own account (the session's).  A refused form
changes nothing and the page says why (``web.friends.said.*``, shown once).
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from belote.server.auth import name_key
from belote.server.friends.room import LIST_SHOWN, SEARCH_RESULTS
from belote.server.persistence import SessionRow
from belote.server.routes.common import (
    address,
    back,
    form_id,
    identity,
    local_target,
    own_account,
    read_form,
)
from belote.server.routes.pages import error_page, render
from belote.server.routes.sockets import _accept, _pump, _refuse
from belote.server.shared import shared
from belote.server.view import error_frame
from belote.text import TextError, clean_text

MAX_QUERY = 24  # characters of a search (a name has at most 24)
NOTICE = "friends_notice"  # the session's key for the page's one-time message
ACTIONS = ("request", "accept", "decline", "cancel", "remove", "block", "unblock", "invite",
           "invite_tournament")
TOURNAMENTS_OFFERED = 20  # tournaments taking entries that the page offers to invite to


def _said(request: Request, outcome: str, **values: Any) -> None:
    request.session[NOTICE] = [outcome, values]


async def _search(request: Request, me: SessionRow, query: str) -> tuple[str, list[Any]]:
    """The search's outcome code and its results (with each one's relation to me)."""
    state = shared(request)
    try:
        # A name has at most 24 characters: a longer search is cut, never refused.
        text = clean_text(query[:MAX_QUERY], MAX_QUERY).strip() if query.strip() else ""
    except TextError:
        return "bad_query", []
    if not text:
        return "", []
    assert me.account is not None
    # Per address and per account: one account behind many addresses, or many people
    # behind one (a club, a school), each meets its own allowance.
    searches = state.friends.searches
    if not (await searches.take(address(request))
            and await searches.take(f"account:{me.account}")):
        state.friends.counts["searches_refused"] += 1
        return "search_too_fast", []
    found = await state.friends.store.search(name_key(text), SEARCH_RESULTS, me.account)
    relations = await state.friends.store.relations(me.account, [p.id for p in found])
    return ("found" if found else "none_found"), [(p, relations[p.id]) for p in found]


async def friends_page(request: Request) -> Response:
    me = own_account(request)
    assert me.account is not None
    state = shared(request)
    friends = state.friends
    query = str(request.query_params.get("q", ""))[:MAX_QUERY * 4]
    searched, results = await _search(request, me, query)
    my_tables = friends.tables_of(me.account)
    wanted = form_id(request.query_params.get("table"))
    table = wanted if wanted is not None and friends.may_invite_to(me.account, wanted) else (
        my_tables[0] if my_tables else None)
    tournaments = await friends.store.open_tournaments(TOURNAMENTS_OFFERED)
    chosen = form_id(request.query_params.get("tournament"))
    tournament = next((t for t in tournaments if t[0] == chosen),
                      tournaments[0] if tournaments else None)
    notice = request.session.pop(NOTICE, None)
    # Where each form comes back to: this page as it is (its search, its table).
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    # Each list is read with a LIMIT: one more than shown tells that there are more.
    presence, more_friends = await friends.presence(me.account)
    asking = await friends.store.asking_me(me.account, LIST_SHOWN + 1)
    asked = await friends.store.asked_by_me(me.account, LIST_SHOWN + 1)
    blocked = await friends.store.blocked_by_me(me.account, LIST_SHOWN + 1)
    more = {"friends": more_friends, "asking": len(asking) > LIST_SHOWN,
            "asked": len(asked) > LIST_SHOWN, "blocked": len(blocked) > LIST_SHOWN}
    return render(
        request, "friends.html", here=here[:300], query=query, searched=searched, results=results,
        search_limit=SEARCH_RESULTS, presence=presence, asking=asking[:LIST_SHOWN],
        asked=asked[:LIST_SHOWN], blocked=blocked[:LIST_SHOWN], more=more, shown=LIST_SHOWN,
        invite_table=table, my_tables=my_tables, tournaments=tournaments,
        invite_tournament=tournament,
        invite_link=(str(request.base_url).rstrip("/") + friends.link(me.account, table))
        if table is not None else None,
        link_hours=state.settings.invitation_seconds // 3600,
        blocks_max=state.settings.blocks_max,
        notice=notice if isinstance(notice, list) and len(notice) == 2 else None)


async def friends_action(request: Request) -> Response:
    """One of the page's forms: ``account`` names the other person (and ``table`` the
    table of an invitation)."""
    what = str(request.path_params["what"])
    if what not in ACTIONS:
        raise HTTPException(404)
    data = await read_form(request)
    me = own_account(request)
    assert me.account is not None
    target = local_target(data)
    target = target if target != "/" else "/friends"
    other = form_id(data.get("account"))
    if other is None:
        _said(request, "bad_form")
        return back(request, target)
    friends = shared(request).friends
    # One allowance per account for every form here (a refused one changes nothing).
    if not await friends.may_act(me.account):
        _said(request, "slow_down")
        return back(request, target)
    person = await friends.store.person(other)
    if person is None:
        _said(request, "no_player")
        return back(request, target)
    if what == "invite_tournament":
        tid = form_id(data.get("tournament"))
        outcome = "no_tournament" if tid is None else await friends.invite_to_tournament(
            me.account, me.name, other, tid)
        _said(request, "invited_tournament" if outcome == "invited" else outcome,
              name=person.name)
        return back(request, target)
    if what == "invite":
        table = form_id(data.get("table"))
        outcome = "no_table" if table is None else await friends.invite(
            me.account, me.name, other, table)
        _said(request, outcome, name=person.name, number=table or 0)
        return back(request, target)
    store = friends.store
    act = {"request": friends.request, "accept": friends.accept, "decline": store.decline,
           "cancel": store.cancel, "remove": store.remove, "block": friends.block,
           "unblock": friends.unblock}[what]
    settings = shared(request).settings
    outcome = await act(me.account, other)
    _said(request, outcome, name=person.name,
          most=settings.max_friends if outcome == "too_many_friends" else settings.blocks_max)
    return back(request, target)


async def invitation(request: Request) -> Response:
    """An invitation link: signed in, it opens the table (a private one too); not signed
    in, it offers to come in as a guest or to sign in, then to go on to the table."""
    token = str(request.path_params["token"])
    friends = shared(request).friends
    found = friends.links.read(token)
    if found is None:
        return error_page(request, 400, "web.friends.link.bad")
    # Checked again whenever it is used: its inviter may still invite to that table (it is
    # open; public, or they sit there) and no moderator removed them from it.
    if not friends.may_invite_to(found.inviter, found.table_id) or await shared(
            request).moderation.removed_from(found.inviter, found.table_id):
        friends.counts["links_stale"] += 1
        return error_page(request, 410, "web.friends.link.stale")
    if identity(request) is None:
        inviter = await friends.store.person(found.inviter)
        return render(request, "invitation.html", number=found.table_id,
                      inviter=inviter.name if inviter else "", here=request.url.path)
    invited = [t for t in request.session.get("invited", []) if isinstance(t, int)]
    request.session["invited"] = [*invited[-19:], found.table_id]
    return back(request, f"/table/{found.table_id}")


async def me_socket(websocket: WebSocket) -> None:
    """A page's personal socket: invitations for this account, from any process."""
    conn = await _accept(websocket)
    if conn is None:
        return
    if conn.account is None:
        await _refuse(websocket, conn, "sign_in")
        return
    friends = shared(websocket).friends
    friends.join(conn)

    def wire_error(code: str) -> None:
        conn.send(error_frame(code, conn.lang, 0, family="wire"))

    async def on_message(_message: object) -> None:
        wire_error("not_here")  # it only listens

    try:
        await _pump(websocket, conn, on_message, wire_error, lambda: 0)
    finally:
        friends.leave(conn)


routes = [
    Route("/friends", friends_page),
    Route("/friends/{what}", friends_action, methods=["POST"]),
    Route("/invite/{token}", invitation),
    WebSocketRoute("/ws/me", me_socket),
]

"""The two WebSocket endpoints: a table (its players and spectators) and the lobby (its
live list and chat).

Each socket has a writer task (the connection's outbox to the socket) and, opened with
``?heartbeat=1``, a beater (the server's heartbeat); the handler reads frames, decodes them
(:mod:`belote.server.protocol`) and hands each message on.  Heartbeats are answered here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.routing import WebSocketRoute
from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect

from belote.i18n import translate
from belote.server import protocol as P
from belote.server.connection import Connection
from belote.server.lobby import page_number
from belote.server.room import Room
from belote.server.routes.access import may_enter
from belote.server.routes.common import address, identity, language, same_origin, session
from belote.server.settings_sources import settings_of
from belote.server.shared import shared
from belote.server.view import error_frame

log = logging.getLogger(__name__)
REFUSED = 1008  # close code: policy violation (another origin, too many sockets, private)
CLEAN_CLOSES = (1000, 1001)

OnMessage = Callable[[P.Inbound], Awaitable[Any]]


PERSONAL = "/ws/me"  # a page's personal socket (friends' invitations)


def _counted_as(websocket: WebSocket) -> tuple[str, int | None]:
    """Under which key a socket counts against the sockets one address may open, and its
    limit (None: ``sockets_per_address``).  Every page of a signed-in account opens a
    personal socket besides its table's or the lobby's: they count apart, with their own
    smaller cap, so that they never take a table's or the lobby's place."""
    if websocket.url.path == PERSONAL:
        return ("personal " + address(websocket),
                shared(websocket).settings.personal_sockets_per_address)
    return address(websocket), None


async def _accept(websocket: WebSocket) -> Connection | None:
    """The socket accepted, as a connection; None: refused (and closed)."""
    if not same_origin(websocket):
        await websocket.close(code=REFUSED)
        return None
    await websocket.accept()
    if not shared(websocket).room.open_socket(*_counted_as(websocket)):
        await websocket.send_text(error_frame("too_many_sockets", language(websocket), 0))
        await websocket.close(code=REFUSED)
        return None
    # The handshake's session was looked up by ServerSessions: an ended one is None.
    who = identity(websocket) or (f"spectator-{secrets.token_urlsafe(8)}", "")
    row = session(websocket)
    # ``?heartbeat=1``: the client pings from its first moment (the table page does), so
    # a path that stalls before its first ping is noticed too; and it answers the
    # server's beats, so a hidden tab whose timers the browser slowed keeps its seat.
    beats = websocket.query_params.get("heartbeat") == "1"
    prefs = settings_of(websocket).prefs  # the device's or the account's
    if row is not None and row.account is not None:
        # Whom this account blocks, in this process's memory: a table leaves their chat
        # lines out of its frames for this socket (belote/server/friends/room.py).
        await shared(websocket).services.friends.load_blocks(row.account)
    return Connection(who[0], who[1], language(websocket), prefs.verbosity,
                      suits=prefs.table.suits, trump_first=prefs.table.trump_first,
                      account=row.account if row else None, heartbeat=beats, beats=beats)


async def _writer(websocket: WebSocket, conn: Connection, room: Room) -> None:
    while True:
        frame = await conn.outbox.get()
        if frame is None:  # too far behind (or moved): close, the client resyncs on return
            await websocket.close(code=conn.close_code)
            return
        try:
            await websocket.send_text(frame)
        except (UnicodeError, TypeError, ValueError):
            # One frame that cannot be sent must not silence the connection.
            room.frames_dropped += 1
            log.exception("frame dropped for %s", conn.name or conn.uid)


async def _beater(conn: Connection, interval: float, version: Callable[[], int]) -> None:
    # The server's heartbeat: the page answers each beat from its message handler,
    # which a hidden tab runs at once (its timers, and its own pings, may be slowed
    # to one a minute); any frame it sends resets the silence timeout of _receive.
    n = 0
    while not conn.closed:
        await asyncio.sleep(interval)
        n += 1
        conn.send(P.encode_message(P.Beat(n), version()))


async def _receive(websocket: WebSocket, conn: Connection) -> Message | None:
    """The next frame; None: the socket is gone (closed, or let go as stalled)."""
    room, timeout = shared(websocket).room, shared(websocket).settings.heartbeat_timeout
    # A client that sends heartbeats (or answers the server's) and then falls silent is
    # on a stalled path (no close ever comes): it is let go, so that its seat is known to
    # be away.  Any frame from it counts as heard.
    try:
        async with asyncio.timeout(timeout if conn.heartbeat else None):
            message = await websocket.receive()
    except TimeoutError:
        room.sockets_stalled += 1
        log.warning("socket of %s stalled: nothing heard for %.0f s; let go "
                    "(%d stalled so far)", conn.name or conn.uid, timeout, room.sockets_stalled)
        return None
    if message["type"] == "websocket.disconnect":
        if message.get("code", 1000) not in CLEAN_CLOSES:
            room.sockets_dropped += 1
            log.info("socket of %s dropped (code %s; %d dropped so far)",
                     conn.name or conn.uid, message.get("code"), room.sockets_dropped)
        return None
    return message


async def _read(websocket: WebSocket, conn: Connection, on_message: OnMessage,
                on_error: Callable[[str], None], version: Callable[[], int]) -> None:
    """Read and hand on the frames until the socket goes; heartbeats are answered here."""
    while (message := await _receive(websocket, conn)) is not None:
        try:
            decoded = P.decode(message["text"] if message.get("text") is not None
                               else message.get("bytes") or b"")
        except P.ProtocolError as error:
            on_error(error.code)
            continue
        if isinstance(decoded, P.Ping):  # the heartbeat: answered here, at once
            conn.heartbeat = True
            conn.send(P.encode_message(P.Pong(decoded.n), version()))
        elif not isinstance(decoded, P.BeatAnswer):  # the answer to a beat: heard, enough
            await on_message(decoded)


async def _stop(task: asyncio.Task[None] | None) -> None:
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


async def _pump(websocket: WebSocket, conn: Connection, on_message: OnMessage,
                on_error: Callable[[str], None], version: Callable[[], int]) -> None:
    """Run the socket until it goes: its writer, its beater, and the frames it sends."""
    state = shared(websocket)
    sender = asyncio.create_task(_writer(websocket, conn, state.room))
    beats = asyncio.create_task(_beater(conn, state.settings.heartbeat_interval, version)) if (
        conn.beats) else None
    try:
        await _read(websocket, conn, on_message, on_error, version)
    except WebSocketDisconnect:
        pass
    finally:
        conn.gone()
        state.room.close_socket(_counted_as(websocket)[0])
        sender.cancel()
        if beats is not None:
            beats.cancel()
        await _stop(sender)
        await _stop(beats)


async def _refuse(websocket: WebSocket, conn: Connection, code: str) -> None:
    """Say why to an accepted socket (an error frame), and close it."""
    conn.send(error_frame(code, conn.lang, 0))
    shared(websocket).room.close_socket(_counted_as(websocket)[0])
    await websocket.send_text(conn.outbox.get_nowait() or "")
    await websocket.close(code=REFUSED)


async def table_socket(websocket: WebSocket) -> None:
    table_id = int(websocket.path_params["table_id"])
    conn = await _accept(websocket)
    if conn is None:
        return
    room = shared(websocket).room
    if table_id not in room.tables or room.tables[table_id].broken is not None:
        broken = table_id in room.broken or table_id in room.tables
        await _refuse(websocket, conn, "broken" if broken else "no_table")
        return
    table = room.tables[table_id]
    if not may_enter(websocket, table):
        await _refuse(websocket, conn, "private")
        return
    await table.join(conn)

    def wire_error(code: str) -> None:
        conn.send(error_frame(code, conn.lang, table.version, family="wire"))

    moderation = shared(websocket).moderation

    async def on_message(message: P.Inbound) -> None:
        # A moderator's decisions hold here, whichever process made them (the database
        # says): a muted person's chat line, and a removed person's seat and chat line (even
        # back as a spectator), are refused, and they are told why.
        if isinstance(message, P.Chat):
            refusal = await moderation.table_chat_refusal(conn.account, table_id, conn.lang)
            if refusal is not None:
                conn.send(P.encode_message(P.Error(*refusal), table.version))
                return
        elif isinstance(message, P.Sit) and await moderation.removed_from(conn.account,
                                                                           table_id):
            conn.send(P.encode_message(P.Error("removed", translate(
                conn.lang, "web.moderation.said.removed")), table.version))
            return
        await table.handle(conn, message)

    try:
        await _pump(websocket, conn, on_message, wire_error, lambda: table.version)
    finally:
        await table.leave(conn)


async def lobby_socket(websocket: WebSocket) -> None:
    conn = await _accept(websocket)
    if conn is None:
        return
    state = shared(websocket)
    lobby = state.lobby
    try:
        # The page the listener shows: its sync carries that page; diffs cover them all.
        page = page_number(websocket.query_params.get("page"))
    except ValueError:
        page = 1
    await lobby.join(conn, page)

    def wire_error(code: str) -> None:
        conn.send(error_frame(code, conn.lang, lobby.version, family="wire"))

    async def on_message(message: P.Inbound) -> None:
        if isinstance(message, P.Chat) and conn.name:
            said = await state.moderation.chat_refusal(conn.account, conn.lang)
            if said is not None:  # muted by a moderator: said why, nothing sent
                conn.send(P.encode_message(P.Error("muted", said), lobby.version))
                return
            if not await state.limits.lobby_chat.take(conn.uid):
                conn.send(error_frame("chat_too_fast", conn.lang, lobby.version))
                return
            lobby.say(conn.name, message.text, conn.account)
        elif isinstance(message, P.Hello):
            await lobby.sync(conn, page)
        else:
            wire_error("not_here" if conn.name else "sign_in")

    try:
        await _pump(websocket, conn, on_message, wire_error, lambda: lobby.version)
    finally:
        lobby.leave(conn)


routes = [
    WebSocketRoute("/ws/table/{table_id:id}", table_socket),
    WebSocketRoute("/ws/lobby", lobby_socket),
]

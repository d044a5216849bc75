"""Any process answers any page and any socket: what is a table's goes to the process running it.

A request for a table (``/table/ID``, ``/tables/ID/...``, the socket ``/ws/table/ID``) that
another process runs is relayed to that process: a page as an HTTP request (httpx), a socket
as a WebSocket of its own (websockets) whose frames pass both ways unchanged.  The owner
checks everything as for any client (the session cookie, the origin, its limits, who may
act for which seat): the relay only carries.  It tells the owner who the client is with
three headers, believed only with the room's relay token (made from the room's secret,
which every process reads from the database): the client's address, the Host it asked
and its scheme.  A client's own ``X-Belote-*`` headers are removed before anything reads
them.

A table nobody runs (its process died, the lease is free) is taken over by the process the
request reached, there and then (:meth:`belote.server.room.Room.take_over`): a player's
page coming back after a crash finds its table within a round trip.  When the owner's
socket drops without a close (the owner died), the relay closes the client's with 1012
("service restart"): the page says that the table moves and connects again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import re
from collections.abc import Callable, Collection
from typing import Any, Protocol

import httpx
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from belote.server.cluster.leases import Leases

log = logging.getLogger(__name__)

TABLE_PATH = re.compile(r"^/(?:table|tables|ws/table)/(\d{1,9})(?:/|$)")
RELAY = b"x-belote-relay"
CLIENT = b"x-belote-client"
HOST = b"x-belote-host"
SCHEME = b"x-belote-scheme"
OWNER = b"x-belote-owner"
PROCESS = b"x-belote-process"
# Headers that belong to one hop (RFC 9110), never passed on.
HOP = {b"connection", b"keep-alive", b"proxy-authenticate", b"proxy-authorization", b"te",
       b"trailer", b"transfer-encoding", b"upgrade", b"host", b"content-length",
       b"content-encoding", b"date", b"server"}
# What the relay says instead (the client's address, Host and scheme): never passed on.
FORWARDED = {b"forwarded", b"x-forwarded-for", b"x-forwarded-proto", b"x-forwarded-host"}
WS_HEADERS = {b"cookie", b"origin", b"accept-language", b"user-agent"}
MOVED = 1012  # close code: service restart (the page says the table moves, and reconnects)
ABNORMAL = {None, 1005, 1006}  # the owner's socket ended without a close: it went away
PING_SECONDS = 5.0  # the relay pings the owner: one whose machine vanished is found


class Room(Protocol):
    """What the relay asks of the room (:class:`belote.server.room.Room`)."""

    @property
    def secret(self) -> str: ...

    @property
    def node(self) -> object | None: ...  # None: the room runs alone

    @property
    def tables(self) -> Collection[int]: ...  # the tables run here

    @property
    def leases(self) -> Leases: ...

    async def take_over(self, table_id: int) -> bool: ...


def relay_token(secret: str) -> str:
    return hmac.new(secret.encode(), b"belote relay", hashlib.sha256).hexdigest()


class RelayedClient:
    """Outermost: a request relayed by another process (a valid token) is given the
    client's address, Host and scheme; any other request loses its ``X-Belote-*``
    headers."""

    def __init__(self, app: ASGIApp, room: Room) -> None:
        self.app = app
        self.room = room

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = scope.get("headers", [])
        ours = {k: v for k, v in headers if k.startswith(b"x-belote-")}
        if not ours:
            await self.app(scope, receive, send)
            return
        kept = [(k, v) for k, v in headers if not k.startswith(b"x-belote-")]
        given = ours.get(RELAY, b"")
        trusted = bool(self.room.secret) and hmac.compare_digest(
            given, relay_token(self.room.secret).encode())
        scope = dict(scope, headers=kept)
        if trusted:
            host = ours.get(HOST)
            if host is not None:
                scope["headers"] = [(k, v) for k, v in kept if k != b"host"] + [
                    (b"host", host)]
            client = ours.get(CLIENT, b"").decode("latin-1")
            if client:
                scope["client"] = (client, 0)
            if SCHEME in ours:
                scheme = ours[SCHEME].decode("latin-1")
                if scope["type"] == "websocket":
                    scheme = {"http": "ws", "https": "wss"}.get(scheme, scheme)
                scope["scheme"] = scheme
            scope["belote.relayed"] = True
        elif given:
            log.warning("a request with a wrong relay token from %s: its headers ignored",
                        scope.get("client"))
        await self.app(scope, receive, send)


class ProcessHeader:
    """Every answer names the process that answered (``X-Belote-Process``)."""

    def __init__(self, app: ASGIApp, name: str) -> None:
        self.app = app
        self.name = name.encode("latin-1")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def named(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message, headers=[
                    *[(k, v) for k, v in message.get("headers", []) if k != PROCESS],
                    (PROCESS, self.name)])
            await send(message)
        await self.app(scope, receive, named)


class OwnerRouting:
    """A table's page or socket goes to the process running it (after the Host check)."""

    def __init__(self, app: ASGIApp, relay: Relay) -> None:
        self.app = app
        self.relay = relay

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.relay.route(self.app, scope, receive, send)


class Relay:
    """The relaying itself, and its counts (the app closes it at the end)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self._http: httpx.AsyncClient | None = None
        self.relayed_pages = 0
        self.relayed_sockets = 0
        self.owner_lost = 0  # relayed sockets whose owner went away (each logged)

    async def route(self, app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
        owner = await self._owner(scope)
        if owner is None:
            await app(scope, receive, send)
        elif scope["type"] == "http":
            self.relayed_pages += 1
            await self._page(scope, receive, send, owner)
        else:
            self.relayed_sockets += 1
            await self._socket(scope, receive, send, owner)

    async def _owner(self, scope: Scope) -> str | None:
        """The process to relay to; None: answer here."""
        room = self.room
        if (room.node is None or scope["type"] not in ("http", "websocket")
                or scope.get("belote.relayed")):
            return None
        found = TABLE_PATH.match(scope["path"])
        if found is None:
            return None
        table_id = int(found[1])
        if table_id in room.tables or await room.take_over(table_id):
            return None
        owner = await room.leases.owner(table_id)
        return None if owner in (None, room.leases.address) else owner

    def _relay_headers(self, scope: Scope) -> list[tuple[bytes, bytes]]:
        host = dict(scope.get("headers", [])).get(b"host", b"")
        client = scope.get("client")
        scheme = str(scope.get("scheme", "http")).replace("wss", "https").replace("ws", "http")
        return [(RELAY, relay_token(self.room.secret).encode()), (HOST, host),
                (CLIENT, (client[0] if client else "").encode("latin-1")),
                (SCHEME, scheme.encode("latin-1"))]

    async def _page(self, scope: Scope, receive: Receive, send: Send, owner: str) -> None:
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client went: nothing half-read goes to the owner
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = [(k, v) for k, v in scope.get("headers", [])
                   if k not in HOP and k not in FORWARDED]
        headers += self._relay_headers(scope)
        query = scope.get("query_string", b"").decode("latin-1")
        url = f"http://{owner}{scope['path']}" + (f"?{query}" if query else "")
        if self._http is None:
            # Straight to the owner, never through a proxy of the environment (the relay's
            # token and the players' cookies go there).
            self._http = httpx.AsyncClient(timeout=15.0, trust_env=False)
        try:
            answer = await self._http.request(scope["method"], url, headers=headers,
                                              content=body)
        except httpx.HTTPError as error:
            log.warning("relay: %s %s to %s failed: %r", scope["method"], scope["path"],
                        owner, error)
            await _plain(send, 503, b"The table's process is not answering: try again.")
            return
        out = [(k.encode("latin-1"), v.encode("latin-1"))
               for k, v in answer.headers.multi_items()
               if k.encode("latin-1") not in HOP and k.lower() != "x-belote-process"]
        out += [(OWNER, owner.encode("latin-1")),
                (b"content-length", str(len(answer.content)).encode())]
        await send({"type": "http.response.start", "status": answer.status_code,
                    "headers": out})
        await send({"type": "http.response.body", "body": answer.content})

    async def _socket(self, scope: Scope, receive: Receive, send: Send, owner: str) -> None:
        first = await receive()
        if first["type"] != "websocket.connect":
            return
        headers = [(k.decode("latin-1"), v.decode("latin-1"))
                   for k, v in scope.get("headers", []) if k in WS_HEADERS]
        headers += [(k.decode("latin-1"), v.decode("latin-1"))
                    for k, v in self._relay_headers(scope)]
        query = scope.get("query_string", b"").decode("latin-1")
        url = f"ws://{owner}{scope['path']}" + (f"?{query}" if query else "")
        try:
            upstream = await connect(url, additional_headers=headers, open_timeout=5,
                                     ping_interval=PING_SECONDS, ping_timeout=PING_SECONDS,
                                     compression=None, user_agent_header=None, proxy=None,
                                     max_size=2 ** 24)
        except InvalidStatus as refused:  # the owner refused the handshake (an origin)
            log.info("relay: %s refused the socket %s (%s)", owner, scope["path"],
                     refused.response.status_code)
            await send({"type": "websocket.close", "code": 1008})
            return
        except (OSError, TimeoutError, InvalidHandshake) as error:
            # The owner is going (killed mid-handshake, unreachable): the page is told the
            # table moves, and connects again (accepted first: a refused handshake would
            # read as a lost connection).
            self.owner_lost += 1
            log.warning("relay: %s unreachable for %s: %r", owner, scope["path"], error)
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": MOVED})
            return
        await send({"type": "websocket.accept"})
        await _pipe(upstream, receive, send, lambda: self._lost(owner, scope))

    def _lost(self, owner: str, scope: Scope) -> None:
        self.owner_lost += 1
        log.warning("relay: the process %s running %s went away: the page connects again",
                    owner, scope["path"])

    async def close(self) -> None:
        if self._http is not None:
            await self._http.aclose()


async def _pipe(upstream: ClientConnection, receive: Receive, send: Send,
                lost: Callable[[], None]) -> None:
    """Frames both ways until one side closes; the close goes to the other side."""
    async def client_to_owner() -> None:
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                code = int(message.get("code", 1000))
                await upstream.close(code if code not in ABNORMAL else 1000)
                return
            data: Any = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            await upstream.send(data)

    async def owner_to_client() -> None:
        try:
            async for data in upstream:
                key = "text" if isinstance(data, str) else "bytes"
                await send({"type": "websocket.send", key: data})
        except ConnectionClosed:
            pass
        code = upstream.close_code
        if code in ABNORMAL:
            lost()
            code = MOVED
        with contextlib.suppress(Exception):
            await send({"type": "websocket.close", "code": code})

    tasks = [asyncio.create_task(client_to_owner()), asyncio.create_task(owner_to_client())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await upstream.close()


async def _plain(send: Send, status: int, text: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(text)).encode())]})
    await send({"type": "http.response.body", "body": text})

"""A TCP proxy on loopback that can stall: bytes stop passing, and nothing is closed.

A stalled network is not a closed socket: neither end hears a FIN or a reset, writes are
accepted and go nowhere, and both ends believe the connection is open until something
(a heartbeat, a timeout) says otherwise.  Playwright's offline mode does not cut open
WebSockets, and closing a socket is the clean case the room already handled; this proxy
makes the other case, for the server tests and the browser tests alike.

:class:`StallProxy` runs its own event loop in a thread (the tests are synchronous)::

    with StallProxy(server_port) as proxy:      # listens on 127.0.0.1:proxy.port
        ...                                     # connect to proxy.port instead
        proxy.stall()                           # both directions hold their bytes
        proxy.resume()                          # held bytes pass, in order
        proxy.stall(up=False)                   # only the server's answers are held
        proxy.sever()                           # every open link is reset, held bytes lost

While stalled, new connections are accepted but hold their bytes too (a handshake waits),
as a real stalled path would.  Bytes are held, never dropped, unless :meth:`sever` is
called: then what waited is lost and both ends see a reset, as when a dead network finally
times out.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from typing import Any

CHUNK = 65536


class _Link:
    """One client connection and its connection to the server."""

    def __init__(self, client: tuple[asyncio.StreamReader, asyncio.StreamWriter],
                 server: tuple[asyncio.StreamReader, asyncio.StreamWriter]) -> None:
        self.client = client
        self.server = server
        self.tasks: list[asyncio.Task[None]] = []

    def reset(self) -> None:
        for task in self.tasks:
            task.cancel()
        for _, writer in (self.client, self.server):
            sock = writer.get_extra_info("socket")
            with contextlib.suppress(OSError):
                # SO_LINGER 0: close() sends a reset, as a path that timed out does.
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                b"\x01\x00\x00\x00\x00\x00\x00\x00")
            writer.transport.abort()


class StallProxy:
    """Forward 127.0.0.1:``port`` to ``target_host``:``target_port``; stall on demand."""

    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self.connections = 0  # links accepted so far
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="stall-proxy",
                                        daemon=True)
        self._up: asyncio.Event | None = None  # set: client -> server bytes pass
        self._down: asyncio.Event | None = None  # set: server -> client bytes pass
        self._links: set[_Link] = set()
        self._server: asyncio.Server | None = None

    # ------------------------------------------------------------------ control (any thread)
    def start(self) -> StallProxy:
        self._thread.start()
        self._call(self._open())
        return self

    def close(self) -> None:
        if not self._thread.is_alive():
            return
        self._call(self._close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._loop.close()

    def stall(self, up: bool = True, down: bool = True) -> None:
        """Hold the bytes going up (client to server) and/or down (server to client)."""
        self._call(self._set(not up, not down))

    def resume(self) -> None:
        """Let bytes pass again, those held first."""
        self._call(self._set(True, True))

    def sever(self) -> None:
        """Reset every open link; the bytes they held are lost (new links still stall if
        the proxy is stalled)."""
        self._call(self._sever())

    @property
    def stalled(self) -> bool:
        return not (self._up is not None and self._up.is_set() and self._down is not None
                    and self._down.is_set())

    def url(self, scheme: str = "http") -> str:
        return f"{scheme}://127.0.0.1:{self.port}"

    def __enter__(self) -> StallProxy:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _call(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(10)

    # ------------------------------------------------------------------ the loop's side
    async def _open(self) -> None:
        self._up, self._down = asyncio.Event(), asyncio.Event()
        self._up.set()
        self._down.set()
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
        await self._sever()

    async def _set(self, up: bool, down: bool) -> None:
        assert self._up is not None and self._down is not None
        for event, flowing in ((self._up, up), (self._down, down)):
            if flowing:
                event.set()
            else:
                event.clear()

    async def _sever(self) -> None:
        for link in list(self._links):
            link.reset()
        self._links.clear()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self.connections += 1
        link = _Link((reader, writer), upstream)
        assert self._up is not None and self._down is not None
        link.tasks = [asyncio.create_task(self._pump(reader, upstream[1], self._up, link)),
                      asyncio.create_task(self._pump(upstream[0], writer, self._down, link))]
        self._links.add(link)

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    flowing: asyncio.Event, link: _Link) -> None:
        """Copy one direction; while stalled, what was read waits here (the kernel's
        buffers fill behind it, as on a stalled path)."""
        try:
            while True:
                data = await reader.read(CHUNK)
                await flowing.wait()
                if not data:  # an end closed cleanly: pass the close on, once it may pass
                    with contextlib.suppress(OSError):
                        writer.write_eof()
                    return
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            link.reset()
            self._links.discard(link)
        except asyncio.CancelledError:
            pass

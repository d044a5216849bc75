"""One connection to the room (a WebSocket, or a test's stand-in) and its lifecycle.

A connection is OPEN from its handshake until it falls too far behind or its socket goes;
then CLOSING (its close marker waits in the outbox for the writer) and CLOSED.  Frames sent
to a connection that is not OPEN are dropped: nobody is left waiting on a socket that will
never hear again.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Iterable
from dataclasses import dataclass, field

from belote.server.settings import DEFAULT_SUITS
from belote.server.view import error_frame

SEND_QUEUE = 256  # frames a slow client may lag behind before it is dropped


class ConnectionState(enum.Enum):
    OPEN = "open"
    CLOSING = "closing"  # the close marker waits in the outbox
    CLOSED = "closed"


@dataclass(eq=False)
class Connection:
    """Who is at the other end (session id, name, language, the order of their hand) and
    the frames waiting for it."""

    uid: str
    name: str
    lang: str = "en"
    verbosity: str = "normal"
    suits: str = DEFAULT_SUITS  # the hand's order (the player's settings)
    trump_first: bool = False
    account: int | None = None  # the registered account (None: a guest or a spectator)
    outbox: asyncio.Queue[str | None] = field(
        default_factory=lambda: asyncio.Queue(SEND_QUEUE))
    state: ConnectionState = ConnectionState.OPEN
    heartbeat: bool = False  # it sent a ping: from now on, silence means a stalled path
    beats: bool = False  # opened with ``?heartbeat=1``: the server beats, the client answers
    # The close code its socket gets once the outbox is written: 1013 (try again later: too
    # far behind, or closed by the room); 1012 (service restart: the table moved to another
    # of the room's processes, the page says so and connects again).
    close_code: int = 1013

    @property
    def closed(self) -> bool:
        return self.state is not ConnectionState.OPEN

    def send(self, frame: str) -> None:
        if self.state is not ConnectionState.OPEN:
            return
        try:
            self.outbox.put_nowait(frame)
        except asyncio.QueueFull:
            self.overflow()

    def overflow(self) -> None:
        """Too far behind: drop what waits and close (the client resyncs when it comes back).

        The frames are dropped first so that the close marker always fits: a full queue must
        never leave an open socket that hears nothing.
        """
        self.state = ConnectionState.CLOSING
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.outbox.put_nowait(None)

    def close(self) -> None:
        """Close after the frames already waiting (the writer closes the socket)."""
        if self.state is not ConnectionState.OPEN:
            return
        try:
            self.outbox.put_nowait(None)
            self.state = ConnectionState.CLOSING
        except asyncio.QueueFull:
            self.overflow()

    def moved(self) -> None:
        """Close because the table goes to another process: the page reconnects at once."""
        self.close_code = 1012
        self.close()

    def gone(self) -> None:
        """The socket is closed (by either side): nothing more is queued for it."""
        self.state = ConnectionState.CLOSED


def sign_out(connections: Iterable[Connection], uids: set[str]) -> int:
    """Close the open connections of these people (their session ended), telling each why;
    returns how many closed.  The lobby's listeners and the tables' players alike."""
    closed = 0
    for conn in list(connections):
        if conn.uid in uids and not conn.closed:
            conn.send(error_frame("signed_out", conn.lang, 0))
            conn.close()
            closed += 1
    return closed

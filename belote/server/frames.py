"""The frames of one table change, built once per kind of viewer and shared.

An ``update`` frame depends on the table, the change's items and the viewer alone: its seat
(``None``, a spectator), its language, its verbosity and the order of its hand
(:class:`~belote.server.view.Viewer`).
So a broadcast builds each viewer's frame the first time a connection of that viewer needs
it, and every other connection of the same viewer is sent the very same string: a table
watched by four seats and forty spectators in two languages renders six frames, not
forty-four.  A whole-view ``sync`` (a join, a hello with ``since=0``) is shared the same way
until the table next changes, so a reconnect storm renders one frame per kind of viewer.
Nothing of one connection's own goes in a shared frame: the ``done`` of its move, its
errors, the sync that brings it what it missed (``since``) or what a bot played for it
while it was away are built for it alone (:mod:`belote.server.table`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from belote.server.view import Item, TableState, Viewer, view_frame

# The sentences of items for one viewer, already made (a whole-history sync's).
Said = Callable[[Viewer], list[dict[str, Any]]]


@dataclass(slots=True)
class FrameCounts:
    """Frames built and sent: running totals that outlive the tables that counted them."""

    built: int = 0
    sent: int = 0


# Every table of this process, those the room has let go included (a table's own counters go
# with it): what benchmarks/room_probe.py reads, one room per process.
PROCESS_FRAMES = FrameCounts()


class SharedFrames:
    """The frames of one change (``kind``: ``update`` or ``sync``), one per viewer met."""

    __slots__ = ("_frames", "_items", "_kind", "_said", "_table")

    def __init__(self, table: TableState, kind: str, items: Sequence[Item],
                 said: Said | None = None) -> None:
        self._table = table
        self._kind = kind
        self._items = items
        self._said = said  # the sentences of ``items`` per viewer, where they are kept
        self._frames: dict[Viewer, str] = {}

    def frame(self, viewer: Viewer) -> str:
        """``viewer``'s frame: built on first need, then the same string for every other
        connection of that viewer."""
        frame = self._frames.get(viewer)
        if frame is None:
            said = None if self._said is None else self._said(viewer)
            frame = self._frames[viewer] = view_frame(self._table, self._kind, self._items,
                                                      viewer, said=said)
        return frame

    @property
    def built(self) -> int:
        """How many frames were built (one per viewer met)."""
        return len(self._frames)

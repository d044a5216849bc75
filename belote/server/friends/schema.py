"""The friends' tables (migration 0010), on the room's metadata.

``friend_links`` holds one row per direction: a request is one row ``(asker, asked,
"asked")``; a friendship two rows ``(a, b, "friends")`` and ``(b, a, "friends")``, so that
"my friends" and "my requests" are each one indexed read.  ``blocks`` is private: it is read
only for its owner's own page and for the checks that keep a blocked player away (a seat, a
chat line, an invitation, a request), never shown to anybody else.
"""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, Integer, String, Table

from belote.server.persistence.schema import metadata
from belote.server.persistence.utc import UtcDateTime

ASKED = "asked"  # ``account`` asked ``other`` to be friends; not answered yet
FRIENDS = "friends"

friend_links = Table(
    "friend_links",
    metadata,
    Column("account", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True,
           autoincrement=False),
    Column("other", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True,
           autoincrement=False),
    Column("state", String(8), nullable=False),  # asked | friends
    Column("since", UtcDateTime(), nullable=False),
    Index("friend_links_by_other", "other", "state"),
)

blocks = Table(
    "blocks",
    metadata,
    Column("blocker", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True,
           autoincrement=False),
    Column("blocked", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True,
           autoincrement=False),
    Column("since", UtcDateTime(), nullable=False),
    Index("blocks_by_blocked", "blocked"),
)

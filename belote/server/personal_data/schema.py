"""The names of deleted accounts (migration 0008), on the room's metadata.

A deleted account's name is not given to anyone else: tournaments and seasons name their
organisers and players by name (``tournaments.owner`` is a name key), so a newcomer with
the name would inherit the deleted person's tournaments and be taken for them in standings
and replays.  Only the folded key is kept (``name_keys.name_key``), with the day it retired.
"""

from __future__ import annotations

from sqlalchemy import Column, String, Table

from belote.server.persistence.schema import metadata
from belote.server.persistence.utc import UtcDateTime

retired_names = Table(
    "retired_names",
    metadata,
    Column("name_key", String(96), primary_key=True),
    Column("retired", UtcDateTime(), nullable=False),
)

"""A moment column that comes back as it went in: UTC, with its offset, on every engine.

PostgreSQL keeps a ``timestamptz``'s offset; SQLite keeps the text of the moment and drops
its offset, so a moment read back there was naive: a tournament whose round clock had
started could not be replayed after a restart (its clock refuses a moment with no offset),
and audit times read as local time.  :class:`UtcDateTime` stores every moment in UTC and
reads a naive one back as the UTC it was stored as (the room never stores another zone).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator


class UtcDateTime(TypeDecorator[datetime]):
    """``DateTime(timezone=True)`` that takes aware moments only and gives them back in UTC."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if not isinstance(value, datetime) or value.tzinfo is None:
            raise ValueError(f"a stored moment has its offset (UTC), not {value!r}")
        return value.astimezone(UTC)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        moment: datetime = value
        if moment.tzinfo is None:  # SQLite: the text of a UTC moment
            return moment.replace(tzinfo=UTC)
        return moment.astimezone(UTC)

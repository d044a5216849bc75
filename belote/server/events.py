"""What a table tells the rest of the room: typed, immutable facts, published on the bus.

A table publishes what happened to it (opened, seats changed, match started, hand scored,
finished with its record and seats, broken, left unwatched, closed); the lobby, ratings and
tournaments subscribe (:mod:`belote.server.bus`).  Events carry ids and plain data, never the table
object: a subscriber in another process (the multi-process room) gets the same event from
its JSON form (:func:`to_wire` / :func:`from_wire`), and one here must not rely on more.

Each event names its table and the table's version when it happened: one table's events
arrive in order (two may share a version: a finish, then the room letting the table go).
The seating an event carries has no session id (``owner``): that never leaves the table.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from belote.server.seats import Seat

WIRE_VERSION = 1  # the ``v`` of every event's wire form; a change of fields bumps it


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat as events carry it: who sits there, without their session id."""

    kind: str  # empty | human | bot
    name: str = ""
    level: str = "normal"
    standin: bool = False
    account: int | None = None  # a registered person's account (ratings count it)

    @classmethod
    def of(cls, seat: Seat) -> SeatState:
        return cls(seat.kind, seat.name, seat.level, seat.standin, seat.account)

    def seat(self) -> Seat:
        return Seat(self.kind, self.name, None, self.level, self.standin, account=self.account)


def seating(seats: list[Seat]) -> tuple[SeatState, ...]:
    return tuple(SeatState.of(s) for s in seats)


@dataclass(frozen=True, slots=True)
class TableEvent:
    """Something that happened to table ``table_id`` at its version ``version``."""

    kind: ClassVar[str] = ""
    table_id: int
    version: int


@dataclass(frozen=True, slots=True)
class TableOpened(TableEvent):
    """A new table, its settings made (the lobby lists it unless it is private); also each
    table the room resumes when it opens, as it stands (``status``, ``seats``).

    It carries all a listing needs, so that a subscriber builds its own from the events:
    ``flags`` is the flags changed from the preset, as JSON text (immutable, and what a wire
    carries anyway); ``status`` is ``waiting``, ``playing`` or ``finished``."""

    kind: ClassVar[str] = "opened"
    preset: str
    name: str = ""
    private: bool = False
    flags: str = "{}"
    seats: tuple[SeatState, ...] = ()
    status: str = "waiting"

    def flag_values(self) -> dict[str, Any]:
        found: dict[str, Any] = json.loads(self.flags)
        return found


@dataclass(frozen=True, slots=True)
class SeatsChanged(TableEvent):
    kind: ClassVar[str] = "seats"
    seats: tuple[SeatState, ...]


@dataclass(frozen=True, slots=True)
class MatchStarted(TableEvent):
    kind: ClassVar[str] = "started"
    first_dealer: int


@dataclass(frozen=True, slots=True)
class HandScored(TableEvent):
    """A hand was scored: its points and the match's totals after it, by team."""

    kind: ClassVar[str] = "hand"
    hand_no: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TableFinished(TableEvent):
    """The match is over and stored.  ``record`` is its game record as stored, as JSON text
    (immutable, and what a wire carries anyway); ``seats`` the final seating."""

    kind: ClassVar[str] = "finished"
    preset: str
    totals: tuple[int, ...]
    seats: tuple[SeatState, ...]
    record: str

    def match_record(self) -> dict[str, Any]:
        found: dict[str, Any] = json.loads(self.record)
        return found


@dataclass(frozen=True, slots=True)
class TableBroken(TableEvent):
    """The table stopped for good (the engine failed on it); the rest of the room goes on."""

    kind: ClassVar[str] = "broken"
    reason: str


@dataclass(frozen=True, slots=True)
class TableUnwatched(TableEvent):
    """The last connection of a finished table left: the room may let it go."""

    kind: ClassVar[str] = "unwatched"


@dataclass(frozen=True, slots=True)
class TableClosed(TableEvent):
    """The room let the table go: ``finished`` (its replay stays), ``expired`` or ``saved``
    (kept for its people, to resume later)."""

    kind: ClassVar[str] = "closed"
    reason: str


KINDS: dict[str, type[TableEvent]] = {cls.kind: cls for cls in (
    TableOpened, SeatsChanged, MatchStarted, HandScored, TableFinished, TableBroken,
    TableUnwatched, TableClosed)}


def to_wire(event: TableEvent) -> dict[str, Any]:
    """The event as a JSON-able dict: ``{"kind", "v", ...its fields}``."""
    return {"kind": event.kind, "v": WIRE_VERSION,
            **{k: list(v) if isinstance(v, tuple) else v for k, v in asdict(event).items()}}


def from_wire(data: dict[str, Any]) -> TableEvent:
    """The event a :func:`to_wire` dict describes; ``ValueError`` says what is wrong."""
    if not isinstance(data, dict):
        raise ValueError(f"an event is a JSON object, not {type(data).__name__}")
    if data.get("v") != WIRE_VERSION:
        raise ValueError(f"event wire version {data.get('v')!r}, expected {WIRE_VERSION}")
    cls = KINDS.get(str(data.get("kind")))
    if cls is None:
        raise ValueError(f"unknown event kind {data.get('kind')!r}")
    names = {f.name for f in fields(cls)}
    given = {k: v for k, v in data.items() if k not in ("kind", "v")}
    if set(given) != names:
        raise ValueError(f"{cls.kind} event: fields {sorted(given)}, expected {sorted(names)}")
    if not all(isinstance(given[k], int) for k in ("table_id", "version")):
        raise ValueError(f"{cls.kind} event: table_id and version are whole numbers")
    try:
        return cls(**{k: _value(v) for k, v in given.items()})
    except TypeError as error:
        raise ValueError(f"{cls.kind} event: {error}") from None


def _value(value: Any) -> Any:
    """JSON's lists back to tuples; a seat's object back to a ``SeatState``."""
    if isinstance(value, list | tuple):
        return tuple(SeatState(**v) if isinstance(v, dict) else v for v in value)
    return value

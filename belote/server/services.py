"""What the room's pages and sockets share, built once by the app's composition (``app.py``).

Every shared object has one name, the same on the typed :class:`Services` (read by handlers
through :func:`services`, so that mypy checks each use) and on Starlette's ``app.state``
(where tests and tools look).  The features (the lobby's live list, ratings, tournaments)
are seen through the narrow interfaces below: a page needs a few of their calls, never the
object that made them.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

from starlette.datastructures import State
from starlette.requests import HTTPConnection
from starlette.templating import Jinja2Templates

from belote.server.auth import PasswordHasherPool, RateLimiter
from belote.server.auth.devices import KnownDevices
from belote.server.auth.sessions import Sessions
from belote.server.config import Settings
from belote.server.heavy import HeavyWork
from belote.server.limits import CodeGuesses, KeyedLimiter
from belote.server.ratings.store import RatingsStore
from belote.server.room import Room
from belote.server.tournament.service import Tournaments


class LobbyList(Protocol):
    """The lobby's live list, as the lobby page reads it."""

    def page(self, lang: str, uid: str | None, number: int) -> dict[str, Any]: ...


class RatingsBoard(Protocol):
    """Ratings, as the profile and leaderboard pages read them."""

    @property
    def store(self) -> RatingsStore: ...


class TournamentTables(Protocol):
    """Tournaments, as their pages change them: the service, and the online tables."""

    @property
    def service(self) -> Tournaments: ...

    async def open_tables(self, tid: int, by: str) -> int: ...

    async def claim(self, tid: int, game_id: int, seat: tuple[int, int], uid: str,
                    account: int | None) -> int: ...


@dataclass(frozen=True)
class Limits:
    """The limits on what one person or address may do (each refusal counted and logged)."""

    lobby_chat: KeyedLimiter  # lobby chat lines per person: a burst, then a steady rate
    login_by_name: RateLimiter
    login_by_address: RateLimiter
    signups: RateLimiter
    new_guests: RateLimiter
    # Wrong codes: invitation codes per address (guessing one is then hopeless), seat codes
    # per session, per game at an address and per address (belote/server/limits.py).
    code_guesses: CodeGuesses
    seat_codes: CodeGuesses


@dataclass(frozen=True)
class Services:
    settings: Settings
    room: Room
    lobby: LobbyList
    ratings: RatingsBoard
    tournaments: TournamentTables
    heavy: HeavyWork  # replays, analyses, tournament draws: off the loop, in a niced process
    sessions: Sessions
    passwords: PasswordHasherPool
    devices: KnownDevices
    limits: Limits
    refused: Counter[str]  # requests refused by a limit, by reason (each is logged too)
    templates: Jinja2Templates
    levels: tuple[str, ...]  # the bot levels offered (the plug-ins' included)
    # Who may see a finished match's replay: (private, owners), read once from its log.
    replay_access: OrderedDict[int, tuple[bool, frozenset[str]]] = field(
        default_factory=OrderedDict)
    # Plug-ins whose label could not be made at the start, and why (filled by the lifespan).
    plugin_label_failures: dict[str, str] = field(default_factory=dict)

    def publish(self, state: State) -> None:
        """Put this bundle and each of its objects, under its own name, on ``app.state``."""
        state.services = self
        for item in fields(self):
            setattr(state, item.name, getattr(self, item.name))


def services(conn: HTTPConnection) -> Services:
    """The app's shared objects, for a request or a WebSocket."""
    found = conn.app.state.services
    assert isinstance(found, Services)
    return found


__all__ = ["Limits", "LobbyList", "RatingsBoard", "Services", "TournamentTables", "services"]

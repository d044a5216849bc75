"""What the room's pages and sockets share, built once by the app (``app.py``).

Every shared object has one name, the same on the typed :class:`Shared` (read by handlers
through :func:`shared`, so that mypy checks each use) and on Starlette's ``app.state``
(where tests and tools look).  The room and its features (the lobby, ratings, tournaments)
come from the composition root (:mod:`belote.server.composition`), which alone builds and
wires them.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass, field, fields

from starlette.datastructures import State
from starlette.requests import HTTPConnection
from starlette.templating import Jinja2Templates

from belote.server.auth import PasswordHasherPool
from belote.server.auth.devices import KnownDevices
from belote.server.auth.sessions import Sessions
from belote.server.cluster.relay import Relay
from belote.server.composition import Services
from belote.server.config import Settings
from belote.server.daily.room import DailyRoom
from belote.server.friends.room import FriendsRoom
from belote.server.heavy import HeavyWork
from belote.server.limits import CodeGuesses
from belote.server.lobby import LobbyFeed
from belote.server.mail.service import AccountMail
from belote.server.moderation.service import Moderation
from belote.server.persistence import Store
from belote.server.persistence.rate_limits import RateLimits, SharedBucket, SharedWindow
from belote.server.ratings.room import RatingsRoom
from belote.server.room import Room
from belote.server.saved.service import SavedGames
from belote.server.settings_sources import SettingsSources
from belote.server.tournament.room import TournamentRoom

# The composition's objects the handlers use, each also on ``app.state`` under its name (the
# store among them: handlers read it here, never through the room).
FEATURES = ("store", "room", "lobby", "ratings", "tournaments", "friends", "daily",
            "saved_games")
HOUR = 3600.0


@dataclass(frozen=True)
class Limits:
    """The limits on what one person or address may do (each refusal counted and logged),
    kept in the database: the same budget whichever process of the room is asked
    (:mod:`belote.server.persistence.rate_limits`)."""

    lobby_chat: SharedBucket  # lobby chat lines per person: a burst, then a steady rate
    login_by_name: SharedWindow
    login_by_address: SharedWindow
    signups: SharedWindow
    new_guests: SharedWindow
    # Wrong codes: invitation codes per address (guessing one is then hopeless), seat codes
    # per session, per game at an address and per address (belote/server/limits.py).
    code_guesses: CodeGuesses
    seat_codes: CodeGuesses

    @classmethod
    def build(cls, settings: Settings, limits: RateLimits, refused: Counter[str]) -> Limits:
        """Each limit by its name in the database (``rate_limits.limiter``), from the
        settings; ``refused`` counts the wrong codes' refusals."""
        keys = settings.limiter_max_keys
        window = limits.window
        return cls(
            lobby_chat=limits.bucket("lobby_chat", settings.chat_burst,
                                     settings.chat_per_minute * 60),
            login_by_name=window("login_by_name", settings.login_attempts,
                                 settings.login_window, keys),
            login_by_address=window("login_by_address", settings.login_address_attempts,
                                    settings.login_window, keys),
            signups=window("signups", settings.signups_per_hour, HOUR, keys),
            new_guests=window("new_guests", settings.guests_per_hour, HOUR, keys),
            code_guesses=CodeGuesses(
                "code_guesses",
                narrow=window("code_guesses", settings.code_guesses_per_minute, 60.0, keys),
                wide=window("code_guesses_ip", settings.code_guesses_per_minute, 60.0, keys),
                counts=refused),
            seat_codes=CodeGuesses(
                "seat_code_guesses",
                narrow=window("seat_codes", settings.seat_code_guesses,
                              settings.seat_code_window, keys),
                wide=window("seat_codes_ip", settings.seat_code_guesses_per_address,
                            settings.seat_code_window, keys),
                counts=refused),
        )


@dataclass(frozen=True)
class Shared:
    settings: Settings
    services: Services  # the room and its features, wired (belote/server/composition.py)
    heavy: HeavyWork  # replays, analyses, tournament draws: off the loop, in a niced process
    sessions: Sessions
    passwords: PasswordHasherPool
    devices: KnownDevices
    saved_settings: SettingsSources  # where preferences are kept: the device, the account
    limits: Limits
    refused: Counter[str]  # requests refused by a limit, by reason (each is logged too)
    templates: Jinja2Templates
    levels: tuple[str, ...]  # the bot levels offered (the plug-ins' included)
    relay: Relay  # a table's pages and socket to the process running it (several processes)
    mail: AccountMail  # e-mail for accounts: verification, password reset (belote/server/mail)
    moderation: Moderation  # reports, moderators' actions and what is in force
    # Who may see a finished match's replay: (private, owners), read once from its log.
    replay_access: OrderedDict[int, tuple[bool, frozenset[str]]] = field(
        default_factory=OrderedDict)
    # Plug-ins whose label could not be made at the start, and why (filled by the lifespan).
    plugin_label_failures: dict[str, str] = field(default_factory=dict)

    @property
    def store(self) -> Store:
        return self.services.store

    @property
    def room(self) -> Room:
        return self.services.room

    @property
    def lobby(self) -> LobbyFeed:
        return self.services.lobby

    @property
    def ratings(self) -> RatingsRoom:
        return self.services.ratings

    @property
    def tournaments(self) -> TournamentRoom:
        return self.services.tournaments

    @property
    def friends(self) -> FriendsRoom:
        return self.services.friends

    @property
    def daily(self) -> DailyRoom:
        return self.services.daily

    @property
    def saved_games(self) -> SavedGames:
        return self.services.saved_games

    def publish(self, state: State) -> None:
        """Put this bundle and each of its objects, under its own name, on ``app.state``."""
        state.shared = self
        for name in (*(item.name for item in fields(self)), *FEATURES):
            setattr(state, name, getattr(self, name))


def shared(conn: HTTPConnection) -> Shared:
    """The app's shared objects, for a request or a WebSocket."""
    found = conn.app.state.shared
    assert isinstance(found, Shared)
    return found


__all__ = ["FEATURES", "Limits", "Shared", "shared"]

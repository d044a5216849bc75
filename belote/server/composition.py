"""The composition root: the room, the table-event bus and the features, built and wired in
one place (and nowhere else: the room knows no feature, a feature knows no other).

To add a feature: build it here from the narrow interfaces it declares (the room, as one of
:mod:`belote.server.directory`'s protocols, by table id; the store), subscribe it to the
bus, add its tables' module to the imports below (its schema) and its opening and closing
to :class:`Services`.
"""

from __future__ import annotations

from dataclasses import dataclass

from belote.server.bus import Bus, InProcessBus
from belote.server.config import Settings
from belote.server.lobby import LobbyFeed
from belote.server.persistence import Store
from belote.server.persistence.schema import metadata
from belote.server.ratings import schema as _ratings_schema  # noqa: F401  (its tables)
from belote.server.ratings.room import RatingsRoom
from belote.server.ratings.store import RatingsStore
from belote.server.room import Room
from belote.server.tournament import schema as _tournament_schema  # noqa: F401  (its tables)
from belote.server.tournament.room import TournamentRoom
from belote.server.tournament.service import Offload
from belote.server.tournament.store import TournamentStore

__all__ = ["Services", "build", "metadata"]

# ``metadata`` is the whole schema (the head of the migrations; tests compare a database
# against it): each feature's ``schema`` module, imported above, defines its tables on the
# base schema's metadata.


@dataclass(frozen=True, slots=True)
class Services:
    """What the app serves with; each opens and closes in the order below."""

    store: Store  # the database (accounts, tables and their logs; features' tables)
    bus: Bus  # tables' events to the features
    room: Room  # tables, sockets, creation and restart of tables
    lobby: LobbyFeed  # the lobby's live list and chat; the expiry of unattended tables
    ratings: RatingsRoom  # a finished match recorded; profiles and leaderboards
    tournaments: TournamentRoom  # tournament tables opened, results reported

    async def open(self) -> None:
        await self.bus.open()
        await self.store.open()
        await self.room.open()  # stored tables resume (and may finish at once: subscribed)
        self.lobby.start()
        await self.tournaments.open()  # results of tables finished while the room was down
        await self.ratings.open()  # matches finished while the room was down

    def connected(self, uid: str) -> bool:
        """Whether this person has a socket open: at a table, or in the lobby."""
        return self.room.connected(uid) or self.lobby.connected(uid)

    def disconnect(self, uids: set[str]) -> int:
        """Close every socket of these people (their session ended), telling them why."""
        return self.room.disconnect(uids) + self.lobby.disconnect(uids)

    async def close(self) -> None:
        await self.room.close()  # no table publishes any more
        await self.bus.close()  # what tables published is delivered
        await self.lobby.close()
        await self.tournaments.close()  # results being reported
        await self.ratings.close()  # matches being recorded
        await self.store.close()


def build(settings: Settings, offload: Offload | None = None,
          bus: Bus | None = None) -> Services:
    """The room and its features, wired.  ``offload`` runs a tournament's draw elsewhere
    (the app's ``HeavyWork.run``; None: a worker thread); ``bus`` defaults to the bus of
    one process.  Raises ``ValueError`` for settings out of range."""
    store = Store(settings.db_url)
    bus = InProcessBus() if bus is None else bus
    room = Room(settings, store, bus.publish)
    lobby = LobbyFeed(room, settings)
    tournaments = TournamentRoom(room, store, TournamentStore(store.engine), offload)
    ratings = RatingsRoom(store, RatingsStore(store.engine))
    bus.subscribe("lobby", lobby.on_event)
    bus.subscribe("tournaments", tournaments.on_event)
    bus.subscribe("ratings", ratings.on_event)
    return Services(store, bus, room, lobby, ratings, tournaments)

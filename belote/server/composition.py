"""The composition root: the room, the table-event bus and the features, built and wired in
one place (and nowhere else: the room knows no feature, a feature knows no other).

To add a feature: build it here from the narrow interfaces it declares (the room, as one of
:mod:`belote.server.directory`'s protocols, by table id; the store), subscribe it to the
bus, add its tables' module to the imports below (its schema) and its opening and closing
to :class:`Services`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from belote.server.bus import Bus, InProcessBus
from belote.server.cluster.bus import PgBus
from belote.server.cluster.leases import PgLeases
from belote.server.cluster.node import Node
from belote.server.cluster.wire import PgWire
from belote.server.config import Settings
from belote.server.daily import schema as _daily_schema  # noqa: F401  (its tables)
from belote.server.daily.room import DailyRoom
from belote.server.daily.store import DailyStore
from belote.server.friends import schema as _friends_schema  # noqa: F401  (its tables)
from belote.server.friends.room import BLOCKS_NEWS, INVITE_NEWS, FriendsRoom
from belote.server.friends.store import FriendsStore
from belote.server.leagues import schema as _leagues_schema  # noqa: F401  (its tables)
from belote.server.leagues.store import LeagueStore
from belote.server.lobby import LobbyFeed
from belote.server.mail import schema as _mail_schema  # noqa: F401  (its tables)
from belote.server.moderation import schema as _moderation_schema  # noqa: F401  (its tables)
from belote.server.persistence import Store
from belote.server.persistence.schema import metadata
from belote.server.personal_data import schema as _personal_schema  # noqa: F401  (its tables)
from belote.server.ratings import schema as _ratings_schema  # noqa: F401  (its tables)
from belote.server.ratings.room import RatingsRoom
from belote.server.ratings.stats import StatsStore
from belote.server.ratings.store import RatingsStore
from belote.server.room import Room
from belote.server.saved import schema as _saved_schema  # noqa: F401  (its tables)
from belote.server.saved.service import SavedGames
from belote.server.saved.store import SavedStore
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
    leagues: LeagueStore  # the weekly leagues: standings, the close of ended weeks
    stats: StatsStore  # each account's statistics, with humans and with bots apart
    friends: FriendsRoom  # friends' presence, invitations, blocks
    daily: DailyRoom  # the daily duplicate: entries, its deals' tables, scores
    saved_games: SavedGames  # tables their people saved, listed and resumed
    node: Node | None = None  # this process among the room's others (None: alone)

    async def open(self) -> None:
        if self.node is not None:
            await self.room.leases.open()
            await self.node.wire.open()
        await self.bus.open()
        await self.store.open()
        await self.room.open()  # stored tables resume (and may finish at once: subscribed)
        self.lobby.start()
        await self.tournaments.open()  # results of tables finished while the room was down
        await self.ratings.open()  # matches finished while the room was down
        await self.leagues.notice()  # weeks that ended while the room was down
        await self.daily.open()  # deals finished while the room was down
        if self.node is not None:
            self.node.tell_all("hello", {})  # the others say what they run: the lobby

    def connected_here(self, uid: str) -> bool:
        """Whether this person has a socket open in this process: at a table, in the
        lobby, or a page's personal socket (friends' invitations)."""
        return (self.room.connected(uid) or self.lobby.connected(uid)
                or self.friends.connected(uid))

    async def connected(self, uid: str) -> bool:
        """Whether this person has a socket open in any of the room's processes."""
        return self.connected_here(uid) or bool(await self.room.present([uid]))

    async def present(self, uids: Collection[str]) -> set[str]:
        """Which of these people have a socket open in any of the room's processes."""
        here = {uid for uid in uids if self.connected_here(uid)}
        rest = set(uids) - here
        return here | (await self.room.present(rest) if rest else set())

    def accounts_here(self) -> set[int]:
        """The accounts with a socket open in this process (a table's, the lobby's, a
        page's personal socket)."""
        conns = [*(c for table in self.room.tables.values() for c in table.connections),
                 *self.lobby.listeners, *self.friends.listeners]
        return {c.account for c in conns if c.account is not None}

    def disconnect(self, uids: set[str]) -> int:
        """Close every socket of these people (their session ended), telling them why; in
        every process (how many closed here is returned)."""
        if self.node is not None:
            self.node.wire.send("belote_news", {"kind": "sign_out",
                                                "data": {"uids": sorted(uids)}})
        return self.disconnect_here(uids)

    def disconnect_here(self, uids: set[str]) -> int:
        return (self.room.disconnect(uids) + self.lobby.disconnect(uids)
                + self.friends.disconnect(uids))

    async def close(self) -> None:
        await self.room.close()  # no table publishes any more
        await self.bus.close()  # what tables published is delivered
        await self.lobby.close()
        await self.tournaments.close()  # results being reported
        await self.ratings.close()  # matches being recorded
        await self.daily.close()  # scores being stored
        await self.friends.settled()  # block lists being read again
        if self.node is not None:
            await self.node.wire.close()
            await self.room.leases.close()  # every lease left is freed
        await self.store.close()


def build(settings: Settings, offload: Offload | None = None,
          bus: Bus | None = None) -> Services:
    """The room and its features, wired.  ``offload`` runs a tournament's draw elsewhere
    (the app's ``HeavyWork.run``; None: a worker thread); ``bus`` defaults to the bus of
    one process.  Raises ``ValueError`` for settings out of range."""
    store = Store(settings.db_url)
    node = None
    if settings.cluster:
        # One of several processes: the bus, the questions between processes and the
        # tables' leases all go through PostgreSQL (belote/server/cluster).
        wire = PgWire(settings.db_url, settings.address)
        node = Node(wire)
        bus = PgBus(wire)
        room = Room(settings, store, bus.publish, PgLeases(settings.db_url, settings.address),
                    node)
    else:
        bus = InProcessBus() if bus is None else bus
        room = Room(settings, store, bus.publish)
    lobby = LobbyFeed(room, settings)
    tournaments = TournamentRoom(room, store, TournamentStore(store.engine), offload)
    ratings = RatingsRoom(store, RatingsStore(store.engine))
    friends = FriendsRoom(FriendsStore(store.engine), settings, store.rate_limits,
                          lambda: room.secret)
    # The room asks, never knowing the feature: may this account sit here, does this
    # listener hear that sender's chat (belote/server/friends/room.py).
    room.seat_gate = friends.admits
    room.chat_filter = lobby.chat_filter = friends.hears
    daily = DailyRoom(room, store, DailyStore(store.engine), settings.daily_deals,
                      entry_hours=settings.daily_entry_account_hours)
    bus.subscribe("lobby", lobby.on_event)
    bus.subscribe("friends", friends.on_event)  # who sits where, in every process
    # What a finished table writes (its result, its ratings) is written by the process that
    # ran it, once; the others catch up from the store when they take tables over.
    bus.subscribe("tournaments", tournaments.on_event, everywhere=False)
    bus.subscribe("ratings", ratings.on_event, everywhere=False)
    leagues = LeagueStore(store.engine)
    bus.subscribe("daily", daily.on_event, everywhere=False)
    saved_games = SavedGames(room, store, SavedStore(store.engine),
                             settings.saved_tables_per_account)
    room.keep_saved = saved_games.keep  # a table its people save is stored by the feature
    services = Services(store, bus, room, lobby, ratings, tournaments, leagues,
                        StatsStore(store.engine), friends, daily, saved_games, node)
    friends.present = services.present
    if node is not None:
        _wire_news(services, node)
    return services


def _wire_news(services: Services, node: Node) -> None:
    """What every process hears from the others: chat lines, ended sessions."""
    lobby = services.lobby
    lobby.relay = lambda name, text, sender: node.tell_all(
        "lobby_chat", {"name": name, "text": text, "sender": sender})
    node.on_news("lobby_chat", lambda data: lobby.hear(
        str(data["name"]), str(data["text"]),
        data["sender"] if isinstance(data.get("sender"), int) else None))

    def signed_out(data: dict[str, Any]) -> None:
        services.disconnect_here({str(u) for u in data["uids"]})

    node.on_news("sign_out", signed_out)
    # Invitations and block lists: every process hands them to its own sockets.
    friends = services.friends
    friends.relay = node.tell_all
    node.on_news(INVITE_NEWS, friends.deliver)
    node.on_news(BLOCKS_NEWS, friends.heard_blocks)
    # A dead process's finished tables: their ratings and results, written by the process
    # that took its open tables over (ratings and tournaments hear only their own process).
    services.room.after_take_over += [services.ratings.open, services.tournaments.reconcile,
                                      services.daily.reconcile]
    services.room.present_here = services.connected_here  # type: ignore[method-assign]
    # Back on the wire after missing messages: the others say again what they run, and the
    # block lists kept here are read again (their news may have been missed).
    node.wire.on_reconnect.append(lambda: node.tell_all("hello", {}))

    def reread_blocks() -> None:
        friends.reread_blocks(services.accounts_here())

    node.wire.on_reconnect.append(reread_blocks)

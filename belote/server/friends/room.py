"""The room's side of friends: presence, invitations delivered anywhere in the room, the
block list's effects, and the limits on what one account may send.

**Presence is derived from what the room already knows.**  Where a friend sits comes from
the table-event bus (``TableOpened``, ``SeatsChanged``, ``MatchStarted``, ``TableFinished``,
``TableClosed``): the bus carries every process's tables' events to every process
(``everywhere``), so each process knows who sits where in the whole room without asking.
Whether a friend is connected at all (a socket open: a table's, the lobby's, a page's
personal socket) is asked of every process through the composition's ``present`` (the same
question that keeps a guest's name).  Whether a table plays a tournament's game is in the
tournaments' tables.

**Invitations travel as news between processes** (``relay``: the node's ``tell_all`` when
the room runs as several processes): each process hands an invitation to the personal
sockets (``/ws/me``, opened by every page of a signed-in account) that the invited account
has open there.  An invitation carries a signed link (:mod:`.tokens`).

**Blocks.**  The room asks two questions through hooks the composition sets, never knowing
this feature: may this account sit at this table (``admits``: not where one who blocks it
sits or created the table), and does this listener hear this sender's chat line (``hears``:
answered from memory, so that a table's broadcast never waits; each process keeps the block
lists of the accounts that opened a socket there, and every process hears of a change).
A blocked player is never told who blocked them: every refusal they get is neutral.

**A change's news names the account only; each process re-reads that account's list**, and
all the lists it keeps when its connection to the news comes back (:meth:`reread_blocks`:
news sent while it was away is lost).
News from two processes may arrive in either order; a list carried in the news could then
leave an older list last.  A read started after a change committed sees it, so the newest
read wins: each account's reads are numbered as they start, and a read's answer is kept
only if no read started later has been kept already.

**Limits.**  Every form of the friends page draws on one allowance per account
(``actions``: a burst, then an hour's worth, in the database); friend requests and
invitations have their own hourly limits besides; an account has at most ``max_friends``
friends and ``blocks_max`` blocks, and the page's lists are read ``LIST_SHOWN`` at most.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import Any

from belote.i18n import translate
from belote.server.auth.sessions import public_id
from belote.server.config import Settings
from belote.server.connection import Connection, sign_out
from belote.server.events import (
    MatchStarted,
    SeatsChanged,
    SeatState,
    TableBroken,
    TableClosed,
    TableEvent,
    TableFinished,
    TableOpened,
)
from belote.server.friends.store import FriendsStore, Person
from belote.server.friends.tokens import Invitation, InvitationLinks
from belote.server.persistence.rate_limits import FAILURES, RateLimits

log = logging.getLogger(__name__)

HOUR = 3600.0
REPEAT_SECONDS = 600.0  # the same invitation (sender, person, table) once in this time
SEARCH_RESULTS = 20
LIST_SHOWN = 100  # people a list of the friends page shows at most (it says if more)
INVITE_NEWS = "friends_invite"
BLOCKS_NEWS = "friends_blocks"

Present = Callable[[Collection[str]], Awaitable[set[str]]]


async def nobody(_uids: Collection[str]) -> set[str]:
    return set()


@dataclass(slots=True)
class TableSeen:
    """A table as the bus told of it: its privacy, its status and who sits there."""

    private: bool
    status: str  # waiting | playing | finished
    accounts: frozenset[int] = frozenset()


def seated(seats: tuple[SeatState, ...]) -> frozenset[int]:
    """The accounts sitting at a table in person (a seat a bot plays for its absent player
    does not count: that player is elsewhere)."""
    return frozenset(s.account for s in seats
                     if s.kind == "human" and not s.standin and s.account is not None)


@dataclass(frozen=True, slots=True)
class Presence:
    """Where a friend is, as their friend may see it."""

    person: Person
    state: str  # table | tournament | online | offline
    table_id: int | None = None
    open: bool = False  # the table is open to the viewer: a link to join or watch it
    tournament: tuple[int, str] | None = None  # (id, name) of the tournament it plays


class FriendsRoom:
    def __init__(self, store: FriendsStore, settings: Settings, limits: RateLimits,
                 key: Callable[[], str]) -> None:
        """``limits``: the database's rate limits; ``key`` gives the room's signing key
        (read when the room opens: invitation links)."""
        self.store = store
        self.settings = settings
        self.links = InvitationLinks(key, settings.invitation_seconds)
        self.requests = limits.window("friend_requests", settings.friend_requests_per_hour,
                                      HOUR)
        self.invitations = limits.window("invitations", settings.invitations_per_hour, HOUR)
        self.repeats = limits.window("invitation_repeats", 1, REPEAT_SECONDS)
        self.searches = limits.bucket("player_search", settings.searches_burst,
                                      settings.searches_per_hour)
        self.actions = limits.bucket("friends_actions", settings.friends_actions_burst,
                                     settings.friends_actions_per_hour)
        self.listeners: set[Connection] = set()  # the personal sockets open here
        self._open: Counter[str] = Counter()  # their session ids (presence asks often)
        self.tables: dict[int, TableSeen] = {}  # every process's tables, from the bus
        self.counts: Counter[str] = Counter()  # invitations, refusals, failures (logged)
        # Set by the composition: news for every process (None: this process alone), and
        # which of these session ids have a socket open anywhere in the room.
        self.relay: Callable[[str, dict[str, Any]], None] | None = None
        self.present: Present = nobody
        # Whom each account that opened a socket here blocks (only non-empty lists: at
        # most one entry per account that blocks somebody, each of at most blocks_max).
        self._blocks: dict[int, frozenset[int]] = {}
        # The reads of block lists: per account, the number of the last one started, the
        # number of the last one kept, and how many are on their way (entries go when
        # none is); and the tasks that news started.
        self._started: Counter[int] = Counter()
        self._kept: dict[int, int] = {}
        self._reading: Counter[int] = Counter()
        self._rereads: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ the bus
    def on_event(self, event: TableEvent) -> None:
        """Who sits where, from every process's tables."""
        tid = event.table_id
        match event:
            case TableOpened():
                self.tables[tid] = TableSeen(event.private, event.status, seated(event.seats))
            case TableClosed() | TableBroken():
                self.tables.pop(tid, None)
            case SeatsChanged(seats=seats) if tid in self.tables:
                self.tables[tid].accounts = seated(seats)
            case MatchStarted() if tid in self.tables:
                self.tables[tid].status = "playing"
            case TableFinished() if tid in self.tables:
                self.tables[tid].status, self.tables[tid].accounts = "finished", frozenset()

    def tables_of(self, account: int) -> list[int]:
        """The open tables ``account`` sits at, by number."""
        return sorted(t for t, seen in self.tables.items()
                      if account in seen.accounts and seen.status != "finished")

    # ------------------------------------------------------------------ personal sockets
    def join(self, conn: Connection) -> None:
        if conn not in self.listeners:
            self.listeners.add(conn)
            self._open[conn.uid] += 1

    def leave(self, conn: Connection) -> None:
        if conn in self.listeners:
            self.listeners.discard(conn)
            self._open[conn.uid] -= 1
            if self._open[conn.uid] <= 0:
                del self._open[conn.uid]

    def connected(self, uid: str) -> bool:
        """Whether this person has a personal socket open here."""
        return self._open.get(uid, 0) > 0

    def disconnect(self, uids: set[str]) -> int:
        return sign_out(self.listeners, uids)

    # ------------------------------------------------------------------ the room's hooks
    async def load_blocks(self, account: int) -> None:
        """Keep in memory whom ``account`` blocks (a socket of theirs opens here, or news
        of a change came), so that a table's broadcast can leave their blocked players'
        chat out without waiting.  Of reads that overlap, the one started last wins."""
        self._started[account] += 1
        number = self._started[account]
        self._reading[account] += 1
        try:
            found = await self.store.blocks_of(account)
        except FAILURES:
            self.counts["blocks_unread"] += 1
            log.exception("friends: the block list of account %s could not be read", account)
            return
        else:
            if number > self._kept.get(account, 0):
                self._kept[account] = number
                self._remember_blocks(account, found)
            else:
                self.counts["blocks_stale_reads"] += 1  # a later read was kept already
        finally:
            self._reading[account] -= 1
            if self._reading[account] <= 0:
                del self._reading[account]
                self._started.pop(account, None)
                self._kept.pop(account, None)

    def _remember_blocks(self, account: int, found: frozenset[int]) -> None:
        if found:
            self._blocks[account] = found
        else:
            self._blocks.pop(account, None)

    def hears(self, listener: int, sender: int) -> bool:
        """Whether ``listener`` hears ``sender``'s chat (not if they block them)."""
        return sender not in self._blocks.get(listener, ())

    async def admits(self, account: int, seated_accounts: Collection[int],
                     creator: str | None) -> bool:
        """Whether ``account`` may sit at a table where ``seated_accounts`` sit, made by
        the session ``creator``: not if one who blocks it sits there or made it."""
        try:
            blockers = await self.store.blockers_of(account)
            if not blockers:
                return True
            if blockers & set(seated_accounts):
                return False
            if creator is not None:
                found = await self.store.sessions_of(blockers)
                if any(public_id(s) == creator for ids in found.values() for s in ids):
                    return False
        except FAILURES:
            # The database down stops the table's own changes too; a seat is not refused
            # for a fault that is not the player's (logged and counted).
            self.counts["admits_unread"] += 1
            log.exception("friends: blocks of account %s unread; the seat is not refused",
                          account)
        return True

    # ------------------------------------------------------------------ presence
    async def online(self, accounts: Collection[int]) -> set[int]:
        """Which of these accounts have a socket open anywhere in the room."""
        sessions = await self.store.sessions_of(accounts)
        uids = {public_id(s): a for a, ids in sessions.items() for s in ids}
        return {uids[u] for u in await self.present(list(uids)) if u in uids}

    async def presence(self, me: int) -> tuple[list[Presence], bool]:
        """Each of ``me``'s friends (the first ``LIST_SHOWN`` by name) and where they are,
        and whether there are more.  Whether they are connected is one question to each
        process for all of them (:meth:`online`)."""
        friends = await self.store.friends(me, LIST_SHOWN + 1)
        more = len(friends) > LIST_SHOWN
        friends = friends[:LIST_SHOWN]
        ids = {f.id for f in friends}
        at: dict[int, int] = {}  # friend -> the table they sit at (a match in play first)
        for tid in sorted(self.tables):
            seen = self.tables[tid]
            if seen.status == "finished":
                continue
            for account in seen.accounts & ids:
                if account not in at or (seen.status == "playing"
                                         and self.tables[at[account]].status != "playing"):
                    at[account] = tid
        online = await self.online(ids - set(at))
        tournaments = await self.store.tournaments_of_tables(set(at.values()))
        shown = []
        for friend in friends:
            where = at.get(friend.id)
            if where is not None:
                table = self.tables[where]
                shown.append(Presence(
                    friend, "tournament" if where in tournaments else "table", where,
                    open=not table.private or me in table.accounts,
                    tournament=tournaments.get(where)))
            else:
                shown.append(Presence(friend, "online" if friend.id in online else "offline"))
        return shown, more

    # ------------------------------------------------------------------ requests and blocks
    async def may_act(self, me: int) -> bool:
        """Whether ``me`` may send one more form of the friends page now (one allowance
        for all of them; a refusal is counted and logged)."""
        if await self.actions.take(str(me)):
            return True
        self.counts["actions_refused"] += 1
        log.info("friends: a form of account %s refused: too many in a short time", me)
        return False

    async def request(self, me: int, other: int) -> str:
        """A friend request (see :meth:`FriendsStore.request`); ``too_fast`` past the
        hour's limit (every attempt counts: a refused one too)."""
        key = str(me)
        if await self.requests.blocked(key):
            self.counts["requests_refused"] += 1
            log.info("friends: requests of account %s refused: too many this hour", me)
            return "too_fast"
        await self.requests.hit(key)
        return await self.store.request(me, other, self.settings.pending_requests,
                                        self.settings.max_friends)

    async def accept(self, me: int, other: int) -> str:
        return await self.store.accept(me, other, self.settings.max_friends)

    async def block(self, me: int, other: int) -> str:
        outcome = await self.store.block(me, other, self.settings.blocks_max)
        if outcome == "blocked":
            await self._blocks_changed(me)
        return outcome

    async def unblock(self, me: int, other: int) -> str:
        outcome = await self.store.unblock(me, other)
        if outcome == "unblocked":
            await self._blocks_changed(me)
        return outcome

    async def _blocks_changed(self, account: int) -> None:
        """Every process's memory of this account's blocks follows (its chat filter):
        the news names the account, each process re-reads its list."""
        if self.relay is not None:
            self.relay(BLOCKS_NEWS, {"account": account})
        else:
            await self.load_blocks(account)

    def heard_blocks(self, data: dict[str, Any]) -> None:
        """News of a change of one account's blocks (from any process): its list is read
        again (a task; the news handler does not wait)."""
        try:
            account = int(data["account"])
        except (KeyError, TypeError, ValueError):
            self.counts["bad_news"] += 1
            log.warning("friends: block news without an account: %r", data)
            return
        task = asyncio.get_running_loop().create_task(self.load_blocks(account))
        self._rereads.add(task)
        task.add_done_callback(self._rereads.discard)

    def reread_blocks(self, accounts: Collection[int]) -> int:
        """Read again the block lists of these accounts (those with a socket open here:
        the composition says) and of every account whose list is kept here: news of a
        change sent while this process was off the room's news (its connection to the
        database lost) never came.  One task reads them in turn (thousands at once would
        crowd the database's connections); how many lists, counted and logged."""
        every = sorted(set(accounts) | set(self._blocks))
        task = asyncio.get_running_loop().create_task(self._load_each(every))
        self._rereads.add(task)
        task.add_done_callback(self._rereads.discard)
        self.counts["blocks_reread"] += len(every)
        log.info("friends: back on the room's news: %d block lists read again", len(every))
        return len(every)

    async def _load_each(self, accounts: list[int]) -> None:
        for account in accounts:
            await self.load_blocks(account)  # (a failure is logged and counted there)

    async def settled(self) -> None:
        """Wait for the block lists being read again (tests, and closing)."""
        while self._rereads:
            await asyncio.gather(*self._rereads, return_exceptions=True)

    # ------------------------------------------------------------------ invitations
    def may_invite_to(self, me: int, table_id: int) -> bool:
        """A table one may invite to: open, and public or one sits there."""
        seen = self.tables.get(table_id)
        return seen is not None and seen.status != "finished" and (
            not seen.private or me in seen.accounts)

    def link(self, me: int, table_id: int) -> str:
        return "/invite/" + self.links.make(Invitation(table_id, me))

    async def invite(self, me: int, name: str, other: int, table_id: int) -> str:
        """Invite a friend to a table: ``invited``, or ``no_table``, or a refusal of
        :meth:`_send`."""
        if not self.may_invite_to(me, table_id):
            return "no_table"
        return await self._send(me, other, f"{table_id}", {
            "to": other, "from": name, "table": table_id, "link": self.link(me, table_id)})

    async def invite_to_tournament(self, me: int, name: str, other: int,
                                   tournament: int) -> str:
        """Invite a friend to enter a tournament that takes entries: ``invited``, or
        ``no_tournament``, or a refusal of :meth:`_send`."""
        title = await self.store.tournament_taking_entries(tournament)
        if title is None:
            return "no_tournament"
        return await self._send(me, other, f"t{tournament}", {
            "to": other, "from": name, "tournament": tournament, "title": title,
            "link": f"/tournaments/{tournament}/enter"})

    async def _send(self, me: int, other: int, what: str, data: dict[str, Any]) -> str:
        """Send an invitation to a friend's sockets, in every process: ``invited``, or
        ``too_fast``, ``not_friends`` (also what one who blocks me is told: neutral),
        ``already_invited`` (the same in the last ten minutes), ``not_online``."""
        if await self.invitations.blocked(str(me)):
            self.counts["invitations_refused"] += 1
            log.info("friends: invitations of account %s refused: too many this hour", me)
            return "too_fast"
        if not await self.store.are_friends(me, other) or me in await self.store.blocks_of(
                other):
            return "not_friends"
        repeat = f"{me}:{other}:{what}"
        if await self.repeats.blocked(repeat):
            return "already_invited"
        if not await self.online([other]):
            return "not_online"
        await self.invitations.hit(str(me))
        await self.repeats.hit(repeat)
        if self.relay is not None:
            self.relay(INVITE_NEWS, data)
        else:
            self.deliver(data)
        self.counts["invitations"] += 1
        return "invited"

    def deliver(self, data: dict[str, Any]) -> None:
        """An invitation to the invited account's personal sockets in this process (counted
        in ``counts["delivered"]``)."""
        to, sent = int(data["to"]), 0
        for conn in list(self.listeners):
            if conn.account != to or conn.closed:
                continue
            if "tournament" in data:
                text = translate(conn.lang, "web.friends.invite.said_tournament",
                                 name=str(data["from"]), tournament=str(data["title"]))
            else:
                text = translate(conn.lang, "web.friends.invite.said",
                                 name=str(data["from"]), number=int(data["table"]))
            conn.send(json.dumps({"t": "invite", "v": 0, "d": {
                "text": text, "table": data.get("table"), "tournament": data.get("tournament"),
                "from": str(data["from"]), "link": str(data["link"])}}, ensure_ascii=False))
            sent += 1
        self.counts["delivered"] += sent

"""The saved games' side of the room: store a table its people save (the room's
``keep_saved``), list an account's saved tables, resume or abandon one.

Resuming reopens the table in the database, then runs it here (:meth:`Tables.resume_saved`:
its log replayed, its lease taken; with several processes, whichever one the person asked).
Each person's seat is kept for their account in the log itself (:mod:`belote.server.table`),
so the table waits for them wherever it runs, and they take their seats from any device.
"""

from __future__ import annotations

import logging
from enum import Enum
from typing import Protocol

from belote.server.persistence import Store
from belote.server.save_vote import SavedTable
from belote.server.saved.store import NotOpen, SavedFull, SavedGame, SavedStore
from belote.server.table import TableError

log = logging.getLogger(__name__)


class Tables(Protocol):
    """What the saved games ask of the room (by table id)."""

    async def resume_saved(self, table_id: int) -> bool: ...


class Resumed(Enum):
    """What came of a request to resume a saved table."""

    RESUMED = "resumed"  # reopened now: its page is where its people go
    OPEN = "open"  # open already (its person resumed it from another device): go there
    NONE = "none"  # no saved table of this account's (or it could not be replayed)


class SavedGames:
    def __init__(self, tables: Tables, store: Store, saved: SavedStore, cap: int) -> None:
        self.tables = tables
        self.store = store
        self.saved = saved
        self.cap = cap
        self.full = 0  # saves refused at the cap (each logged)

    async def keep(self, table: SavedTable) -> None:
        """The room's ``keep_saved``: the table stored as saved, or ``TableError``."""
        try:
            await self.saved.keep(table, self.cap)
        except SavedFull as full:
            self.full += 1
            log.info("table %s not saved: account %s has %d saved tables already",
                     table.table_id, full.account, self.cap)
            raise TableError("saved_full") from None
        except NotOpen:
            raise TableError("saved_not_playing") from None

    async def mine(self, account: int) -> list[SavedGame]:
        return await self.saved.mine(account)

    async def count(self, account: int) -> int:
        return await self.saved.count(account)

    async def resume(self, table_id: int, account: int) -> Resumed:
        if await self.saved.reopen(table_id, account):
            if not await self.tables.resume_saved(table_id):
                # Run by another process already (its sweep was quicker), or broken: the
                # table's page says which.
                log.warning("saved table %s reopened but not run here", table_id)
            log.info("saved table %s resumed by account %s", table_id, account)
            return Resumed.RESUMED
        row = await self.store.table(table_id)
        if row is not None and row.status == "open":
            return Resumed.OPEN
        return Resumed.NONE

    async def abandon(self, table_id: int, account: int) -> bool:
        done = await self.saved.abandon(table_id, account)
        if done:
            log.info("saved table %s abandoned by account %s", table_id, account)
        return done

"""The room: its tables, the lobby's listeners and chat, and the restart of stored tables."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any

from belote.i18n import preset_name, translate
from belote.i18n.sheet import flag_sentence
from belote.rules import PRESETS, find_preset
from belote.rules.flags import rules_with_flags
from belote.server import protocol as P
from belote.server.bots import BotPool
from belote.server.config import Settings
from belote.server.persistence import Store
from belote.server.table import Connection, Table, TableError
from belote.server.view import seat_names

log = logging.getLogger(__name__)


class Room:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.db_url)
        self.bots: BotPool | None = None
        self.tables: dict[int, Table] = {}
        self.lobby: set[Connection] = set()
        self.lobby_chat: deque[tuple[str, str]] = deque(maxlen=settings.lobby_chat_history)
        self.secret = ""
        self.version = 0  # lobby version: grows with every change listeners are told of
        self._stopping: set[asyncio.Task[None]] = set()

    async def open(self) -> None:
        await self.store.open()
        self.secret = await self.store.secret()
        self.bots = BotPool(self.settings.bot_workers, self.settings.bot_timeout)
        for row in reversed(await self.store.list_tables("open", limit=10_000)):
            table = self._table(row.id, row.preset, row.flags)
            await table.restore(await self.store.log(row.id))
            table.start()
        log.info("room open: %d tables resumed", len(self.tables))

    async def close(self) -> None:
        await asyncio.gather(*(t.stop() for t in self.tables.values()))
        if self.bots is not None:
            self.bots.close()
        await self.store.close()

    def _table(self, table_id: int, preset: str, flags: dict[str, Any]) -> Table:
        assert self.bots is not None
        table = Table(table_id, preset, flags, self.store, self.bots,
                      takeover_seconds=self.settings.takeover_seconds,
                      bot_delay=self.settings.bot_delay, on_change=self._table_changed)
        self.tables[table_id] = table
        return table

    async def create_table(self, preset: str, flag_texts: list[str]) -> Table:
        """A new table; raises ``ValueError`` (with a readable reason) for bad rules."""
        rules = rules_with_flags(find_preset(preset), [t for t in flag_texts if t.strip()])
        flags = rules.flags_changed_from(PRESETS[preset])
        table_id = await self.store.new_table(preset, flags, rules.target_score)
        table = self._table(table_id, preset, flags)
        table.start()
        self._table_changed(table)
        return table

    def table(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("no_table")
        return table

    # ------------------------------------------------------------------ the lobby
    def summaries(self, lang: str, uid: str | None = None) -> list[dict[str, Any]]:
        """Each table for the lobby; ``uid`` marks the viewer's own seat."""
        result = []
        for table in sorted(self.tables.values(), key=lambda t: t.id):
            if table.finished:
                continue  # listed with the finished games, as a replay
            names = seat_names(table.seats, lang)
            rules = [flag_sentence(table.rules, "target_score", table.rules.target_score,
                                   lang)[1]]
            rules += [flag_sentence(table.rules, flag, value, lang)[1]
                      for flag, value in table.flags.items() if flag != "target_score"]
            result.append({
                "id": table.id,
                "preset": preset_name(table.preset, lang),
                "rules": rules,
                "seats": [{"name": names[n], "kind": s.kind, "level": s.level,
                           "mine": s.kind == "human" and uid is not None and s.owner == uid}
                          for n, s in enumerate(table.seats)],
                "seated": uid is not None and any(
                    s.kind == "human" and s.owner == uid for s in table.seats),
                "status": "finished" if table.finished else
                          ("playing" if table.game is not None else "waiting"),
                "watchers": len(table.connections),
            })
        return result

    def _table_changed(self, table: Table) -> None:
        if table.finished and not table.connections and table.id in self.tables:
            # A finished match lives on as its stored replay; its actor can go.
            del self.tables[table.id]
            task = asyncio.create_task(table.stop())
            self._stopping.add(task)
            task.add_done_callback(self._stopping.discard)
        self.version += 1
        for conn in list(self.lobby):
            # Listeners fetch the list again (rendered for them) when told it changed.
            conn.send(P.encode("tables", {}, self.version))

    def lobby_sync(self, conn: Connection) -> None:
        chat = [translate(conn.lang, "web.chat.line", name=n, text=t) for n, t in self.lobby_chat]
        conn.send(P.encode("sync", {"chat": chat},
                           self.version))

    def lobby_say(self, name: str, text: str) -> None:
        self.lobby_chat.append((name, text))
        self.version += 1
        for conn in list(self.lobby):
            line = translate(conn.lang, "web.chat.line", name=name, text=text)
            conn.send(P.encode("chat", {"text": line}, self.version))

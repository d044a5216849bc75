"""Deleting an account: its personal data goes, what other people's results need stays,
without the person.

In one transaction:

- every finished match the account played keeps its result (the winning team, the other
  players' own results and ratings, tournaments' standings), but its record and log name the
  seat "deleted player" (:data:`DELETED_NAME`) instead of the account's name, and its chat
  lines too; the account's own results per match and its ratings are deleted;
- the account's row, sessions, settings, e-mail address and links are deleted;
- its name's folded key is kept in ``retired_names``, so that the name is never given to
  someone else (see :mod:`.schema`).

The caller ends the sessions' sockets (``Sessions.end``) once this returned.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from belote.server.mail.schema import account_emails, mail_tokens
from belote.server.persistence.schema import (
    account_settings,
    sessions,
    table_log,
    tables,
    users,
)
from belote.server.personal_data.schema import retired_names
from belote.server.ratings.schema import player_results, ratings

log = logging.getLogger(__name__)
# The name a deleted player's seat takes in the records (English, as the records' bot
# names are; the replay shows it as written).
DELETED_NAME = "deleted player"


@dataclass(frozen=True, slots=True)
class Deleted:
    name: str
    matches: int  # finished matches whose records now say DELETED_NAME


async def name_retired(engine: AsyncEngine, key: str) -> bool:
    """Whether ``key`` (a name's folded key) belonged to a deleted account."""
    async with engine.connect() as conn:
        found = await conn.scalar(select(retired_names.c.name_key)
                                  .where(retired_names.c.name_key == key))
    return found is not None


async def delete_account(engine: AsyncEngine, account: int) -> Deleted | None:
    """Delete ``account`` as said above; None if there is no such account."""
    async with engine.begin() as conn:
        row = (await conn.execute(select(users.c.name, users.c.name_key)
                                  .where(users.c.id == account))).first()
        if row is None:
            return None
        name, key = str(row[0]), str(row[1])
        played = [int(r[0]) for r in await conn.execute(
            select(player_results.c.table_id).join(tables, tables.c.id ==
                                                   player_results.c.table_id)
            .where(player_results.c.account == account, tables.c.status == "finished"))]
        for table_id in played:
            await _anonymise_table(conn, table_id, account, name)
        for table, column in ((mail_tokens, mail_tokens.c.account),
                              (account_emails, account_emails.c.account),
                              (ratings, ratings.c.account),
                              (player_results, player_results.c.account),
                              (account_settings, account_settings.c.account),
                              (sessions, sessions.c.account)):
            await conn.execute(delete(table).where(column == account))
        await conn.execute(delete(users).where(users.c.id == account))
        if await conn.scalar(select(retired_names.c.name_key)
                             .where(retired_names.c.name_key == key)) is None:
            await conn.execute(insert(retired_names).values(name_key=key,
                                                            retired=datetime.now(UTC)))
    log.info("account %d deleted; %d finished matches anonymised", account, len(played))
    return Deleted(name, len(played))


async def _anonymise_table(conn: AsyncConnection, table_id: int, account: int,
                           name: str) -> None:
    record_text = await conn.scalar(select(tables.c.record).where(tables.c.id == table_id))
    if record_text:
        record = json.loads(record_text)
        players = record.get("players")
        if isinstance(players, list):
            record["players"] = [DELETED_NAME if p == name else p for p in players]
            await conn.execute(update(tables).where(tables.c.id == table_id)
                               .values(record=json.dumps(record)))
    entries = await conn.execute(select(table_log.c.version, table_log.c.kind,
                                        table_log.c.data).where(
        table_log.c.table_id == table_id, table_log.c.kind.in_(("seats", "chat"))))
    for version, kind, text in entries.all():
        data = json.loads(text)
        if not _anonymise_entry(str(kind), data, account, name):
            continue
        await conn.execute(update(table_log).where(
            table_log.c.table_id == table_id, table_log.c.version == version)
            .values(data=json.dumps(data, separators=(",", ":"))))


def _anonymise_entry(kind: str, data: dict[str, Any], account: int, name: str) -> bool:
    """Rewrite one log entry in place; whether it changed."""
    changed = False
    if kind == "chat" and data.get("name") == name:
        data["name"] = DELETED_NAME
        changed = True
    for seat in data.get("seats", []) if kind == "seats" else []:
        if isinstance(seat, dict) and (seat.get("account") == account
                                       or (seat.get("kind") == "human"
                                           and seat.get("name") == name)):
            seat.update(name=DELETED_NAME, owner=None)
            seat.pop("account", None)
            changed = True
    return changed

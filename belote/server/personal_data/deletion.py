"""Deleting an account: its personal data goes, what other people's results and the
moderators' records need stays, without the person.

In one transaction:

- every finished match the account played keeps its result (the winning team, the other
  players' own results and ratings, tournaments' standings), but its record and log name the
  seat "deleted player" (:data:`DELETED_NAME`) instead of the account's name, and its chat
  lines too; the account's own results per match and its ratings are deleted;
- its daily duplicate entries stay, as "deleted player" with no account: the scores it made
  still count in the other entrants' matchpoints, so a closed day's ranking does not change
  after the fact; its deals' records and logs are anonymised as a match's are;
- the reports it filed and the reports about it stay for the moderators, with the person as
  "deleted player" (the column is emptied, the name in the report's captured seats and chat
  replaced): the evidence still matters, and a sanctioned person must not be able to erase
  the record of what was reported by deleting the account.  The audit log's rows stay too
  (their account emptied, shown as "deleted player"); the sanctions on the account go (an
  account that no longer exists cannot be barred; the audit log keeps each one's kind,
  reason, moderator and date);
- its friendships, friend requests and blocks, in both directions, go: nobody's list shows
  a ghost, and nobody keeps a block on a person who is gone; its moderator role goes;
- its league weeks go (the standings of a week, closed or not, are read from the rated
  matches, whose own lines the account no longer has; the others' places and divisions
  already given stand);
- the account's row, sessions, settings, e-mail address and links are deleted; its id is
  never given to another account (``_remember_deleted_id``);
- its name's folded key is kept in ``retired_names``, so that the name is never given to
  someone else (see :mod:`.schema`).

:data:`ACCOUNT_COLUMNS` lists every column that points to ``users.id`` with what deletion
does to it; a test fails when a table is added without being listed here (and in the
export).  The caller ends the sessions' sockets (``Sessions.end``) once this returned.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Column, Table, delete, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from belote.server.daily.schema import daily_entries, daily_plays
from belote.server.friends.schema import blocks, friend_links
from belote.server.leagues.schema import league_results
from belote.server.mail.schema import account_emails, mail_tokens
from belote.server.moderation.schema import (
    account_roles,
    moderation_log,
    reports,
    sanctions,
)
from belote.server.persistence.schema import (
    DELETED_ACCOUNTS_HIGH,
    DELETED_NAME,
    account_settings,
    meta,
    sessions,
    table_log,
    tables,
    users,
)
from belote.server.personal_data.schema import retired_names
from belote.server.ratings.schema import player_results, ratings
from belote.server.saved.schema import saved_games, saved_seats

__all__ = ["ACCOUNT_COLUMNS", "DELETED_NAME", "Deleted", "delete_account", "name_retired"]

log = logging.getLogger(__name__)

DELETE = "deleted"
KEEP = "kept without the person"
# Every column that names an account (a foreign key to users.id): what deletion does.
ACCOUNT_COLUMNS: dict[tuple[str, str], str] = {
    ("sessions", "account"): DELETE,
    ("account_settings", "account"): DELETE,
    ("account_emails", "account"): DELETE,
    ("mail_tokens", "account"): DELETE,
    ("ratings", "account"): DELETE,
    ("player_results", "account"): DELETE,
    ("league_results", "account"): DELETE,
    ("friend_links", "account"): DELETE,
    ("friend_links", "other"): DELETE,
    ("blocks", "blocker"): DELETE,
    ("blocks", "blocked"): DELETE,
    ("account_roles", "account"): DELETE,
    ("sanctions", "account"): DELETE,
    ("sanctions", "moderator"): KEEP,
    ("reports", "reporter"): KEEP,
    ("reports", "target"): KEEP,
    ("moderation_log", "moderator"): KEEP,
    ("moderation_log", "account"): KEEP,
    ("daily_entries", "account"): KEEP,
    # A saved game the account sat at could never be resumed without it (every seat waits
    # for its own person): it ends as if abandoned, for everyone (its log, anonymised,
    # stays), and its seats go with it.
    ("saved_seats", "account"): DELETE,
}
_TABLES: dict[str, Table] = {t.name: t for t in (
    sessions, account_settings, account_emails, mail_tokens, ratings, player_results,
    league_results, friend_links, blocks, account_roles, sanctions, reports, moderation_log,
    daily_entries, saved_seats)}


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
        await _keep_daily_entries(conn, account, name)
        await _end_saved_games(conn, account, name)
        await _keep_reports(conn, account, name)
        # Sanctions go before the audit log's rows lose their account (their own foreign
        # key empties the log's ``sanction``; the row keeps kind, reason and date).
        for (table_name, column_name), action in ACCOUNT_COLUMNS.items():
            column: Column[Any] = _TABLES[table_name].c[column_name]
            if action == DELETE:
                await conn.execute(delete(_TABLES[table_name]).where(column == account))
            else:
                await conn.execute(update(_TABLES[table_name]).where(column == account)
                                   .values({column_name: None}))
        await conn.execute(delete(users).where(users.c.id == account))
        await _remember_deleted_id(conn, account)
        if await conn.scalar(select(retired_names.c.name_key)
                             .where(retired_names.c.name_key == key)) is None:
            await conn.execute(insert(retired_names).values(name_key=key,
                                                            retired=datetime.now(UTC)))
    log.info("account %d deleted; %d finished matches anonymised", account, len(played))
    return Deleted(name, len(played))


async def _remember_deleted_id(conn: AsyncConnection, account: int) -> None:
    """The highest id a deleted account had, so that SQLite never gives it again (see
    :data:`~belote.server.persistence.schema.DELETED_ACCOUNTS_HIGH`): a signed invitation,
    a bus message or a cache still naming the deleted account must not reach a newcomer."""
    high = await conn.scalar(select(meta.c.value).where(meta.c.key == DELETED_ACCOUNTS_HIGH))
    if high is None:
        await conn.execute(insert(meta).values(key=DELETED_ACCOUNTS_HIGH, value=str(account)))
    elif int(high) < account:
        await conn.execute(update(meta).where(meta.c.key == DELETED_ACCOUNTS_HIGH)
                           .values(value=str(account)))


async def _keep_daily_entries(conn: AsyncConnection, account: int, name: str) -> None:
    """The account's daily entries stay as "deleted player" (their scores keep counting for
    the others); their deals' tables are anonymised, and the session holding a seat
    forgotten."""
    entries = [int(r[0]) for r in await conn.execute(
        select(daily_entries.c.id).where(daily_entries.c.account == account))]
    if not entries:
        return
    dealt = [int(r[0]) for r in await conn.execute(
        select(daily_plays.c.table_id).where(daily_plays.c.entry.in_(entries),
                                             daily_plays.c.table_id.is_not(None)))]
    for table_id in dealt:
        await _anonymise_table(conn, table_id, account, name)
    await conn.execute(update(daily_plays).where(daily_plays.c.entry.in_(entries))
                       .values(holder=None))
    await conn.execute(update(daily_entries).where(daily_entries.c.id.in_(entries))
                       .values(name=DELETED_NAME))


async def _end_saved_games(conn: AsyncConnection, account: int, name: str) -> None:
    """The saved games the account sat at end for everyone (as "abandon" ends them), their
    logs anonymised."""
    saved = [int(r[0]) for r in await conn.execute(
        select(saved_seats.c.table_id).where(saved_seats.c.account == account))]
    for table_id in saved:
        await _anonymise_table(conn, table_id, account, name)
        await conn.execute(update(tables).where(tables.c.id == table_id,
                                                tables.c.status == "saved")
                           .values(status="abandoned"))
        await conn.execute(delete(saved_seats).where(saved_seats.c.table_id == table_id))
        await conn.execute(delete(saved_games).where(saved_games.c.table_id == table_id))


async def _keep_reports(conn: AsyncConnection, account: int, name: str) -> None:
    """The reports the account filed or is seen in keep their context without its name:
    its seat and chat lines say "deleted player" (the columns are emptied by the caller)."""
    found = await conn.execute(select(reports.c.id, reports.c.context).where(or_(
        reports.c.reporter == account, reports.c.target == account,
        reports.c.context.contains(json.dumps(name), autoescape=True))))
    for report_id, text in found.all():
        context = json.loads(text)
        changed = False
        for item in [*context.get("seats", []), *context.get("chat", [])]:
            if isinstance(item, dict) and (item.get("account") == account
                                           or item.get("name") == name):
                item.update(name=DELETED_NAME, account=None)
                changed = True
        if changed:
            await conn.execute(update(reports).where(reports.c.id == report_id)
                               .values(context=json.dumps(context)))


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
    if kind == "chat" and (data.get("name") == name or data.get("account") == account):
        data["name"] = DELETED_NAME
        data.pop("account", None)
        changed = True
    for seat in data.get("seats", []) if kind == "seats" else []:
        if isinstance(seat, dict) and (seat.get("account") == account
                                       or (seat.get("kind") == "human"
                                           and seat.get("name") == name)):
            seat.update(name=DELETED_NAME, owner=None)
            seat.pop("account", None)
            changed = True
    return changed

"""Who may enter a table, and see a finished match's replay: a private table stays private,
playing and once finished."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from belote.server.routes.common import account, identity
from belote.server.shared import shared
from belote.server.table import Table

REPLAY_ACCESS_KEPT = 10_000  # finished matches whose access is remembered


def _invited(conn: HTTPConnection, table_id: int) -> bool:
    """Whether this browser came with the table's invitation code (kept in the session)."""
    invited = conn.session.get("invited", [])
    return isinstance(invited, list) and table_id in invited


def may_enter(conn: HTTPConnection, table: Table) -> bool:
    """A private table lets in its creator, its seated players (by their session, or by
    their account: a saved table resumed waits for them on any device) and whoever came
    with its invitation code; any other table, everyone."""
    if not table.private:
        return True
    who = identity(conn)
    uid = who[0] if who else None
    mine = account(conn)
    return (uid is not None and (uid == table.creator or any(
        s.owner == uid for s in table.seats))) or (mine is not None and any(
            s.kind == "human" and s.account == mine for s in table.seats)) or _invited(
        conn, table.id)


async def may_replay(conn: HTTPConnection, table_id: int) -> bool:
    """A private match stays private once finished: its replay, record and analysis go
    to the players who sat at it and to whoever came with its invitation code."""
    state = shared(conn)
    table = state.room.tables.get(table_id)
    if table is not None:
        return may_enter(conn, table)
    access = state.replay_access.get(table_id)
    if access is None:
        # A table no longer held in memory: its log says, once (it never changes).
        private, found = False, set()
        for entry in await state.store.log(table_id):
            if entry.kind == "setup":
                private = bool(entry.data.get("private", False))
            elif entry.kind == "seats":
                found |= {str(s.get("owner")) for s in entry.data.get("seats", [])}
        access = state.replay_access[table_id] = (private, frozenset(found))
        while len(state.replay_access) > REPLAY_ACCESS_KEPT:
            state.replay_access.popitem(last=False)
    private, owners = access
    if not private:
        return True
    who = identity(conn)
    return (who is not None and who[0] in owners) or _invited(conn, table_id)


__all__ = ["may_enter", "may_replay"]

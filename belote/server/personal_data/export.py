"""Everything the room holds about an account, as one JSON document for its owner.

The account, its e-mail address and whether it is verified, its saved settings, its signed-in
sessions (browser, address, when), its ratings, its results per finished match (with the
weight the match had in its rating), its weeks in the leagues, and the
tournaments it organises or whose players carry its name (tournaments record players by the
names their organisers type, not by account).  Not in it: the secrets (the password's hash,
the links' tokens) and what belongs to other people (their names at its matches, the chat).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from belote.server.leagues.schema import league_results
from belote.server.mail.schema import account_emails, mail_tokens
from belote.server.persistence.schema import account_settings, sessions, users
from belote.server.ratings.schema import match_results, player_results, ratings
from belote.server.tournament.schema import (
    tournament_organisers,
    tournament_players,
    tournaments,
)

FORMAT = "belote-sala-account"
VERSION = 1


def _moment(value: datetime | None) -> str | None:
    return None if value is None else value.astimezone(UTC).isoformat()


async def export(engine: AsyncEngine, account: int) -> dict[str, Any] | None:
    """The account's data (None: no such account)."""
    async with engine.connect() as conn:
        row = (await conn.execute(select(users.c.name, users.c.name_key, users.c.created)
                                  .where(users.c.id == account))).first()
        if row is None:
            return None
        name, key = str(row.name), str(row.name_key)
        email = (await conn.execute(select(account_emails.c.address,
                                           account_emails.c.verified)
                                    .where(account_emails.c.account == account))).first()
        pending = (await conn.execute(select(mail_tokens.c.purpose, mail_tokens.c.expires)
                                      .where(mail_tokens.c.account == account,
                                             mail_tokens.c.used.is_(None)))).all()
        saved = await conn.scalar(select(account_settings.c.data)
                                  .where(account_settings.c.account == account))
        devices = (await conn.execute(select(sessions).where(sessions.c.account == account)
                                      .order_by(sessions.c.last_seen.desc()))).all()
        rated = (await conn.execute(select(ratings).where(ratings.c.account == account)
                                    .order_by(ratings.c.preset))).all()
        matches = (await conn.execute(
            select(player_results, match_results.c.rated, match_results.c.recorded,
                   match_results.c.weight, match_results.c.bots)
            .join(match_results, match_results.c.table_id == player_results.c.table_id)
            .where(player_results.c.account == account)
            .order_by(player_results.c.table_id))).all()
        weeks = (await conn.execute(select(league_results)
                                    .where(league_results.c.account == account)
                                    .order_by(league_results.c.week))).all()
        organised = (await conn.execute(
            select(tournaments.c.id, tournaments.c.name, tournaments.c.state)
            .where((tournaments.c.owner == key) | tournaments.c.id.in_(
                select(tournament_organisers.c.tournament_id)
                .where(tournament_organisers.c.name_key == key)))
            .order_by(tournaments.c.id))).all()
        entries = (await conn.execute(
            select(tournament_players.c.tournament_id, tournament_players.c.entrant_id,
                   tournaments.c.name)
            .join(tournaments, tournaments.c.id == tournament_players.c.tournament_id)
            .where(tournament_players.c.name == name)
            .order_by(tournament_players.c.tournament_id))).all()
    return {
        "format": FORMAT, "version": VERSION, "exported": _moment(datetime.now(UTC)),
        "account": {"id": account, "name": name, "created": _moment(row.created)},
        "email": None if email is None else {"address": str(email.address),
                                             "verified": _moment(email.verified)},
        "links_pending": [{"purpose": str(p.purpose), "expires": _moment(p.expires)}
                          for p in pending],
        "settings": None if saved is None else json.loads(saved),
        "sessions": [{"browser": s.user_agent, "address": s.address,
                      "created": _moment(s.created), "last_seen": _moment(s.last_seen)}
                     for s in devices],
        "ratings": [{"preset": r.preset, "mu": r.mu, "sigma": r.sigma,
                     "rated_matches": r.matches, "won": r.won} for r in rated],
        "matches": [{"table": m.table_id, "preset": m.preset, "won": bool(m.won),
                     "rated": bool(m.rated), "contracts_taken": m.taken, "made": m.made,
                     "failed": m.failed, "points": m.points, "with_bots": m.bots,
                     "rating_weight": m.weight, "recorded": _moment(m.recorded)}
                    for m in matches],
        "league_weeks": [{"week": w.week.isoformat(), "division": w.division,
                          "group": w.group_no, "place": w.place, "points": w.points,
                          "won": w.won, "matches": w.matches, "move": w.move}
                         for w in weeks],
        "tournaments": {
            "organised": [{"id": t.id, "name": t.name, "state": t.state} for t in organised],
            "played_under_this_name": [{"tournament": e.tournament_id, "entrant": e.entrant_id,
                                        "tournament_name": e.name} for e in entries],
        },
    }

"""Everything the room holds about an account, as one JSON document for its owner.

In it: the account, its e-mail address and whether it is verified, its saved settings, its
signed-in sessions (browser, address, when), its ratings, its results per finished match (with
the weight the match had in their rating), its weeks in the leagues, the tournaments it
organises or whose players carry its name (tournaments record players by the names their
organisers type, not by account); its friends and its friend requests sent and received (the
other account's id and public name, and since when); the people it blocked; the reports it
filed (reason, its own words, table, time, status, and the reported account's public name);
every moderators' action taken on it, in force or past (kind, reason, dates, table: a person
has a right to know, but not which moderator acted); whether it is a moderator, and the
actions it took as one; its daily duplicate entries with each deal's own score, and for the
days already closed the deal's table and its matchpoints; its saved games (table, seat,
when, the score then).

Not in it: the secrets (the password's hash, the links' tokens); what belongs to other
people (their names at its matches, the chat, the seats and chat lines a report captured);
who blocked it and who reported it (telling would expose them to the person they wanted
kept away); and, of the daily's open day, anything but its own scores (the deals stay
hidden until the day closes, from their own entrant too).  :data:`EXPORTED` lists the
columns naming an account that the export reads: a test fails when a table naming
accounts is added without a word here (and in the deletion).
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import Select, and_, case, func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from belote.server.daily.schema import daily_entries, daily_plays
from belote.server.daily.scoring import matchpoint_percent
from belote.server.friends.schema import ASKED, FRIENDS, blocks, friend_links
from belote.server.leagues.schema import league_results
from belote.server.mail.schema import account_emails, mail_tokens
from belote.server.moderation.schema import (
    account_roles,
    moderation_log,
    reports,
    sanctions,
)
from belote.server.persistence.schema import DELETED_NAME, account_settings, sessions, users
from belote.server.ratings.schema import match_results, player_results, ratings
from belote.server.saved.schema import saved_games, saved_seats
from belote.server.tournament.schema import (
    tournament_organisers,
    tournament_players,
    tournaments,
)

FORMAT = "belote-sala-account"
VERSION = 2  # 2: friends, blocks, reports, moderation, the daily duplicate

# Every column naming an account that the export reads for its owner; the others are left
# out on purpose: ``blocks.blocked`` (who blocked the owner), ``reports.target`` (who
# reported the owner), ``moderation_log.account`` of actions on the owner (told through
# ``sanctions``; the log names the moderator), ``sanctions.moderator``.
EXPORTED: frozenset[tuple[str, str]] = frozenset({
    ("sessions", "account"), ("account_settings", "account"), ("account_emails", "account"),
    ("mail_tokens", "account"), ("ratings", "account"), ("player_results", "account"),
    ("league_results", "account"), ("friend_links", "account"), ("friend_links", "other"),
    ("blocks", "blocker"), ("account_roles", "account"), ("sanctions", "account"),
    ("reports", "reporter"), ("moderation_log", "moderator"), ("daily_entries", "account"),
    ("saved_seats", "account"),
})
NOT_EXPORTED: frozenset[tuple[str, str]] = frozenset({
    ("blocks", "blocked"), ("reports", "target"), ("moderation_log", "account"),
    ("sanctions", "moderator"),
})


def _moment(value: datetime | None) -> str | None:
    return None if value is None else value.astimezone(UTC).isoformat()


async def export(engine: AsyncEngine, account: int,
                 today: date | None = None) -> dict[str, Any] | None:
    """The account's data (None: no such account).  ``today``: the daily duplicate's open
    day (by default the UTC date): its deals are not shown, only the account's scores."""
    today = today or datetime.now(UTC).date()
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
        play = await _play(conn, account)
        social = await _social(conn, account)
        moderation = await _moderation(conn, account)
        daily = await _daily(conn, account, today)
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
        **play,
        "tournaments": {
            "organised": [{"id": t.id, "name": t.name, "state": t.state} for t in organised],
            "played_under_this_name": [{"tournament": e.tournament_id, "entrant": e.entrant_id,
                                        "tournament_name": e.name} for e in entries],
        },
        **social,
        **moderation,
        "daily_duplicate": daily,
    }


async def _play(conn: AsyncConnection, account: int) -> dict[str, Any]:
    """Its matches (with their weight in the rating), saved games and league weeks."""
    matches = (await conn.execute(
        select(player_results, match_results.c.rated, match_results.c.bots,
               # (player_results has its copy of the moment since 0015: the match's)
               match_results.c.recorded.label("match_recorded"))
        .join(match_results, match_results.c.table_id == player_results.c.table_id)
        .where(player_results.c.account == account)
        .order_by(player_results.c.table_id))).all()
    kept = (await conn.execute(
        select(saved_seats.c.table_id, saved_seats.c.seat, saved_games.c.saved,
               saved_games.c.hands, saved_games.c.totals)
        .join(saved_games, saved_games.c.table_id == saved_seats.c.table_id)
        .where(saved_seats.c.account == account)
        .order_by(saved_seats.c.table_id))).all()
    weeks = (await conn.execute(select(league_results)
                                .where(league_results.c.account == account)
                                .order_by(league_results.c.week))).all()
    return {
        "matches": [{"table": m.table_id, "preset": m.preset, "won": bool(m.won),
                     "rated": bool(m.rated), "contracts_taken": m.taken, "made": m.made,
                     "failed": m.failed, "points": m.points, "with_bots": m.bots,
                     "rating_weight": m.weight, "recorded": _moment(m.match_recorded)}
                    for m in matches],
        "saved_games": [{"table": g.table_id, "seat": g.seat, "saved": _moment(g.saved),
                         "hands": g.hands, "score": json.loads(g.totals)} for g in kept],
        "league_weeks": [{"week": w.week.isoformat(), "division": w.division,
                          "group": w.group_no, "place": w.place, "points": w.points,
                          "won": w.won, "matches": w.matches, "move": w.move}
                         for w in weeks],
    }


async def _social(conn: AsyncConnection, account: int) -> dict[str, Any]:
    """Friends, requests both ways, and the people the account blocked (never who blocked
    it)."""
    fl = friend_links.c
    mine = (await conn.execute(select(fl.other, fl.state, fl.since, users.c.name)
                               .join(users, users.c.id == fl.other)
                               .where(fl.account == account).order_by(fl.since))).all()
    theirs = (await conn.execute(select(fl.account, fl.since, users.c.name)
                                 .join(users, users.c.id == fl.account)
                                 .where(fl.other == account, fl.state == ASKED)
                                 .order_by(fl.since))).all()
    blocked = (await conn.execute(select(blocks.c.blocked, blocks.c.since, users.c.name)
                                  .join(users, users.c.id == blocks.c.blocked)
                                  .where(blocks.c.blocker == account)
                                  .order_by(blocks.c.since))).all()

    def person(other: int, name: str, since: datetime) -> dict[str, Any]:
        return {"account": other, "name": name, "since": _moment(since)}

    return {"friends": [person(r.other, r.name, r.since) for r in mine if r.state == FRIENDS],
            "friend_requests": {
                "sent": [person(r.other, r.name, r.since) for r in mine if r.state == ASKED],
                "received": [person(r.account, r.name, r.since) for r in theirs]},
            "blocked": [person(r.blocked, r.name, r.since) for r in blocked]}


async def _moderation(conn: AsyncConnection, account: int) -> dict[str, Any]:
    """The reports it filed, the actions taken on it, its role and its own actions."""
    target = users.alias("target_user")
    filed = (await conn.execute(
        select(reports.c.id, reports.c.target, reports.c.table_id, reports.c.reason,
               reports.c.text, reports.c.created, reports.c.status,
               target.c.name.label("target_name"))
        .outerjoin(target, target.c.id == reports.c.target)
        .where(reports.c.reporter == account).order_by(reports.c.id))).all()
    taken = (await conn.execute(select(sanctions).where(sanctions.c.account == account)
                                .order_by(sanctions.c.id))).all()
    granted = await conn.scalar(select(account_roles.c.granted)
                                .where(account_roles.c.account == account))
    who = users.alias("who_user")
    acted = (await conn.execute(
        select(moderation_log.c.at, moderation_log.c.action, moderation_log.c.account,
               who.c.name, moderation_log.c.report, moderation_log.c.reason)
        .outerjoin(who, who.c.id == moderation_log.c.account)
        .where(moderation_log.c.moderator == account)
        .order_by(moderation_log.c.id))).all()
    return {
        "reports_filed": [{
            "report": r.id, "about": DELETED_NAME if r.target is None else r.target_name,
            "table": r.table_id, "reason": r.reason, "text": r.text,
            "created": _moment(r.created), "status": r.status} for r in filed],
        "moderation_actions_on_me": [{
            "kind": s.kind, "reason": s.reason, "created": _moment(s.created),
            "until": _moment(s.until), "lifted": _moment(s.lifted), "table": s.table_id}
            for s in taken],
        "moderator": None if granted is None else {
            "since": _moment(granted),
            "actions": [{"at": _moment(a.at), "action": a.action,
                         "on": DELETED_NAME if a.account is None else a.name,
                         "report": a.report, "reason": a.reason} for a in acted]},
    }


async def _daily(conn: AsyncConnection, account: int, today: date) -> list[dict[str, Any]]:
    """Its entries, each deal's own score; the table and matchpoints of closed days only.

    Three queries whatever the history (issue 28's review, M2): the entries, their plays, and
    for each of its own scored deals of a closed day the database's count of the entrants
    who played that deal with a lower and an equal score (a grouped count over that day's
    plays, by their keys), turned into the percentage by the scoring's own formula
    (:func:`~belote.server.daily.scoring.matchpoint_percent`).  Nobody else's play is read
    into the process."""
    entries = (await conn.execute(select(daily_entries).where(
        daily_entries.c.account == account).order_by(daily_entries.c.day))).all()
    plays: dict[int, list[Any]] = {}
    for play in (await conn.execute(
            select(daily_plays).join(daily_entries, daily_entries.c.id == daily_plays.c.entry)
            .where(daily_entries.c.account == account)
            .order_by(daily_plays.c.entry, daily_plays.c.deal))).all():
        plays.setdefault(play.entry, []).append(play)
    percent = {(int(r.entry), int(r.deal)): round(matchpoint_percent(
        int(r.below), int(r.level), int(r.played) - 1), 2)
        for r in (await conn.execute(_matchpoint_counts(account, today))).all()}
    shown = []
    for entry in entries:
        closed = entry.day < today.isoformat()
        shown.append({
            "day": entry.day, "name": entry.name, "entered": _moment(entry.entered),
            "closed": closed,
            "deals": [{"deal": p.deal, "score": p.score, "finished": _moment(p.finished),
                       **({"table": p.table_id,
                           "matchpoints_percent": percent.get((entry.id, p.deal))}
                          if closed else {})} for p in plays.get(entry.id, [])]})
    return shown


def _matchpoint_counts(account: int, today: date) -> Select[Any]:
    """For each scored deal of the account's entries of closed days: how many entrants
    played it (scored), and how many of them scored less and the same (itself included)."""
    me, mine = daily_entries.alias("me"), daily_plays.alias("mine")
    them, theirs = daily_entries.alias("them"), daily_plays.alias("theirs")
    return (select(mine.c.entry, mine.c.deal, func.count().label("played"),
                   func.sum(case((theirs.c.score < mine.c.score, 1), else_=0)).label("below"),
                   func.sum(case((theirs.c.score == mine.c.score, 1), else_=0)).label("level"))
            .select_from(mine.join(me, me.c.id == mine.c.entry)
                         .join(them, them.c.day == me.c.day)
                         .join(theirs, and_(theirs.c.entry == them.c.id,
                                            theirs.c.deal == mine.c.deal)))
            .where(me.c.account == account, me.c.day < today.isoformat(),
                   mine.c.score.is_not(None), theirs.c.score.is_not(None))
            .group_by(mine.c.entry, mine.c.deal))

"""Export my data and delete my account across every feature (issue 28, item 3; the GDPR's
rights of access and erasure): friends, blocks, reports, moderation, the daily duplicate,
the leagues.

One room serves the module; :func:`world` gives Ana a friend (Ben), a request sent (to Mo)
and one received (from Cleo), a block (on Cleo), a report filed (on Cleo), a warning received,
daily entries (a closed day and today) and a closed league week, while Ben blocks and
reports Ana (which Ana's export must not tell).  The exports are taken before anything is
deleted, so that the tests can run in any order; the deletion test deletes Ana.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher

from belote.server.app import create_app
from belote.server.auth import passwords as passwords_module
from belote.server.composition import metadata
from belote.server.daily.schema import daily_entries, daily_plays
from belote.server.daily.scoring import deal_percentages
from belote.server.daily.store import DailyStore
from belote.server.friends.schema import ASKED, FRIENDS, blocks, friend_links
from belote.server.leagues.store import LeagueStore
from belote.server.moderation.schema import moderation_log, reports, sanctions
from belote.server.moderation.store import ModerationStore
from belote.server.persistence.schema import tables
from belote.server.persistence.store import NameTaken, Store
from belote.server.personal_data.deletion import (
    ACCOUNT_COLUMNS,
    DELETE,
    DELETED_NAME,
    KEEP,
    delete_account,
)
from belote.server.personal_data.export import EXPORTED, NOT_EXPORTED
from belote.server.ratings.schema import match_results, player_results
from belote.server.saved.schema import saved_games, saved_seats
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import Identities, read_store

PASSWORD = "settebello"
PEOPLE = ("Ana", "Ben", "Cleo", "Mo")
CLOSED_DAY = "2020-01-06"  # a daily duplicate's day long closed
# Ben's own words: never in Ana's export.  (A reporter's words are kept as written, even if
# they name the person: they are the reporter's, and the evidence.)
BEN_REPORT = "insults everyone at the table"


@dataclass
class World:
    client: Any
    people: Identities
    app: Any
    ids: dict[str, int]
    today: str
    league_week: date
    exports: dict[str, dict[str, Any]]
    before: dict[str, str]  # pages as others saw them before the deletion


def as_(world: World, who: str, method: str, path: str, **kw: Any) -> Any:
    client = world.people.use(who)
    answer = getattr(client, method)(path, **kw)
    world.people._jars[who] = client.cookies
    return answer


def page_text(answer: Any) -> str:
    """What a page says to a person (the body's text, without the markup)."""
    assert answer.status_code == 200, answer.text
    return re.sub(r"<[^>]+>", " ", answer.text)


def names_ana(text: str) -> bool:
    return re.search(r"\bAna\b", text) is not None


async def _build(store: Any, ids: dict[str, int], today: str) -> date:
    """Every feature's rows for the world; the closed league week's Monday."""
    now = datetime.now(UTC)
    ana, ben, cleo, mo = (ids[n] for n in PEOPLE)
    moderation = ModerationStore(store.engine)
    await moderation.grant(mo, now)
    async with store.engine.begin() as conn:
        await conn.execute(sa.insert(friend_links), [
            {"account": ana, "other": ben, "state": FRIENDS, "since": now},
            {"account": ben, "other": ana, "state": FRIENDS, "since": now},
            {"account": ana, "other": mo, "state": ASKED, "since": now},
            {"account": cleo, "other": ana, "state": ASKED, "since": now}])
        await conn.execute(sa.insert(blocks), [
            {"blocker": ana, "blocked": cleo, "since": now},
            {"blocker": ben, "blocked": ana, "since": now}])
    chat = {"seats": [{"seat": 0, "name": "Ana", "account": ana},
                      {"seat": 1, "name": "Cleo", "account": cleo}],
            "chat": [{"version": 3, "name": "Cleo", "text": "you are slow", "account": cleo},
                     {"version": 4, "name": "Ana", "text": "please stop", "account": ana}]}
    filed = await moderation.add_report(ana, cleo, None, "abuse", "Cleo was rude", chat, now)
    about = await moderation.add_report(ben, ana, None, "abuse", BEN_REPORT, chat, now)
    await moderation.add_sanction(ana, "warn", "mind your words", now, None, mo, about, None)
    assert filed != about
    # The daily duplicate: a closed day's deal 1 played by three (Ana best, Ben second),
    # and Ana's deal 1 of today (its day open: its table is not to be told).
    for day, who, score in ((CLOSED_DAY, ana, 100), (CLOSED_DAY, ben, 80),
                            (CLOSED_DAY, cleo, 60), (today, ana, 90)):
        table_id = await store.new_table("classic", {}, 162, status="finished")
        async with store.engine.begin() as conn:
            entry = (await conn.execute(sa.insert(daily_entries).values(
                day=day, account=who, name=next(n for n in PEOPLE if ids[n] == who),
                entered=now))).inserted_primary_key[0]
            await conn.execute(sa.insert(daily_plays).values(
                entry=entry, deal=1, table_id=table_id, reserved=now, holder=f"s{who}",
                score=score, finished=now))
    # A rated match between Ana and Ben last week (Ana won), and one this week: closing the
    # ended weeks gives both a league week.
    for recorded in (now - timedelta(days=7), now):
        table_id = await store.new_table("classic", {}, 301, status="finished")
        async with store.engine.begin() as conn:
            await conn.execute(sa.insert(match_results).values(
                table_id=table_id, preset="classic", rated=True, winner=0,
                recorded=recorded, bots=False, weight=1.0))
            await conn.execute(sa.insert(player_results), [
                {"table_id": table_id, "account": who, "preset": "classic", "won": won,
                 "taken": 1, "made": 1, "failed": 0, "recorded": recorded, "repeat": 1,
                 "weight": 1.0} for who, won in ((ana, True), (ben, False))])
    # A game Ana and Ben saved (Ben's list shows it until Ana deletes her account).
    saved_id = await store.new_table("classic", {}, 301, status="saved")
    async with store.engine.begin() as conn:
        await conn.execute(sa.insert(saved_games).values(
            table_id=saved_id, saved=now, hands=3, totals="[120, 90]"))
        await conn.execute(sa.insert(saved_seats), [
            {"table_id": saved_id, "seat": 0, "account": ana, "name": "Ana"},
            {"table_id": saved_id, "seat": 1, "account": ben, "name": "Ben"}])
    leagues = LeagueStore(store.engine)
    await leagues.close_due()
    week = leagues.current_week() - timedelta(days=7)
    assert [ln.entry.name for ln in await leagues.standings(week)] == ["Ana", "Ben"]
    return week


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp: Path = tmp_path_factory.mktemp("personal_data")
    with pytest.MonkeyPatch.context() as patch:
        # Cheap hashes: what is tested is the data, not the hash's cost.
        patch.setattr(passwords_module, "_hasher",
                      PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
        app = create_app(make_settings(tmp, exports_per_hour=100, signups_per_hour=100))
        with client_for(app) as client:
            people = Identities(client)
            world = World(client, people, app, {}, datetime.now(UTC).date().isoformat(),
                          date.min, {}, {})
            for name in PEOPLE:
                answer = as_(world, name, "post", "/register",
                             data={"name": name, "password": PASSWORD},
                             follow_redirects=False)
                assert answer.status_code == 303, answer.text

            async def ids(store: Any) -> dict[str, int]:
                async with store.engine.connect() as conn:
                    rows = await conn.execute(sa.text("SELECT name, id FROM users"))
                    return {str(n): int(i) for n, i in rows}
            world.ids = read_store(app, ids)
            world.league_week = read_store(app, lambda s: _build(s, world.ids, world.today))
            for name in ("Ana", "Mo"):
                answer = as_(world, name, "post", "/account/export")
                assert answer.status_code == 200
                world.exports[name] = answer.json()
            world.before = {
                "friends": page_text(as_(world, "Ben", "get", "/friends")),
                "queue": page_text(as_(world, "Mo", "get", "/moderation")),
                "daily": page_text(as_(world, "Ben", "get", f"/daily/{CLOSED_DAY}")),
                "league": page_text(as_(world, "Ben", "get", "/leagues"))}
            yield world


def test_the_export_holds_every_features_data_and_nothing_private_of_others(
        world: World) -> None:
    data, ids = world.exports["Ana"], world.ids
    assert data["version"] == 2
    assert [(f["account"], f["name"]) for f in data["friends"]] == [(ids["Ben"], "Ben")]
    assert [f["name"] for f in data["friend_requests"]["sent"]] == ["Mo"]
    assert [(f["account"], f["name"]) for f in data["friend_requests"]["received"]] == [
        (ids["Cleo"], "Cleo")]
    # The people Ana blocked; that Ben blocked Ana is Ben's secret.
    assert [(b["account"], b["name"]) for b in data["blocked"]] == [(ids["Cleo"], "Cleo")]
    [filed] = data["reports_filed"]
    assert (filed["about"], filed["text"], filed["reason"], filed["status"]) == (
        "Cleo", "Cleo was rude", "abuse", "open")
    assert "context" not in filed and "you are slow" not in json.dumps(data)
    [warning] = data["moderation_actions_on_me"]
    assert (warning["kind"], warning["reason"], warning["lifted"]) == (
        "warn", "mind your words", None)
    assert "moderator" not in warning and data["moderator"] is None
    # Who reported Ana, and with which words, is not told (the action taken is).
    text = json.dumps(data)
    assert BEN_REPORT not in text and "blocked_by" not in text
    days = {d["day"]: d for d in data["daily_duplicate"]}
    closed, today = days[CLOSED_DAY], days[world.today]
    assert closed["closed"] and closed["deals"][0]["score"] == 100
    assert closed["deals"][0]["matchpoints_percent"] == 100.0 and closed["deals"][0]["table"]
    # Of the open day, only Ana's own score: not the deal's table (its cards).
    assert not today["closed"] and today["deals"][0]["score"] == 90
    assert "table" not in today["deals"][0]
    assert [(w["week"], w["place"]) for w in data["league_weeks"]] == [
        (world.league_week.isoformat(), 1)]
    [saved] = data["saved_games"]
    assert (saved["seat"], saved["hands"], saved["score"]) == (0, 3, [120, 90])


def test_a_moderator_exports_the_role_and_the_actions_taken(world: World) -> None:
    moderator = world.exports["Mo"]["moderator"]
    assert moderator is not None and moderator["since"]
    assert [(a["action"], a["on"], a["reason"]) for a in moderator["actions"]] == [
        ("warn", "Ana", "mind your words")]


def test_after_a_deletion_the_others_pages_read_right_without_the_person(
        world: World) -> None:
    ids, ana = world.ids, world.ids["Ana"]
    assert names_ana(world.before["friends"]) and names_ana(world.before["queue"])
    assert names_ana(world.before["daily"]) and names_ana(world.before["league"])
    answer = as_(world, "Ana", "post", "/account/delete",
                 data={"password": PASSWORD, "confirm": "yes"})
    assert "Account deleted" in answer.text

    # Friends, requests and blocks are gone both ways: nobody's list shows a ghost.
    assert not names_ana(page_text(as_(world, "Ben", "get", "/friends")))
    assert not names_ana(page_text(as_(world, "Cleo", "get", "/friends")))

    async def left(store: Any) -> dict[str, Any]:
        async with store.engine.connect() as conn:
            def rows(table: sa.Table, *where: Any) -> Any:
                return conn.execute(sa.select(table).where(*where))
            return {
                "links": (await rows(friend_links, sa.or_(friend_links.c.account == ana,
                                                          friend_links.c.other == ana))).all(),
                "blocks": (await rows(blocks, sa.or_(blocks.c.blocker == ana,
                                                     blocks.c.blocked == ana))).all(),
                "reports": (await conn.execute(sa.select(reports).order_by(reports.c.id))
                            ).all(),
                "sanctions": (await rows(sanctions, sanctions.c.account == ana)).all(),
                "log": (await conn.execute(sa.select(moderation_log))).all(),
                "daily": await DailyStore(store.engine).day(CLOSED_DAY),
                "week": await LeagueStore(store.engine).standings(world.league_week),
                "history": await LeagueStore(store.engine).history(ids["Ben"]),
                "saved": (await conn.execute(sa.select(saved_seats))).all(),
                "abandoned": (await conn.execute(sa.select(tables.c.id).where(
                    tables.c.status == "abandoned"))).all(),
            }
    found = read_store(world.app, left)
    assert found["links"] == [] and found["blocks"] == [] and found["sanctions"] == []
    # The saved game could never be resumed without Ana: it ended for Ben too.
    assert found["saved"] == [] and len(found["abandoned"]) == 1
    # The reports stay for the moderators, without the person, their context anonymised.
    filed, about = found["reports"]
    assert filed.reporter is None and filed.target == ids["Cleo"]
    assert about.reporter == ids["Ben"] and about.target is None
    for report in (filed, about):
        assert "Ana" not in report.context and DELETED_NAME in report.context
        assert f'"account": {ana}' not in report.context
    [audit] = found["log"]
    assert audit.action == "warn" and audit.account is None and audit.reason
    queue = page_text(as_(world, "Mo", "get", "/moderation"))
    assert not names_ana(queue) and DELETED_NAME in queue
    assert "deleted their account" in queue  # the report about Ana: no action offered
    closed = as_(world, "Mo", "post", "/moderation/close",
                 data={"report": str(about.id), "status": "resolved", "reason": "gone"},
                 follow_redirects=False)
    assert closed.status_code == 303

    # The closed day's ranking: Ana's score still counts for the others, anonymised.
    names, results = found["daily"]
    assert sorted(names.values()) == sorted(["Ben", "Cleo", DELETED_NAME])
    percent = deal_percentages({r.account: r.score for r in results})
    assert percent[ids["Ben"]] == 50.0 and percent[ids["Cleo"]] == 0.0
    day = page_text(as_(world, "Ben", "get", f"/daily/{CLOSED_DAY}"))
    assert not names_ana(day) and DELETED_NAME in day

    # The closed week: Ana's line is gone, Ben's week and division stand.
    assert [ln.entry.name for ln in found["week"]] == ["Ben"]
    assert [(w.week, w.place) for w in found["history"]] == [(world.league_week, 2)]
    assert not names_ana(page_text(as_(world, "Ben", "get", "/leagues")))


def test_every_column_naming_an_account_is_handled_by_export_and_deletion() -> None:
    """A new table pointing to users.id must say what the export and the deletion do with
    it (personal_data/export.py EXPORTED or NOT_EXPORTED; deletion.py ACCOUNT_COLUMNS)."""
    naming = {(table.name, fk.parent.name): fk.ondelete
              for table in metadata.tables.values() for fk in table.foreign_keys
              if fk.column.table.name == "users"}
    assert set(naming) == set(ACCOUNT_COLUMNS)
    assert set(naming) == EXPORTED | NOT_EXPORTED and not EXPORTED & NOT_EXPORTED
    # A deletion by another path (a database's own) does the same: what deletion keeps is
    # emptied, what it deletes cascades.
    for column, ondelete in naming.items():
        assert ondelete == {DELETE: "CASCADE", KEEP: "SET NULL"}[ACCOUNT_COLUMNS[column]], column


@pytest.mark.parametrize("newest", [True, False])
def test_a_deleted_accounts_id_is_never_given_again(tmp_path: Path, newest: bool) -> None:
    """SQLite gives a new row the largest id plus one: deleting the newest account must not
    hand its id (named by signed invitations, bus messages, caches) to the next one, nor
    after a restart.  A name already taken is still refused."""
    url = f"sqlite:///{tmp_path / 'room.db'}"

    async def scenario() -> tuple[list[int], int, int]:
        store = Store(url)
        await store.open()
        made = [await store.add_user(name, "hash") for name in ("Uno", "Due", "Tre")]
        gone = made[-1] if newest else made[0]
        assert await delete_account(store.engine, gone) is not None
        with pytest.raises(NameTaken):
            await store.add_user("Due", "hash")
        after = await store.add_user("Quattro", "hash")
        await store.engine.dispose()
        store = Store(url)
        await store.open()
        assert await delete_account(store.engine, after) is not None
        later = await store.add_user("Cinque", "hash")
        await store.engine.dispose()
        return made, after, later

    made, after, later = asyncio.run(scenario())
    assert len(set(made)) == 3
    assert after == max(made) + 1 and later == after + 1

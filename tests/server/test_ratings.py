"""Ratings and profiles: a finished match between four accounts moves their openskill ratings
once; bots and guests are never rated; the profile and leaderboard pages."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from belote.engine.state import CHANCE, Game
from belote.records import to_record
from belote.rules import find_preset
from belote.server.app import create_app
from belote.server.persistence import Store
from belote.server.ratings.farming import pair, repeats, weight
from belote.server.ratings.model import (
    REFERENCE,
    START,
    MatchOutcome,
    PlayerResult,
    ordinal,
    outcome,
    rate,
)
from belote.server.ratings.schema import match_results, player_results, ratings
from belote.server.ratings.store import RatingsStore
from belote.server.seats import Seat
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import connect, create_table, play_to_the_end, read_store, send
from tests.server.postgres import fresh_database


def finished_record(first_dealer: int = 0) -> dict[str, Any]:
    """A whole (one-hand) classic match, every seat playing its first legal action."""
    from belote.engine.dealing import seeded_deck_source

    game = Game(find_preset("classic").with_flags(target_score=1), first_dealer)
    deck = seeded_deck_source(first_dealer + 11)
    while not game.is_terminal():
        if game.current_player() == CHANCE:
            game.deal(deck())
        else:
            game.apply(game.legal_actions()[-1])  # (the first is a pass: no hand)
    return to_record(game, preset="classic")


def humans(*accounts: int | None) -> list[Seat]:
    return [Seat("human", f"P{n}", f"owner-{n}", account=a) for n, a in enumerate(accounts)]


# ---------------------------------------------------------------------------- the model
def test_a_win_raises_the_winners_and_lowers_the_losers() -> None:
    after = rate([START] * 4, winner=1)
    north, east, south, west = after
    assert east[0] > START[0] and west[0] > START[0]
    assert north[0] < START[0] and south[0] < START[0]
    assert all(sigma < START[1] for _, sigma in after)  # everyone is better known


def test_beating_stronger_players_gains_more_than_beating_weaker_ones() -> None:
    weak, strong = (20.0, 4.0), (30.0, 4.0)
    upset = rate([START, strong, START, strong], winner=0)[0][0] - START[0]
    expected = rate([START, weak, START, weak], winner=0)[0][0] - START[0]
    assert upset > expected > 0


def test_rate_refuses_a_bad_winner_or_a_short_table() -> None:
    with pytest.raises(ValueError, match="four seats"):
        rate([START] * 4, winner=2)
    with pytest.raises(ValueError, match="four seats"):
        rate([START] * 3, winner=0)


def test_four_accounts_make_a_rated_match_with_each_players_contracts() -> None:
    record = finished_record()
    result = outcome("classic", humans(1, 2, 3, 4), record)
    assert result.rated and result.winner == record["result"]["winner"]
    assert [p.won for p in result.players] == [s % 2 == result.winner for s in range(4)]
    assert sum(p.taken for p in result.players) >= 1  # somebody took the one hand's contract
    for p in result.players:
        assert p.made + p.failed <= p.taken


def test_a_bot_or_a_guest_at_the_table_leaves_the_match_unrated_but_counted() -> None:
    record = finished_record()
    with_bot = humans(1, 2, 3, 4)
    with_bot[1] = Seat("bot", "", None, "expert")
    result = outcome("classic", with_bot, record)
    assert not result.rated
    assert [p.account for p in result.players] == [1, 3, 4]
    guest = outcome("classic", humans(1, None, 3, 4), record)
    assert not guest.rated
    assert [p.account for p in guest.players] == [1, 3, 4]


def test_one_account_in_two_seats_counts_for_neither_and_is_not_rated() -> None:
    result = outcome("classic", humans(1, 2, 1, 4), finished_record())
    assert not result.rated
    assert [p.account for p in result.players] == [2, 4]


def test_bots_reference_ratings_are_ordered_by_level() -> None:
    shown = [ordinal(*REFERENCE[level]) for level in ("easy", "normal", "quick", "expert")]
    assert shown == sorted(shown) and len(set(shown)) == 4


# ---------------------------------------------------------------------------- the store
def on_store(app: Any, body: Any) -> Any:
    """``await body(RatingsStore, Store)`` on the room's database."""
    async def query(store: Any) -> Any:
        return await body(RatingsStore(store.engine), store)
    return read_store(app, query)


def add_accounts(app: Any, *names: str) -> list[int]:
    async def body(_: RatingsStore, store: Any) -> list[int]:
        return [await store.add_user(n, "$argon2id$test") for n in names]
    return list(on_store(app, body))


def rows(app: Any, table: sa.Table) -> list[Any]:
    async def body(_: RatingsStore, store: Any) -> list[Any]:
        async with store.engine.connect() as conn:
            return list((await conn.execute(sa.select(table))).all())
    return list(on_store(app, body))


def play_seated(client: TestClient, seats: list[Seat]) -> int:
    """A one-hand classic match with these seats, every seat played by a stand-in bot; waits
    until the room has recorded it.  Returns the table's id."""
    room = client.app.state.room  # type: ignore[attr-defined]
    ratings = client.app.state.ratings  # type: ignore[attr-defined]

    async def run() -> int:
        table = await room.create_table("classic", ["target_score=1"])
        seated = [Seat(s.kind, s.name, s.owner, s.level, s.kind == "human", account=s.account)
                  for s in seats]
        await table.call(lambda: table.seat_everyone(seated))
        await table.call(lambda: table.start_match(0))
        # The room's hook runs after the table says it finished: wait for the hook too.
        while not table.finished or table.id not in ratings._seen:
            await asyncio.sleep(0.01)
        await ratings.close()  # the recording task is done
        return int(table.id)

    return int(client.portal.call(run))  # type: ignore[union-attr]


def test_a_match_of_four_accounts_is_rated_once_and_a_restart_rates_nobody_again(
        tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path))
    with client_for(app) as client:
        ids = add_accounts(app, "Anna", "Bruno", "Carla", "Dino")
        table_id = play_seated(client, humans(*ids))
    rated = {r.account: (r.mu, r.sigma, r.matches, r.won) for r in rows(app, ratings)}
    assert set(rated) == set(ids)
    winners = {r.account for r in rows(app, player_results) if r.won}
    assert len(winners) == 2
    for account, (mu, sigma, matches, won) in rated.items():
        assert matches == 1 and won == (account in winners)
        assert (mu > START[0]) == (account in winners) and sigma < START[1]
    # Reported again (a second hook, a replayed log): nothing changes.
    again = on_store(app, lambda r, _: r.record(table_id, outcome(
        "classic", humans(*ids), finished_record())))
    assert again is False
    with client_for(create_app(make_settings(tmp_path))):  # a restart
        pass
    assert {r.account: (r.mu, r.sigma, r.matches, r.won) for r in rows(app, ratings)} == rated
    assert len(rows(app, match_results)) == 1


def test_a_match_finished_while_the_server_was_down_is_recorded_at_the_next_start(
        tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path))
    with client_for(app) as client:
        ids = add_accounts(app, "Anna", "Bruno", "Carla", "Dino")
        play_seated(client, humans(*ids))
    before = {r.account: (r.mu, r.sigma) for r in rows(app, ratings)}

    async def forget(_: RatingsStore, store: Any) -> None:  # killed before recording
        async with store.engine.begin() as conn:
            for table in (ratings, player_results, match_results):
                await conn.execute(sa.delete(table))
    on_store(app, forget)
    with client_for(create_app(make_settings(tmp_path))):
        pass
    # The accounts came from the seats in the table's log: the same ratings again.
    assert {r.account: (r.mu, r.sigma) for r in rows(app, ratings)} == before


def test_bots_and_guests_are_never_rated(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path))
    with client_for(app) as client:
        ids = add_accounts(app, "Anna", "Bruno", "Carla")
        seats = humans(ids[0], None, ids[1], ids[2])  # East is a guest
        play_seated(client, seats)
        seats[1] = Seat("bot", "", None, "expert")
        play_seated(client, seats)
    assert rows(app, ratings) == []
    assert [r.rated for r in rows(app, match_results)] == [False, False]
    assert sorted(r.account for r in rows(app, player_results)) == sorted(ids * 2)


# ---------------------------------------------------------------------------- pages
def register(client: TestClient, name: str) -> None:
    response = client.post("/register", data={"name": name, "password": "settebello-lungo"},
                           follow_redirects=False)
    assert response.status_code == 303, response.text


def test_a_match_with_bots_shows_on_the_profile_and_leaves_the_leaderboard_alone(
        client: TestClient) -> None:
    register(client, "Ada Lovelace")
    table_id = create_table(client, target=1)
    with connect(client, table_id) as ws:
        send(ws, "sit", seat=0)
        for seat in (1, 2, 3):
            send(ws, "bot", seat=seat, level="easy")
        send(ws, "start")
        play_to_the_end(ws)
    client.portal.call(client.app.state.ratings.close)  # type: ignore[union-attr,attr-defined]
    account = client.get("/account")
    assert 'href="/players/Ada%20Lovelace"' in account.text
    page = client.get("/players/Ada%20Lovelace")
    assert page.status_code == 200
    assert "Profile of Ada Lovelace" in page.text
    assert "Matches played: 1." in page.text
    assert "<caption>Results by preset</caption>" in page.text
    assert "not rated yet" in page.text
    board = client.get("/leaderboard?preset=classic")
    assert board.status_code == 200
    assert "Nobody is rated in this preset yet." in board.text
    assert "Ada Lovelace" not in board.text.split("<main", 1)[1]


def test_the_leaderboard_lists_rated_players_with_links_and_the_bots_as_reference_rows(
        tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path))
    with client_for(app) as client:
        ids = add_accounts(app, "Anna", "Bruno", "Carla", "Dino")
        play_seated(client, humans(*ids))
        board = client.get("/leaderboard?preset=classic")
        assert board.status_code == 200
        html = board.text
        for name in ("Anna", "Bruno", "Carla", "Dino"):
            assert f'<a href="/players/{name}">{name}</a>' in html
        assert html.count("(fixed reference rating)") == 4
        assert "Bot, expert level (fixed reference rating)" in html
        assert "Bot, quick level (fixed reference rating)" in html
        # the quick bot sits at four-seat tables only: no reference where it cannot play
        three = client.get("/leaderboard?preset=valdostana3").text
        assert three.count("(fixed reference rating)") == 3 and "quick level" not in three
        assert '<th scope="col">Rank</th>' in html and "<caption>" in html
        assert 'aria-current="page">classic</a>' in html
        profile = client.get("/players/Anna")
        assert "Matches played: 1." in profile.text and "not rated yet" not in profile.text


@pytest.mark.parametrize(("lang", "heading"), [
    ("it", "Classifica: classica"), ("es", "Clasificación: clásica"),
    ("fr", "Classement : classique"), ("en", "Leaderboard: classic")])
def test_the_leaderboard_speaks_each_language(client: TestClient, lang: str,
                                              heading: str) -> None:
    page = client.get("/leaderboard", headers={"accept-language": lang})
    assert page.status_code == 200
    assert f'<html lang="{lang}">' in page.text
    assert f"<h1>{heading}</h1>" in page.text


def test_an_unknown_player_is_a_404_and_an_unknown_preset_a_clear_400(
        client: TestClient) -> None:
    missing = client.get("/players/Nobody")
    assert missing.status_code == 404
    bad = client.get("/leaderboard?preset=whist")
    assert bad.status_code == 400
    assert "Unknown preset" in bad.text


def test_the_header_links_the_leaderboard_and_the_tournaments(client: TestClient) -> None:
    page = client.get("/")
    assert 'href="/leaderboard"' in page.text and 'href="/tournaments"' in page.text


# ---------------------------------------------------------------------------- two processes
@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ratings.db'}"
    return fresh_database(request.getfixturevalue("postgres_url"))


def test_two_processes_rating_matches_of_the_same_players_lose_no_update(db_url: str) -> None:
    """Issue 26: two processes (two stores on one database) record 20 matches at once, each
    among 4 of 6 accounts: every match moves the ratings from where the one recorded before
    it left them (at the weight the farming rule gives it, issue 28).  Each player's count
    of matches is theirs, and every rating equals a replay of the matches one by one in the
    order the database recorded them."""
    rng = random.Random(26)

    async def main() -> None:
        stores = [Store(db_url) for _ in range(2)]
        for store in stores:
            await store.open()
        try:
            accounts = [await stores[0].add_user(f"P{n}", "$argon2id$test") for n in range(6)]
            matches: dict[int, MatchOutcome] = {}
            for _ in range(20):
                table_id = await stores[0].new_table("classic", {}, 1)
                four, winner = rng.sample(accounts, 4), rng.randrange(2)
                matches[table_id] = MatchOutcome("classic", winner, tuple(
                    PlayerResult(seat, account, seat % 2 == winner, 0, 0, 0)
                    for seat, account in enumerate(four)), True)
            recorders = [RatingsStore(store.engine) for store in stores]
            done = await asyncio.gather(*(recorders[n % 2].record(table_id, result)
                                          for n, (table_id, result)
                                          in enumerate(matches.items())))
            assert all(done)
            first = next(iter(matches))
            assert not await recorders[1].record(first, matches[first])  # once only
            async with stores[1].engine.connect() as conn:
                order = [int(r[0]) for r in await conn.execute(
                    sa.select(match_results.c.table_id)
                    .order_by(match_results.c.recorded, match_results.c.table_id))]
                stored = {int(r.account): r for r in await conn.execute(sa.select(ratings))}
        finally:
            for store in stores:
                await store.close()
        replayed = dict.fromkeys(accounts, START)
        played = dict.fromkeys(accounts, 0)
        met: Counter[tuple[int, int]] = Counter()  # the farming rule: all 20 in its window
        for table_id in order:
            seats = matches[table_id].players
            four = [p.account for p in seats]
            weights = [weight(k) for k in repeats(four, met).values()]
            met.update(pair(a, b) for a, b in itertools.combinations(four, 2))
            if not any(weights):
                continue  # not rated
            after = rate([replayed[p.account] for p in seats], matches[table_id].winner or 0,
                         weights)
            for player, moved, w in zip(seats, after, weights, strict=True):
                if w:
                    replayed[player.account] = moved
                    played[player.account] += 1
        assert sorted(order) == sorted(matches)
        for account in accounts:
            row = stored[account]
            assert row.matches == played[account]
            assert (row.mu, row.sigma) == pytest.approx(replayed[account], rel=1e-12)

    asyncio.run(main())

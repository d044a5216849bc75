"""The stepping replay, its JSON record and the expert's analysis of a card (issue 11, item 8).

A finished match is stored straight into the room's database (a bot match played by the
engine: fast); an unfinished one is a real table started through the WebSocket.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.ai import make_bot
from belote.engine import actions as A
from belote.i18n import card_name
from belote.notation import parse_action, to_card
from belote.records import record_rules, replay, to_record
from belote.rules import find_preset
from belote.server.heavy import HeavyFailed
from belote.server.persistence import Store
from belote.sim.match import play_match
from tests.server.helpers import (
    connect,
    create_table,
    first_legal,
    guest,
    my_turn,
    read_store,
    send,
    sit_with_bots,
    until,
)

NAMES = ["Ada", "Bea", "Cleo", "Dora"]


def finished_record(seed: int = 5, target: int = 300) -> dict[str, Any]:
    """A classic match of four heuristic bots to ``target``, finished, as its record."""
    rules = find_preset("classic").with_flags(target_score=target)
    rng = random.Random(seed)

    def deck() -> list[int]:
        cards = list(range(32))
        rng.shuffle(cards)
        return cards

    game = play_match(rules, [make_bot("heuristic", s) for s in range(4)], deck)
    return to_record(game, NAMES, preset="classic")


def store_finished(app: Any, record: dict[str, Any]) -> int:
    async def insert(store: Store) -> int:
        table_id = await store.new_table("classic", record["rules"]["flags"], 300)
        await store.finish(table_id, record)
        return table_id

    return int(read_store(app, insert))


def card_steps(record: dict[str, Any]) -> list[int]:
    """The steps (as the replay numbers them) at which a card was played."""
    rules = record_rules(record)
    steps, index = [], 0
    for deal in record["deals"]:
        index += 1  # the deal itself
        for _seat, text in deal["actions"]:
            action = parse_action(text, rules)
            if A.is_play(action):
                steps.append(index)
            index += 1
    return steps


@pytest.fixture
def match(app: Any, client: TestClient) -> tuple[int, dict[str, Any]]:
    record = finished_record()
    return store_finished(app, record), record


def test_the_replay_page_carries_every_step_with_its_position(
        client: TestClient, match: tuple[int, dict[str, Any]]) -> None:
    table_id, _record = match
    page = client.get(f"/replay/{table_id}")
    assert page.status_code == 200
    assert 'id="replay-board"' in page.text and "/static/replay.js" in page.text
    assert "Right and Left arrows: next and previous action" in page.text
    assert f'href="/replay/{table_id}.json"' in page.text
    assert "Hand 1, trick 1, card 1 of 4" in page.text


def test_the_downloaded_record_replays_to_the_same_final_score(
        client: TestClient, match: tuple[int, dict[str, Any]]) -> None:
    table_id, record = match
    response = client.get(f"/replay/{table_id}.json")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    assert response.headers["content-disposition"] == (
        f'attachment; filename="belote-table-{table_id}.json"')
    downloaded = response.json()
    assert downloaded == record
    assert downloaded["players"] == NAMES and downloaded["rules"]["preset"] == "classic"
    assert downloaded["rules"]["flags"] == {"target_score": 300}
    summary = replay(downloaded)
    assert summary.finished
    assert list(summary.totals) == record["result"]["totals"]
    assert summary.winner == record["result"]["winner"]


def test_the_analysis_of_a_card_names_its_cost_the_experts_card_and_the_worlds(
        client: TestClient, match: tuple[int, dict[str, Any]]) -> None:
    table_id, record = match
    step = card_steps(record)[-3]  # late in the last hand: quick to solve
    response = client.get(f"/replay/{table_id}/analysis?step={step}")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["step"] == step and 0 <= body["seat"] <= 3
    assert body["player"] == NAMES[body["seat"]]
    assert body["worlds"] >= 1 and body["method"] == "exact"
    cards = {v["card"]: v["value"] for v in body["values"]}
    assert body["played"] in cards and body["best"] in cards
    assert body["best"] == max(cards, key=lambda c: (cards[c], -parse_action(c)))
    assert body["cost"] == pytest.approx(cards[body["best"]] - cards[body["played"]], abs=0.11)
    assert body["cost"] >= 0
    assert card_name(parse_action(body["played"]), "en", definite=True) in body["text"]
    assert f"{body['worlds']} worlds" in body["text"]
    # the same question again is answered from the cache, identically
    assert client.get(f"/replay/{table_id}/analysis?step={step}").json() == body


def test_the_analysis_speaks_the_players_language(
        client: TestClient, match: tuple[int, dict[str, Any]]) -> None:
    table_id, record = match
    step = card_steps(record)[-2]
    body = client.get(f"/replay/{table_id}/analysis?step={step}",
                      headers={"accept-language": "it"}).json()
    assert "mondi" in body["text"]


@pytest.mark.parametrize("step", ["", "x", "-1", "1.5", "99999999", "٣"])
def test_a_bad_step_number_is_a_clear_400(client: TestClient, match: tuple[int, dict[str, Any]],
                                         step: str) -> None:
    table_id, record = match
    response = client.get(f"/replay/{table_id}/analysis?step={step}")
    assert response.status_code == 400
    last = sum(1 + len(d["actions"]) for d in record["deals"]) - 1
    assert response.json() == {"error": f"The step must be a whole number from 0 to {last}."}


def test_a_step_that_is_not_a_card_is_refused_by_name(
        client: TestClient, match: tuple[int, dict[str, Any]]) -> None:
    table_id, _record = match
    response = client.get(f"/replay/{table_id}/analysis?step=1")  # the first call
    assert response.status_code == 400
    assert response.json() == {
        "error": "Step 1 is not a card played: only cards are analysed."}
    assert client.get(f"/replay/{table_id}/analysis").status_code == 400


def test_an_unknown_table_has_no_replay_record_or_analysis(client: TestClient) -> None:
    for path in ("/replay/4242", "/replay/4242.json", "/replay/4242/analysis?step=3"):
        assert client.get(path).status_code == 404


def test_an_unfinished_match_serves_no_replay_record_or_analysis(client: TestClient) -> None:
    """Hidden information: while a match is played, nothing of it is served by the replay's
    three addresses (not a card, not a name of one), only the refusal."""
    guest(client, "Ada")
    table_id = create_table(client, target=300)
    with connect(client, table_id) as ws:
        until(ws, lambda f: f["t"] == "sync")
        sit_with_bots(ws)
        for _ in range(3):
            view = until(ws, lambda f: f["t"] == "update" and my_turn(f))["d"]["view"]
            send(ws, "act", a=first_legal(view))
        until(ws, lambda f: f["t"] == "update" and my_turn(f))
        refusal = "This match is not over: its replay, record and analysis open when it ends."
        names = [card_name(c, "en") for c in range(32)]
        codes = [to_card(c) for c in range(32)]
        for path in (f"/replay/{table_id}", f"/replay/{table_id}.json",
                     *(f"/replay/{table_id}/analysis?step={s}" for s in range(12))):
            response = client.get(path)
            assert response.status_code == 409, path
            assert refusal in response.text
            text = response.text.lower()
            assert not any(name in text for name in names), path
            if path != f"/replay/{table_id}":  # the JSON answers: not even a card code
                assert json.loads(response.text) == {"error": refusal}
                assert not any(f'"{code.lower()}"' in text for code in codes)


def test_a_broken_table_says_so_and_an_expired_one_is_not_found(app: Any,
                                                                client: TestClient) -> None:
    async def make(store: Store) -> tuple[int, int]:
        broken = await store.new_table("classic", {}, 300)
        await store.set_status(broken, "broken")
        expired = await store.new_table("classic", {}, 300)
        await store.expire_table(expired)
        return broken, expired

    broken, expired = read_store(app, make)
    for suffix in ("", ".json", "/analysis?step=1"):
        assert client.get(f"/replay/{broken}{suffix}").status_code == 410
        assert client.get(f"/replay/{expired}{suffix}").status_code == 404
    assert "could not be replayed" in client.get(f"/replay/{broken}.json").json()["error"]


@pytest.mark.parametrize("path, job", [("/replay/{}", "replay"), ("/replay/{}.json", "record")])
def test_a_heavy_job_lost_with_its_process_answers_try_again(
        app: Any, client: TestClient, match: tuple[int, dict[str, Any]],
        monkeypatch: pytest.MonkeyPatch, path: str, job: str) -> None:
    async def lost(*args: Any) -> Any:
        raise HeavyFailed("the heavy-work process died")

    monkeypatch.setattr(app.state.heavy, job, lost)
    table_id, _record = match
    response = client.get(path.format(table_id))
    assert response.status_code == 503
    assert "Retry-After" in response.headers
    assert "please try again" in response.text

"""Replays and their analysis with three and two players (issue 21, item 9).

Finding: "3- and 2-player replays answer 500 (``range(4)`` in replay_frames) and their
analysis fails".  A finished valdostana3 / valdostana2 match is stored straight into the
room's database (a bot match played by the engine), then asked for over HTTP.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.ai import make_bot
from belote.ai.analysis import seats_analysable
from belote.engine import actions as A
from belote.notation import parse_action
from belote.records import record_rules, to_record
from belote.rules import find_preset
from belote.server.persistence import Store
from belote.sim.match import play_match
from tests.server.helpers import read_store

NAMES = ["Ada", "Bea", "Cleo", "Dora"]


def finished(preset: str, seed: int = 5) -> dict[str, Any]:
    rules = find_preset(preset)
    rng = random.Random(seed)

    def deck() -> list[int]:
        cards = list(range(32))
        rng.shuffle(cards)
        return cards

    game = play_match(rules, [make_bot("heuristic", s) for s in range(rules.players)], deck)
    return to_record(game, NAMES[:rules.players], preset=preset)


def stored(app: Any, preset: str, record: dict[str, Any]) -> int:
    async def insert(store: Store) -> int:
        table_id = await store.new_table(preset, record["rules"]["flags"],
                                         record["rules"].get("target_score") or 0)
        await store.finish(table_id, record)
        return table_id

    return int(read_store(app, insert))


def card_steps(record: dict[str, Any]) -> list[tuple[int, int]]:
    """(step, cards the player held before it) of every card played, in replay numbering."""
    rules = record_rules(record)
    steps, index = [], 0
    for deal in record["deals"]:
        index += 1
        played = 0
        hand = 32 // rules.players  # cards dealt to each (the monte is the rest)
        for _seat, text in deal["actions"]:
            if A.is_play(parse_action(text, rules)):
                steps.append((index, hand - played // rules.players))
                played += 1
            index += 1
    return steps


@pytest.mark.parametrize("preset", ["valdostana3", "valdostana2"])
def test_three_and_two_player_replays_answer_500(
        app: Any, client: TestClient, preset: str) -> None:
    record = finished(preset)
    table_id = stored(app, preset, record)
    page = client.get(f"/replay/{table_id}")
    assert page.status_code == 200, page.text
    players = record_rules(record).players
    assert f", trick 1, card 1 of {players}" in page.text
    assert "of 4" not in page.text
    for name in NAMES[:players]:
        assert name in page.text  # the players' names, not "seat 3"


@pytest.mark.parametrize("preset", ["valdostana3", "valdostana2"])
def test_three_and_two_player_replay_analysis_fails(
        app: Any, client: TestClient, preset: str) -> None:
    record = finished(preset)
    table_id = stored(app, preset, record)
    rules = record_rules(record)
    steps = card_steps(record)
    late = [step for step, held in steps if seats_analysable(rules, held)]
    assert late, "a match has late cards the expert solves exactly"
    step = late[-2]
    response = client.get(f"/replay/{table_id}/analysis?step={step}")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["method"] == "exact" and body["worlds"] >= 1
    assert body["player"] == NAMES[body["seat"]]
    assert 0 <= body["seat"] < rules.players
    cards = {v["card"]: v["value"] for v in body["values"]}
    assert body["played"] in cards and body["best"] in cards
    assert body["cost"] >= 0
    # A card the expert does not search exactly (early, no obligation to follow suit, or
    # two players with more than twelve tricks left) is refused clearly, never a 500.
    early = [step for step, held in steps if not seats_analysable(rules, held)]
    if early:
        refused = client.get(f"/replay/{table_id}/analysis?step={early[0]}")
        assert refused.status_code == 422
        assert "not available" in refused.json()["error"]

"""The quick bot as a level of the room (issue 27, item 3): offered where it can sit (four
seats), refused in words elsewhere, deciding on the event loop, and standing in for a bot
that did not answer in time (the normal bot where the network cannot sit, or for itself)."""

from __future__ import annotations

import asyncio
import html
import json
import re
from concurrent.futures import Executor, ThreadPoolExecutor

import pytest
from starlette.testclient import TestClient

from belote.ai.decision import Decision, DecisionMethod, Fallback
from belote.ai.registry import make_decider
from belote.engine.observation import Observation
from belote.engine.state import Game, Phase
from belote.rules import find_preset
from belote.server.bots import BotPool, decide
from belote.server.bots.pool import stand_in_for
from belote.server.levels import OWN_LEVELS, own_levels_for, runs_inline, seats_at
from tests.server.helpers import (
    connect,
    create_table,
    guest,
    play_to_the_end,
    receive,
    send,
    sit_with_bots,
    until,
)

REFUSED = {
    "en": "The quick bot plays at four-seat tables only: choose another level for this table.",
    "it": "Il bot rapido gioca solo ai tavoli da quattro: scegli un altro livello per questo "
          "tavolo.",
    "es": "El bot rápido solo juega en mesas de cuatro: elige otro nivel para esta mesa.",
    "fr": "Le bot rapide ne joue qu’aux tables de quatre : choisissez un autre niveau pour "
          "cette table.",
}


def test_the_quick_level_sits_at_four_seat_tables_only_and_decides_on_the_loop() -> None:
    assert OWN_LEVELS == ("easy", "normal", "quick", "expert")
    assert own_levels_for(4) == OWN_LEVELS
    assert own_levels_for(3) == own_levels_for(2) == ("easy", "normal", "expert")
    assert seats_at("quick", 4) and not seats_at("quick", 3)
    assert seats_at("some.plugin:Bot", 2)  # a plug-in's refusals are its own
    assert runs_inline("quick")


@pytest.mark.parametrize("lang", sorted(REFUSED))
def test_a_quick_bot_at_a_three_seat_table_is_refused_in_words_and_changes_nothing(
        client: TestClient, lang: str) -> None:
    client.headers["accept-language"] = lang
    guest(client, "Ada")
    table_id = create_table(client, "valdostana3", target=None)
    with connect(client, table_id) as ws:
        send(ws, "sit", seat=0)
        send(ws, "bot", seat=1, level="quick")
        error = until(ws, lambda f: f["t"] == "error")["d"]
        assert error["code"] == "level_needs_four_seats", error
        assert error["text"] == REFUSED[lang], error
        send(ws, "bot", seat=1, level="normal")  # the seat is still free
        view = until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["seats"][1]["kind"]
                     == "bot")["d"]["view"]
        assert view["seats"][1]["level"] == "normal"


def table_levels(client: TestClient, table_id: int) -> list[str]:
    """The levels the table page's script offers for an empty seat."""
    found = re.search(r"data-levels='([^']*)'", client.get(f"/table/{table_id}").text)
    assert found, "the table page names no levels"
    levels: list[str] = json.loads(html.unescape(found.group(1)))
    return levels


def test_the_table_page_and_the_lobby_offer_the_quick_bot_where_it_can_sit(
        client: TestClient) -> None:
    guest(client, "Ada")
    four = create_table(client, "classic")
    three = create_table(client, "valdostana3", target=None)
    assert table_levels(client, four) == ["easy", "normal", "quick", "expert"]
    assert table_levels(client, three) == ["easy", "normal", "expert"]
    with connect(client, four) as ws:
        send(ws, "sit", seat=0)
        receive(ws)
    with connect(client, three) as ws:
        send(ws, "sit", seat=0)
        receive(ws)
    lobby = client.get("/").text
    # The lobby's level pickers: the four-seat table's has the quick bot, the other's not.
    pickers = lobby.split('name="level"')[1:]
    with_quick = [p.split("</select>")[0] for p in pickers]
    assert len(with_quick) >= 2
    assert any('value="quick"' in p for p in with_quick)
    assert any('value="quick"' not in p for p in with_quick)


def test_a_whole_match_with_quick_bots_in_the_room(client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client, "coinche", target=300)
    with connect(client, table_id) as ws:
        sit_with_bots(ws, seat=2, level="quick")
        view, moves = play_to_the_end(ws)
    assert view["finished"] and moves > 0
    assert [s["level"] for s in view["seats"] if s["kind"] == "bot"] == ["quick"] * 3


def _observation(preset: str) -> Observation:
    game = Game(find_preset(preset))
    game.deal(list(range(32)))
    while game.phase != Phase.PLAYING:
        seat = game.current_player()
        game.apply(make_decider("normal", 1).decide(game.observation(seat), None).action, seat)
    return game.observation(game.current_player())


def test_the_stand_in_is_the_quick_bot_where_it_can_sit_else_the_normal_bot() -> None:
    four = _observation("classic")
    assert stand_in_for("expert", four) == "quick"
    assert stand_in_for("quick", four) == "normal"  # never itself, for itself
    game = Game(find_preset("valdostana3"))
    game.deal(list(range(32)))
    three = game.observation(game.current_player())
    assert stand_in_for("expert", three) == "normal"


class _Threads(BotPool):
    def _start(self) -> Executor:
        return ThreadPoolExecutor(1, thread_name_prefix="bot-worker")


def test_a_late_expert_card_is_the_networks_counted_as_a_fallback() -> None:
    observation = _observation("classic")

    def late(level: str, seen: Observation, deadline: float) -> Decision:
        raise TimeoutError("no answer in time")

    async def run() -> tuple[Decision, BotPool]:
        pool = _Threads(0, 30.0, task=late, warm=lambda: None)
        try:
            return await pool.decide("expert", observation, table=9), pool
        finally:
            pool.close()

    decision, pool = asyncio.run(run())
    assert decision.method is DecisionMethod.FALLBACK and decision.fallback is not None
    assert pool.stats.fallback_total == 1
    assert decision.action == decide("quick", observation, None).action
    assert decision.fallback in (Fallback.FAILED, Fallback.LATE)


def test_a_stand_in_that_fails_gives_way_to_the_normal_bot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from belote.server.bots import pool as pool_module

    observation = _observation("classic")
    real = pool_module.decide

    def broken(level: str, seen: Observation, deadline: float | None) -> Decision:
        if level == "quick":
            raise RuntimeError("weights missing")
        return real(level, seen, deadline)

    monkeypatch.setattr(pool_module, "decide", broken)
    assert pool_module.stand_in_action("quick", observation) == \
        real("normal", observation, None).action

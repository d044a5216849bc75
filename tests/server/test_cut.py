"""Cutting the deck in the room (seed 000: "pone al giocatore alla sua sinistra il taglio del
mazzo, decidendo di tagliare o fidarsi bussando sul mazzo").

Finding (issue 21): nobody could cut the deck in the room: the protocol's ``act`` accepted ids
0..419 while the cut choices are 423..451, so every "cut N cards" answered "wrong value"; only
knocking worked.  The protocol now takes its range from the engine's action space, and these
tests walk that space for every preset and cut over a real socket.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.state import CHANCE, Game
from belote.rules import PRESETS
from belote.server import protocol as P
from tests.server.helpers import connect, create_table, first_legal, guest, send, until


def _act(action: int) -> str:
    return json.dumps({"t": "act", "d": {"a": action}, "v": 7})


def _walk(preset: str, games: int, seed: int) -> set[int]:
    """Every action legal at some state of ``games`` random matches' first hands."""
    rules = PRESETS[preset]
    rng = random.Random(seed)
    seen: set[int] = set()
    for game_no in range(games):
        game = Game(rules, first_dealer=game_no % rules.players)
        decks = seeded_deck_source(seed * 1000 + game_no)
        for _ in range(400):
            if game.is_terminal():
                break
            if game.current_player() == CHANCE:
                game.deal(decks())
                continue
            legal = game.legal_actions()
            seen |= set(legal)
            for seat in game.seats_with_open_window():  # a belote said after the card
                seen |= set(game.legal_actions(seat))
            game.apply(rng.choice(legal))
    return seen


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_nobody_could_cut_every_legal_action_id_of_every_preset_is_accepted(preset: str) -> None:
    seen = _walk(preset, games=6, seed=21)
    assert seen, preset
    if PRESETS[preset].cut_deck:
        low = PRESETS[preset].cut_min_cards
        assert {A.cut(d) for d in range(low, 32 - low + 1)} | {A.KNOCK} <= seen
    for action in sorted(seen):
        assert P.decode(_act(action)) == P.Act(action, 7), (preset, action)


def test_nobody_could_cut_the_protocols_act_range_is_the_engines_action_space() -> None:
    for action in range(A.ACTION_END):
        assert P.decode(_act(action)) == P.Act(action, 7)
    for bad in (-1, A.ACTION_END):
        with pytest.raises(P.ProtocolError) as refused:
            P.decode(_act(bad))
        assert refused.value.code == "bad_field"


def _mine(view: dict[str, Any]) -> bool:
    return bool(view.get("finished")) or (view.get("seat") is not None and view.get("turn")
                                          == view.get("seat")) or bool(view.get("belote"))


def _until_my_cut(ws: Any) -> dict[str, Any]:
    """Play the first legal action at every other turn until it is this seat's cut."""
    while True:
        frame = until(ws, lambda f: f["t"] == "update" and _mine(f["d"]["view"]))
        view: dict[str, Any] = frame["d"]["view"]
        assert not view["finished"], "the match ended before this seat cut"
        if view["phase"] == "cut":
            return view
        if view["belote"] and view["turn"] != view["seat"]:
            send(ws, "act", a=A.ANNOUNCE_BELOTE)
        else:
            send(ws, "act", a=first_legal(view))


@pytest.mark.parametrize("preset,players,pick", [
    ("valdostana", 4, min), ("valdostana2", 2, max), ("valdostana3", 3, None)])
def test_nobody_could_cut_a_player_cuts_the_deck_over_the_socket(
        client: TestClient, preset: str, players: int, pick: Any) -> None:
    guest(client, "Ada")
    table_id = create_table(client, preset, target=None)
    with connect(client, table_id) as ws:
        send(ws, "sit", seat=0)
        for other in range(1, players):
            send(ws, "bot", seat=other, level="easy")
        send(ws, "start")
        view = _until_my_cut(ws)
        cuts = [c for c in view["choices"] if "cut" in c]
        depths = [c["cut"] for c in cuts]
        low = 3  # cut_min_cards: each part of the cut keeps 3 cards at least
        assert depths == list(range(low, 32 - low + 1)), depths
        assert all(c["action"] == A.cut(c["cut"]) for c in cuts)
        assert "knock" in view["prompt"] and f"{low} to {32 - low}" in view["prompt"]
        depth = pick(depths) if pick is not None else depths[len(depths) // 2]
        send(ws, "act", a=A.cut(depth))
        frame = until(ws, lambda f: f["t"] in ("error", "update") and (
            f["t"] == "error" or any(e["kind"] == "deck_cut" for e in f["d"]["events"])))
        assert frame["t"] == "update", frame["d"]
        said = [e["text"] for e in frame["d"]["events"] if e["kind"] == "deck_cut"]
        assert said == [f"You cut the deck: {depth} cards go under."], said

"""What the room says and understands at the table: typed bids, turn prompts, the
information keys, and the right reason when a belote cannot be announced."""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.testclient import TestClient

from belote.cards import Rank, make_card
from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.state import Game
from belote.i18n.table_info import why_no_belote
from belote.rules import find_preset
from belote.server import protocol as P
from tests.server.helpers import (
    ask_info,
    connect,
    create_table,
    guest,
    send,
    sit_with_bots,
    until,
)


def _my_bid(ws: Any) -> dict[str, Any]:
    def ready(frame: dict[str, Any]) -> bool:
        view = frame["d"].get("view", {})
        if view.get("phase") == "cut" and view.get("turn") == view.get("seat"):
            send(ws, "act", a=84)  # valdostana: Ada cuts first; she knocks (seed 000)
            return False
        return bool(view.get("started")) and view.get("turn") == view.get("seat") and bool(
            view.get("choices")) and view.get("phase") == "bidding"
    frame = until(ws, ready)
    view: dict[str, Any] = frame["d"]["view"]
    return view


def test_the_cutter_is_told_to_cut_or_knock() -> None:
    from belote.engine import actions as A
    from belote.engine.state import Game
    from belote.i18n.table_info import turn_prompt
    from belote.rules import find_preset

    game = Game(find_preset("valdostana"), first_dealer=3)
    game.deal(list(range(32)))
    cutter = game.current_player()
    assert A.KNOCK in game.legal_actions()
    obs = game.observation(cutter)
    assert turn_prompt(obs, "en", "normal").startswith(
        "Your turn to cut the deck: knock to trust the dealer, or cut it")
    assert turn_prompt(obs, "it", "brief").startswith("Taglio: bussa")

def test_a_typed_bid_in_another_language_is_played(client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client, "valdostana")
    with connect(client, table_id) as ws:
        sit_with_bots(ws)
        view = _my_bid(ws)
        labels = [c["label"] for c in view["choices"]]
        assert "pass (no ace)" in labels or "pass" in labels[0], labels
        send(ws, "bid", text="hello")
        error = until(ws, lambda f: f["t"] == "error")
        assert error["d"]["code"] == "bid_not_understood"
        send(ws, "bid", text="surcontro")  # a redouble: never open before we bid
        error = until(ws, lambda f: f["t"] == "error")
        assert error["d"]["code"] == "bid_not_allowed"
        send(ws, "bid", text="passo")  # Italian, at an English table
        said = until(ws, lambda f: f["t"] == "update" and any(
            "You passed" in e["text"] for e in f["d"]["events"]))
        assert said


def test_the_options_are_spoken_when_it_is_your_turn_to_bid(client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client, "valdostana")
    with connect(client, table_id) as ws:
        sit_with_bots(ws)
        view = _my_bid(ws)
        prompt = str(view["prompt"])
        assert prompt.startswith("Your turn to bid. Options: ")
        assert re.search(r"or a contract from \d+ to 802", prompt), prompt  # not 294 labels
        contracts = [c for c in view["choices"] if "level" in c]
        assert contracts and {"level", "suit", "suit_name"} <= set(contracts[0])


def test_the_brief_prompt_is_short(client: TestClient) -> None:
    client.post("/preferences", data={"verbosity": "brief"})
    guest(client, "Ada")
    table_id = create_table(client, "valdostana")
    with connect(client, table_id) as ws:
        sit_with_bots(ws)
        view = _my_bid(ws)
        assert str(view["prompt"]).startswith("Bid: ")
        assert re.search(r"contracts \d+ to 802", str(view["prompt"]))


def test_information_answers_come_with_the_view(client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client, "valdostana")  # an auction: South always gets to bid
    with connect(client, table_id) as ws:
        sit_with_bots(ws)
        view = _my_bid(ws)  # my turn to bid: the game waits, the answers are of this moment
        info = ask_info(ws)
        assert isinstance(info, dict)
        assert info["team"].startswith("You are South, team North-South, with North bot")
        assert info["bidding"].startswith("No turned card.")  # no card is turned up here
        if view["high_bid"]:  # a bot bid before South: the bid that stands, as the page shows
            bid = str(view["high_bid"]).rsplit(", ", 1)[0]  # "Highest bid: 82 in hearts"
            assert info["contract"].startswith(bid + ", "), info["contract"]
        else:
            assert info["contract"] == "No contract yet."
        assert info["points"].startswith("This hand: North-South 0, East-West 0.")
        assert info["summary"].startswith("8 cards.")
        assert info["winner"] == "No trick finished yet in this hand."


def test_contracts_above_255_can_be_sent() -> None:
    high = A.CONTRACT_END - 1
    assert P.decode(json.dumps({"t": "act", "d": {"a": high}})) == P.Act(high)
    assert P.decode(json.dumps({"t": "bid", "d": {"text": "802 picche"}})) == P.BidText(
        "802 picche")


# ---------------------------------------------------------------------------- belote
def _game_where(king_playable: bool) -> tuple[Game, int, int, int]:
    """A classic game, bids played by the first option, at the first moment a seat to play
    holds the king and queen of trump (and may play the king, if ``king_playable``); returns
    it, the seat, the king and the queen."""
    rules = find_preset("classic")
    for seed in range(400):
        game = Game(rules, first_dealer=0)
        decks = seeded_deck_source(seed)
        game.deal(decks())
        while game.trump < 0 and not game.is_terminal():
            legal = game.legal_actions()
            take = [a for a in legal if a != A.PASS]
            game.apply(take[0] if take else legal[0])
            if game.phase.name == "DEAL":
                break
        if game.trump < 0:
            continue
        seat = game.current_player()
        king, queen = make_card(game.trump, Rank.KING), make_card(game.trump, Rank.QUEEN)
        holds = game.hands[seat] >> king & 1 and game.hands[seat] >> queen & 1
        if holds and (not king_playable or game.is_legal(A.play(king), seat)):
            return game, seat, king, queen
    raise AssertionError("no such deal in 400 seeds")


def test_space_on_the_queen_says_the_king_comes_first() -> None:
    game, seat, _king, queen = _game_where(king_playable=False)
    obs = game.observation(seat)
    said = why_no_belote(obs, "en", queen)
    assert said.startswith("Not with the queen: play the king of"), said
    assert "the king" in why_no_belote(obs, "en", None)


def test_a_belote_announced_after_the_next_card_is_too_late() -> None:
    game, seat, king, _queen = _game_where(king_playable=True)
    game.apply(A.play(king), seat)  # the king, without announcing
    assert A.ANNOUNCE_BELOTE in game.legal_actions(seat)  # the window is open...
    nxt = game.current_player()
    game.apply(game.legal_actions(nxt)[0], nxt)  # ...until the next card
    said = why_no_belote(game.observation(seat), "en")
    assert said.startswith("Too late: belote is announced just after the card"), said

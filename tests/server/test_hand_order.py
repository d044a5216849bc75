"""The order of the hand (issue 25): the player's suit order and trumps first, applied by the
room to the hand it sends, so the cards drawn, the arrows and the hand key agree."""

from __future__ import annotations

from typing import Any, cast

from starlette.testclient import TestClient

from belote.cards import Suit, cards_in
from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.state import Game, Phase
from belote.notation import parse_card, parse_cards
from belote.server.seats import Seat
from belote.server.table import Table
from belote.server.view import Viewer, hand_order, table_view
from tests.server.helpers import connect, create_table, guest, sit_with_bots, until

HAND = parse_cards("7H AH 9D 8C KC JS 10S QS")
HEARTS, DIAMONDS, CLUBS, SPADES = Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES


def _codes(cards: list[int]) -> str:
    from belote.notation import to_card

    return " ".join(to_card(c) for c in cards)


def test_the_default_order_is_the_cards_own() -> None:
    assert hand_order(HAND, "hdcs", None, False) == list(cards_in(HAND))
    assert _codes(hand_order(HAND, "hdcs", CLUBS, False)) == "7H AH 9D 8C KC 10S JS QS"


def test_the_suit_orders_keep_each_suits_ranks_in_order() -> None:
    assert _codes(hand_order(HAND, "hcds", None, False)) == "7H AH 8C KC 9D 10S JS QS"
    assert _codes(hand_order(HAND, "shdc", None, False)) == "10S JS QS 7H AH 9D 8C KC"


def test_trumps_first_once_a_trump_suit_is_known() -> None:
    assert _codes(hand_order(HAND, "hcds", DIAMONDS, True)) == "9D 7H AH 8C KC 10S JS QS"
    assert _codes(hand_order(HAND, "shdc", CLUBS, True)) == "8C KC 10S JS QS 7H AH 9D"
    assert hand_order(HAND, "hcds", None, True) == hand_order(HAND, "hcds", None, False)
    for no_suit in (4, 5):  # no trumps, all trumps: no suit goes first
        assert hand_order(HAND, "hcds", no_suit, True) == hand_order(HAND, "hcds", None, False)
    assert hand_order(HAND, "nope", None, False) == list(cards_in(HAND))  # never an error


def _table_in_play() -> tuple[Table, int]:
    table = Table(1, "classic", {}, cast(Any, None), cast(Any, None))
    table.seats = [Seat("bot") for _ in range(4)]
    game = table.game = Game(table.rules, first_dealer=0)
    game.deal(seeded_deck_source(5)())
    while game.phase == Phase.BIDDING:
        legal = game.legal_actions()
        take = [a for a in legal if a != A.PASS]
        game.apply(take[0] if take else legal[0])
    assert game.phase == Phase.PLAYING and 0 <= game.trump < 4
    return table, game.current_player()


def test_the_view_sends_the_hand_in_the_viewers_order() -> None:
    table, seat = _table_in_play()
    trump = table.game.trump  # type: ignore[union-attr]
    plain = table_view(table, Viewer(seat, "en"))["hand"]
    sorted_view = table_view(table, Viewer(seat, "en", suits="shdc", trump_first=True))["hand"]
    assert [c["code"] for c in plain] == [c["code"] for c in sorted(
        plain, key=lambda c: parse_card(c["code"]))]
    cards = [parse_card(c["code"]) for c in sorted_view]
    assert cards == hand_order(sum(1 << c for c in cards), "shdc", trump, True)
    assert cards[0] >> 3 == trump
    assert {c["code"]: c for c in plain} == {c["code"]: c for c in sorted_view}  # same cards


def test_a_players_order_comes_with_their_socket(client: TestClient) -> None:
    client.post("/preferences", data={"settings": "1", "pace": "0", "volume": "50",
                                      "speak": ["plays"], "suits": "shdc", "next": "/"})
    guest(client, "Ada")
    table_id = create_table(client)
    with connect(client, table_id) as ws:
        sit_with_bots(ws)
        frame = until(ws, lambda f: f["t"] in ("sync", "update") and len(
            f["d"]["view"].get("hand") or []) >= 5)
        suits = [c["suit"] for c in frame["d"]["view"]["hand"]]
        rank = {SPADES: 0, HEARTS: 1, DIAMONDS: 2, CLUBS: 3}
        assert suits == sorted(suits, key=rank.__getitem__), suits

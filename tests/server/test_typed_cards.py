"""A card typed in the command box during the card play (issue 25): read by the terminal's
parser, played as a clicked card is (numbered, confirmed by ``done``), and refused with the
engine's own reason, or with an example when the text names no card, changing nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from starlette.testclient import TestClient

from belote.cards import Rank, make_card
from belote.engine import actions as A
from belote.i18n import card_name
from belote.notation import parse_card, to_card
from belote.server.connection import Connection
from belote.server.seats import Seat
from belote.server.table import Table, TableError
from tests.server.helpers import connect, create_table, guest, send, sit_with_bots, until
from tests.test_typed_cards import king_opens_belote

View = dict[str, Any]


def _my_card_turn(ws: Any, stop: Callable[[View], bool]) -> dict[str, Any]:
    """Play (the first offer, the first playable card) until it is this seat's turn to play
    a card in a position ``stop`` accepts; returns that frame."""
    while True:
        frame = until(ws, lambda f: f["t"] in ("sync", "update") and f["d"]["view"].get(
            "started") and f["d"]["view"].get("turn") == f["d"]["view"].get("seat"))
        view: View = frame["d"]["view"]
        if view["choices"]:
            send(ws, "act", a=view["choices"][0]["action"])
        elif view["phase"] == "playing" and stop(view):
            return frame
        else:
            send(ws, "act", a=parse_card(next(c for c in view["hand"] if c["playable"])["code"]))


def test_a_typed_card_is_played_like_a_clicked_one(client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client)
    with connect(client, table_id) as ws:
        sit_with_bots(ws)
        view = _my_card_turn(ws, lambda view: True)["d"]["view"]
        card = parse_card(next(c for c in view["hand"] if c["playable"])["code"])
        send(ws, "bid", text=card_name(card, "it"), m=41)  # Italian, at an English table
        played = f"You played {card_name(card, 'en', definite=True)}."
        update = until(ws, lambda f: f["t"] == "update" and any(
            e["text"] == played for e in f["d"]["events"]))
        assert to_card(card) not in [c["code"] for c in update["d"]["view"]["hand"]]
        done = until(ws, lambda f: f["t"] in ("done", "error"))
        assert done["t"] == "done" and done["d"]["move"] == 41, done


def test_a_typed_card_that_may_not_be_played_is_refused_with_the_reason(
        client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client)
    with connect(client, table_id) as ws:
        sit_with_bots(ws)
        frame = _my_card_turn(ws, lambda view: bool(view["trick"]) and not all(
            c["playable"] for c in view["hand"]))
        view = frame["d"]["view"]
        bad = parse_card(next(c for c in view["hand"] if not c["playable"])["code"])
        held = {parse_card(c["code"]) for c in view["hand"]}
        missing = next(c for c in range(32) if c not in held and to_card(c) not in {
            t["code"] for t in view["trick"] + view["last_trick"]})
        the_bad, the_missing = (card_name(c, "en", definite=True) for c in (bad, missing))
        for text, code, said in (
                (to_card(bad), "illegal", f"You cannot play {the_bad}: "),
                (card_name(missing, "es"), "illegal", f"You do not have {the_missing}."),
                ("hello", "card_not_understood", "for example: jack of hearts, or JH"),
                ("82 hearts", "card_not_understood", "Type a card")):
            send(ws, "bid", text=text, m=7)
            error = until(ws, lambda f: f["t"] in ("error", "update"))
            assert error["t"] == "error", (text, error)  # nothing was played
            assert error["d"]["code"] == code, (text, error)
            assert said in error["d"]["text"] + error["d"].get("detail", ""), (text, error)
            assert error["d"]["move"] == 7
            assert error["v"] == frame["v"]  # nothing changed
        good = parse_card(next(c for c in view["hand"] if c["playable"])["code"])
        send(ws, "bid", text=to_card(good), m=8)  # still this seat's turn, same hand
        done = until(ws, lambda f: f["t"] in ("done", "error"))
        assert done["t"] == "done" and done["d"]["move"] == 8, done


def _table_where_king_opens_belote() -> tuple[Table, Connection, int]:
    """A classic table (nothing stored) at the first moment its human seat may play the king
    of trump announcing belote, the bids made by the first offer."""
    game = king_opens_belote()
    table = Table(1, "classic", {}, cast(Any, None), cast(Any, None))
    table.seats = [Seat("bot") for _ in range(4)]
    table.seats[game.current_player()] = Seat("human", "Ada", "uid-ada")
    table.game = game
    assert game.trump is not None
    return table, Connection("uid-ada", "Ada", "fr"), make_card(game.trump, Rank.KING)


def test_the_box_reads_a_card_in_the_play_and_a_bid_in_the_bidding() -> None:
    table, ada, king = _table_where_king_opens_belote()
    assert table._typed(ada, f"{to_card(king)} belote") == A.play_announcing(king)
    assert table._typed(ada, card_name(king, "fr")) == A.play(king)
    # The belote alone is the announcement (Space's work): the engine says whether it may be
    # made now (here it goes with the king: refused by _act with that reason).
    assert table._typed(ada, "belote") == A.ANNOUNCE_BELOTE
    assert table._typed(ada, "Rebelote") == A.ANNOUNCE_BELOTE
    for garbage in ("passe", "belote rien", ""):
        try:
            table._typed(ada, garbage)
        except TableError as error:
            assert error.code == "card_not_understood"
        else:
            raise AssertionError(f"{garbage!r} was read as a move")
    watcher = Connection("spectator-1", "", "en")
    try:
        table._typed(watcher, "JH")
    except TableError as error:
        assert error.code == "not_seated"
    else:
        raise AssertionError("a spectator's typed card was read")

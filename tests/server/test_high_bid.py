"""The bid that stands in an auction is shown and said where the contract will be (issue 25:
the page said "Contract —" while 82 in hearts stood; O said "No contract yet.").

Valdostana's and coinche's auctions (seed 000, RULES.md "Auction"): a contract stands until
a higher one is bid; a double (contro, coinche) and a redouble keep it and say so.
"""

from __future__ import annotations

from typing import Any, cast

import pytest

from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.state import Game
from belote.i18n import translate
from belote.server.seats import Seat
from belote.server.table import Table
from belote.server.view import Viewer, info_answer, table_view


def _auction(preset: str) -> Table:
    """A table of ``preset`` dealt, the cut passed (a knock), at the first bid; Ada at 0."""
    table = Table(1, preset, {}, cast(Any, None), cast(Any, None))
    table.seats = [Seat("bot") for _ in range(table.rules.players)]
    table.seats[0] = Seat("human", "Ada", "uid-ada")
    table.game = Game(table.rules, first_dealer=0)
    table.game.deal(seeded_deck_source(3)())
    if A.KNOCK in table.game.legal_actions(table.game.current_player()):
        table.game.apply(A.KNOCK)
    return table


def _first_contract(game: Game) -> int:
    return next(a for a in game.legal_actions(game.current_player())
                if A.CONTRACT_BASE <= a < A.CONTRACT_END)


@pytest.mark.parametrize("preset", ["valdostana", "coinche", "valdostana3", "valdostana2"])
def test_the_bid_that_stands_is_in_the_view_and_the_contract_answer(preset: str) -> None:
    table = _auction(preset)
    game = table.game
    assert game is not None
    before = table_view(table, Viewer(0, "en"))
    assert before["high_bid"] == "" and before["contract"] == ""
    assert info_answer(table, Viewer(0, "en"), "contract") == "No contract yet."

    bidder = game.current_player()
    game.apply(_first_contract(game))
    bid = "80 in hearts" if preset == "coinche" else "82 in hearts"
    name = "Ada" if bidder == 0 else ("North", "East", "South", "West")[bidder]
    for viewer in (Viewer(0, "en"), Viewer(None, "en")):  # public: a spectator sees it too
        view = table_view(table, viewer)
        assert view["phase"] == "bidding" and view["contract"] == ""
        assert view["high_bid"] == f"Highest bid: {bid}, {name}."
    # O agrees (the seat's full name: a bot's level too).
    full = table_view(table, Viewer(0, "en"))["seats"][bidder]["name"]
    assert info_answer(table, Viewer(0, "en"), "contract") == f"Highest bid: {bid}, {full}."


def test_a_double_is_said_with_the_bid_in_each_language_and_a_redouble_ends_the_auction(
        ) -> None:
    table = _auction("coinche")
    game = table.game
    assert game is not None
    game.apply(_first_contract(game))  # East bids 80 in hearts
    game.apply(A.CONTRO)  # South doubles
    said = {lang: table_view(table, Viewer(0, lang))["high_bid"] for lang in ("en", "it", "es",
                                                                              "fr")}
    assert said == {"en": "Highest bid: 80 in hearts, East, doubled.",
                    "it": "Dichiarazione più alta: 80 cuori, Est, con contro.",
                    "es": "Puja más alta: 80 a corazones, Este, con contra.",
                    "fr": "Plus forte enchère : 80 à cœur, Est, coinchée."}
    game.apply(A.SURCONTRO)  # a redouble closes the auction (engine/bidding/auction.py)
    view = table_view(table, Viewer(0, "en"))
    assert (view["phase"], view["contract"], view["high_bid"]) == ("playing", "80 in hearts", "")


def test_take_or_pass_has_no_standing_bid_and_a_made_contract_replaces_it() -> None:
    table = _auction("classic")
    game = table.game
    assert game is not None
    assert table_view(table, Viewer(0, "en"))["high_bid"] == ""
    game.apply(A.TAKE)  # the turned card taken: the contract is made at once
    view = table_view(table, Viewer(0, "en"))
    assert view["contract"] and view["high_bid"] == ""
    assert info_answer(table, Viewer(0, "en"), "contract") != translate("en",
                                                                        "sala.info.no_contract")

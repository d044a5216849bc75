"""A bid typed in the table page's command box and refused: the error frame says why and what
is allowed now, in the player's language (issue 25, item 2), and nothing changes.

The positions are set by hand on a valdostana table (seed 000: "il minimo è di 82, il massimo
è di 802"; "ANCORA ... ALZO" and "DO 10 ... ALZO 20" answer the partner's contract), so that
what the bots would have bid cannot change the refusal; the sentences themselves are tested
in tests/test_bid_refusals.py.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, cast

from belote.engine import actions as A
from belote.engine.state import Game, Phase
from belote.server import protocol as P
from belote.server.connection import Connection
from belote.server.seats import Seat
from belote.server.table import Table

ADA = "uid-ada"


def _table(*bids: int, preset: str = "valdostana") -> tuple[Table, int]:
    """A table whose game is in its bidding after ``bids``; Ada sits at the seat to speak,
    bots elsewhere (nothing is stored: a refusal stores nothing)."""
    table = Table(1, preset, {}, cast(Any, None), cast(Any, None))
    game = Game(table.rules, first_dealer=3)
    game.deal(list(range(32)))
    if game.phase == Phase.CUT:
        game.apply(A.KNOCK)
    for action in bids:
        game.apply(action)
    table.game = game
    me = game.current_player()
    table.seats = [Seat("bot") for _ in range(4)]
    table.seats[me] = Seat("human", "Ada", ADA)
    return table, me


def _typed(table: Table, lang: str, *texts: str) -> list[dict[str, Any]]:
    """The error frames Ada gets for each typed text, in order."""
    async def run() -> list[dict[str, Any]]:
        conn = Connection(ADA, "Ada", lang)
        table.start()
        try:
            for text in texts:
                await table.handle(conn, P.BidText(text))
        finally:
            await table.stop()
        frames = []
        while not conn.outbox.empty():
            raw = conn.outbox.get_nowait()
            assert raw is not None
            frames.append(json.loads(raw))
        return [f for f in frames if f["t"] == "error"]
    return asyncio.run(run())


def _said(frame: dict[str, Any]) -> str:
    """What the page says of an error frame: its text, then its detail (table.js)."""
    data = frame["d"]
    return str(data["text"] + (" " + data["detail"] if data["detail"] else ""))


def _level(table: Table, level: int, suit: int = 0) -> int:
    assert table.rules.auction is not None
    return A.contract_bid(table.rules.auction.levels.index(level), suit)


def test_levels_outside_the_table_are_answered_with_the_range_and_the_lowest_bid() -> None:
    table, me = _table()
    before = table.game.clone() if table.game else None
    low, high = _typed(table, "en", "50 cuori", "900 cuori")
    assert low["d"]["code"] == high["d"]["code"] == "bid_not_allowed"
    assert _said(low) == ("That bid is not allowed now. There is no contract at 50. Contracts "
                          "go from 82 to 802, in steps of 10. The lowest bid now is 82.")
    assert _said(high).startswith("That bid is not allowed now. There is no contract at 900. "
                                  "Contracts go from 82 to 802")
    assert table.game is not None and before is not None
    assert table.game.bid_history == before.bid_history == []  # nothing changed
    assert table.game.current_player() == me


def test_a_contract_under_the_minimum_names_the_lowest_bid_now() -> None:
    table, _ = _table()
    table, _ = _table(_level(table, 112))  # North opens 112 in hearts; East speaks
    [en] = _typed(table, "en", "82 cuori")
    assert en["d"]["code"] == "bid_not_allowed"
    assert en["d"]["detail"] == "82 is too low: the lowest bid now is 122."
    table, _ = _table(_level(table, 112))
    [it] = _typed(table, "it", "82 cuori")
    assert it["d"]["detail"] == "82 è troppo basso: ora la chiamata più bassa è 122."


def test_alzo_10_without_the_partners_contract_says_whose_contract_it_answers() -> None:
    table, _ = _table()
    [en] = _typed(table, "en", "alzo 10")
    assert en["d"]["detail"] == "You can say alzo 10 only on your partner's contract."
    table, _ = _table()
    [fr] = _typed(table, "fr", "alzo 10")
    assert fr["d"]["detail"] == (
        "Vous ne pouvez dire alzo 10 que sur le contrat de votre partenaire.")


def test_text_that_names_no_bid_gets_examples_and_the_card_play_is_not_a_bid() -> None:
    table, _ = _table()
    [hello] = _typed(table, "es", "hola")
    assert hello["d"]["code"] == "bid_not_understood"
    assert hello["d"]["detail"].startswith("Puedes decir, por ejemplo: paso, 82 a corazones")
    table, _ = _table(_level(table, 82), A.PASS, A.PASS, A.PASS)  # North's 82 stands
    assert table.game is not None and table.game.phase == Phase.PLAYING  # Ada leads
    # During the play the box reads a card (typed card play): refused with the engine's
    # reason for that card, never "that is not a bid".
    [card] = _typed(table, "en", "asso di cuori")
    assert card["d"]["code"] == "illegal"
    said = f'{card["d"].get("text", "")} {card["d"].get("detail", "")}'
    assert "You do not have the ace of hearts." in said and "not a bid" not in said, said

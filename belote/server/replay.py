"""The replay page's content: each deal of a finished match, told as sentences.

A match is over, so the replay shows every deal's four hands, then the whole deal as a
spectator heard it (nobody's private cards are announced twice).
"""

from __future__ import annotations

from typing import Any

from belote.cards import cards_in
from belote.engine.events import CardsDealt
from belote.i18n import describe_event
from belote.i18n.names import cards_text, seat_name
from belote.records import replay_steps


def replay_hands(record: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    players = record.get("players") or []
    names = [str(p) for p in players] if len(players) == 4 else None
    hands: list[dict[str, Any]] = []
    for game, step in replay_steps(record):
        if step.action_index is None:
            hands.append({"number": step.deal_index, "lines": [], "cards": [0, 0, 0, 0]})
        current = hands[-1]
        for event in step.events:
            if isinstance(event, CardsDealt):
                current["cards"][event.seat] |= event.cards
            text = describe_event(event, lang, None, names, "normal", game.rules)
            if text is not None:
                current["lines"].append(text)
    for hand in hands:
        hand["hands"] = [(seat_name(s, lang, names), cards_text(cards_in(c), lang))
                         for s, c in enumerate(hand.pop("cards"))]
    return hands

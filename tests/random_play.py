"""Random play through whole matches, for the tests that need positions of real games."""

from __future__ import annotations

import random
from collections.abc import Iterator

from belote.engine import CHANCE, Game, seeded_deck_source
from belote.engine import actions as A
from belote.rules.base import Rules


def decisions(rules: Rules, seed: int, matches: int) -> Iterator[tuple[Game, random.Random]]:
    """(game, rng) at each decision of ``matches`` random matches (the deals and the belote
    windows passed through: the belote announced); the caller may play the move with the
    rng, else a random legal action is played after it resumes."""
    rng = random.Random(seed)
    source = seeded_deck_source(seed)
    for _ in range(matches):
        game = Game(rules, rng.randrange(rules.players))
        while not game.is_terminal():
            if game.current_player() == CHANCE:
                game.deal(source())
                continue
            if game.current_player() < 0:
                for seat in game.seats_with_open_window():
                    game.apply(A.ANNOUNCE_BELOTE, seat)
                continue
            length = len(game.log)
            yield game, rng
            if len(game.log) == length:
                game.apply(rng.choice(game.legal_actions()))

"""Driving a match: players act through the player protocol, events flow out to listeners."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from belote.ai.base import DECLINE, Player
from belote.engine import actions as A
from belote.engine.dealing import DeckSource
from belote.engine.events import Event
from belote.engine.state import CHANCE, Game
from belote.rules.base import Rules

EventListener = Callable[[Game, list[Event]], None]


def _dispatch(game: Game, players: Sequence[Player], events: list[Event],
              listener: EventListener | None) -> None:
    for seat, player in enumerate(players):
        for event in events:
            if event.visible_to(seat):
                player.notify(event)
    if listener is not None:
        listener(game, events)


def play_step(game: Game, players: Sequence[Player], deck_source: DeckSource,
              listener: EventListener | None = None) -> None:
    """Advance ``game`` by one deal or one action (plus optional announcements)."""
    mover = game.current_player()
    if mover == CHANCE:
        events = game.deal(deck_source())
    else:
        action = players[mover].choose(game.observation(mover))
        events = game.apply(action, mover)
    _dispatch(game, players, events, listener)
    for seat in game.seats_with_open_window():
        # Seed 002: the announcement comes after the card, before the next player plays.
        if players[seat].choose(game.observation(seat)) != DECLINE:
            _dispatch(game, players, game.apply(A.ANNOUNCE_BELOTE, seat), listener)


def play_match(
    rules: Rules,
    players: Sequence[Player],
    deck_source: DeckSource,
    first_dealer: int = 0,
    listener: EventListener | None = None,
) -> Game:
    """Play a whole match to its end and return the finished game."""
    if len(players) != rules.players:
        raise ValueError(f"a match under these rules needs {rules.players} players")
    game = Game(rules, first_dealer)
    while not game.is_terminal():
        play_step(game, players, deck_source, listener)
    return game

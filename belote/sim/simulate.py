"""Bot-against-bot simulations: team win rates and points per hand, optional records."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from belote.ai import make_bot
from belote.engine.dealing import seeded_deck_source
from belote.engine.events import Event, HandScored
from belote.engine.state import Game
from belote.records import save_record, to_record
from belote.rules.base import Rules
from belote.sim.match import play_match
from belote.sim.stats import mean_interval, wilson_interval


def seat_bots(spec: str) -> list[str]:
    """"a,b" seats a at 0 and 2 (team 0), b at 1 and 3; "a,b,c,d" names every seat."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if len(names) == 2:
        return [names[0], names[1], names[0], names[1]]
    if len(names) == 4:
        return names
    raise ValueError("--bots takes two names (one per team) or four (one per seat)")


@dataclass
class SimulationResult:
    bots: list[str]
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    hand_points: list[list[int]] = field(default_factory=lambda: [[], []])

    def win_rate(self, team: int) -> tuple[float, float, float]:
        low, high = wilson_interval(self.wins[team], self.games)
        return (self.wins[team] / self.games if self.games else 0.0, low, high)

    def points_per_hand(self, team: int) -> tuple[float, float]:
        return mean_interval(self.hand_points[team])


def simulate(
    rules: Rules,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    save_dir: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``games`` matches; game ``i`` uses deck seed ``seed + i`` and first dealer i % 4."""
    result = SimulationResult(list(bots))
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)

    def listen(_game: Game, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, HandScored):
                result.hand_points[0].append(event.scores[0])
                result.hand_points[1].append(event.scores[1])

    for i in range(games):
        game_seed = seed + i
        players = [make_bot(name, game_seed * 4 + s) for s, name in enumerate(bots)]
        game = play_match(rules, players, seeded_deck_source(game_seed), i % 4, listen)
        result.games += 1
        if game.winner is not None:
            result.wins[game.winner] += 1
        if save_dir is not None:
            record = to_record(game, list(bots), seed=game_seed)
            save_record(record, save_dir / f"game-{game_seed:06d}.json")
        if progress is not None:
            progress(i + 1)
    return result

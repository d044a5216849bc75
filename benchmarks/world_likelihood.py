"""Do likelihood weights (belote.ai.likelihood) point at the real deal?  No solving, cheap.

Hands are played on colver's rules by colver's bidder and colver's heuristic at every seat
(or by the normal bot with ``--players normal``, on coinche).  At each card decision of
seat 0 from the second trick on, ``--worlds`` worlds are sampled as the expert samples them
and weighted by the normal bot's likelihood (``--eps``); the figure is the mean, over the
cards whose holder seat 0 does not know, of the log-probability that the worlds give the
card's real holder: uniform worlds against weighted ones (higher is better), and the
effective sample size of the weights (worlds' worth of information left).  With
``--fitting`` (colver's players), also ``--worlds`` worlds drawn among those colver's bidder
fits, as ``expert-w20-cbid`` draws them (:mod:`belote.ai.fitting`), equally weighted.

    python benchmarks/world_likelihood.py [--hands 40] [--eps 0.4,0.2] [--seed 7]
        [--players colver|normal] [--no-bids] [--fitting]
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence

from belote.ai import Player, make_bot
from belote.ai.fitting import FittingWorlds
from belote.ai.heuristic import HeuristicBot
from belote.ai.likelihood import auction_moves, normalised, play_log_likelihood
from belote.ai.worlds import knowledge, sample_world
from belote.cards import CardSet
from belote.engine.observation import Observation
from belote.engine.state import Phase
from belote.oracles.colver.bid_model import ColverBidModel
from belote.oracles.presets import arena_rules
from belote.sim.arena import SameBidder, pair_deck, play_hand

FITTING = "colver bids"  # the worlds colver's bidder fits (belote.ai.fitting), equal weights


class Spy:
    """Seat 0's player that, at its card decisions, scores the worlds against the deal."""

    def __init__(self, player: Player, eps: list[float], worlds: int, seed: int,
                 scores: dict[str, list[float]], bids: bool = True,
                 fitting: FittingWorlds | None = None) -> None:
        self.player, self.eps, self.worlds, self.bids = player, eps, worlds, bids
        self.rng = random.Random(seed)
        self.fitting = fitting
        self.scores = scores
        self.name = "spy"
        self.hands: Sequence[CardSet] = ()

    def see_deal(self, dealer: int, hands: Sequence[CardSet]) -> None:
        self.hands = hands
        see = getattr(self.player, "see_deal", None)
        if see is not None:
            see(dealer, hands)

    def notify(self, event: object) -> None:
        self.player.notify(event)  # type: ignore[arg-type]

    def choose(self, obs: Observation) -> int:
        if obs.phase == Phase.PLAYING and obs.trick_no >= 1:
            self._score(obs)
        return self.player.choose(obs)

    def _score(self, obs: Observation) -> None:
        info = knowledge(obs)
        truth = [h & ~obs.played for h in self.hands]
        cards = [c for c in range(32) if info.unseen >> c & 1]
        if not cards:
            return
        worlds = [sample_world(info, self.rng) for _ in range(self.worlds)]
        model = HeuristicBot(0)
        auction = auction_moves(obs) if self.bids else ()
        weightings = {"uniform": [1.0 / len(worlds)] * len(worlds)}
        for eps in self.eps:
            logs = [play_log_likelihood(obs, w, model, eps, auction) for w in worlds]
            weightings[f"eps {eps}"] = normalised(logs)
        drawn = {name: worlds for name in weightings}
        if self.fitting is not None:  # worlds the bid model fits, as the expert draws them
            fitting = self.fitting.kept(obs, info)[:self.worlds]
            while len(fitting) < self.worlds:
                fitting.append(self.fitting.draw(info, obs, math.inf)[0])
            drawn[FITTING] = fitting
            weightings[FITTING] = [1.0 / len(fitting)] * len(fitting)
        for name, weights in weightings.items():
            total = 0.0
            for card in cards:
                holder = next(s for s in range(4) if truth[s] >> card & 1)
                p = sum(w for w, world in zip(weights, drawn[name], strict=True)
                        if world[holder] >> card & 1)
                total += math.log(max(p, 1e-3))
            self.scores.setdefault(name, []).append(total / len(cards))
            ess = 1.0 / sum(w * w for w in weights)
            self.scores.setdefault(f"{name} ess", []).append(ess)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--eps", default="0.4,0.2,0.6")
    parser.add_argument("--worlds", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", default="colver", choices=("colver", "normal"))
    parser.add_argument("--no-bids", action="store_true", help="weigh by the cards only")
    parser.add_argument("--fitting", action="store_true",
                        help="also worlds drawn among those colver's bidder fits")
    args = parser.parse_args()
    eps = [float(e) for e in args.eps.split(",")]
    scores: dict[str, list[float]] = {}
    colver = args.players == "colver"
    rules = arena_rules("colver" if colver else "coinche")
    for index in range(args.hands):
        seeds = [(args.seed * 1_000_003 + index) * 4 + s for s in range(4)]
        players: list[Player] = []
        for s in range(4):
            player: Player = (SameBidder(make_bot("colver-bid", seeds[s]),
                                         make_bot("colver-heuristic", seeds[s]))
                              if colver else make_bot("normal", seeds[s]))
            if s == 0:
                fitting = (FittingWorlds(ColverBidModel(), random.Random(seeds[s]))
                           if args.fitting else None)
                player = Spy(player, eps, args.worlds, seeds[s], scores, not args.no_bids,
                             fitting)
            players.append(player)
        play_hand(rules, players, pair_deck(args.seed, index), index % 4)
    decisions = len(scores.get("uniform", []))
    print(f"{args.hands} hands ({args.players} players), {decisions} decisions of seat 0, "
          f"{args.worlds} worlds each")
    print(f"{'weights':<12} {'log p(real holder)':>20} {'gain over uniform (95% CI)':>28} "
          f"{'effective worlds':>18}")
    for name in ["uniform", *(f"eps {e}" for e in eps), *([FITTING] if args.fitting else [])]:
        values = scores[name]
        ess = scores[f"{name} ess"]
        gains = [v - u for v, u in zip(values, scores["uniform"], strict=True)]
        mean = sum(gains) / len(gains)
        sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(1, len(gains) - 1))
        print(f"{name:<12} {sum(values) / len(values):>20.4f} "
              f"{mean:>+19.4f} ± {1.96 * sd / math.sqrt(len(gains)):.4f} "
              f"{sum(ess) / len(ess):>18.1f}")


if __name__ == "__main__":
    main()

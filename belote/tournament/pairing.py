"""Pairings: who meets whom in the next round, as a maximum-weight matching.

The matching is ``networkx.max_weight_matching`` (Edmonds' blossom algorithm, maximum
cardinality first): every entrant is paired when any complete pairing exists, and among the
complete pairings the one of least cost is drawn.  Costs, from the heaviest:

==========================================  ===================================================
rule                                        how the matching keeps it
==========================================  ===================================================
pairs of one neighbourhood never meet       no edge between them (seed 001: "squadre di
                                            quartiere"; a team does not play itself)
no rematch when one is avoidable            a rematch costs more than every other cost of a
                                            whole round together
paired by standings (concours, from         the squared distance in the standings
round 2)
round 1 / Pinasca / mêlée: drawn at random  a random order stands in for the standings
==========================================  ===================================================
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from belote.tournament.model import TournamentError

T = TypeVar("T", bound=Hashable)


def match(order: Sequence[T], met: Callable[[T, T], int],
          allowed: Callable[[T, T], bool] = lambda a, b: True) -> list[tuple[T, T]]:
    """Pair every item of ``order`` (an even count), those close in ``order`` together,
    with as few earlier meetings (``met``: how often two have met) as possible.

    Raises :class:`TournamentError` (``no_pairing``) if no complete pairing is allowed.
    """
    # Imported here: the tournament (and so every ``belote`` command) loads without it.
    import networkx as nx  # type: ignore[import-untyped]

    n = len(order)
    if n % 2:
        raise ValueError(f"an even number of entrants is paired, not {n}")
    rematch = n ** 3 + 1  # more than the sum of the distance costs of a whole round
    top = rematch * n * n  # weights stay positive
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    for i in range(n):
        for j in range(i + 1, n):
            if allowed(order[i], order[j]):
                cost = met(order[i], order[j]) * rematch + (j - i) ** 2
                graph.add_edge(i, j, weight=top - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != n:
        raise TournamentError("no_pairing")
    pairs = sorted((min(i, j), max(i, j)) for i, j in matching)
    return [(order[i], order[j]) for i, j in pairs]


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    out = list(items)
    rng.shuffle(out)
    return out


def pick_bye(order: Sequence[T], byes: Callable[[T], int]) -> T:
    """Who sits out: the lowest in ``order`` among those with the fewest byes so far."""
    fewest = min(byes(item) for item in order)
    return [item for item in order if byes(item) == fewest][-1]

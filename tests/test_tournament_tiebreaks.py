"""Tie-breaks (issue 24, item 8): one registry, the organiser's order, shown as columns; and
the Pinasca ranking's readings for 2, 3 and 5+ neighbourhoods and for ties (seed 001 is
written for four neighbourhoods and says nothing of ties)."""

from __future__ import annotations

import random

import pytest

from belote.tournament.events import Event, Tournament
from belote.tournament.formats import draw
from belote.tournament.model import TournamentError
from belote.tournament.pinasca import ranking
from belote.tournament.standings import columns, entrant_records, standings
from belote.tournament.tiebreaks import TIEBREAKS, Context, break_ties, lot_order

# Three rounds of four pairs, over a fixed number of deals (any totals).  Wins: 1 and 3 two
# each, 2 and 4 one; points: 1 and 3 4200 each, so 1 and 3 are tied on wins then points.
ROUNDS = [
    [((1, 2), (1500, 1400)), ((3, 4), (1500, 500))],
    [((1, 3), (1500, 1000)), ((2, 4), (1500, 1300))],
    [((1, 4), (1200, 1500)), ((2, 3), (1400, 1700))],
]


def scenario(**kw: object) -> Tournament:
    t = Tournament()
    data: dict[str, object] = {"name": "Ties", "format": "concours", "preset": "pinasca",
                               "target": 1500, "rounds": 3, "deals": 12}
    data.update(kw)
    t.do(Event("created", data))
    for n in range(1, 5):
        t.do(Event("registered", {"entrants": [
            {"name": f"E{n}", "players": [f"{n}a", f"{n}b"], "checked_in": True}]}))
    for number, games in enumerate(ROUNDS, start=1):
        t.do(Event("drawn", {"round": number, "games": [
            {"table": k + 1, "sides": [[a], [b]], "lineup": [["x", "y"], ["z", "w"]]}
            for k, ((a, b), _) in enumerate(games)]}))
        for game, (_, totals) in zip(t.current.games, games, strict=True):
            t.do(Event("result", {"game": game.id, "totals": list(totals), "source": "entry"}))
        t.do(Event("closed", {"round": number}))
    return t


def everyone_tied(t: Tournament, chosen: list[str]) -> dict[str, tuple[int | None, ...]]:
    ctx = Context(t, entrant_records(t), {str(e): (e,) for e in t.entrants})
    return break_ties(ctx, {str(e): (0,) for e in t.entrants}, chosen)


def test_each_tie_break_of_the_registry() -> None:
    t = scenario()
    # Buchholz: the opponents' wins; median: without the best and the worst opponent.
    assert everyone_tied(t, ["buchholz"]) == {"1": (4,), "2": (5,), "3": (4,), "4": (5,)}
    assert everyone_tied(t, ["median_buchholz"]) == {"1": (1,), "2": (2,), "3": (1,),
                                                     "4": (2,)}
    # Point difference: scores made minus scores conceded in the played games.
    assert everyone_tied(t, ["point_difference"]) == {"1": (300,), "2": (-200,),
                                                      "3": (800,), "4": (-900,)}
    # Head-to-head among those still tied: 2 a win.
    assert everyone_tied(t, ["head_to_head"]) == {"1": (4,), "2": (2,), "3": (4,), "4": (2,)}
    # In turn: Buchholz splits {2, 4} from {1, 3}; head-to-head is counted in each group.
    assert everyone_tied(t, ["buchholz", "head_to_head"]) == {
        "1": (4, 2), "2": (5, 2), "3": (4, 0), "4": (5, 0)}
    assert set(TIEBREAKS) == {"buchholz", "median_buchholz", "point_difference",
                              "head_to_head", "lot"}


def test_the_organisers_order_decides_and_the_default_is_buchholz_then_shared() -> None:
    # Results are in: each change of the tie-breaks says why ("R"; review of issue 24).
    t = scenario()
    lines = standings(t)
    assert [(line.place, line.name) for line in lines][:2] == [(1, "E1"), (1, "E3")]
    t.do(Event("configured", {"tiebreaks": ["buchholz", "head_to_head"], "reason": "R"}))
    lines = standings(t)
    assert [(line.place, line.name, line.tiebreaks) for line in lines][:2] == [
        (1, "E1", (4, 2)), (2, "E3", (4, 0))]  # E1 beat E3 in round 2
    assert [c.label for c in columns(t)][-2:] == ["tournament.web.col.tb_buchholz",
                                                  "tournament.web.col.tb_head_to_head"]
    assert [c.cell(lines[0]) for c in columns(t)][-2:] == [4, 2]
    t.do(Event("configured", {"tiebreaks": ["point_difference"], "reason": "R"}))
    assert [line.name for line in standings(t)][:2] == ["E3", "E1"]  # +800 against +300
    t.do(Event("configured", {"tiebreaks": [], "reason": "R"}))
    assert [line.place for line in standings(t)][:2] == [1, 1]


def test_the_drawing_of_lots_is_seeded_recorded_and_the_same_on_every_replay() -> None:
    t = scenario()
    with pytest.raises(TournamentError) as info:
        t.do(Event("configured", {"tiebreaks": ["lot"]}))
    assert info.value.code == "lot_needs_seed"
    for bad in (["lot", "lot"], ["coin"], "buchholz"):
        with pytest.raises(TournamentError) as info:
            t.do(Event("configured", {"tiebreaks": bad, "lot_seed": 1}))
        assert info.value.code == "bad_tiebreaks"
    t.do(Event("configured", {"tiebreaks": ["lot"], "lot_seed": 42, "reason": "R"}))
    lots = lot_order(42, ["1", "2", "3", "4"])
    first = "E1" if lots.index("1") < lots.index("3") else "E3"
    lines = standings(t)
    assert lines[0].name == first and lines[0].place == 1 and lines[1].place == 2
    assert {line.name: line.tiebreaks for line in lines}[first] == (
        lots.index(first[1]) + 1,)  # the column shows the lot's place
    again = Tournament.replay([Event(a.kind, a.data, a.by, a.at) for a in t.audit])
    assert standings(again) == lines


def test_a_draw_by_standings_follows_the_tie_breaks() -> None:
    t = scenario(rounds=4, tiebreaks=["point_difference"])
    order = t.fmt.order(t)
    assert order[:2] == [3, 1]
    t.do(draw(t, random.Random(0)))
    assert t.current is not None and t.current.number == 4


# ---------------------------------------------------------------- Pinasca's readings
def test_pinasca_two_neighbourhoods_score_5_and_3() -> None:
    assert [s.points for s in ranking({"A": 10, "B": 5})] == [5, 3]


def test_pinasca_three_neighbourhoods_score_5_3_2_the_last_keeps_its_place() -> None:
    assert [s.points for s in ranking({"A": 10, "B": 5, "C": 1})] == [5, 3, 2]


def test_pinasca_five_or_more_neighbourhoods_score_1_below_the_third() -> None:
    totals = {"A": 10, "B": 9, "C": 8, "D": 7, "E": 6, "F": 5}
    assert [s.points for s in ranking(totals)] == [5, 3, 2, 1, 1, 1]


def test_pinasca_ties_share_the_better_place_and_its_points() -> None:
    tied_second = ranking({"A": 10, "B": 8, "C": 8, "D": 1})
    assert [(s.place, s.points) for s in tied_second] == [(1, 5), (2, 3), (2, 3), (4, 1)]
    tied_last = ranking({"A": 10, "B": 8, "C": 1, "D": 1})
    assert [(s.place, s.points) for s in tied_last] == [(1, 5), (2, 3), (3, 2), (3, 2)]
    tied_first = ranking({"A": 10, "B": 10})
    assert [(s.place, s.points) for s in tied_first] == [(1, 5), (1, 5)]


def test_pinasca_tie_breaks_are_the_organisers_choice_for_neighbourhoods() -> None:
    t = Tournament()
    t.do(Event("created", {"name": "P", "format": "pinasca", "preset": "pinasca",
                           "target": 1500, "rounds": 3}))
    for club in ("Lupi", "Orsi"):
        t.do(Event("registered", {"entrants": [
            {"players": [f"{club}1", f"{club}2"], "club": club},
            {"players": [f"{club}3", f"{club}4"], "club": club}]}))
    t.do(draw(t, random.Random(0)))
    for n, game in enumerate(t.current.games):  # each neighbourhood wins one game
        first_wins = (t.entrants[game.sides[0][0]].club == "Lupi") == (n == 0)
        t.do(Event("result", {"game": game.id, "totals": [1500, 1200] if first_wins
                              else [1200, 1500], "source": "entry"}))
    lines = standings(t)
    assert [(line.place, line.points) for line in lines] == [(1, 5), (1, 5)]  # shared
    t.do(Event("configured", {"tiebreaks": ["point_difference", "lot"], "lot_seed": 7,
                              "reason": "R"}))
    lines = standings(t)
    assert [(line.place, line.points) for line in lines] == [(1, 5), (2, 3)]
    assert lines[0].name == lot_order(7, ["Lupi", "Orsi"])[0]
    assert lines[0].tiebreaks == (0, 1) and lines[1].tiebreaks == (0, 2)

"""The Pinasca tournament (seed 001): game scores and the neighbourhood ranking."""

from __future__ import annotations

import pytest

from belote.tournament import Adjustment, game_scores, ranking
from belote.tournament.pinasca import place_points


def test_seed_example_1500_to_1200_gives_3800_and_1200() -> None:
    # "Squadra A vince con Squadra B 1500 a 1200. La Squadra B segnerà 1200 punti, la
    # Squadra A segnerà 1500+2000+300 per un totale di 3800 punti"
    assert game_scores(1500, 1200) == (3800, 1200)


def test_winner_past_1500_keeps_its_total_difference_from_1500() -> None:
    # "verranno accreditati il totale dei punti fatti, ma la differenza con l'altra squadra
    # verrà calcolata sempre sulla base dei 1500"
    assert game_scores(1620, 1200) == (1620 + 2000 + 300, 1200)


def test_loser_past_1500_adds_nothing_floor_at_zero() -> None:
    # RULES.md (reading): 1500 - loser's total, floored at 0.
    assert game_scores(1600, 1510) == (3600, 1510)
    assert game_scores(1600, 1500) == (3600, 1500)


def test_short_game_and_bonus_are_parameters() -> None:
    # Seed 001: "Vince la partita la squadra che ottiene per prima 1200 o 1500 punti."
    assert game_scores(1200, 900, target=1200) == (1200 + 2000 + 300, 900)
    assert game_scores(1500, 1000, bonus=0) == (2000, 1000)


@pytest.mark.parametrize(("winner", "loser"), [(1400, 1200), (1500, 1500), (1500, 1600),
                                               (1500, -1)])
def test_impossible_games_are_errors(winner: int, loser: int) -> None:
    with pytest.raises(ValueError):
        game_scores(winner, loser)


def test_ranking_points_5_3_2_last_1() -> None:
    # Seed 001: 1a 5 punti, 2a 3, 3a 2, l'ultima 1.
    totals = {"Borgo": 14000, "Centro": 9000, "Chiesa": 12000, "Rivoira": 7000}
    standings = ranking(totals)
    assert [(s.team, s.place, s.points) for s in standings] == [
        ("Borgo", 1, 5), ("Chiesa", 2, 3), ("Centro", 3, 2), ("Rivoira", 4, 1)]


def test_organiser_adjustments_need_a_reason() -> None:
    # Seed 001: "possono essere modificati con il 'Potere della Girandola' o la 'Maledizione
    # del Framasun'".
    totals = {"Borgo": 14000, "Centro": 9000, "Chiesa": 12000, "Rivoira": 7000}
    adjustments = [Adjustment("Rivoira", 2, "Potere della Girandola"),
                   Adjustment("Borgo", -1, "Maledizione del Framasun")]
    by_team = {s.team: s for s in ranking(totals, adjustments)}
    assert by_team["Rivoira"].points == 3 and by_team["Rivoira"].base_points == 1
    assert by_team["Borgo"].points == 4
    assert by_team["Borgo"].adjustments[0].reason == "Maledizione del Framasun"
    with pytest.raises(ValueError, match="reason"):
        ranking(totals, [Adjustment("Borgo", 1, " ")])
    with pytest.raises(ValueError, match="not in the ranking"):
        ranking(totals, [Adjustment("Pinerolo", 1, "Girandola")])


def test_equal_totals_share_the_better_place() -> None:
    standings = ranking({"A": 10, "B": 10, "C": 5, "D": 1, "E": 0})
    assert [(s.team, s.place, s.base_points) for s in standings] == [
        ("A", 1, 5), ("B", 1, 5), ("C", 3, 2), ("D", 4, 1), ("E", 5, 1)]
    assert place_points(4) == 1


def test_floor_at_zero_is_a_flag_a_tournament_can_switch() -> None:
    # RULES.md: "1500 - loser's total, floored at 0 (reading)": a loser at 1510 (both past
    # the target in the last hand) takes 10 away when the floor is off.
    from belote.tournament.pinasca import game_scores

    assert game_scores(1600, 1510) == (3600, 1510)
    assert game_scores(1600, 1510, floor_at_zero=False) == (3590, 1510)

"""Tournament scoring on top of match results (seed 001: the Pinasca regulation)."""

from belote.tournament.pinasca import Adjustment, Standing, game_scores, ranking

__all__ = ["Adjustment", "Standing", "game_scores", "ranking"]

"""A game played with real cards: the tournament's rules for the scorekeeper's sheet, and the
match totals a finished sheet gives the tournament.

Each game starts a fresh :class:`~belote.scorekeeper.ScoreSheet`: a prigione (litige) pot
frozen when a game ends stays with that game (seed 001 freezes "solamente ed
esclusivamente i punti di una mano di gioco" for "la mano che segue", which is of the same
game).
"""

from __future__ import annotations

from typing import TextIO

from belote.rules import Rules, find_preset
from belote.scorekeeper import ScoreSheet, load_csv
from belote.tournament.model import Settings, TournamentError


def tournament_rules(settings: Settings) -> Rules:
    """The preset with the tournament's flags and target."""
    flags = dict(settings.flags)
    if settings.deals is None:
        flags["target_score"] = settings.target
    else:
        # Over a fixed number of deals the target plays no part (``match_hands``, as the
        # online tables play it): the sheet ends after that many hands.  A tie would play
        # one more hand online; with real cards it is a draw (sheet_totals stops there).
        flags["match_hands"] = settings.deals
    return find_preset(settings.preset).with_flags(**flags)


def sheet_totals(sheet: ScoreSheet, settings: Settings) -> tuple[int, int]:
    """The match totals of a finished sheet (to the target, or after the fixed deals)."""
    if settings.deals is not None:
        if len(sheet.hands) < settings.deals:
            raise TournamentError("sheet_not_finished")
        if len(sheet.hands) > settings.deals:
            raise TournamentError("too_many_hands", deals=settings.deals)
        return sheet.totals
    if not sheet.finished:
        raise TournamentError("sheet_not_finished")
    return sheet.totals


def totals_from_csv(stream: TextIO, settings: Settings) -> tuple[int, int]:
    """The totals of a scorekeeper CSV (``belote score --csv-out``); a bad CSV raises the
    scorekeeper's :class:`~belote.scorekeeper.CsvError`."""
    return sheet_totals(load_csv(stream, tournament_rules(settings)), settings)

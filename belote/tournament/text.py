"""Sentences about a tournament, from the catalogs (``tournament.po``): refusals, a game's
line, a standings line.  Shared by the CLI and the room's pages."""

from __future__ import annotations

from belote.i18n import translate
from belote.tournament.events import Tournament
from belote.tournament.model import Game, TournamentError
from belote.tournament.registration import LineError
from belote.tournament.standings import Line


def error_text(lang: str, error: TournamentError) -> str:
    if isinstance(error, LineError):  # a file's line: its number, then why
        return translate(lang, "tournament.error.at_line", line=error.line,
                         reason=error_text(lang, error.inner))
    return translate(lang, f"tournament.error.{error.code}", **error.values)


def game_line(lang: str, t: Tournament, game: Game) -> str:
    if game.bye:
        return translate(lang, "tournament.line.bye", game=game.id, name=t.side_name(
            game.sides[0]), points=t.s.bye_points)
    a, b = (t.side_name(side) for side in game.sides)
    if game.result is None:
        return translate(lang, "tournament.line.playing", game=game.id, table=game.table,
                         a=a, b=b)
    totals, scores = game.result.totals, game.result.scores
    return translate(lang, "tournament.line.result", game=game.id, table=game.table, a=a, b=b,
                     total_a=totals[0], total_b=totals[1], score_a=scores[0],
                     score_b=scores[1])


def standing_line(lang: str, t: Tournament, line: Line) -> str:
    name = (translate(lang, "tournament.line.withdrawn_name", name=line.name)
            if line.withdrawn else line.name)
    if line.points is not None:
        return translate(lang, "tournament.line.pinasca", place=line.place, name=name,
                         total=line.total, points=line.points)
    rec = line.record
    assert rec is not None
    return translate(lang, "tournament.line.standing", place=line.place, name=name,
                     wins=rec.wins, draws=rec.draws, losses=rec.losses, byes=rec.byes,
                     points=rec.points)

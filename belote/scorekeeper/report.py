"""The scorekeeper's text: one line per hand, the match, the questions, in one language."""

from __future__ import annotations

from belote.engine.events import NO_TRUMP
from belote.rules.base import Rules
from belote.rules.game_score import WIN_BONUS
from belote.scorekeeper.sheet import HandResult, ScoreSheet, tournament_scores
from belote.scorekeeper.vocabulary import levels_text, message, team_label, trump_choices

# The questions of a hand, in order (``score.ask.<step>``); the preset drops some.
STEPS: tuple[str, ...] = ("taker", "trump", "level", "double", "tricks_ns", "tricks_ew",
                          "capot", "decl_ns", "decl_ew", "belote")


def describe_hand(result: HandResult, lang: str = "en") -> str:
    """One line: the hand's outcome and scores, the pot, the match totals."""
    out = result.outcome
    capot = ("" if out.capot_team is None
             else message("report.capot", lang, team=team_label(out.capot_team, lang)))
    pot = ""
    if out.pot_winner is not None:
        pot += message("report.pot_won", lang, team=team_label(out.pot_winner, lang),
                       points=out.pot_won)
    if out.pot.points and out.pot.team is not None:
        pot += message("report.pot_kept", lang, points=out.pot.points,
                       team=team_label(out.pot.team, lang))
    return message(
        "report.hand", lang, number=result.number, taker=team_label(result.entry.taker, lang),
        outcome=message(f"report.outcome.{out.outcome}", lang), capot=capot,
        score_ns=out.scores[0], score_ew=out.scores[1], pot=pot,
        total_ns=result.totals[0], total_ew=result.totals[1],
    )


def describe_match(sheet: ScoreSheet, lang: str = "en") -> str:
    totals = sheet.totals
    if sheet.winner is not None:
        w = sheet.winner
        return message("report.match_over", lang, winner=team_label(w, lang),
                       total_w=totals[w], total_l=totals[1 - w])
    return message("report.match_going", lang, total_ns=totals[0], total_ew=totals[1],
                   target=sheet.rules.target_score)


def describe_undone(undone: HandResult, sheet: ScoreSheet, lang: str = "en") -> str:
    return message("report.undone", lang, number=undone.number, total_ns=sheet.totals[0],
                   total_ew=sheet.totals[1])


def describe_game_scores(sheet: ScoreSheet, lang: str = "en") -> str | None:
    """The Pinasca tournament game score of a finished match; None while it goes on."""
    scores = tournament_scores(sheet)
    if scores is None:
        return None
    return message("report.game_scores", lang, target=sheet.rules.target_score,
                   bonus=WIN_BONUS, ns=scores[0], ew=scores[1])


def describe_end(sheet: ScoreSheet, lang: str = "en") -> str:
    return message("report.end", lang, count=len(sheet.hands))


def steps(rules: Rules, trump: int | None = None) -> list[str]:
    """The questions of one hand for the preset (and the trump, once answered)."""
    asked = ["taker", "trump"]
    if rules.auction is not None:
        asked += ["level", "double"]
    asked += ["tricks_ns", "tricks_ew", "capot"]
    if rules.declarations is not None:
        asked += ["decl_ns", "decl_ew"]
    if rules.belote_enabled and trump != NO_TRUMP:
        asked.append("belote")
    return asked


def question(rules: Rules, step: str, number: int, lang: str = "en") -> str:
    """The question of ``step`` in ``lang``, with the preset's choices."""
    if step == "trump":
        return message("ask.trump", lang, choices=trump_choices(
            lang, senza=rules.allow_senza, tutte=rules.allow_tutte))
    if step == "level":
        assert rules.auction is not None
        return message("ask.level", lang, levels=levels_text(
            rules.auction.levels, rules.auction.capot_level, lang))
    return message(f"ask.{step}", lang, number=number)

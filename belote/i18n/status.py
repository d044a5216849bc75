"""Answers to the seed's status keys (C cards on the table, A trump, F lead suit, S scores).

Shared by the terminal table and the web room so that both say the same sentence.
"""

from __future__ import annotations

from collections.abc import Sequence

from belote.engine.events import ALL_TRUMP, NO_TRUMP
from belote.engine.observation import Observation
from belote.i18n.catalog import translate
from belote.i18n.names import card_name, join_list, seat_name, suit_name, team_name

STATUS_QUESTIONS = ("table", "trump", "lead", "scores")


def status_text(question: str, obs: Observation, lang: str,
                names: Sequence[str] | None = None) -> str:
    """The sentence answering ``question`` (one of ``STATUS_QUESTIONS``) for ``obs``."""
    if question == "table":
        if not obs.trick:
            return translate(lang, "ui.status.no_card")
        entries = [
            translate(lang, "ui.status.table_entry", card=card_name(card, lang),
                      player=seat_name(seat, lang, names))
            for seat, card in obs.trick
        ]
        return translate(lang, "ui.status.table",
                         cards=translate(lang, "list.separator").join(entries))
    if question == "trump":
        if obs.trump is None:
            return translate(lang, "ui.status.no_trump_yet")
        if obs.trump == NO_TRUMP:
            return translate(lang, "ui.status.no_trump_contract")
        if obs.trump == ALL_TRUMP:
            return translate(lang, "ui.status.all_trump_contract")
        return translate(lang, "ui.status.trump", suit=suit_name(obs.trump, lang))
    if question == "lead":
        if not obs.trick:
            return translate(lang, "ui.status.no_card")
        return translate(lang, "ui.status.lead", suit=suit_name(obs.trick[0][1] >> 3, lang))
    if question == "scores" and obs.ruleset is not None and obs.ruleset.players != 4:
        # Fewer players (seed 000): one total per player, no team.
        return translate(lang, "ui.status.scores.seats", scores=join_list(
            (translate(lang, "cli.replay.side_points", side=seat_name(s, lang, names),
                       points=total) for s, total in enumerate(obs.totals)), lang))
    if question == "scores":
        return translate(lang, "ui.status.scores", team0=team_name(0, lang),
                         score0=obs.totals[0], team1=team_name(1, lang), score1=obs.totals[1])
    raise ValueError(f"unknown status question {question!r}: expected {STATUS_QUESTIONS}")

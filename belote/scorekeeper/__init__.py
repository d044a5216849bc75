"""A score sheet for games played with real cards (the Pinasca tournament is played at tables).

The table types each hand (contract, trick points as counted, declarations, belote) in any of
the catalog languages; the sheet checks it against the preset's rules, scores it with
:func:`belote.engine.scoring.score_hand` (never with a scoring of its own), carries the
litige / prigione pot, keeps the match totals and says when the match is over.  A refused
hand changes nothing; :meth:`ScoreSheet.undo` takes the last hand back.

One concept per module:

==================  ==========================================================================
``hand``            :class:`HandEntry`, :class:`Declared`: a hand as the table tells it
``vocabulary``      the words, both ways, from the catalogs (``scorekeeper.po``, ``score.*``)
``entry``           parsing what the scorer types, in any language
``declarations``    the preset's declaration table and possible totals
``validation``      refusals (:class:`Reason` codes), :func:`refusal_text`, :func:`check_hand`
``sheet``           the running sheet, :func:`match_winner`, the Pinasca game score
``report``          the text: hand lines, the match, the questions
``csvio``           CSV in and out
==================  ==========================================================================
"""

from belote.engine.scoring import hand_total
from belote.scorekeeper.csvio import (
    REQUIRED_COLUMNS,
    entry_row,
    format_level,
    load_csv,
    parse_row,
    result_row,
    write_csv,
)
from belote.scorekeeper.declarations import (
    declaration_aliases,
    declaration_table,
    possible_totals,
)
from belote.scorekeeper.entry import (
    fold_belote,
    parse_declared,
    parse_double,
    parse_level,
    parse_optional_team,
    parse_points,
    parse_team,
    parse_trump,
)
from belote.scorekeeper.hand import Declared, HandEntry
from belote.scorekeeper.report import (
    describe_end,
    describe_game_scores,
    describe_hand,
    describe_match,
    describe_undone,
    question,
    steps,
)
from belote.scorekeeper.sheet import HandResult, ScoreSheet, match_winner, tournament_scores
from belote.scorekeeper.validation import CsvError, Reason, ScoreError, check_hand, refusal_text
from belote.scorekeeper.vocabulary import COLUMNS, MESSAGES, RESULT_COLUMNS, message

TEAM_CODES: tuple[str, str] = ("NS", "EW")

__all__ = [
    "COLUMNS",
    "MESSAGES",
    "REQUIRED_COLUMNS",
    "RESULT_COLUMNS",
    "TEAM_CODES",
    "CsvError",
    "Declared",
    "HandEntry",
    "HandResult",
    "Reason",
    "ScoreError",
    "ScoreSheet",
    "check_hand",
    "declaration_aliases",
    "declaration_table",
    "describe_end",
    "describe_game_scores",
    "describe_hand",
    "describe_match",
    "describe_undone",
    "entry_row",
    "fold_belote",
    "format_level",
    "hand_total",
    "load_csv",
    "match_winner",
    "message",
    "parse_declared",
    "parse_double",
    "parse_level",
    "parse_optional_team",
    "parse_points",
    "parse_row",
    "parse_team",
    "parse_trump",
    "possible_totals",
    "question",
    "refusal_text",
    "result_row",
    "steps",
    "tournament_scores",
    "write_csv",
]

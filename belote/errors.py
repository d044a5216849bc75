"""Error types shared by the whole package.

Syntax errors (a string that is not a card or an action) are kept apart from rule errors (a
well-formed action the rules forbid now), as python-chess does with its move errors.
"""

from __future__ import annotations

from enum import StrEnum


class BeloteError(Exception):
    """Base class of every error this package raises on purpose."""


class InvalidNotationError(BeloteError, ValueError):
    """A card, action or record that cannot be parsed."""


class IllegalActionError(BeloteError, ValueError):
    """A well-formed action that the rules do not allow in the current state.

    When the engine refuses one seat's action it says which and why: ``action``, ``seat`` and
    ``reason`` (a :class:`belote.engine.obligations.RefusalReason`, typed here as the StrEnum
    it is: this module sits below the engine), the message in plain English
    (:func:`belote.engine.refusals.illegal_action`); :mod:`belote.i18n.refusals` says the
    reason in the four languages.  Refusals about no one seat's action (no deal due, a
    malformed id) leave the three None.
    """

    def __init__(self, message: str, *, action: int | None = None, seat: int | None = None,
                 reason: StrEnum | None = None) -> None:
        super().__init__(message)
        self.action = action
        self.seat = seat
        self.reason = reason


class RecordError(BeloteError, ValueError):
    """A game record that is malformed or does not replay."""

"""Error types shared by the whole package.

Syntax errors (a string that is not a card or an action) are kept apart from rule errors (a
well-formed action the rules forbid now), as python-chess does with its move errors.
"""


class BeloteError(Exception):
    """Base class of every error this package raises on purpose."""


class InvalidNotationError(BeloteError, ValueError):
    """A card, action or record that cannot be parsed."""


class IllegalActionError(BeloteError, ValueError):
    """A well-formed action that the rules do not allow in the current state."""


class RecordError(BeloteError, ValueError):
    """A game record that is malformed or does not replay."""

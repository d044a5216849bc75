"""The registry of formats: one :func:`register` call per format (python-chess's
``VARIANTS`` and ``find_variant``)."""

from __future__ import annotations

import re

from belote.tournament.formats._base import TournamentFormat
from belote.tournament.model import TournamentError

# A name is stored in the tournaments table (String(24)) and names catalog messages.
NAME = re.compile(r"[a-z][a-z0-9_]{0,23}")

_formats: dict[str, TournamentFormat] = {}


def register(fmt: TournamentFormat) -> TournamentFormat:
    """Add a format; raises ``ValueError`` for a bad or taken name (a programming error)."""
    name = getattr(fmt, "name", "")
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ValueError(f"a format's name is 1 to 24 of a-z, 0-9, _ (starting with a "
                         f"letter), not {name!r}")
    if name in _formats:
        raise ValueError(f"format {name!r} is registered twice")
    _formats[name] = fmt
    return fmt


def unregister(name: str) -> None:
    """Remove a format (tests that register a format of their own)."""
    _formats.pop(name, None)


def formats() -> list[TournamentFormat]:
    """Every format, in the organiser's order (the default first)."""
    return sorted(_formats.values(), key=lambda f: (f.menu_order, f.name))


def format_names() -> list[str]:
    return [f.name for f in formats()]


def find_format(name: str) -> TournamentFormat:
    """The format called ``name``; an unknown name raises
    :class:`~belote.tournament.model.TournamentError` ``bad_format`` listing the known ones."""
    try:
        return _formats[name]
    except (KeyError, TypeError):  # TypeError: an unhashable name from a form or a file
        raise TournamentError("bad_format", formats=", ".join(format_names()),
                              name=name) from None

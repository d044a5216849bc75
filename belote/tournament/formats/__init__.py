"""Tournament formats as strategies in a registry: every module of this package whose name
does not start with ``_`` is a format, registered by its one :func:`register` call when the
package is imported.  Nothing outside this package tests a format's name; the tournament, its
pages and the CLI ask the strategy (:class:`TournamentFormat`), found by the name the
settings store (:func:`find_format`).

=======================  =======================================================================
format                   the module that says everything about it
=======================  =======================================================================
``pinasca``              :mod:`.pinasca`: neighbourhoods of two pairs, three rounds, seed 001's
                         game scores and 5/3/2/1 ranking
``concours``             :mod:`.concours`: pairs, rounds paired by standings
``melee``                :mod:`.melee`: single players, new partners each round
``double_elimination``   :mod:`.double_elimination`: pairs, out at the second loss
=======================  =======================================================================

Adding a format: ``docs/tournaments.md``, "Adding a format".
"""

from __future__ import annotations

import importlib
import pkgutil

from belote.tournament.formats._base import (
    RECORD_COLUMNS,
    Column,
    Draw,
    Pairs,
    TournamentFormat,
)
from belote.tournament.formats._draws import (
    by_standings,
    checked_in,
    draw,
    meetings,
    partnerships,
)
from belote.tournament.formats._registry import (
    find_format,
    format_names,
    formats,
    register,
    unregister,
)


def _load() -> None:
    """Import every format module of this package (each registers its format)."""
    for module in pkgutil.iter_modules(__path__):
        if not module.name.startswith("_"):
            importlib.import_module(f"{__name__}.{module.name}")


_load()

__all__ = [
    "RECORD_COLUMNS",
    "Column",
    "Draw",
    "Pairs",
    "TournamentFormat",
    "by_standings",
    "checked_in",
    "draw",
    "find_format",
    "format_names",
    "formats",
    "meetings",
    "partnerships",
    "register",
    "unregister",
]

"""The ``belote.bots`` entry-point group: its name, and which of its entry points a room
offers as levels.  One home for both, below the bot layer and the room: the bot layer loads
the plug-ins (:mod:`belote.ai.plugins`), the room lists its levels
(:mod:`belote.server.levels`) without importing any bot (the wire codec validates levels and
imports no bot: the ``codec-imports-no-bot`` import contract).  Imports nothing of the
package.
"""

from __future__ import annotations

from importlib.metadata import entry_points

# The group installed packages declare their bots in (their pyproject.toml):
#     [project.entry-points."belote.bots"]
#     first-legal = "examples.first_legal_bot:FirstLegalBot"
BOT_GROUP = "belote.bots"
_OWN_PACKAGE = __name__.partition(".")[0]  # "belote"


def room_plugin_names() -> tuple[str, ...]:
    """The entry points a room offers as levels, sorted: those of other packages.  The bots
    this package declares itself live in its own modules (``belote.``) and are arena bots
    (colver's agents need the whole deal, which no seat of a room sees).  Reads names only:
    nothing is imported."""
    return tuple(sorted({ep.name for ep in entry_points(group=BOT_GROUP)
                         if not ep.value.startswith(f"{_OWN_PACKAGE}.")}))

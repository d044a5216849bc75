"""What a format's strategy reads of a tournament: a structural type that
:class:`belote.tournament.events.Tournament` satisfies.

The strategies (:mod:`belote.tournament.formats`) and the records (:mod:`.records`) take this
view rather than the class, so that the tournament (which asks its format what to check) sits
above its formats and no import runs back up.
"""

from __future__ import annotations

from typing import Protocol

from belote.tournament.claims import Claim
from belote.tournament.model import Adjustment, Entrant, Game, Round, Settings


class TournamentView(Protocol):
    settings: Settings | None
    entrants: dict[int, Entrant]
    rounds: list[Round]
    adjustments: list[Adjustment]
    claims: dict[int, Claim]  # score entries awaiting the other side (.claims)

    @property
    def s(self) -> Settings:
        """The settings (raises ``not_created`` before the tournament is created)."""

    @property
    def current(self) -> Round | None: ...

    @property
    def complete(self) -> bool: ...

    def games(self) -> list[Game]: ...

    def clubs(self) -> dict[str, list[Entrant]]: ...

"""One hand as the table tells it: the data that the entry parses and the checks read."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Declared:
    """A team's declarations: the points decided at the table, or the names (or both).

    ``belote`` is set when the scorer said "belote" among the declarations; the entry moves
    it to :attr:`HandEntry.belote` (see :func:`belote.scorekeeper.entry.fold_belote`).
    """

    points: int = 0
    names: tuple[str, ...] = ()
    belote: bool = False

    def __str__(self) -> str:
        return "+".join(self.names) if self.names else (str(self.points) if self.points else "")


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One hand as the table tells it.  Teams: 0 = N-S, 1 = E-W."""

    taker: int
    trump: int  # a suit 0..3 (hearts, diamonds, clubs, spades), NO_TRUMP (senza), ALL_TRUMP
    tricks: tuple[int, int]  # card points as counted, with the last trick's 10, no capot bonus
    capot: int | None = None  # the team that took every trick
    declarations: tuple[Declared, Declared] = (Declared(), Declared())
    belote: int | None = None  # the team that scored belote-rebelote
    level: int = 0  # the contract level of an auction (the capot level: a capot contract)
    double: int = 0  # 0, 1 contro / coinche, 2 surcontro / surcoinche
    number: int | None = None  # the hand number the table wrote, checked if given

"""Showing declarations on request, and bluffed declarations (seed 000), for the engine.

Seed 000, italian: "Alla seconda mano può essere richiesto di mostrare queste dichiarazioni (ma
non è obbligatorio se non viene richiesto)"; valdostana: "Nel secondo giro, su richiesta degli
avversari, si mostrano le figure, anche quelle non annunciate poiché di valore inferiore ...
conviene mostrare tutti gli accusi e così validare anche quelli non annunciati!"

* ``declarations.show_on_request``: at the second trick a player of the side whose
  declarations do not score may, in turn, ask (REQUEST_SHOW) to see the scoring side's
  declarations.  Shown, they become public and the lower, unannounced accusi that the showing
  validates score too (the side shows all of them: it never loses by it).  Not asked, the
  declarations score as announced and nobody sees their cards.

* ``declarations.bluffs_allowed``, the "Mossa Leccese": "se uno dei giocatori dichiara una
  scala, è possibile dichiararne una fasulla uguale".  BLUFF announces a sequence equal to one
  an opponent announced, whether the player holds it or not: the action id and the words said
  are the same in both cases, so no other seat (nor a world sampled from its view) can tell.
  A fake sequence never scores (its player concedes the comparison, having learned what he
  wanted).  "la squadra avversaria potesse confutare la terza dichiarata in maniera fasulla,
  può farlo e guadagnarsi altri 20 punti, oppure può fare finta di nulla": REFUTE, in turn
  during the first two tricks, makes every unexamined announcement of the other side be
  shown; a fake one gives the refuters ``bluff_penalty``.  Reading: refuting a real
  declaration costs nothing but shows it (the seed names no price).

The hidden parts live on the game (``_bluffs``, ``_pending_show``) and never reach an
observation: only the events below say what became public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from belote.engine import actions as A
from belote.engine.events import (
    BluffRefuted,
    DeclarationAnnounced,
    DeclarationsResolved,
    DeclarationsShown,
    Event,
    ShowRequested,
)
from belote.rules.declarations import (
    Declaration,
    named_declaration,
    sequence_value,
    sort_declarations,
    spoken_name,
    spoken_names_held,
    valdostana_valid,
    winning_side,
)

if TYPE_CHECKING:
    from belote.engine.state import Game

_SEQUENCE = "sequence_"


def _sequence_length(name: str) -> int:
    """The length a sequence name says ("sequence_4", "cinquante"); 0: not a sequence."""
    if name.startswith(_SEQUENCE):
        return int(name[len(_SEQUENCE):])
    return {"tierce": 3, "cinquante": 4, "cent": 5}.get(name, 0)


def equal_sequence(game: Game, seat: int) -> str | None:
    """The sequence name ``seat`` may announce as equal to an opponent's (BLUFF), or None: the
    last sequence an opponent announced this hand."""
    side = game.rules.side_of
    for other, names in reversed(game.declarations_said):
        if side(other) != side(seat):
            sequences = [n for n in names if _sequence_length(n)]
            if sequences:
                return sequences[0]
    return None


def extras(game: Game, seat: int) -> list[int]:
    """REQUEST_SHOW and REFUTE for the player in turn, where the rules and the moment allow."""
    decl_rules = game.rules.declarations
    assert decl_rules is not None
    found: list[int] = []
    if decl_rules.show_on_request and game.trick_no == 1 and showable(game, seat):
        found.append(A.REQUEST_SHOW)
    if decl_rules.bluffs_allowed and game.trick_no <= 1 and refutable(game, seat):
        found.append(A.REFUTE)
    return found


def refutable(game: Game, seat: int) -> list[int]:
    """The opponents whose announced sequence ``seat`` may still refute (public facts only)."""
    return [other for other, names in game.declarations_said
            if game.rules.side_of(other) != game.rules.side_of(seat)
            and not game._examined[other]
            and any(_sequence_length(n) for n in names)]


def _holds(game: Game, seat: int, claimed: str) -> bool:
    """Whether ``seat`` holds the sequence ``claimed`` names (hidden: the engine's view)."""
    decl_rules = game.rules.declarations
    assert decl_rules is not None
    held = game._held[seat]
    if decl_rules.name_only:
        return claimed in spoken_names_held(held)
    length = _sequence_length(claimed)
    return any(d.kind == "sequence" and d.length == length for d in held)


def as_replayed(game: Game, seat: int, action: int, words: tuple[str, ...] | None) -> int:
    """The action that says in ``game`` the ``words`` that ``action`` said where it was taken.

    A player holding a sequence equal to an opponent's may announce it (DECLARE, or its name)
    or BLUFF it: the same words, and no other seat can tell which.  A world drawn from another
    seat's view where he does not hold it replays the announcement as BLUFF; replaying the
    action taken would reject every such world and so tell the sampler whether it was real."""
    decl_rules = game.rules.declarations
    if (words is None or decl_rules is None or not decl_rules.bluffs_allowed
            or not A.is_declaration(action) or game._declared[seat] is not None):
        return action
    claimed = equal_sequence(game, seat)
    if claimed is None or claimed not in words or _holds(game, seat, claimed):
        return action
    return A.BLUFF


def bluff(game: Game, seat: int) -> list[Event]:
    """``seat`` announces what he holds and a sequence equal to the opponent's (BLUFF)."""
    decl_rules = game.rules.declarations
    claimed = equal_sequence(game, seat)
    assert decl_rules is not None and claimed is not None
    held = game._held[seat]
    length = _sequence_length(claimed)
    fake = not _holds(game, seat, claimed)
    if decl_rules.name_only:
        # One name only: the equal one.  valdostana_valid keeps what the name validates.
        names: tuple[str, ...] = (claimed,)
        declared = valdostana_valid(claimed, held, decl_rules, game.trump)
    else:
        declared = list(held)
        said = list(held)
        if fake:
            # Placed where a real one would be in the announcement (best first).
            said.append(Declaration(kind="sequence", cards=0, length=length, top=7, suit=0,
                                    points=sequence_value(length, decl_rules), name=claimed))
        ordered = sort_declarations(said, decl_rules, game.trump)
        names = tuple(d.name if decl_rules.carre_rank_said or d.kind != "carre"
                      else spoken_name(d) for d in ordered)
    game._declared[seat] = declared
    if decl_rules.name_only:
        named = named_declaration(claimed, declared, decl_rules, game.trump)
        game._announced[seat] = [] if named is None else [named]
    else:
        game._announced[seat] = declared
    game._bluffs[seat] = fake
    game.declarations_said.append((seat, names))
    return [DeclarationAnnounced(seat, names)]


def showable(game: Game, seat: int) -> list[int]:
    """The opponents whose counted declarations ``seat`` may ask to see (public: the points
    were said when the first trick ended)."""
    side = game.rules.side_of
    if not game._pending_show:
        return []
    return [other for other in range(game.rules.players)
            if side(other) != side(seat) and not game._team_shown[side(other)]
            and game._pending_show[other]]


def request_show(game: Game, seat: int) -> list[Event]:
    """The other side shows every declaration that the showing validates (REQUEST_SHOW)."""
    events: list[Event] = [ShowRequested(seat)]
    before = game.declaration_points
    for other in showable(game, seat):
        shown = game._pending_show[other]
        cards = 0
        for d in shown:
            cards |= d.cards
        events.append(DeclarationsShown(other, tuple(d.name for d in shown), cards))
        game.shown_cards[other] |= cards
        game._examined[other] = True
        # A bluffer asked to show cannot show the sequence he named: the show exposes it as a
        # refutation would, so it pays the same (else the request would shield the bluff).
        events += _penalise_bluff(game, other, game.rules.side_of(seat))
    for team in range(game.rules.sides):  # every other side has shown what it counts
        if team != game.rules.side_of(seat):
            game._team_shown[team] = True
    game._rescore_declarations()
    if game.declaration_points != before:
        # Valdostana: the lower accusi that were not announced count now.
        points = game.declaration_points
        # The side that scores the most, for any number of sides (a request with three
        # players named none when it compared only the first two).
        events.append(DeclarationsResolved(winning_side(points), points))
    return events


def refute(game: Game, seat: int) -> list[Event]:
    """Every unexamined announcement of the other side is shown; a fake one pays (REFUTE)."""
    decl_rules = game.rules.declarations
    assert decl_rules is not None
    events: list[Event] = [ShowRequested(seat, refute=True)]
    for other in refutable(game, seat):
        game._examined[other] = True
        shown = game._announced[other] or []
        cards = 0
        for d in shown:
            cards |= d.cards
        if shown:
            events.append(DeclarationsShown(other, tuple(d.name for d in shown), cards))
            game.shown_cards[other] |= cards
        events += _penalise_bluff(game, other, game.rules.side_of(seat))
    game._rescore_declarations()
    return events


def _penalise_bluff(game: Game, bluffer: int, team: int) -> list[Event]:
    """The refuting ``team`` scores the preset's penalty when ``bluffer``'s sequence was fake."""
    decl_rules = game.rules.declarations
    assert decl_rules is not None
    if not game._bluffs[bluffer]:
        return []
    game._bluffs[bluffer] = False  # paid once
    game.penalty_points[team] += decl_rules.bluff_penalty
    return [BluffRefuted(bluffer, team, decl_rules.bluff_penalty)]


__all__ = ["bluff", "equal_sequence", "extras", "refutable", "refute", "request_show",
           "showable"]

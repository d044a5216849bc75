"""Declarations (sequences and carrés): finding, comparing and scoring them.  Pure functions.

RULES.md, "Declarations (sequences and carrés)".  A sequence is a run of adjacent bits inside one
suit byte of a ``CardSet`` (ranks in the natural order 7 8 9 10 J Q K A); a carré is the same
rank in all four bytes.  :class:`DeclarationRules` holds the tables and flags; the presets
``PINASCA_DECLARATIONS``, ``ITALIAN_DECLARATIONS`` and ``VALDOSTANA_DECLARATIONS`` are data.
The engine decides *when* something is announced (first trick, in turn, late means void); this
module says what a hand holds, which declaration is best and what each team scores.

Rule -> seed sentence (seed 001: Pinasca regulation; seed 000: Italian Wikipedia, its first part
"italian" and its part "La belote valdostana"):

=====================================  ==========================================================
rule                                   source
=====================================  ==========================================================
sequence: 3+ cards, one suit           001 "Una scala è una sequenza di almeno tre carte dello
                                       stesso seme"; 000 "scale di carte dello stesso seme
                                       (nell'ordine "normale" delle carte, cioè quello di scala
                                       quaranta)"; valdostana "carte dello stesso colore e
                                       contigue in ordine crescente"
carré: four cards of one rank          001 "Un gruppo è un insieme di quattro carte dello stesso
                                       valore (Poker)"
no carré of 7s or 8s                   000 "ma non valgono quelli di 7 o di 8"; valdostana "con
                                       l'esclusione dei sette e otto"
3: 20, 4: 50, 5: 100                   001 "Scala di 3 20 punti / Scala di 4 50 punti / Scala di 5
                                       100 punti"; 000 "Terza 20 / Quarta 50 / Quinta, Sesta,
                                       Settima 100"; valdostana "Cento/Cent (5/+ carte) 100"
carré J 200, 9 150                     001 "4 fanti 200 punti / 4 nove 150 punti"; 000 "Poker J
                                       200 / Poker 9 150"
carré A K Q 100; 10 by flag            001 "4 assi, 4 re, 4 donne 100 punti" (no 10s:
                                       ``carre_of_tens`` off); 000 "Poker A, K, Q, 10 100";
                                       valdostana "Carré di A - R - Q - 10 100 punti"
pinasca: only the best team scores     001 "ottiene i punti solo la squadra che fa la
                                       dichiarazione più alta"
pinasca: carré beats sequence          001 "Un gruppo di quattro carte vale sempre più di una
                                       scala."
pinasca: carrés by rank                001 "Tra due gruppi, vale di più quello con le carte di
                                       valore superiore." (J 9 A 10 K Q, RULES.md)
pinasca: sequences by length, top,     001 "Nelle scale è decisivo il numero delle carte in esse
trump; otherwise nobody                contenute.  Se due scale sono formate dallo stesso numero
                                       di carte, vale di più la scala di valore superiore.  Se
                                       anche il valore è lo stesso, vale di più la scala del seme
                                       di briscola.  In ogni altro caso, le scale non vengono
                                       conteggiate."
italian: same length excludes          000 "Dichiarazioni di scale uguali (ad esempio due terze)
                                       sono autoescludentisi, e bisogna stabilire chi ha la più
                                       alta: si ordinano in base alla carta più alta della scala
                                       e, a parità di scala, in base al seme, tenendo conto che
                                       vince sempre il seme della briscola"
italian: carrés never exclude          000 "I poker sono invece indipendenti e non si escludono a
                                       vicenda"
valdostana: beloté +20                 "Le combinazioni di carte in scala che contengono la
                                       Belote prendono il nome di Accusi Beloté ... sommando i
                                       punti della tabella precedente ai punti Belote (20)":
                                       tiers 40, cinquante 70, cent 120
valdostana: comparison                 "esiste una gerarchia fra le varie figure, quella con le
                                       carte più alte è vincente sulle altre: però, a parità di
                                       carte, il colore di atout è sempre vincente"
valdostana: best line takes all        "si decide quale accuso è di maggior valore.  Ora, tutti
                                       gli accusi della Linea del giocatore che si è aggiudicato
                                       il contratto, anche quelli di minor valore e non
                                       dichiarati, sono validi ...: quelli avversari diventano
                                       nulli!"
valdostana: name only                  "Il giocatore che possiede più combinazioni ... dichiarerà
                                       soltanto quella di maggior peso"
valdostana: lower voids higher         "l'accuso di una combinazione di valore +basso rende nulla
                                       quella di valore +alto eventualmente posseduta"
valdostana: late is void               "un accuso non dichiarato nel proprio turno ... è NULLO"
shown only on request                  000 "Alla seconda mano può essere richiesto di mostrare
(``show_on_request``)                  queste dichiarazioni (ma non è obbligatorio se non viene
                                       richiesto)"; valdostana "su richiesta degli avversari, si
                                       mostrano le figure, anche quelle non annunciate ... così
                                       validare anche quelli non annunciati"
bluffs, refuted for 20                 000 "Mossa Leccese: ... è possibile dichiararne una fasulla
(``bluffs_allowed``,                   uguale ... la squadra avversaria potesse confutare ... e
``bluff_penalty``)                     guadagnarsi altri 20 punti" (belote.engine.showing)
=====================================  ==========================================================

Readings (our choices where the seeds are silent or ambiguous; each is a flag or documented):

* ``card_in_two`` (all presets ``True``): the seeds define sequences and carrés independently
  and the Italian text calls carrés "indipendenti"; so one card may count in a carré and a
  sequence.  ``False``: the hand's carrés and sequences are chosen disjoint, keeping the set
  with the most points (ties: the one keeping more carrés).
* Sequences are maximal runs: an 8-card run is one "sequence_8" worth the 5+ row (100), never a
  tierce plus a cent.  The italian **ottava** (``Rules.ottava``) is the engine's business; this
  module still lists it as a sequence of 8.
* pinasca: "carte di valore superiore" orders carrés by card value J 9 A 10 K Q (RULES.md).
* italian: "stabilire chi ha la più alta" (``same_length_scope="table"``): of each length only
  the single best sequence at the table counts, wherever it is; ``"team"``: the team holding it
  keeps all of its sequences of that length.  Sequences of different lengths (a quinta and a
  sesta) do not exclude each other.  Equal top card and neither in trump (or senza, or tutte
  where every suit is trump): hearts > diamonds > clubs > spades ("Come Quando Fuori Piove",
  the order the same text uses for the belote in tutte).
* valdostana comparison: "di maggior valore" / "maggior peso" first compare the figures' table
  value (points without the beloté bonus), then "le carte più alte" (the highest card in natural
  order; a carré's rank), then "il colore di atout" (a sequence in trump; a carré is never "in
  trump").  So a cent to the ace beats a cent to the king whatever their lengths.
* valdostana "Linea del giocatore che si è aggiudicato il contratto": read in context as the
  line that holds the best accuso (``declarations_to="best"``); ``"contract"`` takes the words
  literally (the taker's line).
* valdostana "valore +basso": voiding compares table values (points without beloté), so
  announcing "sequence_5" (a cent, 100) does not void a carré of aces (100).  A player who
  announced nothing has nothing valid (late means void); one who announced a combination he
  does not hold has nothing valid either.
* An exact tie between the teams' best declarations (equal under the rules' comparison):
  nobody scores (``tie_break="nobody"``, seed 001's "In ogni altro caso ... non vengono
  conteggiate"); ``"first"``: the team of the first player in declaring order holding it.
* Beloté: the bonus is counted in :attr:`Declaration.points` (``belote_bonus`` says how much).
  Whether the belote's own 20 is then scored again is the engine's decision (see
  ``belote_in_sequence_bonus``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from belote.cards import CardSet, Rank
from belote.rules.tables import TRUMP_STRENGTH
from belote.rules.validation import check_group
from belote.rules.vocabulary import (
    ALL_TRUMP,
    NO_TRUMP,
    RANK_CODES,
    SPOKEN_NAMES,
    spoken_sequence_name,
)

Policy: TypeAlias = Literal["best_team", "same_length", "best_team_all"]
DeclarationsTo: TypeAlias = Literal["best", "contract"]
TieBreak: TypeAlias = Literal["nobody", "first"]
SameLengthScope: TypeAlias = Literal["table", "team"]
Kind: TypeAlias = Literal["sequence", "carre"]
Key: TypeAlias = tuple[int, ...]

_FOUR_OF_RANK: CardSet = 0x01010101  # bit ``rank`` of each suit byte, shifted by the rank


def carre_table(jacks: int, nines: int, others: int) -> tuple[int, ...]:
    """Points of a carré per rank index 7 8 9 10 J Q K A (7s and 8s never count)."""
    return (0, 0, nines, others, jacks, others, others, others)


@dataclass(frozen=True, slots=True)
class DeclarationRules:
    """Tables and flags of declarations; the defaults declare nothing."""

    # (minimum length, points), ascending: a sequence scores the row with the greatest minimum
    # length not above its length, so ((3, 20), (4, 50), (5, 100)) gives 5, 6, 7, 8 cards 100.
    sequence_points: tuple[tuple[int, int], ...] = ()
    # Points of a carré per rank index 7 8 9 10 J Q K A; 0: that carré does not count.
    carre_points: tuple[int, ...] = (0,) * 8
    # Whether a carré of 10s counts (with the value in ``carre_points``).
    carre_of_tens: bool = False
    # Who scores: "best_team" (pinasca), "same_length" (italian), "best_team_all" (valdostana).
    policy: Policy = "best_team"
    # Equal best declarations in both teams: "nobody" scores, or the "first" in declaring order.
    tie_break: TieBreak = "nobody"
    # italian: equal sequences, neither in trump, are ranked hearts > diamonds > clubs >
    # spades (RULES.md reading); False: such sequences tie (then ``tie_break`` decides)
    suit_order_breaks_ties: bool = True
    # same_length: of each length only the best sequence counts ("table") or the team holding
    # it keeps all of its sequences of that length ("team").
    same_length_scope: SameLengthScope = "table"
    # Added to a sequence holding the K and Q of trump ("beloté"); 0: no such bonus.
    belote_in_sequence_bonus: int = 0
    # best_team_all: the accusi go to the line with the best one ("best") or to the taker's
    # line ("contract").
    declarations_to: DeclarationsTo = "best"
    # Whether one card may count both in a carré and in a sequence.
    card_in_two: bool = True
    # A player announces only the name of his best combination (no suit, no top card).
    name_only: bool = False
    # Whether announcing a carré says its rank; seed 000 (italian): "dei poker, senza
    # specificare di che natura" (the rank is seen when the carré is shown).
    carre_rank_said: bool = True
    # Announcing stays open after one's own card until the next player covers it (seed 000,
    # valdostana: "prima che la carta avversaria abbia coperto la carta giocata"); False: only
    # before one's own card.  The trick's last card is covered by nobody: its player announces
    # before it (reading).
    announce_until_covered: bool = False
    # Seed 000: "Alla seconda mano può essere richiesto di mostrare queste dichiarazioni (ma non
    # è obbligatorio se non viene richiesto)": the counted declarations are shown at the
    # second trick only when an opponent asks (REQUEST_SHOW); without a request they score as
    # announced, unseen.  Valdostana: "su richiesta degli avversari, si mostrano le figure,
    # anche quelle non annunciate ... e così validare anche quelli non annunciati": the lower
    # accusi that were not announced count only once shown.  False: shown at once.
    show_on_request: bool = False
    # Seed 000 (italian), "Mossa Leccese": "se uno dei giocatori dichiara una scala, è possibile
    # dichiararne una fasulla uguale" (BLUFF); "la squadra avversaria ... può confutare"
    # (REFUTE) "e guadagnarsi altri 20 punti" (``bluff_penalty``, to the refuters).
    bluffs_allowed: bool = False
    bluff_penalty: int = 20

    def __post_init__(self) -> None:
        # Types, and tables a hand can be scored with (belote.rules.validation).
        check_group(self, "declarations.")


# Seed 001 (Pinasca), "Annunci durante la partita".
PINASCA_DECLARATIONS = DeclarationRules(
    # "Scala di 3 20 punti / Scala di 4 50 punti / Scala di 5 100 punti" (RULES.md: 5 or more).
    sequence_points=((3, 20), (4, 50), (5, 100)),
    # "4 fanti 200 punti / 4 nove 150 punti / 4 assi, 4 re, 4 donne 100 punti".
    carre_points=carre_table(jacks=200, nines=150, others=100),
    # The seed lists no 10s (RULES.md: flag).
    carre_of_tens=False,
    # "ottiene i punti solo la squadra che fa la dichiarazione più alta".
    policy="best_team",
    # "In ogni altro caso, le scale non vengono conteggiate."
    tie_break="nobody",
    # The seed names no beloté in a sequence (RULES.md: no bonus).
    belote_in_sequence_bonus=0,
    # Reading: the seed is silent; a carré and a sequence are defined independently.
    card_in_two=True,
)

# Seed 000, Italian part: "All'inizio della mano, i giocatori possono dichiarare ...".
ITALIAN_DECLARATIONS = DeclarationRules(
    # "Terza 20 punti / Quarta 50 punti / Quinta, Sesta, Settima 100 punti".
    sequence_points=((3, 20), (4, 50), (5, 100)),
    # "Poker J 200 punti / Poker 9 150 punti"; "ma non valgono quelli di 7 o di 8".
    carre_points=carre_table(jacks=200, nines=150, others=100),
    # "Poker A, K, Q, 10 100 punti".
    carre_of_tens=True,
    # "Dichiarazioni di scale uguali (ad esempio due terze) sono autoescludentisi";
    # "I poker sono invece indipendenti e non si escludono a vicenda".
    policy="same_length",
    # Reading of "bisogna stabilire chi ha la più alta": one sequence of each length counts.
    same_length_scope="table",
    # Never reached: the suit order (reading) leaves no tie between two different sequences.
    tie_break="nobody",
    # No beloté in the Italian text.
    belote_in_sequence_bonus=0,
    # "I poker sono invece indipendenti" (reading: a card may count in both).
    card_in_two=True,
    # "o dei poker, senza specificare di che natura".
    carre_rank_said=False,
    # "Alla seconda mano può essere richiesto di mostrare queste dichiarazioni (ma non è
    # obbligatorio se non viene richiesto)".
    show_on_request=True,
    # "Mossa Leccese: ... è possibile dichiararne una fasulla uguale ... può farlo e
    # guadagnarsi altri 20 punti".
    bluffs_allowed=True,
    bluff_penalty=20,
)

# Seed 000, "La belote valdostana": "Gli Accusi (onori)", "Figure Base", "Figure Beloté".
VALDOSTANA_DECLARATIONS = DeclarationRules(
    # "Terzo/Tiers/Tierce (3 carte) 20 / Cinquanta/Cinquante (4 carte) 50 / Cento/Cent (5/+
    # carte) 100".
    sequence_points=((3, 20), (4, 50), (5, 100)),
    # "Carré di Fanti J (Vallet) 200 / Carré di 9 150 / Carré di A - R - Q - 10 100";
    # "con l'esclusione dei sette e otto".
    carre_points=carre_table(jacks=200, nines=150, others=100),
    carre_of_tens=True,  # "Carré di A - R - Q - 10 100 punti".
    # "tutti gli accusi della Linea ..., anche quelli di minor valore e non dichiarati, sono
    # validi ...: quelli avversari diventano nulli!"
    policy="best_team_all",
    # Reading: the seed names no tie beyond "a parità di carte, il colore di atout è sempre
    # vincente"; nobody scores, as in seed 001.
    tie_break="nobody",
    # "tiers beloté ... 20 + 20 40 / cinquante beloté ... 50 + 20 70 / cent beloté ... 100 + 20
    # 120".
    belote_in_sequence_bonus=20,
    # Reading of "la Linea del giocatore che si è aggiudicato il contratto" after "si decide
    # quale accuso è di maggior valore": the line of the best accuso (flag: "contract").
    declarations_to="best",
    # Reading: the seed is silent.
    card_in_two=True,
    # "Il giocatore che possiede più combinazioni ... dichiarerà soltanto quella di maggior
    # peso"; "col loro nome ma senza specificare il colore".
    name_only=True,
    # "un accuso non dichiarato nel proprio turno, ovvero prima che la carta avversaria abbia
    # coperto la carta giocata, è NULLO".
    announce_until_covered=True,
    # "Nel secondo giro, su richiesta degli avversari, si mostrano le figure, anche quelle non
    # annunciate poiché di valore inferiore".
    show_on_request=True,
)


@dataclass(frozen=True, slots=True)
class Declaration:
    """One sequence or carré held in a hand."""

    kind: Kind
    cards: CardSet
    length: int
    # Sequences: rank index of the highest card (natural order); carrés: the rank.
    top: int
    suit: int | None  # None for carrés
    points: int  # including ``belote_bonus``
    # A stable message key: "sequence_3" .. "sequence_8", "carre_9" "carre_10" "carre_J" ...
    name: str
    belote_bonus: int = 0  # the beloté part of ``points`` (valdostana), 0 elsewhere

    @property
    def base_points(self) -> int:
        """The table value of the figure, without the beloté bonus."""
        return self.points - self.belote_bonus


@dataclass(frozen=True, slots=True)
class DeclarationScore:
    """What the declarations of a hand score."""

    team_points: tuple[int, ...]  # per side: team = seat % 2 with four seats, else the seat
    counted: tuple[tuple[Declaration, ...], ...]  # per seat 0..3, best first
    # The team whose declarations won (the one that scores more; None: equal, or none at all).
    winner_team: int | None


# --- Finding -------------------------------------------------------------------------------


def _byte_runs(byte: int) -> tuple[tuple[int, int], ...]:
    runs: list[tuple[int, int]] = []
    rank = 0
    while rank < 8:
        if byte >> rank & 1:
            start = rank
            while rank < 8 and byte >> rank & 1:
                rank += 1
            runs.append((start, rank - start))
        else:
            rank += 1
    return tuple(runs)


# (lowest rank, length) of every maximal run of adjacent bits, per suit byte value.
_RUNS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_byte_runs(b) for b in range(256))


def sequence_value(length: int, rules: DeclarationRules) -> int:
    """Table points of a sequence of ``length`` cards (0: it does not score)."""
    points = 0
    for min_length, value in rules.sequence_points:
        if length >= min_length:
            points = value
    return points


def carre_value(rank: int, rules: DeclarationRules) -> int:
    """Points of a carré of ``rank`` (0: it does not count)."""
    if rank == Rank.TEN and not rules.carre_of_tens:
        return 0
    return rules.carre_points[rank]


def is_trump_suit(suit: int, trump: int) -> bool:
    """Whether ``suit`` is trump: the trump suit, or any suit in tutte (``ALL_TRUMP``)."""
    return trump == ALL_TRUMP or suit == trump


def _sequences(hand: CardSet, rules: DeclarationRules, trump: int) -> list[Declaration]:
    found: list[Declaration] = []
    for suit in range(4):
        for start, length in _RUNS[hand >> (8 * suit) & 0xFF]:
            points = sequence_value(length, rules)
            if points <= 0:
                continue
            top = start + length - 1
            # Beloté: the sequence holds the queen and king of a trump suit.
            belote = start <= Rank.QUEEN and top >= Rank.KING and is_trump_suit(suit, trump)
            bonus = rules.belote_in_sequence_bonus if belote else 0
            found.append(Declaration(
                kind="sequence",
                cards=((1 << length) - 1) << (8 * suit + start),
                length=length,
                top=top,
                suit=suit,
                points=points + bonus,
                name=f"sequence_{length}",
                belote_bonus=bonus,
            ))
    return found


def _carres(hand: CardSet, rules: DeclarationRules) -> list[Declaration]:
    found: list[Declaration] = []
    for rank in range(8):
        mask = _FOUR_OF_RANK << rank
        points = carre_value(rank, rules)
        if hand & mask == mask and points > 0:
            found.append(Declaration(
                kind="carre", cards=mask, length=4, top=rank, suit=None, points=points,
                name=f"carre_{RANK_CODES[rank]}",
            ))
    return found


def _subsets(items: list[Declaration]) -> Iterator[list[Declaration]]:
    for chosen in range(1 << len(items)):
        yield [d for i, d in enumerate(items) if chosen >> i & 1]


def find_declarations(hand: CardSet, rules: DeclarationRules, trump: int) -> list[Declaration]:
    """Every maximal sequence that scores and every carré that scores in ``hand``, best first.

    ``trump`` is a suit 0..3, ``NO_TRUMP`` or ``ALL_TRUMP``; it decides the beloté bonus (a
    sequence holding the K and Q of a trump suit) and the order.  With ``card_in_two`` off, the
    carrés kept and the sequences of the remaining cards are the disjoint choice with the most
    points (ties: more carrés).
    """
    carres = _carres(hand, rules)
    if rules.card_in_two or not carres:
        found = carres + _sequences(hand, rules, trump)
    else:
        best: tuple[int, int] | None = None
        found = []
        for kept in _subsets(carres):
            used = 0
            for carre in kept:
                used |= carre.cards
            option = kept + _sequences(hand & ~used, rules, trump)
            score = (sum(d.points for d in option), len(kept))
            if best is None or score > best:
                best, found = score, option
    return sort_declarations(found, rules, trump)


# --- Comparing -----------------------------------------------------------------------------


def pinasca_key(decl: Declaration, trump: int) -> Key:
    """Seed 001: carré over sequence; carrés by rank J 9 A 10 K Q; sequences by length, top
    card, trump suit.  Equal keys are the seed's "ogni altro caso": a tie."""
    if decl.kind == "carre":
        return (1, TRUMP_STRENGTH[decl.top], 0, 0)
    assert decl.suit is not None
    return (0, decl.length, decl.top, int(is_trump_suit(decl.suit, trump)))


def italian_key(decl: Declaration, trump: int) -> Key:
    """Seed 000 (italian): sequences of one length by top card, then trump suit, then the suit
    order hearts > diamonds > clubs > spades (reading).  Points and kind come first only to
    give a "best first" order; only same-length sequences ever exclude each other."""
    if decl.kind == "carre":
        return (decl.base_points, 1, TRUMP_STRENGTH[decl.top], 0, 0, 0)
    assert decl.suit is not None
    trumps = int(is_trump_suit(decl.suit, trump))
    return (decl.base_points, 0, decl.length, decl.top, trumps, 3 - decl.suit)


def valdostana_key(decl: Declaration, trump: int) -> Key:
    """Seed 000 (valdostana): the figure's value, then "le carte più alte" (top card in natural
    order), then "il colore di atout" (reading: a carré is never in trump)."""
    trumps = 0 if decl.suit is None else int(is_trump_suit(decl.suit, trump))
    return (decl.base_points, decl.top, trumps)


POLICY_KEYS: dict[str, Callable[[Declaration, int], Key]] = {
    "best_team": pinasca_key,
    "same_length": italian_key,
    "best_team_all": valdostana_key,
}


def comparison_key(decl: Declaration, rules: DeclarationRules, trump: int) -> Key:
    """The rules' own comparison: higher is better, equal keys are a tie under the rules."""
    key = POLICY_KEYS[rules.policy](decl, trump)
    if rules.policy == "same_length" and not rules.suit_order_breaks_ties:
        return (*key[:-1], 0)  # the suit order's place in the key
    return key


def sort_key(decl: Declaration, rules: DeclarationRules, trump: int) -> Key:
    """:func:`comparison_key`, then a fixed tail (carré first, suit order) for a stable order."""
    suit_rank = 4 if decl.suit is None else 3 - decl.suit
    return (*comparison_key(decl, rules, trump), suit_rank, decl.points)


def sort_declarations(
    decls: Sequence[Declaration], rules: DeclarationRules, trump: int
) -> list[Declaration]:
    """Best first."""
    return sorted(decls, key=lambda d: sort_key(d, rules, trump), reverse=True)


def best_declaration(
    decls: Sequence[Declaration], rules: DeclarationRules, trump: int
) -> Declaration | None:
    """The best of ``decls`` by the rules' comparison (None when empty)."""
    if not decls:
        return None
    return max(decls, key=lambda d: sort_key(d, rules, trump))


# --- Scoring -------------------------------------------------------------------------------


def _best_holder(
    candidates: Sequence[tuple[int, Declaration]],
    rules: DeclarationRules,
    trump: int,
    first_to_declare: int,
    seats: int = 4,
) -> int | None:
    """The seat whose declaration wins among (seat, declaration) pairs; None on a team tie."""
    if not candidates:
        return None
    best = max(comparison_key(d, rules, trump) for _, d in candidates)
    # Seats holding an equal best, in declaring order from ``first_to_declare``.
    holders = sorted(
        {seat for seat, d in candidates if comparison_key(d, rules, trump) == best},
        key=lambda seat: (seat - first_to_declare) % seats,
    )
    if len({_team(seat, seats) for seat in holders}) > 1 and rules.tie_break == "nobody":
        return None
    return holders[0]


def _pairs(declared: Sequence[Sequence[Declaration]]) -> list[tuple[int, Declaration]]:
    return [(seat, d) for seat, decls in enumerate(declared) for d in decls]


def _team(seat: int, seats: int) -> int:
    """Partners face each other with four seats (seat % 2); with 2 or 3 each is his own side
    (the one place of this module that knows it; Rules.side_of says the same)."""
    return seat % 2 if seats == 4 else seat


def _check_seats(name: str, table: Sequence[Sequence[Declaration]] | None) -> None:
    if table is not None and len(table) not in (2, 3, 4):
        raise ValueError(f"{name} needs one entry per seat (2, 3 or 4), got {len(table)}")


def score_declarations(
    declared: Sequence[Sequence[Declaration]],
    rules: DeclarationRules,
    trump: int,
    first_to_declare: int = 0,
    *,
    held: Sequence[Sequence[Declaration]] | None = None,
    taker_team: int | None = None,
) -> DeclarationScore:
    """What each team scores for its declarations.

    ``declared[seat]``: what seat 0..3 announced (valid announcements only: the engine drops
    late ones); teams are ``seat % 2``.  ``first_to_declare``: the seat that declares first
    (for ``tie_break="first"``).  ``held[seat]`` (best_team_all only): every combination of
    the seat that is valid to count, announced or not (see :func:`valdostana_valid`); without
    it only what was declared counts.  ``taker_team``: needed by ``declarations_to="contract"``.
    """
    _check_seats("declared", declared)
    _check_seats("held", held)
    seats = len(declared)
    if held is not None and len(held) != seats:
        raise ValueError(f"held needs one entry per seat ({seats}), got {len(held)}")
    counted: list[list[Declaration]] = [[] for _ in range(seats)]
    if rules.policy == "same_length":
        counted = _same_length(declared, rules, trump, first_to_declare)
    else:
        if rules.policy == "best_team_all" and rules.declarations_to == "contract":
            if taker_team is None:
                raise ValueError('declarations_to="contract" needs taker_team')
            team: int | None = taker_team
        else:
            seat = _best_holder(_pairs(declared), rules, trump, first_to_declare, seats)
            team = None if seat is None else _team(seat, seats)
        for seat in range(seats):
            if _team(seat, seats) != team:
                continue
            own = list(declared[seat])
            if rules.policy == "best_team_all" and held is not None:
                own += [d for d in held[seat] if d not in own]
            counted[seat] = own
    ordered = tuple(tuple(sort_declarations(c, rules, trump)) for c in counted)
    sides = 2 if seats == 4 else seats
    points = tuple(
        sum(d.points for seat in range(seats) if _team(seat, seats) == side
            for d in ordered[seat])
        for side in range(sides)
    )
    return DeclarationScore(team_points=points, counted=ordered,
                            winner_team=winning_side(points))


def _same_length(
    declared: Sequence[Sequence[Declaration]],
    rules: DeclarationRules,
    trump: int,
    first_to_declare: int,
) -> list[list[Declaration]]:
    """Italian: carrés always count; of the sequences of one length, only the best."""
    counted: list[list[Declaration]] = [
        [d for d in decls if d.kind == "carre"] for decls in declared
    ]
    sequences = [(seat, d) for seat, d in _pairs(declared) if d.kind == "sequence"]
    for length in sorted({d.length for _, d in sequences}):
        same = [(seat, d) for seat, d in sequences if d.length == length]
        winner = _best_holder(same, rules, trump, first_to_declare, len(declared))
        if winner is None:
            continue
        if rules.same_length_scope == "team":
            keep = [(seat, d) for seat, d in same
                    if _team(seat, len(declared)) == _team(winner, len(declared))]
        else:
            best = best_declaration([d for seat, d in same if seat == winner], rules, trump)
            assert best is not None
            keep = [(winner, best)]
        for seat, d in keep:
            counted[seat].append(d)
    return counted


def spoken_name(decl: Declaration) -> str:
    """The name said at the table: "tierce", "cinquante", "cent" (5 or more) or "carre"."""
    if decl.kind == "carre":
        return "carre"
    return spoken_sequence_name(decl.length)


# The length each spoken sequence name stands for (a "cent" is five or more).
SPOKEN_LENGTHS: dict[str, int] = {"tierce": 3, "cinquante": 4, "cent": 5}


def spoken_names_held(held: Sequence[Declaration],
                      rules: DeclarationRules | None = None) -> set[str]:
    """Every name a valdostana player may announce: each combination's own, and the shorter
    sequences inside a longer one (a tierce inside a cinquante: seed 000, "Warning 2").
    With ``rules``, a carré is named as the table hears it (:func:`said_name`: with its
    rank where ``carre_rank_said``); without, as the action that announces it."""
    names: set[str] = set()
    for d in held:
        name = spoken_name(d)
        names.add(name if rules is None else said_name(name, d, rules))
        if d.kind == "sequence":
            names.update(n for n, length in SPOKEN_LENGTHS.items() if length <= d.length)
    return names


def _inner_sequence(
    outer: Declaration, length: int, rules: DeclarationRules, trump: int
) -> Declaration:
    """The ``length`` highest cards of the sequence ``outer`` as a sequence of their own
    (reading: a player announcing a shorter sequence keeps its best cards)."""
    assert outer.suit is not None
    start = outer.top - length + 1
    found = _sequences(((1 << length) - 1) << (8 * outer.suit + start), rules, trump)
    return found[0]


def named_declaration(
    name: str, valid: Sequence[Declaration], rules: DeclarationRules, trump: int
) -> Declaration | None:
    """The combination a name-only announcement of ``name`` stands for: the best of the
    player's ``valid`` ones (:func:`valdostana_valid`) that the name names, or None.

    Only announced accusi decide which line scores (seed 000: "si decide quale accuso è di
    maggior valore" after "Gli accusi devono essere annunciati"); the lower, unannounced
    ones in ``valid`` count for the line that wins, never toward winning."""
    named = [d for d in valid if name in (d.name, spoken_name(d))]
    return best_declaration(named, rules, trump)


def said_name(name: str, said: Declaration | None, rules: DeclarationRules) -> str:
    """The words of a name-only announcement of ``name`` standing for ``said``: the name, and
    a carré's rank where ``carre_rank_said`` (seed 000 names each carré by its rank, "Carré di
    Fanti J (Vallet)", "Carré di 9"; only the suit, "il colore", is not said)."""
    if said is not None and said.kind == "carre" and rules.carre_rank_said:
        return said.name
    return name


def winning_side(points: Sequence[int]) -> int | None:
    """The side whose declarations score the most, None when the most is shared (for any
    number of sides: the one definition :class:`DeclarationScore` and the engine use)."""
    top = max(points)
    return points.index(top) if top and list(points).count(top) == 1 else None


def valdostana_valid(
    announced_name: str | None,
    held: Sequence[Declaration],
    rules: DeclarationRules | None = None,
    trump: int = -1,
) -> list[Declaration]:
    """What stays valid for a valdostana player who announced ``announced_name``.

    ``announced_name`` is a :attr:`Declaration.name` ("sequence_4", "carre_J") or a spoken name
    (:data:`SPOKEN_NAMES`: "cinquante", "carre").

    "l'accuso di una combinazione di valore +basso rende nulla quella di valore +alto
    eventualmente posseduta": every held combination whose table value (points without
    beloté) exceeds the announced one's is void; the announced one and the lower or equal ones
    stay valid ("anche quelli di minor valore e non dichiarati").  Nothing announced (late is
    void) or a name the player does not hold: nothing is valid.
    """
    if announced_name is None:
        return []
    announced = [d for d in held if announced_name in (d.name, spoken_name(d))]
    length = SPOKEN_LENGTHS.get(announced_name, 0)
    if not announced and rules is not None and length:
        # A tierce said while holding only a cinquante: the tierce inside it is what counts,
        # the cinquante is void ("rende nulla quella di valore +alto").
        longer = [d for d in held if d.kind == "sequence" and d.length > length]
        if longer:
            inner = _inner_sequence(max(longer, key=lambda d: d.top), length, rules, trump)
            ceiling = inner.base_points
            return [inner, *(d for d in held if d.base_points <= ceiling)]
    if not announced:
        return []
    ceiling = max(d.base_points for d in announced)
    return [d for d in held if d.base_points <= ceiling]


__all__ = [
    "ALL_TRUMP",
    "ITALIAN_DECLARATIONS",
    "NO_TRUMP",
    "PINASCA_DECLARATIONS",
    "POLICY_KEYS",
    "RANK_CODES",
    "SPOKEN_NAMES",
    "VALDOSTANA_DECLARATIONS",
    "Declaration",
    "DeclarationRules",
    "DeclarationScore",
    "best_declaration",
    "carre_table",
    "carre_value",
    "comparison_key",
    "find_declarations",
    "is_trump_suit",
    "italian_key",
    "named_declaration",
    "pinasca_key",
    "said_name",
    "score_declarations",
    "sequence_value",
    "sort_declarations",
    "sort_key",
    "spoken_name",
    "spoken_names_held",
    "valdostana_key",
    "valdostana_valid",
    "winning_side",
]

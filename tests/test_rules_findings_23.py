"""Rules findings from held-out cases (issue 23, item 7), each with the seed line it rests on.

Seeds: ``../shared/seeds/000_833cd73e49b1ede7.txt`` (seed 000: italian and "La belote
valdostana"), ``002_9209400fd67cdbeb.txt`` (seed 002: the Sala's classic rules); the contract
is RULES.md, the fewer-seat readings docs/rules-2-3-players.md.  Seats are numbered in playing
order.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from helpers import cards, game_in_play, of_kind, play_cards

from belote.ai.belote_order import king_before_queen
from belote.ai.easy import EasyBot
from belote.ai.expert import ExpertBot
from belote.ai.heuristic import HeuristicBot
from belote.cards import Card, Suit
from belote.engine import actions as A
from belote.engine.events import DeclarationAnnounced, DeclarationsResolved, Event
from belote.engine.scoring import HandFacts, score_hand
from belote.engine.signals import first_discards, read_signals
from belote.engine.state import Game, Phase
from belote.i18n import LANGUAGES, describe_event, translate
from belote.i18n.sheet import rule_sheet
from belote.notation import parse_card
from belote.rules import PRESETS, Rules, find_preset
from belote.rules.declarations import (
    VALDOSTANA_DECLARATIONS,
    find_declarations,
    named_declaration,
    valdostana_valid,
    winning_side,
)

HEARTS, DIAMONDS, CLUBS, SPADES = (int(s) for s in Suit)
V2 = find_preset("valdostana2")
V3 = find_preset("valdostana3")
CENT, CARRE = A.DECLARE_NAME_BASE + 2, A.DECLARE_NAME_BASE + 3
CINQUANTE = A.DECLARE_NAME_BASE + 1


def _deck(rules: Rules, hands: Mapping[int, str], dealer: int) -> list[Card]:
    """A deck that ``rules``' packets, dealt by ``dealer``, turn into exactly ``hands`` (every
    seat given); the cards left over are the monte."""
    held = {seat: cards(text) for seat, text in hands.items()}
    assert all(len(h) == rules.hand_size for h in held.values())
    order = [(dealer + 1 + i) % rules.players for i in range(rules.players)]
    deck: list[Card] = []
    position = dict.fromkeys(order, 0)
    for packet in rules.deal_packets:
        for seat in order:
            deck += held[seat][position[seat]:position[seat] + packet]
            position[seat] += packet
    deck += [card for card in range(32) if card not in deck]
    return deck


def _auction_game(rules: Rules, hands: Mapping[int, str], dealer: int) -> Game:
    game = Game(rules, first_dealer=dealer)
    game.deal(_deck(rules, hands, dealer))
    if game.phase == Phase.CUT:
        game.apply(A.KNOCK)  # trust the dealer: the deck is dealt as built
    for seat, text in hands.items():
        assert game.hands[seat] == sum(1 << c for c in cards(text)), seat
    return game


def _contract(rules: Rules, level: int, suit: int) -> int:
    assert rules.auction is not None
    return A.contract_bid(rules.auction.levels.index(level), suit)


def _low_card(game: Game) -> int:
    return min(a for a in game.legal_actions() if a < A.PLAY_ANNOUNCE_BASE)


# --- 1. only announced accusi decide who scores them ------------------------------------------

# valdostana2, dealt by seat 1: seat 0 holds a cent to the queen of spades and a carré of aces;
# seat 1 a carré of kings (and a cent to the king of clubs).
TWO = {
    0: "8S 9S 10S JS QS AS AH AD AC 7H 9H JH 7D 9D JD 7C",
    1: "7S KS 8H 10H QH KH 8D 10D QD KD 8C 9C 10C JC QC KC",
}


def _v2_first_trick(rules: Rules = V2) -> tuple[Game, list[Event]]:
    """Seat 0 takes 82 in hearts and announces "cent" (not "carré"); seat 1 "carré"."""
    game = _auction_game(rules, TWO, dealer=1)
    game.apply(_contract(rules, 82, HEARTS))
    game.apply(A.PASS)
    events = game.apply(CENT)
    events += game.apply(_low_card(game))
    events += game.apply(CARRE)
    events += game.apply(_low_card(game))
    assert game.trick_no == 1
    return game, events


def test_an_unannounced_accuso_does_not_decide_who_scores_the_accusi() -> None:
    # Seed 000: "Gli accusi devono essere annunciati, col loro nome ... nel proprio turno e
    # prima di posare la carta" and "Al termine del primo giro, si decide quale accuso è di
    # maggior valore": the announced ones are compared.  Seat 0 said "cent" (100, top queen);
    # his carré of aces (100, top ace, equal value: still valid, "Warning 2") was not announced
    # and decided the accusi for him (the finding: valdostana2, 5 in 9,000 hands).
    game, events = _v2_first_trick()
    resolved = of_kind(events, DeclarationsResolved)
    assert [e.team for e in resolved] == [1]
    assert game.declaration_points == (0, 100)  # unshown: as announced, the carré of kings


def test_the_comparison_takes_the_best_combination_the_name_names() -> None:
    held = find_declarations(sum(1 << c for c in cards(TWO[0])), VALDOSTANA_DECLARATIONS,
                             HEARTS)
    valid = valdostana_valid("cent", held, VALDOSTANA_DECLARATIONS, HEARTS)
    assert {d.name for d in valid} == {"sequence_5", "carre_A"}  # equal value: both valid
    said = named_declaration("cent", valid, VALDOSTANA_DECLARATIONS, HEARTS)
    assert said is not None and said.name == "sequence_5"
    assert named_declaration("carre", valid, VALDOSTANA_DECLARATIONS, HEARTS) == next(
        d for d in valid if d.name == "carre_A")
    assert named_declaration("tierce", [], VALDOSTANA_DECLARATIONS, HEARTS) is None


# --- 2. valdostana3: a multiplied failed contract ---------------------------------------------


def _three(points: tuple[int, int, int], tricks: tuple[int, int, int], multiplier: int,
           last_caller: int | None) -> tuple[int, ...]:
    facts = HandFacts(taker_team=0, trump=HEARTS, card_points=points, tricks_won=tricks,
                      belote=(0, 0, 0), declarations=(0, 0, 0), level=102, tricks=10,
                      multiplier=multiplier, last_caller_team=last_caller)
    result = score_hand(V3, facts)
    assert result.outcome == "failed"
    return result.scores


def test_a_defender_without_tricks_gets_nothing_of_the_others_capot_on_a_doubled_contract(
) -> None:
    # Seed 000: "alla Linea Difendente vanno attribuiti i Punti Mano (max 162) ... Se il
    # contratto è stato Contrato o Surcontrato si applicano ai Punti i relativi Coefficienti
    # moltiplicativi (2 e 4) e la Linea Vincente si aggiudica il bottino"; docs/rules-2-3-
    # players.md: each defender keeps his own points, only the taker's are shared.  The
    # defender who took every trick keeps the line's 162 x 2; the other took nothing (it gave
    # him 36, and 198 of a surcontro).
    assert _three((0, 162, 0), (0, 10, 0), 1, None) == (0, 162, 0)
    assert _three((0, 162, 0), (0, 10, 0), 2, 1) == (0, 324, 0)
    assert _three((0, 162, 0), (0, 10, 0), 4, 0) == (0, 648, 0)


def test_a_doubled_failed_contract_of_three_multiplies_each_defenders_own_points() -> None:
    # The taker's 50 are the only points shared: x2, 50 each; the defenders' own 80 and 32 x2.
    assert _three((50, 80, 32), (3, 4, 3), 1, None) == (0, 105, 57)
    assert _three((50, 80, 32), (3, 4, 3), 2, 1) == (0, 210, 114)


# --- 3. the side named after a show request, with three players --------------------------------

# valdostana3 dealt by seat 1: seat 2 speaks and leads first, with a cinquante (7-10 of
# spades) and a lower tierce (7-9 of diamonds).
THREE = {
    2: "7S 8S 9S 10S 7D 8D 9D AH 7H 8H",
    0: "JS QS KS 10D JD QD 9H 10H JH QH",
    1: "AS KD AD 7C 8C 9C 10C JC KH QC",
}


def test_a_show_request_with_three_players_names_the_side_that_scores() -> None:
    # Seed 000: "Nel secondo giro, su richiesta degli avversari, si mostrano le figure, anche
    # quelle non annunciate ... così validare anche quelli non annunciati": seat 2's lower
    # tierce counts once shown, and the resolved event names seat 2's side (it named none:
    # it compared only the first two sides).
    game = _auction_game(V3, THREE, dealer=1)
    game.apply(_contract(V3, 82, HEARTS))
    game.apply(A.PASS)
    game.apply(A.PASS)
    game.apply(CINQUANTE)
    while game.trick_no == 0:
        game.apply(_low_card(game))
    assert game.declaration_points == (0, 0, 50)
    events: list[Event] = []
    while A.REQUEST_SHOW not in game.legal_actions():
        game.apply(_low_card(game))
    events += game.apply(A.REQUEST_SHOW)
    assert game.declaration_points == (0, 0, 70)
    assert [e.team for e in of_kind(events, DeclarationsResolved)] == [2]


def test_the_winning_side_is_the_single_highest_for_any_number_of_sides() -> None:
    assert winning_side((0, 0, 70)) == 2
    assert winning_side((20, 0)) == 0
    assert winning_side((50, 0, 50)) is None
    assert winning_side((0, 0, 0)) is None


# --- 4. discard signals with fewer seats -------------------------------------------------------


def test_first_discards_go_round_the_rules_seats() -> None:
    # Three players: after seat 2 leads, seats 0 and 1 play (it read seats 3 and 0).
    trick = (2, tuple(cards("AH 7S 8C")))
    found = first_discards([trick], DIAMONDS, players=3)
    assert found == {0: (parse_card("7S"), HEARTS), 1: (parse_card("8C"), HEARTS)}
    assert set(first_discards([trick], DIAMONDS)) == {3, 0}  # four seats: the default


def test_nobody_has_a_partner_to_signal_to_with_fewer_seats() -> None:
    # Seed 000 "Gradimento": the discard transfers information "al compagno"; docs/rules-2-3-
    # players.md: with 3 or 2 players nobody has a partner.
    assert PRESETS["valdostana"].partner_of(1) == 3
    assert V3.partner_of(1) is None and V2.partner_of(0) is None
    rules = V3.with_flags(discard_signals="no_gradimento")
    game = _auction_game(rules, THREE, dealer=1)
    game.apply(_contract(rules, 82, HEARTS))
    game.apply(A.PASS)
    game.apply(A.PASS)
    play_cards(game, "AH")  # seat 2 announces nothing
    for seat in (0, 1):  # each follows hearts: no discard, but nothing is read at all
        game.apply(_low_card(game), seat)
    assert read_signals(game.observation(2)) == {}


# --- 5. a carré is announced with its rank ----------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_carre_is_announced_with_its_rank_where_the_rules_say_so(lang: str) -> None:
    # Seed 000: "Quattro/Carré di Fanti J (Vallet) 200 punti / Quattro/Carré di 9 150 punti":
    # a carré's name is its rank; "senza specificare il colore" leaves out only the suit.  The
    # sheet says "A carré is announced with its rank" (declarations.carre_rank_said).
    _, events = _v2_first_trick()
    said = {e.seat: e.names for e in of_kind(events, DeclarationAnnounced)}
    assert said == {0: ("cent",), 1: ("carre_K",)}
    event = next(e for e in of_kind(events, DeclarationAnnounced) if e.seat == 1)
    assert translate(lang, "declaration.carre_K") in describe_event(event, lang, None,
                                                                    rules=V2)


def test_without_the_rank_said_a_carre_is_announced_by_its_name_only() -> None:
    rules = V2.with_flags(**{"declarations.carre_rank_said": False})
    _, events = _v2_first_trick(rules)
    assert [e.names for e in of_kind(events, DeclarationAnnounced)] == [("cent",), ("carre",)]


# --- 6 and 7. the rule sheets --------------------------------------------------------------------

FOUR_SEAT_SENTENCES = (
    "sheet.common", "sheet.bidding.auction", "sheet.partner_master_frees.true",
    "sheet.auction.support_calls.true", "sheet.declarations.declarations_to.best",
    "sheet.made_adds_contract.false", "sheet.capot_bonus", "sheet.target_strict.false",
)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("preset", ["valdostana3", "valdostana2"])
def test_the_fewer_seat_sheets_describe_fewer_seats(preset: str, lang: str) -> None:
    # Seed 000: "è possibile giocare anche con numero ridotto a tre o addirittura a due
    # (ovviamente alcune regole distribuzionali e di gioco subiranno delle variazioni)":
    # no four players, no partners, no "three passes" (docs/rules-2-3-players.md).
    rules = PRESETS[preset]
    sheet = rule_sheet(rules, lang)
    values = {"value": 20, "last": 100, "total": 252, "target": rules.target_score}
    for key in FOUR_SEAT_SENTENCES:
        assert translate(lang, key, **values) not in sheet, key
    assert translate(lang, "sheet.common.fewer_seats") in sheet
    assert translate(lang, "sheet.bidding.auction.fewer_seats") in sheet
    assert translate(lang, "sheet.partner_master_frees.true.fewer_seats") in sheet
    assert translate(lang, f"sheet.taker_must_beat_defenders.true.seats{rules.players}") in sheet


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_four_seat_sheet_is_unchanged(lang: str) -> None:
    sheet = rule_sheet(PRESETS["valdostana"], lang)
    assert translate(lang, "sheet.common") in sheet
    assert translate(lang, "sheet.bidding.auction") in sheet
    assert translate(lang, "sheet.cut_min_cards", value=3) in sheet  # valdostana cuts


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("preset", ["classic", "italian", "coinche", "pinasca"])
def test_a_sheet_without_a_cut_does_not_describe_one(preset: str, lang: str) -> None:
    # RULES.md: only valdostana cuts (seed 000: "pone al giocatore alla sua sinistra il taglio
    # del mazzo"); the others said "the deck is not cut" and "a cut leaves 3 cards".
    rules = PRESETS[preset]
    assert not rules.cut_deck
    sheet = rule_sheet(rules, lang)
    assert translate(lang, "sheet.cut_deck.false") in sheet
    assert translate(lang, "sheet.cut_min_cards", value=rules.cut_min_cards) not in sheet
    assert translate(lang, "sheet.cut_min_cards.no_cut") in sheet


# --- 8. the king of trump before the queen under king-first rules --------------------------------

CLASSIC = PRESETS["classic"]
# Classic dealt by seat 3: seat 0 takes hearts (the turned 7) and leads the 7; seat 1 holds
# the king and queen of trump and must follow with one of them.
BELOTE = {
    0: "7H 8H JH 9H AS AD AC 10S",
    1: "KH QH 7S 8S 9S 7D 8D 9D",
}


def _belote_position(rules: Rules = CLASSIC) -> Game:
    game, _ = game_in_play(BELOTE, "7H", taker=0, dealer=3, rules=rules)
    play_cards(game, "7H")
    assert game.current_player() == 1
    return game


KH, QH = parse_card("KH"), parse_card("QH")


@pytest.mark.parametrize("make", [lambda s: HeuristicBot(s), lambda s: EasyBot(s)],
                         ids=["normal", "easy"])
def test_the_bots_play_the_king_of_trump_before_the_queen(make: object) -> None:
    # Seed 002: "debe anunciar «belote» cuando juega el rey y «rebelote» cuando juega la dama
    # ... El rey y la dama deben jugarse en este orden ... jugar la dama y luego el rey no es
    # válido" (belote_king_first).  The normal bot followed with its cheapest winner, the
    # queen, and lost its belote.
    assert CLASSIC.belote_king_first
    for seed in range(20):
        game = _belote_position()
        bot = make(seed)  # type: ignore[operator]
        action = bot.choose(game.observation(1))
        assert action == A.play_announcing(KH), (seed, action)
        events = game.apply(action)
        assert any(getattr(e, "word", None) == "belote" for e in events)


def test_the_expert_plays_the_king_of_trump_before_the_queen() -> None:
    game = _belote_position()
    bot = ExpertBot(seed=3, budget_ms=20.0)
    assert bot.choose(game.observation(1)) == A.play_announcing(KH)


def test_without_king_first_the_order_is_free() -> None:
    rules = CLASSIC.with_flags(belote_king_first=False)
    game = _belote_position(rules)
    obs = game.observation(1)
    assert king_before_queen(obs, QH, [KH, QH]) == QH
    assert king_before_queen(_belote_position().observation(1), QH, [KH, QH]) == KH

"""Every refused bid says why and what is allowed now, in the player's language (issue 25,
item 2): "the lowest bid now is 122"; "alzo 10 only answers your partner's contract".

The reason has one home, the engine (each bidding system's ``refusal``, beside the conditions
of its ``legal_bids``; :meth:`Game.refusal_of`, :meth:`Game.contract_refusal`); the typed text
(:mod:`belote.i18n.bids`) and the chosen action (:func:`belote.i18n.refusals.explain`) say the
same sentence.  Positions are real ones of the presets, dealt by seat 3 so that seat 0 speaks
first (valdostana's cutter knocks).  Sources: seed 000 (valdostana's auction: "il minimo è di
82, il massimo è di 802"; "ANCORA", "ALZO", "DO 10 ... ALZO 20" "nel colore del compagno"; the
suit-only opening), RULES.md "auction" (coinche: 80 to 160 by 10, then capot; contro,
surcontro), seed 002 (classic: round 1 takes the turned card, round 2 names another suit),
seed 000 part 1 (italian: senza, tutte, "quest'ultimo può imporre la propria scelta").
"""

from __future__ import annotations

import io
import random

import pytest
from helpers import deck_for, game_in_play

from belote.cards import Suit
from belote.cli.play import TerminalPlayer
from belote.engine import actions as A
from belote.engine.obligations import LevelTable, Refusal, RefusalReason
from belote.engine.refusals import refusal_message
from belote.engine.state import Game, Phase
from belote.errors import IllegalActionError
from belote.i18n import LANGUAGES, seat_name
from belote.i18n.bids import (
    BidNotAllowed,
    BidNotUnderstood,
    bid_examples,
    no_bid_now,
    parse_bid,
    refused_bid_text,
)
from belote.i18n.refusals import explain, refusal_sentence
from belote.rules import PRESETS, Rules, find_preset

H, D, C, S = Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES
R = RefusalReason
VALDOSTANA = find_preset("valdostana")
COINCHE = find_preset("coinche")
CLASSIC = find_preset("classic")
ITALIAN = find_preset("italian")
VALDOSTANA_LEVELS = LevelTable(82, 802, 10, 0, ())


def dealt(rules: Rules, dealer: int = 3, deck: list[int] | None = None) -> Game:
    """A game of ``rules`` in its bidding, dealt by ``dealer`` (the cutter knocks)."""
    game = Game(rules, first_dealer=dealer)
    game.deal(deck if deck is not None else list(range(32)))
    if game.phase == Phase.CUT:
        game.apply(A.KNOCK)
    assert game.phase == Phase.BIDDING
    return game


def contract(rules: Rules, level: int, suit: int) -> int:
    assert rules.auction is not None
    return A.contract_bid(rules.auction.levels.index(level), suit)


def calls(game: Game, *actions: int) -> Game:
    for action in actions:
        game.apply(action)
    return game


def typed(game: Game, text: str, lang: str) -> str:
    """What the player to speak hears after typing ``text``, which must be refused."""
    seat = game.current_player()
    with pytest.raises(BidNotAllowed) as refused:
        parse_bid(text, game.legal_actions(seat), game.rules)
    return refused_bid_text(game, seat, refused.value, lang)


def reason(game: Game, action: int) -> Refusal | None:
    return game.refusal_of(action, game.current_player())


# ----------------------------------------------------------------------------- the auction
def test_a_level_the_table_lacks_says_the_range_and_the_lowest_bid_now() -> None:
    # Seed 000: "il minimo è di 82, il massimo è di 802"; 50 and 900 are no contract.
    game = dealt(VALDOSTANA)
    assert typed(game, "50 cuori", "en") == (
        "There is no contract at 50. Contracts go from 82 to 802, in steps of 10. "
        "The lowest bid now is 82.")
    calls(game, contract(VALDOSTANA, 112, H))
    assert game.contract_refusal(900, H, game.current_player()) == Refusal(
        R.LEVEL_NOT_IN_TABLE, level=900, lowest=122, table=VALDOSTANA_LEVELS)
    assert typed(game, "900 cuori", "it") == (
        "Non esiste un contratto da 900. I contratti vanno da 82 a 802, di 10 in 10. "
        "Ora la chiamata più bassa è 122.")
    assert typed(game, "85 à cœur", "fr") == (
        "Il n'y a pas de contrat à 85. Les contrats vont de 82 à 802, de 10 en 10. "
        "L'enchère la plus basse est maintenant 122.")


def test_a_contract_not_above_the_standing_one_names_the_lowest_bid_now() -> None:
    game = calls(dealt(VALDOSTANA), contract(VALDOSTANA, 112, H))
    assert reason(game, contract(VALDOSTANA, 82, H)) == Refusal(
        R.CONTRACT_TOO_LOW, level=82, lowest=122, table=VALDOSTANA_LEVELS)
    assert typed(game, "82 cuori", "en") == "82 is too low: the lowest bid now is 122."
    assert typed(game, "112 picche", "es") == (
        "112 es demasiado bajo: ahora la puja más baja es 122.")
    # Chosen rather than typed: the same reason, and the engine's English says it too.
    assert explain(game, contract(VALDOSTANA, 82, H), 1, "it") == (
        "82 è troppo basso: ora la chiamata più bassa è 122.")
    with pytest.raises(IllegalActionError, match="the lowest bid now is 122") as refused:
        game.apply(contract(VALDOSTANA, 82, H))
    assert refused.value.reason is R.CONTRACT_TOO_LOW


def test_no_contract_above_the_top() -> None:
    game = calls(dealt(VALDOSTANA), contract(VALDOSTANA, 802, H))
    assert reason(game, contract(VALDOSTANA, 802, S)) == Refusal(
        R.NO_HIGHER_CONTRACT, level=802, table=VALDOSTANA_LEVELS)
    assert typed(game, "802 picche", "en") == (
        "The contract standing is the highest: no higher bid is possible.")
    assert typed(game, "900 picche", "en").endswith("No contract can be bid now.")


def test_support_calls_only_answer_the_partners_contract() -> None:
    # "Risposte di Appoggio nel colore del compagno": no partner's contract, no answer.
    game = dealt(VALDOSTANA)
    assert reason(game, A.ALZO_10) == Refusal(R.SUPPORT_ONLY_PARTNER)
    assert typed(game, "alzo 10", "en") == "You can say alzo 10 only on your partner's contract."
    assert typed(game, "alzo 10", "it") == "Puoi dire alzo 10 solo sul contratto del tuo compagno."
    calls(game, contract(VALDOSTANA, 92, H))  # seat 0's contract: seat 1 is an opponent
    assert reason(game, A.ANCORA) == Refusal(R.SUPPORT_ONLY_PARTNER)
    assert typed(game, "ancora", "fr") == (
        "Vous ne pouvez dire ancora que sur le contrat de votre partenaire.")
    with pytest.raises(IllegalActionError, match="only on your partner's contract"):
        game.apply(A.DO_20)


def test_a_raise_past_the_top_names_the_level_it_would_reach() -> None:
    game = calls(dealt(VALDOSTANA), contract(VALDOSTANA, 792, H), A.PASS)
    assert A.ALZO_10 in game.legal_actions()  # 802 is the top: 812 is no contract
    assert reason(game, A.ALZO_20) == Refusal(R.RAISE_PAST_TOP, level=812,
                                              table=VALDOSTANA_LEVELS)
    assert typed(game, "alzo 20", "en") == (
        "You cannot say alzo 20: the contract would go to 812, above the highest, 802.")


def test_a_suit_alone_only_opens() -> None:
    # "si omette il numero (si dice solo il seme)": the opening, before any contract.
    game = calls(dealt(VALDOSTANA), contract(VALDOSTANA, 92, H))
    assert reason(game, A.name_suit(S)) == Refusal(R.SUIT_ONLY_OPENS, lowest=102,
                                                   table=VALDOSTANA_LEVELS, suit=S)
    assert typed(game, "picche", "en") == (
        "A suit alone only opens the bidding, before any contract: say a level and a suit. "
        "The lowest bid now is 102.")


def test_contro_answers_an_opponents_contract_and_surcontro_a_contro() -> None:
    game = calls(dealt(VALDOSTANA), contract(VALDOSTANA, 92, H), A.PASS)
    assert reason(game, A.CONTRO) == Refusal(R.CONTRO_ONLY_OPPONENTS)  # partner's contract
    assert typed(game, "contro", "it") == "Puoi dire contro solo su un contratto degli avversari."
    assert reason(game, A.SURCONTRO) == Refusal(R.SURCONTRO_ONLY_AFTER_CONTRO)


def test_coinche_after_a_contro_only_passes_and_the_doubled_sides_surcontro() -> None:
    game = dealt(COINCHE)
    assert typed(game, "coinche", "fr") == "Vous ne pouvez coincher qu'un contrat adverse."
    assert typed(game, "surcoinche", "fr") == (
        "Vous ne pouvez surcoincher qu'après une coinche sur le contrat de votre équipe.")
    calls(game, contract(COINCHE, 80, H), A.CONTRO)
    assert reason(game, contract(COINCHE, 100, S)) == Refusal(R.AFTER_CONTRO)
    assert typed(game, "100 pique", "en") == (
        "After a double, the only calls are pass and, for the side doubled, redouble.")
    assert typed(game, "300 pique", "en").endswith("No contract can be bid now.")
    calls(game, A.PASS)  # seat 2 lets it go; seat 3 doubled: no surcontro for his side
    assert reason(game, A.SURCONTRO) == Refusal(R.SURCONTRO_ONLY_AFTER_CONTRO)
    assert typed(game, "surcontro", "es") == (
        "Solo puedes decir recontra después de una contra al contrato de tu equipo.")


def test_coinche_names_its_capot_and_has_no_suit_alone_nor_aspetto() -> None:
    game = dealt(COINCHE)
    assert typed(game, "300 pique", "fr") == (
        "Il n'y a pas de contrat à 300. Les contrats vont de 80 à 160, de 10 en 10, puis "
        "capot. L'enchère la plus basse est maintenant 80.")
    assert reason(game, A.name_suit(S)) == Refusal(
        R.SUIT_NEEDS_LEVEL, lowest=80, table=LevelTable(80, 160, 10, 250, ()), suit=S)
    assert typed(game, "picche", "it") == (
        "In questo gioco il seme senza numero non è una chiamata: di' un livello e un seme. "
        "Ora la chiamata più bassa è 80.")
    assert reason(game, A.ASPETTO) == Refusal(R.NOT_A_CALL_HERE)
    said = typed(game, "aspetto", "en")
    assert said.startswith("There is no such call in this game. You can say, for example: ")
    assert "pass" in said and "80 in hearts" in said


def test_three_players_have_no_partner_to_answer() -> None:
    rules = find_preset("valdostana3")
    game = dealt(rules, dealer=2)
    calls(game, contract(rules, 92, H))
    assert reason(game, A.ANCORA) == Refusal(R.NO_PARTNER)
    assert typed(game, "ancora", "en") == (
        "You have no partner: ancora answers a partner's contract.")


def test_no_bid_while_the_deck_is_cut() -> None:
    game = Game(VALDOSTANA, first_dealer=3)
    game.deal(list(range(32)))
    assert game.phase == Phase.CUT
    assert reason(game, A.PASS) == Refusal(R.BIDDING_NOT_STARTED)
    assert no_bid_now(game, game.current_player(), "es") == (
        "Las pujas aún no han empezado: se está cortando la baraja.")


# ----------------------------------------------------------------------------- take or pass
def test_classic_round_one_is_take_or_pass() -> None:
    game = dealt(CLASSIC)
    turned = game.turned >> 3
    other = (turned + 1) % 4
    assert reason(game, A.name_suit(other)) == Refusal(R.ROUND_ONE_TAKE_OR_PASS, suit=turned)
    assert explain(game, A.name_suit(other), game.current_player(), "en") == (
        "In the first round you may only take the turned card's suit, "
        f"{Suit(turned).name.lower()}, or pass.")
    assert reason(game, A.CONTRO) == Refusal(R.NOT_A_CALL_HERE)
    assert typed(game, "contro", "en") == (
        "There is no such call in this game. You can say, for example: pass, take.")
    assert typed(game, "senza", "it").startswith("In questo gioco non esiste questa chiamata.")


def test_classic_round_two_names_another_suit_than_the_turned_one() -> None:
    game = calls(dealt(CLASSIC), A.PASS, A.PASS, A.PASS, A.PASS)
    turned = game.turned >> 3
    assert reason(game, A.TAKE) == Refusal(R.TAKE_ONLY_ROUND_ONE, suit=turned)
    assert typed(game, "prends", "fr").startswith(
        "La carte retournée ne se prend qu'au premier tour : nommez maintenant une autre "
        "couleur que ")
    assert reason(game, A.name_suit(turned)) == Refusal(R.TURNED_SUIT_ROUND_TWO, suit=turned)
    said = typed(game, ("hearts", "diamonds", "clubs", "spades")[turned], "en")
    assert said == (f"In the second round you cannot name {Suit(turned).name.lower()}, the "
                    "turned card's suit: name another suit, or pass.")


def test_a_turned_jack_must_be_taken() -> None:
    rules = CLASSIC.with_flags(jack_oblige=True)
    game = dealt(rules, deck=deck_for({}, "JH", dealer=3))
    assert game.legal_actions() == [A.TAKE]
    assert reason(game, A.PASS) == Refusal(R.JACK_MUST_BE_TAKEN, suit=H)
    assert typed(game, "passo", "it") == (
        "La carta girata è un fante: il primo a parlare deve prenderla.")


def test_italian_partner_of_a_suit_caller_may_only_pass_or_call_senza() -> None:
    game = dealt(ITALIAN)
    assert reason(game, A.SENZA) == Refusal(R.ROUND_ONE_TAKE_OR_PASS, suit=game.turned >> 3)
    calls(game, A.PASS, A.PASS, A.PASS, A.PASS)
    other = ((game.turned >> 3) + 1) % 4
    calls(game, A.name_suit(other))  # seat 0 names a suit: seat 2 may replace it by senza
    assert game.current_player() == 2
    assert reason(game, A.TUTTE) == Refusal(R.OVERRIDE_ONLY_SENZA)
    assert typed(game, "tutte", "it") == (
        "Il tuo compagno ha chiamato un seme: puoi solo passare, o dire senza al suo posto.")


# ----------------------------------------------------------------------------- card play
def test_during_the_card_play_the_bidding_is_over() -> None:
    game, _ = game_in_play({0: "7H AS KS QS AD KD AC 7C"}, "7H", taker=0, dealer=3)
    seat = game.current_player()
    assert reason(game, A.PASS) == Refusal(R.BIDDING_OVER)
    assert no_bid_now(game, seat, "en") == "The bidding is over: cards are played now."
    assert no_bid_now(game, seat, "it") == "Le chiamate sono finite: ora si giocano le carte."
    with pytest.raises(BidNotUnderstood):  # a card's name is left to the card reader
        parse_bid("asso di picche", game.legal_actions(seat), game.rules)
    assert no_bid_now(dealt(CLASSIC), 0, "en") is None


# ----------------------------------------------------------------------------- every reason
def test_text_that_names_no_bid_gets_examples_of_what_may_be_said() -> None:
    game = dealt(VALDOSTANA)
    legal = game.legal_actions()
    assert bid_examples(legal, VALDOSTANA, "en").startswith(
        "You can say, for example: pass, 82 in hearts, ")
    assert bid_examples(legal, VALDOSTANA, "it").startswith(
        "Puoi dire, per esempio: passo, 82 cuori")
    assert bid_examples([A.play(0)], CLASSIC, "en") == ""


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_refused_bid_has_a_precise_reason_said_in_every_language(preset: str) -> None:
    # Through whole auctions of random legal calls: each bid id the engine knows is refused
    # exactly when it is not legal, for a reason more precise than "not allowed", which the
    # four languages say.
    rules = find_preset(preset)
    rng = random.Random(25)
    levels = len(rules.auction.levels) if rules.auction is not None else 0
    ids = [*range(A.PASS, A.TUTTE + 1), *range(A.ASPETTO, A.SURCONTRO + 1),
           *range(A.CONVENTION_BASE, A.CONVENTION_END),
           *(A.contract_bid(i, s) for i in range(levels) for s in range(4))]
    for deal in range(4):
        game = dealt(rules, dealer=deal % rules.players)
        while game.phase == Phase.BIDDING:
            seat = game.current_player()
            legal = set(game.legal_actions())
            for action in ids:
                refused = game.refusal_of(action, seat)
                assert (refused is None) == (action in legal), (action, refused)
                if refused is None:
                    continue
                assert refused.reason is not R.BID_NOT_ALLOWED, action
                if rng.random() < 0.05:
                    for lang in LANGUAGES:
                        assert refusal_sentence(refused, lang, action=action, rules=rules)
            bids = sorted(legal)
            # Mostly passes, so that auctions run long enough to see contros and the top.
            game.apply(A.PASS if A.PASS in legal and rng.random() < 0.5 else rng.choice(bids))


# ----------------------------------------------------------------------------- terminal
def test_the_terminal_says_the_same_sentences() -> None:
    game = calls(dealt(VALDOSTANA, dealer=1), contract(VALDOSTANA, 112, H))
    me = game.current_player()
    out = io.StringIO()
    names = [seat_name(s, "en") for s in range(4)]
    player = TerminalPlayer(game, "en", io.StringIO(""), out, names, me)
    obs = game.observation(me)
    options = [a for a in obs.legal_actions if a < A.CONTRACT_BASE]
    player.contracts = [a for a in obs.legal_actions if a >= A.CONTRACT_BASE]
    for text in ("82 cuori", "900 cuori", "alzo 10", "hello"):
        assert player._interpret(text, obs, options, []) is None
    said = out.getvalue().splitlines()
    assert said[0] == "82 is too low: the lowest bid now is 122."
    assert said[1] == typed(game, "900 cuori", "en")
    assert said[2] == "You can say alzo 10 only on your partner's contract."
    assert said[3].startswith("I did not understand: hello. Press ? for help. "
                              "You can say, for example: pass, 122 in hearts")


def test_an_uneven_table_is_listed_alike_by_the_engine_and_the_catalogs() -> None:
    table = LevelTable.of((80, 90, 110))
    assert (table.step, table.levels) == (0, (80, 90, 110))
    refused = Refusal(R.LEVEL_NOT_IN_TABLE, level=85, table=table)
    said = ("There is no contract at 85. The contract levels are 80, 90, 110. No contract can "
            "be bid now.")
    assert refusal_sentence(refused, "en") == said
    assert refusal_message(refused, A.PASS, 0) == f"{said} (level not in table)"
    assert refusal_sentence(refused, "es") == (
        "No existe un contrato de 85. Los niveles de contrato son 80, 90, 110. "
        "Ahora no se puede pujar ningún contrato.")

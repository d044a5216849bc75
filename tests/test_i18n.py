"""Message catalogs and event announcements (belote.i18n; DESIGN.md principle 8)."""

from __future__ import annotations

import doctest
from collections.abc import Iterator

import pytest

import belote.i18n
import belote.i18n.parse
from belote.cards import Rank, Suit, make_card, to_mask
from belote.engine import actions
from belote.engine import events as ev
from belote.i18n import (
    LANGUAGES,
    action_name,
    contract_name,
    declaration_name,
    describe_event,
    messages,
    placeholders,
    translate,
)
from belote.rules import PRESETS
from belote.rules.declarations import SPOKEN_NAMES

JH = make_card(Suit.HEARTS, Rank.JACK)
NAMES = ("Marco", "Anna", "Luca", "Sara")
VIEWERS = (None, 0, 1, 2, 3)


def _score(outcome: str, **changes: object) -> ev.HandScored:
    values: dict[str, object] = {
        "hand_no": 3,
        "taker": 1,
        "outcome": outcome,
        "capot_team": None,
        "card_points": (62, 100),
        "belote": (0, 20),
        "scores": (62, 120),
        "pot": 0,
        "pot_winner": None,
        "pot_won": 0,
        "totals": (480, 655),
    }
    values.update(changes)
    return ev.HandScored(**values)  # type: ignore[arg-type]


def sample_events() -> Iterator[ev.Event]:
    """At least one event of every class, covering each branch of the announcer."""
    yield ev.MatchStarted(preset="classic", target=1000, first_dealer=3)
    yield ev.MatchStarted(preset="a-club-variant", target=500, first_dealer=0)
    yield ev.DeckCut(seat=3, depth=0)  # seed 000: a knock
    yield ev.DeckCut(seat=3, depth=12)
    yield ev.HandStarted(hand_no=1, dealer=0, turned=make_card(Suit.SPADES, Rank.NINE))
    yield ev.CardsDealt(seat=2, cards=to_mask([JH, 0, 31, 12, 20]))
    for action in (actions.PASS, actions.TAKE, actions.SENZA, actions.TUTTE):
        yield ev.BidMade(
            seat=1, action=action, round=1 if action < actions.SENZA else 2
        )
    for suit in Suit:
        yield ev.BidMade(seat=0, action=actions.name_suit(suit), round=2)
    yield ev.AllPassed(hand_no=1, next_dealer=1)
    for trump in (*Suit, ev.NO_TRUMP, ev.ALL_TRUMP):
        yield ev.ContractSet(taker=2, trump=trump)
    yield ev.TurnedCardTaken(seat=2, card=make_card(Suit.SPADES, Rank.NINE))
    yield ev.CardPlayed(seat=0, card=JH, trick_no=1)
    yield ev.BeloteAnnounced(seat=3, word="belote", suit=Suit.CLUBS)
    yield ev.BeloteAnnounced(seat=3, word="rebelote", suit=Suit.CLUBS)
    yield ev.TrickWon(seat=1, trick_no=1, leader=0, cards=(JH, 5, 6, 7), points=13)
    yield ev.TrickWon(seat=1, trick_no=2, leader=1, cards=(0, 1, 8, 9), points=0)
    yield _score("made")
    yield _score("failed", scores=(182, 20), capot_team=0)
    yield _score("litige", pot=81, scores=(81, 20))
    yield _score("made", pot_winner=1, pot_won=81)
    yield _score("made", declarations=(50, 0), belote=(0, 0))
    yield _score("failed", declarations=(20, 170))
    yield ev.MatchOver(winner=1, totals=(840, 1012))
    yield from auction_events()


def auction_events() -> Iterator[ev.Event]:
    """The events of auctions and declarations (valdostana, coinche, pinasca, italian)."""
    yield ev.HandStarted(hand_no=2, dealer=3, turned=None)
    for action in (actions.ASPETTO, actions.ANCORA, actions.ALZO, actions.CONTRO,
                   actions.SURCONTRO):
        yield ev.BidMade(seat=2, action=action, round=1)
    for action in (actions.contract_bid(0, Suit.HEARTS), actions.contract_bid(3, Suit.SPADES),
                   actions.contract_bid(9, Suit.CLUBS)):
        yield ev.BidMade(seat=1, action=action, round=1)
    for multiplier in (1, 2, 4, 8):
        yield ev.ContractSet(taker=1, trump=Suit.DIAMONDS, level=112, multiplier=multiplier)
    yield ev.ContractSet(taker=0, trump=Suit.SPADES, level=250)
    yield ev.DeclarationAnnounced(seat=0, names=("sequence_4", "carre_J"))
    yield ev.DeclarationAnnounced(seat=1, names=("cinquante",))
    yield ev.DeclarationAnnounced(seat=3, names=())
    yield ev.DeclarationsResolved(team=0, points=(150, 0))
    yield ev.DeclarationsResolved(team=1, points=(20, 100))
    yield ev.DeclarationsResolved(team=None, points=(0, 0))
    yield ev.DeclarationsResolved(team=None, points=(20, 20))
    yield ev.DeclarationsShown(
        seat=2,
        names=("sequence_3",),
        cards=to_mask([make_card(Suit.CLUBS, r) for r in (Rank.TEN, Rank.JACK, Rank.QUEEN)]),
    )
    yield ev.OttavaShown(seat=3, suit=Suit.HEARTS)
    yield ev.ShowRequested(seat=1)
    yield ev.ShowRequested(seat=2, refute=True)
    yield ev.BluffRefuted(seat=3, team=0, points=20)


# --- catalogs ---------------------------------------------------------------------------


def test_languages() -> None:
    assert LANGUAGES == ("it", "es", "fr", "en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_has_the_same_keys_as_english(lang: str) -> None:
    assert set(messages(lang)) == set(messages("en"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_has_the_same_placeholders_as_english(lang: str) -> None:
    english = messages("en")
    for key, text in messages(lang).items():
        assert placeholders(text) == placeholders(english[key]), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_messages_are_well_formed(lang: str) -> None:
    for key, text in messages(lang).items():
        assert text == text.strip() or key in ("list.separator", "list.numbered_separator"), key
        translate(lang, key, **{name: "x" for name in placeholders(text)})


def test_ui_and_error_keys() -> None:
    keys = set(messages("en"))
    for reason in (
        "must_follow_suit",
        "must_trump",
        "must_overtrump",
        "must_undertrump",
        "not_in_hand",
        "not_your_turn",
        "unknown_input",
        "no_belote_to_announce",
    ):
        assert f"error.{reason}" in keys
    for key in ("trump", "no_trump_yet", "lead", "no_card", "table", "scores"):
        assert f"ui.status.{key}" in keys
    assert {"ui.prompt.your_turn", "ui.help.cards", "ui.help.quit"} <= keys


def test_translate_fills_named_placeholders() -> None:
    assert translate("en", "ui.status.trump", suit="spades") == "Trump is spades."
    assert (
        translate("it", "ui.status.trump", suit="picche", unused=1)
        == "La briscola è picche."
    )
    scores = translate(
        "fr", "ui.status.scores", team0="A", score0=1, team1="B", score1=2
    )
    assert scores == "Scores : A 1, B 2."


def test_translate_errors() -> None:
    with pytest.raises(ValueError, match="unknown language 'de'"):
        translate("de", "ui.bye")
    with pytest.raises(KeyError, match=r"no\.such\.key.*'es'"):
        translate("es", "no.such.key")
    with pytest.raises(KeyError, match="placeholder 'suit'"):
        translate("en", "ui.status.trump")


def test_catalogs_are_cached() -> None:
    assert messages("it") is messages("it")


def test_action_names() -> None:
    assert action_name(actions.PASS, "it") == "via"
    assert action_name(actions.TAKE, "it") == "mando"
    assert action_name(actions.SENZA, "it") == "senza"
    assert action_name(actions.TUTTE, "it") == "tutte"
    assert action_name(actions.play(JH), "es") == "sota de corazones"
    assert "belote" in action_name(actions.play_announcing(JH), "fr")
    for lang in LANGUAGES:
        for action in range(actions.FIRST_FREE):
            assert action_name(action, lang)
    with pytest.raises(ValueError, match="action id"):
        action_name(actions.FIRST_FREE, "en")


def test_new_action_names() -> None:
    assert action_name(actions.ASPETTO, "it") == "aspetto"
    assert action_name(actions.ANCORA, "it") == "ancora"
    assert action_name(actions.ALZO, "it") == "alzo"
    assert action_name(actions.CONTRO, "it") == "contro"
    assert action_name(actions.SURCONTRO, "it") == "surcontro"
    assert action_name(actions.CONTRO, "fr") == "coinche"
    assert action_name(actions.SURCONTRO, "fr") == "surcoinche"
    assert action_name(actions.CONTRO, "en") == "double"
    assert action_name(actions.DECLARE_NAME_BASE + 1, "it") == "accuso cinquante"
    assert action_name(actions.DECLARE_NAME_BASE + 3, "fr") == "annonce carré"
    assert "ottava" in action_name(actions.OTTAVA, "it")
    # PASS says the table's word: "via" (take or pass), "passo" (auction).
    assert action_name(actions.PASS, "it", PRESETS["classic"]) == "via"
    assert action_name(actions.PASS, "it", PRESETS["valdostana"]) == "passo"
    assert action_name(actions.PASS, "en", PRESETS["valdostana"]) == "pass (no ace)"
    assert action_name(actions.PASS, "en", PRESETS["coinche"]) == "pass"


def test_contract_names_need_the_level_table() -> None:
    valdostana, coinche = PRESETS["valdostana"], PRESETS["coinche"]
    first = actions.contract_bid(0, Suit.HEARTS)
    assert action_name(first, "it", valdostana) == "82 cuori"
    assert action_name(actions.contract_bid(3, Suit.DIAMONDS), "it", valdostana) == "112 quadri"
    assert action_name(first, "fr", coinche) == "80 à cœur"
    capot = actions.contract_bid(len(coinche.auction.levels) - 1, Suit.SPADES)  # type: ignore[union-attr]
    assert action_name(capot, "fr", coinche) == "capot à pique"
    assert contract_name(250, Suit.SPADES, "en", coinche) == "capot in spades"
    assert contract_name(250, Suit.SPADES, "en") == "250 in spades"
    # Without rules a contract is named by its position in the level table (from 1).
    assert action_name(first, "en") == "contract no. 1 in hearts"
    for lang in LANGUAGES:
        for rules in (valdostana, coinche):
            assert rules.auction is not None
            for index in range(len(rules.auction.levels)):
                for suit in Suit:
                    label = action_name(actions.contract_bid(index, suit), lang, rules)
                    assert str(rules.auction.levels[index]) in label or "capot" in label.lower() \
                        or "cappotto" in label
        for action in range(actions.CONTRACT_BASE, actions.CONTRACT_END):
            assert action_name(action, lang)
        for action in range(actions.FIRST_FREE):
            for rules in PRESETS.values():
                assert action_name(action, lang, rules)
    with pytest.raises(ValueError, match="levels"):
        action_name(actions.contract_bid(len(coinche.auction.levels), 0), "en", coinche)  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="no auction"):
        action_name(first, "en", PRESETS["classic"])
    with pytest.raises(ValueError, match="action id"):
        action_name(actions.CONTRACT_END, "en", valdostana)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_declaration_names(lang: str) -> None:
    names = [f"sequence_{n}" for n in range(3, 9)]
    names += [f"carre_{r}" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]
    names += list(SPOKEN_NAMES)
    texts = [declaration_name(name, lang) for name in names]
    assert all(text and text not in names[:14] for text in texts)
    assert len(set(texts[:14])) == 14
    assert "12" in declaration_name("sequence_12", lang)
    assert declaration_name("unknown_thing", lang) == "unknown_thing"


def test_doctests() -> None:
    for module in (belote.i18n, belote.i18n.parse):
        result = doctest.testmod(module)
        assert result.failed == 0
        assert result.attempted > 0


# --- announcements ------------------------------------------------------------------------


def test_every_event_class_has_a_sample() -> None:
    assert {type(event) for event in sample_events()} == set(ev.EVENT_TYPES.values())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("preset", [p for p, r in PRESETS.items() if r.players == 4])
def test_every_event_is_described_with_rules(lang: str, preset: str) -> None:
    # The sample events are four-seat ones; fewer seats: tests/test_fewer_seats.py.
    rules = PRESETS[preset]
    for event in sample_events():
        contract = isinstance(event, ev.BidMade) and event.action >= actions.CONTRACT_BASE
        if contract and rules.auction is None:
            continue
        for viewer in VIEWERS:
            for verbosity in ("normal", "brief"):
                text = describe_event(event, lang, viewer, NAMES, verbosity, rules)  # type: ignore[arg-type]
                if not event.visible_to(viewer):
                    assert text is None
                    continue
                assert text and "{" not in text and text == text.strip(), (event, text)


def test_auction_bids_and_contracts() -> None:
    valdostana, coinche = PRESETS["valdostana"], PRESETS["coinche"]
    bid = ev.BidMade(1, actions.contract_bid(3, Suit.HEARTS), 1)
    assert describe_event(bid, "it", None, rules=valdostana) == "Est dice 112 cuori."
    assert describe_event(bid, "it", 1, rules=valdostana) == "Hai detto 112 cuori."
    assert describe_event(bid, "fr", None, rules=coinche) == "Est annonce 110 à cœur."
    assert describe_event(bid, "en", None) == "East bids contract no. 4 in hearts."
    assert describe_event(bid, "it", None, NAMES, "brief", valdostana) == "Anna: 112 cuori"
    passo = ev.BidMade(2, actions.PASS, 1)
    assert describe_event(passo, "it", None, rules=valdostana) == "Sud dice passo."
    assert describe_event(passo, "en", None, rules=valdostana) == "South passes (no ace)."
    assert describe_event(passo, "en", None, rules=coinche) == "South passes."
    assert describe_event(passo, "it", None) == "Sud dice via (giro 1)."
    assert describe_event(ev.BidMade(3, actions.ASPETTO, 1), "it", None) == (
        "Ovest dice aspetto."
    )
    assert describe_event(ev.BidMade(3, actions.CONTRO, 1), "fr", 3) == "Vous coinchez !"
    assert describe_event(ev.BidMade(0, actions.SURCONTRO, 1), "en", None) == (
        "North redoubles."
    )
    doubled = ev.ContractSet(taker=1, trump=Suit.HEARTS, level=112, multiplier=2)
    assert describe_event(doubled, "it", None, rules=valdostana) == (
        "Contratto a Est: 112 cuori. Il contratto è contrato: punti per 2."
    )
    redoubled = ev.ContractSet(taker=1, trump=Suit.HEARTS, level=112, multiplier=4)
    assert describe_event(redoubled, "en", 1) == (
        "You win the auction: 112 in hearts. Redoubled: points times 4."
    )
    capot = ev.ContractSet(taker=0, trump=Suit.SPADES, level=250)
    assert describe_event(capot, "fr", None, rules=coinche) == (
        "Nord remporte les enchères : capot à pique."
    )
    # A take-or-pass contract (level 0) is told as before.
    assert describe_event(ev.ContractSet(0, Suit.HEARTS), "it", None) == (
        "Ha preso Nord: la briscola è cuori."
    )


def test_auction_hand_has_no_turned_card() -> None:
    started = ev.HandStarted(hand_no=2, dealer=3, turned=None)
    assert describe_event(started, "it", None) == "Smazzata 2: dà le carte Ovest."
    assert describe_event(started, "en", 3) == "Hand 2: you deal."


def test_declarations_are_told() -> None:
    announced = ev.DeclarationAnnounced(seat=0, names=("sequence_4", "carre_J"))
    assert describe_event(announced, "it", None) == "Nord dichiara quarta, poker di fanti."
    assert describe_event(announced, "fr", 0) == "Vous annoncez cinquante, carré de valets."
    spoken = ev.DeclarationAnnounced(seat=1, names=("cinquante",))
    assert describe_event(spoken, "it", None) == "Est dichiara cinquante."
    assert describe_event(spoken, "en", None) == "East declares fifty."
    resolved = ev.DeclarationsResolved(team=1, points=(0, 70))
    assert describe_event(resolved, "it", None) == (
        "Le dichiarazioni valgono per Est-Ovest: 70 punti."
    )
    both = ev.DeclarationsResolved(team=0, points=(150, 20))
    assert describe_event(both, "en", None) == (
        "Declarations: North-South 150 points, East-West 20 points."
    )
    assert describe_event(ev.DeclarationsResolved(None, (0, 0)), "es", 2) == (
        "Ninguna combinación vale."
    )
    tens = [make_card(Suit.CLUBS, r) for r in (Rank.TEN, Rank.JACK, Rank.QUEEN)]
    shown = ev.DeclarationsShown(seat=2, names=("sequence_3",), cards=to_mask(tens))
    assert describe_event(shown, "en", None) == (
        "South shows sequence of three: ten of clubs, jack of clubs, queen of clubs."
    )
    assert describe_event(shown, "it", 2) == (
        "Mostri terza: dieci di fiori, fante di fiori, donna di fiori."
    )
    ottava = ev.OttavaShown(seat=3, suit=Suit.HEARTS)
    assert describe_event(ottava, "it", None) == (
        "Ovest mostra l'ottava, tutte e otto le carte di cuori: la sua coppia vince la partita!"
    )


def test_hand_scored_tells_declarations() -> None:
    text = describe_event(_score("made", declarations=(0, 50)), "it", None) or ""
    assert "Est-Ovest segna 50 punti di dichiarazioni." in text
    plain = describe_event(_score("made"), "it", None) or ""
    assert "dichiarazioni" not in plain


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("verbosity", ["normal", "brief"])
def test_every_event_is_described(lang: str, verbosity: str) -> None:
    for event in sample_events():
        for viewer in VIEWERS:
            for names in (None, NAMES):
                text = describe_event(event, lang, viewer, names, verbosity)  # type: ignore[arg-type]
                if not event.visible_to(viewer):
                    assert text is None
                    continue
                assert text, (event, viewer)
                assert "{" not in text, text
                assert "}" not in text, text
                assert text == text.strip(), text


@pytest.mark.parametrize("viewer", [None, 1, 3])
def test_other_seats_cards_are_hidden(viewer: int | None) -> None:
    dealt = ev.CardsDealt(seat=2, cards=to_mask([JH, 0]))
    for lang in LANGUAGES:
        assert describe_event(dealt, lang, viewer) is None
        assert describe_event(dealt, lang, viewer, NAMES, "brief") is None


def test_own_cards_are_listed_by_suit_then_rank() -> None:
    ace_of_spades = make_card(Suit.SPADES, Rank.ACE)
    seven_of_diamonds = make_card(Suit.DIAMONDS, Rank.SEVEN)
    dealt = ev.CardsDealt(
        seat=2, cards=to_mask([ace_of_spades, JH, seven_of_diamonds, 0])
    )
    assert describe_event(dealt, "it", 2) == (
        "Ricevi: sette di cuori, fante di cuori, sette di quadri, asso di picche."
    )
    assert describe_event(dealt, "en", 2) == (
        "You receive: seven of hearts, jack of hearts, seven of diamonds, ace of spades."
    )


def test_card_played_you_and_others() -> None:
    played = ev.CardPlayed(seat=0, card=JH, trick_no=1)
    assert describe_event(played, "it", 0) == "Hai giocato il fante di cuori."
    assert describe_event(played, "it", 1, NAMES) == "Marco gioca il fante di cuori."
    assert describe_event(played, "it", None) == "Nord gioca il fante di cuori."
    assert describe_event(played, "es", None) == "Norte juega la sota de corazones."
    assert describe_event(played, "fr", 0) == "Vous avez joué le valet de cœur."
    assert describe_event(played, "en", 2, NAMES) == "Marco plays the jack of hearts."
    # Brief (issue 21, at most half the words of full): the card without "di", and a card of
    # the suit led by its rank alone.
    assert describe_event(played, "it", 1, NAMES, "brief") == "Marco: fante cuori"
    following = ev.CardPlayed(seat=0, card=JH, trick_no=1, led=JH >> 3)
    assert describe_event(following, "it", 1, NAMES, "brief") == "Marco: fante"
    assert describe_event(following, "en", 0, None, "brief") == "You: jack"
    assert describe_event(following, "en", 0) == "You played the jack of hearts."


def test_default_seat_names() -> None:
    started = [ev.HandStarted(hand_no=1, dealer=seat, turned=JH) for seat in range(4)]
    texts = [describe_event(event, "it", None) or "" for event in started]
    for text, seat in zip(texts, ("Nord", "Est", "Sud", "Ovest"), strict=True):
        assert seat in text


def test_bids_name_the_call() -> None:
    assert (
        describe_event(ev.BidMade(1, actions.PASS, 1), "it", None)
        == "Est dice via (giro 1)."
    )
    assert (
        describe_event(ev.BidMade(1, actions.TAKE, 1), "it", 1)
        == "Hai detto mando (giro 1)."
    )
    spades = ev.BidMade(3, actions.name_suit(Suit.SPADES), 2)
    assert (
        describe_event(spades, "es", None)
        == "Oeste elige picas como triunfo (ronda 2)."
    )
    assert describe_event(ev.BidMade(2, actions.SENZA, 2), "fr", None) == (
        "Sud annonce sans atout (tour 2)."
    )
    assert describe_event(
        ev.BidMade(2, actions.TUTTE, 2), "en", 2, verbosity="brief"
    ) == ("You: all trump")
    with pytest.raises(ValueError, match="not a bid"):
        describe_event(ev.BidMade(2, actions.play(JH), 2), "en", None)


@pytest.mark.parametrize(
    ("lang", "no_trump", "all_trump"),
    [
        ("it", "senza briscola", "tutte briscole"),
        ("es", "sin triunfo", "todo triunfo"),
        ("fr", "sans atout", "tout atout"),
        ("en", "no trump", "all trump"),
    ],
)
def test_contract_names_the_trump(lang: str, no_trump: str, all_trump: str) -> None:
    assert no_trump in (
        describe_event(ev.ContractSet(0, ev.NO_TRUMP), lang, None) or ""
    )
    assert all_trump in (describe_event(ev.ContractSet(0, ev.ALL_TRUMP), lang, 0) or "")
    hearts = describe_event(ev.ContractSet(0, Suit.HEARTS), lang, None) or ""
    assert translate(lang, "card.suit.hearts") in hearts


def test_hand_scored_tells_outcome_and_totals() -> None:
    text = (
        describe_event(_score("failed", scores=(182, 20), capot_team=0), "it", None)
        or ""
    )
    assert text.startswith("Contratto fallito per Est-Ovest.")
    assert "Cappotto per Nord-Sud!" in text
    assert "Est-Ovest segna 20 punti di belote." in text
    assert text.endswith("Totale: Nord-Sud 480, Est-Ovest 655.")
    litige = describe_event(_score("litige", pot=81), "fr", None) or ""
    assert litige.startswith("Litige : 81 points")
    with pytest.raises(ValueError, match="outcome"):
        describe_event(_score("lost"), "en", None)


def test_match_over_speaks_to_each_team() -> None:
    over = ev.MatchOver(winner=1, totals=(840, 1012))
    assert describe_event(over, "en", None) == "Match over: East-West win 1012 to 840."
    assert describe_event(over, "en", 1) == "Match over: your team wins 1012 to 840!"
    assert describe_event(over, "en", 2) == "Match over: your team loses 840 to 1012."


def test_describe_event_errors() -> None:
    played = ev.CardPlayed(seat=0, card=JH, trick_no=1)
    with pytest.raises(ValueError, match="unknown language"):
        describe_event(played, "de", None)
    with pytest.raises(ValueError, match="verbosity"):
        describe_event(played, "en", None, verbosity="loud")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="names"):
        describe_event(played, "en", None, names=["A"])
    with pytest.raises(ValueError, match="names"):  # two names at a table of four
        describe_event(played, "en", None, names=["A", "B"], rules=PRESETS["classic"])
    with pytest.raises(TypeError, match="no description"):
        describe_event(ev.Event(), "en", None)

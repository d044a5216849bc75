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
    describe_event,
    messages,
    placeholders,
    translate,
)

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
    yield ev.MatchOver(winner=1, totals=(840, 1012))


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
        assert text == text.strip() or key == "list.separator", key
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


def test_doctests() -> None:
    for module in (belote.i18n, belote.i18n.parse):
        result = doctest.testmod(module)
        assert result.failed == 0
        assert result.attempted > 0


# --- announcements ------------------------------------------------------------------------


def test_every_event_class_has_a_sample() -> None:
    assert {type(event) for event in sample_events()} == set(ev.EVENT_TYPES.values())


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
    assert describe_event(played, "it", 1, NAMES, "brief") == "Marco: fante di cuori"


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
        describe_event(played, "en", None, names=["A", "B"])
    with pytest.raises(TypeError, match="no description"):
        describe_event(ev.Event(), "en", None)

"""Discard signals (issue 13 item 5), flag ``discard_signals``: given and read by the normal
bot, read by the expert's world sampling.

Seed 000, "Gradimento": "Sono possibili due significati da associare allo scarto: Gradimento -
Indica al compagno di avere interesse nel colore ; 2) NO Gradimento - Indica al compagno di NON
avere interesse nel colore", and "Preferenza del colore": "1) Nero x Nero - Colore Nero
scartato chiama colore nero. Allora, Fiori chiama Picche e viceversa; 2) Rosso x Rosso".
"In genere fra i giocatori di livello è prediletto il NO Gradimento": valdostana's value.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from belote.ai.heuristic import HeuristicBot
from belote.ai.worlds import ConventionEvidence, knowledge, sample_world
from belote.cards import Suit
from belote.engine.obligations import legal_plays
from belote.engine.observation import Observation
from belote.engine.signals import read_signals
from belote.i18n import LANGUAGES
from belote.i18n.sheet import flag_sentence
from belote.notation import parse_card, parse_cards
from belote.rules import Rules, find_preset

H, D, C, S = Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES
VALDOSTANA = find_preset("valdostana")
FLAGS = ("gradimento", "no_gradimento", "off")


def rules(flag: str) -> Rules:
    return VALDOSTANA.with_flags(discard_signals=flag)


def position(flag: str, seat: int, hand: str, trick: list[tuple[int, str]],
             tricks: tuple[tuple[int, tuple[str, ...]], ...] = (), taker: int = 1,
             trump: int = H) -> Observation:
    """Seat ``seat`` to play in trick ``len(tricks)`` with ``trick`` on the table."""
    table = rules(flag)
    on_table = [parse_card(c) for _, c in trick]
    mask = parse_cards(hand)
    legal = legal_plays(mask, on_table, trump, table)
    done = tuple((leader, tuple(parse_card(c) for c in cards)) for leader, cards in tricks)
    played = sum(1 << c for _, cards in done for c in cards) | sum(1 << c for c in on_table)
    sizes = [8 - len(done)] * 4
    for s, _ in trick:
        sizes[s] -= 1
    return Observation(
        seat=seat, rules=table.name, phase=2, deal_no=0, dealer=3, current_player=seat,
        hand=mask, hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]), turned=None, bids=(),
        taker=taker, trump=trump, leader=trick[0][0] if trick else seat,
        trick=tuple((s, parse_card(c)) for s, c in trick), trick_no=len(done),
        last_trick=None, played=played, tricks_won=(0, 0), card_points=(0, 0),
        belote_said=(), totals=(0, 0), pot=0,
        legal_actions=tuple(c for c in range(32) if legal >> c & 1), winner=None,
        tricks=done, ruleset=table)


def choice(obs: Observation) -> str:
    from belote.notation import to_card

    return to_card(HeuristicBot(seed=0).choose(obs) & 31)


def test_presets_set_the_seed_convention() -> None:
    assert VALDOSTANA.discard_signals == "no_gradimento"
    for name in ("classic", "pinasca", "italian", "coinche"):
        assert find_preset(name).discard_signals == "off"  # their seeds name no signals


# Hearts trump; seat 0 leads diamonds; seat 1 holds neither: it discards.
@pytest.mark.parametrize(("flag", "card"), [
    # holds the ace of spades: gradimento discards a spade; NO gradimento a club ("Fiori
    # chiama Picche"); off the cheapest card.
    ("gradimento", "8S"), ("no_gradimento", "7C"), ("off", "7C")])
def test_first_discard_signals_the_ace_of_spades(flag: str, card: str) -> None:
    obs = position(flag, 1, "AS 8S 7C 8C 9C 10C KC", [(0, "7D")])
    assert choice(obs) == card


@pytest.mark.parametrize(("flag", "card"), [
    # holds the ace of clubs: gradimento a club; NO gradimento a spade ("e viceversa").
    ("gradimento", "7C"), ("no_gradimento", "8S"), ("off", "7C")])
def test_first_discard_signals_the_ace_of_clubs(flag: str, card: str) -> None:
    obs = position(flag, 1, "AC 7C 8S 9S 10S KS QS", [(0, "7D")])
    assert choice(obs) == card


def test_only_the_first_discard_is_a_signal() -> None:
    # Seat 1 already discarded in trick 0: its second discard is free (the cheapest card).
    first = (0, ("7D", "8C", "KD", "QD"))
    obs = position("gradimento", 1, "AS 8S 7C 9C 10C KC", [(0, "8D")], tricks=(first,))
    assert choice(obs) == "7C"


@pytest.mark.parametrize(("flag", "card"), [
    ("gradimento", "QC"), ("no_gradimento", "7S"), ("off", "7S")])
def test_leads_the_suit_the_partners_first_discard_asked_for(flag: str, card: str) -> None:
    # Trick 0: seat 1 led diamonds, seat 2 (our partner) discarded the 7 of clubs: gradimento
    # asks for clubs; NO gradimento says "not clubs" and calls spades.
    first = (1, ("8D", "7C", "9D", "10D"))
    obs = position(flag, 0, "KC QC 7S 8S 9D JD QD", [], tricks=(first,))
    assert choice(obs) == card


def test_leads_the_called_suit_under_no_gradimento() -> None:
    first = (1, ("8D", "7C", "9D", "10D"))
    obs = position("no_gradimento", 0, "KS QS 7C 8C 9D JD QD", [], tricks=(first,))
    assert choice(obs) == "QS"  # spades called: lead low towards the partner's ace
    off = position("off", 0, "KS QS 7C 8C 9D JD QD", [], tricks=(first,))
    assert choice(off) == "7C"


def test_signals_are_read_by_every_seat_and_not_when_off() -> None:
    first = (1, ("8D", "7C", "9D", "10D"))
    obs = position("no_gradimento", 3, "KS QS 7H 8C JD QD AH", [], tricks=(first,))
    signal = read_signals(obs)[2]
    assert signal.wanted == {S} and signal.unwanted == {C}
    assert read_signals(position("gradimento", 3, "KS QS 7H 8C JD QD AH", [],
                                 tricks=(first,)))[2].wanted == {C}
    off = position("off", 3, "KS QS 7H 8C JD QD AH", [], tricks=(first,))
    assert read_signals(off) == {}
    assert ConventionEvidence().statements(off) == []  # no signal read as evidence


def _ace_counts(flag: str, samples: int = 400) -> tuple[int, int]:
    """How often seat 2 holds the ace of spades and of clubs in sampled worlds, after its
    first discard (7C on diamonds), seen by seat 0."""
    first = (1, ("8D", "7C", "9D", "10D"))
    obs = position(flag, 0, "KS QS 7S 8C 9C JD QD", [], tricks=(first,))
    info = knowledge(obs)
    rng = random.Random(13)
    model = ConventionEvidence()
    spades = clubs = 0
    for _ in range(samples):
        world = sample_world(info, rng, model=model)
        spades += world[2] >> parse_card("AS") & 1
        clubs += world[2] >> parse_card("AC") & 1
    return spades, clubs


def test_world_sampling_weighs_the_signal() -> None:
    # Signals are soft evidence (issue 23: ConventionEvidence, a true signal SIGNAL_ODDS
    # times as likely as a false one), weighed when the sampler is given the model.
    off_spades, off_clubs = _ace_counts("off")
    no_spades, no_clubs = _ace_counts("no_gradimento")
    _, yes_clubs = _ace_counts("gradimento")
    assert no_spades > off_spades + 60 and no_clubs < off_clubs - 60  # "Fiori chiama Picche"
    assert yes_clubs > off_clubs + 60  # "avere interesse nel colore"


def test_world_sampling_off_changes_nothing() -> None:
    # Signals are evidence, never facts (issue 23): the facts read under NO gradimento are
    # those read with signals off, and only the evidence differs.
    first = (1, ("8D", "7C", "9D", "10D"))
    off_obs = position("off", 0, "KS QS 7S 8C 9C JD QD", [], tricks=(first,))
    on_obs = position("no_gradimento", 0, "KS QS 7S 8C 9C JD QD", [], tricks=(first,))
    off, on = knowledge(off_obs), knowledge(on_obs)
    model = ConventionEvidence()
    assert model.statements(off_obs) == [] and model.statements(on_obs)
    assert off == dataclasses.replace(on, rules=off.rules)
    a, b = random.Random(5), random.Random(5)
    assert [sample_world(off, a) for _ in range(30)] == [sample_world(on, b) for _ in range(30)]


def test_rule_sheet_says_each_value_in_every_language() -> None:
    for lang in LANGUAGES:
        texts = set()
        for flag in FLAGS:
            key, text = flag_sentence(rules(flag), "discard_signals", flag, lang)
            assert key == f"sheet.discard_signals.{flag}"
            texts.add(text)
        assert len(texts) == 3


def test_a_bad_value_is_refused_and_changes_nothing() -> None:
    with pytest.raises(ValueError, match="discard_signals"):
        VALDOSTANA.with_flags(discard_signals="gradimento_illogico")
    assert VALDOSTANA.discard_signals == "no_gradimento"

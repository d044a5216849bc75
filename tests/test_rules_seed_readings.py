"""Readings where a seed is ambiguous: each is a flag, the preset's value is the default, and
both values are tested here with the seed sentence they read (RULES.md "*(reading)*").

Seed 000 is the Italian Wikipedia page (its first part: italian; "La belote valdostana"),
seed 001 the Pinasca regulation.  Pairs are per team; team 0 took unless a test says otherwise.
"""

from __future__ import annotations

import pytest
from variant_helpers import ITALIAN, PINASCA, VALDOSTANA, outcome

from belote.engine.events import NO_TRUMP
from belote.engine.scoring import Pot
from belote.i18n.sheet import rule_sheet
from belote.rules import PRESETS
from belote.rules.validation import FlagError

V = VALDOSTANA


# --- valdostana: what the defenders of a failed contract take ------------------------------


def test_valdostana_failed_defenders_take_their_own_valid_accusi_by_default() -> None:
    # Seed 000: "alla Linea Difendente vanno attribuiti i Punti Mano (max 162) sommati ai Punti
    # Accusi validi (anche la Belote)": read as the defenders' own valid accusi.
    assert V.failed_defenders_take_all_declarations is False
    result = outcome(V, (60, 102), declarations=(50, 0), belote=(20, 0), level=142)
    assert (result.outcome, result.scores) == ("failed", (0, 162))


def test_valdostana_failed_defenders_take_every_valid_accuso_with_the_flag() -> None:
    # The other reading of the same sentence: "i Punti Accusi validi" are every valid accuso of
    # the hand, the attackers' and their belote included.
    rules = V.with_flags(failed_defenders_take_all_declarations=True)
    result = outcome(rules, (60, 102), declarations=(50, 0), belote=(20, 0), level=142)
    assert (result.outcome, result.scores) == ("failed", (0, 162 + 50 + 20))
    doubled = outcome(rules, (60, 102), declarations=(50, 0), level=142, multiplier=2,
                      last_caller_team=1)
    assert doubled.scores == (0, (162 + 50) * 2)


# --- valdostana: what a failed surcontro pays ---------------------------------------------


def test_valdostana_failed_surcontro_pays_tipo_b_by_default() -> None:
    # Seed 000, contro: "se il contratto è disatteso i Punti Tipo B sono raddoppiati (x2) e
    # vanno alla coppia difendente"; surcontro: "se il contratto è disatteso i Punti Tipo A
    # sono quadruplicati (x4) e vanno alla coppia difendente" (read as the same Tipo B).
    assert V.surcontro_failed_points == "type_b"
    result = outcome(V, (80, 82), declarations=(0, 50), level=102, multiplier=4,
                     last_caller_team=0)
    assert (result.outcome, result.scores) == ("failed", (0, (162 + 50) * 4))


def test_valdostana_failed_surcontro_pays_tipo_a_with_the_flag() -> None:
    # The literal reading: "i Punti Tipo A sono quadruplicati (x4)": Tipo A (point 1 A) is each
    # line's own Punti Mano and accusi; the defenders take both lines', times four.
    rules = V.with_flags(surcontro_failed_points="type_a")
    result = outcome(rules, (80, 82), declarations=(0, 50), level=102, multiplier=4,
                     last_caller_team=0)
    assert (result.outcome, result.scores) == ("failed", (0, (80 + 82 + 50) * 4))
    # A contro (the defenders called last) still pays Tipo B: "i Punti Tipo B sono raddoppiati".
    contro = outcome(rules, (80, 82), declarations=(0, 50), level=102, multiplier=2,
                     last_caller_team=1)
    assert contro.scores == (0, (162 + 50) * 2)


def test_surcontro_tipo_a_needs_an_auction_on_the_lines_points() -> None:
    with pytest.raises(FlagError, match="surcontro_failed_points"):
        PRESETS["classic"].with_flags(surcontro_failed_points="type_a")
    with pytest.raises(FlagError, match="surcontro_failed_points"):
        PRESETS["coinche"].with_flags(surcontro_failed_points="type_a")


# --- italian: the senza cappotto ----------------------------------------------------------


def test_italian_senza_cappotto_doubles_the_capot_bonus_by_default() -> None:
    # Seed 000: "variano di conseguenza anche i punteggi per il 'cappotto', con 10 punti extra
    # per l'ultima mano ... 30x4 (i quattro semi) + 10 per l'ultima mano, il tutto
    # moltiplicato per due": read as the whole capot hand doubled, 90 bonus included.
    assert ITALIAN.senza_capot_multiplied is True
    result = outcome(ITALIAN, (130, 0), trump=NO_TRUMP, tricks_won=(8, 0))
    assert (result.capot_team, result.scores) == (0, ((130 + 90) * 2, 0))


def test_italian_senza_cappotto_bonus_not_doubled_with_the_flag() -> None:
    # The other reading: only "30x4 + 10" is "moltiplicato per due"; the cappotto adds its 90.
    rules = ITALIAN.with_flags(senza_capot_multiplied=False)
    result = outcome(rules, (130, 0), trump=NO_TRUMP, tricks_won=(8, 0))
    assert (result.capot_team, result.scores) == (0, (130 * 2 + 90, 0))


def test_senza_capot_flag_needs_senza() -> None:
    with pytest.raises(FlagError, match="senza_capot_multiplied"):
        PRESETS["classic"].with_flags(senza_capot_multiplied=False)


# --- pinasca: a tie with the takers' belote -------------------------------------------------


def test_pinasca_tie_the_takers_belote_scores_at_once_by_default() -> None:
    # Seed 001: "la coppia che non aveva dichiarato la briscola, segna i suoi punti,
    # l'aggiudicazione dei punti restanti è demandata alla mano che segue" (silent on the
    # takers' belote: it scores at once, as seed 002's "nunca se vuelven a poner en juego").
    assert PINASCA.tie_freezes_belote is False
    tie = outcome(PINASCA, (71, 91), belote=(20, 0))  # 71 + 20 = 91
    assert (tie.outcome, tie.scores, tie.pot) == ("litige", (20, 91), Pot(71, 0))


def test_pinasca_tie_freezes_the_takers_belote_too_with_the_flag() -> None:
    # The other reading: "i punti restanti" are every point of the takers, belote included.
    rules = PINASCA.with_flags(tie_freezes_belote=True)
    tie = outcome(rules, (71, 91), belote=(20, 0))
    assert (tie.outcome, tie.scores, tie.pot) == ("litige", (0, 91), Pot(91, 0))
    won = outcome(rules, (62, 100), taker_team=1, pot=tie.pot)
    assert (won.pot_winner, won.pot_won) == (1, 91)


def test_tie_freezes_belote_needs_a_belote() -> None:
    with pytest.raises(FlagError, match="tie_freezes_belote"):
        PINASCA.with_flags(tie_freezes_belote=True, belote_enabled=False)


@pytest.mark.parametrize(
    ("preset", "flags", "sentence"),
    [
        ("pinasca", {"tie_freezes_belote": True}, "the takers' belote stays at stake"),
        ("pinasca", {}, "the takers' belote scores at once"),
        ("italian", {"senza_capot_multiplied": False}, "capot bonus is not multiplied"),
        ("valdostana", {"surcontro_failed_points": "type_a"}, "Tipo A points"),
        ("valdostana", {}, "Tipo B points"),
    ],
)
def test_each_reading_is_said_on_the_rule_sheet(
    preset: str, flags: dict[str, object], sentence: str
) -> None:
    rules = PRESETS[preset].with_flags(**flags) if flags else PRESETS[preset]
    assert sentence in rule_sheet(rules, "en")

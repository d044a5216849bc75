"""Rule flags a host may choose are safe: refused with a clear error, or playable to the end.

A property (Hypothesis, bounded): random one- and two-flag changes on every preset either raise
``ValueError`` from ``Rules.with_flags`` or give rules that bots play to a finished match.
Then one test per rejection (each names the flag, the value and what is allowed), and the
single homes of the rule vocabulary.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, get_args, get_type_hints

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from belote.ai import make_bot
from belote.engine import actions as A
from belote.engine import events
from belote.engine.dealing import seeded_deck_source
from belote.engine.state import Game
from belote.rules import PRESETS, Rules, declarations, vocabulary
from belote.rules.flags import parse_flags, rules_with_flags
from belote.rules.target import match_winner
from belote.rules.validation import MAX_LEVELS, FlagError
from belote.sim.match import play_step

SHORT_TARGET = 150
MAX_DEALS = 400  # far more than a 150-point match needs: past it the match is endless
BOTS = ("random", "easy", "normal", "random")
HEURISTIC_BOTS = ("easy", "normal", "easy", "normal")
RULES_DIR = Path(__file__).parent.parent / "belote" / "rules"


def play_bots(rules: Rules, seed: int = 0) -> Game:
    """A whole match of fast bots; fails if it has not ended after MAX_DEALS deals.  Odd seeds
    seat no random bot (the others bid only what a hand is worth)."""
    bots = BOTS if seed % 2 == 0 else HEURISTIC_BOTS
    players = [make_bot(name, seed * 4 + seat) for seat, name in enumerate(bots[:rules.players])]
    game = Game(rules, seed % rules.players)
    decks = seeded_deck_source(seed)
    # A match of ``match_hands`` hands ends by itself; passed-out deals (redeals) come on top,
    # and with three players the timid bots pass out about every other deal.
    limit = max(MAX_DEALS, 8 * rules.match_hands)
    while not game.is_terminal():
        assert game.deal_no <= limit, f"endless match under {rules}"
        play_step(game, players, decks)
    return game


# --- The property ----------------------------------------------------------------------------

WORDS = ("clockwise", "counterclockwise", "take_or_pass", "auction", "next_card", "trick",
         "litige", "prigione", "last_caller_loses", "lines", "contract", "best_team",
         "same_length", "best_team_all", "best", "nobody", "first", "table", "team", "bogus")
SCALARS = st.one_of(
    st.booleans(),
    st.none(),
    st.integers(-5, 1100),
    st.sampled_from([0, 1, 2, 5, 80, 100_000, 100_001, 2**63 - 1, -1, 1.5]),
    st.sampled_from(WORDS),
)
VALUES = st.one_of(
    SCALARS,
    st.lists(st.integers(-1, 9), max_size=9),  # deal packets
    st.lists(st.integers(-10, 1100), max_size=12).map(sorted),  # contract levels
    st.lists(st.integers(0, 300), min_size=7, max_size=9),  # carré points
    st.lists(st.tuples(st.integers(0, 9), st.integers(-5, 300)).map(list), max_size=4),
    st.dictionaries(st.sampled_from(["levels", "capot_level", "policy", "no_such"]),
                    st.one_of(st.integers(0, 300), st.lists(st.integers(50, 300), max_size=4)),
                    max_size=2),
)


PLAUSIBLE: dict[str, st.SearchStrategy[Any]] = {
    "deal_packets": st.sampled_from([[3, 2], [2, 3], [5], [1, 1, 1, 1, 1], [3, 2, 3], [4, 4],
                                     [8], [2, 3, 3]]),
    "auction.levels": st.lists(st.integers(1, 400), min_size=1, max_size=20, unique=True)
    .map(sorted),
    "auction.capot_level": st.sampled_from([0, 80, 160, 250]),
    "declarations.carre_points": st.lists(st.integers(0, 300), min_size=8, max_size=8),
    "declarations.sequence_points": st.sampled_from(
        [[], [[3, 20]], [[3, 20], [4, 50], [5, 100]], [[4, 50], [8, 500]], [[8, 1000]]]),
    "auction": st.sampled_from([None, {}, {"levels": [80, 90, 100]}]),
    "declarations": st.sampled_from([None, {}, {"sequence_points": [[3, 20]]}]),
}


def plausible(rules: Rules, name: str) -> st.SearchStrategy[Any]:
    """Values of the flag's own kind, most of them playable."""
    if name in PLAUSIBLE:
        return PLAUSIBLE[name]
    current = dict(rules.flag_items()).get(name)
    if isinstance(current, bool):
        return st.booleans()
    if current is None:
        return st.one_of(st.none(), st.integers(0, 400))
    if isinstance(current, int):
        return st.integers(0, 400)
    group, _, leaf = name.rpartition(".")
    owner = type(getattr(rules, group)) if group else Rules
    return st.sampled_from(get_args(get_type_hints(owner)[leaf]))  # a Literal's words


def flag_names(rules: Rules) -> list[str]:
    names = [name for name, _ in rules.flag_items() if name != "name"]
    return [*names, "auction", "declarations"]


@st.composite
def changes(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    names = draw(st.lists(st.sampled_from(flag_names(PRESETS[preset])), min_size=1,
                          max_size=2, unique=True))
    rules = PRESETS[preset]
    flags = {}
    for name in names:
        # Three draws in four are of the flag's own kind, so that many changes get played.
        wild = draw(st.integers(0, 3)) == 0
        flags[name] = draw(VALUES if wild else plausible(rules, name))
    return preset, flags


@settings(max_examples=250)
@given(change=changes(), seed=st.integers(0, 2**16))
def test_random_flag_changes_are_refused_or_play_to_the_end(
    change: tuple[str, dict[str, Any]], seed: int
) -> None:
    preset, flags = change
    try:
        rules = PRESETS[preset].with_flags(**flags)
    except ValueError:
        event("refused")
        return
    event("played")
    rules = rules.with_flags(target_score=min(rules.target_score, SHORT_TARGET))
    game = play_bots(rules, seed)
    assert game.winner in range(rules.sides)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_plays_to_the_end_on_a_short_target(preset: str) -> None:
    game = play_bots(PRESETS[preset].with_flags(target_score=SHORT_TARGET), seed=7)
    assert game.winner in range(PRESETS[preset].sides)


# --- Each rejection --------------------------------------------------------------------------

REJECTED: list[tuple[str, dict[str, Any], str]] = [
    # types
    ("classic", {"target_score": True}, "target_score=true (allowed: a whole number)"),
    ("classic", {"target_score": 1.5}, "target_score=1.5"),
    ("classic", {"must_trump": "maybe"}, "must_trump=maybe (allowed: true or false)"),
    # players=0 in an auction preset: its range, not a division by zero in the deal check
    ("coinche", {"players": 0}, "players=0 (allowed: a whole number from 2 to 4)"),
    ("classic", {"tie_rule": "duel"}, 'tie_rule=duel (allowed: "litige" or "prigione")'),
    ("classic", {"deal_packets": [3, "2"]}, "deal_packets=[3, \"2\"] (allowed: a list of"),
    ("classic", {"auction": 5}, "auction=5 (allowed: an object of its flags or null)"),
    ("pinasca", {"declarations": []}, "declarations=[]"),
    ("coinche", {"auction.levels": "80"}, "auction.levels=80"),
    ("classic", {"name": ""}, "name="),
    # ranges
    ("classic", {"target_score": 2**63 - 1}, "target_score=9223372036854775807 (allowed: a "
     "whole number from 1 to 100000)"),
    ("classic", {"target_score": 0}, "target_score=0"),
    ("classic", {"belote_points": -20}, "belote_points=-20 (allowed: a whole number from 0"),
    ("classic", {"last_trick_bonus": -1}, "last_trick_bonus=-1"),
    ("classic", {"capot_bonus": 5000}, "capot_bonus=5000"),
    ("classic", {"taker_min_points": -1}, "taker_min_points=-1"),
    ("coinche", {"failed_defenders_points": 0}, "failed_defenders_points=0 (allowed: a whole "
     "number from 80 to 1000 or null)"),
    ("italian", {"senza_multiplier": 0}, "senza_multiplier=0"),
    ("coinche", {"auction.contro_multiplier": 0}, "auction.contro_multiplier=0"),
    ("coinche", {"auction.surcontro_multiplier": 1}, "auction.surcontro_multiplier=1 (allowed:"
     " at least auction.contro_multiplier (2))"),
    ("valdostana", {"declarations.belote_in_sequence_bonus": -5},
     "declarations.belote_in_sequence_bonus=-5"),
    # contract levels
    ("coinche", {"auction.levels": []}, "auction.levels=[] (allowed: 1 to 80 contract levels"),
    ("coinche", {"auction.levels": [90, 80], "auction.capot_level": 0}, "strictly increasing"),
    ("coinche", {"auction.levels": [80, 80], "auction.capot_level": 0}, "auction.levels"),
    ("coinche", {"auction.levels": [0, 80], "auction.capot_level": 0}, "auction.levels"),
    ("coinche", {"auction.levels": [300, 400], "auction.capot_level": 0}, "the lowest at most"),
    ("coinche", {"auction.levels": [130, 250]}, "the lowest at most 120"),
    ("coinche", {"auction.levels": [80, 5000], "auction.capot_level": 0}, "from 1 to 1000"),
    ("coinche", {"auction.levels": list(range(1, MAX_LEVELS + 2)), "auction.capot_level": 0},
     "auction.levels"),
    ("coinche", {"auction.capot_level": 255}, "auction.capot_level=255 (allowed: 0 (no capot "
     "contract) or one of auction.levels)"),
    ("coinche", {"auction.levels": [80, 90]}, "auction.capot_level=250"),
    # the deal
    ("classic", {"deal_packets": [3, 3]}, "deal_packets=[3, 3] (allowed: packets of at least 1 "
     "card adding up to 5 with bidding=take_or_pass"),
    ("classic", {"deal_packets": []}, "deal_packets=[]"),
    ("classic", {"deal_packets": [0, 5]}, "deal_packets=[0, 5]"),
    ("valdostana", {"deal_packets": [3, 2]}, "adding up to 8 with bidding=auction"),
    ("coinche", {"deal_packets": [-1, 9]}, "deal_packets=[-1, 9]"),
    # the bidding system against the deal and the auction table
    ("classic", {"bidding": "auction"}, "auction=null (allowed: an auction table with "
     "bidding=auction)"),
    ("valdostana", {"bidding": "take_or_pass", "deal_packets": [3, 2]}, "auction={"),
    ("valdostana", {"auction": None}, "auction=null"),
    # the italian call and the turned card belong to take-or-pass
    ("coinche", {"allow_senza": True}, "allow_senza=true (allowed: false with bidding=auction"),
    ("coinche", {"allow_tutte": True}, "allow_tutte=true"),
    ("coinche", {"jack_oblige": True}, "jack_oblige=true"),
    ("classic", {"senza_override": True}, "senza_override=true (allowed: false unless "
     "allow_senza is true)"),
    ("italian", {"allow_senza": False}, "senza_override=true"),
    # declaration tables
    ("pinasca", {"declarations.sequence_points": [[1, 10]]}, "declarations.sequence_points=[["
     "1, 10]] (allowed: [length, points] rows, lengths strictly ascending from 3 to 8"),
    ("pinasca", {"declarations.sequence_points": [[9, 10]]}, "declarations.sequence_points"),
    ("pinasca", {"declarations.sequence_points": [[4, 50], [3, 20]]}, "strictly ascending"),
    ("pinasca", {"declarations.sequence_points": [[3, -20]]}, "points from 0 to 1000"),
    ("pinasca", {"declarations.carre_points": [0] * 7}, "declarations.carre_points=[0, 0, 0, "
     "0, 0, 0, 0] (allowed: one value per rank"),
    ("pinasca", {"declarations.carre_points": [-1, 0, 150, 100, 200, 100, 100, 100]},
     "declarations.carre_points"),
]


@pytest.mark.parametrize(("preset", "flags", "message"), REJECTED)
def test_bad_flags_are_refused_naming_flag_value_and_what_is_allowed(
    preset: str, flags: dict[str, Any], message: str
) -> None:
    before = PRESETS[preset]
    with pytest.raises(FlagError) as caught:
        before.with_flags(**flags)
    assert message in str(caught.value)
    assert all(p.flag and p.allowed for p in caught.value.problems)
    assert PRESETS[preset] == before  # nothing changed


@pytest.mark.parametrize(
    ("preset", "flags", "message"),
    [
        ("classic", {"no_such_flag": 1}, "unknown rule flag(s): no_such_flag"),
        ("pinasca", {"declarations.no_such": 1}, "declarations.no_such"),
        ("classic", {"auction": {"no_such": 1}}, "auction.no_such"),
        ("classic", {"auction.levels": [80]}, "rule group 'auction' is not used"),
        ("coinche", {"auction": 5, "auction.levels": [80]}, "must be an object"),
        ("classic", {"must_trump.x": 1}, "has no nested flags"),
    ],
)
def test_unknown_flags_are_refused(preset: str, flags: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        PRESETS[preset].with_flags(**flags)


def test_an_error_lists_every_bad_flag_at_once() -> None:
    with pytest.raises(FlagError) as caught:
        PRESETS["classic"].with_flags(target_score=0, belote_points=-1, deal_packets=[3, 3])
    assert sorted(p.flag for p in caught.value.problems) == [
        "belote_points", "deal_packets", "target_score"]


def test_presets_and_consistent_changes_are_accepted() -> None:
    coinche = PRESETS["coinche"]
    assert coinche.with_flags(**{"auction.levels": [80, 90, 100], "auction.capot_level": 0})
    assert coinche.with_flags(auction={"levels": [80, 90]}).auction is not None
    as_take_or_pass = PRESETS["valdostana"].with_flags(
        bidding="take_or_pass", deal_packets=[3, 2], auction=None)
    assert as_take_or_pass.turned_card
    as_auction = PRESETS["classic"].with_flags(
        bidding="auction", deal_packets=[3, 2, 3], auction={"levels": [80, 90, 100]})
    assert not as_auction.turned_card
    assert PRESETS["classic"].with_flags(deal_packets=[1, 1, 1, 1, 1]).turned_card
    assert PRESETS["classic"].with_flags(target_score=100_000, failed_defenders_points=80)
    play_bots(as_auction.with_flags(target_score=SHORT_TARGET))
    play_bots(as_take_or_pass.with_flags(target_score=SHORT_TARGET))


def test_flag_texts_given_twice_with_different_values_are_refused() -> None:
    assert parse_flags(["must_trump=false", "must_trump=false"]) == {"must_trump": False}
    with pytest.raises(ValueError, match="given twice"):
        parse_flags(["target_score=500", "target_score=600"])
    with pytest.raises(ValueError, match="deal_packets"):
        rules_with_flags(PRESETS["classic"], ["deal_packets=[3, 3]"])


# --- One home for the rule vocabulary --------------------------------------------------------


def test_trump_codes_rank_codes_and_spoken_names_have_one_definition() -> None:
    from belote import notation

    assert (events.NO_TRUMP, events.ALL_TRUMP) == (vocabulary.NO_TRUMP, vocabulary.ALL_TRUMP)
    assert declarations.NO_TRUMP is vocabulary.NO_TRUMP
    assert notation.RANK_CODES is vocabulary.RANK_CODES is declarations.RANK_CODES
    assert A.DECLARE_NAMES is vocabulary.SPOKEN_NAMES is declarations.SPOKEN_NAMES
    assert len(vocabulary.SPOKEN_NAMES) == A.OTTAVA - A.DECLARE_NAME_BASE
    assert MAX_LEVELS == A.MAX_LEVELS


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
    return found


def test_the_rules_import_nothing_from_i18n_or_the_engine() -> None:
    for path in sorted(RULES_DIR.glob("*.py")):
        for module in _imports(path):
            assert not module.startswith(("belote.i18n", "belote.engine")), (path.name, module)


def test_no_module_outside_the_rules_checks_flags() -> None:
    checks = re.compile(r"\b(check_flag_types|type_problems|check_rules|check_group|_fits)\(")
    for path in sorted((RULES_DIR.parent).rglob("*.py")):
        if RULES_DIR not in path.parents:
            assert not checks.search(path.read_text(encoding="utf-8")), path


@pytest.mark.parametrize(
    ("target", "strict", "totals", "winner"),
    [
        (1000, False, (999, 0), None),
        (1000, False, (1000, 0), 0),
        (1000, True, (1000, 0), None),
        (1000, True, (1001, 990), 0),
        (1000, False, (1100, 1200), 1),
        (1000, False, (1100, 1100), None),  # equal totals: the match goes on
    ],
)
def test_match_winner_past_the_target_and_ahead(
    target: int, strict: bool, totals: tuple[int, int], winner: int | None
) -> None:
    rules = PRESETS["classic"].with_flags(target_score=target, target_strict=strict)
    assert match_winner(rules, totals) == winner


def test_the_engine_ends_the_match_with_the_rules_match_winner() -> None:
    game = play_bots(PRESETS["classic"].with_flags(target_score=SHORT_TARGET), seed=3)
    assert game.winner is not None
    assert game.winner == match_winner(game.rules, (game.totals[0], game.totals[1]))


PROBLEM_CASES = [
    ("classic", {"belote_points": "twenty"}, "type"),
    ("classic", {"target_score": 0}, "range"),
    ("pinasca", {"failed_defenders_points": 5}, "range_or_null"),
    ("coinche", {"auction.levels": []}, "levels"),
    ("coinche", {"auction.capot_level": 7}, "capot_level"),
    ("valdostana", {"auction.surcontro_multiplier": 1}, "surcontro"),
    ("italian", {"declarations.sequence_points": [[9, 20]]}, "sequence_points"),
    ("italian", {"declarations.carre_points": [1]}, "carre_points"),
    ("classic", {"deal_packets": [3, 3]}, "deal_packets"),
    ("classic", {"bidding": "auction", "deal_packets": [3, 2, 3]}, "auction_missing"),
    ("coinche", {"bidding": "take_or_pass", "deal_packets": [3, 2]}, "auction_unused"),
    ("coinche", {"allow_senza": True}, "take_or_pass_only"),
    ("italian", {"allow_senza": False}, "senza_override"),
    ("classic", {"name": "Not A Name"}, "name"),
    ("classic", {"senza_capot_multiplied": False}, "needs"),
]


@pytest.mark.parametrize("preset,flags,code", PROBLEM_CASES)
def test_every_refusal_is_said_in_the_hosts_language(preset: str, flags: dict[str, object],
                                                     code: str) -> None:
    from belote.i18n import LANGUAGES
    from belote.i18n.flag_problems import problem_text
    from belote.rules import FlagError, find_preset

    with pytest.raises(FlagError) as refused:
        find_preset(preset).with_flags(**flags)
    problems = [p for p in refused.value.problems if p.code == code]
    assert problems, refused.value.problems
    for lang in LANGUAGES:
        text = problem_text(problems[0], lang)
        assert problems[0].flag in text and "{" not in text

"""Every accepted rule setting plays (issue 21, item 10).

Each flag's domain (:func:`belote.rules.domain.flag_domain`: both booleans, every word of a
Literal, the lowest and highest whole number the validation accepts, tables from the
smallest to the largest) is tried on every preset: a value ``with_flags`` accepts must give
rules that bots play to the end of a match without an exception.  This test plays every
accepted single change ``MATCHES`` times on a short target plus a seeded sample of
multi-flag changes (well under a minute); the full sweep is
``python scripts/fuzz_rules.py --domain --matches 20 --pairs 2000`` (docs/bots.md gives its
figures).
"""

from __future__ import annotations

import random
from typing import Any, Literal, get_args, get_origin, get_type_hints

import pytest

from belote.ai import make_bot
from belote.engine.dealing import seeded_deck_source
from belote.engine.state import Game
from belote.rules import PRESETS, Rules
from belote.rules.domain import GROUPS, flag_domain
from belote.rules.validation import INT_RANGES
from belote.sim.match import play_step

TARGET = 200  # a short match: the point is that it plays to its end
RANDOM_TARGET = 1000  # random bots only: many more hands, as quick
MAX_TARGET = 1000  # target changes above this are played at it (the full sweep plays them)
MAX_DEALS = 600  # far more than a match to TARGET takes (redeals included)
MATCHES = 5  # matches per accepted single change
COMBOS = 400  # seeded random changes of two to four flags
BOTS = ("random", "easy", "normal")


def _accepted(rules: Rules, flags: dict[str, Any]) -> Rules | None:
    try:
        return rules.with_flags(**flags)
    except ValueError:
        return None


def _play(rules: Rules, seed: int) -> Game:
    """A whole bot match: random bots (they reach the odd corners of the rules: a capot
    of every point, every kind of contract) on even seeds, a mix on odd ones (one random
    bot at least: cautious bots alone may pass every deal of a rule that leaves them
    little to bid, which is no fault of the rules)."""
    rng = random.Random(seed)
    names = ["random", *(rng.choice(BOTS) if seed % 2 else "random"
                         for _ in range(rules.players - 1))]
    rng.shuffle(names)
    players = [make_bot(name, seed * 4 + seat) for seat, name in enumerate(names)]
    game = Game(rules, seed % rules.players)
    decks = seeded_deck_source(seed)
    while not game.is_terminal():
        assert game.deal_no <= MAX_DEALS + 3 * rules.match_hands, (rules, game.totals)
        play_step(game, players, decks)
    return game


def _short(rules: Rules, flags: dict[str, Any], seed: int = 1) -> Rules:
    """A short match (longer with random bots only: quick, and more hands reach more
    corners), unless the change is the target itself."""
    if "target_score" in flags:
        return rules.with_flags(target_score=min(rules.target_score, MAX_TARGET))
    return rules.with_flags(target_score=TARGET if seed % 2 else RANDOM_TARGET)


def test_every_flag_of_every_preset_has_its_whole_domain() -> None:
    for name, rules in PRESETS.items():
        domain = flag_domain(rules)
        tried: dict[str, set[str]] = {}
        for flag, value in domain:
            tried.setdefault(flag, set()).add(repr(value))
        for flag, own in rules.flag_items():
            if flag == "name":
                continue
            group, _, leaf = flag.rpartition(".")
            hint = get_type_hints(GROUPS[group] if group else Rules)[leaf]
            values = tried.get(flag, set()) | {repr(own)}
            if hint is bool:
                assert values >= {"True", "False"}, (name, flag)
            elif get_origin(hint) is Literal:
                assert values >= {repr(word) for word in get_args(hint)}, (name, flag)
            elif flag in INT_RANGES:
                low, high = INT_RANGES[flag]
                assert values >= {repr(low), repr(high)}, (name, flag)
            else:
                assert len(values) > 1, (name, flag)


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.slow
@pytest.mark.no_cover
def test_every_accepted_single_flag_change_plays_a_whole_bot_match(preset: str) -> None:
    base = PRESETS[preset]
    played = 0
    for i, (flag, value) in enumerate(flag_domain(base)):
        rules = _accepted(base, {flag: value})
        if rules is None:
            continue
        for match in range(MATCHES):
            seed = 1000 * i + match
            game = _play(_short(rules, {flag: value}, seed), seed)
            assert game.is_terminal()
        played += 1
    assert played > 30


def test_a_seeded_sample_of_multi_flag_changes_plays_whole_bot_matches() -> None:
    rng = random.Random(21)
    domains = {name: flag_domain(rules) for name, rules in PRESETS.items()}
    played = 0
    for i in range(COMBOS):
        name = rng.choice(list(domains))
        flags: dict[str, Any] = {}
        for flag, value in rng.sample(domains[name], rng.randint(2, 4)):
            top = flag.partition(".")[0]
            if flag in flags or any(f.partition(".")[0] == top and ("." in f) != ("." in flag)
                                    for f in flags):
                continue  # a group and its own flags: one or the other
            flags[flag] = value
        rules = _accepted(PRESETS[name], flags)
        if rules is None:
            continue
        assert _play(_short(rules, flags, 77 + i), 77 + i).is_terminal(), (name, flags)
        played += 1
    assert played > COMBOS // 4

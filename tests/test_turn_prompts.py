"""The prompt said at the player's turn (issue 25, item 3): several options on one key are a
numbered list with the key for each (D, then the number); a long prompt has a short form,
said after the first full one, that ends with B for the full list."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from belote.engine import Game
from belote.engine import actions as A
from belote.engine.observation import Observation
from belote.i18n import LANGUAGES
from belote.i18n.table_info import SHORT_ENOUGH_WORDS, turn_prompts
from belote.rules import PRESETS
from tests.random_play import decisions


def first_position(preset: str, wanted: Callable[[Game], bool], seed: int = 5,
                   limit: int = 400) -> Observation:
    """The mover's observation at the first position of random matches where ``wanted``."""
    for game, _ in decisions(PRESETS[preset], seed, limit):
        if wanted(game):
            return game.observation(game.current_player())
    raise AssertionError(f"no such position in {preset}")


def several_declarations(game: Game) -> bool:
    return sum(A.is_table_talk(a) for a in game.legal_actions()) >= 2


def many_contracts(game: Game) -> bool:
    return sum(A.CONTRACT_BASE <= a < A.CONTRACT_END for a in game.legal_actions()) > 8


@pytest.mark.parametrize("lang", LANGUAGES)
def test_several_declarations_are_a_numbered_list_with_their_key(lang: str) -> None:
    obs = first_position("italian", several_declarations)
    extras = [a for a in obs.legal_actions if A.is_table_talk(a)]
    prompt = turn_prompts(obs, lang, "normal")
    for number in range(1, len(extras) + 1):
        assert f"{number}, " in prompt.full
    assert "D" in prompt.full
    brief = turn_prompts(obs, lang, "brief").full
    assert f"1 {'a' if lang == 'it' else 'à' if lang == 'fr' else 'to'}" in brief or \
        f"de 1 a {len(extras)}" in brief, brief


def test_one_declaration_is_named_with_its_key() -> None:
    obs = first_position("italian", lambda g: sum(
        A.is_table_talk(a) for a in g.legal_actions()) == 1)
    prompt = turn_prompts(obs, "en", "normal").full
    assert prompt.startswith("You may also declare ") and prompt.endswith(": press D."), prompt
    assert "1, " not in prompt


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_long_bid_prompt_is_said_short_after_the_first_time(lang: str) -> None:
    obs = first_position("valdostana", many_contracts)
    prompt = turn_prompts(obs, lang, "normal")
    assert len(prompt.full.split()) > SHORT_ENOUGH_WORDS
    assert prompt.short and len(prompt.short.split()) <= 14, prompt.short
    assert prompt.short.rstrip(".").endswith(
        {"en": "every option", "it": "tutte le scelte", "es": "todas las opciones",
         "fr": "tous les choix"}[lang])
    assert prompt.short.count("B") == 1 and prompt.kind == "bid"
    # the range is in both: the short one still says what may be bid
    levels = [str(level) for level in PRESETS["valdostana"].auction.levels]  # type: ignore[union-attr]
    assert any(level in prompt.short for level in levels)


def test_short_prompts_are_said_whole_every_time() -> None:
    obs = first_position("classic", lambda g: A.TAKE in g.legal_actions())
    prompt = turn_prompts(obs, "en", "normal")
    assert prompt.full.startswith("Your turn to bid.") and prompt.short == ""
    brief = first_position("valdostana", many_contracts)
    assert turn_prompts(brief, "en", "brief").short == ""


def test_the_second_card_of_the_belote_is_announced_as_rebelote() -> None:
    def second_card(game: Game) -> bool:
        mover = game.current_player()
        return (any(A.is_play(a) and A.announces(a) for a in game.legal_actions())
                and any(who == mover for who, _ in game.belote_said))

    obs = first_position("classic", second_card, limit=2000)
    assert "announcing rebelote" in turn_prompts(obs, "en", "normal").full
    assert turn_prompts(obs, "it", "brief").full.startswith("Rebelote: spazio")


def test_a_second_pair_in_tutte_has_its_own_belote() -> None:
    """All trumps: a player with two kings and queens announces each pair (belote, then
    rebelote): after the first pair, the first card of the second is belote again."""
    def first_of_second_pair(game: Game) -> bool:
        mover = game.current_player()
        announcing = [A.played_card(a) for a in game.legal_actions()
                      if A.is_play(a) and A.announces(a)]
        return bool(announcing) and any(who == mover for who, _ in game.belote_said) and \
            any(game.hands[mover] >> ((c & ~7) | (11 - (c & 7))) & 1 for c in announcing[:1])

    obs = first_position("italian", first_of_second_pair, seed=514, limit=4000)
    assert "announcing belote" in turn_prompts(obs, "en", "normal").full

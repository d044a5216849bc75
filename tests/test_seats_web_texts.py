"""Sentences about a side read right with no partnerships (valdostana3, valdostana2): the side
is one player, so "Bea makes the contract" (not "Bea make their contract"), "you" for the
listener, and the information keys name no team.  Four players keep the team sentences."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import belote.i18n
from belote.engine.events import DeclarationsResolved, HandScored
from belote.i18n import describe_event
from belote.i18n.catalog import messages
from belote.rules import PRESETS

V3, V4 = PRESETS["valdostana3"], PRESETS["valdostana"]
LANGS = ("it", "es", "fr", "en")
NAMES3 = ["Ada", "Bea", "Cy"]
LOCALE = Path(belote.i18n.__file__).parent / "locale"


def made(taker: int, sides: int) -> HandScored:
    points = (40, 100, 22)[:sides]
    return HandScored(1, taker, "made", None, points, (0, 20, 0)[:sides], points, 0, 1, 10,
                      points, (0, 50, 0)[:sides])


def test_a_player_alone_makes_the_contract_in_the_singular() -> None:
    text = describe_event(made(1, 3), "en", None, NAMES3, rules=V3)
    assert text is not None
    assert text.startswith("Bea makes the contract.")
    assert "Bea scores 50 points for declarations." in text
    assert "Bea scores 20 points for belote." in text
    assert "Bea also wins the 10 points at stake." in text


def test_the_player_alone_hears_you_about_his_own_side() -> None:
    text = describe_event(made(1, 3), "en", 1, NAMES3, rules=V3)
    assert text is not None and text.startswith("You make your contract.")
    assert "You score 50 points for declarations." in text
    resolved = describe_event(DeclarationsResolved(1, (0, 50, 0)), "en", 1, NAMES3, rules=V3)
    assert resolved == "Your declarations score: 50 points."


def test_four_players_keep_the_team_sentences() -> None:
    text = describe_event(made(1, 2), "en", 1, rules=V4)
    assert text is not None and text.startswith("East-West make their contract.")


def catalog_keys(lang: str) -> list[str]:
    """The msgids of this area's catalog (seats_web.po) in ``lang``."""
    path = LOCALE / lang / "LC_MESSAGES" / "seats_web.po"
    return re.findall(r'^msgid "(.+)"$', path.read_text(encoding="utf-8"), re.MULTILINE)


@pytest.mark.parametrize("lang", LANGS)
def test_every_player_form_exists_in_every_language_with_the_same_placeholders(
        lang: str) -> None:
    keys = catalog_keys(lang)
    assert keys == catalog_keys("en") and len(keys) >= 18
    english = messages("en")
    for key in keys:
        wanted = set(re.findall(r"\{(\w+)\}", english[key]))
        assert set(re.findall(r"\{(\w+)\}", messages(lang)[key])) == wanted, (lang, key)
    for viewer in (None, 0, 1, 2):
        text = describe_event(made(1, 3), lang, viewer, NAMES3, rules=V3)
        assert text and "{" not in text

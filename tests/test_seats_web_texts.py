"""Sentences about a side read right with no partnerships (valdostana3, valdostana2): the side
is one player, so "Bea makes the contract" (not "Bea make their contract"), "you" for the
listener, and the information keys name no team.  Four players keep the team sentences."""

from __future__ import annotations

import re

import pytest

from belote.engine.events import DeclarationsResolved, HandScored
from belote.i18n import describe_event
from belote.i18n.catalog import catalog_files, messages
from belote.rules import PRESETS

V3, V4 = PRESETS["valdostana3"], PRESETS["valdostana"]
LANGS = ("it", "es", "fr", "en")
NAMES3 = ["Ada", "Bea", "Cy"]


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


# The msgids of this area (the player forms for fewer seats), once seats_web.po; the catalogs
# are now one file per domain (scripts/catalog_domains.py), so they are named here.
AREA_KEYS = (
    *(f"event.hand_scored.{what}.alone{you}"
      for what in ("made", "failed", "capot", "belote", "declarations", "pot_won")
      for you in ("", ".you")),
    "event.declarations_resolved.one.alone", "event.declarations_resolved.one.alone.you",
    "sala.info.contract.alone", "sala.info.contract.times.alone", "sala.info.points.alone",
    "web.js.seats_total", "cli.seats_web.teams_only",
)


def catalog_keys(lang: str) -> list[str]:
    """The msgids of this area that the catalog of ``lang`` holds, in the area's order."""
    ids = set(re.findall(r'^msgid "(.+)"$', "".join(
        path.read_text(encoding="utf-8") for path in catalog_files(lang)), re.MULTILINE))
    return [key for key in AREA_KEYS if key in ids]


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

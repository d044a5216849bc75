"""Messages that count (belote.i18n.plural): the singular form where the language's plural
rule (CLDR, through Babel) says the count is singular, the general form otherwise."""

from __future__ import annotations

import doctest

import pytest

import belote.i18n.plural
from belote.i18n import LANGUAGES, messages
from belote.i18n.plural import count_text, plural_form


def test_doctests() -> None:
    result = doctest.testmod(belote.i18n.plural)
    assert result.failed == 0 and result.attempted > 0


def test_french_says_zero_and_one_in_the_singular_the_others_one_alone() -> None:
    assert [plural_form("fr", n) for n in (0, 1, 2)] == ["one", "one", "other"]
    for lang in ("en", "it", "es"):
        assert [plural_form(lang, n) for n in (0, 1, 2)] == ["other", "one", "other"]


def test_a_count_picks_its_form_and_fills_the_count() -> None:
    key = "tournament.web.playing_count"
    assert count_text("en", key, 1) == "1 table still playing."
    assert count_text("en", key, 0) == "0 tables still playing."
    assert count_text("fr", key, 0) == "0 table encore en jeu."
    assert count_text("it", key, 2) == "2 tavoli ancora in gioco."
    # Millions are CLDR's "many" in Italian: the general form.
    assert count_text("it", key, 1_000_000) == "1000000 tavoli ancora in gioco."


def test_a_message_without_a_singular_reads_its_general_form() -> None:
    assert count_text("en", "tournament.web.queue", 1) == "Awaiting confirmation (1)"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_tournament_singular_has_its_general_form(lang: str) -> None:
    table = messages(lang)
    singulars = [key for key in table if key.startswith("tournament.") and key.endswith(".one")]
    assert "tournament.web.summary.one" in singulars
    for key in singulars:
        assert key.removesuffix(".one") in table, key

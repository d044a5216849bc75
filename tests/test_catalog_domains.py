"""The message catalogs are sorted by domain, and complete in every language.

One file per domain (``belote/i18n/catalog.py``: ``DOMAINS``, ``DOMAIN_PREFIXES``); a message
lives in the file its id's prefix names; every message exists, translated, in it es fr en.
``scripts/catalog_domains.py`` sorts them (a ``new_<name>.po`` written on a branch included)
and changes nothing on a sorted tree.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from types import ModuleType

import pytest

from belote.i18n.catalog import (
    DOMAIN_PREFIXES,
    DOMAINS,
    LANGUAGES,
    LOCALE_DIR,
    MAIN_DOMAIN,
    catalog_files,
    domain_of,
    messages,
)
from tests.file_modules import load_file

ROOT = Path(__file__).resolve().parents[1]
FIX = "run `python scripts/catalog_domains.py` (it sorts every message into its domain file)"


def load_tool() -> ModuleType:
    return load_file(ROOT / "scripts" / "catalog_domains.py")


TOOL = load_tool()


def test_the_table_names_only_known_domains_and_the_main_one_first() -> None:
    assert set(DOMAIN_PREFIXES.values()) <= set(DOMAINS)
    assert next(iter(DOMAINS)) == MAIN_DOMAIN
    assert domain_of("card.rank.jack") == "game"
    assert domain_of("web.lobby.title") == "lobby"  # the longer prefix wins over "web."
    assert domain_of("web.footer") == "web"
    assert domain_of("nothing.here") is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_file_is_a_domain_and_the_main_one_loads_first(lang: str) -> None:
    files = catalog_files(lang)
    assert files[0].name == f"{MAIN_DOMAIN}.po"
    strays = sorted(p.name for p in files if p.stem not in DOMAINS)
    assert not strays, f"{lang}: catalog files outside the domains {strays}: {FIX}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_lives_in_the_file_its_prefix_names(lang: str) -> None:
    misplaced = []
    for path in catalog_files(lang):
        for entry in TOOL.read_entries(path):
            domain = domain_of(entry.key)
            if domain is None:
                misplaced.append(f"{entry.key} ({path.name}): no prefix in DOMAIN_PREFIXES "
                                 "(belote/i18n/catalog.py) names its domain")
            elif f"{domain}.po" != path.name:
                misplaced.append(f"{entry.key} is in {path.name}, its domain is {domain}.po")
    assert not misplaced, f"{lang}:\n" + "\n".join(misplaced) + f"\n{FIX}"


def test_every_message_exists_translated_in_every_language() -> None:
    ids = {lang: {entry.key for path in catalog_files(lang) for entry in TOOL.read_entries(path)}
           for lang in LANGUAGES}
    every = set().union(*ids.values())
    missing = {lang: sorted(every - keys) for lang, keys in ids.items() if every - keys}
    assert not missing, f"messages missing from a language: {missing}"
    empty = {lang: sorted(every - set(messages(lang))) for lang in LANGUAGES
             if every - set(messages(lang))}
    assert not empty, f"messages without a translation: {empty}"
    assert len(every) > 1000


def test_the_tool_changes_nothing_on_the_tree() -> None:
    assert TOOL.plan(LOCALE_DIR) == {}, FIX


def copy_of_locale(tmp_path: Path) -> Path:
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, locale)
    return locale


def write_new(locale: Path, name: str, entries: dict[str, str]) -> None:
    for lang in LANGUAGES:
        body = "".join(f'\n#. Added on a branch.\nmsgid "{key}"\nmsgstr "{text} ({lang})"\n'
                       for key, text in entries.items())
        (locale / lang / "LC_MESSAGES" / f"new_{name}.po").write_text(
            f'# New messages.\n\nmsgid ""\nmsgstr ""\n"Language: {lang}\\n"\n{body}',
            encoding="utf-8")


def test_the_tool_absorbs_a_branchs_new_file_once(tmp_path: Path) -> None:
    locale = copy_of_locale(tmp_path)
    write_new(locale, "bus", {"lobby.bus_test": "Tables", "web.lobby.bus_test": "More"})
    assert TOOL.main(["--locale-dir", str(locale)]) == 0
    for lang in LANGUAGES:
        folder = locale / lang / "LC_MESSAGES"
        assert not (folder / "new_bus.po").exists()
        lobby = (folder / "lobby.po").read_text(encoding="utf-8")
        tail = f'#. Added on a branch.\nmsgid "lobby.bus_test"\nmsgstr "Tables ({lang})"\n\n' \
               f'#. Added on a branch.\nmsgid "web.lobby.bus_test"\nmsgstr "More ({lang})"\n'
        assert lobby.endswith(tail)  # after the domain's own messages, comments kept
    assert TOOL.plan(locale) == {}  # a second run changes nothing


@pytest.mark.parametrize(("entries", "complaint"), [
    ({"nowhere.key": "x"}, "no prefix of DOMAIN_PREFIXES"),
    ({"card.rank.jack": "x"}, "is in both"),
])
def test_the_tool_refuses_and_changes_nothing(tmp_path: Path, entries: dict[str, str],
                                              complaint: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    locale = copy_of_locale(tmp_path)
    write_new(locale, "bad", entries)
    before = {p: p.read_bytes() for p in locale.rglob("*.po")}
    assert TOOL.main(["--locale-dir", str(locale)]) == 2
    assert complaint in capsys.readouterr().err
    assert {p: p.read_bytes() for p in locale.rglob("*.po")} == before


def test_the_tool_refuses_a_message_missing_from_a_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locale = copy_of_locale(tmp_path)
    write_new(locale, "half", {"lobby.only_some": "x"})
    (locale / "fr" / "LC_MESSAGES" / "new_half.po").unlink()
    assert TOOL.main(["--locale-dir", str(locale)]) == 2
    assert "fr: missing lobby.only_some" in capsys.readouterr().err

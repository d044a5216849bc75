"""Move every catalog message into the file of its domain (``belote/i18n/catalog.py``'s table).

For each language, reads every ``.po`` file of ``locale/<lang>/LC_MESSAGES`` (the history files,
the ``new_<name>.po`` files written on branches, the domain files themselves), and writes one
file per domain, ``<domain>.po``, holding the messages whose id starts with a prefix of that
domain (``DOMAIN_PREFIXES``, the longest prefix wins); then deletes the files left empty.

Deterministic and idempotent: each message keeps its block of text as written (its comments,
its translation, its line breaks), and the order is the domain file's own messages first,
then the other files' in load order (``game.po`` first, then by name), each in its own order.
A second run changes nothing.  The head of each file (a comment naming the domain, then the
standard header entry) is written from the table.

Refuses, changing nothing, when a message id matches no prefix, appears twice in a language,
or is missing from a language (or is empty there): the message says which and where.

    python scripts/catalog_domains.py            # rewrite the files
    python scripts/catalog_domains.py --check    # exit 1, listing what would change
    python scripts/catalog_domains.py --locale-dir DIR
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from belote.i18n.catalog import (  # noqa: E402  (after the path: run as a script)
    DOMAINS,
    LANGUAGES,
    LOCALE_DIR,
    MAIN_DOMAIN,
    domain_of,
)

LANGUAGE_NAMES = {"it": "Italian", "es": "Spanish", "fr": "French", "en": "English"}
MSGID = re.compile(r'^msgid "(.*)"$', re.MULTILINE)
BLANK_LINES = re.compile(r"\n[ \t]*\n")


@dataclass(frozen=True)
class Entry:
    """One message as written: its id and its whole block (comments, msgid, msgstr)."""

    key: str
    block: str
    source: str  # the file it was read from


class CatalogError(ValueError):
    """The catalogs cannot be sorted into domains (nothing was changed)."""


def header(lang: str, domain: str) -> str:
    return (f"# {LANGUAGE_NAMES[lang]} messages of belote: {DOMAINS[domain]}.\n"
            "# Symbolic msgids: see belote/i18n/__init__.py.  One file per domain, named by\n"
            "# the id's prefix (belote/i18n/catalog.py, DOMAIN_PREFIXES); scripts/"
            "catalog_domains.py\n# sorts them.\n\n"
            'msgid ""\n'
            'msgstr ""\n'
            '"Project-Id-Version: belote 0.1.0\\n"\n'
            '"POT-Creation-Date: 2025-01-01 00:00+0000\\n"\n'
            '"PO-Revision-Date: 2025-01-01 00:00+0000\\n"\n'
            '"Last-Translator: belote contributors\\n"\n'
            f'"Language: {lang}\\n"\n'
            f'"Language-Team: {LANGUAGE_NAMES[lang]}\\n"\n'
            '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
            '"MIME-Version: 1.0\\n"\n'
            '"Content-Type: text/plain; charset=utf-8\\n"\n'
            '"Content-Transfer-Encoding: 8bit\\n"\n'
            '"Generated-By: Babel 2.18.0\\n"\n')


def read_entries(path: Path) -> list[Entry]:
    """The messages of one ``.po`` file; its header entry and opening comment left out."""
    entries = []
    blocks = BLANK_LINES.split(path.read_text(encoding="utf-8").strip("\n"))
    for number, block in enumerate(blocks):
        block = block.strip("\n")
        ids = MSGID.findall(block)
        if len(ids) > 1:
            raise CatalogError(f"{path}: two messages without a blank line between them: {ids}")
        if not ids and number > 0:
            raise CatalogError(f"{path}: a comment not attached to a message: {block[:60]!r}")
        if re.search(r'^msgid ""\n"', block, re.MULTILINE):
            raise CatalogError(f"{path}: a message id on several lines (ids are one symbolic "
                               f"word): {block[:60]!r}")
        if ids and ids[0]:
            entries.append(Entry(ids[0], block, path.name))
    return entries


def load_order(folder: Path) -> list[Path]:
    """The files in the loader's order: the main domain first, then by name."""
    main = folder / f"{MAIN_DOMAIN}.po"
    others = sorted(p for p in folder.glob("*.po") if p != main)
    return [main, *others] if main.exists() else others


def sort_language(folder: Path) -> dict[str, list[Entry]]:
    """``{domain: entries}`` for one language, in the order the module docstring gives."""
    files = load_order(folder)
    by_domain: dict[str, list[Entry]] = {}
    seen: dict[str, str] = {}
    unknown = []
    for domain in DOMAINS:
        by_domain[domain] = []
    for path in files:
        for entry in read_entries(path):
            if entry.key in seen:
                raise CatalogError(f"{folder}: message {entry.key!r} is in both "
                                   f"{seen[entry.key]} and {entry.source}")
            seen[entry.key] = entry.source
            domain = domain_of(entry.key)
            if domain is None:
                unknown.append(f"{entry.key} ({entry.source})")
            else:
                by_domain[domain].append(entry)
    if unknown:
        raise CatalogError(f"{folder}: no prefix of DOMAIN_PREFIXES (belote/i18n/catalog.py) "
                           f"names the domain of: {', '.join(unknown)}")
    # Within a domain: the domain's own file's entries first, then the others in load order.
    rank = {path.name: i for i, path in enumerate(files)}
    for domain, entries in by_domain.items():
        own = f"{domain}.po"
        entries.sort(key=lambda e: (e.source != own, rank[e.source]))
    return by_domain


def render(lang: str, domain: str, entries: list[Entry]) -> str:
    return header(lang, domain) + "".join(f"\n{entry.block}\n" for entry in entries)


def check_languages(plans: dict[str, dict[str, list[Entry]]]) -> None:
    """Every message in every language, non-empty: else nothing is written."""
    ids = {lang: {e.key: e for entries in plan.values() for e in entries}
           for lang, plan in plans.items()}
    every = set().union(*(set(keys) for keys in ids.values()))
    problems = []
    for lang, keys in ids.items():
        missing = sorted(every - set(keys))
        if missing:
            problems.append(f"{lang}: missing {', '.join(missing)}")
        empty = sorted(k for k, e in keys.items() if re.search(r'^msgstr ""\Z', e.block, re.M))
        if empty:
            problems.append(f"{lang}: empty translation of {', '.join(empty)}")
    if problems:
        raise CatalogError("every message must exist, translated, in every language (it es "
                           "fr en):\n  " + "\n  ".join(problems))


def plan(locale_dir: Path) -> dict[Path, str | None]:
    """What to write: ``{path: new text}`` (None: delete), only the files that change."""
    plans = {lang: sort_language(locale_dir / lang / "LC_MESSAGES") for lang in LANGUAGES}
    check_languages(plans)
    changes: dict[Path, str | None] = {}
    for lang, by_domain in plans.items():
        folder = locale_dir / lang / "LC_MESSAGES"
        wanted = {folder / f"{domain}.po": render(lang, domain, entries)
                  for domain, entries in by_domain.items() if entries}
        for path, text in wanted.items():
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                changes[path] = text
        for path in folder.glob("*.po"):
            if path not in wanted:
                changes[path] = None
    return changes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 listing the files that would change")
    parser.add_argument("--locale-dir", type=Path, default=LOCALE_DIR)
    args = parser.parse_args(argv)
    try:
        changes = plan(args.locale_dir)
    except CatalogError as error:
        print(f"catalog_domains: {error}", file=sys.stderr)
        return 2
    for path, text in sorted(changes.items()):
        what = "delete" if text is None else ("write" if path.exists() else "create")
        print(f"{what} {path.relative_to(args.locale_dir)}")
        if not args.check:
            if text is None:
                path.unlink()
            else:
                path.write_text(text, encoding="utf-8")
    if args.check and changes:
        print("catalogs not sorted by domain: run scripts/catalog_domains.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

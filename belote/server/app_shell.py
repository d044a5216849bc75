"""The room as an installable app on a phone: the web app manifest, and what the service
worker keeps (the app shell) under which version.

The shell is what a page needs besides its own HTML: the style sheets, the scripts, the
icons, and the page that says the room needs a connection (one per language).  Pages are
never kept: each carries the reader's name and their tables (private data), so they come
from the network only, and without it the offline page stands in
(``belote/server/templates/sw.js``, served by :mod:`belote.server.routes.phone`).

The version is a digest of everything the shell holds and of the worker's own source: a
deploy that changes any of them changes ``/sw.js``, which the browser then installs in a new
cache, dropping the old one.  It is computed once per process (the files do not change under
a running room) and is the same in every process of one deploy.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from belote.i18n import LANGUAGES, messages, translate

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"
SHELL_SUFFIXES = (".css", ".js", ".png")
# The templates the worker and the offline page are made from (their text is in the version).
WORKER_TEMPLATE = "sw.js"
OFFLINE_TEMPLATE = "offline.html"
MESSAGE_PREFIX = "web.phone."
# The colour of the browser's bar around the room, per theme (sala.css: the felt on the light
# theme, the page's background on the dark and high-contrast ones).
THEME_COLOURS = {"light": "#1d5e3a", "dark": "#15171a", "contrast": "#000000"}
BACKGROUND = "#ffffff"  # the splash screen behind the icon: the light theme's page
# (file name in STATIC/icons, size in px, purpose)
ICONS = (("icon-192.png", 192, "any"), ("icon-512.png", 512, "any"),
         ("icon-maskable-512.png", 512, "maskable"))


def offline_path(lang: str) -> str:
    return f"/offline/{lang}"


@cache
def shell_files(static: Path = STATIC) -> tuple[str, ...]:
    """The URL paths of the static files the worker keeps, sorted."""
    found = (p for p in static.rglob("*") if p.is_file() and p.suffix in SHELL_SUFFIXES)
    return tuple(sorted("/static/" + p.relative_to(static).as_posix() for p in found))


def shell(static: Path = STATIC) -> tuple[str, ...]:
    """Every path the worker caches when it installs: the static files and the offline
    page in each language."""
    return (*shell_files(static), *(offline_path(lang) for lang in LANGUAGES))


@cache
def version(static: Path = STATIC, templates: Path = TEMPLATES) -> str:
    """A digest of the shell's files, the worker's and the offline page's templates and the
    offline page's words in every language (16 hex digits)."""
    digest = hashlib.sha256()
    for path in shell_files(static):
        digest.update(path.encode() + b"\0")
        digest.update((static / path.removeprefix("/static/")).read_bytes())
    for name in (WORKER_TEMPLATE, OFFLINE_TEMPLATE):
        digest.update((templates / name).read_bytes())
    for lang in LANGUAGES:
        for key, text in sorted(messages(lang).items()):
            if key.startswith(MESSAGE_PREFIX + "offline."):
                digest.update(f"{lang}\0{key}\0{text}\0".encode())
    return digest.hexdigest()[:16]


def manifest(lang: str) -> dict[str, Any]:
    """The web app manifest, its words in ``lang`` (one of LANGUAGES)."""
    return {
        "id": "/",  # one app whatever the language of the manifest that installed it
        "name": translate(lang, "web.phone.app.name"),
        "short_name": translate(lang, "web.phone.app.short_name"),
        "description": translate(lang, "web.phone.app.description"),
        "lang": lang,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOURS["light"],
        "background_color": BACKGROUND,
        "categories": ["games"],
        "icons": [{"src": f"/static/icons/{name}", "sizes": f"{size}x{size}",
                   "type": "image/png", "purpose": purpose}
                  for name, size, purpose in ICONS],
    }


__all__ = ["ICONS", "THEME_COLOURS", "manifest", "offline_path", "shell", "shell_files",
           "version"]

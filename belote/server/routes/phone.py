"""The room on a phone: the web app manifest, the service worker and the offline page
(:mod:`belote.server.app_shell` says what they hold).

- ``/manifest.webmanifest?lang=xx``: the manifest, in the page's language (base.html links it
  with the reader's; the browser fetches it without cookies).
- ``/sw.js``: the service worker, at the root so that its scope is the whole room
  (``Service-Worker-Allowed: /`` says so too), never cached by HTTP (``no-cache``), so that a
  deploy reaches the phones at their next page.
- ``/offline/xx``: the page the worker shows when a page cannot be fetched.  It carries
  nobody's data (the worker fetches it without cookies), only the room's words.

None of them reads or changes the session: the worker's fetches must not take a page's
one-time message (``flash``) or sign anyone in.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from belote.i18n import LANGUAGES, translate
from belote.server.app_shell import THEME_COLOURS, manifest, offline_path, shell, version
from belote.server.routes.common import language
from belote.server.shared import shared

MANIFEST_TYPE = "application/manifest+json"
WORKER_HEADERS = {"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"}


async def web_manifest(request: Request) -> Response:
    asked = request.query_params.get("lang", "")
    lang = asked if asked in LANGUAGES else language(request)
    body = json.dumps(manifest(lang), ensure_ascii=False, indent=1)
    return Response(body, media_type=MANIFEST_TYPE, headers={"Cache-Control": "no-cache"})


async def service_worker(request: Request) -> Response:
    template = shared(request).templates.env.get_template("sw.js")
    source = template.render(version=version(), shell=list(shell()),
                             offline={lang: offline_path(lang) for lang in LANGUAGES})
    return Response(source, media_type="text/javascript", headers=WORKER_HEADERS)


async def offline_page(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        raise HTTPException(404)

    def t(key: str, **values: Any) -> str:
        return translate(lang, key, **values)

    page = shared(request).templates.env.get_template("offline.html").render(
        lang=lang, t=t, theme_colour=THEME_COLOURS["light"])
    return HTMLResponse(page, headers={"Cache-Control": "no-cache"})


routes = [Route("/manifest.webmanifest", web_manifest),
          Route("/sw.js", service_worker),
          Route("/offline/{lang}", offline_page)]

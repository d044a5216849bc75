"""Replays of finished matches: the page, the record as a JSON file, and the expert's
analysis of one card played.  A match still open is never served (its hands are hidden);
the heavy work (rendering, analysis) runs off the event loop (:mod:`belote.server.heavy`).
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator
from typing import Any

from markupsafe import Markup
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from belote.i18n import messages, translate
from belote.server.heavy import HeavyFailed
from belote.server.limits import Refusal
from belote.server.replay import DEALS_MARK, FRAMES_MARK, splice
from belote.server.replay_analysis import (
    AnalysisError,
    AnalysisUnavailable,
    StepError,
    analysis_json,
    count_steps,
    parse_step,
)
from belote.server.routes.access import may_replay
from belote.server.routes.common import address, language
from belote.server.routes.pages import JSON_PATHS, render
from belote.server.shared import shared

log = logging.getLogger(__name__)
PAGE_PREFIXES = ("replays.edge.", "replays.analysis.")  # the page script's sentences
HEAVY_RETRY = 1.0  # seconds: Retry-After when the heavy work failed


async def finished_record(request: Request) -> dict[str, Any] | Response:
    """The record of a FINISHED match, or the refusal to give (404: no such table;
    409: a match still open, whose replay, record and analysis are never served)."""
    table_id = int(request.path_params["table_id"])
    row = await shared(request).store.table(table_id)
    if row is None or row.status == "expired":  # expired: no match was ever played
        raise HTTPException(404)
    status, key = 0, ""
    if row.status != "finished" or row.record is None:
        status, key = (410, "error.web.broken") if row.status == "broken" else (
            409, "replays.error.unfinished")
    elif (daily := await shared(request).daily.replay_open(table_id)) is False:
        # A deal of the daily duplicate: hidden from everyone, its entrant too, until its
        # day closes; then open to all (belote/server/daily).
        status, key = 403, "web.daily.replay_hidden"
    elif daily is None and not await may_replay(request, table_id):
        status, key = 403, "error.web.private"
    if status:
        message = translate(language(request), key)
        if request.url.path.endswith(JSON_PATHS):
            return JSONResponse({"error": message}, status_code=status)
        return render(request, "error.html", status=status, message=message)
    assert row.record is not None
    return row.record


@contextlib.contextmanager
def _heavy_failed_is_503() -> Iterator[None]:
    """A heavy-work process lost with the job (logged and counted there): "try again"."""
    try:
        yield
    except HeavyFailed:
        raise Refusal(503, "limits.heavy_failed", HEAVY_RETRY) from None


async def replay_page(request: Request) -> Response:
    table_id = int(request.path_params["table_id"])
    record = await finished_record(request)
    if isinstance(record, Response):
        return record
    lang = language(request)
    with _heavy_failed_is_503():
        page = await shared(request).heavy.replay(table_id, record, lang, address(request))
    strings = {key.removeprefix("replays."): text for key, text in messages(lang).items()
               if key.startswith(PAGE_PREFIXES)}
    # The deals and the steps come escaped and encoded from the heavy-work process
    # (replay.py): the template is given marks, and the bytes are spliced in their places.
    response = render(request, "replay.html", table_id=table_id, deals=Markup(DEALS_MARK),
                      result=record["result"], players=record.get("players", []),
                      frames=Markup(FRAMES_MARK),
                      strings=json.dumps(strings, ensure_ascii=False))
    response.body = splice(bytes(response.body), page)
    response.headers["content-length"] = str(len(response.body))
    return response


async def replay_record(request: Request) -> Response:
    """The match record as a JSON file (rules, seats, every deck and action)."""
    table_id = int(request.path_params["table_id"])
    record = await finished_record(request)
    if isinstance(record, Response):
        return record
    with _heavy_failed_is_503():
        text = await shared(request).heavy.record(table_id, record, address(request))
    return Response(text, media_type="application/json", headers={
        "content-disposition": f'attachment; filename="belote-table-{table_id}.json"'})


async def replay_analysis(request: Request) -> Response:
    """GET ?step=K: the expert's analysis of the card played at step K (0: the first
    deal), from that player's information set; JSON."""
    table_id = int(request.path_params["table_id"])
    record = await finished_record(request)
    if isinstance(record, Response):
        return record
    lang = language(request)
    try:
        step = parse_step(request.query_params.get("step"), count_steps(record) - 1)
        analysis = await shared(request).heavy.analysis(table_id, record, step,
                                                          address(request))
    except StepError as error:
        return JSONResponse({"error": translate(
            lang, f"replays.error.{error.code}", **error.values)}, status_code=400)
    except AnalysisUnavailable as error:
        return JSONResponse({"error": translate(lang, "replays.error.no_analysis"),
                             "reason": str(error)}, status_code=422)
    except (AnalysisError, HeavyFailed) as error:
        log.warning("replay analysis of table %d failed: %s", table_id, error)
        return JSONResponse({"error": translate(lang, "replays.error.too_slow")},
                            status_code=503)
    return JSONResponse(analysis_json(analysis, step, record, lang))


routes = [
    Route("/replay/{table_id:id}", replay_page),
    Route("/replay/{table_id:id}.json", replay_record),
    Route("/replay/{table_id:id}/analysis", replay_analysis),
]

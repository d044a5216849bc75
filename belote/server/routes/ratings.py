"""The profile page of each account and the leaderboard of each preset.

Both are public (as a club's notice board): names, figures and ratings, nothing private.
Bots appear on every leaderboard as reference rows, said to be bots in words, never ranked.
"""

from __future__ import annotations

from typing import Any

from babel.numbers import format_decimal
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from belote.i18n import translate
from belote.rules import PRESETS
from belote.server.levels import seats_at
from belote.server.ratings.model import REFERENCE, shown
from belote.server.routes.common import language
from belote.server.routes.pages import error_page, render
from belote.server.shared import shared

DEFAULT_PRESET = "classic"
BOARD_SIZE = 100  # players listed per leaderboard


def rating_text(value: float, lang: str) -> str:
    """A rating as pages show it: one decimal, in the reader's own number format."""
    return str(format_decimal(round(value, 1), format="0.0", locale=lang))


def board_rows(standings: list[Any], lang: str, players: int = 4) -> list[dict[str, Any]]:
    """Ranked players and the reference rows of the bots that sit at a table of
    ``players``, merged by rating (bots unranked); then the players whose rating is still
    provisional, by rating, unranked (a lucky first win ranks nobody first)."""
    rows: list[dict[str, Any]] = [
        {"bot": False, "name": s.name, "value": s.rating, "matches": s.matches, "won": s.won,
         "provisional": s.provisional}
        for s in standings]
    for level, (mu, sigma) in REFERENCE.items():
        if not seats_at(level, players):
            continue
        rows.append({"bot": True, "value": shown(mu, sigma), "matches": None, "won": None,
                     "provisional": False,
                     "name": translate(lang, "ratings.board.bot",
                                       level=translate(lang, f"web.level.{level}"))})
    rows.sort(key=lambda r: (r["provisional"], -r["value"]))
    rank = 0
    for row in rows:
        if not row["bot"] and not row["provisional"]:
            rank += 1
            row["rank"] = rank
        row["rating"] = rating_text(row["value"], lang)
    return rows


async def profile(request: Request) -> Response:
    store = shared(request).ratings.store
    found = await store.account(str(request.path_params["name"]))
    if found is None:
        raise HTTPException(404)
    lang = language(request)
    stats = await store.profile(found[0])
    return render(request, "profile.html", player=found[1], player_id=found[0], stats=stats,
                  presets=list(PRESETS), played=sum(s.played for s in stats),
                  won=sum(s.won for s in stats),
                  rating=lambda v: rating_text(v, lang))


async def leaderboard(request: Request) -> Response:
    preset = request.query_params.get("preset", DEFAULT_PRESET)
    if preset not in PRESETS:
        return error_page(request, 400, "ratings.error.bad_preset")
    standings = await shared(request).ratings.store.leaderboard(preset, BOARD_SIZE)
    return render(request, "leaderboard.html", preset=preset, presets=list(PRESETS),
                  rows=board_rows(standings, language(request), PRESETS[preset].players),
                  rated=len(standings))


routes = [Route("/players/{name}", profile), Route("/leaderboard", leaderboard)]

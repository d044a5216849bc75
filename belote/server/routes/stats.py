"""Each account's statistics page: per preset, with humans and with bots apart, and by week
(a chart and the same figures as a table).

As public as the profile it extends: matches, wins, contracts, points.  The player alone
also sees their latest matches, each with what it did to their rating: a match the rule
against farming discounted or left unrated says so there (docs/ratings.md), never silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from babel.dates import format_date
from babel.numbers import format_decimal
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from belote.i18n import translate
from belote.rules import PRESETS
from belote.server.ratings.farming import WINDOW
from belote.server.ratings.stats import BOTS, HUMANS, Figures, RecentMatch, WeekFigures
from belote.server.routes.common import account, language, when
from belote.server.routes.pages import error_page, render
from belote.server.shared import shared

# The chart's drawing, in the SVG's own units (it scales to the page's width).
WIDTH, HEIGHT = 480, 240
TOP, BOTTOM, LEFT = 44, 40, 10
BAR = 22  # each of a week's two bars


@dataclass(frozen=True, slots=True)
class Bar:
    x: float
    y: float
    height: float
    value: int
    bots: bool  # drawn hatched (with humans: solid), and named in the legend


@dataclass(frozen=True, slots=True)
class Tick:
    x: float
    label: str


def per_hand(figures: Figures | None, lang: str) -> str:
    if figures is None or figures.per_hand is None:
        return "—"
    return str(format_decimal(round(figures.per_hand, 1), format="0.0", locale=lang))


def week_label(week: date, lang: str) -> str:
    return str(format_date(week, "d MMM", locale=lang))


def chart(weeks: list[WeekFigures], lang: str) -> tuple[list[Bar], list[Tick]]:
    """Two bars a week (matches with humans, with bots) and each week's label."""
    top = max([1, *(max(w.humans.matches, w.bots.matches) for w in weeks)])
    slot = (WIDTH - LEFT) / max(1, len(weeks))
    scale = (HEIGHT - TOP - BOTTOM) / top
    bars, ticks = [], []
    for n, w in enumerate(weeks):
        left = LEFT + n * slot + (slot - 2 * BAR) / 2
        for offset, value, bots in ((0, w.humans.matches, False), (BAR, w.bots.matches, True)):
            height = value * scale
            bars.append(Bar(left + offset, HEIGHT - BOTTOM - height, height, value, bots))
        ticks.append(Tick(left + BAR, week_label(w.week, lang)))
    return bars, ticks


def note(match: RecentMatch, lang: str) -> str:
    """What a match did to its player's rating, in words."""
    days = WINDOW.days
    if match.weight is None:  # not four accounts (or recorded before the rule)
        key = "web.stats.note.rated" if match.rated else "web.stats.note.not_four"
        return translate(lang, key)
    if match.weight == 0.0:
        return translate(lang, "web.stats.note.capped", k=match.repeat, days=days)
    if match.weight < 1.0:
        return translate(lang, "web.stats.note.half", k=match.repeat, days=days)
    return translate(lang, "web.stats.note.rated")


async def stats_page(request: Request) -> Response:
    features = shared(request).services
    found = await features.ratings.store.account(str(request.path_params["name"]))
    if found is None:
        raise HTTPException(404)
    player, name = found
    lang = language(request)
    summary = await features.stats.summary(player)
    played = sorted(summary, key=lambda p: -sum(f.matches for f in summary[p].values()))
    preset = request.query_params.get("preset") or (played[0] if played else "classic")
    if preset not in PRESETS:
        return error_page(request, 400, "ratings.error.bad_preset")
    weeks = await features.stats.weekly(player, preset)
    bars, ticks = chart(weeks, lang)
    own = account(request) == player
    recent = await features.stats.recent(player) if own else []
    return render(
        request, "stats.html", player=name, summary=summary, preset=preset,
        presets=list(PRESETS), weeks=weeks, bars=bars, ticks=ticks, own=own,
        recent=[(m, note(m, lang), when(m.recorded)) for m in recent],
        companies=(HUMANS, BOTS), width=WIDTH, height=HEIGHT, bar=BAR, base=HEIGHT - BOTTOM,
        per_hand=lambda f: per_hand(f, lang), week_label=lambda d: week_label(d, lang),
        total=sum(w.humans.matches + w.bots.matches for w in weeks))


routes = [Route("/players/{name}/stats", stats_page)]

"""`belote tournament`: run a tournament offline, on a laptop with no room.

The same core and store as the web room, on a local SQLite file (``--db``, migrated like the
room's database): create, register from a CSV, draw, change a game's line-up (seed 001's
substitution), record results (from the scorekeeper's CSV, ``belote score --csv-out``),
correct, adjust, close the round, standings, the seat codes, export.
Exit codes: 0 done, 1 refused (the reason is printed; nothing changed), 2 bad options.
"""

from __future__ import annotations

import asyncio
import csv
import io
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from belote.i18n import LANGUAGES, translate
from belote.scorekeeper import CsvError
from belote.tournament.events import Event, Tournament
from belote.tournament.export import write_results
from belote.tournament.formats import TournamentFormat, format_names
from belote.tournament.model import TournamentError
from belote.tournament.sheets import totals_from_csv
from belote.tournament.standings import standings
from belote.tournament.text import error_text, game_line, standing_line

if TYPE_CHECKING:  # the store needs the server extra: imported when a command runs
    from belote.server.tournament.service import Tournaments

app = typer.Typer(name="tournament", no_args_is_help=True, add_completion=False,
                  help="Run a tournament offline: create, register, draw, record, standings.")
R = TypeVar("R")
OFFLINE = "offline"  # who made a change, in the audit log

DB = typer.Option("tournament.db", "--db", help="The tournament's SQLite file.")
TID = typer.Option(1, "--id", help="The tournament in the file.")
LANG = typer.Option("en", "--lang", help="Language: it, es, fr or en.")


def _run(db: Path, lang: str, work: Callable[[Tournaments], Awaitable[R]]) -> R:
    if lang not in LANGUAGES:
        typer.echo(f"--lang: {' '.join(LANGUAGES)}", err=True)
        raise typer.Exit(2)

    from belote.server.persistence import Store
    from belote.server.tournament.service import Tournaments
    from belote.server.tournament.store import TournamentStore

    async def go() -> R:
        store = Store(f"sqlite:///{db}")
        await store.open()
        try:
            return await work(Tournaments(TournamentStore(store.engine)))
        finally:
            await store.close()
    try:
        return asyncio.run(go())
    except TournamentError as error:
        typer.echo(error_text(lang, error), err=True)
        raise typer.Exit(1) from None
    except CsvError as error:
        typer.echo(str(error), err=True)
        raise typer.Exit(1) from None


@app.command("create")
def create_command(
    name: str = typer.Option(..., "--name"),
    fmt: str = typer.Option(format_names()[0], "--format", help=", ".join(format_names())),
    preset: str = typer.Option("pinasca", "--preset"),
    target: int = typer.Option(1500, "--target"),
    rounds: int = typer.Option(3, "--rounds"),
    deals: int | None = typer.Option(None, "--deals", help="A fixed number of deals a game."),
    rank_by: str = typer.Option("wins", "--rank-by", help="wins or points."),
    bye_points: int = typer.Option(0, "--bye-points", help="The stated score of a bye."),
    db: Path = DB, lang: str = LANG,
) -> None:
    """Create a tournament in the file."""
    data: dict[str, Any] = {"name": name, "format": fmt, "preset": preset, "target": target,
                            "rounds": rounds, "deals": deals, "rank_by": rank_by,
                            "bye_points": bye_points}
    tid = _run(db, lang, lambda ts: ts.create(data, OFFLINE))
    typer.echo(translate(lang, "tournament.cli.created", id=tid, name=name))


def read_entrants(text: str, fmt: TournamentFormat) -> list[list[dict[str, Any]]]:
    """Registrations from CSV text: ``name,player1,player2,club`` (a single player, as in
    a mêlée: ``name`` or ``player1``); where entrants register together (a Pinasca
    neighbourhood's two pairs), the rows with the same ``club`` are one registration."""
    rows = [{(k or "").strip().lower(): (v or "").strip() for k, v in row.items()}
            for row in csv.DictReader(io.StringIO(text))]
    entrants = []
    for row in rows:
        players = [row[k] for k in ("player1", "player2") if row.get(k)]
        if fmt.players_per_entrant == 1 and not players:
            players = [row.get("name", "")]
        entrants.append({"name": row.get("name") or " & ".join(players), "players": players,
                         "club": row.get("club") or None, "checked_in": True})
    if fmt.group_size == 1:
        return [[e] for e in entrants]
    clubs: dict[str, list[dict[str, Any]]] = {}
    for e in entrants:
        clubs.setdefault(str(e["club"] or ""), []).append(e)
    return list(clubs.values())


@app.command("register")
def register_command(csv_file: Path = typer.Argument(..., exists=True, dir_okay=False),
                     db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Register the entrants of a CSV (name, player1, player2, club), all checked in."""
    text = csv_file.read_text(encoding="utf-8-sig")

    async def work(ts: Tournaments) -> int:
        t = await ts.get(tid)
        groups = read_entrants(text, t.fmt)
        for group in groups:  # check every row before storing any
            t.check(_registered(group))
        for group in groups:
            await ts.change(tid, "registered", {"entrants": group}, OFFLINE)
        return sum(len(g) for g in groups)
    count = _run(db, lang, work)
    typer.echo(translate(lang, "tournament.cli.registered", count=count))


def _registered(group: list[dict[str, Any]]) -> Event:
    return Event("registered", {"entrants": group})


@app.command("draw")
def draw_command(db: Path = DB, tid: int = TID, lang: str = LANG,
                 seed: int | None = typer.Option(None, "--seed")) -> None:
    """Draw the next round and print its tables."""
    import random

    async def work(ts: Tournaments) -> Tournament:
        if seed is not None:
            ts.rng = random.Random(seed)
        return await ts.draw(tid, OFFLINE)
    t = _run(db, lang, work)
    assert t.current is not None
    typer.echo(translate(lang, "tournament.cli.drawn", round=t.current.number))
    for game in t.current.games:
        typer.echo(game_line(lang, t, game))


@app.command("record")
def record_command(game: int = typer.Argument(...),
                   totals: tuple[int, int] | None = typer.Option(None, "--totals"),
                   sheet: Path | None = typer.Option(None, "--csv", exists=True,
                                                     help="The scorekeeper's CSV of the game."),
                   db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Record a game's match totals, typed or from the scorekeeper's CSV."""
    if (totals is None) == (sheet is None):
        typer.echo(translate(lang, "tournament.cli.totals_or_csv"), err=True)
        raise typer.Exit(2)

    async def work(ts: Tournaments) -> Tournament:
        t = await ts.get(tid)
        if sheet is not None:
            with sheet.open(encoding="utf-8-sig") as stream:
                both = list(totals_from_csv(stream, t.s))
            await ts.record(tid, game, both, "csv", OFFLINE)
        else:
            assert totals is not None
            await ts.record(tid, game, list(totals), "entry", OFFLINE)
        return await ts.get(tid)
    t = _run(db, lang, work)
    typer.echo(game_line(lang, t, t.game(game)))


@app.command("lineup")
def lineup_command(game: int = typer.Argument(...),
                   players: list[str] = typer.Argument(
                       ..., help="The four players seated: the first side's two, then the "
                                 "second side's two."),
                   db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Change the players seated at a game, before its result; kept in the audit log.

    Seed 001: "Dopo ogni partita si possono sostituire ... i componenti della squadra".
    """
    if len(players) != 4:
        typer.echo(translate(lang, "tournament.error.bad_lineup"), err=True)
        raise typer.Exit(2)

    async def work(ts: Tournaments) -> Tournament:
        await ts.change(tid, "lineup", {"game": game, "lineup": [players[:2], players[2:]]},
                        OFFLINE)
        return await ts.get(tid)
    t = _run(db, lang, work)
    seated = t.game(game).lineup
    typer.echo(translate(lang, "tournament.cli.lineup", game=game, a=" & ".join(seated[0]),
                         b=" & ".join(seated[1])))


@app.command("codes")
def codes_command(db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Print the current round's seat codes.

    A code identifies its player to score a game or take their seat online (the file
    served with `belote serve`).
    """
    from belote.tournament.codes import shown

    t = _run(db, lang, lambda ts: ts.get(tid))
    seats = (("seat.north", "seat.south"), ("seat.east", "seat.west"))
    for game in t.current.games if t.current else []:
        for side_no, side in enumerate(game.lineup):
            for seat_no, player in enumerate(side):
                code = game.codes[side_no][seat_no] if game.codes else "-"
                typer.echo(translate(lang, "tournament.cli.codes", game=game.id,
                                     seat=translate(lang, seats[side_no][seat_no]),
                                     player=player, code=shown(code) if game.codes else code))


@app.command("correct")
def correct_command(game: int = typer.Argument(...),
                    totals: tuple[int, int] = typer.Option(..., "--totals"),
                    reason: str = typer.Option(..., "--reason"),
                    db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Correct a recorded result, with a reason (kept in the audit log)."""
    async def work(ts: Tournaments) -> Tournament:
        await ts.change(tid, "corrected", {"game": game, "totals": list(totals),
                                           "reason": reason}, OFFLINE)
        return await ts.get(tid)
    t = _run(db, lang, work)
    typer.echo(game_line(lang, t, t.game(game)))


@app.command("adjust")
def adjust_command(subject: str = typer.Argument(..., help="The neighbourhood or entrant."),
                   points: int = typer.Argument(...),
                   reason: str = typer.Option(..., "--reason"),
                   db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Adjust ranking points, with a reason (seed 001: Girandola, Framasun)."""
    _run(db, lang, lambda ts: ts.change(tid, "adjusted", {"subject": subject, "points": points,
                                                          "reason": reason}, OFFLINE))
    typer.echo(translate(lang, "tournament.cli.adjusted", subject=subject, points=points))


@app.command("close")
def close_command(db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Close the current round (every table must have its result)."""
    async def work(ts: Tournaments) -> int:
        t = await ts.get(tid)
        number = t.current.number if t.current else 0
        await ts.change(tid, "closed", {"round": number}, OFFLINE)
        return number
    number = _run(db, lang, work)
    typer.echo(translate(lang, "tournament.cli.closed", round=number))


@app.command("standings")
def standings_command(db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Print the standings."""
    t = _run(db, lang, lambda ts: ts.get(tid))
    typer.echo(t.s.name)
    for line in standings(t):
        typer.echo(standing_line(lang, t, line))


@app.command("export")
def export_command(out: Path | None = typer.Argument(None, help="CSV file (else stdout)."),
                   db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Export every result as CSV."""
    t = _run(db, lang, lambda ts: ts.get(tid))
    if out is None:
        write_results(t, sys.stdout, lang)
    else:
        with out.open("w", encoding="utf-8", newline="") as stream:
            write_results(t, stream, lang)


# ---------------------------------------------------------------- entrants on the day, undo,
# tie-breaks (issue 24, items 5 and 8): each command is one event of the log, refused with
# the reason and nothing changed (exit 1).
ENTRANT = typer.Argument(..., help="The entrant: its number or its name.")


def _entrant_id(t: Tournament, entrant: str) -> int:
    """An entrant named by the organiser, by its number or its exact name."""
    if entrant.strip().isdigit():
        return t.entrant(int(entrant)).id
    for found in t.entrants.values():
        if found.name == entrant:
            return found.id
    raise TournamentError("no_entrant", entrant=entrant)


def _entrant_change(db: Path, tid: int, lang: str, kind: str, entrant: str,
                    **extra: Any) -> tuple[Tournament, Event]:
    """The change, and the tournament before it (where a removed entrant still is)."""
    async def work(ts: Tournaments) -> tuple[Tournament, Event]:
        t = await ts.get(tid)
        event = await ts.change(tid, kind, {"entrant": _entrant_id(t, entrant), **extra},
                                OFFLINE)
        return t, event
    return _run(db, lang, work)


@app.command("withdraw")
def withdraw_command(entrant: str = ENTRANT,
                     reason: str = typer.Option("", "--reason", help="Why (optional)."),
                     db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Withdraw an entrant from the next draw on: its games stay, it stays in the
    standings (marked), it is not drawn again unless reinstated."""
    t, event = _entrant_change(db, tid, lang, "withdrawn", entrant, reason=reason)
    typer.echo(translate(lang, "tournament.cli.withdrawn", name=t.entrant(
        event.data["entrant"]).name, round=event.data["round"]))


@app.command("reinstate")
def reinstate_command(entrant: str = ENTRANT, db: Path = DB, tid: int = TID,
                      lang: str = LANG) -> None:
    """Reinstate a withdrawn entrant: drawn again from the next draw."""
    t, event = _entrant_change(db, tid, lang, "reinstated", entrant)
    typer.echo(translate(lang, "tournament.cli.reinstated",
                         name=t.entrant(event.data["entrant"]).name))


@app.command("remove")
def remove_command(entrant: str = ENTRANT, db: Path = DB, tid: int = TID,
                   lang: str = LANG) -> None:
    """Remove an entrant before the first draw (a duplicate entry disappears; a Pinasca
    pair takes its neighbourhood with it)."""
    _, event = _entrant_change(db, tid, lang, "removed", entrant)
    typer.echo(translate(lang, "tournament.cli.removed", names=", ".join(event.data["names"])))


@app.command("reserve")
def reserve_command(entrant: str = ENTRANT, db: Path = DB, tid: int = TID,
                    lang: str = LANG) -> None:
    """Put an entrant that has not played into the reserve pool: not drawn until promoted."""
    t, event = _entrant_change(db, tid, lang, "reserve", entrant)
    typer.echo(translate(lang, "tournament.cli.reserve",
                         name=t.entrant(event.data["entrant"]).name))


@app.command("promote")
def promote_command(entrant: str = ENTRANT, db: Path = DB, tid: int = TID,
                    lang: str = LANG) -> None:
    """Promote a reserve (to fill an odd count or replace a withdrawal): drawn from the
    next draw; rounds already played count as a late entry's (the tournament's rule)."""
    t, event = _entrant_change(db, tid, lang, "promoted", entrant)
    typer.echo(translate(lang, "tournament.cli.promoted",
                         name=t.entrant(event.data["entrant"]).name, round=event.data["round"]))


@app.command("late")
def late_command(players: list[str] = typer.Argument(..., help="The entrant's players."),
                 name: str = typer.Option("", "--name", help="The entrant's name."),
                 db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Register an entrant after the first draw: drawn from the next draw; the rounds it
    missed score nothing unless the tournament counts them as byes (`configure`)."""
    async def work(ts: Tournaments) -> Event:
        return await ts.change(tid, "late_entry", {"entrants": [
            {"name": name, "players": players}]}, OFFLINE)
    event = _run(db, lang, work)
    typer.echo(translate(lang, "tournament.cli.late", name=event.data["entrants"][0]["name"],
                         round=event.data["round"]))


@app.command("undo")
def undo_command(what: str = typer.Argument(..., help="draw (the last draw, before any "
                                                      "result) or close (the last close)."),
                 reason: str = typer.Option(..., "--reason"),
                 db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Undo the last draw or the last round's close, with a reason (kept in the audit
    log)."""
    kinds = {"draw": ("undrawn", "tournament.cli.undrawn"),
             "close": ("reopened", "tournament.cli.reopened")}
    if what not in kinds:
        typer.echo("undo: draw, close", err=True)
        raise typer.Exit(2)
    kind, said = kinds[what]

    async def work(ts: Tournaments) -> int:
        t = await ts.get(tid)
        number = t.current.number if t.current else 0
        await ts.change(tid, kind, {"round": number, "reason": reason}, OFFLINE)
        return number
    typer.echo(translate(lang, said, round=_run(db, lang, work)))


@app.command("tiebreaks")
def tiebreaks_command(
        names: list[str] | None = typer.Argument(
            None, help="In order, from: buchholz, median_buchholz, point_difference, "
                       "head_to_head, lot; 'none' for none; nothing: show them."),
        db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Show or choose the tie-breaks, in order (a drawing of lots is seeded once, the seed
    recorded)."""
    import secrets

    from belote.tournament.events import MAX_SEED

    async def work(ts: Tournaments) -> tuple[str, ...]:
        t = await ts.get(tid)
        if names:
            chosen = [] if names == ["none"] else list(names)
            seed = t.s.lot_seed
            if seed is None and "lot" in chosen:
                seed = secrets.randbelow(MAX_SEED + 1)
            await ts.change(tid, "configured", {"tiebreaks": chosen, "lot_seed": seed},
                            OFFLINE)
            t = await ts.get(tid)
        return t.fmt.tiebreaks(t)
    chosen = _run(db, lang, work)
    if chosen:
        typer.echo(translate(lang, "tournament.cli.tiebreaks", names=", ".join(
            translate(lang, f"tournament.tiebreak.{name}") for name in chosen)))
    else:
        typer.echo(translate(lang, "tournament.cli.tiebreaks_none"))


@app.command("configure")
def configure_command(
        check_in: str | None = typer.Option(None, "--check-in", help="on, off or format."),
        late_rule: str | None = typer.Option(None, "--late-rule", help="zero or bye: what a "
                                             "late entry's missed rounds count."),
        best_of: int | None = typer.Option(None, "--best-of", help="1 or 3 (before the first "
                                           "draw)."),
        db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Change the day's settings: check-in (any format, Pinasca included), the late
    entries' rule, best-of-3."""
    change: dict[str, Any] = {}
    if check_in is not None:
        change["check_in"] = {"on": True, "off": False, "format": None}.get(check_in, check_in)
    if late_rule is not None:
        change["late_rule"] = late_rule
    if best_of is not None:
        change["best_of"] = best_of
    _run(db, lang, lambda ts: ts.change(tid, "configured", change, OFFLINE))
    typer.echo(translate(lang, "tournament.cli.configured"))

"""`belote tournament`: run a tournament offline, on a laptop with no room.

The same core and store as the web room, on a local SQLite file (``--db``, migrated like the
room's database): create, register from a CSV, draw, change a game's line-up (seed 001's
substitution), record results (from the scorekeeper's CSV, ``belote score --csv-out``),
correct, adjust, close the round, standings, the seat codes, export (results, standings,
ranking points, prizes; commas or semicolons), the audit log in words, the prize list and
the season ranking.
Exit codes: 0 done, 1 refused (the reason is printed; nothing changed), 2 bad options (a
``--db`` file that does not exist is one: only ``create`` makes a new file).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from belote.i18n import LANGUAGES, join_list, translate
from belote.scorekeeper import CsvError
from belote.tournament.events import Event, Tournament
from belote.tournament.formats import format_names
from belote.tournament.model import TournamentError
from belote.tournament.registration import LineError, decode, read_registrations
from belote.tournament.sheets import totals_from_csv
from belote.tournament.standings import standings
from belote.tournament.text import error_text, game_line, standing_line

if TYPE_CHECKING:  # the store needs the server extra: imported when a command runs
    from belote.server.tournament.seasons import SeasonStore
    from belote.server.tournament.service import Tournaments

app = typer.Typer(name="tournament", no_args_is_help=True, add_completion=False,
                  help="Run a tournament offline: create, register, draw, record, standings.")
R = TypeVar("R")
OFFLINE = "offline"  # who made a change, in the audit log

DB = typer.Option("tournament.db", "--db", help="The tournament's SQLite file.")
TID = typer.Option(1, "--id", help="The tournament in the file.")
LANG = typer.Option("en", "--lang", help="Language: it, es, fr or en.")


def _run(db: Path, lang: str, work: Callable[[Tournaments], Awaitable[R]],
         create: bool = False) -> R:
    if lang not in LANGUAGES:
        typer.echo(f"--lang: {' '.join(LANGUAGES)}", err=True)
        raise typer.Exit(2)
    if not create and not db.is_file():
        # A mistyped --db would otherwise become a new, empty tournament file.
        typer.echo(translate(lang, "tournament.cli.no_file", path=str(db)), err=True)
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
    from sqlalchemy.exc import OperationalError

    try:
        return asyncio.run(go())
    except OperationalError as error:  # the file locked by another writer at its opening
        if "locked" not in str(error.orig) and "busy" not in str(error.orig):
            raise
        typer.echo(error_text(lang, TournamentError("busy")), err=True)
        raise typer.Exit(1) from None
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
    tid = _run(db, lang, lambda ts: ts.create(data, OFFLINE), create=True)
    typer.echo(translate(lang, "tournament.cli.created", id=tid, name=name))


@app.command("register")
def register_command(csv_file: Path = typer.Argument(..., exists=True, dir_okay=False),
                     encoding: str | None = typer.Option(
                         None, "--encoding", help="The file's encoding if not UTF-8: cp1252 "
                                                  "(an old Excel's CSV) or latin-1."),
                     db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Register the entrants of a CSV (name, player1, player2, club; commas or semicolons),
    all checked in.  A file refused at any line registers nobody."""
    raw = csv_file.read_bytes()

    async def work(ts: Tournaments) -> int:
        t = await ts.get(tid)
        registrations = read_registrations(decode(raw, encoding), t.fmt)
        after = t.copy()
        for item in registrations:  # every line checked, in order, before anything is stored
            try:
                after.apply(after.check(Event("registered", {"entrants": item.entrants})))
            except TournamentError as error:
                raise LineError(item.line, error) from None
        await ts.change_all(tid, [("registered", {"entrants": item.entrants})
                                  for item in registrations], OFFLINE)
        return sum(len(item.entrants) for item in registrations)
    count = _run(db, lang, work)
    typer.echo(translate(lang, "tournament.cli.registered", count=count))


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
            await ts.record(tid, game, list(totals), "console", OFFLINE)  # typed in
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


# "adjust Centro -1": a negative number is the points, not an option.
@app.command("adjust", context_settings={"ignore_unknown_options": True})
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


# ---------------------------------------------------------------- exports, log, prizes, season
SEP = typer.Option("comma", "--sep", help="Separator: comma or semicolon (an Italian, French "
                                          "or Spanish spreadsheet expects semicolons).")
BOM = typer.Option(False, "--bom", help="Lead the file with a UTF-8 byte order mark (Excel).")


@app.command("export")
def export_command(out: Path | None = typer.Argument(None, help="CSV file (else stdout)."),
                   what: str = typer.Option("results", "--what",
                                            help="results, standings, points or prizes."),
                   sep: str = SEP, bom: bool = BOM,
                   db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Export every result (or the standings, the ranking points, the prizes) as CSV."""
    from belote.tournament.export import DELIMITERS, EXPORTS, csv_text

    if what not in EXPORTS or sep not in DELIMITERS:
        typer.echo(f"--what: {', '.join(EXPORTS)}; --sep: {', '.join(DELIMITERS)}", err=True)
        raise typer.Exit(2)
    t = _run(db, lang, lambda ts: ts.get(tid))
    text = csv_text(EXPORTS[what], t, lang, DELIMITERS[sep], bom)
    if out is None:
        sys.stdout.write(text)
    else:
        with out.open("w", encoding="utf-8", newline="") as stream:
            stream.write(text)


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
        reason: str = typer.Option("", "--reason", help="Why (needed once results are "
                                   "in; recorded)."),
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
            change: dict[str, Any] = {"tiebreaks": chosen, "lot_seed": seed}
            if reason.strip():
                change["reason"] = reason
            await ts.change(tid, "configured", change, OFFLINE)
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
        reason: str = typer.Option("", "--reason", help="Why (needed to change the late "
                                   "rule once results are in; recorded)."),
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
    if reason.strip():
        change["reason"] = reason
    _run(db, lang, lambda ts: ts.change(tid, "configured", change, OFFLINE))
    typer.echo(translate(lang, "tournament.cli.configured"))


@app.command("log")
def log_command(db: Path = DB, tid: int = TID, lang: str = LANG) -> None:
    """Print the audit log in words: every change, who made it and when (this machine's
    local time), in the language asked; never a seat code."""
    from belote.tournament.audit_words import log_lines

    t = _run(db, lang, lambda ts: ts.get(tid))
    for line in log_lines(lang, t):
        typer.echo(line)


@app.command("prizes")
def prizes_command(
    place: list[str] = typer.Option([], "--place", help='"1=A ham": the prize of a place.'),
    category: list[str] = typer.Option([], "--category", help='"mixed=A bottle": a '
                                       "category's prize (best_pair, best_neighbourhood, "
                                       "mixed, ladies, youth, newcomers, local)."),
    eligible: list[str] = typer.Option([], "--eligible", help='"mixed=Lupi A": an entrant '
                                       "the category covers (repeat it)."),
    cumulative: bool = typer.Option(False, "--cumulative",
                                    help="One winner may take several prizes."),
    withdrawn: bool = typer.Option(False, "--withdrawn",
                                   help="Withdrawn entrants may take prizes (skipped "
                                        "otherwise)."),
    db: Path = DB, tid: int = TID, lang: str = LANG,
) -> None:
    """Set the prize list (with --place/--category), then print who takes each prize."""
    from belote.tournament.export import prize_label
    from belote.tournament.prizes import awards

    def split(items: list[str]) -> list[tuple[str, str]]:
        pairs = [item.partition("=") for item in items]
        if any(not sep for _, sep, _ in pairs):
            typer.echo(translate(lang, "tournament.cli.prize_syntax"), err=True)
            raise typer.Exit(2)
        return [(k.strip(), v.strip()) for k, _, v in pairs]

    places, categories, marked = split(place), split(category), split(eligible)

    async def work(ts: Tournaments) -> Tournament:
        t = await ts.get(tid)
        if places or categories:
            by_name = {e.name: e.id for e in t.entrants.values()}
            prizes: list[dict[str, Any]] = []
            for number, text in places:
                if not number.isdecimal():
                    raise TournamentError("bad_prize_place", limit=100)
                prizes.append({"place": int(number), "prize": text})
            for name, text in categories:
                ids = []
                for cat, entrant in marked:
                    if cat == name:
                        if entrant not in by_name:
                            raise TournamentError("no_entrant", entrant=entrant)
                        ids.append(by_name[entrant])
                prizes.append({"category": name, "prize": text, "eligible": ids})
            await ts.change(tid, "prizes", {"prizes": prizes, "cumulative": cumulative,
                                            "withdrawn": withdrawn}, OFFLINE)
        return await ts.get(tid)
    t = _run(db, lang, work)
    for award in awards(t, t.prizes):
        typer.echo(translate(lang, "tournament.cli.prize", label=prize_label(
            lang, award.prize.place, award.prize.category), prize=award.prize.prize,
            winners=join_list(award.winners, lang) or translate(lang, "tournament.prize.none")))


season_app = typer.Typer(name="season", no_args_is_help=True,
                         help="A season: players ranked across tournaments by points per "
                              "place (Grand Prix style).")
app.add_typer(season_app)


@season_app.command("create")
def season_create(name: str = typer.Option(..., "--name"),
                  points: str = typer.Option("25,20,16,13,11,10,9,8,7,6,5,4,3,2,1", "--points",
                                             help="Points of the 1st, 2nd ... place."),
                  others: int = typer.Option(0, "--others", help="Points of a place below."),
                  db: Path = DB, lang: str = LANG) -> None:
    """Create a season in the file (it may be the file of its first tournament)."""
    from belote.tournament.season import parse_points

    data = {"name": name, "points": [], "others": others}

    async def work(ts: Tournaments) -> int:
        data["points"] = parse_points(points)
        return await _seasons(ts).create(data, OFFLINE)
    sid = _run(db, lang, work, create=True)
    typer.echo(translate(lang, "tournament.cli.season_created", id=sid, name=name))


@season_app.command("add")
def season_add(season: int = typer.Argument(...), tournament: int = typer.Argument(...),
               db: Path = DB, lang: str = LANG) -> None:
    """Count a tournament of the file in the season (once finished)."""
    async def work(ts: Tournaments) -> None:
        await ts.get(tournament)  # it exists
        await _seasons(ts).add(season, tournament)
    _run(db, lang, work)
    typer.echo(translate(lang, "tournament.cli.season_added", season=season,
                         tournament=tournament))


@season_app.command("merge")
def season_merge(season: int = typer.Argument(...),
                 player: str = typer.Argument(..., help="A player as listed (name:... or "
                                                        "account:...)."),
                 into: str = typer.Argument(..., help="The player they are the same as."),
                 db: Path = DB, lang: str = LANG) -> None:
    """Say that two players of the season are one person (a name is not an identity: two
    spellings of one person are two players until merged)."""
    _run(db, lang, lambda ts: _seasons(ts).merge(season, player, into))
    typer.echo(translate(lang, "tournament.cli.season_merged", player=player, into=into))


@season_app.command("show")
def season_show(season: int = typer.Argument(...), db: Path = DB, lang: str = LANG) -> None:
    """Print the season's ranking (each player with the identity a merge names)."""
    from belote.server.tournament.seasons import season_ranking

    found = _run(db, lang, lambda ts: season_ranking(_seasons(ts), ts, season))
    typer.echo(found[0].name)
    for line in found[1]:
        typer.echo(translate(lang, "tournament.cli.season_line", place=line.place,
                             name=line.name, points=line.points, events=len(line.results),
                             identity=line.identity))
        if line.namesake:  # kept apart from a namesake of one tournament: merge by hand
            typer.echo("   " + translate(lang, "tournament.season.namesake",
                                         tournament=line.namesake[0],
                                         entrant=line.namesake[1]))
    if any(line.namesake for line in found[1]):
        typer.echo(translate(lang, "tournament.season.namesakes_note"))


def _seasons(ts: Tournaments) -> SeasonStore:
    from belote.server.tournament.seasons import SeasonStore

    return SeasonStore(ts.store.engine)

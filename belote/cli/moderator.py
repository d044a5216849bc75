"""`belote moderator add|remove|list|lift`: the room's moderators, a role on accounts, and
the lifting of a moderator's action from the command line.

Run beside the room, on its database (``--db``, as ``belote serve``): the role and the actions
in force are read from the database at each page and action, so a change holds at once in
every process.  An account is named by its exact name, looked up once here and then acted on
by its id.  ``lift`` is the way back when no moderator can sign in to lift an action (the web
page refuses actions on moderators, but an account may have been sanctioned before it was
given the role); it is audited like a lift on the moderation page, as the command line's.
Exit codes: 0 done, 1 refused (no such account; already one; not one; nothing to lift),
2 bad options.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeVar

import typer

from belote.i18n import LANGUAGES, translate
from belote.server.config import DEFAULT_DB

if TYPE_CHECKING:  # the store needs the server extra: imported when a command runs
    from belote.server.moderation.store import ModerationStore

app = typer.Typer(name="moderator", no_args_is_help=True, add_completion=False,
                  help="The room's moderators: add, remove, list; lift an action.")
R = TypeVar("R")
DB = typer.Option(DEFAULT_DB, "--db",
                  help="The room's database: sqlite:///FILE or postgresql://USER@HOST/DB.")
LANG = typer.Option("en", "--lang", help="Language: it, es, fr or en.")


def _run(db: str, lang: str, work: Callable[[ModerationStore], Awaitable[R]]) -> R:
    if lang not in LANGUAGES:
        typer.echo(f"--lang: {' '.join(LANGUAGES)}", err=True)
        raise typer.Exit(2)
    from belote.server.moderation.store import ModerationStore
    from belote.server.persistence import Store
    from belote.server.persistence.store import async_url

    try:
        async_url(db)
    except ValueError as error:
        typer.echo(str(error), err=True)
        raise typer.Exit(2) from None

    async def go() -> R:
        store = Store(db)
        await store.open()  # migrated to the head, as the room does
        try:
            return await work(ModerationStore(store.engine))
        finally:
            await store.close()
    return asyncio.run(go())


def _change(name: str, db: str, lang: str, grant: bool) -> None:
    async def work(store: ModerationStore) -> str:
        found = await store.account_named(name)
        if found is None:
            return "no_account"
        if grant:
            return "added" if await store.grant(found[0], datetime.now(UTC)) else "already"
        return "removed" if await store.revoke(found[0]) else "not_one"

    outcome = _run(db, lang, work)
    text = translate(lang, f"web.moderation.cli.{outcome}", name=name)
    if outcome in ("added", "removed"):
        typer.echo(text)
        return
    typer.echo(text, err=True)
    raise typer.Exit(1)


@app.command("add")
def add_command(name: str = typer.Argument(..., help="The account's exact name."),
                db: str = DB, lang: str = LANG) -> None:
    """Make an account a moderator."""
    _change(name, db, lang, grant=True)


@app.command("remove")
def remove_command(name: str = typer.Argument(..., help="The account's exact name."),
                   db: str = DB, lang: str = LANG) -> None:
    """Take the moderator's role from an account."""
    _change(name, db, lang, grant=False)


@app.command("list")
def list_command(db: str = DB, lang: str = LANG) -> None:
    """The moderators, by name, with when each was made one."""
    found = _run(db, lang, lambda store: store.moderators())
    if not found:
        typer.echo(translate(lang, "web.moderation.cli.none"))
    for _account, name, granted in found:
        typer.echo(translate(lang, "web.moderation.cli.line", name=name,
                             since=granted.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")))


@app.command("lift")
def lift_command(
        name: str = typer.Argument(..., help="The account's exact name."),
        reason: str = typer.Option(..., "--reason",
                                   help="Why it is lifted (kept in the moderators' log)."),
        sanction: int | None = typer.Option(
            None, "--action", help="Only this action, by its number on the moderation page "
                                   "(else every action in force on the account)."),
        db: str = DB, lang: str = LANG) -> None:
    """Lift a moderator's actions in force on an account (a ban, a suspension, a mute...)."""
    from belote.server.moderation.service import TEXT_MAX, ModerationError, clean_text
    from belote.server.moderation.store import SANCTION_KINDS, Sanction

    try:
        words = clean_text(reason)  # as a reason given on the moderation page
    except ModerationError:
        words = ""  # too long
    if not words:
        typer.echo(translate(lang, "modfix.cli.bad_reason", most=TEXT_MAX), err=True)
        raise typer.Exit(2)

    async def work(store: ModerationStore) -> list[Sanction] | None:
        found = await store.account_named(name)
        if found is None:
            return None
        now = datetime.now(UTC)
        lifted = []
        for standing in await store.in_force(found[0], SANCTION_KINDS, now):
            if sanction is None or standing.id == sanction:
                done = await store.lift(standing.id, None, words, now)
                if done is not None:  # (lifted on the page meanwhile: nothing to say)
                    lifted.append(done)
        return lifted

    outcome = _run(db, lang, work)
    if outcome is None:
        typer.echo(translate(lang, "web.moderation.cli.no_account", name=name), err=True)
        raise typer.Exit(1)
    if not outcome:
        typer.echo(translate(lang, "modfix.cli.nothing", name=name), err=True)
        raise typer.Exit(1)
    for done in outcome:
        typer.echo(translate(lang, "modfix.cli.lifted", name=name, id=done.id,
                             what=translate(lang, f"web.moderation.audit.{done.kind}")))

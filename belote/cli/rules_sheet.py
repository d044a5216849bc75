"""`belote rules PRESET`: print the rule sheet the engine enforces, in it, es, fr or en."""

from __future__ import annotations

import typer

from belote.i18n.sheet import rule_sheet
from belote.rules import find_preset
from belote.rules.flags import rules_with_flags

USAGE_ERROR = 2


def rules_command(
    preset: str = typer.Argument(
        ..., help="Rules preset: classic, pinasca, italian, valdostana or coinche."
    ),
    lang: str = typer.Option("en", "--lang", help="Language: it, es, fr or en."),
    flag: list[str] | None = typer.Option(
        None,
        "--flag",
        help="Change a rule flag, NAME=VALUE (repeatable). Nested groups take dotted names "
        "(auction.support_calls=false); values are JSON or plain words.",
    ),
) -> None:
    """Print the rule sheet of a preset, with any flags changed, generated from the rules."""
    try:
        rules = rules_with_flags(find_preset(preset), flag or [])
        text = rule_sheet(rules, lang)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(USAGE_ERROR) from None
    typer.echo(text, nl=False)

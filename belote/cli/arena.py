"""`belote arena A B`: two bots on duplicate deals, mean margin per deal with a 95% CI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from belote.i18n import LANGUAGES, translate
from belote.oracles.presets import arena_rules
from belote.sim.arena import ArenaResult, Compute, run_arena


def arena_command(
    bot_a: str = typer.Argument(
        ..., help="Side A: a bot (e.g. heuristic, colver-heuristic) or two joined by '+' "
                  "(expert+normal: a mixed team)."),
    bot_b: str = typer.Argument(..., help="Side B, as side A."),
    preset: str = typer.Option("coinche", "--preset",
                               help="Rules preset; 'colver' is coinche aligned with colver."),
    deals: int = typer.Option(100, "--deals", "-n", min=1,
                              help="Duplicate pairs (each deal played twice, seats swapped)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the decks and of the bots."),
    bidder: str | None = typer.Option(None, "--bidder",
                                      help="One bot bids for every seat (e.g. colver-bid)."),
    plot: Path | None = typer.Option(None, "--plot", help="Write a PNG plot of the margins."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    workers: int = typer.Option(1, "--workers", min=1, help="Processes playing pairs."),
    checkpoint: Path | None = typer.Option(
        None, "--checkpoint", help="Save progress here; a rerun with it resumes."),
    lang: str = typer.Option("en", "--lang", help="Language of the output: it, es, fr or en."),
) -> None:
    """Compare two bots on duplicate deals: mean points per deal (A minus B) with a 95% CI."""
    console = Console(stderr=True)
    if lang not in LANGUAGES:
        raise typer.BadParameter(f"choose one of {' '.join(LANGUAGES)}", param_hint="--lang")
    try:
        rules = arena_rules(preset)
        if not rules.partners:  # duplicate deals swap two partnerships: 3 or 2 players have none
            raise ValueError(translate(lang, "cli.seats_web.teams_only", command="arena",
                                       preset=preset, players=rules.players))
        if plot is not None:
            _require_matplotlib()
        with Progress(TextColumn(translate(lang, "cli.arena")), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=console) as progress:
            task = progress.add_task("pairs", total=deals)
            result = run_arena(rules, bot_a, bot_b, deals, seed, bidder,
                               lambda done, _total: progress.update(task, completed=done),
                               workers=workers, checkpoint=checkpoint)
    except (ValueError, ImportError) as exc:
        console.print(translate(lang, "cli.error", error=exc))
        raise typer.Exit(2) from None
    if plot is not None:
        write_plot(result, plot)
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=1))
    else:
        Console().print(result_table(result, preset, lang))
    if plot is not None:
        console.print(translate(lang, "cli.plot_written", path=plot))


def result_table(result: ArenaResult, preset: str, lang: str = "en") -> Table:
    mean, half = result.mean_margin()
    score_a, score_b = result.mean_scores()
    bids = translate(lang, "cli.arena.bids", bidder=result.bidder) if result.bidder else ""
    table = Table(title=translate(lang, "cli.arena.title", pairs=len(result.pairs),
                                  preset=preset, bids=bids))
    table.add_column("A")
    table.add_column("B")
    for column in ("margin", "a_points", "b_points", "record", "seconds"):
        table.add_column(translate(lang, f"cli.arena.col.{column}"))
    ci = f"± {half:.1f}" if math.isfinite(half) else "± ∞"
    table.add_row(result.bot_a, result.bot_b, f"{mean:+.1f} {ci}", f"{score_a:.1f}",
                  f"{score_b:.1f}", f"{result.wins}/{result.ties}/{result.losses}",
                  f"{result.seconds_per_pair:.3f}")
    compute_a, compute_b = result.compute()
    table.caption = translate(lang, "cli.arena.compute", a=_compute(compute_a, lang),
                              b=_compute(compute_b, lang))
    return table


def _compute(compute: Compute, lang: str = "en") -> str:
    worlds = compute.worlds_per_move
    ms = f"{compute.ms_per_move:.1f}"
    if worlds is None:
        return translate(lang, "cli.arena.ms", ms=ms)
    text = translate(lang, "cli.arena.ms_worlds", ms=ms, worlds=f"{worlds:.1f}")
    share = compute.misfit_share
    if share is None:
        return text
    return translate(lang, "cli.arena.misfits", text=text, share=f"{100 * share:.1f}")


def _require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ImportError("--plot needs matplotlib: pip install 'belote[plot]' "
                          "(or pip install matplotlib)") from None


def write_plot(result: ArenaResult, path: Path) -> None:
    """A PNG: the margins' histogram, and their running mean with its 95% CI band."""
    _require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from belote.sim.stats import mean_interval

    margins = result.margins
    fig, (hist, run) = plt.subplots(1, 2, figsize=(11, 4))
    hist.hist(margins, bins=30, color="tab:blue")
    hist.axvline(0, color="black", linewidth=0.8)
    hist.set_xlabel(f"margin per pair, {result.bot_a} minus {result.bot_b} (points)")
    hist.set_ylabel("pairs")
    xs, means, lows, highs = [], [], [], []
    for n in range(2, len(margins) + 1):
        mean, half = mean_interval(margins[:n])
        xs.append(n)
        means.append(mean)
        lows.append(mean - half)
        highs.append(mean + half)
    run.plot(xs, means, color="tab:blue", label="running mean")
    run.fill_between(xs, lows, highs, color="tab:blue", alpha=0.2, label="95% CI")
    run.axhline(0, color="black", linewidth=0.8)
    run.set_xlabel("pairs played")
    run.set_ylabel("mean margin per deal (points)")
    run.legend(loc="upper right")
    mean, half = result.mean_margin()
    fig.suptitle(f"{result.bot_a} vs {result.bot_b} ({result.rules}): "
                 f"{mean:+.1f} ± {half:.1f} points per deal")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)

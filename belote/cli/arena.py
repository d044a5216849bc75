"""`belote arena A B`: two bots on duplicate deals, mean margin per deal with a 95% CI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from belote.sim.arena import ArenaResult, Compute, arena_rules, run_arena


def arena_command(
    bot_a: str = typer.Argument(..., help="Bot A (e.g. heuristic, random, colver-heuristic)."),
    bot_b: str = typer.Argument(..., help="Bot B."),
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
) -> None:
    """Compare two bots on duplicate deals: mean points per deal (A minus B) with a 95% CI."""
    console = Console(stderr=True)
    try:
        rules = arena_rules(preset)
        if plot is not None:
            _require_matplotlib()
        with Progress(TextColumn("arena"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=console) as progress:
            task = progress.add_task("pairs", total=deals)
            result = run_arena(rules, bot_a, bot_b, deals, seed, bidder,
                               lambda done, _total: progress.update(task, completed=done),
                               workers=workers, checkpoint=checkpoint)
    except (ValueError, ImportError) as exc:
        console.print(f"error: {exc}")
        raise typer.Exit(2) from None
    if plot is not None:
        write_plot(result, plot)
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=1))
    else:
        Console().print(result_table(result, preset))
    if plot is not None:
        console.print(f"plot written to {plot}")


def result_table(result: ArenaResult, preset: str) -> Table:
    mean, half = result.mean_margin()
    score_a, score_b = result.mean_scores()
    bids = f", bids: {result.bidder} at every seat" if result.bidder else ""
    table = Table(title=f"{len(result.pairs)} duplicate pairs, preset {preset}{bids}")
    for column in ("A", "B", "margin/deal A-B (95% CI)", "A pts/deal", "B pts/deal",
                   "pairs won/tied/lost", "s/pair"):
        table.add_column(column)
    ci = f"± {half:.1f}" if math.isfinite(half) else "± ∞"
    table.add_row(result.bot_a, result.bot_b, f"{mean:+.1f} {ci}", f"{score_a:.1f}",
                  f"{score_b:.1f}", f"{result.wins}/{result.ties}/{result.losses}",
                  f"{result.seconds_per_pair:.3f}")
    compute_a, compute_b = result.compute()
    table.caption = (f"compute per card move with a choice: A {_compute(compute_a)}, "
                     f"B {_compute(compute_b)}")
    return table


def _compute(compute: Compute) -> str:
    worlds = compute.worlds_per_move
    text = f"{compute.ms_per_move:.1f} ms"
    return text if worlds is None else f"{text}, {worlds:.1f} worlds"


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

"""The arena's expert levels around the seat models: ``expert-w20-learned`` reads colver-bid's
seats through the bidder learned from its auctions (no colver needed), and the levels without
models (``expert-nomodel``, ``expert-w20-nomodel`` in the registry), the baseline of "the
expert with its model vs without"."""

from __future__ import annotations

import sys
import tomllib
from importlib.metadata import EntryPoint, EntryPoints
from pathlib import Path

import pytest
from helpers import normal_bots_midway

from belote.ai import make_bot, plugins
from belote.ai.expert import ExpertBot
from belote.ai.models import TableSeat, meet_all
from belote.ai.models.network_bids import colver_bidder
from belote.ai.models.seats import KnownBidder, Learned
from belote.bot_group import BOT_GROUP
from belote.oracles.colver.learned import ExpertWithLearnedColverBids

ROOT = Path(__file__).resolve().parents[1]


def _declared_entry_points(**params: str) -> EntryPoints:
    """The ``belote.bots`` entry points pyproject.toml declares (whatever is installed)."""
    assert params == {"group": BOT_GROUP}
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    bots = declared["project"]["entry-points"][BOT_GROUP]
    return EntryPoints(EntryPoint(name, value, BOT_GROUP) for name, value in bots.items())


def _colvers_table(level: str) -> tuple[TableSeat, ...]:
    """``level`` at seat 0 against colver IS-DD, colver-bid bidding at every seat."""
    return (TableSeat.bot(level, "colver-bid"), TableSeat.bot("colver-isdd", "colver-bid"),
            TableSeat.bot(level, "colver-bid"), TableSeat.bot("colver-isdd", "colver-bid"))


def test_the_learned_expert_is_an_entry_point_made_without_colver(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "colver", None)  # colver not installed
    monkeypatch.setattr(plugins, "entry_points", _declared_entry_points)
    bot = make_bot("expert-w20-learned", 4)
    assert type(bot) is ExpertWithLearnedColverBids and bot.name == "expert-w20-learned"
    assert bot.max_worlds == bot.min_worlds == 20  # colver IS-DD's compute
    assert bot.learned_bidders == {"colver-bid": colver_bidder()}
    assert bot.fitting is None  # colver's bidder read as evidence, never as a hard filter


def test_the_learned_expert_reads_colver_bids_seats_by_the_learned_bidder(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "colver", None)
    bot = ExpertWithLearnedColverBids(4)
    assert meet_all([bot], _colvers_table("expert-w20-learned")) == 1
    game = normal_bots_midway("coinche", 11, 1)
    seat = game.current_player()
    evidence = bot._seat_evidence(game.observation(seat))
    assert evidence is not None and bot.models is not None
    assert set(bot.models.models) == {0, 1, 2, 3} - {seat}
    for model in bot.models.models.values():
        assert isinstance(model.bids, Learned) and model.bids.bidder is colver_bidder()


@pytest.mark.parametrize("name, worlds", [("expert-nomodel", 48), ("expert-w20-nomodel", 20)])
def test_the_levels_without_models_draw_within_the_facts_even_when_told_the_table(
        name: str, worlds: int) -> None:
    bot = make_bot(name, 2)
    assert isinstance(bot, ExpertBot) and bot.name == name and bot.max_worlds == worlds
    seats = (TableSeat.bot(name),) + (TableSeat.bot("normal"),) * 3
    with_models = ExpertBot(2)
    assert meet_all([bot, with_models], seats) == 2
    game = normal_bots_midway("valdostana", 7, 1)
    obs = game.observation(game.current_player())
    assert bot._seat_evidence(obs) is None and bot.models is None
    # the same table, the same decision: the room's expert weighs the bids it heard
    assert with_models._seat_evidence(obs) is not None
    assert with_models.models is not None and all(
        isinstance(m.bids, KnownBidder) for m in with_models.models.models.values())

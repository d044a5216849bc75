"""Bidding systems, one small strategy each, chosen by ``Rules.bidding``."""

from __future__ import annotations

from belote.engine.bidding.base import BiddingSystem, Contract
from belote.engine.bidding.take_or_pass import TakeOrPass

SYSTEMS: dict[str, BiddingSystem] = {"take_or_pass": TakeOrPass()}


def bidding_system(name: str) -> BiddingSystem:
    try:
        return SYSTEMS[name]
    except KeyError:
        raise ValueError(f"bidding system {name!r} is not implemented yet") from None


__all__ = ["BiddingSystem", "Contract", "bidding_system"]

"""Bidding systems, one small strategy each, chosen by ``Rules.bidding``."""

from __future__ import annotations

from belote.engine.bidding.auction import Auction
from belote.engine.bidding.base import BiddingSystem, BidState, Contract
from belote.engine.bidding.take_or_pass import TakeOrPass

SYSTEMS: dict[str, BiddingSystem] = {"take_or_pass": TakeOrPass(), "auction": Auction()}


def bidding_system(name: str) -> BiddingSystem:
    try:
        return SYSTEMS[name]
    except KeyError:
        raise ValueError(f"unknown bidding system {name!r}") from None


__all__ = ["BidState", "BiddingSystem", "Contract", "bidding_system"]

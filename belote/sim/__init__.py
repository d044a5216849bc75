"""Bots playing bots: the match driver, simulations, the duplicate-deal arena and the
statistics they report (confidence intervals)."""

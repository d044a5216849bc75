"""Small statistics for simulations and arenas: confidence intervals, no dependencies."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (good even near 0 or 1)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """Mean and half-width of its 95% normal confidence interval."""
    n = len(values)
    if n == 0:
        return (0.0, math.inf)
    mean = sum(values) / n
    if n == 1:
        return (mean, math.inf)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return (mean, z * math.sqrt(var / n))

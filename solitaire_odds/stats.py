"""Honest intervals for win shares.

A Monte Carlo share is only as good as its error bar, and deals the solver could not decide
(verdict ``unknown``) are neither wins nor losses: they are never dropped, they widen a bracket.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

Z95 = 1.959963984540054
"""Two-sided 95% normal quantile."""

VERDICTS = ("won", "lost", "unknown")


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials.

    Chosen over the normal (Wald) interval because it stays inside [0, 1] and keeps its
    coverage near shares of 0% or 100%, where patience games often sit.
    """
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / n + z2n / (4 * n))
    # The bounds are exactly 0 and 1 at k = 0 and k = n; pin them against rounding.
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Summary:
    """Counts of verdicts over a set of deals, with the intervals they support."""

    n: int
    won: int
    lost: int
    unknown: int

    def __post_init__(self):
        if min(self.won, self.lost, self.unknown) < 0 or self.won + self.lost + self.unknown != self.n:
            raise ValueError(f"counts must be >= 0 and add up to n: {self}")

    @property
    def share(self) -> float:
        """Share of deals proven won (nan without deals)."""
        return self.won / self.n if self.n else math.nan

    @property
    def unknown_share(self) -> float:
        """Share of deals left undecided (nan without deals)."""
        return self.unknown / self.n if self.n else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """95% interval for the share of deals proven won."""
        return wilson(self.won, self.n)

    @property
    def bracket(self) -> tuple[float, float]:
        """The winnable share of these deals lies here: unknowns counted as lost, then as won."""
        if not self.n:
            return 0.0, 1.0
        return self.won / self.n, (self.won + self.unknown) / self.n

    @property
    def bracket_interval(self) -> tuple[float, float]:
        """Conservative 95% interval for the winnable share, whatever the unknowns turn out to be."""
        return wilson(self.won, self.n)[0], wilson(self.won + self.unknown, self.n)[1]

    def format(self) -> str:
        """A few lines for a person to read."""
        counts = f"deals {self.n}: won {self.won}, lost {self.lost}, unknown {self.unknown}"
        if not self.n:
            return counts + "\nno deals yet, nothing to estimate"
        low, high = self.interval
        won_low, won_high = self.bracket
        b_low, b_high = self.bracket_interval
        return "\n".join(
            [
                counts,
                f"win share {self.share:.2%} (95% CI {low:.2%} - {high:.2%})",
                f"bracket [{won_low:.2%}, {won_high:.2%}] (unknowns counted as lost / as won),"
                f" 95% CI {b_low:.2%} - {b_high:.2%}",
            ]
        )


def summarize(verdicts: Iterable[str]) -> Summary:
    """Count verdicts; anything but won/lost/unknown is a bug upstream, so it is refused."""
    counts = Counter(verdicts)
    strange = [value for value in counts if value not in VERDICTS]
    if strange:
        raise ValueError(f"unexpected verdicts {sorted(map(repr, strange))}; expected one of {VERDICTS}")
    return Summary(
        n=sum(counts.values()), won=counts["won"], lost=counts["lost"], unknown=counts["unknown"]
    )

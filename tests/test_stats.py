"""Wilson intervals, the unknowns bracket and verdict counting."""

import math

import pandas as pd
import pytest

from solitaire_odds.stats import Summary, summarize, wilson

Z = 1.959963984540054


def wilson_by_formula(k, n, z=Z):
    """The closed formula written out, independent of the module's arrangement."""
    p = k / n
    denominator = 1 + z**2 / n
    centre = (p + z**2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denominator
    return centre - half, centre + half


@pytest.mark.parametrize("k, n", [(0, 10), (5, 10), (900, 1000), (1, 3), (10, 10), (9012, 10000)])
def test_wilson_matches_the_closed_formula(k, n):
    low, high = wilson(k, n)
    expected_low, expected_high = wilson_by_formula(k, n)
    assert low == pytest.approx(expected_low, abs=1e-12)
    assert high == pytest.approx(expected_high, abs=1e-12)


@pytest.mark.parametrize(
    "k, n, expected",
    [
        (0, 10, (0.0, 0.2775)),      # upper bound z^2 / (n + z^2) = 3.8415 / 13.8415
        (5, 10, (0.2366, 0.7634)),   # 0.5 -/+ 1.96 / 1.38415 * sqrt(0.025 + 0.0096)
        (900, 1000, (0.8798, 0.9171)),
    ],
)
def test_wilson_hand_computed_values(k, n, expected):
    low, high = wilson(k, n)
    assert round(low, 4) == expected[0]
    assert round(high, 4) == expected[1]


def test_wilson_edges():
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 7)[0] == 0.0
    assert wilson(7, 7)[1] == 1.0
    with pytest.raises(ValueError):
        wilson(4, 3)
    with pytest.raises(ValueError):
        wilson(-1, 3)


def test_summary_bracket_counts_unknowns_both_ways():
    summary = Summary(n=10000, won=9012, lost=980, unknown=8)
    assert summary.share == pytest.approx(0.9012)
    assert summary.unknown_share == pytest.approx(0.0008)
    assert summary.bracket == pytest.approx((0.9012, 0.9020))
    assert summary.interval == wilson(9012, 10000)
    assert summary.bracket_interval == (wilson(9012, 10000)[0], wilson(9020, 10000)[1])
    low, high = summary.bracket_interval
    assert low < summary.bracket[0] and summary.bracket[1] < high


def test_summary_without_unknowns_has_a_point_bracket():
    summary = Summary(n=4, won=1, lost=3, unknown=0)
    assert summary.bracket == (0.25, 0.25)
    assert summary.bracket_interval == summary.interval


def test_summary_rejects_counts_that_do_not_add_up():
    with pytest.raises(ValueError):
        Summary(n=5, won=1, lost=1, unknown=1)


def test_format_shows_counts_share_interval_and_bracket():
    text = Summary(n=10000, won=9012, lost=980, unknown=8).format()
    assert "deals 10000" in text
    assert "won 9012" in text and "lost 980" in text and "unknown 8" in text
    assert "90.12% (95% CI 89.52% - 90.69%)" in text
    assert "[90.12%, 90.20%]" in text


def test_format_without_deals():
    text = Summary(n=0, won=0, lost=0, unknown=0).format()
    assert "deals 0" in text
    assert "nan" not in text


def test_summarize_counts_lists_and_series():
    verdicts = ["won", "lost", "unknown", "won"]
    assert summarize(verdicts) == Summary(n=4, won=2, lost=1, unknown=1)
    assert summarize(pd.Series(verdicts)) == Summary(n=4, won=2, lost=1, unknown=1)
    assert summarize([]) == Summary(n=0, won=0, lost=0, unknown=0)


def test_summarize_rejects_other_values():
    with pytest.raises(ValueError, match="'draw'"):
        summarize(["won", "draw", "lost"])
    with pytest.raises(ValueError, match="'Won'"):
        summarize(pd.Series(["Won"]))

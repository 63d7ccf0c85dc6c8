"""American Westcliff by number of piles: the solver's winnable share and the greedy player's
share for 6 to 12 piles (the game deals 10), on the same numbered deals at every point,
through `solitaire-odds sweep` (solitaire_odds.research.sweep): results/sweep_westcliff_piles.csv
(a row per pile count and player, shares and Wilson 95% bounds as fractions, the bracket
won .. won + unknown, CPU-seconds) and results/sweep_westcliff_piles.png.

Each point is an ordinary run folder under --root/runs/westcliff/, resumed when it exists, so a
rerun solves only what is missing; --from-csv redraws the chart from the committed table.

    python experiments/sweep_westcliff.py                       # 2,000 deals a point, 2 workers
    python experiments/sweep_westcliff.py --deals 100 --root cost-check   # what a point costs
"""

from __future__ import annotations

import time

import pandas as pd
from common import arguments, log, write_table

from solitaire_odds.research import plots
from solitaire_odds.research.sweep import format_table, sweep

GAME = "westcliff"
VARY = {"tableau.piles": range(6, 13)}
PLAYERS = ("solver", "greedy")
DEALS = 2000
BUDGET = (100_000, 1_000_000)
"""Not the game's ``auto`` ladder (to 1e7): with 6 piles a deal left unknown at 1e6 nodes costs
many CPU-seconds more at 1e7, too much for a shared two-core machine; the deals left unknown
are counted in the table's ``unknown`` and its bracket."""
WORKERS = 2
NAME = "sweep_westcliff_piles"


def main() -> None:
    args = arguments(__doc__.splitlines()[0], DEALS, BUDGET, WORKERS, players=PLAYERS)
    csv, png = args.root / f"{NAME}.csv", args.root / f"{NAME}.png"
    if args.from_csv:
        table = pd.read_csv(csv)
    else:
        started = time.perf_counter()
        table = sweep(GAME, VARY, args.players, deals=args.deals, root=args.root, workers=args.workers,
                      budget=args.budget, log=log)
        log(f"wall {time.perf_counter() - started:,.0f} s for the points solved in this session; "
            f"the deals' CPU {table['cpu_seconds'].sum():,.0f} s in all")
        write_table(table, csv)
    print(format_table(table), end="")
    print(f"wrote {plots.save(plots.plot_sweep(table), png)}")


if __name__ == "__main__":
    main()

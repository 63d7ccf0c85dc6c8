"""Share of deals the solver leaves undecided at each node budget, per game at its defaults.
One escalation run per game gives every budget: a deal counts as decided at budget b when the
budget that decided it is at most b. Writes results/budget_table.csv and
results/budget.png.

    python experiments/budget_table.py --deals 300 --budget 1e3,1e4,1e5
    python experiments/budget_table.py --from-csv          # redraw from results/budget_table.csv
"""

from __future__ import annotations

from common import arguments, table_of_runs

from solitaire_odds.research.plots import plot_budget, save
from solitaire_odds.research.results import budget_curves
from solitaire_odds.rules import GAMES, resolve
from solitaire_odds.runs.runner import RunSpec

# What produced the committed results/budget_table.csv (this session's CPU allowed no more):
DEALS = 200
BUDGETS = (1_000, 10_000, 100_000)
WORKERS = None
GAMES_TO_RUN = tuple(GAMES)


def specs(deals: int, budgets: tuple[int, ...]) -> list[RunSpec]:
    return [RunSpec.of(resolve(game), 0, deals, budgets=budgets, win_first=True) for game in GAMES_TO_RUN]


def main() -> None:
    args = arguments(__doc__.splitlines()[0], DEALS, BUDGETS, WORKERS)
    curves = table_of_runs(args, "budget_table.csv", specs(args.deals, args.budget), budget_curves)
    print(f"wrote {save(plot_budget(curves), args.root / 'budget.png')}")


if __name__ == "__main__":
    main()

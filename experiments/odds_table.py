"""Solver win share per game and rule set: every game at its defaults and with each switch
moved off its default one at a time. Writes results/odds_table.csv,
results/switch_effects.csv (the change each switch makes against the defaults) and
results/switch_effects.png.

    python experiments/odds_table.py                       # the parameters below
    python experiments/odds_table.py --deals 200 --budget 1e4 --workers 2
    python experiments/odds_table.py --from-csv            # redraw from results/odds_table.csv
"""

from __future__ import annotations

from common import arguments, table_of_runs, write_table

from solitaire_odds.research.plots import plot_effects, save
from solitaire_odds.research.results import summarize_runs, switch_effects
from solitaire_odds.rules import GAMES, resolve
from solitaire_odds.runs.runner import RunSpec

# What produced the committed results (this session's CPU allowed no more; aim for 100,000):
DEALS = 200                       # deals 0..DEALS-1 per rule set
BUDGETS = (10_000,)               # solver node budget (a list escalates: unknown at one, retried at the next)
WORKERS = None                    # every core
GAMES_TO_RUN = tuple(GAMES)


def variants(game: str) -> list[dict]:
    """The defaults, then each switch at each other value (counts: one fewer and one more)."""
    out = [{}]
    for switch in GAMES[game].switches:
        if isinstance(switch.default, bool):
            values = [not switch.default]
        elif isinstance(switch.default, int):
            values = [v for v in (switch.default - 1, switch.default + 1) if v >= 0]
        else:
            values = [choice for choice in switch.choices if choice != switch.default]
        out.extend({switch.name: value} for value in values)
    return out


def specs(deals: int, budgets: tuple[int, ...]) -> list[RunSpec]:
    return [RunSpec.of(resolve(game, **switches), 0, deals, budgets=budgets, win_first=True)
            for game in GAMES_TO_RUN for switches in variants(game)]


def main() -> None:
    args = arguments(__doc__.splitlines()[0], DEALS, BUDGETS, WORKERS)
    summary = table_of_runs(args, "odds_table.csv", specs(args.deals, args.budget), summarize_runs)
    effects = switch_effects(summary)
    write_table(effects, args.root / "switch_effects.csv")
    print(f"wrote {save(plot_effects(effects), args.root / 'switch_effects.png')}")


if __name__ == "__main__":
    main()

"""Published odds against measured odds: every claim of solitaire_odds.claims under each reading
that could explain it, for the solver and every player, on deals 0..DEALS-1. Writes
results/claims.csv, results/claims.txt (the table `solitaire-odds reproduce` prints),
results/claims.png (share per reading and player, each claim marked on the bars of its kind)
and results/convergence.png (the running share under each claim's first reading, for the
runs of the claim's kind: the solver for a winnable share, the players for a person's share).

    python experiments/reproduce_claims.py --deals 500 --budget 1e4,1e5 --players solver,greedy
    python experiments/reproduce_claims.py --from-csv   # redraw from results/claims.csv
"""

from __future__ import annotations

import pandas as pd
from common import arguments, log, write_table

from solitaire_odds.claims import CLAIMS
from solitaire_odds.plots import comparable, plot_convergence, plot_shares, save
from solitaire_odds.reproduce import format_table, plan, reproduce, run_specs
from solitaire_odds.results import load_run

# What produced the committed results (this session's CPU allowed no more; aim for 100,000):
DEALS = 1_000
BUDGETS = (10_000, 100_000)
WORKERS = None
PLAYERS = ("solver", "random", "greedy")   # the planner costs about 0.5 s a deal: add it with --players


def main() -> None:
    args = arguments(__doc__.splitlines()[0], DEALS, BUDGETS, WORKERS, players=PLAYERS)
    claims = list(CLAIMS)
    if args.from_csv:
        table = pd.read_csv(args.root / "claims.csv")
    else:
        table = reproduce(claims, args.players, args.deals, args.budget, args.root, args.workers, log)
        write_table(table, args.root / "claims.csv")
    text = format_table(claims, table)
    command = (f"python experiments/reproduce_claims.py --deals {args.deals} "
               f"--budget {','.join(map(str, args.budget))} --players {','.join(args.players)}")
    (args.root / "claims.txt").write_text(f"{command}\n\n{text}")
    print(text)
    title = f"Published claims against measured shares ({args.deals:,} deals per bar)"
    print(f"wrote {save(plot_shares(table, title=title), args.root / 'claims.png')}")
    first_readings = [(spec, claim) for claim, reading, spec in plan(claims, args.players, args.deals, args.budget)
                      if reading == claim.readings[0] and comparable(claim, spec.player)]
    folders = run_specs([spec for spec, _ in first_readings], args.root, args.workers, log)
    rows = pd.concat([load_run(folder, 0, args.deals - 1) for folder in folders], ignore_index=True)
    title = f"Convergence under each claim's first reading, runs of the claim's kind ({args.deals:,} deals)"
    print(f"wrote {save(plot_convergence(rows, title=title), args.root / 'convergence.png')}")


if __name__ == "__main__":
    main()

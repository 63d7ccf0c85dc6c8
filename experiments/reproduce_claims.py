"""Published odds against measured odds: every claim of solitaire_odds.research.claims under each reading
that could explain it, for the solver and every player, on deals 0..DEALS-1. Writes
results/claims.csv, results/claims.txt (the table `solitaire-odds reproduce` prints),
results/claims.png (a panel per claim: a dot per reading and player, the published figure a line)
and results/convergence.png (the running share under each claim's first reading, for the
runs of the claim's kind: the solver for a winnable share, the players for a person's share).

    python experiments/reproduce_claims.py --deals 500 --budget 1e4,1e5 --players solver,greedy
    python experiments/reproduce_claims.py --from-verdicts   # from experiments/campaign.py's files
    python experiments/reproduce_claims.py --from-csv   # redraw from results/claims.csv

The committed tables come from --from-verdicts: each cell holds every deal of its committed
verdict file (20,000 to 1,000,000), the solver at the escalation its file reached.
"""

from __future__ import annotations

import pandas as pd
from common import arguments, log, replace_between, write_table

from solitaire_odds.research import pages
from solitaire_odds.research.claims import CLAIMS
from solitaire_odds.research.plots import comparable, plot_convergence, plot_shares, save
from solitaire_odds.research.reproduce import (format_table, from_verdicts, plan, reproduce, run_specs)
from solitaire_odds.runs.catalog import load_run

# What produced the committed results (this session's CPU allowed no more; aim for 100,000):
DEALS = 1_000
BUDGETS = (10_000, 100_000)
WORKERS = None
PLAYERS = ("solver", "random", "greedy")   # the planner costs about 0.5 s a deal: add it with --players


BEGIN = pages.begin("claims")
END = pages.end("claims")


def main() -> None:
    args = arguments(__doc__.splitlines()[0], DEALS, BUDGETS, WORKERS, players=PLAYERS, from_verdicts=True)
    claims = list(CLAIMS)
    if args.from_csv:
        table = pd.read_csv(args.root / "claims.csv")
    elif args.from_verdicts:
        table = from_verdicts(claims, args.players, args.root, log)
        write_table(table, args.root / "claims.csv")
        replace_between(args.readme, BEGIN, END, pages.claims_table(claims, table))
        print(f"wrote {args.readme}")
    else:
        table = reproduce(claims, args.players, args.deals, args.budget, args.root, args.workers, log)
        write_table(table, args.root / "claims.csv")
    text = format_table(claims, table)
    command = (f"python experiments/reproduce_claims.py --from-verdicts --players {','.join(args.players)}"
               if args.from_verdicts else f"python experiments/reproduce_claims.py --deals {args.deals} "
               f"--budget {','.join(map(str, args.budget))} --players {','.join(args.players)}")
    (args.root / "claims.txt").write_text(f"{command}\n\n{text}")
    print(text)
    size = (f"{table['deals'].min():,} to {table['deals'].max():,}" if table["deals"].nunique() > 1
            else f"{table['deals'].max():,}")
    title = f"Published claims against measured shares ({size} deals per bar)"
    print(f"wrote {save(plot_shares(table, title=title), args.root / 'claims.png')}")
    first_readings = [(claim, spec) for claim, reading, spec in plan(claims, args.players, args.deals, args.budget)
                      if reading == claim.readings[0] and comparable(claim, spec.player)]
    if args.from_verdicts:  # every deal of each committed file
        files = {(row.claim, row.reading, row.player): row.run_dir for row in table.itertuples()}
        wanted = ((claim.key, claim.reading_label(claim.readings[0]), spec.player) for claim, spec in first_readings)
        sources = [files[key] for key in wanted if key in files]
        rows = pd.concat([load_run(source) for source in sources], ignore_index=True)
    else:
        folders = run_specs([spec for _, spec in first_readings], args.root, args.workers, log)
        rows = pd.concat([load_run(folder, 0, args.deals - 1) for folder in folders], ignore_index=True)
    title = f"Convergence under each claim's first reading, runs of the claim's kind ({size} deals)"
    print(f"wrote {save(plot_convergence(rows, title=title), args.root / 'convergence.png')}")


if __name__ == "__main__":
    main()

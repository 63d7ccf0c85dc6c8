"""The headline odds from the committed verdict files alone (results/verdicts/, written by
experiments/campaign.py): results/headline.csv (game, rules, player, deals, won, lost, unknown,
share, share_low, share_high; shares and Wilson 95% bounds as fractions), results/headline.png, and the
headline table of docs/results.md (solitaire_odds.research.pages.headline: headline.csv plus
each run's CPU-hours), so all three can be remade and checked without any run folder. The
README's answers and the other pages' tables follow from `python experiments/docs_tables.py`.

    python experiments/headline.py                 # results/verdicts/ -> results/, docs/results.md
    python experiments/headline.py --root tiny --readme tiny/README.md
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd
from common import replace_between, write_table

from solitaire_odds.research import pages, results
from solitaire_odds.research.pages import cost_text, sampled_costs  # noqa: F401 (the script's cost of a file)
from solitaire_odds.runs import catalog
from solitaire_odds.players import player_names
from solitaire_odds.research.plots import plot_shares, save
from solitaire_odds.rules import GAMES

BEGIN = pages.begin("headline")
END = pages.end("headline")


def headline_summary(root: Path) -> pd.DataFrame:
    """:func:`results.summarize_runs` of every verdict file under ``root``, ordered by game,
    rules (defaults first) and player; refused if two files hold the same rules and player."""
    files = catalog.find_verdicts(root)
    if not files:
        fail(f"no verdict files under {root / 'verdicts'}; make them with experiments/campaign.py "
             "(or its --export) first")
    summary = results.summarize_runs(files)
    twice = summary[summary.duplicated(["rules", "player"], keep=False)]
    if len(twice):
        fail(f"{twice['run_dir'].iloc[0]} and {twice['run_dir'].iloc[1]} both hold {twice['rules'].iloc[0]} "
             f"for {twice['player'].iloc[0]} (other parameters); keep one of them")
    order = summary.assign(g=summary["game"].map(list(GAMES).index), d=summary["changed"] != "defaults",
                           p=summary["player"].map(player_names().index))
    return summary.loc[order.sort_values(["g", "d", "rules", "p"]).index].reset_index(drop=True)


def fail(message: str) -> None:
    print(f"headline.py: {message}", file=sys.stderr)
    raise SystemExit(2)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("results"), help="results folder (default: results)")
    parser.add_argument("--readme", type=Path, default=Path("docs/results.md"),
                        help="page whose headline table to remake (default: docs/results.md)")
    args = parser.parse_args(argv)
    summary = headline_summary(args.root)
    write_table(results.headline(summary), args.root / "headline.csv")
    replace_between(args.readme, BEGIN, END, pages.headline(pages.Results(args.root)))
    print(f"wrote {args.readme}")
    print(f"wrote {save(plot_shares(summary, title='Headline odds (committed verdicts)'), args.root / 'headline.png')}")


if __name__ == "__main__":
    main()

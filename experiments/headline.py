"""The headline odds from the committed verdict files alone (results/verdicts/, written by
experiments/campaign.py): results/headline.csv (game, rules, player, deals, won, lost, unknown,
share, share_low, share_high; shares and Wilson 95% bounds as fractions), results/headline.png, and the
README's headline table (headline.csv plus each run's CPU-hours: from its file, or marked "~"
where the file kept no time, experiments/run_costs.py's estimate from a sample), so all three
can be remade and checked without any run folder.

    python experiments/headline.py                 # results/verdicts/ -> results/, README.md
    python experiments/headline.py --root tiny --readme tiny/README.md
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd
from common import replace_between, write_table
from run_costs import file_key

from solitaire_odds.research import results
from solitaire_odds.runs import catalog
from solitaire_odds.runs import verdicts
from solitaire_odds.runs.records import bracket_text, share_text
from solitaire_odds.players import player_names
from solitaire_odds.research.plots import plot_shares, save
from solitaire_odds.rules import GAMES

BEGIN = "<!-- headline table: made by experiments/headline.py from results/headline.csv -->"
END = "<!-- end of the headline table -->"


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


def markdown(table: pd.DataFrame, costs: dict) -> str:
    """The headline table as a Markdown table: counts, share won with its Wilson 95% interval,
    the bracket [won, won + unknown] / deals that the unknowns leave open, and the CPU-hours
    the run cost (``costs``, text by rules and player; "-" where neither is known)."""
    lines = ["| rules | player | deals | won | lost | unknown | share won [Wilson 95%] | bracket | CPU-h |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in table.itertuples():
        bracket = bracket_text(row.won / row.deals, (row.won + row.unknown) / row.deals)
        cost = costs.get((row.rules, row.player), "-")
        lines.append(f"| {row.rules} | {row.player} | {row.deals:,} | {row.won:,} | {row.lost:,} | "
                     f"{row.unknown:,} | {share_text(row.share, row.share_low, row.share_high)} | {bracket} | {cost} |")
    return "\n".join(lines) + "\n"


def sampled_costs(root: Path) -> dict[str, float]:
    """experiments/run_costs.py's estimates (results/run_costs.csv), in CPU-hours by file key."""
    estimates = root / "run_costs.csv"
    return pd.read_csv(estimates).set_index("file")["cpu_hours"].to_dict() if estimates.exists() else {}


def cost_text(path: str, sampled: dict[str, float]) -> str:
    """The CPU-hours of the verdict file at ``path``: kept in the file, else "~" and its sampled
    estimate (:func:`sampled_costs`), else "-"."""
    seconds = verdicts.cpu_seconds(path)
    if seconds is not None:
        return f"{seconds / 3600:.2f}"
    estimate = sampled.get(file_key(Path(path)))
    return "-" if estimate is None else f"~{estimate:.2f}"


def fail(message: str) -> None:
    print(f"headline.py: {message}", file=sys.stderr)
    raise SystemExit(2)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("results"), help="results folder (default: results)")
    parser.add_argument("--readme", type=Path, default=Path("README.md"), help="README to update (default: README.md)")
    args = parser.parse_args(argv)
    summary = headline_summary(args.root)
    write_table(results.headline(summary), args.root / "headline.csv")
    table = pd.read_csv(args.root / "headline.csv")  # the README shows the file as committed
    sampled = sampled_costs(args.root)
    costs = {(row.rules, row.player): cost_text(row.run_dir, sampled) for row in summary.itertuples()}
    replace_between(args.readme, BEGIN, END, markdown(table, costs))
    print(f"wrote {args.readme}")
    print(f"wrote {save(plot_shares(summary, title='Headline odds (committed verdicts)'), args.root / 'headline.png')}")


if __name__ == "__main__":
    main()

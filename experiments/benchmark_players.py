"""Player benchmark: per game with hidden cards (default rules), each player's win share with
its Wilson 95% interval, deals per CPU-second, and for the planner its cost per deal.

    python experiments/benchmark_players.py --deals 10000 --planner-deals 200
    python experiments/benchmark_players.py --games duchess --planner-deals 100 --samples 1,4,16

Runs in this one process (one core), on deals 0..N-1. The first deal's numba compilation (or
cache load) is excluded by a warm-up game. ``--samples`` with several values shows how the
planner's share moves with the number of completions it solves per decision.
"""

from __future__ import annotations

import argparse
import time

from solitaire_odds.players import make_player
from solitaire_odds.players.planner import DEFAULT_BUDGET
from solitaire_odds.rules import resolve
from solitaire_odds.stats import wilson

HIDDEN_GAMES = "westcliff-classic,westcliff,easthaven,duchess,louis"


def bench(player, deals: int) -> dict:
    player.play(deals + 1)  # warm-up: load or compile the kernels
    won = nodes = 0
    cpu = time.process_time()
    for deal in range(deals):
        outcome = player.play(deal)
        won += outcome.verdict == "won"
        nodes += outcome.nodes
    cpu = time.process_time() - cpu
    low, high = wilson(won, deals)
    return {"won": won, "low": low, "high": high, "cpu": cpu, "nodes": nodes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=HIDDEN_GAMES, help="comma-separated game names")
    parser.add_argument("--deals", type=int, default=10_000, help="deals for random and greedy")
    parser.add_argument("--planner-deals", type=int, default=200)
    parser.add_argument("--samples", default="4", help="planner completions per decision, e.g. 1,4,16")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="planner node budget per solve")
    args = parser.parse_args()
    print("one core; planner budget", f"{args.budget:,}", "nodes per solve")
    print(f"{'game':18} {'player':12} {'deals':>6} {'win share (95% CI)':>24} {'deals/CPU-s':>11} "
          f"{'CPU-s/deal':>10} {'nodes/deal':>11}")
    for game in args.games.split(","):
        rules = resolve(game)
        runs = [("random", {}, args.deals), ("greedy", {}, args.deals)]
        runs += [("planner", {"samples": int(k), "budget": args.budget}, args.planner_deals)
                 for k in args.samples.split(",")]
        for name, params, deals in runs:
            if deals < 1:
                continue
            r = bench(make_player(name, rules, **params), deals)
            label = name + (f" K={params['samples']}" if params else "")
            share = f"{r['won'] / deals:.2%} ({r['low']:.1%}-{r['high']:.1%})"
            print(f"{game:18} {label:12} {deals:>6} {share:>24} {deals / r['cpu']:>11,.1f} "
                  f"{r['cpu'] / deals:>10.4f} {r['nodes'] / deals:>11,.0f}", flush=True)


if __name__ == "__main__":
    main()

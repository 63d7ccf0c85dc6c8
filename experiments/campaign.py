"""The committed results at scale (issue 16): every run the headline table and the claims table
need, declared once with its deals, player and budgets; runs (or resumes) any part of it and
exports each run's compact verdicts to results/verdicts/ (experiments/headline.py then makes
results/headline.csv and the docs' headline table from those files alone).

    python experiments/campaign.py --list                  # the plan: deals done, CPU-hours
    python experiments/campaign.py --only westcliff        # run or resume one game's runs
    python experiments/campaign.py --only "st-helena space_fill=any" --players solver   # one rule set
    python experiments/campaign.py --only duchess --players solver,greedy --workers 2
    python experiments/campaign.py --deals-scale 0.001 --root tiny    # everything, tiny
    python experiments/campaign.py --export                # only export what the runs hold
    python experiments/campaign.py --dask tcp://host:8786  # on a cluster (see docs/scale.md)

Every run is an ordinary run folder under results/runs/ (deals 0..N-1), so an interrupted
campaign continues where it stopped, on this machine or any other whose folders are copied in.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import pandas as pd
from common import log, rules_of
from decide import TWO_DECKS
from decide import read as read_deciding

from solitaire_odds.runs import catalog
from solitaire_odds.runs import store, verdicts
from solitaire_odds.research.claims import CLAIMS
from solitaire_odds.counts import InputError, parse_count
from solitaire_odds.runs.deepen import Prove, deepen, deepened_manifest
from solitaire_odds.research.reproduce import plan, player_params, run_specs
from solitaire_odds.runs.records import count_text
from solitaire_odds.runs.runner import RunSpec, usable_cpus

BUDGETS = (10_000, 100_000)
"""The solver's escalation, reproduce_claims.py's: its run folders are these runs' first deals."""
PEOPLE = ("greedy", "random")
"""The players run beside the solver on every rule set; the planner (about 0.5 s a deal) only
where HEADLINE gives it deals."""

HEADLINE = (
    # rules, solver deals, greedy and random deals, planner deals (0: not run)
    ("westcliff", 1_000_000, 1_000_000, 10_000),
    ("westcliff-classic", 100_000, 100_000, 10_000),
    ("duchess", 100_000, 100_000, 10_000),
    ("easthaven", 20_000, 100_000, 10_000),
    # Solvitaire's reading: 50,000 deals give about +-0.33%, beside its published 82.844% +- 0.100%
    ("easthaven space_fill=any foundation_return=on", 50_000, 100_000, 10_000),
    # the two-deck readings experiments/decide.py measures; all cards face up: the solver only
    *((label, 10_000, 0, 0) for label in TWO_DECKS),
)
CLAIM_DEALS = {
    # every reading of every claim in solitaire_odds.research.claims: game -> (solver deals, greedy and
    # random deals); the solver on 100,000 deals where a deal costs at most ~0.05 CPU-s at 1e5
    # (results/deciding.csv, and --list on a --deals-scale 0.001 run), 20,000 where it costs more
    "westcliff": (100_000, 100_000),
    "westcliff-classic": (100_000, 100_000),
    "duchess": (100_000, 100_000),
    "easthaven": (20_000, 100_000),
    "st-helena": (20_000, 20_000),
    "louis": (20_000, 20_000),
    "box-kite": (20_000, 20_000),
}
DEEPER = {
    # solver runs whose escalation goes on past BUDGETS, on their unknown deals alone
    # (solitaire_odds.runs.deepen): where results/deciding.csv shows the steps pay for themselves
    "westcliff": (1_000_000,),                 # 1e5 -> 1e6: 0.06% -> 0.002% unknown
    "westcliff-classic": (1_000_000,),          # 1e4 -> 1e5 -> 1e6: 6.9% -> 3.34% unknown (20,000 deals)
    "duchess": (1_000_000, 10_000_000),        # 1e5 -> 1e6 -> 1e7: 4.7% -> 0.21% -> 0.04%
    # 1e4 -> 1e5 -> 1e6 -> 1e7: 2.64% -> 0.20% -> 0.026% unknown (50,000 deals), 0.026 CPU-s a deal
    "easthaven space_fill=any foundation_return=on": (1_000_000, 10_000_000),
    "st-helena space_fill=any": (1_000_000,),  # 1e4 -> 1e5 -> 1e6: 0.010% -> 0 unknown (20,000 deals)
    "st-helena build_suit=any": (1_000_000,),  # 1e4 -> 1e5 -> 1e6: 0.155% -> 0.030% unknown (20,000 deals)
    "louis build_suit=any": (1_000_000,),      # 1e4 -> 1e5 -> 1e6: 0.070% -> 0.015% unknown (20,000 deals)
    "st-helena": (1_000_000,),                 # 1e5 -> 1e6: 81.1% -> 53.0% unknown (2,000 deals)
    "louis": (1_000_000,),                     # 1e5 -> 1e6: 64.6% -> 37.6% unknown (2,000 deals)
    "westcliff run_moves=whole": (1_000_000,),  # 1e4 -> 1e5 -> 1e6: 0.004% -> 0.001% unknown (100,000 deals)
    "westcliff run_moves=single": (1_000_000,),  # 1e4 -> 1e5 -> 1e6: 0.39% -> 0% unknown (20,000 deals)
    "westcliff-classic waste_playable=off": (1_000_000, 10_000_000),  # 1e4 -> 1e5 -> 1e7: 1.21% -> 0.17% (20,000)
    "westcliff-classic waste_playable=off aces_out_first=on": (1_000_000, 10_000_000),  # 2.45% -> 0.31% (20,000)
    "easthaven": (1_000_000, 10_000_000, 100_000_000),  # 1e5 -> 1e6 -> 1e7 -> 1e8: 14.5% -> 2.6% -> 0.23% -> 0.017% (6,000)
    "easthaven space_fill=any": (1_000_000, 10_000_000),  # 1e4 -> ... -> 1e7: 2.36% -> 0.16% -> 0.025% (20,000 deals)
    "easthaven foundation_return=on": (1_000_000, 10_000_000),  # 1e4 -> ... -> 1e7: 14.6% -> 3.35% -> 0.25% (2,000 deals)
    # 1e4 -> 1e5 -> 1e6 -> 1e7 -> prover 20 s: 7.05% -> 2.65% -> 2.20% unknown (2,000 deals)
    "westcliff space_fill=king": (1_000_000, 10_000_000, Prove(20.0)),
    "westcliff-classic aces_out_first=on": (1_000_000,),  # 1e4 -> 1e5 -> 1e6: 1.35% -> 0.59% unknown (100,000 deals)
    "box-kite space_fill=any": (1_000_000,),  # 1e4 -> 1e5 -> 1e6: 5.1% -> 0.60% unknown (20,000 deals)
    "duchess run_moves=whole": (1_000_000,),  # 1e4 -> 1e5 -> 1e6: 2.4% -> 0.26% unknown (20,000 deals)
    "duchess run_moves=single": (1_000_000, 10_000_000),  # 1e4 -> ... -> 1e7: 10.9% -> 2.0% -> 0.195% (20,000 deals)
}
COSTLY_READINGS = {
    # readings whose solver deals cost 0.07 to 0.33 CPU-s at 1e5 (--list): 20,000 deals
    "westcliff run_moves=single": 20_000,
    "westcliff space_fill=king": 20_000,
    "duchess run_moves=single": 20_000,
    "duchess redeals=0": 20_000,
}
DECIDING = Path(__file__).resolve().parents[1] / "results" / "deciding.csv"
"""The solver's CPU-seconds per deal at 1e5 nodes, per rule set: the estimate of a run not yet begun."""


def campaign() -> list[RunSpec]:
    """Every run of the campaign, the headline runs first; two entries that share a run
    folder (the same rules, player and parameters) become one, with the larger deal count."""
    specs = []
    for label, solver, people, planner in HEADLINE:
        rules = rules_of(label)
        for player, deals in [("solver", solver), *((p, people) for p in PEOPLE), ("planner", planner)]:
            if deals:
                specs.append(RunSpec.of(rules, 0, deals, player=player, **player_params(player, rules, BUDGETS)))
    for claim in CLAIMS:
        solver, people = CLAIM_DEALS[claim.game]
        for _, _, spec in plan([claim], ["solver"], solver, BUDGETS) + plan([claim], PEOPLE, people, BUDGETS):
            costly = COSTLY_READINGS.get(spec.rules.label()) if spec.player == "solver" else None
            specs.append(replace(spec, count=costly or spec.count))
    largest: dict[Path, RunSpec] = {}
    for spec in specs:
        key = spec.default_dir(Path())
        if key not in largest or spec.count > largest[key].count:
            largest[key] = spec
    return list(largest.values())


def select(specs: list[RunSpec], games: list[str] | None, players: list[str] | None, scale: float) -> list[RunSpec]:
    """The runs of the given games or rule sets and players (all when None), each with its
    deal count times ``scale`` (at least one deal)."""
    chosen = [spec for spec in specs if (games is None or spec.rules.game in games or spec.rules.label() in games)
              and (players is None or spec.player in players)]
    return [replace(spec, count=max(1, round(spec.count * scale))) for spec in chosen]


def ladder_files(spec: RunSpec, root: Path) -> list[Path]:
    """The run's verdict files along the plan's escalation, shallowest first: the file of
    BUDGETS, then one per further step that DEEPER names (the last is the plan's goal)."""
    steps = DEEPER.get(spec.rules.label(), ()) if spec.player == "solver" else ()
    manifest = spec.manifest()
    return [catalog.verdict_path(root, deepened_manifest(manifest, steps[:k]) if k else manifest)
            for k in range(len(steps) + 1)]


def committed_files(spec: RunSpec, root: Path) -> list[Path]:
    """The run's committed verdict files that exist, deepest first."""
    return [path for path in reversed(ladder_files(spec, root)) if path.exists()]


def committed_deals(spec: RunSpec, root: Path) -> int:
    """How many of the run's first deals its committed verdict files hold, so a machine without
    the run folder solves only the rest."""
    files = committed_files(spec, root)
    deals = pd.concat([verdicts.read(path)[1]["deal"] for path in files] or [pd.Series([], dtype="uint64")])
    held = set(deals[deals.between(spec.first, spec.last)].astype(int))
    return next((k for k in range(len(held) + 1) if spec.first + k not in held), len(held))


def committed_time(spec: RunSpec, root: Path) -> tuple[float, int] | None:
    """(CPU-seconds, deals) of the run's committed verdict file where it kept its time."""
    for path in committed_files(spec, root):
        seconds = verdicts.cpu_seconds(path)
        if seconds is not None:
            return seconds, len(verdicts.read(path)[1])
    return None


def plan_table(specs: list[RunSpec], root: Path) -> pd.DataFrame:
    """One row per run: deals planned and done (in its folder, or in its committed verdict
    file), and the CPU-hours of the planned deals and of those left, from the seconds per deal
    measured in its folder when it holds deals, else in its committed verdict file (where that
    kept its time), else from results/deciding.csv (the solver at 1e5), else unknown."""
    deciding = read_deciding(DECIDING) if DECIDING.exists() else pd.DataFrame(columns=["rules", "ladder", "deals", "cpu_per_deal"])
    deciding = deciding[deciding["ladder"] == count_text(max(BUDGETS))].sort_values("deals")
    deciding = deciding.groupby("rules")["cpu_per_deal"].last()  # each rule set's largest measurement
    records = []
    for spec in specs:
        run_dir = spec.default_dir(root)
        in_folder = sum(min(b, spec.last) - max(a, spec.first) + 1 for a, b, _ in store.finished_chunks(run_dir)
                        if b >= spec.first and a <= spec.last)
        done = max(committed_deals(spec, root), in_folder)
        per_deal, source = float("nan"), "-"
        timed = committed_time(spec, root)
        if in_folder:
            seconds = store.load_rows([run_dir], spec.first, spec.last, columns=["seconds"])["seconds"]
            per_deal, source = seconds.mean(), f"measured on {len(seconds):,} deals"
        elif timed:
            per_deal, source = timed[0] / timed[1], f"verdict file, {timed[1]:,} deals"
        elif spec.player == "solver" and spec.rules.label() in deciding.index:
            per_deal, source = deciding[spec.rules.label()], "results/deciding.csv"
        records.append({"game": spec.rules.game, "rules": spec.rules.label(), "player": spec.player,
                        "planned": spec.count, "done": done, "cpu_hours": per_deal * spec.count / 3600,
                        "left_cpu_hours": per_deal * (spec.count - done) / 3600 if done < spec.count else 0.0,
                        "estimate": source, "deepened": deepening_state(spec, root)})
    return pd.DataFrame.from_records(records)


def format_plan(table: pd.DataFrame) -> str:
    def hours(value):
        return "?" if pd.isna(value) else f"{value:,.2f}"

    shown = table.assign(planned=table["planned"].map("{:,}".format), done=table["done"].map("{:,}".format),
                         cpu_hours=table["cpu_hours"].map(hours), left_cpu_hours=table["left_cpu_hours"].map(hours))
    unknown = int(table["cpu_hours"].isna().sum())
    total = (f"{len(table)} runs, {table['planned'].sum():,} deals planned, {table['done'].sum():,} done; "
             f"CPU-hours {table['cpu_hours'].sum():,.1f} planned, {table['left_cpu_hours'].sum():,.1f} left"
             + (f" (+ {unknown} runs without an estimate: run --deals-scale 0.001 to measure them)" if unknown else ""))
    return shown.drop(columns=["game"]).to_string(index=False) + "\n" + total + "\n"


def deepening_state(spec: RunSpec, root: Path) -> str:
    """"-" for a run that DEEPER leaves alone, else whether its committed file is deepened
    ("done"), not yet or not by every step ("to do"), or not there yet ("later")."""
    files = ladder_files(spec, root)
    if len(files) == 1:
        return "-"
    if files[-1].exists():
        return "done"
    return "to do" if committed_files(spec, root) else "later"


def still_to_run(specs: list[RunSpec], root: Path) -> list[RunSpec]:
    """Each run without the first deals that its committed verdict files hold already."""
    left = []
    for spec in specs:
        held = committed_deals(spec, root)
        if held < spec.count:
            left.append(replace(spec, first=spec.first + held, count=spec.count - held))
    return left


def export(specs: list[RunSpec], root: Path, allow_other_engine: bool = False) -> list[Path]:
    """Write the verdict file of every run that holds deals (a partial run with what it holds),
    keeping the deals of its committed file that the run folder lacks (if of the same engine,
    or ``allow_other_engine``)."""
    paths = []
    for spec in specs:
        run_dir = spec.default_dir(root)
        if store.finished_chunks(run_dir):
            paths.append(catalog.export_verdicts(run_dir, root, spec.first, spec.last, keep=True,
                                                 allow_other_engine=allow_other_engine))
            log(f"wrote {paths[-1]}")
    return paths


def deepen_all(specs: list[RunSpec], root: Path, workers: int | None, allow_other_engine: bool = False) -> list[Path]:
    """Deepen the verdict file of every solver run that DEEPER names (solitaire_odds.runs.deepen)."""
    paths = []
    for spec in specs:
        files = ladder_files(spec, root)
        for k, path in enumerate(files[:-1]):  # each file short of the goal (one, but for a crash)
            if path.exists():
                steps = DEEPER[spec.rules.label()][k:]
                paths.append(deepen(path, steps, workers or usable_cpus(), log, allow_other_engine))
                log(f"wrote {paths[-1]}")
    return paths


def arguments(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated games or rule sets, such as 'st-helena space_fill=any' "
                                       "(default: every game of the plan)")
    parser.add_argument("--players", help="comma-separated players (default: every player of the plan)")
    parser.add_argument("--deals-scale", default="1",
                        help="multiply every run's deals (0.001: a tiny test; at least one deal a run)")
    parser.add_argument("--list", action="store_true", help="print the plan with deals done and CPU-hours, run nothing")
    parser.add_argument("--export", action="store_true", help="only export the verdicts the runs hold, run nothing")
    parser.add_argument("--workers", default=None, help="worker processes (default: every core)")
    parser.add_argument("--dask", help="'local' or a Dask scheduler's address, as odds --dask takes it")
    parser.add_argument("--root", type=Path, default=Path("results"), help="results folder (default: results)")
    parser.add_argument("--allow-other-engine", action="store_true",
                        help="resume, extend or deepen work another engine did (the results then say they mix engines)")
    args = parser.parse_args(argv)
    try:
        args.deals_scale = float(args.deals_scale)
    except ValueError:
        usage(f"--deals-scale must be a number such as 0.001, not {args.deals_scale!r}")
    if not args.deals_scale > 0:
        usage(f"--deals-scale must be above 0, not {args.deals_scale}")
    planned = campaign()
    games = {spec.rules.game for spec in planned}
    args.only = names(args.only, "--only", sorted(games) + sorted({spec.rules.label() for spec in planned} - games))
    args.players = names(args.players, "--players", ["solver", *PEOPLE, "planner"])
    try:
        args.workers = None if args.workers is None else parse_count(args.workers, "--workers")
    except InputError as err:
        usage(str(err))
    return args


def names(text: str | None, option: str, known: list[str]) -> list[str] | None:
    if text is None:
        return None
    chosen = [name.strip() for name in text.split(",")]
    strange = [name for name in chosen if name not in known]
    if strange:
        usage(f"{option}: {strange[0]!r} is not in the campaign; choose from {', '.join(known)}")
    return chosen


def usage(message: str) -> None:
    print(f"campaign.py: {message}", file=sys.stderr)
    raise SystemExit(2)


def main(argv=None) -> None:
    args = arguments(argv)
    specs = select(campaign(), args.only, args.players, args.deals_scale)
    if args.list:
        print(format_plan(plan_table(specs, args.root)), end="")
        return
    if not args.export:
        run_specs(still_to_run(specs, args.root), args.root, args.workers, log, args.dask, args.allow_other_engine)
    export(specs, args.root, args.allow_other_engine)
    if not args.export:
        deepen_all(specs, args.root, args.workers, args.allow_other_engine)


if __name__ == "__main__":
    main()

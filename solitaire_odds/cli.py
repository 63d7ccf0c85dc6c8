"""The ``solitaire-odds`` command."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import numpy as np

from . import deals, reference
from .players import make_player, planner, player_names
from .position import describe_move
from .rules import GAMES, RulesError, parse_settings, resolve
from .runs import RunSpec, WorkersError, run, summary
from .solver import DEFAULT_BUDGET, Solver
from .store import StoreError, load_rows
from .tables import FORMATS, budget_text, count_text, render, run_record

USAGE_ERROR = 2


class CliError(click.ClickException):
    """A one-line error, exit status 2 (usage) unless told otherwise."""

    exit_code = USAGE_ERROR

    def show(self, file=None):
        click.echo(f"solitaire-odds: error: {self.format_message()}", err=True)


def parse_count(text: str, what: str, minimum: int = 1) -> int:
    """``100000``, ``1e5``, ``100k``, ``1M`` -> int (at least ``minimum``)."""
    t = str(text).strip().lower().replace("_", "").replace(",", "")
    scale = 1
    if t.endswith("k"):
        scale, t = 1_000, t[:-1]
    elif t.endswith("m"):
        scale, t = 1_000_000, t[:-1]
    try:
        value = int(t) * scale if t.isdigit() else float(t) * scale  # int: exact past 2**53
    except ValueError:
        raise CliError(f"{what} must be a number such as 100000, 1e5 or 100k, not {text!r}") from None
    if value != int(value) or value < minimum:
        raise CliError(f"{what} must be a whole number >= {minimum}, not {text!r}")
    return int(value)


def parse_budgets(text: str) -> tuple[int, ...]:
    budgets = tuple(parse_count(part, "--budget") for part in str(text).split(","))
    if list(budgets) != sorted(set(budgets)):
        raise CliError(f"--budget escalation must grow: {text!r}")
    return budgets


def rules_from(game: str, settings: tuple[str, ...]):
    try:
        return resolve(game, **parse_settings(settings))
    except RulesError as err:
        raise CliError(str(err)) from None


GAME = click.argument("game", metavar="GAME")
SETTINGS = click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
                        help="Rule switch, e.g. --set space_fill=king (repeatable). See `games`.")
PLAYER = click.option("--player", default="solver", show_default=True,
                      help="Who plays: solver (every card known), or random, greedy, planner "
                           "(they see only what a person sees).")
SAMPLES = click.option("--samples", default=None,
                       help="Planner: completions of the hidden cards solved per decision (default 4).")
SEED = click.option("--seed", default=None, help="random, greedy, planner: seed of their random draws (default 0).")
FORMAT = click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
                      help="text for people; json or csv for programs (shares as fractions).")
QUIET = click.option("--quiet", is_flag=True, help="No progress bar or compile notice (for batch logs).")


def player_params(player: str, budget: str | None, samples: str | None, seed: str | None) -> dict:
    """The keyword parameters of ``player`` from the command's options, refusing options
    that do not apply to it."""
    if player not in player_names():
        raise CliError(f"unknown player {player!r}; choose one of {', '.join(player_names())}")
    if samples is not None and player != "planner":
        raise CliError("--samples applies to --player planner only")
    if seed is not None and player == "solver":
        raise CliError("--seed applies to the random, greedy and planner players; the solver draws nothing at random")
    if budget is not None and player in ("random", "greedy"):
        raise CliError(f"--budget applies to the solver and the planner; the {player} player does not search")
    if player == "solver":
        return {"budgets": parse_budgets(budget or str(DEFAULT_BUDGET)), "win_first": True}
    params = {"seed": parse_seed(seed)}
    if player == "planner":
        params["samples"] = parse_count(samples or str(planner.DEFAULT_SAMPLES), "--samples")
        params["budget"] = parse_count(budget or str(planner.DEFAULT_BUDGET), "--budget")
    return params


def parse_seed(text: str | None) -> int:
    try:
        seed = int(text or 0)
    except ValueError:
        raise CliError(f"--seed must be a whole number, not {text!r}") from None
    if not 0 <= seed <= deals.MAX_DEAL:
        raise CliError(f"--seed must lie in 0..{deals.MAX_DEAL}, not {seed}")
    return seed


def describe_player(player: str, params: dict) -> str:
    if player == "solver":
        return "budget " + budget_text(params)
    return f"player {player} (" + ", ".join(f"{k} {v:,}" for k, v in sorted(params.items())) + ")"


@click.group()
@click.version_option(package_name="solitaire-odds")
def main():
    """Win odds of patience games: numbered deals decided by a sound solver."""


@main.command()
def games():
    """List the games, their switches and defaults."""
    for game in GAMES.values():
        claim = f"  published: {game.claim}" if game.claim else ""
        click.echo(f"{game.name:18} {game.title} ({game.source}){claim}")
        for switch in game.switches:
            click.echo(f"    {switch.describe()}")


@main.command()
@GAME
@click.option("--deal", "deal", type=str, help="Deal number.")
@click.option("--file", "path", type=click.Path(dir_okay=False, path_type=Path), help="Deal file (card names).")
@click.option("--budget", default=None, help=f"Node budget (e.g. 1e6; default {DEFAULT_BUDGET:,}, planner 500).")
@click.option("--write", "write_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the deal's deck to this file.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write a page that shows the deal as cards and steps through the line.")
@PLAYER
@SAMPLES
@SEED
@SETTINGS
def solve(game, deal, path, budget, write_path, html_path, player, samples, seed, settings):
    """Solve one deal and show the winning line (or play it with --player and show its line)."""
    rules = rules_from(game, settings)
    params = player_params(player, budget, samples, seed)

    ncards = rules["ncards"]
    if (deal is None) == (path is None):
        raise CliError("give exactly one of --deal N or --file F")
    if deal is not None:
        number = parse_deal_number(deal)
        deck = deals.deck(number, ncards)
        title = f"{rules.label()} deal {number}"
    else:
        try:
            deck = deals.read_deck(path, ncards)
        except deals.DealFileError as err:
            raise CliError(str(err)) from None
        title = f"{rules.label()} deal file {path}"
    if write_path:
        deals.write_deck(write_path, deck)
    if player == "solver":
        solver = Solver(rules, budget=params["budgets"][-1])
        for attempt in params["budgets"]:  # an escalation: a larger budget only for an unknown
            result = solver.solve(deck=deck, budget=attempt)
            if result.verdict != "unknown":
                break
        verdict = (f"verdict: {result.verdict} (budget {count_text(attempt)}: {result.nodes:,} nodes, "
                   f"{result.seconds:.3f} s)")
    else:
        who = make_player(player, rules, **params)
        result = who.play(number) if deal is not None else who.play_deck(deck)
        verdict = (f"verdict: {result.verdict} ({describe_player(player, params)}: {len(result.line)} moves, "
                   f"{result.nodes:,} solver nodes, {result.seconds:.3f} s)")
    position = reference.initial_position(rules, deck)
    click.echo(title)
    click.echo(position.render())
    click.echo(verdict)
    for step, move in enumerate(result.line, 1):
        click.echo(f"{step:4}. {describe_move(move, position)}")
        position = reference.apply_move(rules, position, move)
    if result.verdict == "won" and not reference.is_won(rules, position):
        raise CliError("internal error: the winning line does not replay through the reference")
    if html_path:
        from .viewer import write_page

        click.echo(f"page: {write_page(html_path, rules, deck, result.line, title, verdict)}")


def parse_deal_number(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise CliError(f"--deal must be a whole number, not {text!r}") from None
    if not 0 <= number <= deals.MAX_DEAL:
        raise CliError(f"deal number {number} is out of range 0..{deals.MAX_DEAL}")
    return number


@main.command()
@GAME
@click.option("--deals", "count", default="10000", show_default=True, help="How many deals.")
@click.option("--first", default="0", show_default=True, help="First deal number (0, 5000, 1e6, 10k, ...).")
@click.option("--budget", default=None,
              help=f"Node budget, or an escalation such as 1e5,1e6,1e7 (default {DEFAULT_BUDGET:,}); "
                   "planner: its budget per solve (default 500).")
@PLAYER
@SAMPLES
@SEED
@click.option("--workers", type=int, default=None, help="Worker processes (default: every core this process may use).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Run folder (default: results/runs/GAME/...).")
@click.option("--resume", is_flag=True, help="Continue an interrupted run in its folder.")
@click.option("--chunk-size", default=1000, show_default=True, help="Deals per results file.")
@click.option("--dask", default=None, metavar="local|ADDRESS",
              help="Solve the chunks on Dask: a LocalCluster of --workers processes, or the "
                   "scheduler at ADDRESS (tcp://host:port).")
@click.option("--table-mb", type=int, default=None,
              help="Transposition table per worker, in MiB (default: 80 bytes per budget node, "
                   "at most 1280). Part of the run's identity: another size can change which deals "
                   "are decided within the budget.")
@FORMAT
@QUIET
@SETTINGS
def odds(game, count, first, budget, player, samples, seed, workers, out, resume, chunk_size, dask, table_mb,
         output_format, quiet, settings):
    """Estimate the share of winnable deals (or of deals a --player wins), with a Wilson 95% interval."""
    rules = rules_from(game, settings)
    params = player_params(player, budget, samples, seed)
    n = parse_count(count, "--deals")
    start = parse_deal_number(str(parse_count(first, "--first", minimum=0)))
    if start + n - 1 > deals.MAX_DEAL:
        raise CliError(f"deals {start}..{start + n - 1} run past the last deal number {deals.MAX_DEAL}")
    if workers is not None and workers < 1:
        raise CliError("--workers must be at least 1")
    if chunk_size < 1:
        raise CliError("--chunk-size must be at least 1")
    if table_mb is not None and table_mb < 1:
        raise CliError("--table-mb must be at least 1")
    if table_mb is not None and player != "solver":
        raise CliError("--table-mb applies to --player solver only")
    table = {"table_mb": table_mb} if table_mb else {}
    spec = RunSpec.of(rules, start, n, player=player, chunk_size=chunk_size, **params, **table)
    run_dir = out or spec.default_dir(Path("results"))
    try:
        rows = run(spec, run_dir, workers=workers, resume=resume, dask=dask, columns=["verdict"],
                   progress=False if quiet else None)
    except (StoreError, WorkersError) as err:
        raise CliError(str(err)) from None
    except KeyboardInterrupt:
        click.echo(f"solitaire-odds: interrupted; the finished chunks are kept in {run_dir}: "
                   "rerun the same command with --resume to continue", err=True)
        sys.exit(130)
    if output_format != "text":
        click.echo(render([run_record([run_dir], rows)], output_format, one=True), nl=False)
        return
    click.echo(f"{rules.label()}  deals {start}..{start + n - 1}  {describe_player(player, params)}")
    click.echo(summary(rows).format())
    click.echo(f"per-deal rows: {run_dir}")


@main.command("summary")
@click.argument("run_dirs", nargs=-1, metavar="RUN_DIR...", type=click.Path(path_type=Path))
@FORMAT
def summary_of_runs(run_dirs, output_format):
    """Merge run folders of the same rules and player (other deal ranges, other machines)
    into one table: each deal once, a deal found twice must have one verdict."""
    from .results import describe_run

    if not run_dirs:
        raise CliError("give one or more run folders (made by `odds`), e.g. results/runs/westcliff/*")
    try:
        rows = load_rows(list(run_dirs), columns=["verdict"])
        info = describe_run(run_dirs[0])
    except StoreError as err:
        raise CliError(str(err)) from None
    if output_format != "text":
        click.echo(render([run_record(run_dirs, rows)], output_format, one=True), nl=False)
        return
    folders = f"{len(run_dirs)} run folder{'s' if len(run_dirs) > 1 else ''}"
    click.echo(f"{info['rules']}  {info['who']}")
    click.echo(f"deals {deal_ranges(rows['deal'].to_numpy())} from {folders}")
    click.echo(summary(rows).format())


@main.command("table")
@click.argument("paths", nargs=-1, metavar="[RUNS]...", type=click.Path(path_type=Path))
@FORMAT
def table_of_runs(paths, output_format):
    """One row per run folder under RUNS (run folders or folders holding them; default:
    results): game, switches, player, budget, deals, counts, share, interval, bracket."""
    run_dirs = find_run_dirs(paths)
    try:
        records = [run_record([run_dir]) for run_dir in run_dirs]
    except StoreError as err:
        raise CliError(str(err)) from None
    click.echo(render(records, output_format), nl=False)


def find_run_dirs(paths) -> list[Path]:
    """The run folders under each path (default: results), or a usage error naming the path
    that holds none."""
    from .results import find_runs

    run_dirs = []
    for path in paths or (Path("results"),):
        found = find_runs(path)
        if not found:
            raise CliError(f"no run folders (with a manifest.json) under {path}; run `odds` or `reproduce` first")
        run_dirs.extend(found)
    return run_dirs


def deal_ranges(numbers, shown: int = 6) -> str:
    """Sorted distinct deal numbers as ``0..999, 2000..2999``; the first ``shown`` ranges."""
    if len(numbers) == 0:
        return "none"
    breaks = np.flatnonzero(np.diff(numbers) != 1)
    starts, ends = numbers[np.r_[0, breaks + 1]], numbers[np.r_[breaks, len(numbers) - 1]]
    text = ", ".join(f"{a}..{b}" if a != b else f"{a}" for a, b in zip(starts[:shown], ends[:shown]))
    return text if len(starts) <= shown else f"{text}, ... ({len(starts)} ranges)"


@main.command("reproduce")
@click.option("--deals", "count", default="1000", show_default=True,
              help="Deals 0..N-1 for every claim, reading and player.")
@click.option("--budget", default="1e5,1e6", show_default=True, help="Solver node budget or escalation.")
@click.option("--workers", type=int, default=None, help="Worker processes (default: every core).")
@click.option("--players", default=None, help="Comma-separated players (default: all of them).")
@click.option("--claims", "claim_keys", default=None, help="Comma-separated claims (default: all).")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=Path("results"),
              show_default=True, help="Results folder; each run goes to ROOT/runs/GAME/...")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the table as CSV.")
def reproduce_claims(count, budget, workers, players, claim_keys, root, csv_path):
    """Measure each published figure under the readings that could explain it."""
    from . import claims, reproduce
    from .players import player_names

    n = parse_count(count, "--deals")
    budgets = parse_budgets(budget)
    if workers is not None and workers < 1:
        raise CliError("--workers must be at least 1")
    chosen = player_names() if players is None else [p.strip() for p in players.split(",") if p.strip()]
    unknown = [p for p in chosen if p not in player_names()]
    if unknown or not chosen:
        raise CliError(f"unknown player {(unknown or [players])[0]!r}; choose from {', '.join(player_names())}")
    try:
        selected = claims.claims_for(None if claim_keys is None else [k.strip() for k in claim_keys.split(",")])
    except ValueError as err:
        raise CliError(str(err)) from None
    try:
        table = reproduce.reproduce(selected, chosen, n, budgets, root=root, workers=workers,
                                    log=lambda line: click.echo(line, err=True))
    except StoreError as err:
        raise CliError(str(err)) from None
    except KeyboardInterrupt:
        click.echo("\ninterrupted: finished chunks are kept under "
                   f"{root}; rerun the same command to continue", err=True)
        sys.exit(130)
    click.echo(f"solver budget {budget_text({'budgets': budgets})}")
    click.echo(reproduce.format_table(selected, table), nl=False)
    if csv_path:
        csv_path.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(csv_path, index=False)
        click.echo(f"table: {csv_path}")


@main.command("plot")
@click.argument("chart", metavar="CHART")
@click.argument("paths", nargs=-1, metavar="[RUNS]...", type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True, help="PNG file to write.")
def plot_chart(chart, paths, out):
    """Draw CHART (shares | convergence | budget | effects) of the runs under RUNS (run folders
    or folders holding them; default: results)."""
    from . import plots

    if chart not in plots.CHARTS:
        raise CliError(f"unknown chart {chart!r}; choose one of {', '.join(plots.CHARTS)}")
    run_dirs = find_run_dirs(paths)
    try:
        figure = plots.draw(chart, run_dirs)
    except StoreError as err:
        raise CliError(str(err)) from None
    click.echo(f"{chart} of {len(run_dirs)} run(s): {plots.save(figure, out)}")


if __name__ == "__main__":
    main()

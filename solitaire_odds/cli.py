"""The ``solitaire-odds`` command."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path

import click
import numpy as np
import pandas as pd

from . import viewer
from .game import deals, reference
from .runs import store
from . import positions
from .difficulty import DEAL_COLUMNS, DIFFICULTIES, PLANNER_GAMES, winnable_deals
from .counts import InputError, parse_budgets, parse_count, parse_seed
from .game.position_file import PositionFileError, read_position
from .positions import DEFAULT_COMPLETIONS
from .players import describe_params, for_rules, params_from_options, player_budget_text, player_names, player_options
from .players.parameters import count_text
from .game.position import describe_move
from .rules import GAMES, RulesError, format_value, parse_settings, resolve
from .runs.runner import (NoDistributed, OutOfMemory, RunSpec, WorkerDied, WorkersError, in_own_process, play_one,
                          run, summary)
from .runs.store import StoreError, load_rows
from .runs.records import FORMATS, render, run_record

USAGE_ERROR = 2
RUNTIME_ERROR = 1
INTERRUPTED = 130
MAX_WORKERS = 256
"""More local processes than this is a typing slip (each one holds a solver)."""
"""A count switch (redeals) beyond this is a typing slip; the engine keeps its values in 64 bits."""
MAX_CHUNKS = 10**6
"""Chunks of one run: its list of work, and its folder, stay small enough to handle."""


class CliError(click.ClickException):
    """A one-line error, exit status 2 (usage) unless told otherwise."""

    exit_code = USAGE_ERROR

    def __init__(self, message: str, exit_code: int = USAGE_ERROR):
        super().__init__(message)
        self.exit_code = exit_code


DEAL_FILE, TABLE = "deal file", "table"
"""What `solve --write` and `reproduce --csv` write (their :class:`store.WriteFailure` targets)."""
TARGET_OPTIONS = {store.RUN_FOLDER: "--out", viewer.PAGE: "--html", DEAL_FILE: "--write", TABLE: "--csv"}
"""The option that places each kind of file the library writes."""


def worded(err: Exception) -> str:
    """A library error in this command line's words: the facts it carries, and what to do
    named by the options that do it (the library's own message names none)."""
    if isinstance(err, store.WriteFailure) and err.target in TARGET_OPTIONS:
        space = "free some disk space or " if err.full else ""
        return f"{err.problem}; {space}choose another {TARGET_OPTIONS[err.target]}"
    if isinstance(err, store.UnknownChunks):
        return f"{err.problem}; restore its {store.MANIFEST} or choose another --out"
    if isinstance(err, store.OtherSettings):
        return f"{err.problem}; choose another --out or the matching settings"
    if isinstance(err, store.PartlyDone):
        return f"{err.problem}; add --resume to continue that run, or choose another --out"
    if isinstance(err, store.DamagedChunk):
        return f"{err.problem}; delete it and rerun `odds` with --resume to solve its deals again"
    if isinstance(err, WorkerDied):
        then = f"{err.kept}: rerun with --resume" if err.kept else "rerun the command"
        return f"a worker process died (killed, or out of memory: --table-mb bounds the solver's table); {then}"
    if isinstance(err, OutOfMemory):
        kept = f"; {err.kept}: rerun with --resume" if err.kept else ""
        return f"out of memory (a smaller --table-mb, or fewer --workers, need less){kept}"
    if isinstance(err, NoDistributed):
        return "--dask needs the distributed package: pip install 'dask[distributed]'"
    return str(err)


def fail(message: str, exit_code: int):
    """End with ``message`` as one line on stderr (whatever line breaks it held)."""
    click.echo(f"solitaire-odds: error: {' '.join(str(message).split())}", err=True)
    sys.exit(exit_code)


class OneLineErrors(click.Group):
    """The command group: every failure ends as one line ``solitaire-odds: error: ...``,
    never a traceback; exit status 2 for usage errors (click's own included), 1 for runtime
    failures (a full disk, an unreachable scheduler, a damaged run folder), 130 for Ctrl-C."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as err:  # a bare command: its help, as click shows it
            err.show()
            sys.exit(err.exit_code)
        except click.UsageError as err:
            hint = f"; see `{err.ctx.command_path} --help`" if err.ctx else ""
            fail(err.format_message().rstrip(".") + hint, USAGE_ERROR)
        except click.ClickException as err:
            fail(err.format_message(), err.exit_code)
        except (StoreError, WorkersError, InputError) as err:
            fail(worded(err), err.exit_code)
        except click.Abort:
            fail("interrupted", INTERRUPTED)
        except OSError as err:
            where = f"{err.filename}: " if err.filename else ""
            fail(f"{where}{err.strerror or err}", RUNTIME_ERROR)
        sys.exit(code if isinstance(code, int) else 0)


@contextlib.contextmanager
def on_ctrl_c(what_is_kept: str):
    """Ctrl-C ends the command with one line saying what is kept, exit status 130.

    The process ends at once after that line (finished work is already on disk, the workers
    are stopped): the interpreter's own shutdown would wait for the process pool's helper
    threads, which can block on queues whose worker processes were just stopped."""
    try:
        yield
    except KeyboardInterrupt:
        click.echo(f"solitaire-odds: interrupted; {what_is_kept}", err=True)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(INTERRUPTED)


def rules_from(game: str, settings: tuple[str, ...]):
    """The rules of GAME (a declared game's name or a rules file, FILE.toml) with ``--set``
    over them; every problem found, joined into the one line of a usage error."""
    try:
        return resolve(game, **parse_settings(settings))
    except RulesError as err:
        raise CliError("; ".join(str(err).splitlines())) from None


GAME = click.argument("game", metavar="GAME")
"""A declared game's name (see `games`) or a rules file, FILE.toml (docs/formats.md)."""
SETTINGS = click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
                        help="Rule switch or part field, e.g. --set space_fill=king or --set tableau.piles=8 "
                             "(repeatable; over a rules file's own). See `games`.")
PLAYER = click.option("--player", default="solver", show_default=True,
                      help="Who plays: solver (every card known), or random, greedy, planner, hindsight, uct "
                           "(they see only what a person sees).")
FORMAT = click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
                      help="text for people; json or csv for programs (shares as fractions).")
ALLOW_OTHER_ENGINE = click.option(
    "--allow-other-engine", is_flag=True,
    help="Mix in verdicts another engine (other solver sources) decided; summary and table then say so.")
QUIET = click.option("--quiet", is_flag=True, help="No progress bar or compile notice (for batch logs).")


def player_option_decorators(command):
    """The options players declare (--budget, --samples, --seed, --table-mb, --think, --prover-seconds,
    --prover-after), each read as
    text and parsed by :func:`player_params` from the player's own declaration."""
    for option, help_text in reversed(player_options().items()):
        command = click.option(option, default=None, help=help_text)(command)
    return command


def player_params(player: str, options: dict[str, str | None]) -> dict:
    """The parameters of ``player`` from the command's player options (keyword -> text or
    None), refusing options that do not apply to it."""
    given = {"--" + key.replace("_", "-"): text for key, text in options.items() if text is not None}
    return params_from_options(player, given)


def describe_player(player: str, params: dict) -> str:
    """``budget 1e5 then 1e6`` for the solver, ``player planner (budget 500, samples 4, seed 0)``
    for the others: the parameters as their declarations show them."""
    if player == "solver":
        return "budget " + player_budget_text(player, params)
    return f"player {player} ({describe_params(player, params)})"


@click.group(cls=OneLineErrors)
@click.version_option(package_name="solitaire-odds")
def main():
    """Win odds of patience games: numbered deals decided by a sound solver."""


@main.command()
def games():
    """List the games, their switches and defaults."""
    for game in GAMES.values():
        claim = f"  published: {game.claim}" if game.claim else ""
        click.echo(f"{game.name:18} {game.title} ({game.source}){claim}")
        click.echo(f"    --budget auto: {player_budget_text('solver', {'budgets': game.ladder})}"
                   + "".join(f"; with {' '.join(f'{k}={format_value(v)}' for k, v in pairs)}: "
                             f"{player_budget_text('solver', {'budgets': ladder})}"
                             for pairs, ladder in game.reading_ladders))
        readings = [(f"{switch.name}={format_value(value)}",
                     for_rules("solver", resolve(game.name, **{switch.name: value}), {"budgets": "auto"}))
                    for switch in game.switches for value in switch.choices if value != switch.default]
        proved = [(name, ladder) for name, ladder in readings if ladder.get("prover_seconds")]
        if proved:
            click.echo(f"    with {' or '.join(name for name, _ in proved)}: "
                       f"{player_budget_text('solver', proved[0][1])}")
        for switch in game.switches:
            click.echo(f"    {switch.describe()}")


@main.command()
@GAME
@click.option("--deal", "deal", type=str, help="Deal number.")
@click.option("--file", "path", type=click.Path(dir_okay=False, path_type=Path), help="Deal file (card names).")
@click.option("--position", "position_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Position file: a game in progress (docs/formats.md); ## marks a card not known.")
@click.option("--completions", default=str(DEFAULT_COMPLETIONS), show_default=True,
              help="With hidden cards in --position: arrangements of them to solve.")
@click.option("--completion-seed", default="0", show_default=True, help="Seed of those arrangements.")
@click.option("--write", "write_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the deal's deck to this file.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write a page that shows the deal as cards and steps through the line.")
@PLAYER
@player_option_decorators
@SETTINGS
def solve(game, deal, path, position_path, completions, completion_seed, write_path, html_path, player, settings,
          **options):
    """Solve one deal and show the winning line (or play it with --player and show its line);
    with --position, say whether a game in progress is still winnable."""
    rules = rules_from(game, settings)
    params = player_params(player, options)

    ncards = rules["ncards"]
    if sum(given is not None for given in (deal, path, position_path)) != 1:
        raise CliError("give exactly one of --deal N, --file F or --position F")
    if position_path is not None:
        if player != "solver" or write_path:
            raise CliError("--position takes the solver only, without --write")
        solve_position(rules, position_path, parse_count(completions, "--completions", 10**6),
                       parse_seed(completion_seed), params, html_path)
        return
    if deal is not None:
        number = parse_deal_number(deal)
        deck = deals.deck(number, ncards)
        title = f"{rules.heading()} deal {number}"
    else:
        number = None
        try:
            deck = deals.read_deck(path, ncards)
        except deals.DealFileError as err:
            raise CliError(str(err)) from None
        title = f"{rules.heading()} deal file {path}"
    if write_path:
        text = deals.format_deck(deck).encode("utf-8")
        store.atomic_write(write_path, lambda file: file.write(text), target=DEAL_FILE)
    with on_ctrl_c("no verdict (a smaller --budget decides sooner, or leaves the deal unknown)"):
        result = in_own_process(play_one, rules, player, tuple(sorted(params.items())),
                                number, None if path is None else deck)
    if player == "solver":
        verdict = solver_verdict(result)
    else:
        verdict = (f"verdict: {result.verdict} ({describe_player(player, params)}: {len(result.line)} moves, "
                   f"{result.nodes:,} solver nodes, {result.seconds:.3f} s)")
    position = reference.initial_position(rules, deck)
    click.echo(title)
    click.echo(position.render())
    click.echo(verdict)
    position = echo_line(rules, position, result.line)
    if result.verdict == "won" and not reference.is_won(rules, position):
        raise CliError("internal error: the winning line does not replay through the reference", RUNTIME_ERROR)
    if html_path:
        start = reference.initial_position(rules, deck)
        click.echo(f"page: {viewer.write_page(html_path, rules, start, result.line, title, verdict)}")


def solver_verdict(result) -> str:
    """The solver's verdict for people: the budget that decided it, its cost, and the step."""
    step = f"; step: {result.decided_by}" if result.decided_by else ""
    return (f"verdict: {result.verdict} (budget {count_text(result.budget)}: {result.nodes:,} nodes, "
            f"{result.seconds:.3f} s{step})")


def solve_position(rules, path: Path, completions: int, seed: int, params: dict, html_path: Path | None) -> None:
    """``solve --position``: the verdict and line from a position with every card known, or
    the share of the hidden cards' arrangements that are winnable (with ``html_path``, also
    the viewer's page of the position and its line)."""
    try:
        position = read_position(path, rules)
    except PositionFileError as err:
        raise CliError(str(err)) from None
    with on_ctrl_c("no verdict (a smaller --budget or fewer --completions answer sooner)"):
        answer = positions.decide(rules, position, completions, seed, **params)
    click.echo(f"{rules.heading()} position {path}")
    click.echo(position.position.render())
    if answer.outcome is not None:
        result = answer.outcome
        click.echo(solver_verdict(result))
        echo_line(rules, position.position, result.line)
        page_of(html_path, rules, position, result.line, f"{rules.heading()} position {path.name}",
                f"verdict: {result.verdict}")
        return
    hidden = len(position.hidden)
    click.echo(f"{hidden} hidden cards: {answer.completions:,} arrangements of them drawn at random "
               f"(seed {answer.seed}), each solved with {describe_player('solver', for_rules('solver', rules, params))}")
    click.echo(answer.summary.format())
    page_of(html_path, rules, position, [], f"{rules.heading()} position {path.name}",
            f"winnable in {answer.summary.won} of {answer.summary.n} arrangements of the {hidden} hidden cards "
            f"({bracket_words(answer.summary)})")


def echo_line(rules, start, line: list):
    """Print ``line`` move by move in words, played from ``start``; the position it ends in."""
    position = start
    for step, move in enumerate(line, 1):
        click.echo(f"{step:4}. {describe_move(move, position)}")
        position = reference.apply_move(rules, position, move)
    return position


def bracket_words(summary) -> str:
    """``5%`` or, with unknowns, ``5%-15%``: the bracket of a sampled share in whole percent."""
    low, high = summary.bracket
    return f"{100 * low:.0f}%" + (f"-{100 * high:.0f}%" if high > low else "")


def page_of(html_path: Path | None, rules, position, line: list, title: str, verdict: str) -> None:
    """The viewer's page of a position file's position and ``line`` from it, when asked for."""
    if html_path:
        click.echo(f"page: {viewer.write_page(html_path, rules, position.position, line, title, verdict)}")


@main.command()
@GAME
@click.option("--position", "position_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Position file: a game in progress (docs/formats.md); ## marks a card not known.")
@click.option("--completions", default="20", show_default=True,
              help="Arrangements of the hidden cards each move is rated on.")
@click.option("--completion-seed", default="0", show_default=True, help="Seed of those arrangements.")
@click.option("--show", default="5", show_default=True, help="How many moves to list, best first.")
@click.option("--budget", default="1e5", show_default=True,
              help="Solver node budget (or escalation) for each arrangement after each move.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write a page that shows the position and the hint (its move played when no card is hidden).")
@SETTINGS
def hint(game, position_path, completions, completion_seed, show, budget, html_path, settings):
    """What to play from a game in progress: every legal move rated by the share of the hidden
    cards' arrangements still winnable after it (with nothing hidden, its exact verdict)."""
    rules = rules_from(game, settings)
    params = player_params("solver", {"budget": budget})
    try:
        position = read_position(position_path, rules)
    except PositionFileError as err:
        raise CliError(str(err)) from None
    count = parse_count(completions, "--completions", 10**5)
    with on_ctrl_c("no hint (a smaller --budget or fewer --completions answer sooner)"):
        rated = positions.hint(rules, position, count, parse_seed(completion_seed), **params)
    if not rated:
        raise CliError("no move is legal in this position (the game is over)")
    click.echo(f"{rules.heading()} position {position_path}: {len(rated)} legal moves, each rated "
               + ("by its verdict" if position.known else f"on {count:,} arrangements of the "
                  f"{len(position.hidden)} hidden cards")
               + f" with {describe_player('solver', for_rules('solver', rules, params))}")
    lines = []
    for k, rating in enumerate(rated[:parse_count(show, "--show")], 1):
        summary = rating.summary
        verdict = "won" if summary.won else "lost" if summary.lost else "unknown"
        share = (f"{verdict} after it" if position.known else
                 f"winnable after it in {summary.won}/{summary.n} ({bracket_words(summary)})")
        lines.append(f"{k}. {describe_move(rating.move, position.position)}: {share}")
        click.echo(f"{k:3}. {describe_move(rating.move, position.position)}   {share}")
    page_of(html_path, rules, position, [rated[0].move] if position.known else [],
            f"{rules.heading()} hint for {position_path.name}", "hint: " + "; ".join(lines))


@main.command("deals")
@GAME
@click.option("--winnable", is_flag=True, help="List deals the solver wins (required: the only listing there is).")
@click.option("--count", default="10", show_default=True, help="How many deals to list.")
@click.option("--difficulty", type=click.Choice(DIFFICULTIES), default=None,
              help="Only deals of this rating (greedy wins: easy; the planner wins half its games: medium; else hard).")
@click.option("--first", default="0", show_default=True, help="First deal number to look at.")
@click.option("--budget", default="auto", show_default=True, help="Solver node budget or escalation.")
@click.option("--write", "write_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also write each listed deal as a deal file into this folder.")
@FORMAT
@SETTINGS
def list_deals(game, winnable, count, difficulty, first, budget, write_dir, output_format, settings):
    """Winnable deal numbers, each with its difficulty measured by play (docs/usage.md)."""
    rules = rules_from(game, settings)
    if not winnable:
        raise CliError("deals lists winnable deals: add --winnable")
    params = player_params("solver", {"budget": budget})
    n = parse_count(count, "--count", 10**6)
    start = parse_deal_number(str(parse_count(first, "--first", least=0)))
    rows = []
    with on_ctrl_c("the deals listed so far are shown above"):
        for rating in winnable_deals(rules, n, difficulty, start, **params):
            rows.append(rating.row())
            if write_dir is not None:
                text = deals.format_deck(deals.deck(rating.deal, rules["ncards"])).encode("utf-8")
                target = write_dir / f"{rules.game}-{rating.deal}.txt"
                store.atomic_write(target, lambda file, text=text: file.write(text), target=DEAL_FILE)
            if output_format == "text":
                if len(rows) == 1:
                    click.echo(f"{rules.heading()}: winnable deals from {start} "
                               f"({describe_player('solver', for_rules('solver', rules, params))}); planner games "
                               f"a deal: {PLANNER_GAMES}")
                    click.echo(f"{'deal':>10}  {'difficulty':10}  greedy  planner  line  solver nodes")
                click.echo(f"{rating.deal:>10}  {rating.difficulty:10}  {'won' if rating.greedy_won else 'lost':6}"
                           f"  {rating.planner_won}/{PLANNER_GAMES:<5}  {rating.line_length:4}  {rating.solver_nodes:,}")
    if output_format == "json":
        click.echo(json.dumps(rows, indent=1))
    elif output_format == "csv":
        click.echo(pd.DataFrame(rows, columns=DEAL_COLUMNS).to_csv(index=False, lineterminator="\n"), nl=False)
    elif len(rows) < n:
        click.echo(f"only {len(rows)} such deals up to the last deal number")


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
@PLAYER
@player_option_decorators
@click.option("--workers", type=int, default=None, help="Worker processes (default: every core this process may use).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Run folder (default: results/runs/GAME/...).")
@click.option("--resume", is_flag=True, help="Continue an interrupted run in its folder.")
@click.option("--chunk-size", default=1000, show_default=True, help="Deals per results file.")
@click.option("--dask", default=None, metavar="local|ADDRESS",
              help="Solve the chunks on Dask: a LocalCluster of --workers processes, or the "
                   "scheduler at ADDRESS (tcp://host:port).")
@ALLOW_OTHER_ENGINE
@FORMAT
@QUIET
@SETTINGS
def odds(game, count, first, player, workers, out, resume, chunk_size, dask, allow_other_engine, output_format, quiet,
         settings, **options):
    """Estimate the share of winnable deals (or of deals a --player wins), with a Wilson 95% interval."""
    rules = rules_from(game, settings)
    params = player_params(player, options)
    n = parse_count(count, "--deals")
    start = parse_deal_number(str(parse_count(first, "--first", least=0)))
    last = start + n - 1
    if last > deals.MAX_DEAL:
        raise CliError(f"deals {start}..{last} run past the last deal number {deals.MAX_DEAL}")
    check_workers(workers)
    if chunk_size < 1:
        raise CliError("--chunk-size must be at least 1")
    if last // chunk_size - start // chunk_size >= MAX_CHUNKS:
        raise CliError(f"{n:,} deals in chunks of {chunk_size:,} make more than {MAX_CHUNKS:,} results files; "
                       "choose a larger --chunk-size")
    spec = RunSpec.of(rules, start, n, player=player, chunk_size=chunk_size, **params)
    run_dir = out or spec.default_dir(Path("results"))
    with on_ctrl_c(f"the finished chunks are kept in {run_dir}: rerun the same command with --resume to continue"):
        rows = run(spec, run_dir, workers=workers, resume=resume, dask=dask, columns=["verdict"],
                   progress=False if quiet else None, allow_other_engine=allow_other_engine)
    if output_format != "text":
        click.echo(render([run_record([run_dir], rows)], output_format, one=True), nl=False)
        return
    click.echo(f"{rules.heading()}  deals {start}..{last}  {describe_player(player, spec.params)}")
    click.echo(summary(rows).format())
    echo_engines([run_dir])
    click.echo(f"per-deal rows: {run_dir}")


def echo_engines(run_dirs) -> None:
    """A line when the verdicts of ``run_dirs`` come from more than one engine (or, in part,
    from work that recorded none)."""
    from .runs.catalog import engines
    from .runs.engine_identity import UNRECORDED, mixed_text

    held = {engine for run_dir in run_dirs for engine in engines(run_dir)}
    if len(held) > 1:
        note = f" ({UNRECORDED}: made before engines were recorded)" if UNRECORDED in held else ""
        click.echo(f"engines: {mixed_text(held)}; these verdicts come from more than one engine{note}")


def check_workers(workers: int | None) -> None:
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise CliError(f"--workers must lie in 1..{MAX_WORKERS}, not {workers}")


@main.command("summary")
@click.argument("run_dirs", nargs=-1, metavar="RUN_DIR...", type=click.Path(path_type=Path))
@ALLOW_OTHER_ENGINE
@FORMAT
def summary_of_runs(run_dirs, allow_other_engine, output_format):
    """Merge run folders of the same rules and player (other deal ranges, other machines)
    into one table: each deal once, a deal found twice must have one verdict."""
    from .runs.catalog import describe_run

    if not run_dirs:
        raise CliError("give one or more run folders (made by `odds`), e.g. results/runs/westcliff/*")
    rows = load_rows(list(run_dirs), columns=["verdict"], allow_other_engine=allow_other_engine)
    info = describe_run(run_dirs[0])
    if output_format != "text":
        click.echo(render([run_record(run_dirs, rows)], output_format, one=True), nl=False)
        return
    folders = f"{len(run_dirs)} run folder{'s' if len(run_dirs) > 1 else ''}"
    numbers = rows["deal"].to_numpy()
    click.echo(f"{info['rules']}  {info['who']}")
    click.echo(f"deals {deal_ranges(numbers)} from {folders}")
    starts, ends = consecutive(numbers)
    holes = [(int(end) + 1, int(start) - 1) for end, start in zip(ends[:-1], starts[1:])]
    if holes:
        click.echo(f"gaps: deals {format_ranges(holes)} are missing; rerun `odds` over the whole range with "
                   "--resume to solve them")
    for run_dir in run_dirs:
        doubled = store.overlaps(run_dir)
        if doubled:
            click.echo(f"overlaps: deals {format_ranges(doubled)} are held by more than one chunk of {run_dir} "
                       "(their verdicts agree; each deal counts once)")
    click.echo(summary(rows).format())
    echo_engines(run_dirs)


@main.command("table")
@click.argument("paths", nargs=-1, metavar="[RUNS]...", type=click.Path(path_type=Path))
@FORMAT
def table_of_runs(paths, output_format):
    """One row per run folder under RUNS (run folders or folders holding them; default:
    results): game, switches, player, budget, deals, counts, share, interval, bracket."""
    run_dirs = find_run_dirs(paths)
    records = [run_record([run_dir]) for run_dir in run_dirs]
    click.echo(render(records, output_format), nl=False)


def find_run_dirs(paths) -> list[Path]:
    """The run folders under each path (default: results), or a usage error naming the path
    that holds none."""
    from .runs.catalog import find_runs

    run_dirs = []
    for path in paths or (Path("results"),):
        found = find_runs(path)
        if not found:
            raise CliError(f"no run folders (with a manifest.json) under {path}; run `odds` or `reproduce` first")
        run_dirs.extend(found)
    return run_dirs


def consecutive(numbers) -> tuple[np.ndarray, np.ndarray]:
    """The first and last numbers of each run of consecutive sorted distinct ``numbers``."""
    if len(numbers) == 0:
        return numbers, numbers
    breaks = np.flatnonzero(np.diff(numbers) != 1)
    return numbers[np.r_[0, breaks + 1]], numbers[np.r_[breaks, len(numbers) - 1]]


def format_ranges(ranges, shown: int = 6) -> str:
    """``0..999, 2000..2999``: the first ``shown`` of (first, last) pairs."""
    ranges = list(ranges)
    text = ", ".join(f"{a}..{b}" if a != b else f"{a}" for a, b in ranges[:shown])
    return text if len(ranges) <= shown else f"{text}, ... ({len(ranges)} ranges)"


def deal_ranges(numbers) -> str:
    """Sorted distinct deal numbers as ``0..999, 2000..2999``."""
    return format_ranges(zip(*consecutive(numbers))) or "none"


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
@ALLOW_OTHER_ENGINE
def reproduce_claims(count, budget, workers, players, claim_keys, root, csv_path, allow_other_engine):
    """Measure each published figure under the readings that could explain it."""
    from .research import claims, reproduce

    n = parse_count(count, "--deals")
    budgets = parse_budgets(budget)
    check_workers(workers)
    chosen = player_names() if players is None else [p.strip() for p in players.split(",") if p.strip()]
    unknown = [p for p in chosen if p not in player_names()]
    if unknown or not chosen:
        raise CliError(f"unknown player {(unknown or [players])[0]!r}; choose from {', '.join(player_names())}")
    try:
        selected = claims.claims_for(None if claim_keys is None else [k.strip() for k in claim_keys.split(",")])
    except ValueError as err:
        raise CliError(str(err)) from None
    with on_ctrl_c(f"the finished chunks are kept under {root}: rerun the same command to continue"):
        table = reproduce.reproduce(selected, chosen, n, budgets, root=root, workers=workers,
                                    log=lambda line: click.echo(line, err=True), allow_other_engine=allow_other_engine)
    click.echo(f"solver budget {player_budget_text('solver', {'budgets': budgets})}")
    click.echo(reproduce.format_table(selected, table), nl=False)
    if csv_path:
        text = table.to_csv(index=False).encode("utf-8")
        store.atomic_write(csv_path, lambda file: file.write(text), target=TABLE)
        click.echo(f"table: {csv_path}")


@main.command("plot")
@click.argument("chart", metavar="CHART")
@click.argument("paths", nargs=-1, metavar="[RUNS]...", type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True, help="PNG file to write.")
def plot_chart(chart, paths, out):
    """Draw CHART (shares | convergence | budget | effects) of the runs under RUNS (run folders
    or folders holding them; default: results)."""
    from .research import plots

    if chart not in plots.CHARTS:
        raise CliError(f"unknown chart {chart!r}; choose one of {', '.join(plots.CHARTS)}")
    run_dirs = find_run_dirs(paths)
    figure = plots.draw(chart, run_dirs)
    try:
        saved = plots.save(figure, out)
    except OSError as err:
        raise CliError(f"cannot write {out}: {err.strerror or err}; choose another --out", RUNTIME_ERROR) from None
    click.echo(f"{chart} of {len(run_dirs)} run(s): {saved}")


SWEEP_TABLES = (".csv", ".json")
SWEEP_CHARTS = (".png", ".svg", ".pdf")


@main.command("sweep")
@GAME
@click.option("--vary", "vary", multiple=True, required=True, metavar="KEY=V1,V2,...",
              help="A rule and its values, e.g. --vary tableau.piles=6,7,8 or =6..12 (repeatable: every "
                   "combination is run).")
@click.option("--players", default="solver", show_default=True, help="Comma-separated players.")
@click.option("--deals", "count", default="1000", show_default=True, help="Deals a point.")
@click.option("--first", default="0", show_default=True, help="First deal number.")
@player_option_decorators
@click.option("--workers", type=int, default=None, help="Worker processes (default: every core this process may use).")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=Path("results"),
              show_default=True, help="Results folder; each point is a run folder under ROOT/runs/GAME/...")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the table to this .csv or .json file.")
@click.option("--chart", "chart_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also draw the share against the first varied rule (.png, .svg or .pdf).")
@FORMAT
@QUIET
@SETTINGS
def sweep_rules(game, vary, players, count, first, workers, root, out_path, chart_path, output_format, quiet,
                settings, budget, samples, seed, table_mb, think, prover_seconds, prover_after):
    """Odds of GAME as rules vary: every combination of the --vary values for every player, each
    an ordinary resumable run under --root (a rerun solves only what is missing), and one table
    with a row per point and player."""
    from .research import plots
    from .research.sweep import SweepError, format_table, sweep, to_csv, to_json

    check_workers(workers)
    for path, suffixes, option in ((out_path, SWEEP_TABLES, "--out"), (chart_path, SWEEP_CHARTS, "--chart")):
        if path is not None and path.suffix.lower() not in suffixes:
            raise CliError(f"{option} takes a {' or '.join(suffixes)} file, not {path.name!r}")
    chosen = [p.strip() for p in players.split(",") if p.strip()]

    def log(line: str) -> None:
        if not quiet or "refused" in line:
            click.echo(line, err=True)

    with on_ctrl_c(f"the finished points and chunks are kept under {root}: rerun the same command to continue"):
        try:
            table = sweep(game, list(vary), chosen, deals=count, first=first, root=root, workers=workers,
                          budget=budget, samples=samples, seed=seed, table_mb=table_mb, think=think,
                          prover_seconds=prover_seconds, prover_after=prover_after,
                          progress=False if quiet else None, log=log, **parse_settings(settings))
        except (RulesError, SweepError) as err:
            raise CliError(str(err)) from None
    text = {"text": format_table, "csv": to_csv, "json": to_json}[output_format](table)
    click.echo(text, nl=False)
    if out_path is not None:
        data = (to_json if out_path.suffix.lower() == ".json" else to_csv)(table).encode("utf-8")
        try:
            store.atomic_write(out_path, lambda file: file.write(data), target=TABLE)
        except store.WriteFailure as err:
            raise CliError(f"{err.problem}; choose another --out", RUNTIME_ERROR) from None
        click.echo(f"table: {out_path}", err=True)
    if chart_path is not None:
        try:
            saved = plots.save(plots.plot_sweep(table), chart_path)
        except OSError as err:
            raise CliError(f"cannot write {chart_path}: {err.strerror or err}; choose another --chart",
                           RUNTIME_ERROR) from None
        click.echo(f"chart: {saved}", err=True)


if __name__ == "__main__":
    main()

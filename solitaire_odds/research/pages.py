"""The tables that README.md and the pages under docs/ show, made from the committed results
alone (results/headline.csv, claims.csv, deciding.csv, the other tables beside them and the
verdict files under results/verdicts/), so that a reader's numbers are always what the files
say and a test can tell when a page is stale.

Each table sits in its page between the two lines :func:`begin` and :func:`end` name;
:func:`write_pages` replaces what lies between them and :func:`stale_pages` lists the tables
that differ from what the files make now. ``python experiments/docs_tables.py`` runs the first.

The README's table of answers takes, for each game at its defaults, the tightest measurement of
the winnable share (the narrowest 95% interval around its bracket: :func:`tightest`), whether it
is a campaign's verdict file or a row of results/deciding.csv, and names its deals and ladder:
the two tables hold measurements of different depth and size (2,000 deals at 1e8 or 50,000 at
1e7), and a reader wants the answer that says most.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from .. import steps
from ..engine import tuning
from ..players import solver_steps
from ..rules import GAMES, format_value
from ..runs import catalog, verdicts
from ..stats import wilson
from .claims import CLAIMS, PLAY, SOLVABLE, Claim
from .reproduce import closest, distance, format_share, short_count

PAGES: dict[str, tuple[str, ...]] = {
    "README.md": ("answers",),
    "docs/index.md": ("answers",),
    "docs/results.md": ("headline", "claims", "deciding", "difficulty", "strength", "strength claims", "odds", "switch effects",
                        "budget", "run costs"),
    "docs/benchmarks.md": ("scaling",),
    "docs/solver.md": ("steps", "ladders"),
    "docs/tuning.md": ("tuning",),
}
"""Which generated tables each page holds, by the page's path in the repository."""


def begin(name: str) -> str:
    """The line before the generated table ``name`` in a page."""
    return f"<!-- {name} table: made by experiments/docs_tables.py from results/ -->"


def end(name: str) -> str:
    """The line after the generated table ``name`` in a page."""
    return f"<!-- end of the {name} table -->"


def percent(share: float) -> str:
    return f"{share:.2%}"


def budget_text(budget: int) -> str:
    """A node budget as people write it: ``1e5`` for a power of ten, else with separators."""
    budget = int(budget)
    exponent = len(str(budget)) - 1
    return f"1e{exponent}" if budget == 10**exponent else f"{budget:,}"


def ladder_text(budgets) -> str:
    """A budget ladder such as ``1e5 → 1e6 → 1e7`` (a step that is not a node budget, such as
    the prover's, as it is written)."""
    return " → ".join(b if isinstance(b, str) else budget_text(b) for b in budgets)


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


# ---- the committed results, read once ----

class Results:
    """What the generated tables are made from: the committed CSV tables under ``root`` (each
    read when first needed) and, per verdict file, its rules, player, parameters and
    CPU-hours (from the file's metadata, not its rows, or estimated from a sample)."""

    def __init__(self, root: str | Path = "results"):
        self.root = Path(root)
        self.sampled = sampled_costs(self.root)
        records = []
        for path in catalog.find_verdicts(self.root):
            metadata = pq.read_schema(path).metadata or {}
            manifest = json.loads(metadata[verdicts.MANIFEST_KEY])
            info = catalog.describe_manifest(manifest, path)
            records.append({"rules": info["rules"], "player": info["player"],
                            "budgets": solver_steps(info["params"]),
                            "cost": cost_text(path, self.sampled)})
        self.files = pd.DataFrame.from_records(records, columns=["rules", "player", "budgets", "cost"])

    @cached_property
    def headline(self) -> pd.DataFrame:
        return self.table("headline.csv")

    @cached_property
    def claims(self) -> pd.DataFrame:
        return self.table("claims.csv")

    @cached_property
    def deciding(self) -> pd.DataFrame:
        """results/deciding.csv; none measured (no rows) where a results folder has no such file."""
        if not (self.root / "deciding.csv").exists():
            return pd.DataFrame(columns=["rules", "ladder", "deals", "won", "lost", "unknown"])
        return self.table("deciding.csv")

    @cached_property
    def strength(self) -> pd.DataFrame | None:
        """results/strength.csv (experiments/strength.py); None where a results folder has none."""
        return self.table("strength.csv") if (self.root / "strength.csv").exists() else None

    def table(self, name: str) -> pd.DataFrame:
        return pd.read_csv(self.root / name)


def game_order(rules: str) -> tuple:
    """Sort key of a rules label: the game's place in GAMES, its defaults first, then the label."""
    game = rules.split()[0]
    return (list(GAMES).index(game) if game in GAMES else len(GAMES), rules != game, rules)


# ---- the deciding table and the tightest measurement of a rule set ----

def ladders(table: pd.DataFrame) -> pd.DataFrame:
    """Per rule set and budget ladder of results/deciding.csv, its largest measurement, with
    ``budgets`` as a tuple of ints, in game order and by ladder depth."""
    if table.empty:
        return table.assign(budgets=[])
    table = table.copy()
    table["budgets"] = table["ladder"].map(lambda text: tuple(int(float(b)) for b in str(text).split(",")))
    table["prover_seconds"] = table["prover_seconds"].fillna(0.0) if "prover_seconds" in table else 0.0
    table = table.sort_values("deals", kind="stable").groupby(["rules", "ladder", "prover_seconds"], sort=False).tail(1)
    order = table.apply(lambda row: (len(row["budgets"]), row["budgets"][-1], row["prover_seconds"],
                                     game_order(row["rules"])), axis=1)
    return table.loc[order.sort_values().index].reset_index(drop=True)


@dataclass(frozen=True)
class Measurement:
    """The solver's verdicts on one rule set: counts over ``deals`` deals at ``budgets``."""

    deals: int
    won: int
    lost: int
    unknown: int
    budgets: tuple        # node budgets, and the prover step where there was one
    source: str   # "campaign" (a verdict file) or "deciding" (results/deciding.csv)

    @property
    def bracket(self) -> tuple[float, float]:
        return self.won / self.deals, (self.won + self.unknown) / self.deals

    @property
    def depth(self) -> tuple:
        return (max(b for b in self.budgets if not isinstance(b, str)), self.deals)

    @property
    def interval(self) -> tuple[float, float]:
        """The bracket's 95% interval: the Wilson low of the won share, the Wilson high of the
        won-or-unknown share."""
        return wilson(self.won, self.deals)[0], wilson(self.won + self.unknown, self.deals)[1]

    @property
    def width(self) -> float:
        return self.interval[1] - self.interval[0]


def solver_measurements(data: Results, rules: str) -> list[Measurement]:
    """Every committed measurement of the solver on ``rules``: its campaign verdict file (from
    headline.csv, the ladder from the file) and each ladder of results/deciding.csv."""
    found = []
    row = data.headline[(data.headline["rules"] == rules) & (data.headline["player"] == "solver")]
    file = data.files[(data.files["rules"] == rules) & (data.files["player"] == "solver")]
    if len(row) and len(file):
        row = row.iloc[0]
        found.append(Measurement(int(row["deals"]), int(row["won"]), int(row["lost"]), int(row["unknown"]),
                                 file.iloc[0]["budgets"], "campaign"))
    for row in ladders(data.deciding[data.deciding["rules"] == rules]).itertuples():
        found.append(Measurement(int(row.deals), int(row.won), int(row.lost), int(row.unknown), row.budgets,
                                 "deciding"))
    return found


def tightest(data: Results, rules: str) -> Measurement | None:
    """The measurement whose bracket's 95% interval is narrowest (then: the deepest ladder, the
    most deals): few unknowns and many deals both narrow it."""
    found = solver_measurements(data, rules)
    return min(found, key=lambda m: (round(m.width, 12), tuple(-x for x in m.depth))) if found else None


# ---- the README's answers ----

def claim_of(game: str) -> Claim | None:
    return next((claim for claim in CLAIMS if claim.game == game), None)


def claim_rows(data: Results, claim: Claim) -> pd.DataFrame:
    """The claims table's rows of ``claim``, with the planner's headline rows of its readings
    beside them (the claims table leaves the planner out; it ran on the headline rule sets)."""
    mine = data.claims[data.claims["claim"] == claim.key]
    planner = []
    for reading in claim.readings:
        label = claim.rules(reading).label()
        for row in data.headline[(data.headline["rules"] == label) & (data.headline["player"] == "planner")].itertuples():
            planner.append({"claim": claim.key, "reading": claim.reading_label(reading), "player": "planner",
                            "who": "planner", "deals": row.deals, "won": row.won, "unknown": row.unknown,
                            "share": row.share, "share_low": row.share_low, "share_high": row.share_high,
                            "unknown_share": 0.0, "bracket_low": row.share, "bracket_high": row.share,
                            "bracket_ci_high": row.share_high})
    return pd.concat([mine, pd.DataFrame.from_records(planner)], ignore_index=True) if planner else mine


def verdict_text(data: Results, claim: Claim | None) -> str:
    """What the published figure turns out to be: its kind, and the measurement of that kind
    that comes closest to it (inside that measurement's 95% bracket, or how far off)."""
    if claim is None or claim.value is None:
        return "no published figure; these are first estimates"
    table = claim_rows(data, claim)
    best, _ = closest(claim, table)
    if best is None:
        return "not measured yet"
    reading = "" if best["reading"] == "defaults" else f" with `{best['reading']}`"
    if claim.measures == PLAY:
        inside = best["share_low"] <= claim.value <= best["bracket_ci_high"]
        where = "inside its 95% interval" if inside else f"{100 * distance(claim, best):.1f} points off"
        who = "the greedy player" if best["player"] == "greedy" else f"the {best['player']}"
        return f"a person's share; nearest: {who}{reading}, {best['share']:.1%} ({where})"
    assert claim.measures == SOLVABLE
    # the reading's tightest measurement, which may be a deciding row rather than the claims table's file
    found = tightest(data, claim.rules("" if best["reading"] == "defaults" else best["reading"]).label())
    low, high = found.interval
    where = "inside its 95% bracket" if low <= claim.value <= high else "outside its 95% bracket"
    return (f"a winnable share; {reading.strip() or 'at the defaults'}: [{percent(found.bracket[0])}, "
            f"{percent(found.bracket[1])}] ({found.deals:,}; {ladder_text(found.budgets)}), {where}")


def player_share(data: Results, rules: str, player: str) -> str:
    row = data.headline[(data.headline["rules"] == rules) & (data.headline["player"] == player)]
    if row.empty:
        return "-"
    return f"{row.iloc[0]['share']:.1%} ({short_count(int(row.iloc[0]['deals']))})"


STRONGEST_DEALS = 1_000
"""Deals a strength point needs before the answers table quotes it as the strongest player."""


def strongest_player(data: Results, game: str) -> str:
    """The highest share a player who sees only what a person sees wins at ``game``'s defaults:
    the headline planner or a strength point of at least STRONGEST_DEALS deals."""
    points = []
    row = data.headline[(data.headline["rules"] == game) & (data.headline["player"] == "planner")]
    if not row.empty:
        points.append((row.iloc[0]["share"], "planner", int(row.iloc[0]["deals"])))
    if data.strength is not None:
        table = data.strength
        table = table[(table["rules"] == game) & (table["deals"] >= STRONGEST_DEALS)
                      & ~table["player"].isin(["random", "greedy"])]
        points += [(r.share, f"{r.player}, {r.parameters.replace(', seed 0', '')}", int(r.deals))
                   for r in table.itertuples()]
    if not points:
        return "-"
    share, who, deals = max(points, key=lambda point: point[0])
    return f"{share:.1%}: {who} ({short_count(deals)})"


def answers(data: Results) -> str:
    """One row per game at its defaults: the winnable share's bracket from the deepest
    measurement with its deals and ladder, the greedy player's share and the strongest
    player's (deals in brackets), the published figure and what it turns out to be."""
    rows = []
    for game in GAMES:
        best = tightest(data, game)
        bracket = "-" if best is None else f"[{percent(best.bracket[0])}, {percent(best.bracket[1])}]"
        measured = "-" if best is None else f"{best.deals:,}; {ladder_text(best.budgets)}"
        claim = claim_of(game)
        published = "none" if claim is None or claim.value is None else f"“{claim.text}”"
        rows.append([f"`{game}`", bracket, measured, player_share(data, game, "greedy"),
                     strongest_player(data, game), published, verdict_text(data, claim)])
    return markdown_table(["game", "winnable", "deals; ladder", "greedy", "strongest player", "published",
                           "what it turns out to be"], rows)


# ---- the results page ----

def verdict_key(path: str | Path) -> str:
    """How results/run_costs.csv names a verdict file: its game's folder and its name."""
    path = Path(path)
    return f"{path.parent.name}/{path.name}"


def sampled_costs(root: str | Path) -> dict[str, float]:
    """experiments/run_costs.py's estimates (results/run_costs.csv), in CPU-hours by :func:`verdict_key`."""
    estimates = Path(root) / "run_costs.csv"
    return pd.read_csv(estimates).set_index("file")["cpu_hours"].to_dict() if estimates.exists() else {}


def cost_text(path: str | Path, sampled: dict[str, float]) -> str:
    """The CPU-hours of the verdict file at ``path``: kept in the file, else "~" and its sampled
    estimate (:func:`sampled_costs`), else "-"."""
    seconds = verdicts.cpu_seconds(path)
    if seconds is not None:
        return f"{seconds / 3600:.2f}"
    estimate = sampled.get(verdict_key(path))
    return "-" if estimate is None else f"~{estimate:.2f}"


def headline(data: Results) -> str:
    """results/headline.csv as a table: counts, share won with its Wilson 95% interval, the
    bracket [won, won + unknown] / deals, the solver's ladder (marked † where results/deciding.csv
    holds a tighter measurement of the same rules: :func:`tightest`) and the CPU-hours the run cost."""
    rows = []
    for row in data.headline.itertuples():
        file = data.files[(data.files["rules"] == row.rules) & (data.files["player"] == row.player)]
        who = row.player
        if row.player == "solver" and len(file):
            best = tightest(data, row.rules)
            who = f"solver {ladder_text(file.iloc[0]['budgets'])}" + (" †" if best.source == "deciding" else "")
        bracket = f"[{percent(row.won / row.deals)}, {percent((row.won + row.unknown) / row.deals)}]"
        rows.append([row.rules, who, f"{row.deals:,}", f"{row.won:,}", f"{row.lost:,}", f"{row.unknown:,}",
                     f"{percent(row.share)} [{percent(row.share_low)}, {percent(row.share_high)}]", bracket,
                     file.iloc[0]["cost"] if len(file) else "-"])
    return markdown_table(["rules", "player", "deals", "won", "lost", "unknown", "share won [Wilson 95%]",
                           "bracket", "CPU-h"], rows)


def claims_table(claims: list[Claim], table: pd.DataFrame) -> str:
    """A row per reading of every claim: the solver's and the players' shares with their Wilson
    95% intervals, the solver's undecided share and each cell's deals."""
    def cell(rows):
        if rows.empty:
            return "-"
        return f"{format_share(rows.iloc[0])}, {short_count(rows.iloc[0]['deals'])}"

    players = [player for player in ("solver", "greedy", "random", "planner") if player in set(table["player"])]
    rows = []
    for claim in claims:
        for k, reading in enumerate(claim.readings):
            label = claim.reading_label(reading)
            name = (f'{claim.game} "{claim.text}"' if claim.value is not None else
                    f"{claim.game}, no published figure") if k == 0 else ""
            mine = table[(table["claim"] == claim.key) & (table["reading"] == label)]
            rows.append([name, label, *(cell(mine[mine["player"] == p]) for p in players)])
    return markdown_table(["claim", "reading", *players], rows)


DECIDERS = ("relaxation", "win-first", "shortcuts", "win finder", "search", "relay", "round finder",
            "transfer", "prover")
"""The steps results/deciding.csv counts (``Outcome.decided_by``), each in the columns
won_by_X / lost_by_X (X with underscores), in the order the table names them."""


def deciding(table: pd.DataFrame) -> str:
    """results/deciding.csv as a table: per rule set and budget ladder its largest measurement,
    the counts, share, bracket, CPU-milliseconds a deal and which step decided how many (a step
    without its column decided none)."""
    rows = []
    for row in ladders(table.fillna({c: 0 for c in table.columns if "_by_" in c})).itertuples():
        parts = []
        for part in DECIDERS:
            name = part.replace(" ", "_").replace("-", "_")
            won, lost = (int(getattr(row, f"{verdict}_by_{name}", 0)) for verdict in ("won", "lost"))
            said = [f"{won:,} won"] * (won > 0) + [f"{lost:,} lost"] * (lost > 0)
            if said:
                parts.append(f"{part} {', '.join(said)}")
        prover = f" + prover {row.prover_seconds:g} s" if row.prover_seconds else ""
        rows.append([f"`{row.rules}`", ladder_text(row.budgets) + prover, f"{row.deals:,}", f"{row.won:,}", f"{row.lost:,}",
                     f"{row.unknown:,}", f"{percent(row.share)} [{percent(row.low)}, {percent(row.high)}]",
                     f"[{percent(row.bracket_low)}, {percent(row.bracket_high)}]", f"{1000 * row.cpu_per_deal:.1f}",
                     "; ".join(parts)])
    return markdown_table(["rules", "ladder", "deals", "won", "lost", "unknown", "won share [Wilson 95%]", "bracket",
                           "CPU-ms/deal", "decided by"], rows)


def odds(data: Results) -> str:
    table = data.table("odds_table.csv")
    rows = [[row.rules, row.who, f"{row.deals:,}", f"{row.won:,}", f"{row.lost:,}", f"{row.unknown:,}",
             f"{percent(row.share)} [{percent(row.share_low)}, {percent(row.share_high)}]",
             f"[{percent(row.share)}, {percent(row.bracket_high)}]"] for row in table.itertuples()]
    return markdown_table(["rules", "player", "deals", "won", "lost", "unknown", "share won [Wilson 95%]", "bracket"],
                          rows)


def switch_effects(data: Results) -> str:
    table = data.table("switch_effects.csv")
    rows = [[row.game, f"`{row.switch}`", row.who, f"{row.deals:,}", percent(row.share_defaults), percent(row.share),
             f"{100 * row.effect:+.1f} [{100 * row.low:+.1f}, {100 * row.high:+.1f}]",
             f"[{100 * row.range_low:+.1f}, {100 * row.range_high:+.1f}]", percent(row.unknown_share)]
            for row in table.itertuples()]
    return markdown_table(["game", "switch", "player", "deals", "share at defaults", "share with switch",
                           "effect, points [95%]", "effect's range with the unknowns", "unknown"], rows)


def budget(data: Results) -> str:
    table = data.table("budget_table.csv")
    rows = [[row.rules, budget_text(row.budget), f"{row.n:,}", f"{row.undecided:,}",
             f"{percent(row.unknown_share)} [{percent(row.low)}, {percent(row.high)}]"] for row in table.itertuples()]
    return markdown_table(["rules", "budget", "deals", "undecided", "undecided share [Wilson 95%]"], rows)


def run_costs(data: Results) -> str:
    table = data.table("run_costs.csv")
    rows = [[row.rules, row.player, f"{row.deals:,}", f"{row.sampled:,}", f"{row.same_verdicts:,}",
             f"{row.newly_decided:,}", f"{row.conflicts:,}", f"{row.sample_cpu_s:.1f}", f"{row.cpu_hours:.2f}"]
            for row in table.itertuples()]
    return markdown_table(["rules", "player", "deals", "sampled", "same verdicts", "newly decided", "conflicts",
                           "sample CPU-s", "estimated CPU-h"], rows)


def scaling(data: Results) -> str:
    table = data.table("scaling.csv")
    rows = [[row.mode, str(row.workers), f"{row.deals:,}", f"{row.seconds:.2f}", f"{row.deals_per_s:,.0f}",
             f"{row.solve_s:.2f}", f"{row.load:.2f}", str(row.same_rows), f"{row.speedup:.2f}"]
            for row in table.itertuples()]
    return markdown_table(["mode", "workers", "deals", "seconds", "deals/s", "solve CPU-s", "load", "same rows",
                           "speed-up"], rows)


def difficulty(data: Results) -> str:
    """results/difficulty.csv: per rule set, the deals the solver wins and how their ratings
    (solitaire_odds.difficulty) are spread, beside the CPU-seconds a rated deal took."""
    if not (data.root / "difficulty.csv").exists():
        return "(not measured: python experiments/difficulty.py)\n"
    rows = []
    for row in sorted(data.table("difficulty.csv").itertuples(), key=lambda r: game_order(r.rules)):
        share = lambda k: f"{k:,} ({k / row.won:.0%})" if row.won else "0"  # noqa: E731
        rows.append([f"`{row.rules}`", f"{row.deals:,}", f"{row.won:,}", share(row.easy), share(row.medium),
                     share(row.hard), f"{row.mean_line:.0f}", f"{row.cpu_per_deal:.2f}"])
    return markdown_table(["rules", "deals", "won", "easy", "medium", "hard", "mean line", "CPU-s a deal"], rows)


def strength(data: Results) -> str:
    """results/strength.csv: per rule set, each player setting's share won and what it is of
    the winnable share, beside the time a game took (experiments/strength.py)."""
    if data.strength is None:
        return "(not measured: python experiments/strength.py)\n"
    rows = []
    for row in sorted(data.strength.itertuples(), key=lambda r: game_order(r.rules)):
        of_winnable = (f"{row.share / row.solvable_high:.0%}" if row.solvable_high == row.solvable_low
                       else f"{row.share / row.solvable_high:.0%}-{row.share / row.solvable_low:.0%}")
        rows.append([f"`{row.rules}`", row.player, row.parameters, f"{row.deals:,}",
                     f"{percent(row.share)} [{percent(row.low)}, {percent(row.high)}]", of_winnable,
                     f"{row.seconds_per_game:.2f}", f"{row.nodes_per_game:,.0f}"])
    return markdown_table(["rules", "player", "parameters", "deals", "share won [95% CI]", "of the winnable",
                           "s a game", "nodes a game"], rows)


def on_the_curve(claim: Claim, points: pd.DataFrame) -> str:
    """Where ``claim``'s figure falls among the strength ``points`` of its game's defaults:
    the points whose 95% interval holds it, else the two it lies between."""
    points = points.sort_values("share", kind="stable")
    name = [f"{row.player} ({row.parameters}; {percent(row.share)}, {row.seconds_per_game:.2g} s a game)"
            for row in points.itertuples()]
    inside = [who for who, row in zip(name, points.itertuples()) if row.low <= claim.value <= row.high]
    if inside:
        return "inside the 95% interval of " + "; ".join(inside)
    below = [who for who, share in zip(name, points["share"]) if share < claim.value]
    above = [who for who, share in zip(name, points["share"]) if share > claim.value]
    if not below:
        return "below every player: " + above[0] + " wins more"
    if not above:
        return "above every player: the strongest, " + below[-1] + ", wins less"
    return f"between {below[-1]} and {above[0]}"


def strength_claims(data: Results) -> str:
    """Each published claim about a person's share beside its game's strength curve at the
    defaults (results/strength.csv): which player, thinking how hard, wins that share."""
    if data.strength is None:
        return "(not measured: python experiments/strength.py)\n"
    table = data.strength
    rows = []
    for claim in CLAIMS:
        points = table[table["rules"] == claim.game]
        if claim.measures != PLAY or claim.value is None or points.empty:
            continue
        rows.append([f"`{claim.game}`", f"“{claim.text}” ({percent(claim.value)})",
                     f"{int(points['deals'].min()):,}-{int(points['deals'].max()):,}" if points["deals"].nunique() > 1
                     else f"{int(points['deals'].iloc[0]):,}", on_the_curve(claim, points)])
    return markdown_table(["game", "published", "deals a point", "on the strength curve"], rows)


def steps_table(data: Results) -> str:
    """The solver's declared steps (solitaire_odds.steps), in the order a solve runs them."""
    rows = steps.table()
    header = ["step", "proves", "games", "needs", "budget share", "what it does"]
    return markdown_table(header, [[f"`{row['step']}`", *(row[key] for key in header[1:])] for row in rows])


def ladders_table(data: Results) -> str:
    """Each game's ``--budget auto`` ladder, as its declaration names it."""
    rows = [[f"`{game.name}`", ladder_text(game.ladder)] for game in GAMES.values()]
    rows += [[f"`{game.name} {' '.join(f'{k}={format_value(v)}' for k, v in pairs)}`", ladder_text(ladder)]
             for game in GAMES.values() for pairs, ladder in game.reading_ladders]
    return markdown_table(["rules", "--budget auto"], rows)


def tuning_table(data: Results) -> str:
    """The solver's tuned constants (engine/tuning.py) with the measurements that chose them."""
    return tuning.markdown()


TABLES: dict[str, Callable[[Results], str]] = {
    "answers": answers,
    "headline": headline,
    "claims": lambda data: claims_table(list(CLAIMS), data.claims),
    "deciding": lambda data: deciding(data.deciding),
    "odds": odds,
    "switch effects": switch_effects,
    "budget": budget,
    "run costs": run_costs,
    "scaling": scaling,
    "difficulty": difficulty,
    "strength": strength,
    "strength claims": strength_claims,
    "steps": steps_table,
    "ladders": ladders_table,
    "tuning": tuning_table,
}
"""Each generated table by name, made from the committed results."""


# ---- the pages ----

def between(text: str, name: str) -> str | None:
    """The generated table ``name`` as the page ``text`` holds it (None: the page lacks its lines)."""
    match = re.search(re.escape(begin(name)) + r"\n(.*?)" + re.escape(end(name)), text, re.DOTALL)
    return None if match is None else match.group(1)


def replace(text: str, name: str, table: str) -> str:
    """``text`` with the generated table ``name`` replaced by ``table``; ValueError if the page
    lacks the lines around it."""
    if between(text, name) is None:
        raise ValueError(f"no lines {begin(name)!r} and {end(name)!r} around the {name} table")
    start = text.index(begin(name)) + len(begin(name))
    return text[:start] + "\n" + table + text[text.index(end(name), start):]


def made(root: str | Path = "results") -> dict[str, str]:
    """Every generated table, by name, as the committed results under ``root`` make it now."""
    data = Results(root)
    names = {name for names in PAGES.values() for name in names}
    return {name: TABLES[name](data) for name in TABLES if name in names}


def stale_pages(repository: str | Path, root: str | Path | None = None) -> list[str]:
    """The tables ("page: name") under ``repository`` that differ from what its results make now."""
    repository = Path(repository)
    tables = made(repository / "results" if root is None else root)
    stale = []
    for page, names in PAGES.items():
        text = (repository / page).read_text(encoding="utf-8")
        stale += [f"{page}: {name}" for name in names if between(text, name) != tables[name]]
    return stale


def write_pages(repository: str | Path, root: str | Path | None = None) -> list[Path]:
    """Rewrite every generated table of the pages under ``repository``; return the pages changed."""
    repository = Path(repository)
    tables = made(repository / "results" if root is None else root)
    changed = []
    for page, names in PAGES.items():
        path = repository / page
        old = text = path.read_text(encoding="utf-8")
        for name in names:
            text = replace(text, name, tables[name])
        if text != old:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed

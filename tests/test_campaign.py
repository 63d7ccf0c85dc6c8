"""The committed results at scale: compact verdict files, the headline table made from them, and
the scripts that fill them (experiments/campaign.py, headline.py, scaling.py)."""

import importlib
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from solitaire_odds.research import results
from solitaire_odds.runs import catalog
from solitaire_odds.runs import store, verdicts
from solitaire_odds.research.reproduce import run_specs
from solitaire_odds.rules import resolve
from solitaire_odds.runs.runner import RunSpec, solve_chunk
from solitaire_odds.runs.records import run_record

EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"
GREEDY = EXPERIMENTS.parent / "results" / "verdicts" / "duchess" / "defaults--greedy.parquet"


@pytest.fixture
def scripts(monkeypatch):
    """The experiment scripts as modules (they import their neighbour common.py)."""
    monkeypatch.syspath_prepend(str(EXPERIMENTS))
    return {name: importlib.import_module(name) for name in ("campaign", "headline", "scaling", "deepen", "run_costs")}


def synthetic_rows(n: int, seed: int = 0) -> pd.DataFrame:
    """Rows shaped like a solver run of American Westcliff at 1e4 then 1e5 nodes: nearly all
    won, a few hundred nodes a deal (log-normal), a few deals at the larger budget."""
    rng = np.random.default_rng(seed)
    draw = rng.random(n)
    return pd.DataFrame({
        "deal": np.arange(n, dtype="uint64"),
        "verdict": np.where(draw < 0.999, "won", np.where(draw < 0.9995, "lost", "unknown")),
        "budget": np.where(rng.random(n) < 0.998, 10_000, 100_000),
        "nodes": np.minimum(rng.lognormal(5.5, 1.2, n).astype("int64") + 1, 110_000),
    })


def manifest() -> dict:
    return RunSpec.of(resolve("westcliff"), 0, 1, budgets=(10_000, 100_000), win_first=True).manifest()


def test_a_verdict_file_reads_back_its_rows_sorted_by_deal_and_its_manifest(tmp_path):
    rows = synthetic_rows(1000).sample(frac=1, random_state=1)
    rows["seconds"], rows["line"] = 0.5, "a winning line"
    path = verdicts.write(tmp_path / "verdicts" / "x.parquet", manifest(), rows)
    read_manifest, read_rows = verdicts.read(path)
    assert read_manifest == json.loads(json.dumps(manifest()))
    expected = rows.sort_values("deal")[list(verdicts.COLUMNS)].reset_index(drop=True)
    pd.testing.assert_frame_equal(read_rows, expected)
    schema = pq.read_schema(path)
    assert schema.names == list(verdicts.COLUMNS)  # no line, no seconds
    assert pa.types.is_dictionary(schema.field("verdict").type)
    assert sorted(p.name for p in path.parent.iterdir()) == ["x.parquet"]  # no temp file left


def test_a_million_deals_of_american_westcliff_take_a_few_megabytes(tmp_path):
    path = verdicts.write(tmp_path / "million.parquet", manifest(), synthetic_rows(1_000_000))
    assert 0.5e6 < path.stat().st_size < 3e6
    assert len(verdicts.read(path)[1]) == 1_000_000


def test_foreign_damaged_or_wrong_verdict_rows_are_refused(tmp_path):
    rows = synthetic_rows(10)
    foreign = tmp_path / "foreign.parquet"
    pq.write_table(pa.Table.from_pandas(rows), foreign)
    with pytest.raises(store.StoreFailure, match="carries no manifest .*; restore it from git or export it again"):
        verdicts.read(foreign)
    damaged = tmp_path / "damaged.parquet"
    damaged.write_bytes(verdicts.write(tmp_path / "whole.parquet", manifest(), rows).read_bytes()[:200])
    with pytest.raises(store.StoreFailure, match="damaged.parquet is damaged"):
        verdicts.read(damaged)
    with pytest.raises(ValueError, match="a verdict is not one of won, lost, unknown"):
        verdicts.write(tmp_path / "bad.parquet", manifest(), rows.assign(verdict="maybe"))
    with pytest.raises(ValueError, match="each deal once"):
        verdicts.write(tmp_path / "twice.parquet", manifest(), pd.concat([rows, rows.iloc[:1]]))
    assert not (tmp_path / "bad.parquet").exists() and not (tmp_path / "twice.parquet").exists()


def test_the_headline_from_verdict_files_counts_what_the_runs_count(tmp_path):
    specs = [RunSpec.of(resolve("easthaven"), 0, 60, chunk_size=25, budgets=(1_000, 10_000), win_first=True),
             RunSpec.of(resolve("westcliff", space_fill="king"), 0, 60, player="greedy", chunk_size=25, seed=0)]
    folders = run_specs(specs, tmp_path, workers=1)
    files = [catalog.export_verdicts(folder, tmp_path) for folder in folders]
    assert [f.relative_to(tmp_path).as_posix() for f in files] == [
        "verdicts/easthaven/defaults--solver-b1k+10k.parquet",
        "verdicts/westcliff/space_fill=king--greedy.parquet"]
    assert sorted(files) == catalog.find_verdicts(tmp_path)
    from_files = results.headline(results.summarize_runs(files))
    from_runs = results.headline(results.summarize_runs(folders))
    pd.testing.assert_frame_equal(from_files, from_runs)
    solver = from_files.iloc[0]
    assert solver.won and solver.lost and solver.unknown, "the test needs every verdict"
    for folder, row in zip(folders, from_files.itertuples()):
        record = run_record([folder])  # what `solitaire-odds summary` prints
        assert (row.deals, row.won, row.lost, row.unknown) == (record["deals"], record["won"], record["lost"],
                                                              record["unknown"])
        assert (row.share, row.share_low, row.share_high) == (record["share"], record["share_low"], record["share_high"])
    compared = list(verdicts.COLUMNS) + ["rules", "who"]
    pd.testing.assert_frame_equal(catalog.load_run(files[0])[compared], catalog.load_run(folders[0])[compared])
    assert len(catalog.load_run(files[0], first=10, last=19)) == 10


def test_the_campaign_declares_the_sizes_of_issue_16(scripts):
    runs = {(spec.rules.label(), spec.player): spec for spec in scripts["campaign"].campaign()}
    deals = {key: spec.count for key, spec in runs.items()}
    assert len({spec.default_dir(Path()) for spec in runs.values()}) == len(runs), "two entries share a folder"
    for player in ("solver", "greedy", "random"):
        assert deals[("westcliff", player)] == 1_000_000
        assert deals[("westcliff-classic", player)] >= 100_000 and deals[("duchess", player)] >= 100_000
    for rules in ("westcliff", "westcliff-classic", "duchess", "easthaven",
                  "easthaven space_fill=any foundation_return=on"):
        assert deals[(rules, "planner")] == 10_000
    for rules in ("easthaven", "easthaven space_fill=any foundation_return=on"):
        assert deals[(rules, "solver")] >= 20_000 and deals[(rules, "greedy")] >= 100_000
    for rules in ("st-helena", "st-helena build_suit=any", "louis", "box-kite",
                  "box-kite build_suit=any foundation_transfer=on wrap=on"):
        assert deals[(rules, "solver")] >= 10_000
    claims = importlib.import_module("solitaire_odds.research.claims").CLAIMS
    for claim in claims:
        for reading in claim.readings:
            assert deals[(claim.rules(reading).label(), "solver")] >= 20_000
    assert {spec.params["budgets"] for spec in runs.values() if spec.player == "solver"} == {(10_000, 100_000)}
    assert all(spec.first == 0 for spec in runs.values())


@pytest.mark.slow  # over 20 s
def test_the_whole_campaign_runs_tiny_and_the_headline_is_made_from_its_files(scripts, tmp_path):
    campaign, headline = scripts["campaign"], scripts["headline"]
    campaign.main(["--deals-scale", "1e-7", "--workers", "1", "--root", str(tmp_path)])
    plan = campaign.select(campaign.campaign(), None, None, 1e-7)
    assert len(catalog.find_verdicts(tmp_path)) == len(plan)
    listed = campaign.plan_table(plan, tmp_path)
    assert (listed["done"] == 1).all() and (listed["left_cpu_hours"] == 0).all()
    deepened = listed.set_index(["rules", "player"])["deepened"]
    assert (deepened[deepened != "-"] == "done").all() and len(deepened[deepened != "-"]) == len(campaign.DEEPER)
    readme = tmp_path / "README.md"
    readme.write_text(f"# top\n{headline.BEGIN}\nold table\n{headline.END}\nbottom\n")
    headline.main(["--root", str(tmp_path), "--readme", str(readme)])
    table = pd.read_csv(tmp_path / "headline.csv")
    assert tuple(table.columns) == results.HEADLINE_COLUMNS and len(table) == len(plan)
    assert (table["deals"] == 1).all() and (table[["won", "lost", "unknown"]].sum(axis=1) == 1).all()
    text = readme.read_text()
    assert text.startswith(f"# top\n{headline.BEGIN}\n| rules | player |")
    assert text.endswith(f"{headline.END}\nbottom\n")
    assert "old table" not in text and text.count("\n| ") == len(plan) + 1
    assert (tmp_path / "headline.png").stat().st_size > 0
    # the claims table from the same files: every reading of every claim, for the solver and both players
    from solitaire_odds.research.claims import CLAIMS
    from solitaire_odds.research.reproduce import format_table, from_verdicts, short_count

    claims = from_verdicts(list(CLAIMS), ["solver", "random", "greedy"], tmp_path)
    assert len(claims) == 3 * sum(len(claim.readings) for claim in CLAIMS) and (claims["deals"] == 1).all()
    assert "(1 deals per cell)" in format_table(list(CLAIMS), claims)
    varied = format_table(list(CLAIMS), claims.assign(deals=[1_000_000] + [20_000] * (len(claims) - 1)))
    assert "n from 20,000 to 1,000,000 (after each cell)" in varied and ", 1M" in varied and ", 20k" in varied
    assert [short_count(n) for n in (1_000_000, 100_000, 4_000, 96_500)] == ["1M", "100k", "4k", "96,500"]


def test_a_run_not_begun_is_estimated_from_the_deciding_table(scripts, tmp_path):
    """Each rule set's largest measurement at 1e5 alone gives the estimate, one number per run
    (the table also holds smaller measurements and escalated ones of the same rules)."""
    campaign = scripts["campaign"]
    plan = campaign.select(campaign.campaign(), ["westcliff", "duchess"], ["solver"], 1.0)
    listed = campaign.plan_table(plan, tmp_path)
    estimated = listed[listed["estimate"] == "results/deciding.csv"]
    assert len(estimated) >= 2
    assert all(isinstance(hours, float) and hours > 0 for hours in estimated["cpu_hours"])
    assert "CPU-hours" in campaign.format_plan(listed)


def test_the_scripts_refuse_bad_input_in_one_line_with_status_2(scripts, tmp_path, capsys):
    for script, argv, message in [
        ("campaign", ["--only", "klondike"], "campaign.py: --only: 'klondike' is not in the campaign; choose from"),
        ("campaign", ["--deals-scale", "tiny"], "campaign.py: --deals-scale must be a number such as 0.001"),
        ("headline", ["--root", str(tmp_path)], "headline.py: no verdict files under"),
        ("scaling", ["--rules", "klondike"], "scaling.py: unknown game 'klondike'"),
        ("deepen", [str(tmp_path / "x.parquet"), "--budget", "1e6"], "deepen.py: no verdict file"),
        ("deepen", [str(tmp_path / "x.parquet"), "--budget", "lots"], "deepen.py: --budget must be a number"),
        ("deepen", [str(GREEDY), "--budget", "1e6"], "deepen.py: only the solver's verdicts can be deepened"),
        ("deepen", [str(GREEDY)], "deepen.py: give --budget, --prover-seconds or both"),
        ("deepen", [str(GREEDY), "--prover-seconds", "-1"], "deepen.py: --prover-seconds must be a number of seconds"),
    ]:
        with pytest.raises(SystemExit) as stop:
            scripts[script].main(argv)
        err = capsys.readouterr().err
        assert stop.value.code == 2 and err.startswith(message) and err.count("\n") == 1


@pytest.mark.slow
def test_scaling_measures_every_mode_on_the_same_rows(scripts, tmp_path, capsys):
    csv = tmp_path / "scaling.csv"
    scripts["scaling"].main(["--deals", "40", "--chunk", "10", "--workers", "1,2", "--dask-workers", "1",
                             "--csv", str(csv)])
    table = pd.read_csv(csv)
    assert list(table["mode"]) == ["local", "local", "dask local"] and list(table["workers"]) == [1, 2, 1]
    assert table["same_rows"].all() and (table["deals"] == 40).all() and (table["deals_per_s"] > 0).all()


def exported(tmp_path, rules, budgets, deals=30, first=0, **params):
    """The verdict file of a solver run over deals first..first+deals-1 with the escalation
    ``budgets`` (and the solver's other ``params``)."""
    spec = RunSpec.of(rules, first, deals, budgets=budgets, win_first=True, **params)
    [folder] = run_specs([spec], tmp_path / "runs", workers=1)
    return catalog.export_verdicts(folder, tmp_path / "-".join(map(str, [*budgets, *params.values()])))


def test_deepening_a_verdict_file_gives_the_file_of_the_run_with_one_more_step(tmp_path):
    from solitaire_odds.runs.deepen import deepen

    rules = resolve("easthaven")
    shallow = exported(tmp_path, rules, (200,))
    unknown = (verdicts.read(shallow)[1]["verdict"] == "unknown").sum()
    assert unknown >= 5, "the test needs deals that the second step decides"
    deep = deepen(shallow, (2_000,), workers=2)
    assert deep.name == "defaults--solver-b200+2k.parquet" and not shallow.exists()
    ladder = exported(tmp_path, rules, (200, 2_000))
    (manifest, rows), (ladder_manifest, ladder_rows) = verdicts.read(deep), verdicts.read(ladder)
    assert manifest == ladder_manifest
    pd.testing.assert_frame_equal(rows, ladder_rows)
    assert (rows["verdict"] == "unknown").sum() < unknown


def test_a_prover_step_between_budgets_gives_the_file_of_the_run_with_the_prover_after_that_rung(tmp_path):
    """Deals 184..187 of American Westcliff with King spaces: at 1,000 nodes the search leaves
    185 unknown, which the schedule model proves lost at 2 s (0.5 CPU-s); the deeper file says
    so at the rung the prover followed, as the run with that prover step does."""
    from solitaire_odds.runs.deepen import DeepenError, Prove, deepen

    rules = resolve("westcliff", space_fill="king")
    shallow = exported(tmp_path, rules, (1_000,), deals=4, first=184)
    before = verdicts.read(shallow)[1].set_index("deal")["verdict"]
    assert before[185] == "unknown"
    deep = deepen(shallow, (Prove(2.0), 10_000), workers=2)
    assert deep.name == "space_fill=king--solver-b1k+10k-prover2s-after1k.parquet"
    ladder = exported(tmp_path, rules, (1_000, 10_000), deals=4, first=184, prover_seconds=2.0, prover_after=1_000)
    (manifest, rows), (ladder_manifest, ladder_rows) = verdicts.read(deep), verdicts.read(ladder)
    assert manifest == ladder_manifest
    pd.testing.assert_frame_equal(rows, ladder_rows)
    proven = rows.set_index("deal").loc[185]
    assert proven["verdict"] == "lost" and proven["budget"] == 1_000
    with pytest.raises(DeepenError, match="prover step already"):
        deepen(deep, (Prove(1.0),))


def test_an_interrupted_deepening_keeps_its_finished_batches(tmp_path, monkeypatch):
    from solitaire_odds.runs import deepen as deepening

    monkeypatch.setattr(deepening, "BATCH", 3)
    shallow = exported(tmp_path, resolve("easthaven"), (200,))
    rows = verdicts.read(shallow)[1]
    first = rows.loc[rows["verdict"] == "unknown", "deal"].to_list()[:3]
    parts = shallow.with_name(".defaults--solver-b200+2k.deepening")
    parts.mkdir()  # a batch finished before the interruption (with marked values)
    pd.DataFrame({"deal": first, "verdict": "won", "budget": 2_000, "nodes": 7, "seconds": 0.5}).astype(
        {"deal": "uint64"}).to_parquet(
        deepening._part_path(parts, first))
    deep = deepening.deepen(shallow, (2_000,))
    kept = verdicts.read(deep)[1].set_index("deal").loc[first]
    assert (kept["verdict"] == "won").all() and (kept["nodes"] == rows.set_index("deal").loc[first, "nodes"] + 7).all()
    assert not parts.exists()


def test_a_run_that_grew_since_its_deepening_is_deepened_only_on_its_new_deals(tmp_path, monkeypatch):
    from solitaire_odds.runs import deepen as deepening

    rules = resolve("easthaven")
    early = deepening.deepen(exported(tmp_path / "early", rules, (200,), deals=15), (2_000,))
    grown = exported(tmp_path, rules, (200,))
    target = grown.with_name(early.name)
    target.write_bytes(early.read_bytes())
    early_rows = verdicts.read(target)[1]
    early_rows_marked = early_rows.assign(nodes=early_rows["nodes"] + 1)  # to see they are kept, not solved again
    verdicts.write(target, verdicts.read(target)[0], early_rows_marked)
    rows = verdicts.read(deepening.deepen(grown, (2_000,)))[1]
    ladder = verdicts.read(exported(tmp_path / "ladder", rules, (200, 2_000)))[1]
    pd.testing.assert_frame_equal(rows.iloc[:15], early_rows_marked)
    pd.testing.assert_frame_equal(rows.iloc[15:].reset_index(drop=True), ladder.iloc[15:].reset_index(drop=True))


def test_only_a_solver_file_is_deepened_and_only_to_larger_budgets(tmp_path):
    from solitaire_odds.runs.deepen import DeepenError, deepened_manifest

    solver = {"player": "solver", "player_params": {"budgets": [10_000, 100_000], "win_first": True}}
    assert deepened_manifest(solver, (1_000_000, 10_000_000))["player_params"]["budgets"] == [
        10_000, 100_000, 1_000_000, 10_000_000]
    for steps in [(100_000,), (1_000_000, 1_000_000), ()]:
        with pytest.raises(DeepenError, match="must rise above the run's last step, 100,000"):
            deepened_manifest(solver, steps)
    with pytest.raises(DeepenError, match="not the greedy's"):
        deepened_manifest({"player": "greedy", "player_params": {}}, (1_000_000,))


def test_a_machine_without_the_run_folders_solves_only_what_the_committed_files_lack(scripts, tmp_path):
    campaign = scripts["campaign"]
    options = ["--only", "easthaven", "--players", "greedy", "--workers", "1", "--root", str(tmp_path)]
    campaign.main([*options, "--deals-scale", "2e-5"])  # 2 deals a run
    before = {path.name: verdicts.read(path)[1] for path in catalog.find_verdicts(tmp_path)}
    for folder in catalog.find_runs(tmp_path / "runs"):
        for _, _, chunk in store.finished_chunks(folder):
            chunk.unlink()  # a fresh clone: the committed verdict files, no run folders
    campaign.main([*options, "--deals-scale", "4e-5"])  # 4 deals a run
    after = {path.name: verdicts.read(path)[1] for path in catalog.find_verdicts(tmp_path)}
    assert after.keys() == before.keys() and len(before) >= 2
    for name, rows in after.items():
        assert rows["deal"].tolist() == [0, 1, 2, 3]
        pd.testing.assert_frame_equal(rows.iloc[:2], before[name])
    for folder in catalog.find_runs(tmp_path / "runs"):
        assert [(a, b) for a, b, _ in store.finished_chunks(folder)] == [(2, 3)]


def test_a_verdict_file_keeps_what_its_deals_cost_through_extension_and_deepening(tmp_path):
    from solitaire_odds.runs.deepen import deepen

    rules = resolve("easthaven")
    spec = RunSpec.of(rules, 0, 20, budgets=(200,), win_first=True)
    [folder] = run_specs([spec], tmp_path / "runs", workers=1)
    spent = store.load_rows([folder], 0, 19, columns=["seconds"])["seconds"].sum()
    path = catalog.export_verdicts(folder, tmp_path)
    assert verdicts.cpu_seconds(path) == pytest.approx(spent) and spent > 0
    grown = replace(spec, first=20, count=10)
    [folder] = run_specs([grown], tmp_path / "later", workers=1)  # another machine: deals 20..29
    more = store.load_rows([folder], 20, 29, columns=["seconds"])["seconds"].sum()
    path = catalog.export_verdicts(folder, tmp_path, 0, 29, keep=True)
    assert len(verdicts.read(path)[1]) == 30 and verdicts.cpu_seconds(path) == pytest.approx(spent + more)
    deep = deepen(path, (2_000,))
    assert verdicts.cpu_seconds(deep) > spent + more
    untimed = verdicts.write(tmp_path / "old.parquet", verdicts.read(deep)[0], verdicts.read(deep)[1])
    assert verdicts.cpu_seconds(untimed) is None


def test_only_takes_a_rule_set_as_well_as_a_game(scripts):
    campaign = scripts["campaign"]
    one = campaign.select(campaign.campaign(), ["st-helena space_fill=any"], ["solver"], 1.0)
    assert [spec.rules.label() for spec in one] == ["st-helena space_fill=any"]
    assert len(campaign.select(campaign.campaign(), ["st-helena"], ["solver"], 1.0)) == 3


def test_a_file_deepened_by_some_of_the_planned_steps_counts_as_done_and_is_deepened_on(scripts, tmp_path):
    from solitaire_odds.runs.deepen import deepened_manifest

    campaign = scripts["campaign"]
    [spec] = [spec for spec in campaign.select(campaign.campaign(), ["duchess"], ["solver"], 3e-5)  # 3 deals
              if spec.rules.label() == "duchess"]
    assert campaign.DEEPER["duchess"] == (1_000_000, 10_000_000)
    halfway = deepened_manifest(spec.manifest(), (1_000_000,))
    rows = pd.DataFrame({"deal": [0, 1, 2], "verdict": ["won", "won", "won"], "budget": 100_000, "nodes": 5})
    verdicts.write(catalog.verdict_path(tmp_path, halfway), halfway, rows)
    assert campaign.committed_deals(spec, tmp_path) == 3 and campaign.still_to_run([spec], tmp_path) == []
    assert campaign.deepening_state(spec, tmp_path) == "to do"
    [deep] = campaign.deepen_all([spec], tmp_path, 1)
    assert deep.name == "defaults--solver-b10k+100k+1M+10M.parquet" and campaign.deepening_state(spec, tmp_path) == "done"
    assert verdicts.read(deep)[1]["nodes"].tolist() == [5, 5, 5]


def test_a_file_without_its_time_gets_a_sampled_cost_marked_as_an_estimate(scripts, tmp_path):
    """run_costs.py solves a sample of the file's deals again with the run's own parameters (so
    they come out as the file has them) and the headline shows its estimate with a "~"."""
    spec = RunSpec.of(resolve("westcliff-classic"), 0, 40, budgets=(1_000, 10_000), win_first=True)
    rows = solve_chunk(spec.rules, spec.player, spec.player_params, 0, 39)
    path = verdicts.write(tmp_path / "verdicts" / "westcliff-classic" / "old.parquet", spec.manifest(), rows)
    run_costs, headline = scripts["run_costs"], scripts["headline"]
    assert run_costs.untimed_files(tmp_path) == [path]
    run_costs.main(["--root", str(tmp_path), "--sample", "10"])
    table = pd.read_csv(tmp_path / "run_costs.csv")
    assert table[["file", "deals", "sampled", "same_verdicts", "newly_decided", "conflicts"]].values.tolist() == [
        ["westcliff-classic/old.parquet", 40, 10, 10, 0, 0]]
    assert table["cpu_hours"].iloc[0] > 0
    sampled = headline.sampled_costs(tmp_path)
    assert headline.cost_text(str(path), sampled) == f"~{table['cpu_hours'].iloc[0]:.2f}"
    timed = verdicts.write(tmp_path / "timed.parquet", spec.manifest(), rows, cpu_seconds=7200.0)
    assert headline.cost_text(str(timed), sampled) == "2.00"


def test_the_fixed_and_per_node_cost_fit_recovers_a_linear_cost(scripts):
    nodes = np.array([10.0, 100.0, 1_000.0, 50_000.0])
    fixed, per_node = scripts["run_costs"].fixed_and_per_node(nodes, 0.002 + nodes * 1e-6)
    assert fixed == pytest.approx(0.002) and per_node == pytest.approx(1e-6)
    assert scripts["run_costs"].fixed_and_per_node(np.full(3, 5.0), np.array([1.0, 2.0, 3.0])) == (2.0, 0.0)

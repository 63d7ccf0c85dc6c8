"""Rules files: a TOML file stands wherever a game's name does; a malformed one is one line and
exit status 2; a file and the same ``--set`` are one rule set and one run folder; a result of a
file's game stays described when the file is gone."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import solitaire_odds
from solitaire_odds.cli import main
from solitaire_odds.rules import RulesError, recorded, resolve
from solitaire_odds.runs import catalog
from solitaire_odds.runs.runner import RunSpec

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "rules"


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def write(tmp_path, text, name="rules.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


WHOLE = """\
name = "eight-rows"
title = "Eight piles, two rows down"
tableau.piles = 8
deal.pattern = "rows"
deal.rows_down = 2
stock.stock = "turn"
"""

MALFORMED = {
    "not TOML": ("base = \n", "not valid TOML"),
    "no such part": ('base = "westcliff"\n[tablo]\npiles = 8\n', "no part 'tablo'; parts are: pack, tableau"),
    "no such field": ('base = "westcliff"\n[tableau]\npile = 8\n', "tableau has no field 'pile'; its fields are"),
    "field of another part": ('base = "westcliff"\n[deal]\npiles = 8\n', "piles is a field of tableau, not of deal"),
    "no such key": ('base = "westcliff"\ncolour = "red"\n', "no rule 'colour'"),
    "number as text": ('base = "westcliff"\ntableau.piles = "8"\n', "tableau.piles takes a whole number, not the string '8'"),
    "text as on/off": ('base = "westcliff"\ntableau.wrap = "yes"\n', "tableau.wrap takes true or false"),
    "fraction": ('base = "westcliff"\ndeal.rows_down = 2.5\n', "deal.rows_down takes a whole number, not the number 2.5"),
    "part as a value": ('base = "westcliff"\ntableau = 8\n', "tableau is a part: write [tableau]"),
    "given twice": ('base = "westcliff"\npiles = 8\n[tableau]\npiles = 9\n', "tableau.piles is given twice"),
    "negative count": ('base = "westcliff"\ntableau.piles = -1\n', "piles takes a whole number >= 0, not -1"),
    "no piles": ('base = "westcliff"\ntableau.piles = 0\n', "tableau.piles must be at least 1"),
    "too many redeals": ('base = "st-helena"\nredeals = 500\n', "redeals takes at most 200"),
    "not a choice": ('base = "westcliff"\nspace_fill = "queen"\n', "space_fill takes any | king | none"),
    "not a field's choice": ('base = "easthaven"\nstock.stock = "deal-three"\n', "stock takes none | turn | deal-row"),
    "more cards than the pack": ('base = "westcliff"\ntableau.piles = 20\ndeal.rows_down = 3\n',
                                 "the deal lays out 80 cards, but only 52 are left to deal"),
    "a pack the engine has not": ('base = "westcliff"\npack.ncards = 78\n', "pack.ncards is 52 (one deck) or 104"),
    "unknown base": ('base = "klondike"\n', "base 'klondike' is no game; choose one of: westcliff-classic"),
    "base not text": ("base = 3\n", "base takes a string, not the number 3"),
    "a list of the wrong words": ('base = "st-helena"\nfoundations.first_deal_foundations = ["up"]\n',
                                  "first_deal_foundations takes a list of upper | lower | either"),
    "whole game without its fields": ('name = "mine"\ntableau.piles = 8\n',
                                      "a file without base is a whole game and must give deal.pattern, stock.stock"),
    "whole game without a name": ('tableau.piles = 8\ndeal.pattern = "rows"\nstock.stock = "turn"\n', "must give name"),
    "whole game named as a declared one": (WHOLE.replace("eight-rows", "westcliff"),
                                           "name 'westcliff' is a declared game: write base = 'westcliff'"),
    "whole game name not a folder name": (WHOLE.replace("eight-rows", "Eight Rows!"), "name 'Eight Rows!' names run folders"),
    "empty file": ("", "a file without base is a whole game and must give name, tableau.piles"),
}


@pytest.mark.parametrize("case", MALFORMED)
def test_a_malformed_rules_file_is_one_line_and_exit_2(tmp_path, case):
    text, phrase = MALFORMED[case]
    path = write(tmp_path, text)
    for result in (cli("odds", path, "--deals", 1, "--out", tmp_path / "run"), cli("solve", path, "--deal", 0)):
        assert result.exit_code == 2, result.output
        lines = result.output.splitlines()
        assert len(lines) == 1 and lines[0].startswith("solitaire-odds: error: "), result.output
        assert phrase in lines[0] and str(path) in lines[0], lines[0]
    assert not (tmp_path / "run").exists()


def test_every_problem_of_a_file_is_named_at_once(tmp_path):
    path = write(tmp_path, 'base = "westcliff"\n[tableau]\npiles = "8"\npile = 3\n[tablo]\nx = 1\n')
    with pytest.raises(RulesError) as err:
        resolve(path)
    lines = str(err.value).splitlines()
    assert len(lines) == 3 and all(line.startswith(f"{path}: ") for line in lines), lines
    result = cli("odds", path)
    assert result.exit_code == 2 and len(result.output.splitlines()) == 1
    assert "takes a whole number" in result.output and "no field 'pile'" in result.output and "'tablo'" in result.output


@pytest.mark.parametrize("args,phrase", [
    (("no-such.toml",), "no rules file no-such.toml"),
    (("{dir}/folder.toml",), "is a folder, not a rules file"),
    (("{dir}/ok.toml", "--set", "tableau.pile=3"), "no rule 'tableau.pile'"),
    (("{dir}/ok.toml", "--set", "rows_down=9"), "the deal lays out"),
])
def test_a_missing_file_or_a_bad_set_over_a_file_is_one_line(tmp_path, args, phrase):
    (tmp_path / "folder.toml").mkdir()
    write(tmp_path, 'base = "westcliff"\ntableau.piles = 8\n', "ok.toml")
    result = cli("odds", *(a.format(dir=tmp_path) for a in args), "--deals", 1)
    assert result.exit_code == 2 and len(result.output.splitlines()) == 1, result.output
    assert phrase in result.output, result.output


def test_a_file_and_the_same_set_are_one_rule_set_and_one_run_folder(tmp_path, monkeypatch):
    file = EXAMPLES / "westcliff-8x4.toml"
    from_file = resolve(file)
    from_set = resolve("westcliff", **{"tableau.piles": "8", "rows_down": "3"})
    assert from_file == from_set and hash(from_file) == hash(from_set)
    assert from_file.label() == from_set.label() == "westcliff tableau.piles=8 deal.rows_down=3"
    assert from_file.title and not from_set.title  # the title is for display only
    spec = {"first": 0, "count": 4, "budgets": (1_000,)}
    assert RunSpec.of(from_file, **spec).manifest() == RunSpec.of(from_set, **spec).manifest()
    assert RunSpec.of(from_file, **spec).default_dir(tmp_path) == RunSpec.of(from_set, **spec).default_dir(tmp_path)
    assert RunSpec.of(from_file, **spec).default_dir(tmp_path) != RunSpec.of(resolve("westcliff"), **spec).default_dir(tmp_path)

    monkeypatch.chdir(tmp_path)  # the default run folder, results/runs/..., lands here
    common = ("--deals", 4, "--budget", "1e3", "--workers", 1, "--quiet", "--format", "json")
    by_file = cli("odds", file, *common)
    assert by_file.exit_code == 0, by_file.output
    by_set = cli("odds", "westcliff", "--set", "tableau.piles=8", "--set", "deal.rows_down=3", *common, "--resume")
    assert by_set.exit_code == 0, by_set.output
    first, second = json.loads(by_file.output), json.loads(by_set.output)
    assert first["run_dir"] == second["run_dir"] and first == second
    # the --set run found every deal done: one folder, one manifest, nothing solved twice
    assert len(list((tmp_path / first["run_dir"] / "chunks").iterdir())) == 1


def test_set_applies_over_a_file(tmp_path):
    file = EXAMPLES / "westcliff-8x4.toml"
    assert resolve(file, piles="9") == resolve("westcliff", piles="9", rows_down="3")
    assert resolve(file, **{"tableau.piles": "10", "deal.rows_down": "2"}) == resolve("westcliff")
    assert resolve(file, space_fill="king")["space_fill"] == "king"


def test_a_whole_game_is_described_when_its_file_is_gone(tmp_path):
    path = write(tmp_path, WHOLE, "eight.toml")
    rules = resolve(path)
    assert rules.game == "eight-rows" and rules["piles"] == 8 and rules["stock"] == "turn"
    assert rules.heading() == "Eight piles, two rows down (eight-rows tableau.piles=8 deal.rows_down=2)"
    out = tmp_path / "run"
    result = cli("odds", path, "--deals", 3, "--budget", "1e3", "--workers", 1, "--out", out, "--quiet")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Eight piles, two rows down (eight-rows tableau.piles=8 deal.rows_down=2)")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["rules"]["piles"] == 8 and manifest["rules"]["rows_down"] == 2
    path.unlink()
    assert recorded(manifest) == rules and recorded(manifest).label() == rules.label()
    shown = cli("table", out, "--format", "csv")
    assert shown.exit_code == 0, shown.output
    assert "eight-rows,tableau.piles=8 deal.rows_down=2,solver" in shown.output
    summary = cli("summary", out)
    assert summary.exit_code == 0 and summary.output.startswith("eight-rows tableau.piles=8 deal.rows_down=2"), summary.output
    exported = catalog.export_verdicts(out, tmp_path / "committed")
    assert exported.parent.name == "eight-rows"
    assert catalog.describe_run(exported)["rules"] == rules.label()


def test_recorded_rules_rebuild_the_values_a_declaration_no_longer_gives():
    """A result describes what it measured: a declared game's recorded values win over what the
    declaration says today (here, as if Westcliff's declaration had changed to 8 piles)."""
    manifest = RunSpec.of(resolve("westcliff", piles="8"), 0, 1, budgets=(1_000,)).manifest()
    manifest["changes"] = {}
    assert recorded(manifest) == resolve("westcliff", piles="8")
    with pytest.raises(RulesError, match="unknown game 'gone', and no rule values are recorded"):
        recorded({"game": "gone", "switches": {}})


def test_the_python_api_takes_a_rules_file(tmp_path):
    estimate = solitaire_odds.odds(EXAMPLES / "westcliff-8x4.toml", deals=2, budget=1e3, workers=1,
                                   root=tmp_path, progress=False)
    assert estimate.record["switches"] == "tableau.piles=8 deal.rows_down=3" and estimate.summary.n == 2
    again = solitaire_odds.odds("westcliff", deals=2, budget=1e3, workers=1, root=tmp_path, progress=False,
                                **{"tableau.piles": 8, "deal.rows_down": 3})
    assert again.run_dir == estimate.run_dir


def test_a_part_field_named_with_its_part_may_take_a_value_its_switch_does_not_offer(tmp_path):
    """St. Helena's space_fill switch offers none | any (its sources' readings); King spaces are
    a variant: written tableau.space_fill=king, in --set or in a file, they are a part change,
    while the bare switch name keeps refusing what the switch does not offer."""
    by_set = resolve("st-helena", **{"tableau.space_fill": "king"})
    assert by_set["space_fill"] == "king" and by_set.label() == "st-helena tableau.space_fill=king"
    path = tmp_path / "kings.toml"
    path.write_text('base = "st-helena"\n[tableau]\nspace_fill = "king"\n', encoding="utf-8")
    assert resolve(path) == by_set
    assert recorded(RunSpec.of(by_set, 0, 1).manifest()) == by_set
    assert resolve("st-helena", **{"tableau.space_fill": "any"}).label() == "st-helena space_fill=any"
    with pytest.raises(RulesError, match="switch space_fill takes none | any, not 'king'"):
        resolve("st-helena", space_fill="king")

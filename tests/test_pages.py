"""The README and the docs show what the committed results say: every generated table is what
solitaire_odds.research.pages makes from results/ now, the README stays a front door, and no
page a user reads quotes a commit."""

import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd

from solitaire_odds.research import pages
from solitaire_odds.rules import resolve
from solitaire_odds.runs import verdicts
from solitaire_odds.runs.catalog import verdict_path
from solitaire_odds.runs.runner import RunSpec

ROOT = Path(__file__).resolve().parent.parent
HEX_WORD = re.compile(r"\b[0-9a-f]{7,40}\b")
"""What `git grep -nE '\\b[0-9a-f]{7,40}\\b'` finds: a commit hash, or a number written without separators."""


def test_every_generated_table_is_what_the_committed_results_make_now():
    assert pages.stale_pages(ROOT) == [], "run python experiments/docs_tables.py"


def test_a_table_edited_by_hand_is_found_stale_and_remade(tmp_path):
    for page in pages.PAGES:
        (tmp_path / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / page, tmp_path / page)
    readme = tmp_path / "README.md"
    text = readme.read_text()
    table = pages.between(text, "answers")
    row = next(line for line in table.splitlines() if line.startswith("| `westcliff`"))
    readme.write_text(text.replace(row, row.replace("%", "% (edited)", 1)))
    assert pages.stale_pages(tmp_path, ROOT / "results") == ["README.md: answers"]
    assert pages.write_pages(tmp_path, ROOT / "results") == [readme]
    assert readme.read_text() == text and pages.stale_pages(tmp_path, ROOT / "results") == []


def test_a_page_without_the_lines_around_its_table_is_refused(tmp_path):
    try:
        pages.replace("# a page\n", "answers", "| a |\n")
    except ValueError as err:
        assert pages.begin("answers") in str(err)
    else:
        raise AssertionError("a page without its table's lines was accepted")


def solver_file(root: Path, game: str, budgets: tuple, won: int, lost: int, unknown: int) -> None:
    spec = RunSpec.of(resolve(game), 0, won + lost + unknown, budgets=budgets, win_first=True)
    rows = pd.DataFrame({"deal": range(won + lost + unknown),
                         "verdict": ["won"] * won + ["lost"] * lost + ["unknown"] * unknown,
                         "budget": budgets[-1], "nodes": 1})
    verdicts.write(verdict_path(root, spec.manifest()), spec.manifest(), rows, cpu_seconds=36.0)


def test_the_answers_take_the_measurement_with_the_narrowest_bracket(tmp_path):
    """Campaign files (headline.csv) and deciding.csv rows of the same rules: the narrowest 95%
    interval around the bracket wins, so fewer unknowns (louis: 4 deals, 1 unknown, over 10
    deals with 6) or more deals (duchess: 20 deals at 1e6 over 4 at 1e7) may beat a deeper ladder."""
    root = tmp_path / "results"
    solver_file(root, "louis", (10_000, 100_000), 3, 1, 6)
    solver_file(root, "duchess", (10_000, 1_000_000), 18, 2, 0)
    pd.DataFrame([["louis", "louis", "solver", 10, 3, 1, 6, 0.3, 0.1, 0.6],
                  ["duchess", "duchess", "solver", 20, 18, 2, 0, 0.9, 0.7, 0.97]],
                 columns=["game", "rules", "player", "deals", "won", "lost", "unknown", "share", "share_low", "share_high"]
                 ).to_csv(root / "headline.csv", index=False)
    pd.DataFrame([["louis", "1e5,1e6", 4, 3, 0, 1], ["louis", "1e5", 40, 1, 0, 39],
                  ["duchess", "1e5,1e6,1e7", 4, 4, 0, 0]],
                 columns=["rules", "ladder", "deals", "won", "lost", "unknown"]).to_csv(root / "deciding.csv", index=False)
    data = pages.Results(root)
    louis, duchess = pages.tightest(data, "louis"), pages.tightest(data, "duchess")
    assert (louis.source, louis.deals, louis.budgets, louis.bracket) == ("deciding", 4, (100_000, 1_000_000), (0.75, 1.0))
    assert (duchess.source, duchess.deals, duchess.budgets) == ("campaign", 20, (10_000, 1_000_000))
    headline = pages.headline(data)
    assert "| louis | solver 1e4 → 1e5 † |" in headline and "| duchess | solver 1e4 → 1e6 |" in headline
    assert headline.count("| 0.01 |") == 2  # 36 CPU-seconds each, from the files' metadata
    assert pages.tightest(data, "st-helena") is None


def test_the_strongest_player_is_the_best_point_with_enough_deals(tmp_path):
    """The headline planner against strength points: a point of fewer than STRONGEST_DEALS deals,
    or of a player who does not plan, is never quoted, however high its share."""
    root = tmp_path / "results"
    root.mkdir()
    pd.DataFrame([["duchess", "duchess", "planner", 10_000, 6_000, 4_000, 0, 0.6, 0.59, 0.61]],
                 columns=["game", "rules", "player", "deals", "won", "lost", "unknown", "share", "share_low", "share_high"]
                 ).to_csv(root / "headline.csv", index=False)
    points = [["hindsight", "budget 2e3, samples 8, seed 0", 2_000, 0.85], ["uct", "think 9", 50, 0.99],
              ["greedy", "seed 0", 2_000, 0.95], ["hindsight", "budget 500, samples 4, seed 0", 2_000, 0.80]]
    pd.DataFrame([["duchess", "duchess", player, params, deals, share] for player, params, deals, share in points],
                 columns=["game", "rules", "player", "parameters", "deals", "share"]).to_csv(root / "strength.csv", index=False)
    data = pages.Results(root)
    assert pages.strongest_player(data, "duchess") == "85.0%: hindsight, budget 2e3, samples 8 (2k)"
    assert pages.strongest_player(data, "louis") == "-"


def test_the_readme_is_a_front_door_that_starts_with_the_two_commands():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 150
    first = re.search(r"```\n(.*?)```", text, re.DOTALL).group(1)
    assert first == "pip install -e . && solitaire-odds odds westcliff --deals 10000 --budget 1e5\nbash .ci/run\n"
    assert text.index(first) < text.index("\n## ")


def test_no_page_a_user_reads_quotes_a_commit():
    names = subprocess.run(["git", "ls-files", "README.md", "docs"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    found = [f"{name}: {match.group(0)}" for name in names
             for match in HEX_WORD.finditer((ROOT / name).read_text(encoding="utf-8"))]
    assert found == []
    assert HEX_WORD.search("measured on 3389545") and not HEX_WORD.search("1,000,000 deals at 1e7")

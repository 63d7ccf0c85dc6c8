"""Player parameters declared once: defaults, command-line options and their validation, the
manifest's parameters and the run-folder label all follow each player's ``parameters``."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from solitaire_odds.cli import main
from solitaire_odds.counts import InputError
from solitaire_odds.players import (make_player, params_from_options, player_class, player_label, player_names,
                                    player_options)
from solitaire_odds.players.parameters import Param, complete
from solitaire_odds.rules import resolve
from solitaire_odds.runs.runner import RunSpec

RULES = resolve("westcliff", space_fill="king")


@pytest.mark.parametrize("name", player_names())
def test_every_player_declares_what_its_constructor_takes(name):
    cls = player_class(name)
    assert all(isinstance(param, Param) for param in cls.parameters)
    player = make_player(name, RULES, **({"samples": 1, "budget": 50} if name == "planner" else {}))
    declared = {param.name for param in cls.parameters}
    assert set(player.params()) <= declared
    assert all(player.params()[p.name] == getattr(player, p.name) for p in cls.parameters
               if p.name in player.params())


def test_defaults_come_from_the_declaration():
    assert params_from_options("solver", {}) == {"budgets": "auto", "win_first": True}
    assert params_from_options("planner", {}) == {"samples": 4, "budget": 500, "seed": 0}
    assert params_from_options("greedy", {}) == {"seed": 0}
    assert complete(player_class("solver"), {}) == {"budgets": "auto", "win_first": True, "table_mb": None,
                                                    "prover_seconds": None, "prover_after": None}
    assert make_player("planner", RULES).params() == {"samples": 4, "budget": 500, "seed": 0}


def test_options_are_parsed_by_the_declaration():
    assert params_from_options("solver", {"--budget": "1e5,1M", "--table-mb": "64"}) == \
        {"budgets": (100_000, 1_000_000), "win_first": True, "table_mb": 64}
    assert params_from_options("planner", {"--budget": "2k", "--samples": "16", "--seed": "7"}) == \
        {"samples": 16, "budget": 2000, "seed": 7}
    with pytest.raises(InputError, match="--budget escalation must grow"):
        params_from_options("solver", {"--budget": "1e6,1e5"})
    with pytest.raises(InputError, match="--samples must be a whole number >= 1"):
        params_from_options("planner", {"--samples": "0"})
    assert params_from_options("solver", {"--budget": "1e4,1e6", "--prover-seconds": "2", "--prover-after": "1e4"}) == \
        {"budgets": (10_000, 1_000_000), "win_first": True, "prover_seconds": 2.0, "prover_after": 10_000}
    with pytest.raises(InputError, match="--prover-seconds must be a number of seconds, 0.001 or more, not 'soon'"):
        params_from_options("solver", {"--prover-seconds": "soon"})


def test_the_auto_ladder_has_the_prover_where_its_complete_model_covers_the_rules():
    """Before the largest search (westcliff space_fill=king and none), nowhere else; never in
    place of a prover step that is given."""
    for rules in (RULES, resolve("westcliff", space_fill="none")):
        assert make_player("solver", rules).params() == {"budgets": (100_000, 1_000_000, 10_000_000), "win_first": True,
                                                         "prover_seconds": 2.0, "prover_after": 1_000_000}
    for rules in (resolve("westcliff"), resolve("easthaven"), resolve("westcliff-classic"), resolve("duchess")):
        assert "prover_seconds" not in make_player("solver", rules).params()
    given = RunSpec.of(RULES, 0, 1, budgets="auto", prover_seconds=5.0, prover_after=100_000).params
    assert (given["prover_seconds"], given["prover_after"]) == (5.0, 100_000)
    assert "prover_seconds" not in RunSpec.of(RULES, 0, 1, budgets=(100_000, 1_000_000)).params
    text = " ".join(CliRunner().invoke(main, ["games"]).output.split())
    assert "with space_fill=king or space_fill=none: 1e5 then 1e6 then prover 2 s then 1e7" in text


def test_the_prover_step_follows_a_rung_of_the_escalation():
    """Unset, it follows the last rung, written out so that a deepened file keeps the rung."""
    assert make_player("solver", RULES, budgets=(1_000, 10_000), prover_seconds=2.0).params()["prover_after"] == 10_000
    assert RunSpec.of(RULES, 0, 1, budgets="auto", prover_seconds=5.0).params["prover_after"] == 10_000_000
    with pytest.raises(InputError, match=r"--prover-after must be one of the rungs of --budget \(1e3, 1e4\), not 5e3"):
        make_player("solver", RULES, budgets=(1_000, 10_000), prover_seconds=2.0, prover_after=5_000)
    with pytest.raises(InputError, match="--prover-after needs --prover-seconds"):
        make_player("solver", RULES, budgets=(1_000, 10_000), prover_after=1_000)


@pytest.mark.parametrize("player,option,message", [
    ("greedy", "--samples", "--samples applies to --player planner and hindsight only"),
    ("solver", "--seed", "--seed applies to --player random, greedy, planner, hindsight and uct only; the solver draws nothing at random"),
    ("random", "--budget", "--budget applies to --player solver, planner, hindsight and uct only; the random player does not search"),
    ("planner", "--table-mb", "--table-mb applies to --player solver only"),
])
def test_an_option_of_other_players_is_refused_by_name(player, option, message):
    with pytest.raises(InputError) as refused:
        params_from_options(player, {option: "1"})
    assert str(refused.value) == message


def test_a_player_takes_only_what_it_declares():
    with pytest.raises(ValueError, match="the greedy player takes no parameter 'budget'; it takes seed"):
        make_player("greedy", RULES, budget=5)


def test_the_command_line_offers_each_declared_option_with_its_help():
    assert list(player_options()) == ["--budget", "--table-mb", "--prover-seconds", "--prover-after", "--seed",
                                      "--samples", "--think"]
    for command in ("odds", "solve"):
        text = " ".join(CliRunner().invoke(main, [command, "--help"]).output.split())
        assert "--samples TEXT planner: completions of the hidden cards solved per decision (default 4); " in text
        assert "hindsight: completions of the hidden cards per decision, each solved after every offered move (default 8)." in text
        assert "random, greedy, planner, hindsight, uct: seed of its random draws (default 0)." in text


@pytest.mark.parametrize("player,params,folder", [
    ("solver", {"budgets": (100_000, 1_000_000), "win_first": True}, "solver-b100k+1M-06d39bf4"),
    ("solver", {"budgets": (1_000_000,), "win_first": True, "table_mb": 64}, "solver-b1M-t64MiB-418963e9"),
    ("planner", {"samples": 16, "budget": 10_000, "seed": 0}, "planner-k16-b10k-aad17ccb"),
    ("greedy", {"seed": 3}, "greedy-default-0e555d4c"),
    ("random", {"seed": 0}, "random-default-92fe2e7c"),
])
def test_run_folders_keep_the_names_of_runs_made_before_the_declarations(player, params, folder):
    """The folder names below were made by the code before players declared their
    parameters: existing runs keep resuming in their folders."""
    spec = RunSpec.of(RULES, 0, 10, player=player, **params)
    assert spec.default_dir(Path("results")) == Path("results/runs/westcliff") / folder
    assert player_label(player, params) == folder.split("-", 1)[1].rsplit("-", 1)[0]


def test_budget_auto_is_the_game_s_declared_ladder_and_runs_record_the_ladder_itself():
    from solitaire_odds.rules import GAMES, resolve
    from solitaire_odds.runs.runner import RunSpec

    solvitaire = resolve("easthaven", space_fill="any", foundation_return="on")
    by_the_book = resolve("easthaven")
    assert params_from_options("solver", {"--budget": "AUTO"})["budgets"] == "auto"
    for rules, ladder in ((by_the_book, (100_000, 1_000_000, 10_000_000)),
                          (solvitaire, (100_000, 1_000_000, 10_000_000, 100_000_000)),
                          (resolve("st-helena"), (100_000, 1_000_000))):
        spec = RunSpec.of(rules, 0, 10, **params_from_options("solver", {}))
        assert spec.params["budgets"] == ladder == GAMES[rules.game].ladder_for(rules)
        assert spec.manifest()["player_params"]["budgets"] == list(ladder)
        explicit = RunSpec.of(rules, 0, 10, **params_from_options("solver", {"--budget": ",".join(map(str, ladder))}))
        assert explicit.default_dir(Path("r")) == spec.default_dir(Path("r"))  # one run, however asked
    # a reading with one switch of the pair off its default takes the game's own ladder
    assert GAMES["easthaven"].ladder_for(resolve("easthaven", space_fill="any")) == GAMES["easthaven"].ladder

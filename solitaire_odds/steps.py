"""The solver's steps, declared once: their order, what each may prove, where it runs, and the
share of a solve's budget it spends. :class:`~solitaire_odds.solver.Solver` runs them in this
order and names the one that decided a deal in ``Outcome.decided_by``; experiments/decide.py
counts the deals each step decides, and the docs' table of steps is made from this list.

A step that ``proves`` only "won" is a heuristic: its wins are real (each line is replayed
through the reference), its failures say nothing. A step that may prove "lost" carries a
soundness argument beside its code (``where``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .engine.search import BY_SEARCH, BY_SHORTCUTS, BY_WIN_FIRST
from .engine.tuning import RELAY_SHARE, RESTART_SHARE, SHORTCUT_UNIT, TWO_DECK_SEARCH_SHARE, WIN_FIRST_UNIT


@dataclass(frozen=True)
class Step:
    """One step of a solve. ``shares`` maps the situation it runs in to its node budget as a
    share of the solve's budget (a solve's nodes are positions searched or rated; every step
    counts them in the same unit)."""

    name: str
    proves: tuple[str, ...]
    games: str                 # where it runs (one deck, two decks, every game, or the condition)
    needs: str                 # reductions (a proof) | win_first (a heuristic) | "" (always)
    shares: tuple[tuple[str, Fraction], ...]
    summary: str
    where: str                 # the module holding the step and its argument

    def share(self, situation: str = "") -> Fraction:
        """The step's share of the budget in ``situation`` (its first one when not given)."""
        if not situation:
            return self.shares[0][1]
        return dict(self.shares)[situation]


RELAXATION = Step(
    "relaxation", ("lost",), "every game", "reductions", (("", Fraction(0)),),
    "A relaxed game in which nothing is ever lost again; where even it cannot be won, the deal is "
    "lost. One deck: the closure of facts that never become false (after Dang et al.). Two decks: "
    "a card that no line can ever free.",
    "engine/relaxation.py, engine/two_deck_proofs.py")
FINDER_FIRST = Step(
    "win finder", ("won",), "two decks", "win_first",
    (("a redeal ahead", Fraction(1)), ("last round", Fraction(1, 2))),
    "A beam search rated by cards gone up; in the St. Helena family it runs before the search, "
    "which can only prove a loss in the last round.",
    "engine/winfinder.py")
WIN_FIRST = Step(
    "win-first", ("won",), "built down in alternating colours, no dealt rows", "win_first",
    (("", Fraction(1, RESTART_SHARE)), ("each restart at least", Fraction(1, WIN_FIRST_UNIT))),
    "Depth-first restarts with a move order that plays to the foundations first; a restart "
    "that ends only stops looking.",
    "engine/search.py")
SHORTCUTS = Step(
    "shortcuts", ("won",), "one deck", "win_first",
    (("", Fraction(1, RESTART_SHARE)), ("each restart at least", Fraction(1, SHORTCUT_UNIT))),
    "Restarts that also play the shortcut moves (engine/shortcuts.py), which may skip winning lines.",
    "engine/search.py, engine/shortcuts.py")
SEARCH = Step(
    "search", ("won", "lost"), "every game", "",
    (("", Fraction(1)), ("two decks, a redeal ahead", Fraction(1, TWO_DECK_SEARCH_SHARE))),
    "The exhaustive depth-first search with a transposition table and the proven reductions "
    "(engine/reductions.py): 'lost' only when every line was followed.",
    "engine/search.py, engine/reductions.py")
FINDER_AFTER = Step(
    "win finder", ("won",), "one deck", "win_first", (("", Fraction(1)),),
    "The beam search again, on a one-deck deal the search left unknown, at budgets of at least "
    "2e4 positions.",
    "engine/winfinder.py")
RELAY = Step(
    "relay", ("won",), "two decks", "win_first", (("", Fraction(RELAY_SHARE)),),
    "Fresh beams started from positions along the finder's deepest line before its last redeal.",
    "solver.py (WinFinder.relay)")

ROUND_FINDER = Step(
    "round finder", ("won",), "gathering redeals (St. Helena, Louis)", "win_first",
    (("", Fraction(1)), ("its relay", Fraction(RELAY_SHARE))),
    "The beam search and its relay again, on a deal the relay left unknown, each round planned "
    "for what the next gathered pack will deal where.",
    "engine/winfinder.py (beam_search with rounds)")

TRANSFER = Step(
    "transfer", ("won", "lost"), "where another reading is given", "", (("each other reading", Fraction(1)),),
    "The deal solved under a reading proven to allow more moves (its loss holds here) or fewer "
    "(its win holds here, the line replayed under these rules), given as the solver's looser or "
    "stricter rules.",
    "rules/readings.py, solver.py")

PROVER = Step(
    "prover", ("won", "lost"), "one deck: in --budget auto where the schedule model covers the rules, or asked "
    "for (--prover-seconds)", "",
    (("CPU-seconds a deal, not nodes", Fraction(0)),),
    "The CP-SAT schedule model where its completeness argument covers the rules and the position "
    "(its infeasibility is a loss; American Westcliff with spaces for Kings or none, Easthaven "
    "once the stock is empty), the SAT step model's wins in the other Westcliff readings. It runs "
    "after the search at its rung (the budget column records that rung). --budget auto gives it 2 s "
    "after the last rung but one where the schedule model covers the rules (players.auto_prover); "
    "elsewhere it is off by default, as the step model decides few whole deals (docs/prover.md).",
    "prover/schedule.py, prover/westcliff.py")

STEPS: tuple[Step, ...] = (RELAXATION, FINDER_FIRST, WIN_FIRST, SHORTCUTS, SEARCH, FINDER_AFTER, RELAY,
                           ROUND_FINDER, TRANSFER, PROVER)
"""In the order a solve runs them."""

STEP_NAMES: tuple[str, ...] = tuple(dict.fromkeys(step.name for step in STEPS))
"""Every value ``Outcome.decided_by`` takes for a decided deal (the win finder twice in STEPS)."""

SEARCH_PASSES = {BY_WIN_FIRST: WIN_FIRST.name, BY_SHORTCUTS: SHORTCUTS.name, BY_SEARCH: SEARCH.name}
"""The passes inside engine.search.solve_root, by the code it returns."""


def table() -> list[dict]:
    """The steps as rows for people: the docs' table and decide.py's columns."""
    return [{"step": step.name, "proves": " or ".join(step.proves), "games": step.games,
             "needs": step.needs or "-",
             "budget share": "; ".join(f"{share}" + (f" ({situation})" if situation else "")
                                       for situation, share in step.shares),
             "what it does": step.summary, "code": step.where} for step in STEPS]

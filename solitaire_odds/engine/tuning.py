"""The solver's tuned constants, in one place, each with the measurement that chose it.

Every constant here changes only how soon a verdict comes, never whether a "lost" is sound:
the proofs do not depend on them. The kernels read them as plain module constants (numba
freezes them at compile time; this file is an engine source, so changing one starts a fresh
kernel cache). ``docs/tuning.md`` is made from :data:`TUNED` (``python -m
solitaire_odds.engine.tuning``), so the code keeps the value and why it is there, and the table
keeps the figures.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tuned:
    name: str
    value: int
    why: str
    measured: str


TUNED: list[Tuned] = []


def tuned(name: str, value: int, why: str, measured: str) -> int:
    """Declare a tuned constant (recorded in :data:`TUNED`) and return its value."""
    TUNED.append(Tuned(name, value, why, measured))
    return value


# --- the depth-first search (engine/search.py) ---------------------------------------------
MAX_DEPTH = tuned(
    "MAX_DEPTH", 20_000, "The longest line the search follows; a deeper position is left unexpanded "
    "(the verdict can then only be unknown). The line's arrays are zeroed lazily, so only the depths "
    "reached cost memory (about 8 KB each).",
    "Box Kite by the book: at 1,500, deals 53 and 82 stayed unknown after their search had visited "
    "every other position; at 20,000 both are proven lost at 1e7, in the same number of positions.")
WIN_FIRST_RESTARTS = tuned(
    "WIN_FIRST_RESTARTS", 31, "Restarts of the win-first pass (each with another order of equal moves).",
    "Short restarts cut the heavy tail of the time a depth-first search takes to find a win.")
SHORTCUT_RESTARTS = tuned(
    "SHORTCUT_RESTARTS", 16, "Restarts of the shortcuts pass.", "As WIN_FIRST_RESTARTS.")
RESTART_SHARE = tuned(
    "RESTART_SHARE", 2, "Each heuristic pass's restarts spend up to 1/RESTART_SHARE of the budget.",
    "experiments/decide.py, Easthaven deals 0..199 at 1e5: the deals left unknown with the shortcuts "
    "pass on a tenth, a third or all of the budget were 53, 45, 39 (King spaces) and 25, 9, 3 "
    "(Solvitaire's reading).")
WIN_FIRST_UNIT = tuned(
    "WIN_FIRST_UNIT", 100, "The first win-first restart gets budget / WIN_FIRST_UNIT nodes (each second "
    "restart doubles it).", "With RESTART_SHARE.")
WIN_FIRST_MIN_UNIT = tuned("WIN_FIRST_MIN_UNIT", 1000, "The smallest first win-first restart, in nodes.",
                           "With WIN_FIRST_UNIT.")
SHORTCUT_UNIT = tuned("SHORTCUT_UNIT", 200, "The first shortcuts restart gets budget / SHORTCUT_UNIT nodes.",
                      "With RESTART_SHARE.")
SHORTCUT_MIN_UNIT = tuned("SHORTCUT_MIN_UNIT", 500, "The smallest first shortcuts restart, in nodes.",
                          "With SHORTCUT_UNIT.")

# --- the win finder (engine/winfinder.py, solver.WinFinder) ---------------------------------
FINDER_FIRST_WIDTH = tuned("FINDER_FIRST_WIDTH", 16, "The first beam's width; each restart widens it x4.",
                           "The narrowest beam that plays a one-deck game out within 3e4 positions.")
FINDER_MAX_WIDTH = tuned(
    "FINDER_MAX_WIDTH", 1 << 16, "The widest beam worth buffers.",
    "Wider beams find far more wins: St. Helena deals 0..9, 3 won at width 4,096, 7 at 16,384.")
FINDER_NODES_PER_WIDTH = tuned(
    "FINDER_NODES_PER_WIDTH", 128, "A finder's budget b affords beams up to about b / 128 wide.",
    "A beam of width w rates about 100 w positions to reach the end of a St. Helena deal (width 16,384 "
    "wins after 1.4M-2.6M).")
FINDER_LOGGED_SHARE = tuned(
    "FINDER_LOGGED_SHARE", 4, "The beam's log holds a quarter of the budget's positions.",
    "A beam keeps one position of every 10-30 it rates, so that log never fills (a full log ends the "
    "attempt).")
FINDER_ONE_DECK_MIN_BUDGET = tuned(
    "FINDER_ONE_DECK_MIN_BUDGET", 20_000, "Below this budget the finder is not run after a one-deck search.",
    "The narrowest beam (16 wide, about 20 children a position) needs about 3e4 positions to play a game "
    "of about 100 moves out; at 3e3 and 1e4 it won none of the deals the search left unknown (Easthaven "
    "with spaces and returns, deals 0..29; Classic Westcliff, 0..39).")
TWO_DECK_SEARCH_SHARE = tuned(
    "TWO_DECK_SEARCH_SHARE", 10, "With a redeal ahead the St. Helena family's search gets 1/10 of the "
    "budget (it can only find wins there, the finder far more per node); in the last round half goes to "
    "the finder and all to the search, which can still prove a loss.",
    "st-helena build_suit=any, deals 0..299, budgets 1e5 then 1e6: with half and all, the finder won 143 "
    "deals and the search 11 more.")

# --- the relay (solver.WinFinder.relay) ------------------------------------------------------
RELAY_SHARE = tuned(
    "RELAY_SHARE", 16, "The relay rates up to 16 x the step's budget, in RELAY_LEGS legs.",
    "St. Helena by the book, deals 0..199, ladder 1e5 then 1e6 (won, CPU-s a deal): 1x in 8 legs every "
    "6th move 154, 0.56; 2x 159, 0.64; 4x 164, 0.87; 8x 170, 1.27; 16x in 16 legs every 4th move 179, "
    "1.68; 32x 179, 2.67; 16x with a 3e5 step 179, 2.14; two rounds of 8x, the second from the first's "
    "deepest leg, 170, 1.52.")
RELAY_LEGS = tuned("RELAY_LEGS", 16, "Fresh beams a relay starts.", "With RELAY_SHARE.")
RELAY_STRIDE = tuned("RELAY_STRIDE", 4, "Moves back along the deepest line between two legs' starts.",
                     "With RELAY_SHARE.")
RELAY_MIN_CARDS = tuned(
    "RELAY_MIN_CARDS", 60, "The relay runs only from a deepest line that ended with at least 60 of the 104 "
    "cards on the foundations.",
    "St. Helena by the book, deals 0..199, ladder 1e5 then 1e6, relay 16x: from lines below 60 cards 3 of "
    "39 relays won at 1e5 (17.5 CPU-s in all) and none of 11 at 1e6 (36.8 CPU-s); from 60 up, 47 of 91 "
    "and 31 of 41.")


def markdown() -> str:
    """The docs' table of tuned constants."""
    rows = ["| constant | value | why | measured |", "|---|---|---|---|"]
    rows += [f"| `{t.name}` | {t.value:,} | {t.why} | {t.measured} |" for t in TUNED]
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")

"""A long run of tests/test_variants.py's checks: random part combinations, every disagreement
collected instead of stopping at the first.

    PYTHONPATH=$PWD python experiments/random_variants.py --seed 4 --combinations 800

Each combination is drawn as the test draws them (a declared game with one to four part
fields changed, the fields the reductions read more often), refused ones are counted, and each
valid one gets the test's two comparisons: the engine against the reference along random
play-outs, the reduced search against the plain one. Prints the tallies every 50 combinations
and at the end every disagreement with its rules; exit status 1 if there was one.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from solitaire_odds.rules import GAMES, checks
from solitaire_odds.rules.schema import CHOICES, FIRST_DEAL_GROUPS
from tests.test_variants import COUNTS, KEYS, check_variant


def value(rng: random.Random, key: str):
    """A random value of part field ``key``, from the test's ranges."""
    if key in CHOICES:
        return rng.choice(CHOICES[key])
    if key == "ncards":
        return rng.choice((52, 104))
    if key == "first_deal_foundations":
        return tuple(rng.choice(FIRST_DEAL_GROUPS) for _ in range(rng.randint(0, 12)))
    if key in COUNTS:
        return rng.randint(*COUNTS[key])
    return rng.random() < 0.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--combinations", type=int, default=1000, help="valid combinations to check")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tally, disagreements = Counter(), []
    start = time.time()
    while tally["combinations"] < args.combinations:
        game = GAMES[rng.choice(sorted(GAMES))]
        keys = list(dict.fromkeys(rng.choice(KEYS) for _ in range(rng.randint(1, 4))))
        rules = game.resolve({}, {key: value(rng, key) for key in keys})
        if checks.problems(rules):
            tally["refused"] += 1
            continue
        tally["combinations"] += 1
        try:
            check_variant(rules, rng.randrange(2**32), tally)
        except (AssertionError, ValueError) as err:
            disagreements.append((rules.label(), str(err).splitlines()[0] if str(err) else repr(err)))
            print("disagreement:", *disagreements[-1], flush=True)
        if tally["combinations"] % 50 == 0:
            print(dict(tally), f"{time.time() - start:.0f} s", flush=True)
    print(f"{dict(tally)} in {time.time() - start:.0f} s; {len(disagreements)} disagreements")
    for label, what in disagreements:
        print(f"  {label}: {what}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())

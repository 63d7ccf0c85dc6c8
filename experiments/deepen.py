"""Add a step to the escalation of committed solver verdict files: their unknown deals are
solved again at a larger budget and each file is replaced by the deeper one (see
solitaire_odds.deepen), so a headline result gains a 1e6 or 1e7 step without rerunning the
deals it decided. Interrupted, it continues where it stopped.

    python experiments/deepen.py results/verdicts/duchess/defaults--solver-b10k+100k.parquet --budget 1e6
    python experiments/deepen.py results/verdicts/easthaven/*.parquet --budget 1e6 --workers 2
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from common import log

from solitaire_odds.counts import MAX_BUDGET, InputError, parse_count
from solitaire_odds.deepen import deepen
from solitaire_odds.runs import WorkersError, usable_cpus
from solitaire_odds.store import StoreError


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="solver verdict files (results/verdicts/<game>/...)")
    parser.add_argument("--budget", required=True, help="the new last step's node budget, e.g. 1e6")
    parser.add_argument("--workers", default=None, help="worker processes (default: every core)")
    args = parser.parse_args(argv)
    try:
        budget = parse_count(args.budget, "--budget", MAX_BUDGET)
        workers = usable_cpus() if args.workers is None else parse_count(args.workers, "--workers")
        for path in args.files:
            log(f"wrote {deepen(path, budget, workers, log)}")
    except (InputError, StoreError, WorkersError) as err:
        print(f"deepen.py: {err}", file=sys.stderr)
        raise SystemExit(getattr(err, "exit_code", 2)) from None
    except KeyboardInterrupt:
        print("deepen.py: interrupted; the finished batches are kept: rerun the same command to continue",
              file=sys.stderr)
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()

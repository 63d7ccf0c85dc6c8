"""Add steps to the escalation of committed solver verdict files: their unknown deals are
solved again at larger budgets and each file is replaced by the deeper one (see
solitaire_odds.runs.deepen), so a result gains 1e6 and 1e7 steps without rerunning the deals it
decided. Interrupted, it continues where it stopped. (experiments/campaign.py deepens the
headline runs as its plan says; this script is for any other file.)

    python experiments/deepen.py results/verdicts/duchess/defaults--solver-b10k+100k.parquet --budget 1e6,1e7
    python experiments/deepen.py results/verdicts/easthaven/*.parquet --budget 1e6 --workers 2
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from common import log

from solitaire_odds.counts import InputError, parse_budgets, parse_count
from solitaire_odds.runs.deepen import deepen
from solitaire_odds.runs.runner import WorkersError, usable_cpus
from solitaire_odds.runs.store import StoreError


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="solver verdict files (results/verdicts/<game>/...)")
    parser.add_argument("--budget", required=True, help="the steps to add, e.g. 1e6 or 1e6,1e7")
    parser.add_argument("--workers", default=None, help="worker processes (default: every core)")
    parser.add_argument("--allow-other-engine", action="store_true",
                        help="deepen a file another engine decided (it then records both engines)")
    args = parser.parse_args(argv)
    try:
        steps = parse_budgets(args.budget)
        workers = usable_cpus() if args.workers is None else parse_count(args.workers, "--workers")
        for path in args.files:
            log(f"wrote {deepen(path, steps, workers, log, args.allow_other_engine)}")
    except (InputError, StoreError, WorkersError) as err:
        print(f"deepen.py: {err}", file=sys.stderr)
        raise SystemExit(getattr(err, "exit_code", 2)) from None
    except KeyboardInterrupt:
        print("deepen.py: interrupted; the finished batches are kept: rerun the same command to continue",
              file=sys.stderr)
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()

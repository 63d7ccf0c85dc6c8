"""Add steps to the escalation of committed solver verdict files: their unknown deals are
solved again at larger budgets and each file is replaced by the deeper one (see
solitaire_odds.runs.deepen), so a result gains 1e6 and 1e7 steps without rerunning the deals it
decided. With --prover-seconds the prover (solitaire_odds.prover) runs on the unknown deals
first, for that many CPU-seconds a deal made deterministic, then the --budget steps on what it
leaves. Interrupted, it continues where it stopped. (experiments/campaign.py deepens the
headline runs as its plan says; this script is for any other file.)

    python experiments/deepen.py results/verdicts/duchess/defaults--solver-b10k+100k.parquet --budget 1e6,1e7
    python experiments/deepen.py results/verdicts/easthaven/*.parquet --budget 1e6 --workers 2
    python experiments/deepen.py "results/verdicts/westcliff/space_fill=king--solver-b10k+100k+1M.parquet" \
        --prover-seconds 2 --budget 1e7
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from common import log

from solitaire_odds.counts import InputError, parse_budgets, parse_count, parse_seconds
from solitaire_odds.runs.deepen import Prove, deepen
from solitaire_odds.runs.runner import WorkersError, usable_cpus
from solitaire_odds.runs.store import StoreError


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="solver verdict files (results/verdicts/<game>/...)")
    parser.add_argument("--budget", help="the node budgets to add, e.g. 1e6 or 1e6,1e7")
    parser.add_argument("--prover-seconds", help="a prover step before the budgets: CPU-seconds a deal")
    parser.add_argument("--workers", default=None, help="worker processes (default: every core)")
    parser.add_argument("--allow-other-engine", action="store_true",
                        help="deepen a file another engine decided (it then records both engines)")
    args = parser.parse_args(argv)
    try:
        if args.budget is None and args.prover_seconds is None:
            raise InputError("give --budget, --prover-seconds or both")
        steps = parse_budgets(args.budget) if args.budget is not None else ()
        if args.prover_seconds is not None:
            steps = (Prove(parse_seconds(args.prover_seconds, "--prover-seconds", 1e-3)), *steps)
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

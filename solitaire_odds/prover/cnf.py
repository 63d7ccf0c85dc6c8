"""A small CNF builder and the two SAT back ends the prover can use.

Clauses are lists of non-zero ints (DIMACS literals). :func:`solve_cnf` runs one back end on
them with a deterministic limit, so that a verdict does not depend on the machine's speed:
CaDiCaL (python-sat) stops after a number of conflicts, CP-SAT after a deterministic time.
"""

from __future__ import annotations

from dataclasses import dataclass

CONFLICTS_PER_SECOND = 1_500
"""CaDiCaL's conflicts per CPU-second on the prover's models (measured on Classic Westcliff
deals, see docs/prover.md): how a ``cpu_seconds`` budget becomes a conflict budget."""


class Cnf:
    def __init__(self):
        self.nvars = 0
        self.clauses: list[list[int]] = []

    def var(self) -> int:
        self.nvars += 1
        return self.nvars

    def add(self, *lits: int) -> None:
        self.clauses.append(list(lits))

    def clause(self, lits) -> None:
        self.clauses.append(list(lits))

    def at_most_one(self, lits: list[int]) -> None:
        """Sequential (ladder) encoding: n - 1 auxiliary variables, about 3n clauses."""
        if len(lits) <= 4:
            for i in range(len(lits)):
                for j in range(i + 1, len(lits)):
                    self.add(-lits[i], -lits[j])
            return
        prev = lits[0]
        for x in lits[1:-1]:
            s = self.var()
            self.add(-prev, s)
            self.add(-x, s)
            self.add(-prev, -x)
            prev = s
        self.add(-prev, -lits[-1])


@dataclass
class SatAnswer:
    status: str            # "sat" | "unsat" | "limit"
    model: set[int] | None  # the true variables when sat
    work: float            # conflicts (CaDiCaL) or deterministic seconds (CP-SAT)


def solve_cnf(cnf: Cnf, cpu_seconds: float, backend: str = "cadical") -> SatAnswer:
    if backend == "cadical":
        return _cadical(cnf, cpu_seconds)
    if backend == "cpsat":
        return _cpsat(cnf, cpu_seconds)
    raise ValueError(f"unknown SAT back end {backend!r} (choose cadical or cpsat)")


def _cadical(cnf: Cnf, cpu_seconds: float) -> SatAnswer:
    try:
        from pysat.solvers import Cadical195
    except ImportError:
        raise ImportError("the prover needs python-sat: pip install 'solitaire-odds[prover]'") from None

    with Cadical195(bootstrap_with=cnf.clauses) as s:
        s.conf_budget(max(1, int(cpu_seconds * CONFLICTS_PER_SECOND)))
        result = s.solve_limited()
        conflicts = s.accum_stats().get("conflicts", 0)
        if result is None:
            return SatAnswer("limit", None, conflicts)
        if not result:
            return SatAnswer("unsat", None, conflicts)
        return SatAnswer("sat", {v for v in s.get_model() if v > 0}, conflicts)


def _cpsat(cnf: Cnf, cpu_seconds: float) -> SatAnswer:
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        raise ImportError("the CP-SAT back end needs ortools: pip install 'solitaire-odds[prover]'") from None

    m = cp_model.CpModel()
    xs = [None] + [m.NewBoolVar("") for _ in range(cnf.nvars)]
    for cl in cnf.clauses:
        m.AddBoolOr([xs[v] if v > 0 else xs[-v].Not() for v in cl])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = float(cpu_seconds)
    st = solver.Solve(m)
    work = solver.deterministic_time
    if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return SatAnswer("sat", {v for v in range(1, cnf.nvars + 1) if solver.BooleanValue(xs[v])}, work)
    if st == cp_model.INFEASIBLE:
        return SatAnswer("unsat", None, work)
    return SatAnswer("limit", None, work)

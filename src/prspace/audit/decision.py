"""One decision per question: which all-pairs procedure decides a metric on a task, by a rule
read from the calibration table (:mod:`prspace.audit.calibration_table`, made by
``benchmarks/calib_audit.py`` from :func:`prspace.audit.simulate.calibrate`).

The rule (``docs/audit.md``, "Which procedure decides"):

1. the *cell*: the calibrated (pi, n) nearest to the task's, by the distance
   ``(log(n_pos / n_pos_c))^2 + (log(pi / pi_c))^2`` (the positives count most for the PR
   metrics' noise, the skew for their shape);
2. *calibrated* in that cell: a procedure whose directional family-wise error, under the null
   and under the planted alternative, is at most ``LEVEL + mc_se(LEVEL)`` (``mc_se(p) =
   sqrt(p (1 - p) / R)``, R replicates: not told apart from LEVEL by one Monte Carlo standard
   error);
3. of the calibrated procedures the task can run (DeLong-Holm: AUROC with unit weights; the
   bootstrap max-T: an audit with a bootstrap; the jackknife-t Holm: always) the one with the
   highest power on the planted lead; equal power: the earlier of :data:`ORDER`;
4. none calibrated, or the chosen one's power on the planted lead (a large one: AUROC 0.84 vs
   0.91 at pi 0.5) below :data:`POWER_FLOOR` (it finds that lead less often than a calibrated
   test errs): the metric *cannot decide* on this task; no pair is declared different, every
   model stays plausibly best, and the report says so (never "within noise").

The calibration ran at the audit's default level (0.05); at another ``--confidence`` the same
choice is used (the ordering of the procedures' errors is not expected to change).
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pandas as pd

from prspace.audit.calibration_table import CELLS, COLUMNS
from prspace.audit.generated import write_cells
from prspace.stats.pairwise import BOOT_MAX_T, DELONG_HOLM, JACK_HOLM

#: The level the calibration ran at.
LEVEL = 0.05
#: Tie-break order; the names :mod:`prspace.audit.simulate` gives the procedures.
ORDER = ("DeLong-Holm", "jackknife-Holm", "max-T (class)")
#: ``method`` of :mod:`prspace.stats.pairwise` for each calibrated name.
METHOD = {"DeLong-Holm": DELONG_HOLM, "jackknife-Holm": JACK_HOLM, "max-T (class)": BOOT_MAX_T}
CANNOT = "cannot decide"
#: Least power on the planted lead for a procedure to decide.
POWER_FLOOR = LEVEL


@dataclasses.dataclass(frozen=True)
class Decision:
    """Who decides ``metric`` on a task: ``method`` (a :mod:`prspace.stats.pairwise` method name, or
    None: cannot decide), the cell's ``pi``/``n``/``n_pos``, and ``fwer``/``power`` measured there
    (with their Monte Carlo ``mc_se``)."""

    metric: str
    method: str | None
    pi: float
    n: int
    n_pos: int
    fwer: float
    power: float
    mc_se: float
    #: Simultaneous coverage of the deciding procedure's intervals in the cell (the worse of null
    #: and alternative); its intervals are printed only at :data:`prspace.audit.coverage.TARGET` or above.
    simultaneous: float = float("nan")

    @property
    def label(self) -> str:
        """``"jackknife-Holm"`` etc.; ``"cannot decide"``."""
        return next((k for k, v in METHOD.items() if v == self.method), CANNOT)

    def why(self) -> str:
        cell = f"calibrated at pi = {self.pi:g}, n = {self.n} ({self.n_pos} positives)"
        if self.method is None and self.power < POWER_FLOOR:
            return (f"no power at this size and skew (power {self.power:.3f} on a large planted lead, MC se "
                    f"{self.mc_se:.3f}; {cell}): which models differ cannot be told")
        if self.method is None:
            return (f"no procedure holds family-wise error {LEVEL:g} at this size and skew ({cell}): "
                    "which models differ cannot be told")
        return (f"{self.label} decides: family-wise error {self.fwer:.3f}, power {self.power:.2f} on the planted lead "
                f"(MC se {self.mc_se:.3f}; {cell})")


def _table() -> pd.DataFrame:
    return pd.DataFrame(CELLS, columns=COLUMNS)


def decide(metric: str, n_pos: float, n: float, *, available: tuple[str, ...] = ORDER,
           table: pd.DataFrame | None = None) -> Decision:
    """The rule of the module docstring for a task with ``n_pos`` positives of ``n`` rows."""
    t = _table() if table is None else table
    t = t[t["metric"] == metric]
    pi = n_pos / n if n else float("nan")
    if not len(t) or not (n_pos > 0 and n > n_pos):
        return Decision(metric, None, float("nan"), 0, 0, float("nan"), float("nan"), float("nan"))
    cells = t[["pi", "n", "n_pos"]].drop_duplicates()
    dist = (cells["n_pos"].map(lambda c: math.log(n_pos / c)) ** 2
            + cells["pi"].map(lambda c: math.log(pi / c)) ** 2)
    cell = cells.loc[dist.idxmin()]
    here = t[(t["pi"] == cell["pi"]) & (t["n"] == cell["n"])]
    best = None
    for name in ORDER:
        if name not in available:
            continue
        row = here[here["method"] == name]
        if not len(row):
            continue
        r = row.iloc[0]
        mc = math.sqrt(LEVEL * (1 - LEVEL) / r["reps"])
        if r["fwer"] <= LEVEL + mc and (best is None or r["power"] > best[1]["power"]):
            best = (name, r, mc)
    if best is None:
        r = here.iloc[0]
        mc = math.sqrt(LEVEL * (1 - LEVEL) / r["reps"])
        return Decision(metric, None, float(cell["pi"]), int(cell["n"]), int(cell["n_pos"]),
                        float(here["fwer"].min()), float("nan"), mc)
    name, r, mc = best
    if not r["power"] >= POWER_FLOOR:
        return Decision(metric, None, float(cell["pi"]), int(cell["n"]), int(cell["n_pos"]), float(r["fwer"]),
                        float(r["power"]), mc)
    return Decision(metric, METHOD[name], float(cell["pi"]), int(cell["n"]), int(cell["n_pos"]), float(r["fwer"]),
                    float(r["power"]), mc, float(r.get("simultaneous", float("nan"))))


def rule_table(calibration: pd.DataFrame) -> pd.DataFrame:
    """Per cell, metric and procedure: the worse family-wise error of null and alternative, the power
    on the planted lead, replicates (the columns the rule reads)."""
    c = calibration
    fw = c[c["kind"] == "fwer"].groupby(["metric", "method", "pi", "n", "n_pos"])[["share", "reps"]].agg(
        {"share": "max", "reps": "min"}).rename(columns={"share": "fwer"})
    pw = c[(c["kind"] == "power")].set_index(["metric", "method", "pi", "n", "n_pos"])["share"].rename("power")
    sim = c[c["kind"] == "simultaneous"].groupby(["metric", "method", "pi", "n", "n_pos"])["share"].min().rename(
        "simultaneous")
    out = fw.join(pw).join(sim).reset_index()
    return out[out["method"].isin(ORDER)].sort_values(["metric", "pi", "n", "method"]).reset_index(drop=True)


def write_table(calibration: pd.DataFrame, seed: int, path: Path | None = None) -> Path:
    """Write :mod:`prspace.audit.calibration_table` from the calibration CSV's rows."""
    cols = ["metric", "method", "pi", "n", "n_pos", "fwer", "power", "reps", "simultaneous"]
    return write_cells(
        path or Path(__file__).with_name("calibration_table.csv"),
        header=(f"Generated by ``benchmarks/calib_audit.py --write-rule`` (seed {seed}); do not edit.\n\n"
                   "Per metric, procedure and calibrated cell: the worse directional family-wise error of the null\n"
                   "and the planted alternative, the power on the planted lead, replicates, the simultaneous coverage of\n"
                   "its intervals (the worse of null and alternative)\n"
                   "(:func:`prspace.audit.decision.rule_table`)."),
        columns=cols, rows=rule_table(calibration)[cols].itertuples(index=False), ints=("n", "n_pos", "reps"),
        floats=("fwer", "power", "simultaneous"))

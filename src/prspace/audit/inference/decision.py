"""One decision per question: which all-pairs procedure decides a metric on a task, at a level
corrected by simulation, read from the calibration table (``audit/data/calibration_table.csv``, :data:`CELLS`,
made by ``benchmarks/calib_audit.py`` from :func:`prspace.audit.simulation.simulate.calibrate`).

The rule (``docs/audit.md``, "Which procedure decides"):

1. the *cell*: the calibrated (pi, n) nearest to the task's, by the distance
   ``(log(n_pos / n_pos_c))^2 + (log(pi / pi_c))^2`` (the positives count most for the PR
   metrics' noise, the skew for their shape);
2. the *level correction* of each procedure in that cell, wherever its raw test's directional
   family-wise error exceeds ``LEVEL + 2 MC se`` (on all replicates or on the held-out half; else
   ``t(L) = L``, no correction): its raw paired p-values on the
   simulated pairs whose true difference is 0 (null and planted alternative, the first half of the
   replicates) give, for each nominal level L of :data:`NOMINAL`, the raw threshold ``t(L)``
   below which a share of at most L of those null p-values fall; the corrected p-value of a pair
   is ``L`` at ``p_raw = t(L)`` (interpolated on the log scale; :meth:`Decision.corrected_p`).  A
   test whose raw p-values are too small under the null (the jackknife t of AP at 30 positives)
   is made stricter, one that is conservative is loosened; Holm's step-down on the corrected
   p-values controls the family-wise error for any number of models;
3. the corrected procedure's directional family-wise error, power on the planted lead and
   simultaneous coverage are measured on the *other* half of the replicates (held out); of the
   procedures the task can run (DeLong-Holm: AUROC with unit weights; the paired bootstrap z with
   Holm: an audit with a bootstrap; the jackknife-t Holm: always) the one with the highest held-out
   power decides; equal power: the earlier of :data:`ORDER`.

Every cell has a deciding procedure: a cell where a raw test errs too often gets a stricter level,
never an abstention.  A metric *cannot decide* only when the table has no cell for it (or the task
has fewer than one positive and one negative); a pair the corrected procedure does not separate
reads "not distinguishable", because the data cannot tell.

The calibration ran at the audit's default level (0.05); another ``--confidence`` maps through the
same correction (its nominal level is read off the same null p-values).  :func:`decided` puts each
pair's decision into the comparisons table (:mod:`prspace.audit.inference.uncertainty`).
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pandas as pd

from prspace.audit.rule_tables import read_cells, table_path, write_cells
from prspace.stats.distributions import norm, student_t
from prspace.stats.pairwise import BOOT_Z, DELONG_HOLM, JACK_HOLM, holm

#: Per metric, procedure and calibrated cell: the worse directional family-wise error of the null and
#: the planted alternative, the power on the planted lead, replicates, the simultaneous coverage of its
#: intervals (:func:`rule_table`): the rule table ``calibration_table.csv`` of the audit's package data,
#: written by ``benchmarks/calib_audit.py --write-rule``.
COLUMNS, CELLS = read_cells("calibration_table.csv")
#: The level the calibration ran at.
LEVEL = 0.05
#: Tie-break order; the names :mod:`prspace.audit.simulation.simulate` gives the procedures.
ORDER = ("DeLong-Holm", "bootstrap-z (class)", "jackknife-Holm")
#: ``method`` of :mod:`prspace.stats.pairwise` for each calibrated name.
METHOD = {"DeLong-Holm": DELONG_HOLM, "bootstrap-z (class)": BOOT_Z, "jackknife-Holm": JACK_HOLM}
CANNOT = "cannot decide"
#: Nominal levels at which the raw thresholds are tabled (``t_<i>`` columns of the table).
NOMINAL = (0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5)
THRESHOLD_COLUMNS = tuple(f"t_{i}" for i in range(len(NOMINAL)))


@dataclasses.dataclass(frozen=True)
class Decision:
    """Who decides ``metric`` on a task: ``method`` (a :mod:`prspace.stats.pairwise` method name, or
    None: cannot decide), the cell's ``pi``/``n``/``n_pos``, ``fwer``/``power`` of the corrected
    procedure measured there on held-out replicates (Monte Carlo ``mc_se`` of the fwer), and the
    raw ``thresholds`` at the nominal levels :data:`NOMINAL`."""

    metric: str
    method: str | None
    pi: float
    n: int
    n_pos: int
    fwer: float
    power: float
    mc_se: float
    #: Simultaneous coverage of the deciding procedure's corrected intervals in the cell (the worse
    #: of null and alternative); its intervals are printed only at :data:`prspace.audit.inference.coverage.TARGET` or above.
    simultaneous: float = float("nan")
    thresholds: tuple[float, ...] = ()

    @property
    def label(self) -> str:
        """``"jackknife-Holm"`` etc.; ``"cannot decide"``."""
        return next((k for k, v in METHOD.items() if v == self.method), CANNOT)

    def corrected_p(self, p_raw):
        """The corrected p-value of raw p-values (module docstring, step 2); monotone, 1 at 1."""
        return corrected_p(p_raw, self.thresholds)

    def raw_threshold(self, level: float) -> float:
        """The raw p-value whose corrected p-value is ``level``."""
        return raw_threshold(level, self.thresholds)

    def why(self) -> str:
        cell = f"calibrated at pi = {self.pi:g}, n = {self.n} ({self.n_pos} positives)"
        if self.method is None:
            return f"no calibration for this metric or task ({cell}): which models differ cannot be told"
        how = ("at its nominal level (it holds the family-wise error in simulation)"
               if tuple(self.thresholds) == NOMINAL else
               f"at a level corrected by simulation (raw p below {self.raw_threshold(LEVEL):.3g} counts as p below "
               f"{LEVEL:g})")
        return (f"{self.label} decides {how}: family-wise error {self.fwer:.3f} (MC se {self.mc_se:.3f}), power "
                f"{self.power:.2f} on the planted lead, measured on held-out replicates; {cell}")


def _curve(thresholds) -> tuple[np.ndarray, np.ndarray]:
    t = np.maximum.accumulate(np.asarray(thresholds, dtype=np.float64))
    return np.log(np.r_[np.maximum(t, 1e-300), 1.0]), np.log(np.r_[NOMINAL, 1.0])


def corrected_p(p_raw, thresholds):
    """Corrected p-values: log-log interpolation through ``(t(L), L)`` and ``(1, 1)``; below the
    smallest threshold, proportional (``p L_0 / t(L_0)``)."""
    p = np.clip(np.asarray(p_raw, dtype=np.float64), 0.0, 1.0)
    if not len(thresholds):
        return p
    x, y = _curve(thresholds)
    with np.errstate(divide="ignore"):
        lp = np.log(np.maximum(p, 1e-300))
    out = np.exp(np.interp(lp, x, y))
    below = lp < x[0]
    out = np.where(below, p * NOMINAL[0] / np.exp(x[0]), out)
    return np.minimum(out, 1.0)


def raw_threshold(level: float, thresholds) -> float:
    """The inverse of :func:`corrected_p` at ``level``."""
    if not len(thresholds):
        return float(level)
    x, y = _curve(thresholds)
    ly = math.log(min(max(level, 1e-300), 1.0))
    if ly < y[0]:
        return float(level * math.exp(x[0]) / NOMINAL[0])
    return float(math.exp(np.interp(ly, y, x)))


def _table() -> pd.DataFrame:
    return pd.DataFrame(CELLS, columns=COLUMNS)


def decide(metric: str, n_pos: float, n: float, *, available: tuple[str, ...] = ORDER,
           table: pd.DataFrame | None = None) -> Decision:
    """The rule of the module docstring for a task with ``n_pos`` positives of ``n`` rows."""
    t = _table() if table is None else table
    t = t[(t["metric"] == metric) & t["method"].isin(available)]
    pi = n_pos / n if n else float("nan")
    if not len(t) or not (n_pos > 0 and n > n_pos):
        return Decision(metric, None, float("nan"), 0, 0, float("nan"), float("nan"), float("nan"))
    cells = t[["pi", "n", "n_pos"]].drop_duplicates()
    dist = (cells["n_pos"].map(lambda c: math.log(n_pos / c)) ** 2
            + cells["pi"].map(lambda c: math.log(pi / c)) ** 2)
    cell = cells.loc[dist.idxmin()]
    here = t[(t["pi"] == cell["pi"]) & (t["n"] == cell["n"])]
    rank = {name: i for i, name in enumerate(ORDER)}
    r = sorted(here.itertuples(index=False), key=lambda x: (-x.power, rank[x.method]))[0]._asdict()
    mc = math.sqrt(max(r["fwer"], LEVEL) * (1 - max(r["fwer"], LEVEL)) / r["reps"])
    return Decision(metric, METHOD[r["method"]], float(cell["pi"]), int(cell["n"]), int(cell["n_pos"]),
                    float(r["fwer"]), float(r["power"]), mc, float(r.get("simultaneous", float("nan"))),
                    tuple(float(r[c]) for c in THRESHOLD_COLUMNS))


def thresholds_of(null_p: np.ndarray) -> tuple[float, ...]:
    """``t(L)`` for every L of :data:`NOMINAL` from null raw p-values: the ``floor(L N) + 1``-th smallest,
    so that a share of at most L of them lie strictly below it."""
    x = np.sort(np.asarray(null_p, dtype=np.float64))
    x = x[np.isfinite(x)]
    out = []
    for level in NOMINAL:
        k = int(math.floor(level * x.size))
        out.append(float(x[k]) if k < x.size else 1.0)
    return tuple(out)


def _outcomes(g: pd.DataFrame, thresholds: tuple[float, ...], alpha: float = LEVEL) -> tuple[bool, float, bool]:
    """(directional family-wise error, power, simultaneous coverage) of one replicate's pairs ``g``
    by the corrected procedure."""


    p = corrected_p(g["p_raw"].fillna(1.0).to_numpy(), thresholds)
    surv = holm(p) < alpha
    d, truth = g["diff"].to_numpy(), np.sign(g["true_diff"].to_numpy())
    sign = np.sign(d)
    wrong = surv & ((truth == 0) | (sign != truth))
    real = truth != 0
    power = float((surv & (sign == truth))[real].mean()) if real.any() else float("nan")
    level = raw_threshold(alpha / len(g), thresholds)
    df = g["df"].to_numpy()
    q = np.where(np.isnan(df), norm.isf(level / 2), student_t.isf(level / 2, np.where(np.isnan(df), 1.0, df)))
    covered = bool(np.all(np.abs(d - g["true_diff"].to_numpy()) <= q * g["se"].to_numpy() + 1e-12))
    return bool(wrong.any()), power, covered


def rule_table(pairs: pd.DataFrame) -> pd.DataFrame:
    """Per cell, metric and procedure, from :func:`prspace.audit.simulation.simulate.calibrate`'s pair rows: the raw
    thresholds from the first half of the replicates (per truth), and on the held-out second half
    the corrected procedure's worse directional family-wise error of null and alternative, its
    power on the planted lead, its worse simultaneous coverage, the held-out replicates per truth."""
    keys = ["metric", "method", "pi", "n", "n_pos"]
    rows = [dict(zip(keys, key, strict=True), **_cell_row(g)) for key, g in pairs.groupby(keys, sort=True)]
    out = pd.DataFrame(rows)
    return out[out["method"].isin(ORDER)].sort_values(["metric", "pi", "n", "method"]).reset_index(drop=True)


def _cell_row(g: pd.DataFrame) -> dict:
    """:func:`rule_table`'s columns after the keys, of one cell, metric and procedure's pair rows ``g``."""
    half = g["rep"] < g.groupby("truth")["rep"].transform("max") // 2 + 1
    fit = g[half]
    null_p = fit.loc[fit["true_diff"] == 0, "p_raw"].to_numpy()
    # the raw test at its nominal level, on all replicates and on the held-out half
    by_truth = {truth: [r for _, r in h.groupby("rep", sort=False)] for truth, h in g.groupby("truth")}
    raw_all = {t: [_outcomes(r, NOMINAL) for r in reps] for t, reps in by_truth.items()}
    held_reps = {t: [r for r in reps if not half[r.index].iloc[0]] for t, reps in by_truth.items()}
    raw_held = {t: [_outcomes(r, NOMINAL) for r in reps] for t, reps in held_reps.items()}
    corrected = _over(raw_all) or _over(raw_held)
    th = thresholds_of(null_p) if corrected else NOMINAL
    res = {t: [_outcomes(r, th) for r in reps] for t, reps in held_reps.items()} if corrected else raw_held
    return _summary(res, raw_held, corrected=corrected, null_pairs=int(null_p.size), thresholds=th)


def _summary(res: dict, raw_held: dict, *, corrected: bool, null_pairs: int, thresholds: tuple[float, ...]) -> dict:
    """:func:`_cell_row`'s columns from the outcomes per truth of the corrected (``res``) and the raw
    (``raw_held``) procedure on the held-out replicates."""
    return dict(fwer=max(_share(v, 0) for v in res.values()),
                power=_share(res["alternative"], 1) if "alternative" in res else float("nan"),
                reps=min(len(v) for v in res.values()),
                simultaneous=min(_share(v, 2) for v in res.values()),
                fwer_raw=max(_share(v, 0) for v in raw_held.values()),
                power_raw=_share(raw_held["alternative"], 1) if "alternative" in raw_held else float("nan"),
                corrected=int(corrected), null_pairs=null_pairs,
                **dict(zip(THRESHOLD_COLUMNS, thresholds, strict=True)))


def _over(res: dict) -> bool:
    """Whether the directional family-wise error of any truth's outcomes (:func:`_outcomes`) exceeds
    :data:`LEVEL` by more than 2 Monte Carlo standard errors."""
    return any(np.mean([x[0] for x in v]) > LEVEL + 2 * math.sqrt(LEVEL * (1 - LEVEL) / len(v))
               for v in res.values())


def _share(v: list, i: int) -> float:
    """The mean of the ``i``-th outcome over replicates ``v`` (NaN left out)."""
    return float(np.nanmean([x[i] for x in v]))


def write_table(pairs: pd.DataFrame, seed: int, path: Path | None = None) -> Path:
    """Write the rule table ``calibration_table.csv`` (:data:`CELLS`) from the calibration's pair rows."""
    cols = ["metric", "method", "pi", "n", "n_pos", "fwer", "power", "reps", "simultaneous", "fwer_raw", "power_raw",
            "corrected", "null_pairs", *THRESHOLD_COLUMNS]
    return write_cells(
        path or table_path("calibration_table.csv"),
        header=(f"Generated by ``benchmarks/calib_audit.py --write-rule`` (seed {seed}); do not edit.\n\n"
                "Per metric, procedure and calibrated cell: on held-out replicates, the worse directional family-wise\n"
                "error of the null and the planted alternative at the corrected level, the power on the planted lead,\n"
                "replicates per truth, the simultaneous coverage of the corrected intervals; the raw test's error and\n"
                "power at the nominal level on the same replicates; whether the level was corrected (1: the raw test\n"
                "erred above 0.05 + 2 MC se on all replicates or on the held-out half; 0: t_i are the nominal levels); the null pairs the\n"
                f"correction was fitted on and the raw thresholds t_i at the nominal levels {', '.join(map(str, NOMINAL))}\n"
                "(:func:`prspace.audit.inference.decision.rule_table`)."),
        columns=cols, rows=rule_table(pairs)[cols].itertuples(index=False), ints=("n", "n_pos", "reps", "corrected", "null_pairs"),
        floats=("fwer", "power", "simultaneous", "fwer_raw", "power_raw"))


def decided(comparisons: pd.DataFrame, pairwise: pd.DataFrame | None) -> pd.DataFrame:
    """``comparisons`` with the deciding procedure's verdict per pair (module docstring): a pair of
    a metric no procedure decides (or not in ``pairwise``) is not distinguishable, and
    ``decided_by`` says "cannot decide"."""
    out = comparisons.copy()
    key = ["task", "metric", "model_a", "model_b"]
    cols = {"p_adjusted": "p_adjusted", "lo": "lo_simultaneous", "hi": "hi_simultaneous", "survives": "_s",
            "method": "decided_by", "simultaneous_coverage": "simultaneous_coverage"}
    if pairwise is not None and len(pairwise):
        # a pair the deciding procedure tested but no unadjusted comparison holds (the jackknife's, without a
        # bootstrap): its row, so that every sentence reads the decision the body prints (one answer, issue 59)
        have = pd.concat([out[key], out[key].rename(columns={"model_a": "model_b", "model_b": "model_a"})])
        have = set(map(tuple, have[key].astype(str).to_numpy()))
        src = pairwise[pairwise["role"] == "decides"]
        extra = src[[tuple(r) not in have for r in src[key].astype(str).to_numpy()]]
        if len(extra):
            add = extra[[*key, "diff", "p_raw", "method", "level"]].rename(columns={"p_raw": "p_value"}).assign(
                lo=np.nan, hi=np.nan, calibrated=False)
            out = pd.concat([out.astype({"calibrated": bool}) if len(out) else out.iloc[:0], add[
                [c for c in out.columns if c in add.columns]]], ignore_index=True)
    out["unadjusted_excludes_0"] = (out["lo"] > 0) | (out["hi"] < 0)
    if pairwise is None or not len(pairwise) or not len(out):
        for c in cols.values():
            out[c] = np.nan
        out["distinguishable"] = False
        out["decided_by"] = "cannot decide"
        return out.drop(columns="_s")
    dec = pairwise[pairwise["role"] == "decides"][key + list(cols)].rename(columns=cols)
    flip = dec.rename(columns={"model_a": "model_b", "model_b": "model_a"}).assign(
        lo_simultaneous=lambda x: -x["hi_simultaneous"], hi_simultaneous=lambda x: -x["lo_simultaneous"])
    both = pd.concat([dec, flip]).drop_duplicates(key)
    out = out.drop(columns=[c for c in cols.values() if c in out.columns]).merge(both, on=key, how="left")
    out["distinguishable"] = out["_s"].fillna(False).astype(bool)
    out["decided_by"] = out["decided_by"].fillna("cannot decide")
    return out.drop(columns="_s")

"""The audit prints only calibrated intervals (:mod:`prspace.audit.inference.coverage`).

Oracles: the closed form of the logit interval; a delete-one jackknife written with
scikit-learn's ``roc_auc_score`` and scipy's t; the generated coverage table against a fresh run
of the simulation at a small size (Monte Carlo error stated); and the reports, whose printed
intervals must all be of a calibrated method.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.special import expit, logit
from scipy.stats import norm
from scipy.stats import t as student_t
from sklearn.metrics import roc_auc_score

from prspace import audit
from prspace.audit.inference import coverage as C
from prspace.audit.inference.tables import LABELS
from prspace.audit.inference.uncertainty import shown_method
from prspace.audit.rule_tables import read_cells, table_path, write_cells
from prspace.audit.simulation.coverage_calib import calibrate_coverage
from prspace.stats.intervals import jackknife_interval, logit_interval
from prspace.stats.replicates import BOOT_METRICS, Block, jackknife, point_metrics

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "audit-example.csv"


def test_logit_interval_is_its_closed_form_and_stays_inside_0_1():
    a, v = 0.97, 0.02**2
    lo, hi = logit_interval(a, v, 0.95)
    half = norm.ppf(0.975) * 0.02 / (a * (1 - a))
    assert (lo, hi) == pytest.approx((expit(logit(a) - half), expit(logit(a) + half)), abs=1e-12)
    assert 0 < lo < a < hi < 1
    assert all(np.isnan(logit_interval(1.0, v, 0.95)))


def test_jackknife_interval_matches_a_delete_one_jackknife_by_hand():
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(40, bool), np.zeros(110, bool)]
    s = 1.0 * y + rng.standard_normal(y.size)
    block = C.class_strata(Block("t", ["m"], y, y.astype(np.int64), np.ones(y.size),
                                 [np.unique(-s, return_inverse=True)[1].ravel()], [s]))
    reps, strata = jackknife(block)  # 150 rows: delete-one
    lo, hi = jackknife_interval(point_metrics(block), reps, strata, 0.95)
    a = BOOT_METRICS.index("auroc")
    theta = logit(roc_auc_score(y, s))
    var, spread = 0.0, 0.0
    for cls in (True, False):
        idx = np.flatnonzero(y == cls)
        eta = np.array([logit(roc_auc_score(np.delete(y, i), np.delete(s, i))) for i in idx])
        v = (idx.size - 1) / idx.size * ((eta - eta.mean()) ** 2).sum()
        var, spread = var + v, spread + v**2 / (idx.size - 1)
    half = student_t.isf(0.025, var**2 / spread) * np.sqrt(var)
    assert (lo[0, a], hi[0, a]) == pytest.approx((expit(theta - half), expit(theta + half)), abs=1e-10)


def test_rule_reads_the_nearest_cell_of_the_table():
    t = pd.DataFrame([("coverage", "aupr", "bootstrap", 0.5, 300, 150, 0.95, 0.007, 1000),
                      ("coverage", "aupr", "bootstrap", 0.03, 1000, 30, C.TARGET - 0.001, 0.008, 1000)],
                     columns=["kind", "metric", "method", "pi", "n", "n_pos", "coverage", "mc_se", "reps"])
    near_big = C.coverage_of("aupr", "bootstrap", 140, 290, table=t)
    near_small = C.coverage_of("aupr", "bootstrap", 33, 1100, table=t)
    assert near_big.shown and (near_big.pi, near_big.n_pos) == (0.5, 150)
    assert not near_small.shown and near_small.n_pos == 30
    assert "covers only" in C.not_shown(near_small, "AUPR 95%", 33) and "not shown" in C.not_shown(
        near_small, "AUPR 95%", 33)
    assert C.coverage_of("aupr", "no such method", 30, 300, table=t) is None


def test_the_generated_table_agrees_with_a_fresh_simulation():
    """The table the rule reads (1000 replicates per cell) against 150 fresh replicates of its cell
    pi 0.1, n 300 (30 positives): every method within 3 combined Monte Carlo se (+0.005 for the
    per-model shares, whose se is conservative)."""
    reps = 150
    fresh = pd.concat([calibrate_coverage(0.1, 300, reps, alternative=alt, seed=7) for alt in (False, True)])
    fresh = C.rule_table(fresh)
    table = C._table()
    merged = fresh.merge(table, on=["kind", "metric", "method", "pi", "n"], suffixes=("", "_table"))
    assert len(merged) == len(fresh) == len(table[(table["pi"] == 0.1) & (table["n"] == 300)])
    se = np.hypot(np.sqrt(merged["coverage"] * (1 - merged["coverage"]) / reps), merged["mc_se_table"])
    gap = (merged["coverage"] - merged["coverage_table"]).abs()
    assert (gap <= 3 * se + 0.005).all(), merged.loc[gap > 3 * se + 0.005].to_string()


def test_logit_scale_helps_where_the_auroc_piles_up_against_1():
    """The fix the calibration asked for: at few positives DeLong's interval clipped to [0, 1]
    undercovers, DeLong on the logit scale and the jackknife-t cover more (generated table)."""
    t = C._table()
    few = t[(t["kind"] == "coverage") & (t["metric"] == "auroc") & (t["n_pos"] <= 30)].pivot_table(
        index=["pi", "n"], columns="method", values="coverage")
    assert (few["DeLong (logit)"] > few["DeLong"]).all() and (few["jackknife-t"] > few["DeLong"]).all()


def _imbalanced(n_pos: int, n_neg: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    z = rng.standard_normal(y.size)
    parts = [pd.DataFrame({"model": f"m{k}", "row_id": np.arange(y.size), "y_true": y,
                           "y_score": (1.0 + 0.3 * k) * y + 0.7 * z + 0.7 * rng.standard_normal(y.size)})
             for k in range(3)]
    return pd.concat(parts, ignore_index=True)


@pytest.mark.parametrize("n_pos,n_neg", [(30, 270), (6, 500)])
def test_reports_print_only_calibrated_intervals(n_pos, n_neg):
    data = _imbalanced(n_pos, n_neg) if n_pos != 30 else pd.read_csv(EXAMPLE)
    kw = {"label_col": "diagnosis", "pos_label": "malignant"} if n_pos == 30 else {}
    res = audit.audit(data, n_boot=200, **kw)
    iv, task = res.intervals, res.pooled["task"].iloc[0]
    text, md = res.to_text(), res.to_markdown()
    n = n_pos + n_neg
    for metric in BOOT_METRICS:
        method = shown_method(iv, task, metric)
        cov = C.coverage_of(metric, method, n_pos, n) if method else None
        assert method is None or cov.coverage >= C.TARGET
        if method is None:  # no method covers: the value alone, and why
            best = max(C.coverage_of(metric, m, n_pos, n).coverage for m in iv.loc[iv["metric"] == metric, "method"]
                       .unique())
            assert best < C.TARGET
            line = next(x for x in md.splitlines() if f"the {LABELS[metric]} 95% interval" in x)
            assert "not shown" in line and f"{best:.0%}" in line
    # every "[lo, hi]" in the pooled table is a calibrated interval of its model and metric
    shown = iv[iv["calibrated"]]
    for lo, hi in re.findall(r"\[(-?\d+\.\d+), (-?\d+\.\d+)\]", text.split("Pooled metrics", 1)[1].split("\n\n")[0]):
        close = shown[((shown["lo"] - float(lo)).abs() < 0.0051) & ((shown["hi"] - float(hi)).abs() < 0.0051)]
        assert len(close), (lo, hi)
    # the paired table's unadjusted CIs: printed only where calibrated
    cmp = res.comparisons
    assert "calibrated" in cmp and cmp["calibrated"].dtype == bool
    if not cmp["calibrated"].all():
        assert "not shown" in md


def test_bands_are_drawn_by_the_nearest_cell_of_their_table():
    """Every calibrated cell of the bands table decides its own size: drawn iff its simultaneous
    coverage reaches the target; a task between cells takes the nearest."""
    from prspace.audit.inference.audit_bands import CELLS, band_coverage, band_shown

    assert {c[0] for c in CELLS} == {"roc", "pr", "prg"}
    for curve, _pi, n, n_pos, cov, _se, _reps in CELLS:
        assert band_coverage(curve, n_pos, n)[0] == cov
        assert band_shown(curve, n_pos, n) == (cov >= C.TARGET)
    assert np.isnan(band_coverage("roc", 0, 10)[0]) and not band_shown("roc", 0, 10)



#: First and last cell of each rule table as the retired generated Python modules spelled them.
OLD_CELLS = {
    "bands_table": [("roc", 0.5, 300, 150, 0.4867, 0.0289, 300), ("prg", 0.01, 1000, 10, 0.9567, 0.0118, 300)],
    "calibration_table": [("aucnpr", "bootstrap-z (class)", 0.01, 300, 3, 0.04, 0.0375, 100, 0.73, 0.04, 0.0375, 0, 1600,
                           0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5),
                          ("average_precision", "jackknife-Holm", 0.5, 1000, 500, 0.06, 0.9925, 100, 0.94, 0.06, 0.9925,
                           0, 1600, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5)],
    "coverage_table": [("coverage", "aucnpr", "bootstrap", 0.01, 300, 3, 0.7212, 0.0142, 1000),
                       ("pair coverage", "average_precision", "paired bootstrap", 0.5, 1000, 500, 0.9332, 0.0079,
                        1000)],
}


@pytest.mark.parametrize("name", sorted(OLD_CELLS))
def test_rule_tables_load_the_cells_the_python_modules_held(name, tmp_path):
    """The CSV rule tables load to the values and types the generated modules spelled as literals, and
    rewriting their cells with the writer reproduces the file's data lines byte for byte."""
    columns, cells = read_cells(f"{name}.csv")
    for old in OLD_CELLS[name]:  # still there (a table may have gained cells since), with the same types
        new = next((c for c in cells if c == old), None)
        assert new is not None, old
        assert [type(v) for v in new] == [type(v) for v in old]
    floats = [c for c, v in zip(columns, cells[0], strict=True)
              if isinstance(v, float) and c != "pi" and not c.startswith("t_")]  # raw thresholds: full digits
    ints = [c for c, v in zip(columns, cells[0], strict=True) if isinstance(v, int)]
    text = table_path(f"{name}.csv").read_text()
    data = "".join(line + "\n" for line in text.splitlines() if not line.startswith("#"))
    assert write_cells(tmp_path / "t.csv", header="", columns=columns, rows=cells, ints=ints,
                       floats=floats).read_text() == data


def test_write_cells_round_trips_numpy_values_nan_and_text(tmp_path):
    """numpy scalars, NaN, a text with a comma and a float's shortest digits come back as Python values."""
    rows = [("a, b", np.float64(0.1), np.int64(7), np.float64(float("nan"))), ("x", 1 / 3, 2, 0.12345)]
    write_cells(tmp_path / "t.csv", header="made by a test\n\nsecond line", columns=["s", "pi", "n", "cov"],
                rows=rows, ints=["n"], floats=["cov"])
    assert (tmp_path / "t.csv").read_text().splitlines()[:3] == ["# made by a test", "#", "# second line"]
    columns, cells = read_cells("t.csv", tmp_path)
    assert columns == ["s", "pi", "n", "cov"]
    assert cells[0][:3] == ("a, b", 0.1, 7) and type(cells[0][2]) is int and np.isnan(cells[0][3])
    assert cells[1] == ("x", 1 / 3, 2, 0.1235)

def test_every_deciding_procedure_holds_the_issues_family_wise_error():
    """Issues 32 and 40: the procedure that decides a metric at a calibrated cell has held-out
    directional family-wise error at most 0.05 + 2 MC se there (100 held-out replicates: 0.094), every
    cell decides every metric, and its simultaneous coverage is known (intervals printed only where
    it reaches the target)."""
    from prspace.audit.inference.decision import CELLS, COLUMNS, LEVEL, decide

    t = pd.DataFrame(CELLS, columns=COLUMNS)
    decided = 0
    for (metric, _pi, n, n_pos), _ in t.groupby(["metric", "pi", "n", "n_pos"]):
        d = decide(metric, n_pos, n)
        if d.method is None:
            continue
        decided += 1
        assert d.fwer <= LEVEL + 2 * np.sqrt(LEVEL * (1 - LEVEL) / int(t["reps"].min())), d
        assert np.isfinite(d.simultaneous)
    assert decided == len(t[["metric", "pi", "n"]].drop_duplicates())  # no abstention

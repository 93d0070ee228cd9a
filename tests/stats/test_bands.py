"""Curve bands (:mod:`prspace.stats.bands`) against closed forms, the metrics module and R's pROC.

* Interpolation: the estimate equals :mod:`prspace.metrics`' curves (``roc_curve``,
  ``pr_curve``, ``prg_curve`` vertices), interpolated here point by point in plain Python
  (ROC linear, PR Davis-Goadrich, PRG linear in gain space; the upper end on vertical
  segments), ties and weights included; integrated on a fine grid they give AUROC, AUPR and
  AUPRG.
* Coverage by simulation: binormal scores, whose ROC, PR and PRG curves are known in closed
  form; the simultaneous band covers the whole true curve on the grid, and the pointwise band
  its middle point, in about 95% of simulations (Monte Carlo error stated).
* Oracle: pROC's ``ci.se`` (sensitivity at given specificities, stratified bootstrap, type-7
  percentiles) against our pointwise ROC band, within Monte Carlo error; skipped with a reason
  where ``Rscript`` or pROC is absent (``.ci/install-r.sh`` installs them).
"""

from __future__ import annotations

import io
import itertools
import subprocess
from pathlib import Path

import matplotlib.image
import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from _rscript import r_available
from prspace import metrics as M
from prspace.core.errors import InputError
from prspace.stats.bands import CURVES, curve_at, curve_bands, default_grid

# --------------------------------------------------------------------------------------------
# independent interpolation, one grid point at a time, from the metrics module's vertices
# --------------------------------------------------------------------------------------------


def _roc_oracle(y, s, w, grid):
    c = M.roc_curve(y, s, sample_weight=w)
    out = []
    for f in grid:
        at = c.tpr[c.fpr == f]
        if at.size:
            out.append(at.max())  # the upper end of a vertical segment
            continue
        i = np.flatnonzero(c.fpr < f)[-1]
        j = i + 1
        out.append(c.tpr[i] + (f - c.fpr[i]) / (c.fpr[j] - c.fpr[i]) * (c.tpr[j] - c.tpr[i]))
    return np.array(out)


def _pr_oracle(y, s, w, grid):
    c = M.pr_curve(y, s, sample_weight=w)
    p = c.tp[-1]
    out = []
    for r in grid:
        hit = np.flatnonzero(c.recall == r)
        if hit.size and r > 0:
            k = hit[0]  # where the recall is first reached: the highest precision
            out.append(c.tp[k] / (c.tp[k] + c.fp[k]))
            continue
        i = np.flatnonzero(c.recall < r)[-1]
        j = i + 1
        tp = r * p  # Davis and Goadrich: the contingency table linear in TP
        fp = c.fp[i] + (tp - c.tp[i]) * (c.fp[j] - c.fp[i]) / (c.tp[j] - c.tp[i])
        out.append(tp / (tp + fp))
    return np.array(out)


def _prg_oracle(y, s, w, grid):
    c = M.prg_curve(y, s, sample_weight=w)
    keep = c.recall_gain >= 0
    rg, pg = c.recall_gain[keep], c.precision_gain[keep]
    out = []
    for g in grid:
        hit = np.flatnonzero(rg == g)
        if hit.size:
            out.append(pg[hit[0]])  # the top of a vertical drop
            continue
        i = np.flatnonzero(rg < g)[-1]
        j = i + 1
        out.append(pg[i] + (g - rg[i]) / (rg[j] - rg[i]) * (pg[j] - pg[i]))
    return np.array(out)


ORACLES = {"roc": _roc_oracle, "pr": _pr_oracle, "prg": _prg_oracle}


def _data(kind: str, rng: np.random.Generator):
    n_pos, n_neg = 40, 60
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    s = rng.normal(size=y.size) + y
    w = None
    if kind == "ties":
        s = np.round(s * 2) / 2  # about ten distinct scores: groups with both classes
        s[:3] = 9.0  # a top group of positives only (vertical ROC segment at FPR 0)
        s[n_pos:n_pos + 2] = 8.0  # then a group of negatives only (a vertical PR drop)
    elif kind == "weights":
        s = np.round(s, 1)
        w = rng.integers(1, 4, size=y.size).astype(float)
    elif kind == "negatives-first":
        s[n_pos:n_pos + 3] = 10.0  # the top rows are negatives: PR rises from precision 0
    return y, s, w


@pytest.mark.parametrize("kind", ["continuous", "ties", "weights", "negatives-first"])
@pytest.mark.parametrize("curve", list(CURVES))
def test_estimate_equals_metrics_curves(kind, curve):
    y, s, w = _data(kind, np.random.default_rng(3))
    # a fine grid that also hits vertices exactly (FPR k / 60, recall k / 40 and their multiples)
    grid = np.unique(np.r_[np.arange(1, 240) / 240, np.arange(1, 40) / 40, np.arange(1, 60) / 60])
    if curve == "prg":
        grid = np.r_[0.0, grid]
    band = curve_bands(y, s, sample_weight=w, curves=(curve,), grids={curve: grid}, n_boot=2)[curve]
    expect = ORACLES[curve](y, s, w, grid)
    np.testing.assert_allclose(band.estimate, expect, rtol=0, atol=1e-12)


@pytest.mark.parametrize("kind", ["continuous", "ties", "weights", "negatives-first"])
def test_estimate_integrates_to_the_areas(kind):
    y, s, w = _data(kind, np.random.default_rng(4))
    x = np.arange(0, 200001) / 200000
    tp = np.bincount(np.unique(-s, return_inverse=True)[1], weights=(w if w is not None else 1.0) * y)
    fp = np.bincount(np.unique(-s, return_inverse=True)[1], weights=(w if w is not None else 1.0) * ~y)
    for curve, area in (("roc", M.auroc), ("pr", M.aupr), ("prg", M.auprg)):
        values = curve_at(curve, tp, fp, x)
        assert np.trapezoid(values, x) == pytest.approx(area(y, s, sample_weight=w), abs=2e-5), curve


def test_weights_zero_rows_dropped_and_integer_weights_repeat_rows():
    rng = np.random.default_rng(5)
    y, s, _ = _data("continuous", rng)
    w = np.ones(y.size)
    w[::7] = 0.0
    a = curve_bands(y, s, sample_weight=w, n_boot=50, rng=1)
    b = curve_bands(y[w > 0], s[w > 0], n_boot=50, rng=1)
    for c in CURVES:
        for field in ("estimate", "lo", "hi", "sim_lo", "sim_hi"):
            np.testing.assert_array_equal(getattr(a[c], field), getattr(b[c], field))
    k = rng.integers(1, 4, size=y.size)
    rep = curve_bands(np.repeat(y, k), np.repeat(s, k), n_boot=2)
    wt = curve_bands(y, s, sample_weight=k.astype(float), n_boot=2)
    for c in CURVES:
        np.testing.assert_allclose(rep[c].estimate, wt[c].estimate, rtol=0, atol=1e-12)


def test_ties_as_one_operating_point():
    y = np.r_[np.ones(30, bool), np.zeros(70, bool)]
    flat = curve_bands(y, np.zeros(100), n_boot=20)  # one tie group: the chance diagonal
    np.testing.assert_allclose(flat["roc"].estimate, flat["roc"].grid, atol=1e-15)
    np.testing.assert_allclose(flat["pr"].estimate, 0.3, atol=1e-15)
    np.testing.assert_allclose(flat["prg"].estimate, 0.0, atol=1e-15)
    for c in CURVES:  # class-stratified resamples of one group never change the curve
        b = flat[c]
        assert b.critical_value == 0.0
        for bound in (b.lo, b.hi, b.sim_lo, b.sim_hi):
            np.testing.assert_allclose(bound, b.estimate, atol=1e-15)
    # only the order of the scores matters, tied or not
    s = np.round(np.random.default_rng(6).normal(size=100) + y, 1)
    a, b = curve_bands(y, s, rng=2, n_boot=30), curve_bands(y, np.exp(3 * s), rng=2, n_boot=30)
    for c in CURVES:
        np.testing.assert_array_equal(a[c].sim_hi, b[c].sim_hi)


def test_result_shape_and_strata():
    rng = np.random.default_rng(7)
    y, s, _ = _data("continuous", rng)
    folds = np.arange(y.size) % 5
    bands = curve_bands(y, s, strata=folds, n_boot=200, level=0.9)
    for c, (x, yname) in CURVES.items():
        b = bands[c]
        assert (b.curve, b.x, b.y, b.level, b.n_resamples) == (c, x, yname, 0.9, 200)
        np.testing.assert_array_equal(b.grid, default_grid(c))
        assert b.critical_value > 1.645  # simultaneous: wider than a pointwise normal band
        assert np.all(b.sim_lo <= b.estimate) and np.all(b.estimate <= b.sim_hi)
        inner = b.sd > 0
        assert np.mean(b.sim_hi[inner] - b.sim_lo[inner]) > np.mean(b.hi[inner] - b.lo[inner])
        assert set(b.columns()) == {"grid", "estimate", "lo", "hi", "sim_lo", "sim_hi"}


@pytest.mark.parametrize("kwargs, words", [
    ({"y": [0, 1, 2]}, "0/1"),
    ({"y": [1, 1, 1]}, "one class"),
    ({"scores": [0.1, np.nan, 0.3]}, "NaN"),
    ({"scores": [0.1, 0.2]}, "as long as y"),
    ({"scores": ["a", "b", "c"]}, "numeric"),
    ({"sample_weight": [1, -1, 1]}, "non-negative"),
    ({"strata": [1, 2]}, "one value per row"),
    ({"curves": ("roc", "det")}, "unknown curve"),
    ({"grids": {"pr": [0.5, 0.2]}}, "increasing"),
    ({"grids": {"pr": [0.5, 1.2]}}, "[0, 1]"),
    ({"grids": {"auc": [0.5]}}, "unknown curve"),
    ({"level": 1.0}, "level"),
    ({"n_boot": 1}, "n_boot"),
    ({"grid_size": 1}, "grid_size"),
])
def test_bad_input(kwargs, words):
    args = {"y": [0, 1, 0], "scores": [0.1, 0.2, 0.3], **kwargs}
    with pytest.raises(InputError, match=None) as info:
        curve_bands(args.pop("y"), args.pop("scores"), **args)
    assert words in str(info.value)
    assert "\n" not in str(info.value)


# --------------------------------------------------------------------------------------------
# coverage by simulation
# --------------------------------------------------------------------------------------------

MU, N_POS, N_NEG = 1.0, 200, 400
#: Grids inside the region where several rows decide each point (docs/audit.md, "Curve bands").
SIM_GRIDS = {"roc": np.arange(1, 17) / 20, "pr": np.arange(2, 20) / 20, "prg": np.arange(0, 20) / 20}


def _truth(curve: str, grid: np.ndarray, pi: float) -> np.ndarray:
    """Binormal: negatives N(0, 1), positives N(MU, 1); TPR(f) = Phi(MU + Phi^-1(f))."""
    if curve == "roc":
        return norm.cdf(MU + norm.ppf(grid))
    recall = grid if curve == "pr" else pi / (1.0 - grid * (1.0 - pi))
    fpr = norm.cdf(norm.ppf(recall) - MU)
    precision = pi * recall / (pi * recall + (1.0 - pi) * fpr)
    return precision if curve == "pr" else (precision - pi) / ((1.0 - pi) * precision)


@pytest.mark.slow
def test_coverage_by_simulation():
    n_sim, n_boot, level = 200, 400, 0.95
    rng = np.random.default_rng(2026)
    pi = N_POS / (N_POS + N_NEG)
    whole = dict.fromkeys(CURVES, 0)
    middle = dict.fromkeys(CURVES, 0)
    for _ in range(n_sim):
        y = np.r_[np.ones(N_POS, bool), np.zeros(N_NEG, bool)]
        s = rng.normal(size=y.size) + MU * y
        bands = curve_bands(y, s, grids=SIM_GRIDS, n_boot=n_boot, level=level, rng=rng)
        for c, b in bands.items():
            truth = _truth(c, b.grid, pi)
            whole[c] += bool(np.all((b.sim_lo <= truth) & (truth <= b.sim_hi)))
            k = b.grid.size // 2
            middle[c] += bool(b.lo[k] <= truth[k] <= b.hi[k])
    mc_se = np.sqrt(level * (1 - level) / n_sim)  # 0.015 at 200 simulations
    for c in CURVES:
        assert whole[c] / n_sim >= level - 2 * mc_se, (c, whole[c] / n_sim)
        assert middle[c] / n_sim >= level - 2 * mc_se, (c, middle[c] / n_sim)
        assert middle[c] / n_sim <= level + 3 * mc_se, (c, middle[c] / n_sim)  # not trivially wide


# --------------------------------------------------------------------------------------------
# R's pROC
# --------------------------------------------------------------------------------------------

R_CI_SE = r"""
suppressMessages(library(pROC))
args <- commandArgs(TRUE)
d <- read.csv(args[1])
set.seed(1)
r <- roc(d$y, d$score, levels = c(0, 1), direction = "<", quiet = TRUE)
sp <- as.numeric(strsplit(args[2], ",")[[1]])
ci <- ci.se(r, specificities = sp, boot.n = as.integer(args[3]), boot.stratified = TRUE,
            conf.level = 0.95, progress = "none")
write.csv(data.frame(sp = sp, lo = ci[, 1], hi = ci[, 3]), args[4], row.names = FALSE)
"""


PROC_Y = np.r_[np.ones(60, bool), np.zeros(90, bool)]
PROC_S = np.round(np.random.default_rng(11).normal(size=150) + PROC_Y, 1)  # ties too
PROC_FPR = np.array([0.1, 0.2, 0.3, 0.5, 0.7])
PROC_B = 4000


def _roc_replicates(y, s, grid, n_boot):
    """Plain row-copying stratified bootstrap of TPR at ``grid`` (through the metrics module)."""
    rng = np.random.default_rng(8)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    out = np.empty((n_boot, grid.size))
    for b in range(n_boot):
        idx = np.r_[rng.choice(pos, pos.size), rng.choice(neg, neg.size)]
        out[b] = _roc_oracle(y[idx], s[idx], None, grid)
    return out


def _assert_within_mc_error(ours, lo, hi, reps, n_boot, n_pos):
    """The Monte Carlo error of an alpha-quantile of B replicates is sqrt(alpha (1 - alpha) / B) /
    density, the density estimated from ``reps`` by the spread of the quantiles alpha +- 0.02; two
    independent bootstraps differ by sqrt(2) of that; allowed: 4 such errors plus one TPR step 1 / P."""
    for mine, theirs, alpha in ((ours.lo, lo, 0.025), (ours.hi, hi, 0.975)):
        spread = np.quantile(reps, min(alpha + 0.02, 1), axis=0) - np.quantile(reps, max(alpha - 0.02, 0), axis=0)
        mc_se = np.sqrt(alpha * (1 - alpha) / n_boot) * spread / 0.04
        tol = 4 * np.sqrt(2) * mc_se + 1 / n_pos
        np.testing.assert_array_less(np.abs(mine - theirs), tol + 1e-12)


@pytest.fixture(scope="module")
def proc_case():
    ours = curve_bands(PROC_Y, PROC_S, curves=("roc",), grids={"roc": PROC_FPR}, n_boot=PROC_B, rng=5)["roc"]
    return ours, _roc_replicates(PROC_Y, PROC_S, PROC_FPR, PROC_B)


@pytest.mark.slow
def test_pointwise_roc_band_equals_a_row_copying_bootstrap(proc_case):
    ours, reps = proc_case
    lo, hi = np.quantile(reps, 0.025, axis=0), np.quantile(reps, 0.975, axis=0)
    _assert_within_mc_error(ours, lo, hi, reps, PROC_B, PROC_Y.sum())


@pytest.mark.slow
def test_pointwise_roc_band_equals_proc_ci_se(tmp_path, proc_case):
    reason = r_available()
    if reason:
        pytest.skip(reason)
    pd.DataFrame({"y": PROC_Y.astype(int), "score": PROC_S}).to_csv(tmp_path / "d.csv", index=False)
    (tmp_path / "ci.R").write_text(R_CI_SE)
    subprocess.run(["Rscript", str(tmp_path / "ci.R"), str(tmp_path / "d.csv"),
                    ",".join(f"{1 - f:.17g}" for f in PROC_FPR), str(PROC_B), str(tmp_path / "out.csv")],
                   check=True, capture_output=True, text=True)
    r = pd.read_csv(tmp_path / "out.csv")
    np.testing.assert_allclose(r["sp"], 1 - PROC_FPR, atol=1e-12)
    ours, reps = proc_case
    _assert_within_mc_error(ours, r["lo"].to_numpy(), r["hi"].to_numpy(), reps, PROC_B, PROC_Y.sum())


# --------------------------------------------------------------------------------------------
# the audit: API, figure, table
# --------------------------------------------------------------------------------------------

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "audit-example.csv"


@pytest.fixture(scope="module")
def example_result():
    from prspace.audit import audit

    frame = pd.read_csv(EXAMPLE)
    return frame, audit(frame, label_col="diagnosis", pos_label="malignant", n_boot=200)


def test_audit_bands_api_equals_curve_bands(example_result):
    frame, result = example_result
    rows = frame[frame["model"] == "knn_15"].sort_values(["fold", "row_id"])
    direct = curve_bands((rows["diagnosis"] == "malignant").to_numpy(), rows["score"].to_numpy(),
                         strata=rows["fold"].map(str).to_numpy(), n_boot=200, level=0.95, rng=0)
    for c in CURVES:
        b = result.bands("all", "knn_15", c)
        assert (b.curve, b.n_resamples, b.level) == (c, 200, 0.95)
        np.testing.assert_allclose(b.estimate, direct[c].estimate, atol=1e-12)
        assert b.sim_hi.mean() - b.sim_lo.mean() > 0  # same distribution, rows in another order
    assert result.bands("all", "knn_15", "pr", n_boot=50).n_resamples == 50
    for task, model, curve, words in (("nope", "knn_15", "pr", "no task"), ("all", "nope", "pr", "no model"),
                                      ("all", "knn_15", "det", "unknown curve")):
        with pytest.raises(InputError, match=words):
            result.bands(task, model, curve)


def test_audit_band_table_and_figure(example_result):
    import io

    import matplotlib.image

    from prspace.audit.inference.audit_bands import BAND_COLUMNS, TOP_K

    _, result = example_result
    table = result.band_table()
    assert list(table.columns) == BAND_COLUMNS
    top = result.pooled.sort_values(["aupr", "model"], ascending=[False, True])["model"].tolist()[:TOP_K]
    assert sorted(table["model"].unique()) == sorted(top)
    assert len(table) == TOP_K * sum(default_grid(c).size for c in CURVES)
    assert (table["sim_lo"] <= table["estimate"] + 1e-12).all() and (table["estimate"] <= table["sim_hi"] + 1e-12).all()
    pngs = result.figures()
    assert set(pngs) == {"curves", "intervals", "bands"}
    img = matplotlib.image.imread(io.BytesIO(pngs["bands"]))
    assert img.shape[0] > 500 and img[..., :3].std() > 0.05
    assert "bands.png" in result.to_markdown("x", {n: f"{n}.png" for n in pngs})


def test_audit_without_bootstrap_draws_no_bands():
    from prspace.audit import audit

    frame = pd.read_csv(EXAMPLE)
    result = audit(frame, label_col="diagnosis", pos_label="malignant", n_boot=0)
    assert "bands" not in result.figures()
    assert result.bands("all", "knn_15", "roc").n_resamples == 1000  # asked for: the default resamples


def _tasks_frame(n_tasks: int) -> pd.DataFrame:
    """The worked example copied into ``n_tasks`` tasks (scores jittered per task), for the figure's layout."""
    frame = pd.read_csv(EXAMPLE)
    parts = []
    for i in range(n_tasks):
        part = frame.copy()
        part["task"] = f"task_{i}_" + "with_a_long_name" * (i == 0)
        part["score"] = part["score"] + np.random.default_rng(i).normal(0.0, 0.05 * i, len(part))
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def test_audit_bands_figure_draws_roc_pr_prg_per_task_with_the_bands_of_the_table():
    from matplotlib.collections import PolyCollection

    from prspace.audit import audit
    from prspace.audit.inference.audit_bands import MAX_TASKS, TOP_K, band_shown
    from prspace.audit.report import plot

    result = audit(_tasks_frame(MAX_TASKS + 1), label_col="diagnosis", pos_label="malignant", task_col="task", n_boot=50)
    bands = result.shown_bands()
    fig = plot.bands_figure(result, bands)
    tasks = sorted({t for t, _ in bands})
    assert len(tasks) == MAX_TASKS
    panels = [ax for ax in fig.axes if ax.axison]
    assert len(panels) == 3 * MAX_TASKS  # three axes per task row; the legend rows have no axes drawn
    styles = plot.model_styles(result)
    for r, task in enumerate(tasks):
        row = panels[3 * r: 3 * r + 3]
        pooled = result.pooled[result.pooled["task"] == task]
        n_pos = float(pooled["n_pos"].iloc[0])
        n = n_pos + float(pooled["n_neg"].iloc[0])
        # a band is drawn only where calibrated; a panel without says how much it would cover
        assert [ax.get_title().split("\n")[0] for ax in row] == [f"{task}: {c}" for c in ("ROC", "PR", "PRG")]
        for ax, c in zip(row, ("roc", "pr", "prg"), strict=True):
            assert ("no band:" in ax.get_title()) == (not band_shown(c, n_pos, n))
        assert [ax.get_xlabel() for ax in row] == ["false positive rate", "recall", "recall gain"]
        assert [ax.get_ylabel() for ax in row] == ["true positive rate", "precision", "precision gain"]
        models = [m for t, m in bands if t == task]
        assert len(models) == TOP_K
        for ax, curve in zip(row, ("roc", "pr", "prg"), strict=True):
            fills = [c for c in ax.collections if isinstance(c, PolyCollection)]
            assert len(fills) == (TOP_K if band_shown(curve, n_pos, n) else 0)  # one band per model, if calibrated
            lines = {line.get_color(): line for line in ax.get_lines() if line.get_color() != "0.45"}
            for model in models:
                b = bands[(task, model)][curve]
                line = lines[styles[model]["color"]]  # each model in its colour of model_styles
                np.testing.assert_array_equal(line.get_xdata(), b.grid)
                np.testing.assert_array_equal(line.get_ydata(), b.estimate)
            if curve == "roc":  # the random classifier's diagonal
                assert any(list(line.get_xdata()) == [0, 1] == list(line.get_ydata()) for line in ax.get_lines())
    title = fig._suptitle.get_text()
    assert "ROC, PR and PRG" in title and f"the top {TOP_K} models by AUPR" in title and "1 more task(s)" in title
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=60)
    assert matplotlib.image.imread(io.BytesIO(png.getvalue()))[..., :3].std() > 0.05


def test_audit_bands_follow_the_audit_seed():
    """The bands resample with the audit's seed: the same seed, the same bands; another seed, other bands;
    ``bands(seed=...)`` overrides it and equals curve_bands with that seed."""
    from prspace.audit import audit

    frame = pd.read_csv(EXAMPLE)
    kw = {"label_col": "diagnosis", "pos_label": "malignant", "n_boot": 60}
    one, again, two = audit(frame, seed=1, **kw), audit(frame, seed=1, **kw), audit(frame, seed=2, **kw)
    assert (one.seed, two.seed) == (1, 2)
    t1, t1b, t2 = one.band_table(), again.band_table(), two.band_table()
    pd.testing.assert_frame_equal(t1, t1b)
    np.testing.assert_array_equal(t1["estimate"], t2["estimate"])  # the curves are the data's
    for col in ("lo", "hi", "sim_lo", "sim_hi"):
        assert not np.array_equal(t1[col], t2[col]), col  # the resampling is not
    rows = one.data[one.data["model"] == "knn_15"]  # the audit's rows, in its order
    for seed, res, given in ((1, one, None), (2, two, None), (7, one, 7)):
        direct = curve_bands(rows["y"].to_numpy(bool), rows["score"].to_numpy(), sample_weight=rows["weight"].to_numpy(),
                             n_boot=60, level=0.95, rng=seed, tied=True)  # the audit's resampling
        for c in CURVES:
            got = res.bands("all", "knn_15", c, seed=given)
            for col, v in direct[c].columns().items():
                np.testing.assert_array_equal(got.columns()[col], v)
    assert not np.array_equal(one.bands("all", "knn_15", "pr", seed=7).sim_lo, one.bands("all", "knn_15", "pr").sim_lo)
    np.testing.assert_array_equal(one.bands("all", "knn_15", "pr", seed=2).sim_lo, two.bands("all", "knn_15", "pr").sim_lo)


def test_cli_seed_reaches_bands_csv(tmp_path):
    from prspace.cli import main

    def run(seed, name):
        out = tmp_path / name
        assert main(["audit", str(EXAMPLE), "--label-col", "diagnosis", "--pos-label", "malignant", "--bootstrap",
                     "40", "--seed", str(seed), "--out", str(out)]) in (0, 1)
        return (out / "bands.csv").read_bytes()

    first = run(1, "a")
    assert run(1, "b") == first
    assert run(2, "c") != first


def test_tied_scores_draw_cell_counts_with_the_row_draws_distribution(monkeypatch):
    """Scores with few distinct values (unit weights): the resamples are drawn as multinomial counts per
    (tie group, class) cell, the joint distribution of those counts under the row draws.  Against the row
    draws (forced by raising TIED_ROWS): the same estimate, and replicates with the same mean and spread
    at every grid point, within Monte Carlo error (4,000 resamples each)."""
    import prspace.stats.bands as B

    rng = np.random.default_rng(3)
    n = 6000
    y = rng.random(n) < 0.2
    s = np.round(1 / (1 + np.exp(-(1.2 * y + rng.normal(size=n)))), 2)  # about 60 distinct scores
    assert 2 * np.unique(s).size * B.TIED_ROWS <= n  # the tied path is taken
    tied = B.curve_bands(y, s, n_boot=4000, rng=1, grid_size=20, tied=True)
    monkeypatch.setattr(B, "TIED_ROWS", 10**9)
    rows = B.curve_bands(y, s, n_boot=4000, rng=2, grid_size=20)
    for c in ("roc", "pr", "prg"):
        a, b = tied[c], rows[c]
        np.testing.assert_array_equal(a.estimate, b.estimate)
        ok = b.sd > 1e-9
        # sd of a standard deviation estimate from B draws: about sd / sqrt(2 B); of the mean: sd / sqrt(B)
        rel = np.abs(a.sd[ok] / b.sd[ok] - 1)
        assert rel.max() < 5 * np.sqrt(2 / (2 * 4000)), (c, rel.max())
        mid = (a.lo + a.hi) / 2 - (b.lo + b.hi) / 2
        assert np.all(np.abs(mid[ok]) < 0.25 * b.sd[ok]), c
        assert abs(a.critical_value - b.critical_value) < 0.15, c
    # with weights, or with distinct scores (few rows per tie group), the rows are drawn as before
    monkeypatch.setattr(B, "TIED_ROWS", 8)

    def refuse(*args, **kwargs):
        raise AssertionError("the tied path was taken")

    monkeypatch.setattr(B, "_tied_replicates", refuse)
    w = np.ones(n)
    w[0] = 2.0
    B.curve_bands(y, s, sample_weight=w, n_boot=20, rng=4, tied=True)
    B.curve_bands(y, s + rng.normal(scale=1e-6, size=n), n_boot=20, rng=4, tied=True)
    B.curve_bands(y, s, n_boot=20, rng=4)  # not asked for (the studies' Figure 5): the rows
    with pytest.raises(AssertionError, match="tied path"):
        B.curve_bands(y, s, n_boot=20, rng=4, tied=True)


def test_curve_kernels_of_many_resamples_equal_the_kernels_of_one_bit_for_bit() -> None:
    from prspace.stats import bands as B

    rng = np.random.default_rng(2)
    groups = 40
    tp = rng.poisson(rng.uniform(0, 3, groups), size=(25, groups)).astype(np.float64)
    fp = rng.poisson(rng.uniform(0, 6, groups), size=(25, groups)).astype(np.float64)
    tp[:, 0] += 1.0  # every resample holds both classes
    fp[:, -1] += 1.0
    tp[3, :5] = 0.0  # a resample whose first groups hold negatives only (PR at recall 0)
    tp0 = np.concatenate([np.zeros((25, 1)), np.cumsum(tp, axis=1)], axis=1)
    fp0 = np.concatenate([np.zeros((25, 1)), np.cumsum(fp, axis=1)], axis=1)
    grid = np.unique(np.r_[0.0, np.linspace(0.05, 0.95, 19), 1.0, tp0[0, 7] / tp0[0, -1], fp0[1, 9] / fp0[1, -1]])  # ends, exact hits
    for curve in B.CURVES:
        g = B._grid(grid, curve)
        many = B._ROW_KERNELS[curve](tp0, fp0, g)
        one = np.stack([B._KERNELS[curve](tp0[r], fp0[r], g) for r in range(25)])
        assert np.array_equal(many, one, equal_nan=True), curve
        assert np.isfinite(one).any()


def _block_case(rng: np.random.Generator, groups: int, block: int):
    """Per tie group counts of one resample (some groups of one class, some empty), cut into blocks of ``block``
    tie groups: the counts per block, the block ends' operating points and the whole curve's."""
    tp = rng.poisson(rng.uniform(0, 0.6, groups)).astype(np.float64)
    fp = rng.poisson(rng.uniform(0, 3, groups)).astype(np.float64)
    tp[0] += 1.0
    fp[-1] += 1.0
    tp[:4] = 0.0  # the first groups hold negatives only (PR at recall 0: the limit from the right)
    bstart = np.arange(0, groups, block)
    bend = np.r_[bstart[1:], groups]
    tp_blk, fp_blk = np.add.reduceat(tp, bstart), np.add.reduceat(fp, bstart)
    return tp, fp, bstart, bend, tp_blk, fp_blk


def test_block_points_give_the_kernels_values_bit_for_bit() -> None:
    """The audit's bands on many distinct scores (_block_replicates) run the kernels on the block ends and the tie
    groups of the blocks _hit_blocks finds: every curve value equals the one on all the operating points, bit for
    bit, including grid points at 0, 1 and on operating points; without the hit blocks' points the values move."""
    from prspace.stats import bands as B

    rng = np.random.default_rng(5)
    for case in range(20):
        tp, fp, bstart, bend, tp_blk, fp_blk = _block_case(rng, 3000, 25)
        tp0 = np.r_[0.0, np.cumsum(tp)]
        fp0 = np.r_[0.0, np.cumsum(fp)]
        grid = {c: np.unique(np.r_[0.0, np.linspace(0.05, 0.95, 91), 1.0, tp0[700] / tp0[-1],
                                   fp0[1400] / fp0[-1]]) for c in B.CURVES}
        tp_end, fp_end = np.r_[0.0, np.cumsum(tp_blk)], np.r_[0.0, np.cumsum(fp_blk)]
        hb = B._hit_blocks(tp_end, fp_end, grid, tuple(B.CURVES))
        assert 0 < hb.size < bstart.size
        inside = np.concatenate([np.arange(bstart[b], bend[b]) for b in hb])
        ctp, cfp = B._compact_points(tp_blk, fp_blk, hb, bstart, bend, tp[inside], fp[inside])
        assert ctp.size < tp0.size and ctp[-1] == tp0[-1] and cfp[-1] == fp0[-1]
        for c in B.CURVES:
            whole = B._KERNELS[c](tp0, fp0, grid[c])
            np.testing.assert_array_equal(B._KERNELS[c](ctp, cfp, grid[c]), whole)
        if case == 0:  # the block ends alone (no block's points): the interpolation moves
            ends = B._compact_points(tp_blk, fp_blk, np.zeros(0, np.int64), bstart, bend, np.zeros(0), np.zeros(0))
            assert not np.array_equal(B._KERNELS["roc"](*ends, grid["roc"]), B._KERNELS["roc"](tp0, fp0, grid["roc"]))


def test_many_distinct_scores_draw_blocks_with_the_row_draws_distribution(monkeypatch):
    """The audit's bands (tied=True, unit weights) on at least BLOCK_MIN_ROWS rows of distinct scores draw their
    resamples in two stages (block counts, then rows in the blocks the grid reads): against the row draws, the
    same estimate and replicates with the same spread and centre at every grid point, within Monte Carlo error."""
    import prspace.stats.bands as B

    rng = np.random.default_rng(4)
    n = 8000
    y = rng.random(n) < 0.1
    s = 1 / (1 + np.exp(-(1.2 * y + rng.normal(size=n))))  # distinct scores
    calls = []
    real = B._block_replicates
    monkeypatch.setattr(B, "_block_replicates", lambda *a, **k: calls.append(1) or real(*a, **k))
    monkeypatch.setattr(B, "BLOCK_MIN_ROWS", 5000)
    monkeypatch.setattr(B, "BLOCK_MIN_GROUPS", 1000)
    blocks = B.curve_bands(y, s, n_boot=4000, rng=1, grid_size=20, tied=True)
    assert calls  # the two-stage path was taken
    rows = B.curve_bands(y, s, n_boot=4000, rng=2, grid_size=20)
    assert len(calls) == 1  # not asked for (tied=False): the rows, as before
    monkeypatch.setattr(B, "TREE_MIN_ROWS", 5000)  # the tree's draws, from the same distribution
    tree = B.curve_bands(y, s, n_boot=4000, rng=3, grid_size=20, tied=True)
    assert len(calls) == 1
    for c, (a, b) in itertools.product(("roc", "pr", "prg"), ((blocks, rows), (tree, rows))):
        a, b = a[c], b[c]
        np.testing.assert_array_equal(a.estimate, b.estimate)
        ok = b.sd > 1e-9
        rel = np.abs(a.sd[ok] / b.sd[ok] - 1)
        assert rel.max() < 5 * np.sqrt(2 / (2 * 4000)), (c, rel.max())
        mid = (a.lo + a.hi) / 2 - (b.lo + b.hi) / 2
        assert np.all(np.abs(mid[ok]) < 0.25 * b.sd[ok]), c
        assert abs(a.critical_value - b.critical_value) < 0.15, c
    same = B.curve_bands(y, s, n_boot=50, rng=7, grid_size=20, tied=True)
    again = B.curve_bands(y, s, n_boot=50, rng=7, grid_size=20, tied=True)
    assert all(np.array_equal(same[c].lo, again[c].lo) for c in same)  # the seed decides


def test_tree_points_give_the_kernels_values_bit_for_bit() -> None:
    """_tree_points (the audit's bands on many distinct scores) splits the draws down a tree of leaves only where a
    point the kernels read lies: given the resamples' true counts (instead of the binomial and the leaf draws),
    every curve value on its points equals the one on all the operating points, bit for bit, grid points at 0, 1
    and on operating points included, with far fewer points."""
    from prspace.stats import bands as B

    rng = np.random.default_rng(8)
    m, groups, leaf = 12, 40000, 16
    share_p, share_n = rng.dirichlet(np.full(groups, 0.3)), rng.dirichlet(np.full(groups, 2.0))
    share_p[:5] = 0.0  # the first groups hold negatives only (PR at recall 0: the limit from the right)
    share_p /= share_p.sum()
    n_pos, n_neg = 9000, 90000
    tp = rng.multinomial(n_pos, share_p, size=m).astype(np.float64)  # class totals fixed, as the bootstrap's
    fp = rng.multinomial(n_neg, share_n, size=m).astype(np.float64)
    bstart = np.arange(0, groups, leaf)
    bend = np.r_[bstart[1:], groups]
    leaf_tp = np.add.reduceat(tp, bstart, axis=1)
    leaf_fp = np.add.reduceat(fp, bstart, axis=1)
    before = np.zeros((m, 2, bstart.size + 1))  # true draws before each leaf, per stratum (0 negatives, 1 positives)
    before[:, 0, 1:], before[:, 1, 1:] = np.cumsum(leaf_fp, axis=1), np.cumsum(leaf_tp, axis=1)
    prefix = np.zeros((2, bstart.size + 1), dtype=np.int64)
    prefix[:, -1] = (n_neg, n_pos)

    def left_counts(k, node, lo, mid, hi, count):
        got = (before[node, k, mid] - before[node, k, lo]).astype(np.int64)
        assert np.array_equal(count, (before[node, k, hi] - before[node, k, lo]).astype(np.int64))
        return got

    def leaf_counts(res, at, counts):
        parts = [(tp[r, bstart[a]:bend[a]], fp[r, bstart[a]:bend[a]]) for r, a in zip(res, at, strict=True)]
        return np.concatenate([t for t, _ in parts]), np.concatenate([f for _, f in parts])

    tp0 = np.concatenate([np.zeros((m, 1)), np.cumsum(tp, axis=1)], axis=1)
    fp0 = np.concatenate([np.zeros((m, 1)), np.cumsum(fp, axis=1)], axis=1)
    grid = {c: np.unique(np.r_[0.0, np.linspace(0.05, 0.95, 91), 1.0, tp0[0, 15000] / n_pos, fp0[0, 25000] / n_neg])
            for c in B.CURVES}
    points = B._tree_points(m, prefix, np.array([False, True]), bstart, bend, grid, tuple(B.CURVES), left_counts,
                            leaf_counts)
    for r, (ctp, cfp) in enumerate(points):
        assert ctp.size < tp0.shape[1] / 3 and ctp[-1] == n_pos and cfp[-1] == n_neg
        for c in B.CURVES:
            np.testing.assert_array_equal(B._KERNELS[c](ctp, cfp, grid[c]), B._KERNELS[c](tp0[r], fp0[r], grid[c]))


def test_block_rows_give_the_kernels_values_bit_for_bit() -> None:
    """_block_replicates runs the kernels on many resamples at once: _hit_rows finds the blocks _hit_blocks finds,
    row by row, and _compact_rows' rows (each resample's block ends and hit blocks' points, padded with copies of
    its final point to the longest row) give every curve value of the whole curve, bit for bit, grid points at 0,
    1 and on operating points included (PRG at recall gain 1 too: the padding is not the final point)."""
    from prspace.stats import bands as B

    rng = np.random.default_rng(11)
    m, groups, block = 9, 3000, 25
    cases = [_block_case(rng, groups, block) for _ in range(m)]
    bstart, bend = cases[0][2], cases[0][3]
    tp = np.stack([c[0] for c in cases])
    fp = np.stack([c[1] for c in cases])
    tp[2] = 0.0  # a resample whose positives all sit in the first group
    tp[2, 0] = tp[0].sum()
    fp[4, -30:] = 0.0  # one whose last groups hold positives only (the curves reach their ends early)
    fp[4, -31] += 1.0
    tp_blk, fp_blk = np.add.reduceat(tp, bstart, axis=1), np.add.reduceat(fp, bstart, axis=1)
    tp_end = np.c_[np.zeros(m), np.cumsum(tp_blk, axis=1)]
    fp_end = np.c_[np.zeros(m), np.cumsum(fp_blk, axis=1)]
    tp0 = np.c_[np.zeros(m), np.cumsum(tp, axis=1)]
    fp0 = np.c_[np.zeros(m), np.cumsum(fp, axis=1)]
    grid = {c: np.unique(np.r_[0.0, np.linspace(0.05, 0.95, 91), 1.0, tp0[0, 700] / tp0[0, -1],
                               fp0[1, 1400] / fp0[1, -1]]) for c in B.CURVES}
    hit = B._hit_rows(tp_end, fp_end, grid, tuple(B.CURVES))
    for r in range(m):
        np.testing.assert_array_equal(np.flatnonzero(hit[r]), B._hit_blocks(tp_end[r], fp_end[r], grid, tuple(B.CURVES)))
    rr, hb = np.nonzero(hit)
    inside = np.concatenate([np.arange(bstart[b], bend[b]) for b in hb])
    rows = np.repeat(rr, bend[hb] - bstart[hb])
    ctp, cfp, last = B._compact_rows(tp_blk, fp_blk, hit, bstart, bend, tp[rows, inside], fp[rows, inside])
    assert ctp.shape[1] < tp0.shape[1] and len(set(last)) > 1  # fewer points; rows of different lengths, padded
    got = {"roc": B._roc_rows(ctp, cfp, grid["roc"]), "pr": B._pr_rows(ctp, cfp, grid["pr"]),
           "prg": B._prg_rows(ctp, cfp, grid["prg"], last)}
    for r in range(m):
        assert ctp[r, last[r]] == tp0[r, -1] and cfp[r, last[r]] == fp0[r, -1]
        for c in B.CURVES:
            np.testing.assert_array_equal(got[c][r], B._KERNELS[c](tp0[r], fp0[r], grid[c]), err_msg=f"{c} row {r}")


def test_tie_groups_equal_numpy_unique_inverse() -> None:
    """The one sort (issue 59, the bands' memory): each row's tie group, 0 = the highest score, the numbers of
    np.unique(-s, return_inverse=True), ties and 0.0 / -0.0 included."""
    from prspace.stats.bands import tie_groups

    rng = np.random.default_rng(5)
    for s in (rng.random(5000), np.round(rng.random(5000), 2), np.array([0.0, -0.0, 0.5, 0.0, 1.0, 0.5]),
              np.array([0.3])):
        want = np.unique(-s, return_inverse=True)[1].ravel()
        got = tie_groups(s.copy())
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_tree_cells_sort_the_rows_as_lexsort() -> None:
    """_tree_cells' rows in (stratum, tie group) order are group[np.lexsort((group, stratum))], with several strata;
    each cell's rows and each stratum's class as counted from the rows."""
    from prspace.stats.bands import LEAF_ROWS, _tree_cells

    rng = np.random.default_rng(6)
    n = 20000
    yb = rng.random(n) < 0.2
    group = np.unique(-np.round(rng.random(n), 3), return_inverse=True)[1].ravel()
    stratum = 2 * rng.integers(0, 3, n) + yb
    cells = _tree_cells(group, yb, stratum)
    np.testing.assert_array_equal(cells["g_sorted"], group[np.lexsort((group, stratum))])
    strata = np.unique(stratum)
    leaf = np.searchsorted(cells["bstart"], group, side="right") - 1
    want = np.bincount(np.searchsorted(strata, stratum) * cells["bstart"].size + leaf,
                       minlength=strata.size * cells["bstart"].size)
    np.testing.assert_array_equal(cells["size"], want)
    np.testing.assert_array_equal(cells["s_pos"], strata % 2 == 1)
    assert cells["bstart"].size <= n // LEAF_ROWS + 1


@pytest.mark.parametrize("path", ["tree", "block", "rows", "tied"])
def test_handed_bands_let_the_rows_go_and_equal_curve_bands(monkeypatch, path) -> None:
    """handed_bands (the audit's bands computed ahead, issue 59): the list handed over is emptied and, on the tree's
    path, the rows' arrays are freed before the resamples are drawn; the bands are curve_bands' bit for bit on
    every path (tree, blocks, rows with weights and a row of weight 0, tie cells)."""
    import weakref

    import prspace.stats.bands as B

    rng = np.random.default_rng(9)
    n = 6000
    y = rng.random(n) < 0.15
    s = 1 / (1 + np.exp(-(1.1 * y + rng.normal(size=n))))
    w = np.ones(n)
    if path == "tied":
        s = np.round(s, 2)
    if path == "rows":
        w = rng.integers(0, 3, n).astype(float)
    monkeypatch.setattr(B, "BLOCK_MIN_ROWS", 4000)
    monkeypatch.setattr(B, "BLOCK_MIN_GROUPS", 1000)
    monkeypatch.setattr(B, "TREE_MIN_ROWS", 5000 if path == "tree" else 10 ** 9)
    given = (y.copy(), s.copy(), w.copy())
    want = B.curve_bands(y, s, sample_weight=w, n_boot=40, rng=3, grid_size=20, tied=True)
    for a, b in zip((y, s, w), given, strict=True):  # the caller's arrays, read (no longer copied), never written
        np.testing.assert_array_equal(a, b)
    rows = [y.copy(), s.copy(), w.copy(), None, None]
    refs = [weakref.ref(a) for a in rows[:3]]
    seen = []
    real = B._tree_draws

    def draws(*a, **k):
        seen.append([r() is None for r in refs])
        return real(*a, **k)

    monkeypatch.setattr(B, "_tree_draws", draws)
    got = B.handed_bands(rows, n_boot=40, rng=3, grid_size=20, tied=True)
    assert rows == []
    assert seen == ([[True, True, True]] if path == "tree" else [])
    for c in CURVES:
        for f in ("estimate", "lo", "hi", "sim_lo", "sim_hi", "sd"):
            np.testing.assert_array_equal(getattr(got[c], f), getattr(want[c], f))
        assert got[c].critical_value == want[c].critical_value

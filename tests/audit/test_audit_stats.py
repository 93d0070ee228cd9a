"""The audit's statistics against oracles no one here wrote.

* DeLong intervals and paired p-values: R's pROC (``ci.auc(method="delong")``,
  ``roc.test(method="delong", paired=TRUE)``) on the worked example and on real data with
  ties (breast-cancer features rounded); skipped with a reason only where ``Rscript`` or
  pROC is absent (``.ci/install-r.sh`` installs Debian's ``r-cran-proc``).
* Bootstrap intervals: ``scipy.stats.bootstrap`` with the two classes as independent
  samples (that is a class-stratified bootstrap) on small cases.
* AUPR estimators: scikit-learn where it computes them; Boyd et al.'s two by the formula
  applied point by point.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.datasets import load_breast_cancer
from sklearn.metrics import auc, average_precision_score, precision_recall_curve, roc_auc_score

from _rscript import r_available
from prspace import metrics as M
from prspace.audit import audit
from prspace.audit.inference.audit_blocks import TIE_HASHED, tie_groups
from prspace.audit.inference.uncertainty import comparison
from prspace.stats.delong import delong
from prspace.stats.intervals import boyd_intervals, percentile
from prspace.stats.replicates import Block, bootstrap

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "audit-example.csv"

R_SCRIPT = r"""
suppressMessages(library(pROC))
d <- read.csv(commandArgs(TRUE)[1])
models <- setdiff(names(d), "y")
rocs <- lapply(models, function(m) roc(d$y, d[[m]], levels = c(0, 1), direction = "<", quiet = TRUE))
for (i in seq_along(models)) {
  ci <- as.numeric(ci.auc(rocs[[i]], method = "delong"))
  cat("ci", models[i], sprintf("%.15g", ci), "\n")
}
for (i in seq_along(models)) for (j in seq_along(models)) if (i < j) {
  t <- roc.test(rocs[[i]], rocs[[j]], method = "delong", paired = TRUE)
  cat("test", models[i], models[j], sprintf("%.15g", t$p.value), "\n")
}
"""


def _proc(tmp_path: Path, y: np.ndarray, scores: dict[str, np.ndarray]):
    path = tmp_path / "d.csv"
    pd.DataFrame({"y": y.astype(int), **scores}).to_csv(path, index=False)
    script = tmp_path / "proc.R"
    script.write_text(R_SCRIPT)
    out = subprocess.run(["Rscript", str(script), str(path)], capture_output=True, text=True, check=True).stdout
    cis, tests = {}, {}
    for line in out.splitlines():
        parts = line.split()
        if parts[0] == "ci":
            cis[parts[1]] = [float(v) for v in parts[2:5]]
        elif parts[0] == "test":
            tests[(parts[1], parts[2])] = float(parts[3])
    return cis, tests


def _example_wide() -> tuple[np.ndarray, dict[str, np.ndarray]]:
    df = pd.read_csv(EXAMPLE).sort_values(["model", "row_id"])
    wide = df.pivot(index="row_id", columns="model", values="score")
    y = (df.drop_duplicates("row_id").set_index("row_id").loc[wide.index, "diagnosis"] == "malignant").to_numpy()
    return y, {m: wide[m].to_numpy() for m in wide.columns}


def _ties_wide() -> tuple[np.ndarray, dict[str, np.ndarray]]:
    data = load_breast_cancer()
    y = data.target == 0  # malignant
    cols = list(data.feature_names)
    return y, {
        "radius": np.round(data.data[:, cols.index("mean radius")]),  # about 20 distinct values
        "texture": np.round(data.data[:, cols.index("mean texture")]),
        "concavity": np.round(data.data[:, cols.index("mean concave points")], 2),
    }


@pytest.mark.parametrize("dataset", ["worked-example", "breast-cancer-ties"])
def test_delong_equals_proc(tmp_path, dataset):
    reason = r_available()
    if reason:
        pytest.skip(reason)
    y, scores = _example_wide() if dataset == "worked-example" else _ties_wide()
    if dataset == "breast-cancer-ties":
        assert all(len(np.unique(s)) < len(s) / 5 for s in scores.values())  # heavy ties
    cis, tests = _proc(tmp_path, y, scores)
    frame = pd.concat([pd.DataFrame({"model": m, "row_id": np.arange(len(y)), "y_true": y.astype(int), "score": s})
                       for m, s in scores.items()], ignore_index=True)
    result = audit(frame, n_boot=0)
    iv = result.intervals[result.intervals["method"] == "DeLong"].set_index("model")
    for model, (lo, est, hi) in cis.items():
        assert iv.loc[model, "estimate"] == pytest.approx(est, abs=1e-9)
        assert roc_auc_score(y, scores[model]) == pytest.approx(est, abs=1e-9)
        assert iv.loc[model, "lo"] == pytest.approx(lo, abs=1e-6)
        assert iv.loc[model, "hi"] == pytest.approx(hi, abs=1e-6)
    cmp = result.comparisons[result.comparisons["metric"] == "auroc"]
    assert len(cmp) == len(tests)
    for (a, b), p in tests.items():
        row = comparison(cmp, "all", "auroc", a, b)  # R's pair order may be ours reversed
        # the unadjusted paired test (the deciding procedure's adjusted one is in p_value)
        assert row.get("method_unadjusted", row["method"]) == "DeLong paired"
        assert row.get("p_unadjusted", row["p_value"]) == pytest.approx(p, abs=1e-6)


def test_delong_matches_the_quadratic_definition():
    # the O(m n) placement values of DeLong et al. (1988), written out
    rng = np.random.default_rng(1)
    y = rng.random(60) < 0.3
    s = np.round(rng.normal(size=(2, 60)) + y, 1)
    est, cov = delong(y, s)
    pos, neg = s[:, y], s[:, ~y]
    psi = (pos[:, :, None] > neg[:, None, :]) + 0.5 * (pos[:, :, None] == neg[:, None, :])
    v10, v01 = psi.mean(axis=2), psi.mean(axis=1)
    expected = np.cov(v10) / y.sum() + np.cov(v01) / (~y).sum()
    np.testing.assert_allclose(est, psi.mean(axis=(1, 2)), atol=1e-12)
    np.testing.assert_allclose(cov, expected, atol=1e-12)


def test_delong_from_a_blocks_tie_groups_equals_delong_from_the_scores():
    # a block's tie groups (0 = highest score) give the ranks without sorting again: the same numbers, bit for bit
    rng = np.random.default_rng(4)
    for decimals in (0, 1, 2):
        y = rng.random(300) < 0.2
        s = np.round(rng.normal(size=(3, 300)) + y, decimals)
        s[2, :40] = 0.0
        s[2, 40:50] = -0.0
        groups = [np.unique(-r, return_inverse=True)[1].ravel() for r in s]
        est, cov = delong(y, s)
        est_g, cov_g = delong(y, list(s), groups=groups)
        assert np.array_equal(est, est_g) and np.array_equal(cov, cov_g)


def test_tie_groups_are_np_uniques_codes_of_the_negated_scores():
    # the blocks' tie groups: np.unique(-s)'s inverse; tied scores hashed (int32), others by a binary search (int64)
    rng = np.random.default_rng(5)
    for decimals, n in ((0, 2000), (1, 2000), (3, 2000), (2, 20_000), (None, 9000)):
        s = rng.normal(size=n) if decimals is None else np.round(rng.normal(size=n), decimals)
        s[:100], s[100:150] = 0.0, -0.0  # the two zeros are one tie group
        s[150:160] = -0.0  # a -0.0 seen first in a later check
        for x in (s, s[100:]):
            want = np.unique(-x, return_inverse=True)[1].ravel()
            got = tie_groups(x)
            hashed = len(np.unique(x)) <= TIE_HASHED
            assert got.dtype == (np.int32 if hashed else np.int64) and np.array_equal(got, want)
        assert (decimals is None) != hashed
    assert tie_groups(np.array([0.5])).tolist() == [0] and tie_groups(np.array([3.0, 1.0, 3.0])).tolist() == [0, 1, 0]


def test_integer_row_ids_rank_as_their_texts():
    # integer row ids >= 0 ranked among their decimal texts from numbers alone: the ranks of str() sorted
    from prspace.audit.inference.audit_blocks import _text_ranks_of_naturals

    rng = np.random.default_rng(8)
    for ints in (np.arange(1200), rng.choice(10**16, 3000, replace=False), np.array([0, 1, 10, 2, 100, 19, 9, 99]),
                 np.array([7], dtype=np.uint64), rng.permutation(20_000)[:5000] * 7919):
        texts = [str(int(v)) for v in ints]
        want = np.empty(len(texts), dtype=np.int64)
        want[sorted(range(len(texts)), key=texts.__getitem__)] = np.arange(len(texts))
        assert np.array_equal(_text_ranks_of_naturals(ints), want)


def test_delong_equals_scipys_midranks_formula():
    # DeLong's AUROC and covariance (computed one model at a time) against the textbook formula written with
    # scipy.stats.rankdata on whole arrays (Sun & Xu 2014, eqs. 4-7)
    rng = np.random.default_rng(6)
    y = rng.random(500) < 0.15
    s = np.round(rng.normal(size=(3, 500)) + y, 1)
    m, n = int(y.sum()), int((~y).sum())
    tz = stats.rankdata(s, axis=1)
    tx, ty = stats.rankdata(s[:, y], axis=1), stats.rankdata(s[:, ~y], axis=1)
    v10 = (tz[:, y] - tx) / n
    v01 = 1.0 - (tz[:, ~y] - ty) / m
    est, cov = delong(y, s)
    assert np.allclose(est, v10.mean(axis=1), rtol=0, atol=1e-15)
    assert np.allclose(cov, np.cov(v10) / m + np.cov(v01) / n, rtol=1e-12, atol=0)


@pytest.mark.parametrize("metric", ["average_precision", "auroc", "aupr"])
def test_bootstrap_interval_agrees_with_scipy(metric):
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(15, bool), np.zeros(35, bool)]
    s = y + rng.normal(size=50)
    block = Block("t", ["m"], y, y.astype(np.int64), np.ones(50), [np.unique(-s, return_inverse=True)[1]], [s])
    reps = bootstrap(block, n_boot=6000, rng=np.random.default_rng(0))
    k = ["auroc", "average_precision", "aupr", "aucnpr", "auprg"].index(metric)
    lo, hi = percentile(reps[:, 0, k], 0.95)
    fn = {"average_precision": M.average_precision, "auroc": M.auroc, "aupr": M.aupr}[metric]

    def statistic(pos, neg, axis=-1):
        return np.apply_along_axis(lambda row: fn(np.r_[np.ones(15), np.zeros(35)], row), axis,
                                   np.concatenate([pos, neg], axis=axis))

    ref = stats.bootstrap((s[y], s[~y]), statistic, n_resamples=6000, method="percentile", vectorized=True,
                          random_state=np.random.default_rng(1)).confidence_interval
    # the same estimator (classes resampled independently); Monte Carlo error of each end ~0.01
    assert lo == pytest.approx(ref.low, abs=0.025)
    assert hi == pytest.approx(ref.high, abs=0.025)


def test_boyd_intervals_closed_form():
    iv = boyd_intervals(0.6, 40, 0.95)
    z = stats.norm.ppf(0.975)
    assert iv["binomial"] == pytest.approx((0.6 - z * np.sqrt(0.24 / 40), 0.6 + z * np.sqrt(0.24 / 40)))
    eta, tau = np.log(0.6 / 0.4), 1 / np.sqrt(40 * 0.24)
    assert iv["logit"] == pytest.approx((1 / (1 + np.exp(-(eta - z * tau))), 1 / (1 + np.exp(-(eta + z * tau)))))


def _boyd_by_points(y: np.ndarray, s: np.ndarray) -> tuple[float, float]:
    """Boyd, Eng & Page (2013): lower trapezoid and interpolated median, point by point."""
    thresholds = np.unique(s)[::-1]
    p_total = y.sum()
    points: dict[float, list[float]] = {}
    for t in thresholds:
        tp, fp = (y & (s >= t)).sum(), (~y & (s >= t)).sum()
        if tp:
            points.setdefault(tp / p_total, []).append(tp / (tp + fp))
    first = points[min(points)][0] if (y & (s >= thresholds[0])).sum() else 0.0
    r = [0.0, *sorted(points)]
    pmin = [first] + [min(points[x]) for x in r[1:]]
    pmax = [first] + [max(points[x]) for x in r[1:]]
    pmed = [first] + [float(np.median(points[x])) for x in r[1:]]
    lt = sum((r[i + 1] - r[i]) * (pmin[i] + pmax[i + 1]) / 2 for i in range(len(r) - 1))
    im = sum((r[i + 1] - r[i]) * (pmed[i] + pmed[i + 1]) / 2 for i in range(len(r) - 1))
    return lt, im


def test_aupr_estimators_against_scikit_learn_and_the_formulas():
    rng = np.random.default_rng(4)
    for _ in range(40):
        n = int(rng.integers(5, 70))
        y = rng.random(n) < 0.35
        y[:2] = [True, False]
        s = np.round(rng.normal(size=n) + y, int(rng.integers(0, 3)))
        est = M.aupr_estimators(y, s)
        precision, recall, _ = precision_recall_curve(y, s)
        assert est["step"] == pytest.approx(average_precision_score(y, s), abs=1e-12)
        assert est["trapezoid_from_1"] == pytest.approx(auc(recall, precision), abs=1e-12)
        assert est["hyperbolic"] == pytest.approx(M.aupr(y, s), abs=1e-12)
        lt, im = _boyd_by_points(y, s)
        assert est["lower_trapezoid"] == pytest.approx(lt, abs=1e-12)
        assert est["interpolated_median"] == pytest.approx(im, abs=1e-12)


def test_metrics_from_group_counts_equal_all_metrics_with_weights():
    rng = np.random.default_rng(5)
    y = rng.random(200) < 0.2
    s = np.round(rng.normal(size=200) + y, 1)
    w = rng.integers(0, 4, 200).astype(float)
    gid = np.unique(-s, return_inverse=True)[1]
    got = M.metrics_from_group_counts(np.bincount(gid, weights=w * y), np.bincount(gid, weights=w * ~y))
    ref = M.all_metrics(y, s, sample_weight=w)
    for k, v in got.items():
        assert v == pytest.approx(ref[k], abs=1e-12)


def test_paired_bootstrap_is_paired_and_deterministic():
    df = pd.read_csv(EXAMPLE)
    one = df[df["model"] == "knn_15"]
    twin = one.assign(model="knn_15_twin", score=one["score"] * 2 + 1)  # the same ranking
    both = pd.concat([one, twin, df[df["model"] == "gaussian_nb"]], ignore_index=True)
    a = audit(both, label_col="diagnosis", pos_label="malignant", n_boot=300, seed=7)
    b = audit(both, label_col="diagnosis", pos_label="malignant", n_boot=300, seed=7)
    pd.testing.assert_frame_equal(a.comparisons, b.comparisons)
    c = a.comparisons
    twins = c[(c["model_a"] == "knn_15") & (c["model_b"] == "knn_15_twin")]
    assert len(twins) == 5 and (twins["diff"].abs() < 1e-12).all()
    # paired resamples: identical rankings differ by exactly 0 in every resample
    assert (twins["lo"].abs() < 1e-12).all() and (twins["hi"].abs() < 1e-12).all()
    assert not twins["distinguishable"].any()
    own = a.intervals[(a.intervals["model"] == "knn_15") & (a.intervals["method"] == "bootstrap")]
    assert (own["hi"] - own["lo"] > 0.05).all()  # while each model's own interval is wide


def test_delongs_in_place_covariance_is_np_cov_bit_for_bit():
    # intervals._cov_in_place centres the components themselves instead of np.cov's copy: the same numbers
    from prspace.stats.delong import _cov_in_place

    rng = np.random.default_rng(6)
    for k in (1, 2, 3, 5):
        for n in (2, 3, 17, 1000, 20_001):
            x = rng.random((k, n)) * rng.integers(1, 5)
            x[:, : n // 3] = np.round(x[:, : n // 3], 2)
            want = np.cov(x)
            got = _cov_in_place(x.copy())
            assert got.shape == want.shape and got.tobytes() == want.tobytes()


def test_block_tie_groups_equal_numpy_unique_inverse_on_untied_and_tied_scores():
    """audit_blocks.tie_groups (issue 59: one argsort and a scatter for untied scores, not a binary search per row):
    the codes of ``np.unique(-scores, return_inverse=True)``, 0 the highest, for scores above the hashed path's
    distinct values (untied, with repeats, -0.0 beside 0.0, infinities) and below it."""
    from prspace.audit.inference.audit_blocks import TIE_HASHED, tie_groups

    rng = np.random.default_rng(5)
    untied = rng.normal(size=50_000)
    cases = [untied, np.repeat(untied[: 3 * TIE_HASHED], 3), np.r_[untied, 0.0, -0.0, np.inf, -np.inf, 0.0],
             np.round(untied, 2), np.array([0.5]), untied[::-1].copy()]
    for s in cases:
        want = np.unique(-s, return_inverse=True)[1]
        got = tie_groups(s)
        assert np.array_equal(got, want.reshape(-1)), len(s)
        assert got.min() == 0 and got.max() == len(np.unique(s)) - 1

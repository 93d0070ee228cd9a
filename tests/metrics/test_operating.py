"""Partial AUROC, operating points and the threshold table (:mod:`prspace.metrics.operating`, issue 59) against
scikit-learn (``roc_auc_score(max_fpr=...)``, ``roc_curve``, ``precision_recall_curve``, ``confusion_matrix``) on
data made here, ties and weights included; R's pROC when installed."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix, precision_recall_curve, roc_auc_score, roc_curve

from prspace.metrics import coords, partial_auroc, precision_at_recall, sensitivity_at_specificity
from prspace.metrics.operating import partial_auroc_from_counts


def _data(n: int, seed: int, decimals: int | None = None, weights: bool = False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = y * 1.2 + rng.normal(size=n)
    if decimals is not None:
        s = np.round(s, decimals)
    return y, s, (rng.random(n) * 3 if weights else None)


@pytest.mark.parametrize("decimals", [None, 1, 0])
@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("max_fpr", [0.01, 0.1, 0.25, 0.5, 0.9, 1.0])
def test_partial_auroc_equals_scikit_learn(decimals, weights, max_fpr):
    y, s, w = _data(700, 3, decimals, weights)
    ours = partial_auroc(y, s, max_fpr=max_fpr, sample_weight=w)
    assert abs(ours - roc_auc_score(y, s, max_fpr=max_fpr, sample_weight=w)) < 1e-9


def test_partial_auroc_batch_equals_one_at_a_time():
    rng = np.random.default_rng(0)
    tp, fp = rng.integers(0, 4, (5, 30)).astype(float), rng.integers(0, 4, (5, 30)).astype(float)
    tp[:, 0] += 1
    fp[:, -1] += 1
    batch = partial_auroc_from_counts(tp, fp, 0.2)
    one = [partial_auroc_from_counts(tp[i], fp[i], 0.2)[0] for i in range(5)]
    assert np.allclose(batch, one, atol=1e-15)


@pytest.mark.parametrize("decimals", [None, 1])
def test_operating_points_are_the_best_achievable_thresholds(decimals):
    y, s, _ = _data(500, 7, decimals)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    prec, rec, _ = precision_recall_curve(y, s, drop_intermediate=False)
    for spec in (0.5, 0.8, 0.95, 1.0):
        assert sensitivity_at_specificity(y, s, specificity=spec) == pytest.approx(tpr[1 - fpr >= spec].max(), abs=1e-12)
    for r in (0.1, 0.5, 0.9, 1.0):
        keep = rec >= r
        assert precision_at_recall(y, s, recall=r) == pytest.approx(prec[keep].max(), abs=1e-12)


def test_coords_are_the_confusion_counts_at_every_threshold():
    y, s, _ = _data(300, 11, 1)
    c = coords(y, s)
    assert (np.diff(c.threshold) < 0).all() and c.threshold.size == np.unique(s).size
    for k in (0, c.threshold.size // 2, c.threshold.size - 1):
        tn, fp, fn, tp = confusion_matrix(y, (s >= c.threshold[k]).astype(int), labels=[0, 1]).ravel()
        assert (c.tp[k], c.fp[k], c.tn[k], c.fn[k]) == (tp, fp, tn, fn)
        assert c.sensitivity[k] == tp / (tp + fn) and c.specificity[k] == tn / (tn + fp)


def test_bad_rates_raise():
    y, s, _ = _data(50, 1)
    for bad in (0.0, 1.5, -0.1):
        with pytest.raises(ValueError, match="max_fpr"):
            partial_auroc(y, s, max_fpr=bad)
    with pytest.raises(ValueError, match="specificity"):
        sensitivity_at_specificity(y, s, specificity=1.2)


@pytest.mark.skipif(shutil.which("Rscript") is None, reason="needs R with pROC (bash .ci/install-r.sh)")
def test_partial_auroc_equals_proc(tmp_path):
    y, s, _ = _data(400, 5)
    f = tmp_path / "d.csv"
    np.savetxt(f, np.c_[y, s], delimiter=",", header="y,s", comments="")
    script = (f"suppressMessages(library(pROC)); d <- read.csv('{f}'); r <- roc(d$y, d$s, levels = c(0, 1), "
              "direction = '<', quiet = TRUE); cat(sprintf('%.15f', as.numeric(auc(r, partial.auc = c(1, 0.8), "
              "partial.auc.focus = 'specificity', partial.auc.correct = TRUE))))")
    out = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip(f"pROC not usable: {out.stderr.strip()[:200]}")
    assert abs(float(out.stdout) - partial_auroc(y, s, max_fpr=0.2)) < 1e-9

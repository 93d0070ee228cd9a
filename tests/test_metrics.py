"""prspace.metrics against scikit-learn, the PRG reference code and the papers' closed forms."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import metrics as skm

from _pyprg_compat import ReferenceError_, reference_auprg
from prspace import metrics as M


def _random_cases(seed: int, n_cases: int, max_n: int = 40):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n_cases:
        n = int(rng.integers(2, max_n))
        y = rng.integers(0, 2, n)
        if y.sum() in (0, n):
            continue
        if len(out) % 2:
            s = rng.integers(0, int(rng.integers(1, 6)), n).astype(float)  # heavy ties
        else:
            s = rng.normal(size=n)
        out.append((y, s))
    return out


CASES = _random_cases(0, 300)


def test_auroc_and_ap_equal_sklearn():
    for y, s in CASES:
        assert M.auroc(y, s) == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
        assert M.average_precision(y, s) == pytest.approx(
            skm.average_precision_score(y, s), abs=1e-12
        )


def test_auprg_equals_reference_code():
    checked = 0
    for y, s in CASES:
        try:
            ref = reference_auprg(y, s)
        except ReferenceError_:
            continue
        assert abs(M.auprg(y, s) - ref) <= 1e-9
        checked += 1
    assert checked > 250


def test_worst_ranking_gives_boyd_minima():
    for n_pos, n_neg in [(1, 1), (2, 5), (7, 3), (50, 950)]:
        y = np.r_[np.zeros(n_neg), np.ones(n_pos)]
        s = -np.arange(n_pos + n_neg, dtype=float)  # negatives first
        pi = n_pos / (n_pos + n_neg)
        assert M.aupr(y, s) == pytest.approx(M.aupr_min(pi), rel=1e-12)
        assert M.average_precision(y, s) == pytest.approx(M.ap_min(n_pos, n_neg), rel=1e-12)
        assert M.aucnpr(y, s) == pytest.approx(0.0, abs=1e-12)


def test_all_metrics_keys_and_consistency():
    y, s = CASES[3]
    d = M.all_metrics(y, s)
    assert set(d) == {
        "auroc",
        "average_precision",
        "aupr",
        "aupr_linear",
        "aucnpr",
        "auprg",
        "pi",
        "n_pos",
        "n_neg",
    }
    assert d["aupr"] == M.aupr(y, s)
    assert d["aupr_linear"] == M.aupr(y, s, interpolation="linear")
    assert d["auprg"] == M.auprg(y, s)
    assert d["n_pos"] == y.sum() and d["n_neg"] == len(y) - y.sum()

"""The single-model check of Boyd et al. section 4.1 (prspace.experiments.boyd.boyd_mechanism).

Oracles: the worst ranking's AUPR is AUCPR_MIN(pi) (Theorem 2, typed here from the paper), so near
it the simulated bias must equal the mean over folds of the floors at the realised fold skews minus
the same on the control; and the sign of the second derivative of precision in pi at a fixed ROC
point, checked against finite differences.
"""

from __future__ import annotations

import numpy as np
import pytest

from prspace.core.errors import InputError
from prspace.experiments.boyd import boyd_mechanism as bm
from prspace.experiments.boyd.fold_skew import reassign_folds


def _floor(pi: float) -> float:
    return 1.0 + (1.0 - pi) * np.log(1.0 - pi) / pi  # Boyd et al. Theorem 2


def test_good_model_pessimistic_worst_ranking_optimistic():
    good = bm.fold_averaging_bias(2.0, n_sim=60, seed=3)
    worst = bm.fold_averaging_bias(-3.0, n_sim=60, seed=3)
    assert good["sign"] == "pessimistic" and good["mc_hi"] < 0
    assert worst["sign"] == "optimistic" and worst["mc_lo"] > 0
    # the pessimism of a good model is an order of magnitude larger than the floor's optimism
    assert -good["bias_mean"] > 10 * worst["bias_mean"]
    assert good["auroc"] == pytest.approx(0.9213503964748574, abs=1e-12)  # Phi(2 / sqrt 2)


def test_worst_ranking_bias_is_the_convexity_of_the_floor():
    n, pi, k, d, sims, seed = 600, 0.1, 6, 0.75, 8, 5
    got = bm.fold_averaging_bias(-60.0, pi=pi, n=n, n_folds=k, dispersion=d, n_sim=sims, seed=seed)
    n_pos = int(round(pi * n))
    y = np.r_[np.ones(n_pos, bool), np.zeros(n - n_pos, bool)]
    want = []
    for j in range(sims):
        rng = np.random.default_rng([seed, j, 0])
        fold = np.r_[rng.permutation(np.arange(n_pos) % k), rng.permutation(np.arange(n - n_pos) % k)]
        per = {}
        for design in ("skewed", "stratified"):
            fk = reassign_folds(y, fold, dispersion=d, design=design, rng=np.random.default_rng([seed, j, 1]))
            per[design] = np.mean([_floor(y[fk == f].mean()) for f in range(k)])
        want.append(per["skewed"] - per["stratified"])
    assert got["bias_mean"] == pytest.approx(np.mean(want), abs=1e-12)
    assert np.mean(want) > 0  # Jensen on the convex floor


@pytest.mark.parametrize(("t", "f", "sign"), [(0.8, 0.1, -1), (0.1, 0.8, 1), (0.5, 0.5, 0)])
def test_precision_curvature_in_pi_at_a_fixed_roc_point(t, f, sign):
    """The mechanism the module docstring states: p(pi) = pi t / (pi t + (1 - pi) f) is concave in
    pi for t > f, convex for t < f, linear for t = f (finite differences)."""
    p = lambda pi: pi * t / (pi * t + (1 - pi) * f)  # noqa: E731
    h = 1e-4
    for pi in (0.05, 0.2, 0.5):
        second = (p(pi + h) - 2 * p(pi) + p(pi - h)) / h**2
        closed = -2 * t * f * (t - f) / (pi * (t - f) + f) ** 3
        assert second == pytest.approx(closed, rel=1e-4, abs=1e-6)
        assert np.sign(round(second, 6)) == sign


def test_table_and_sentence():
    t = bm.mechanism_table((-3.0, 2.0), n_sim=20, seed=0)
    assert list(t.columns) == bm.MECHANISM_COLUMNS and len(t) == 2
    text = bm.mechanism_sentence(t)
    assert "near the worst ranking +" in text and "good model -" in text
    assert bm.mechanism_sentence(None) == "the single-model simulation was not run"


def test_bad_input():
    with pytest.raises(InputError, match="too few"):
        bm.fold_averaging_bias(1.0, n=50, pi=0.1, n_folds=10)
    with pytest.raises(InputError, match="n_sim"):
        bm.fold_averaging_bias(1.0, n_sim=1)
    with pytest.raises(InputError, match="seed"):
        bm.fold_averaging_bias(1.0, seed=-1)

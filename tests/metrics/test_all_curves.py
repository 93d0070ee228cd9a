"""prspace.metrics.all_curves: the three curves from one sort equal the three functions' own, bit for bit,
with ties, weights and a label given (the audit's figures and Figure 5's tables draw them)."""

from __future__ import annotations

import numpy as np
import pytest

from prspace.metrics import all_curves, pr_curve, prg_curve, roc_curve


@pytest.mark.parametrize("tied", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_all_curves_equal_each_curve_alone(tied, weighted):
    rng = np.random.default_rng(7)
    n = 5_000
    y = np.where(rng.random(n) < 0.1, "yes", "no")
    s = rng.normal(size=n) + (y == "yes")
    s = np.round(s, 1) if tied else s
    w = rng.gamma(2.0, size=n) if weighted else None
    got = all_curves(y, s, pos_label="yes", sample_weight=w)
    alone = (roc_curve(y, s, pos_label="yes", sample_weight=w), pr_curve(y, s, pos_label="yes", sample_weight=w),
             prg_curve(y, s, pos_label="yes", sample_weight=w))
    for one, other in zip(got, alone, strict=True):
        assert type(one) is type(other)
        for a, b in zip(one, other, strict=True):
            assert np.array_equal(a, b, equal_nan=True)


def test_all_curves_validates_as_each_curve_does():
    with pytest.raises(ValueError):
        all_curves([1, 1, 1], [0.1, 0.2, 0.3])  # one class: no curve

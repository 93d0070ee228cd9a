"""Aggregation over tasks of different skew (Boyd et al. 2012, section 4.2, Table 2).

Properties: AUPR of the worst model is AUCPR_MIN(pi) (Theorem 2) and so tracks pi perfectly
across tasks, while its AUCNPR is 0 on every task; a learner that is mediocre on balanced tasks
can beat, by mean AUPR, a learner that is better on every task in normalised terms.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from prspace import metrics
from prspace.core.errors import InputError
from prspace.experiments.boyd import aggregation as ag

PIS = (0.02, 0.05, 0.1, 0.2, 0.3, 0.5)


def _metrics_table(seed: int = 0) -> pd.DataFrame:
    """A metrics table from synthetic scores on six tasks of different skew (via prspace.metrics)."""
    rng = np.random.default_rng(seed)
    rows = []
    for i, pi in enumerate(PIS):
        n = 2000
        n_pos = int(n * pi)
        y = np.r_[np.ones(n_pos, bool), np.zeros(n - n_pos, bool)]
        # "steady" separates every task alike; "balanced-fan" is strong only on the balanced tasks
        seps = {"steady": 1.5, "balanced-fan": 2.5 if pi >= 0.3 else 0.6}
        for name, sep in seps.items():
            s = rng.normal(0, 1, n) + sep * y
            rows.append({"task_id": f"t{i}", "flow_id": name, "pi": n_pos / n, **metrics.all_metrics(y, s)})
        s = (~y).astype(float) + rng.random(n) * 1e-6  # the worst ranking
        rows.append({"task_id": f"t{i}", "flow_id": "worst", "pi": n_pos / n, **metrics.all_metrics(y, s)})
    return pd.DataFrame(rows)


def test_per_task_table_has_the_closed_form_minimum():
    t = ag.per_task_table(_metrics_table())
    expected = [1 + (1 - p) * math.log(1 - p) / p for p in t["pi"]]  # Boyd Theorem 2
    assert np.allclose(t["aupr_min"], expected, atol=1e-12)
    worst = t[t["learner"] == "worst"]
    assert np.allclose(worst["aupr"], worst["aupr_min"], atol=1e-12)
    assert np.allclose(worst["aucnpr"], 0, atol=1e-12)
    assert t["pi"].is_monotonic_increasing


def test_skew_correlation_worst_model_aupr_tracks_pi():
    corr = ag.skew_correlation(_metrics_table()).set_index("learner")
    assert corr.loc["worst", "rho_aupr"] == pytest.approx(1.0)  # AUCPR_MIN rises with pi
    assert np.isnan(corr.loc["worst", "rho_aucnpr"])  # constant 0: no order to correlate
    assert corr.loc["steady", "rho_aupr"] == pytest.approx(1.0)  # same ROC, higher pi, higher AUPR
    assert abs(corr.loc["steady", "rho_auroc"]) < 0.9  # AUROC does not see pi
    assert 0 < corr.loc["mean of learners", "free_share"] < 1


def test_learner_order_moves_with_skew():
    df = _metrics_table()
    means, agree = ag.learner_means(df[df["flow_id"] != "worst"])
    m = means.set_index("flow_id")
    # Boyd Table 2: "AUCNPR yields a more conservative overall estimate" -- for every learner
    assert (m["mean_aucnpr"] < m["mean_aupr"]).all()
    # AUROC (skew-free) prefers the steady learner
    assert m.loc["steady", "mean_auroc"] > m.loc["balanced-fan", "mean_auroc"]
    assert set(agree["metric_a"]) <= set(ag.METRICS)
    groups = ag.skew_group_means(df, n_groups=3)
    low = groups[(groups["skew_group"].str.startswith("1:")) & (groups["metric"] == "aupr")].set_index("learner")
    high = groups[(groups["skew_group"].str.startswith("3:")) & (groups["metric"] == "aupr")].set_index("learner")
    # the order moves with skew: steady leads on skewed tasks, balanced-fan on balanced ones
    assert low.loc["steady", "rank"] < low.loc["balanced-fan", "rank"]
    assert high.loc["balanced-fan", "rank"] < high.loc["steady", "rank"]
    assert (groups.loc[groups["learner"] == "worst", "rank"] == 3).all()


def test_skew_groups_cover_all_tasks():
    pi = pd.Series(PIS, index=[f"t{i}" for i in range(len(PIS))])
    g = ag.skew_groups(pi, 3)
    assert g.nunique() == 3
    assert g["t0"].startswith("1: pi 0.020") and g["t5"].startswith("3:")


def test_pi_from_aupr_min_inverts_theorem2():
    for pi in (0.01, 0.04, 0.33, 0.5, 0.9):
        assert ag.pi_from_aupr_min(metrics.aupr_min(pi)) == pytest.approx(pi, rel=1e-8)


def test_bad_input_is_named():
    with pytest.raises(InputError, match="lacks column"):
        ag.per_task_table(pd.DataFrame({"task_id": ["a"], "pi": [0.1]}))

"""Confidence sets for ranks (:mod:`prspace.stats.ranksets`, :mod:`prspace.audit.inference.audit_ranksets`).

Calibration by simulation on AUROC: k models scored on the same rows (binormal scores
with a shared component, so the models are correlated as real models are), one shared
stratified count bootstrap per simulated data set, the rank sets from its replicates.
The replicates here come from a vectorised weighted Mann-Whitney AUROC (checked against
scikit-learn), so hundreds of simulations run in seconds; the audit path itself is tested
end to end below.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm, studentized_range
from sklearn.metrics import roc_auc_score

from prspace import audit
from prspace.audit.inference.audit_ranksets import DECISIONS, RANK_SET_COLUMNS
from prspace.cli import main
from prspace.stats.ranksets import rank_sets

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "audit-example.csv"


def _auroc_replicates(y: np.ndarray, scores: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """AUROC of every model (rows of ``scores``) under every row-count vector (rows of
    ``counts``), continuous scores (no ties): (B, k)."""
    out = np.empty((counts.shape[0], scores.shape[0]))
    for k, s in enumerate(scores):
        o = np.argsort(s, kind="stable")
        c, yy = counts[:, o], y[o]
        neg_below = np.cumsum(c * ~yy, axis=1) - c * ~yy  # negative weight strictly below each row
        wpos, wneg = (c * yy).sum(axis=1), (c * ~yy).sum(axis=1)
        out[:, k] = (c * yy * neg_below).sum(axis=1) / (wpos * wneg)
    return out


def _counts(y: np.ndarray, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """Stratified (by class) bootstrap counts per row, shared by every model: (n_boot, n)."""
    c = np.zeros((n_boot, len(y)))
    for cls in (False, True):
        idx = np.flatnonzero(y == cls)
        c[:, idx] = rng.multinomial(len(idx), np.full(len(idx), 1.0 / len(idx)), size=n_boot)
    return c


def _simulate(deltas: np.ndarray, n_pos: int, n_neg: int, n_boot: int, rng: np.random.Generator,
              rho: float = 0.5):
    """One data set: model k's score = delta_k y + sqrt(rho) z + sqrt(1 - rho) e_k (true AUROC
    Phi(delta_k / sqrt 2)); its rank sets from one shared bootstrap."""
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    z = rng.standard_normal(len(y))
    e = rng.standard_normal((len(deltas), len(y)))
    scores = deltas[:, None] * y + np.sqrt(rho) * z + np.sqrt(1 - rho) * e
    points = _auroc_replicates(y, scores, np.ones((1, len(y))))[0]
    reps = _auroc_replicates(y, scores, _counts(y, n_boot, rng))
    return rank_sets(points, reps, 0.95)


def test_vectorised_auroc_matches_sklearn_with_weights():
    rng = np.random.default_rng(1)
    y = rng.random(80) < 0.4
    scores = rng.standard_normal((3, 80)) + y
    counts = _counts(y, 4, rng)
    reps = _auroc_replicates(y, scores, counts)
    for b in range(4):
        for k in range(3):
            assert reps[b, k] == pytest.approx(roc_auc_score(y, scores[k], sample_weight=counts[b]), abs=1e-12)


def test_critical_value_is_tukeys_studentised_range():
    """Independent equal-variance replicates: the max over all pairs of |d*| / se is the
    studentised range over sqrt(2), Tukey's HSD critical value (closed form)."""
    k = 10
    reps = np.random.default_rng(2).standard_normal((40_000, k))
    r = rank_sets(np.zeros(k), reps, 0.95)
    assert r.critical == pytest.approx(studentized_range.ppf(0.95, k, 10_000) / np.sqrt(2), rel=0.015)
    two = rank_sets(np.zeros(2), reps[:, :2], 0.95)  # one pair: the normal quantile
    assert two.critical == pytest.approx(norm.ppf(0.975), rel=0.015)


def test_two_models_huge_gap_closed_form():
    rng = np.random.default_rng(3)
    reps = np.c_[0.9 + 0.01 * rng.standard_normal(500), 0.5 + 0.01 * rng.standard_normal(500)]
    r = rank_sets(np.array([0.9, 0.5]), reps)
    assert r.rank_lo.tolist() == [1, 2] and r.rank_hi.tolist() == [1, 2]
    assert r.plausible_best.tolist() == [True, False]
    assert r.lo[0, 1] == pytest.approx(0.4 - r.critical * np.std(reps[:, 0] - reps[:, 1], ddof=1))
    assert r.hi[1, 0] == pytest.approx(-r.lo[0, 1])
    # identical models (difference never varies, and is 0): nothing separates them
    same = rank_sets(np.array([0.7, 0.7]), np.c_[reps[:, 0], reps[:, 0]])
    assert same.rank_lo.tolist() == [1, 1] and same.rank_hi.tolist() == [2, 2]


def test_family_wise_error_under_the_null():
    """10 models of equal AUROC: P(any pair declared different) <= 0.05 + 2 MC se."""
    rng = np.random.default_rng(20260101)
    n_sim, errors = 300, 0
    for _ in range(n_sim):
        r = _simulate(np.full(10, 1.0), 100, 100, 300, rng)
        errors += bool(r.better.any())
    fwer = errors / n_sim
    se = np.sqrt(0.05 * 0.95 / n_sim)
    print(f"FWER {fwer:.3f} (MC se {se:.3f}, {n_sim} simulations)")
    assert fwer <= 0.05 + 2 * se


def test_rank_sets_contain_the_true_best():
    """A unique best model by a small margin (AUROC 0.79 vs 0.76): the plausible-best set
    contains it in >= 95% of simulations."""
    rng = np.random.default_rng(7)
    deltas = np.full(10, 1.0)
    deltas[3] = 1.15
    n_sim = 300
    hit = sum(bool(_simulate(deltas, 100, 100, 300, rng).plausible_best[3]) for _ in range(n_sim))
    print(f"coverage of the true best {hit / n_sim:.3f} ({n_sim} simulations)")
    assert hit / n_sim >= 0.95


def test_power_on_a_planted_gap():
    """The gap: true AUROC 0.90 (delta 1.81) against nine models at 0.76 (delta 1.0), 150
    positives and 150 negatives, correlation 0.5 of scores: the best model's rank set is
    {1} (separated from all nine) in >= 80% of simulations."""
    rng = np.random.default_rng(11)
    deltas = np.full(10, 1.0)
    deltas[0] = np.sqrt(2) * norm.ppf(0.90)
    assert norm.cdf(1.0 / np.sqrt(2)) == pytest.approx(0.76, abs=0.001)
    n_sim = 100
    power = sum(_simulate(deltas, 150, 150, 300, rng).rank_hi[0] == 1 for _ in range(n_sim)) / n_sim
    print(f"power {power:.2f} ({n_sim} simulations)")
    assert power >= 0.8


def _two_model_frame(n: int = 200, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n // 2, int), np.zeros(n - n // 2, int)]
    perfect = y + 0.1 * rng.random(n)
    noise = rng.random(n)
    return pd.DataFrame({"model": ["perfect"] * n + ["noise"] * n, "label": np.r_[y, y],
                         "score": np.r_[perfect, noise], "row_id": np.r_[np.arange(n), np.arange(n)]})


def test_audit_rank_sets_follow_the_deciding_procedure():
    res = audit.audit(_two_model_frame(), n_boot=200, seed=0)
    t = res.rank_sets
    assert list(t.columns) == RANK_SET_COLUMNS
    assert len(t) == 2 * 5  # models x metrics
    deciding = res.pairwise[res.pairwise["role"] == "decides"].set_index("metric")
    for metric, g in t.groupby("metric"):
        assert g["method"].str.endswith(DECISIONS).all(), metric
        assert (g["n_resamples"] == deciding.loc[metric, "n_resamples"]).all()
    best = t[t["model"] == "perfect"]
    assert (best["rank_lo"] == 1).all() and (best["rank_hi"] == 1).all() and best["plausible_best"].all()
    worst = t[t["model"] == "noise"]
    assert (worst["rank_lo"] == 2).all() and not worst["plausible_best"].any()
    pooled = res.pooled.set_index("model")
    for r in t.to_dict("records"):
        assert r["estimate"] == pytest.approx(pooled.loc[r["model"], r["metric"]])
    assert "Plausible best" in res.to_text() and "perfect (1 of 2 models)" in res.to_markdown()
    assert "Plausible best" in res.to_html(figures={})
    # without bootstrap the max-T cannot decide; the rank sets follow whichever procedure does
    none = audit.audit(_two_model_frame(), n_boot=0)
    assert "bootstrap max-T (Romano-Wolf step-down)" not in set(none.pairwise["method"])
    assert none.rank_sets["method"].str.endswith(DECISIONS).all()
    assert (none.rank_sets.loc[none.rank_sets["model"] == "perfect", "rank_hi"] == 1).all()


def test_rank_sets_csv_after_cli_audit(tmp_path, capsys):
    out = tmp_path / "out"
    rc = main(["audit", str(EXAMPLE), "--label-col", "diagnosis", "--pos-label", "malignant",
               "--bootstrap", "200", "--out", str(out)])
    assert rc in (0, 1)
    t = pd.read_csv(out / "rank_sets.csv")
    assert {"task", "metric", "model", "estimate", "rank_lo", "rank_hi", "plausible_best"} <= set(t.columns)
    n_models = pd.read_csv(EXAMPLE)["model"].nunique()
    assert len(t) == n_models * 5 and not t.duplicated(["task", "metric", "model"]).any()
    assert set(t["plausible_best"].astype(str)) <= {"True", "False"}
    assert (t["rank_lo"] <= t["rank_hi"]).all() and (t["rank_lo"] >= 1).all() and (t["rank_hi"] <= n_models).all()
    assert t.groupby("metric")["plausible_best"].any().all()  # someone is always plausibly best
    assert "Plausible best" in capsys.readouterr().out

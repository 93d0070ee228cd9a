"""Calibration by simulation of the noise floor's distinguishable check (experiments.calibration)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from prspace.cli import main
from prspace.errors import InputError
from prspace.experiments import calibration as C
from prspace.experiments import noise_floor as NF

PAIR = [("aupr", "auroc")]


def test_population_metrics_match_the_binormal_closed_form():
    # AUROC of N(0, 1) negatives vs N(mu, sigma) positives is Phi(mu / sqrt(1 + sigma^2))
    for mu, sigma, pi in ((1.0, 1.0, 0.1), (1.5, 0.4, 0.3), (0.8, 3.0, 0.05)):
        pop = C.population_metrics(mu, sigma, pi)
        assert pop["auroc"] == pytest.approx(stats.norm.cdf(mu / np.sqrt(1 + sigma**2)), abs=1e-7)
        assert pop["pi"] == pytest.approx(pi, abs=1e-12)
    assert C.population_metrics(C.mu_for_auroc(0.85), 1.0, 0.2)["auroc"] == pytest.approx(0.85, abs=1e-7)


def test_population_aupr_matches_a_very_large_sample():
    rng = np.random.default_rng(0)
    n_pos, n_neg, mu, sigma = 200_000, 800_000, 1.2, 0.5
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    s = np.where(y, mu + sigma * rng.standard_normal(y.size), rng.standard_normal(y.size))
    from prspace import metrics as M
    big = M.all_metrics(y, s)
    pop = C.population_metrics(mu, sigma, n_pos / (n_pos + n_neg))
    for m in ("aupr", "auprg", "auroc"):
        assert pop[m] == pytest.approx(big[m], abs=5e-3), m


def test_planted_reversal_balances_the_two_margins():
    plant = C.planted_reversal("auprg", "auroc", C.mu_for_auroc(0.85), 0.1, 0.2)
    ma = plant["pop_a_B"] - plant["pop_a_A"]
    mb = plant["pop_b_B"] - plant["pop_b_A"]
    assert ma * mb < 0  # the metrics prefer different models in the population
    assert abs(ma) == pytest.approx(abs(mb), abs=1e-6)
    assert plant["reversal"] == pytest.approx(abs(ma)) and plant["reversal"] > 0.05


def test_null_false_rate_is_at_most_the_nominal_level():
    sizes = [("s", 40, 160)]
    table, summary = C.calibrate(None, pairs=[("aupr", "auprg"), ("aupr", "auroc"), ("auprg", "auroc")],
                                 n_sim=1, n_sim_null=120, n_boot=100, seed=1, sigmas=[0.5], sizes=sizes)
    null = table[table.scenario == "null"]
    assert len(null) == 3 and (null.n_sim == 120).all()
    se = np.sqrt(0.05 * 0.95 / 120)
    assert (null.rate <= 0.05 + 2 * se).all()
    assert (summary.false_rate == null.rate.to_numpy()).all()


def _power_at_large_reversal() -> float:
    # a large planted reversal (AUPR prefers one model, AUROC the other, by ~0.06 each) on a big task
    table, summary = C.calibrate(None, pairs=PAIR, n_sim=20, n_sim_null=1, n_boot=100, seed=2,
                                 sigmas=[0.05], sizes=[("big", 1000, 1000)])
    row = table[table.scenario == "reversal"].iloc[0]
    assert row.reversal > 0.04
    if row.rate >= 0.8:  # one planted reversal: mdr80 is it when detected with power >= 0.8, else none
        assert summary.mdr80.iloc[0] == row.reversal
    else:
        assert np.isnan(summary.mdr80.iloc[0])
    return float(row.rate)


def test_power_at_a_large_planted_reversal():
    assert _power_at_large_reversal() >= 0.8


def test_a_check_that_cannot_say_yes_has_no_power(monkeypatch):
    # the calibration decides with the noise floor's own function: disabling it must show
    monkeypatch.setattr(NF, "distinguishable", lambda *a, **k: np.asarray(False))
    assert _power_at_large_reversal() == 0.0


def test_mdr_needs_every_larger_reversal_to_pass():
    d = np.array([0.01, 0.02, 0.03, 0.04, 0.05])
    assert C.mdr(d, np.array([0.1, 0.85, 0.5, 0.9, 0.95])) == 0.04
    assert C.mdr(d, np.array([0.1, 0.2, 0.3, 0.4, 0.79])) != C.mdr(d, np.array([0.1, 0.2, 0.3, 0.4, 0.8]))
    assert np.isnan(C.mdr(d, np.array([0.1, 0.2, 0.3, 0.4, 0.79])))


def test_task_sizes_are_quartiles_of_the_ok_tasks():
    tasks = pd.DataFrame({"status": ["ok"] * 5 + ["failed"], "n": [100, 200, 300, 400, 500, 9],
                          "n_pos": [10, 20, 30, 40, 50, 1]})
    assert C.task_sizes(tasks) == [("q25", 20, 180), ("q50", 30, 270), ("q75", 40, 360)]
    with pytest.raises(InputError, match="n_pos"):
        C.task_sizes(pd.DataFrame({"n": [1]}))


def test_cli_rejects_bad_sigmas_with_one_line(tmp_path, capsys):
    tasks = tmp_path / "tasks.csv"
    pd.DataFrame({"task_id": ["a"], "status": ["ok"], "n": [100], "n_pos": [20]}).to_csv(tasks, index=False)
    rc = main(["calibrate", "--tasks", str(tasks), "--sigmas", "x", "--out", str(tmp_path / "c.csv"),
               "--summary-out", str(tmp_path / "s.csv")])
    assert rc == 2
    assert "--sigmas" in capsys.readouterr().err

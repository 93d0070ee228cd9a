"""Calibration by simulation of the noise floor's distinguishable check (experiments.noise.noise_calibration)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from prspace.cli import main
from prspace.core.errors import InputError
from prspace.experiments.noise import noise_calibration as C
from prspace.experiments.noise import noise_floor as NF

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


def test_each_component_test_is_one_sided_at_alpha():
    # the IUT: each component is a one-sided test at alpha = 0.05, i.e. the 5% quantile > 0
    diff = np.arange(100.0) - 4.0  # 5% quantile 0.95 > 0, 2.5% quantile -1.525 < 0
    assert np.quantile(diff, 0.05) > 0 > np.quantile(diff, 0.025)
    assert NF.ALPHA == 0.05
    assert NF.excludes_zero(diff) and not NF.excludes_zero(diff, alpha=0.025)
    assert not NF.excludes_zero(diff - 1.0)  # 5% quantile -0.05
    with pytest.raises(InputError, match="alpha"):
        NF.excludes_zero(diff, alpha=0.95)  # a two-sided level passed by mistake


def test_null_false_rate_is_at_most_the_nominal_level():
    sizes = [("s", 40, 160)]
    table, summary = C.calibrate(None, pairs=[("aupr", "auprg"), ("aupr", "auroc"), ("auprg", "auroc")],
                                 n_sim=1, n_sim_null=120, n_boot=100, seed=1, sigmas=[0.5], sigmas_a=[1.0], sizes=sizes)
    null = table[table.scenario == "null_equal"]
    assert len(null) == 3 and (null.n_sim == 120).all()
    se = np.sqrt(0.05 * 0.95 / 120)
    assert (null.rate <= 0.05 + 2 * se).all()
    assert (summary.false_rate_null == null.rate.to_numpy()).all()


def test_boundary_null_false_rate_is_at_most_alpha():
    # least favourable null of the IUT: AUPR equal in population, AUROC clearly prefers one model
    n = 150
    table, summary = C.calibrate(None, pairs=PAIR, n_sim=1, n_sim_null=n, n_boot=100, seed=3, sigmas=[0.05],
                                 sigmas_a=[1.0], sizes=[("mid", 300, 300)])
    for side, eq, other in (("a", "pop_a", "pop_b"), ("b", "pop_b", "pop_a")):
        row = table[table.scenario == f"null_eq_{side}"].iloc[0]
        assert row[f"{eq}_A"] == pytest.approx(row[f"{eq}_B"], abs=1e-6)  # equal under one metric
        assert abs(row[f"{other}_A"] - row[f"{other}_B"]) > 0.05  # clearly different under the other
        assert row.other_power >= 0.9  # the other component's test rejects: the boundary is least favourable
        assert row.n_sim == n
        assert row.rate <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / n), side
    s = summary.iloc[0]
    assert s.false_rate == max(s.false_rate_null, s.false_rate_eq_a, s.false_rate_eq_b)


#: the planted reversal the power test names: AUPR vs AUROC, model B's positives N(mu_B, 0.05)
#: against model A's N(mu_A, 1) (AUROC 0.85) at 1000 positives and 1000 negatives
NAMED = {"pair": PAIR, "sigmas": [0.05], "sigmas_a": [1.0], "sizes": [("big", 1000, 1000)]}


def _power_at_large_reversal() -> float:
    table, summary = C.calibrate(None, pairs=NAMED["pair"], n_sim=20, n_sim_null=1, n_boot=100, seed=2,
                                 sigmas=NAMED["sigmas"], sigmas_a=NAMED["sigmas_a"], sizes=NAMED["sizes"])
    row = table[table.scenario == "reversal"].iloc[0]
    assert row.reversal == pytest.approx(0.0631, abs=0.001)  # the planted reversal this test names
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
    with pytest.raises(AssertionError):
        test_power_at_a_large_planted_reversal()


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


def _calibrate_step(tasks, out, **settings) -> list[str]:
    given = {"n_sim": 30, "n_sim_null": 30, "n_boot": 10, "seed": 0, "auroc": 0.85, "rho": 0.5, "sigmas": "[4]",
             "sigmas_a": "[1]", "alpha": 0.05, "mc_error": "null", **settings}
    return ["step", "calibrate", "--in", f"tasks={tasks}", *[a for k, v in given.items() for a in ("--set", f"{k}={v}")],
            "--tables-dir", str(out)]


def test_cli_rejects_bad_sigmas_with_one_line(tmp_path, capsys):
    tasks = tmp_path / "tasks.csv"
    pd.DataFrame({"task_id": ["a"], "status": ["ok"], "n": [100], "n_pos": [20]}).to_csv(tasks, index=False)
    assert main(_calibrate_step(tasks, tmp_path, sigmas="x")) == 2
    assert "--set sigmas: 'x' is not JSON" in capsys.readouterr().err
    assert main(_calibrate_step(tasks, tmp_path, sigmas='["x"]')) == 2
    assert "--set sigmas: [\"x\"] is not of type" in capsys.readouterr().err


def test_a_small_study_is_simulated_at_its_own_distinct_task_sizes():
    two = pd.DataFrame({"status": ["ok", "ok", "skipped"], "n": [569, 400, 50], "n_pos": [212, 40, 3]})
    assert C.is_small_study(two)
    assert C.task_sizes(two) == [("q0", 40, 360), ("q100", 212, 357)]
    same = pd.DataFrame({"status": ["ok", "ok"], "n": [100, 100], "n_pos": [20, 20]})
    assert C.task_sizes(same) == [("q50", 20, 80)]
    # three tasks: the quartiles, as before (numpy's quantiles, the oracle)
    three = pd.DataFrame({"status": ["ok"] * 3, "n": [100, 300, 1000], "n_pos": [10, 60, 100]})
    assert not C.is_small_study(three)
    n_pos, n_neg = np.array([10.0, 60, 100]), np.array([90.0, 240, 900])
    assert C.task_sizes(three) == [(lab, round(np.quantile(n_pos, q)), round(np.quantile(n_neg, q)))
                                   for lab, q in C.SIZES]
    assert C.median_size(three) == C.task_sizes(three)[1][1:]
    assert C.median_size(two) == (126, 358)  # the midpoint of the two tasks (numpy's median)


def test_small_study_replicates_meet_the_stated_monte_carlo_error():
    two = pd.DataFrame({"status": ["ok", "ok"], "n": [569, 400], "n_pos": [212, 40]})
    five = pd.DataFrame({"status": ["ok"] * 5, "n": [100] * 5, "n_pos": [10] * 5})
    for e in (0.1, 0.05, 0.03):
        n_sim, n_null = C.small_study_replicates(two, (10_000, 10_000), e)
        assert n_sim == n_null
        # the smallest n with binomial se <= e at every p (worst p = 1/2)
        assert np.sqrt(0.25 / n_sim) <= e < np.sqrt(0.25 / (n_sim - 1))
    assert C.small_study_replicates(two, (40, 200), 0.1) == [25, 25]
    assert C.small_study_replicates(two, (10, 20), 0.1) == [10, 20]  # never more than configured
    assert C.small_study_replicates(two, (40, 200), None) == [40, 200]
    assert C.small_study_replicates(five, (40, 200), 0.1) == [40, 200]  # a larger study: unchanged
    with pytest.raises(InputError, match="mc_error"):
        C.small_study_replicates(two, (40, 200), 0.7)


def test_cli_sizes_a_two_task_study_to_its_tasks_and_the_stated_error(tmp_path):
    tasks = tmp_path / "tasks.csv"
    pd.DataFrame({"task_id": ["a", "b"], "status": ["ok", "ok"], "n": [60, 80],
                  "n_pos": [20, 10]}).to_csv(tasks, index=False)
    out, summ = tmp_path / "calibration.csv", tmp_path / "calibration_summary.csv"
    assert main(_calibrate_step(tasks, tmp_path, mc_error=0.2)) == 0
    s = pd.read_csv(summ)
    assert sorted(zip(s["size"], s["n_pos"], s["n_neg"], strict=True)) == sorted(
        [("q0", 10, 70)] * 3 + [("q100", 20, 40)] * 3)
    assert (pd.read_csv(out)["n_sim"] == 7).all()  # ceil(0.25 / 0.2**2)
    # both tables' notes state the capped counts and their Monte Carlo error
    for md in (out, summ):
        assert "7 simulated tasks per planted reversal and 7 per null (mc_error 0.2" in md.with_suffix(".md").read_text()



"""Flach & Kull's primary evidence (prspace.verdicts.primary): estimates, the paired family
bootstrap, its Monte Carlo error, its coverage, and the stability of the committed studies' verdicts."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from prspace.core import claims as REG
from prspace.core.errors import InputError
from prspace.stats import cluster_bootstrap as CB
from prspace.verdicts import direction as DIR
from prspace.verdicts import primary as P
from prspace.verdicts import rule as RULE
from prspace.verdicts import sensitivity as SENS

ROOT = Path(__file__).resolve().parents[2]
STUDIES = ("default", "paperlike")


def _per_task(n_tasks=40, n_families=20, seed=0, p=(0.25, 0.3, 0.22), family_sd=0.0):
    """A per-task table of the three pairs; a family's tasks share a random shift of their top-1 probability."""
    rng = np.random.default_rng(seed)
    fam = np.arange(n_tasks) % n_families
    shift = family_sd * rng.standard_normal(n_families)
    rows = []
    for (a, b), p1 in zip(P.PAIRS, p, strict=True):
        for t in range(n_tasks):
            rows.append({"task_id": f"t{t:03d}", "metric_a": a, "metric_b": b, "n_models": 30,
                         "top1_differs": bool(rng.random() < np.clip(p1 + shift[fam[t]], 0, 1)),
                         "top3_differs": bool(rng.random() < 0.6),
                         "spearman": float(np.clip(0.95 + 0.03 * rng.standard_normal(), -1, 1)), "kendall": 0.8})
    tasks = pd.DataFrame({"task_id": [f"t{t:03d}" for t in range(n_tasks)], "family": [f"f{f}" for f in fam]})
    return pd.DataFrame(rows), tasks


def test_weighted_quantile_is_numpy_quantile_of_the_repeated_sample():
    rng = np.random.default_rng(5)
    x = np.sort(rng.standard_normal(13))
    w = rng.integers(0, 4, size=(200, 13))
    w[0] = 0
    w[1] = 0
    w[1, 3] = 1  # a single task drawn once
    for q in (0.0, 0.25, 0.5, 0.75, 0.9, 1.0):
        got = CB.weighted_quantiles(x, w.astype(float), q)
        assert np.isnan(got[0])
        want = [np.quantile(np.repeat(x, row), q) for row in w[1:]]
        assert got[1:] == pytest.approx(want, rel=0, abs=1e-14)


def test_estimates_are_the_plain_statistics_of_the_tasks():
    per, tasks = _per_task()
    per.loc[(per.metric_a == "aupr") & (per.metric_b == "auprg") & (per.task_id == "t005"), "spearman"] = np.nan
    st = P.primary_statistics(per, tasks, n_boot=300, seed=0, power=False).set_index("claim_id")
    for a, b in P.PAIRS:
        sub = per[(per.metric_a == a) & (per.metric_b == b)]
        assert st.loc[f"fk.{a}_{b}.top1", "estimate"] == pytest.approx(sub.top1_differs.mean())
        assert st.loc[f"fk.{a}_{b}.top3", "estimate"] == pytest.approx(sub.top3_differs.mean())
        assert st.loc[f"fk.{a}_{b}.spearman", "estimate"] == pytest.approx(sub.spearman.mean())  # NaN left out
    rho = per[(per.metric_a == "aupr") & (per.metric_b == "auprg")].spearman.dropna()
    assert st.loc["fk.aupr_auprg.spearman_q25", "estimate"] == pytest.approx(np.quantile(rho, 0.25))
    assert st.loc["fk.aupr_auprg.spearman_q75", "estimate"] == pytest.approx(np.quantile(rho, 0.75))
    for k in ("top1", "top3", "spearman"):
        assert st.loc[f"fk.as_different.{k}", "estimate"] == pytest.approx(
            st.loc[f"fk.aupr_auprg.{k}", "estimate"] - st.loc[f"fk.aupr_auroc.{k}", "estimate"])
    # "all significantly different" needs the noise floor's pair table (not given here)
    assert set(st.index) == {c for c in REG.primary_ids() if c.startswith("fk.") and c != P.ALL_DIFFERENT}
    assert (st.n_families == 20).all() and (st.n_tasks == 40).all()
    assert (st.ci_lo <= st.estimate + 1e-12).all() and (st.estimate <= st.ci_hi + 1e-12).all()


def test_a_subset_of_tasks_is_the_same_as_the_table_cut_to_it():
    per, tasks = _per_task()
    keep = [f"t{t:03d}" for t in range(0, 40, 3)]
    a = P.primary_statistics(per, tasks, n_boot=400, seed=3, task_ids=keep, power=False)
    b = P.primary_statistics(per[per.task_id.isin(keep)], tasks, n_boot=400, seed=3, power=False)
    pd.testing.assert_frame_equal(a, b)
    assert a.n_tasks.iloc[0] == len(keep)


def test_missing_pair_is_refused_naming_the_fix():
    per, tasks = _per_task()
    with pytest.raises(InputError, match="no rows for the pair aupr, auroc"):
        P.primary_statistics(per[per.metric_b != "auroc"], tasks, n_boot=10, seed=0)
    with pytest.raises(InputError, match="lack a row for one of the pairs"):
        P.primary_statistics(per.drop(index=[0]), tasks, n_boot=10, seed=0)


# --- the engine: prspace.stats.cluster_bootstrap ---------------------------------------------------

def _clustered(rng, F=35, share=0.3, sd=0.25):
    sizes = rng.integers(1, 4, F)
    fam = np.repeat(np.arange(F), sizes)
    p = np.clip(share + sd * rng.standard_normal(F), 0.02, 0.98)[fam]
    return (rng.random(len(fam)) < p).astype(float), fam


def test_the_closed_form_cluster_se_is_the_linearised_one_by_hand():
    """For a ratio mean and a paired difference: the per-resample closed form against the cluster
    sandwich written out family by family, F/(F-1) sum_f u_f^2 with u_f the family's influence."""
    rng = np.random.default_rng(3)
    x, fam = _clustered(rng)
    y = np.where(rng.random(len(x)) < 0.2, np.nan, rng.random(len(x)))
    st = [CB.ratio_stat(x, fam), CB.combo_stat([(1.0, x), (-1.0, y)], fam)]
    mom = CB._Moments(st)
    F = st[0].n_families
    c = rng.multinomial(F, np.full(F, 1 / F), size=5).astype(float)
    est, se = mom.evaluate(c)
    for b in range(5):
        w = c[b][fam]
        ok = np.isfinite(y)
        mx = np.sum(w * x) / np.sum(w)
        my = np.sum((w * y)[ok]) / np.sum(w[ok])
        ux = np.bincount(fam, (x - mx), minlength=F) / np.sum(w)
        uy = np.bincount(fam[ok], (y - my)[ok], minlength=F) / np.sum(w[ok])
        assert est[b, 0] == pytest.approx(mx) and est[b, 1] == pytest.approx(mx - my)
        assert se[b, 0] == pytest.approx(np.sqrt(F / (F - 1) * np.sum(c[b] * ux**2)))
        assert se[b, 1] == pytest.approx(np.sqrt(F / (F - 1) * np.sum(c[b] * (ux - uy) ** 2)))


def test_holm_p_values_are_the_errors_at_which_the_intervals_decide():
    per, tasks = _per_task(n_tasks=60, n_families=30)
    st = P.primary_statistics(per, tasks, n_boot=60_000, seed=1, power=False)
    for r in st.itertuples():
        if r.p_decide < 0.5:
            b = P.bootstrap_claims([(c, s, 60) for c, s in P.fk_stats(per, tasks)[0] if c == r.claim_id],
                                   n_boot=60_000, seed=1)[0]
            lo, hi = CB._sub(b.res, 0).interval_at(np.array([min(1.0, 1.05 * r.p_decide)]))
            assert CB.outcomes(lo, hi, r.value, r.margin)[0] != CB.INCONCLUSIVE
    assert (st.p_decide == np.minimum(st.p_diff, st.p_equiv)).all()
    assert (st.p_holm >= st.p_decide - 1e-12).all()
    assert (st.level == REG.CLAIM_LEVEL).all() and (st.alpha_used == REG.HOLM_ALPHA / st.holm_multiplier).all()
    assert (st.p_holm_mc >= 0).all() and (st.coverage_n >= 1000).all()


def test_outcomes_of_the_one_scheme():
    lo = np.array([0.16, 0.25, 0.35, 0.13, 0.25, np.nan])
    hi = np.array([0.32, 0.33, 0.50, 0.30, 0.45, 0.3])
    assert CB.outcomes(lo, hi, 0.24, 0.10).tolist() == [CB.EQUIVALENT, CB.BY_LESS, CB.BEYOND, CB.INCONCLUSIVE,
                                                        CB.DIFFERENT, CB.INCONCLUSIVE]


def _sim_coverage(level, n_sim, seed, *, calibrate):
    """Simulated studies under a known truth: 35 families of 1-3 tasks whose share is N(0.3, 0.25)
    clipped (the truth computed from the population: 0.3 clipped mean); misses below / above."""
    rng = np.random.default_rng(seed)
    truth = np.mean(np.clip(0.3 + 0.25 * rng.standard_normal(2_000_000), 0.02, 0.98))
    low = high = 0
    for s in range(n_sim):
        x, fam = _clustered(rng)
        res = CB.run([CB.ratio_stat(x, fam)], B=400, seed=s, replicates=5, n_out=200, n_in=100)
        lo, hi = res.interval_at(np.array([1 - level]), calibrate=calibrate)
        low += truth < lo[0]
        high += truth > hi[0]
    return low, high


@pytest.mark.parametrize("calibrate", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_the_interval_covers_a_known_share_at_90_percent(calibrate):
    n_sim = 120
    low, high = _sim_coverage(0.90, n_sim, seed=11, calibrate=calibrate)
    se = np.sqrt(0.9 * 0.1 / n_sim)
    assert (low + high) / n_sim < 0.10 + 2.5 * se  # at most 0.16 missed
    assert low > 0 and high > 0  # both ends are reached (the interval is not trivially wide)


def test_the_double_bootstrap_measures_a_coverage_shortfall_and_the_correction_removes_it():
    """A statistic the bootstrap-t undercovers (a share over 12 families of very unequal size): the
    measured coverage of the plain interval falls short of its level, the corrected interval's does
    not (held out), and the corrected interval is wider."""
    rng = np.random.default_rng(5)
    sizes = np.array([1, 1, 1, 1, 1, 1, 2, 2, 3, 6, 10, 20])
    fam = np.repeat(np.arange(12), sizes)
    x = (rng.random(len(fam)) < np.clip(rng.beta(1, 3, 12), 0, 1)[fam]).astype(float)
    res = CB.run([CB.ratio_stat(x, fam)], B=20_000, seed=2, replicates=4, n_out=2000, n_in=200)
    cov = res.coverage(np.array([0.05]))
    assert cov["plain"][0] < 0.95 - 2 * cov["plain_se"][0]
    assert cov["corrected"][0] > cov["plain"][0] and cov["corrected"][0] >= 0.95 - 2 * cov["corrected_mc_se"][0]
    lo_p, hi_p = res.interval_at(np.array([0.05]), calibrate=False)
    lo_c, hi_c = res.interval_at(np.array([0.05]))
    assert lo_c[0] <= lo_p[0] and hi_c[0] >= hi_p[0] and (hi_c - lo_c)[0] > (hi_p - lo_p)[0]


def test_the_working_scale_is_fisher_z_of_the_range_with_its_delta_method_se():
    """A mean correlation and a share: z is Fisher's z, atanh (of the range rescaled to [-1, 1]), its SE
    the derivative times the SE (checked by a finite difference), and the ends map back."""
    fam = np.arange(4)
    corr = replace(CB.ratio_stat(np.array([0.1, 0.5, 0.7, 0.9]), fam), bounds=(-1.0, 1.0))
    share = replace(CB.ratio_stat(np.array([0.0, 1.0, 1.0, 0.0]), fam), bounds=(0.0, 1.0))
    m, se = np.array([[0.8, 0.3]]), np.array([[0.05, 0.1]])
    z, sz = CB.to_work([corr, share], m, se)
    assert z[0, 0] == pytest.approx(np.arctanh(0.8))
    assert z[0, 1] == pytest.approx(0.5 * np.log(0.3 / 0.7))  # half the logit
    h = 1e-6
    zh, _ = CB.to_work([corr, share], m + h, se)
    np.testing.assert_allclose(sz[0], se[0] * (zh[0] - z[0]) / h, rtol=1e-4)
    assert CB.from_work(corr, z[0, 0]) == pytest.approx(0.8) and CB.from_work(share, z[0, 1]) == pytest.approx(0.3)


def test_an_outlying_family_does_not_drag_an_interval_end_out_of_the_range():
    """A mean correlation of 0.78 over 30 families, two of them at -0.9: the resamples that drop them
    have a tiny se*, and the plain bootstrap-t's 99% lower end runs below every family's value (to the
    range's end, -1); on the working scale with the floor on se* it stays within the families' values."""
    rng = np.random.default_rng(3)
    x = np.concatenate([np.clip(rng.normal(0.9, 0.03, 28), -1, 1), [-0.9, -0.9]])
    st = replace(CB.ratio_stat(x, np.arange(30)), bounds=(-1.0, 1.0))
    res = CB.run([st], B=20_000, seed=1, replicates=2, n_out=40, n_in=20)
    lo, hi = res.interval_at(np.array([0.01]), calibrate=False)
    # the heavy lower tail is kept (the counted coverage needs it: no floor on se*), within the range
    assert -1.0 <= lo[0] < res.estimate[0] < hi[0] <= 1.0 and lo[0] < x.min()


def test_power_to_decide_matches_the_normal_approximation_and_grows_with_families():
    """Independent tasks (one per family) with a share of 0.5 against a paper's 0.24 and margin 0.1:
    deciding needs the lower end p - t_{G-1} sqrt(p (1 - p) / (G - 1)) above 0.24, with p = X / G
    and X ~ Binomial(G, 0.5): the exact power by summing the binomial (scipy) is the oracle."""
    x = np.r_[np.ones(200), np.zeros(200)]  # a share of exactly 0.5
    st = CB.ratio_stat(x, np.arange(400))
    grid = np.array([20, 60, 200])
    _, pw = CB.power_curve(st, 0.24, 0.10, 0.05, seed=1, reps=4000, grid=grid)
    want = []
    for G in grid:
        k = np.arange(G + 1)
        p = k / G
        lo = p - stats.t.ppf(0.975, G - 1) * np.sqrt(p * (1 - p) / (G - 1))
        want.append(stats.binom.pmf(k, G, 0.5)[lo > 0.24].sum())  # decided: excludes 0.24 (Lakens' "different")
    assert pw == pytest.approx(want, abs=0.03)  # 4000 simulated studies: SE <= 0.008
    assert np.all(np.diff(pw) > 0)
    assert CB.families_for_power(np.array([10, 20, 40]), np.array([0.5, 0.85, 0.9])) == 20
    assert CB.families_for_power(np.array([10, 20, 40]), np.array([0.9, 0.7, 0.9])) == 40
    assert np.isnan(CB.families_for_power(np.array([10, 20]), np.array([0.5, 0.7])))


def test_sensitivity_variants_recompute_the_rows_on_their_tasks():
    per, tasks = _per_task(n_tasks=60, n_families=30)
    tasks["pi"] = np.where(np.arange(60) < 40, 0.4, 0.2)  # no task below 0.1
    tasks["saturated"] = np.arange(60) % 10 == 0
    sens = SENS.sensitivity_table(per, tasks, n_boot=400, seed=2)
    assert list(sens.columns) == SENS.SENSITIVITY_COLUMNS
    assert sens.variant.unique().tolist() == ["all tasks (saturated as agreement)", "saturated tasks left out",
                                              "pi >= 0.3", "0.1 <= pi < 0.3", "pi < 0.1"]
    unsat = P.primary_statistics(per, tasks, n_boot=400, seed=2, task_ids=tasks.task_id[~tasks.saturated],
                                 power=False).set_index("claim_id")
    got = sens[sens.variant == "saturated tasks left out"].set_index("claim_id")
    assert got.loc["fk.aupr_auroc.top1", "estimate"] == pytest.approx(unsat.loc["fk.aupr_auroc.top1", "estimate"])
    assert got.loc["fk.aupr_auroc.top1", "ci_hi"] == pytest.approx(unsat.loc["fk.aupr_auroc.top1", "ci_hi"])
    assert (got.n_tasks == 54).all()
    low = sens[sens.variant == "0.1 <= pi < 0.3"]
    assert (low.n_tasks == 20).all() and (low.n_families == 20).all()  # tasks 40-59: families f10-f29
    assert (sens[sens.variant == "pi < 0.1"].verdict == "cannot be told: no task").all()
    assert len(sens) == 5 * 14


def test_power_curve_of_one_family_is_unknown_not_an_error():
    """A study of one family (the reduced study's Boyd rows) has no between-family spread to draw
    studies from: the power curve is NaN, and no family count is claimed (it raised ZeroDivisionError)."""
    stat = CB.ratio_stat(np.array([0.1, 0.3, 0.2]), np.zeros(3, dtype=int))
    grid, power = CB.power_curve(stat, 0.0, 0.01, 0.05, seed=0, reps=20)
    assert len(grid) == len(power) and np.isnan(power).all()
    assert not np.isfinite(CB.families_for_power(grid, power))


def test_a_mean_of_rounded_values_matches_its_rounded_estimate_but_a_wrong_one_is_caught():
    """The CSV keeps 6 significant digits of every value and of the estimate: a mean of differences
    (0.002 from values of size 0.1, the OpenML end-to-end study's ``boyd.sec4_1.averaging_optimistic``)
    differs from the mean of the rounded values by more than 6 digits of itself, and must still be
    accepted; an estimate 1% off is refused."""
    cid = "boyd.sec4_1.averaging_optimistic"
    exact = np.random.default_rng(9).normal(0.002, 0.1, 40)  # a draw whose rounding moves the mean by 4e-5 of it
    sig6 = lambda x: float(f"{x:.6g}")  # noqa: E731
    values = pd.DataFrame({"claim_id": cid, "family": [f"f{i % 20}" for i in range(40)],
                           "value": [sig6(x) for x in exact]})
    ev = pd.read_csv(ROOT / "results" / "default" / "tables" / "boyd_evidence.csv")
    ev = ev[ev.claim_id == cid].reset_index(drop=True)
    ev.loc[0, "estimate"] = sig6(exact.mean())
    assert abs(ev.loc[0, "estimate"] - values.value.mean()) > 2e-5 * abs(values.value.mean())  # the CI's case
    got = DIR.direction_rows(ev, values, n_boot=200, seed=0, power=False)
    assert got.loc[0, "n_families"] == 20 and np.isfinite(got.loc[0, "ci_lo"])
    ev.loc[0, "estimate"] = 1.01 * values.value.mean()
    with pytest.raises(InputError, match="is not the mean of its per-task values"):
        DIR.direction_rows(ev, values, n_boot=200, seed=0, power=False)


def test_all_different_is_an_intersection_union_test_over_the_pairs_noise_excess():
    """Flach & Kull's "all significantly different": each pair's mean cross- minus self-disagreement over
    tasks, its p of a difference the largest of the three pairs' (Berger 1982), the row the pair whose
    estimate lies the fewest SEs from 0 (not chosen by the bootstrap's draws: the same under every seed)."""
    per, tasks = _per_task(n_tasks=60, n_families=30)
    rng = np.random.default_rng(4)
    noise = pd.DataFrame([{"task_id": f"t{t:03d}", "metric_a": a, "metric_b": b,
                           "top1_cross_minus_self": shift + 0.05 * rng.standard_normal()}
                          for (a, b), shift in zip(P.PAIRS, (0.06, 0.01, 0.08), strict=True) for t in range(60)])
    rows = {s: P.primary_statistics(per, tasks, n_boot=20_000, seed=s, power=False, noise_pairs=noise)
            .set_index("claim_id").loc[P.ALL_DIFFERENT] for s in (1, 2)}
    stats_, _, _ = P.fk_stats(per, tasks, noise_pairs=noise)
    parts = [(c, s) for c, s in stats_ if c.startswith(P.ALL_DIFFERENT + "|")]
    assert [c.split("|")[1] for c, _ in parts] == ["aupr_auprg", "aupr_auroc", "auprg_auroc"]
    boots = P.bootstrap_claims([(c, s, 60) for c, s in stats_], n_boot=20_000, seed=1)
    mine = [b for b in boots if b.claim_id.startswith(P.ALL_DIFFERENT + "|")]
    p_each = [CB._sub(b.res, b.k).decision_ps(0, 0.0, b.margin)["diff"][0] for b in mine]
    r = rows[1]
    assert r["p_diff"] == pytest.approx(max(p_each))
    # the weakest pair (AUPR-AUROC, shifted by 0.01) is shown, under either seed
    want = noise[(noise.metric_a == "aupr") & (noise.metric_b == "auroc")].top1_cross_minus_self.mean()
    assert r["estimate"] == pytest.approx(want) == rows[2]["estimate"]
    assert "weakest pair aupr_auroc" in P._intersection_union(boots, None)[1][P.ALL_DIFFERENT]


def test_a_holm_step_in_doubt_leaves_every_later_step_undecided_on_a_planted_tie():
    # three claims: step 1 clear; steps 2 and 3 share the adjusted p 0.0372 (2 x 0.0186 and 1 x 0.0372); step 2's
    # reruns move its adjusted p by 0.006 (within 2 MC errors of 0.05: in doubt), step 3's own reruns do not move
    # it at all (its own MC error 0): Holm rejects step 3 only if it rejects step 2, so step 3 is in doubt too
    ps = [{"decide": (0.001, np.full(4, 0.001))},
          {"decide": (0.0186, np.array([0.010, 0.018, 0.012, 0.0186]))},
          {"decide": (0.0372, np.full(4, 0.0372))}]
    adj, mult, mc = P._holm(ps)
    assert adj == pytest.approx([0.003, 0.0372, 0.0372]) and mult == [3, 2, 1]
    own = [CB.jackknife_se(list(x)) for x in zip(*[REG.holm([p["decide"][1][r] for p in ps])[0] for r in range(4)],
                                                strict=True)]
    assert own[2] == 0.0 and abs(adj[1] - 0.05) <= 2 * own[1]  # the plant: step 2 in doubt, step 3 not by itself
    assert mc[0] == own[0] and mc[1] == own[1] and mc[2] == own[1]  # carried down to the tied later step only
    # the rule reads the later step as borderline (decided before the carry), the first step stays decided
    row = dict(kind="share", role="primary", paper_value=0.24, tolerance=0.10, margin=0.10, estimate=0.42, ci_lo=0.35,
               ci_hi=0.50, n_families=40, mc_error=0.0, p_diff=0.001, p_equiv=1.0, p_beyond=0.004, alpha_used=0.05,
               p_diff_mc=1e-4, p_equiv_mc=0.0, p_beyond_mc=1e-4, p_holm=adj[2])
    assert RULE.decide({**row, "p_holm_mc": own[2]})[0].startswith(RULE.BEYOND)
    assert RULE.decide({**row, "p_holm_mc": mc[2]})[0] == RULE.BORDERLINE
    assert RULE.decide({**row, "p_holm": adj[0], "p_holm_mc": mc[0]})[0].startswith(RULE.BEYOND)
    # a later step whose adjusted p is above alpha stays undecided (inconclusive), not borderline by the carry
    carried = REG.holm_carried_mc([0.0372, 0.2], [0.01, 0.0])[1]
    assert carried == 0.01 and RULE.decide({**row, "p_holm": 0.2, "p_holm_mc": carried})[0].startswith(RULE.INCONCLUSIVE)


def test_a_share_every_task_gives_alike_is_decided_by_exact_tests_over_families():
    """Section 4.1's share with every task 0 (issue 80.7): exact binomial p-values over its families (no spread
    for the sign-flip test), in Boyd et al.'s Holm family; its interval the Clopper-Pearson one at its Holm
    level, which inverts those tests; no counted coverage (an exact interval: NaN, not 1.000 with MC SE 0)."""
    from scipy import stats as st

    n, m = 58, 0.05
    ps = RULE.exact_share_ps(0, n, 0.0, m)
    assert ps["diff"] == 1.0 and ps["beyond"] == 1.0 and ps["equiv"] == pytest.approx(2 * (1 - m) ** n)
    # a share inside (0, 1): the tails are scipy's binomial ones, doubled
    ps2 = RULE.exact_share_ps(12, 40, 0.24, m)
    assert ps2["diff"] == pytest.approx(min(1, 2 * min(st.binom.sf(11, 40, 0.24), st.binom.cdf(12, 40, 0.24))))
    assert ps2["equiv"] == pytest.approx(min(1, 2 * max(st.binom.sf(11, 40, 0.19), st.binom.cdf(12, 40, 0.29))))
    a = 0.025
    lo, hi = RULE.clopper_pearson(0, n, 1 - a)
    assert lo == 0.0 and 2 * st.binom.cdf(0, n, hi) == pytest.approx(a)  # the interval inverts the test
    cid = "boyd.sec4_1.averaging_optimistic"
    values = pd.DataFrame({"claim_id": cid, "family": [f"f{i % 30}" for i in range(45)], "value": 0.0})
    ev = pd.read_csv(ROOT / "results" / "default" / "tables" / "boyd_evidence.csv")
    ev = ev[ev.claim_id == cid].reset_index(drop=True)
    ev.loc[0, "estimate"] = 0.0
    got = DIR.direction_rows(ev, values, n_boot=200, seed=0, power=False).iloc[0]
    assert got["p_equiv"] == pytest.approx(2 * (1 - m) ** 30) and got["p_diff"] == 1.0
    want = RULE.clopper_pearson(0, 30, 1 - got["alpha_used"])
    assert (got["ci_lo"], got["ci_hi"]) == pytest.approx(want) and got["level"] == pytest.approx(1 - got["alpha_used"])
    assert np.isnan(got["oracle_coverage"]) and np.isnan(got["coverage_mc_se"]) and np.isnan(got["procedure_coverage"])
    assert "99.78" not in got["detail"] and "Clopper-Pearson" in got["detail"] and "Holm level" in got["detail"]
    v = RULE.apply_rule(pd.DataFrame([got])).iloc[0]
    assert v["verdict"].startswith(RULE.INCONCLUSIVE) and not v["by_construction"]


def test_claims_that_follow_from_theorem_1_are_marked_by_construction():
    built = {c for c in REG.primary_ids() if REG.by_construction(c)}
    assert built == {"boyd.sec4_3.aupr_rises", "boyd.sec4_3.gap_grows_with_pi", "boyd.sec4_3.aucnpr_still_moves"}
    assert REG.by_construction("boyd.thm1") == ""  # an implementation check is one already, not a primary claim
    ev = pd.read_csv(ROOT / "results" / "default" / "tables" / "boyd_evidence.csv")
    v = RULE.apply_rule(ev[ev.claim_id.isin(["boyd.sec4_3.aupr_rises", "boyd.sec4_3.aucnpr_moves_less"])])
    flags = dict(zip(v.claim_id, v.by_construction, strict=True))
    assert flags == {"boyd.sec4_3.aupr_rises": True, "boyd.sec4_3.aucnpr_moves_less": False}
    why = v.set_index("claim_id").loc["boyd.sec4_3.aupr_rises", "explanation"]
    assert "by construction, not a finding" in why and "Theorem 1" in why

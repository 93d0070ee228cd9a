"""Flach & Kull's primary evidence (prspace.verdicts.primary): estimates, the paired family
bootstrap, its Monte Carlo error, its coverage, and the stability of the committed studies' verdicts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from prspace.core import claims as REG
from prspace.core.errors import InputError
from prspace.stats.intervals import mc_method, percentile_interval
from prspace.verdicts import primary as P
from prspace.verdicts import rule as R

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
        got = P.weighted_quantiles(x, w.astype(float), q)
        assert np.isnan(got[0])
        want = [np.quantile(np.repeat(x, row), q) for row in w[1:]]
        assert got[1:] == pytest.approx(want, rel=0, abs=1e-14)


def test_estimates_are_the_plain_statistics_of_the_tasks():
    per, tasks = _per_task()
    per.loc[(per.metric_a == "aupr") & (per.metric_b == "auprg") & (per.task_id == "t005"), "spearman"] = np.nan
    st = P.primary_statistics(per, tasks, n_boot=300, seed=0).set_index("claim_id")
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
    assert set(st.index) == {c for c in REG.primary_ids() if c.startswith("fk.")}
    assert (st.n_families == 20).all() and (st.n_tasks == 40).all()
    assert (st.level == REG.primary_level()).all() and (st.ci_lo <= st.estimate + 1e-12).all()


def test_a_subset_of_tasks_is_the_same_as_the_table_cut_to_it():
    per, tasks = _per_task()
    keep = [f"t{t:03d}" for t in range(0, 40, 3)]
    a = P.primary_statistics(per, tasks, n_boot=400, seed=3, task_ids=keep)
    b = P.primary_statistics(per[per.task_id.isin(keep)], tasks, n_boot=400, seed=3)
    pd.testing.assert_frame_equal(a, b)
    assert a.n_tasks.iloc[0] == len(keep)


def test_missing_pair_is_refused_naming_the_fix():
    per, tasks = _per_task()
    with pytest.raises(InputError, match="no rows for the pair aupr, auroc"):
        P.primary_statistics(per[per.metric_b != "auroc"], tasks, n_boot=10, seed=0)
    with pytest.raises(InputError, match="lack a row for one of the pairs"):
        P.primary_statistics(per.drop(index=[0]), tasks, n_boot=10, seed=0)


def _normal_ends(B, reps, level, seed=0):
    rng = np.random.default_rng(seed)
    ends, est = [], []
    for _ in range(reps):
        lo, hi, mlo, mhi = percentile_interval(rng.standard_normal((B, 1)), level)
        ends.append((lo[0], hi[0]))
        est.append((mlo[0], mhi[0]))
    return np.std(ends, axis=0, ddof=1), np.mean(est, axis=0)


@pytest.mark.parametrize(("B", "level", "reps", "method"), [
    (200_000, REG.primary_level(), 80, "20 batches"),  # the primary rows at the default B
    (1_000, 0.95, 400, "order statistics"),  # the skew rows' 95% intervals at analysis.n_boot
])
def test_mc_error_of_an_end_matches_its_spread_over_independent_bootstraps_normal(B, level, reps, method):
    """MC error of the ends, N(0, 1) replicates: against the closed form sqrt(p (1 - p) / B) / phi(z_p)
    and the SD of the end over independent sets of replicates."""
    assert mc_method(B, level) == method
    p = (1 - level) / 2
    closed = np.sqrt(p * (1 - p) / B) / stats.norm.pdf(stats.norm.ppf(p))
    sd, est = _normal_ends(B, reps, level)
    assert sd == pytest.approx([closed, closed], rel=0.25)  # the SD over the sets is itself known to about 8%
    assert est == pytest.approx([closed, closed], rel=0.15)


def test_with_few_replicates_beyond_the_end_the_mc_error_errs_large():
    level = REG.primary_level()
    sd, est = _normal_ends(4000, 300, level)  # five replicates beyond each end
    assert mc_method(4000, level) == "order statistics"
    assert (est > sd).all() and (est < 2 * sd).all()


@pytest.mark.slow
def test_mc_error_matches_the_spread_over_seeds_on_a_committed_study():
    """On the default study's own tables (lumpy bootstrap distributions of shares over 35 families): the
    mean batch estimate against the SD of each end over 16 seeds (B = 20,000); the SD over 16 seeds is
    itself known to about 18% only, so the check is on the average over the 28 ends."""
    t = ROOT / "results" / "default" / "tables"
    per, tasks = pd.read_csv(t / "disagreement_per_task.csv"), pd.read_csv(t / "tasks.csv")
    runs = [P.primary_statistics(per, tasks, n_boot=20_000, seed=s) for s in range(16)]
    lo = np.array([r.ci_lo.to_numpy() for r in runs])
    hi = np.array([r.ci_hi.to_numpy() for r in runs])
    sd = np.concatenate([lo.std(axis=0, ddof=1), hi.std(axis=0, ddof=1)])
    est = np.concatenate([np.mean([r.mc_lo for r in runs], axis=0), np.mean([r.mc_hi for r in runs], axis=0)])
    ok = sd > 0
    assert 0.6 < est[ok].mean() / sd[ok].mean() < 1.6


def _coverage(level, n_boot, n_sim, seed):
    """Simulated studies under a known truth: 35 families of 1-3 tasks whose top-1 probability is
    Beta(2, 5) (true share 2/7); misses of fk.aupr_auprg.top1's interval below / above the truth."""
    rng = np.random.default_rng(seed)
    truth = 2 / 7
    low = high = 0
    for s in range(n_sim):
        sizes = rng.integers(1, 4, size=35)
        fam = np.repeat(np.arange(35), sizes)
        p = rng.beta(2, 5, size=35)[fam]
        n = len(fam)
        per = pd.DataFrame([{"task_id": f"t{t}", "metric_a": a, "metric_b": b, "top1_differs": bool(rng.random() < p[t]),
                             "top3_differs": False, "spearman": 0.9} for a, b in P.PAIRS for t in range(n)])
        tasks = pd.DataFrame({"task_id": [f"t{t}" for t in range(n)], "family": fam.astype(str)})
        r = P.primary_statistics(per, tasks, n_boot=n_boot, seed=s, level=level).set_index("claim_id").loc["fk.aupr_auprg.top1"]
        low += truth < r.ci_lo
        high += truth > r.ci_hi
    return low, high


def test_the_family_bootstrap_covers_the_true_share_at_90_percent():
    n_sim = 300
    low, high = _coverage(0.90, 1000, n_sim, seed=11)
    se = np.sqrt(0.9 * 0.1 / n_sim)
    assert (low + high) / n_sim < 0.10 + 3 * se  # at most 0.152 missed
    assert low > 0 and high > 0  # both ends are reached (the interval is not trivially wide)


@pytest.mark.slow
def test_the_family_bootstrap_covers_the_true_share_at_the_primary_level():
    """Nominal miss rate 0.0025: 300 studies expect 0.75 misses; more than 4 has probability 0.001 under it.
    (With B = 1,000 the ends sit on the first two order statistics and miss about 0.9%: hence the large B.)"""
    low, high = _coverage(REG.primary_level(), 10_000, 300, seed=12)
    assert low + high <= 4


def _primary_verdicts(study, seed, n_boot=P.DEFAULT_N_BOOT):
    t = ROOT / "results" / study / "tables"
    per, tasks = pd.read_csv(t / "disagreement_per_task.csv", dtype={"task_id": str}), pd.read_csv(t / "tasks.csv")
    return R.apply_rule(R.evidence_frame(P.primary_rows(per, tasks, n_boot=n_boot, seed=seed))).set_index("claim_id")


@pytest.mark.slow
@pytest.mark.parametrize("study", STUDIES)
def test_committed_primary_verdicts_do_not_move_with_the_seed(study):
    """Five seeds of the default B on a committed study's tables: the same verdict for every primary row,
    and every interval end's MC error <= 0.002 (what DEFAULT_N_BOOT is chosen for)."""
    runs = [_primary_verdicts(study, seed) for seed in (0, 1, 2, 3, 4)]
    for r in runs[1:]:
        pd.testing.assert_series_equal(r["verdict"], runs[0]["verdict"])
    assert max(r["mc_error"].max() for r in runs) <= P.MC_TARGET
    spread = np.ptp([r["ci_lo"].to_numpy() for r in runs], axis=0)
    assert spread.max() < 5 * P.MC_TARGET


def test_sensitivity_variants_recompute_the_rows_on_their_tasks():
    per, tasks = _per_task(n_tasks=60, n_families=30)
    tasks["pi"] = np.where(np.arange(60) < 40, 0.4, 0.2)  # no task below 0.1
    tasks["saturated"] = np.arange(60) % 10 == 0
    sens = P.sensitivity_table(per, tasks, n_boot=400, seed=2)
    assert list(sens.columns) == P.SENSITIVITY_COLUMNS
    assert sens.variant.unique().tolist() == ["all tasks (saturated as agreement)", "saturated tasks left out",
                                              "pi >= 0.3", "0.1 <= pi < 0.3", "pi < 0.1"]
    unsat = P.primary_statistics(per, tasks, n_boot=400, seed=2, task_ids=tasks.task_id[~tasks.saturated]).set_index("claim_id")
    got = sens[sens.variant == "saturated tasks left out"].set_index("claim_id")
    assert got.loc["fk.aupr_auroc.top1", "estimate"] == pytest.approx(unsat.loc["fk.aupr_auroc.top1", "estimate"])
    assert got.loc["fk.aupr_auroc.top1", "ci_hi"] == pytest.approx(unsat.loc["fk.aupr_auroc.top1", "ci_hi"])
    assert (got.n_tasks == 54).all()
    low = sens[sens.variant == "0.1 <= pi < 0.3"]
    assert (low.n_tasks == 20).all() and (low.n_families == 20).all()  # tasks 40-59: families f10-f29
    assert (sens[sens.variant == "pi < 0.1"].verdict == "cannot be told: no task").all()
    assert len(sens) == 5 * 14

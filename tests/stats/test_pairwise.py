"""Comparisons of all pairs (prspace.stats.pairwise, prspace.audit.inference.audit_pairwise) and the vectorised audit bootstrap.

Calibration by simulation: 10 exchangeable models (a shared latent score per row plus
independent noise per model, the same distribution for every model, so every population
metric is equal) -> the family-wise error (any pair declared different) of DeLong-Holm and
of the bootstrap max-T, over 400 simulations, is at most 0.05 + 2 Monte Carlo SE; power on a
planted gap.  The bootstrap replicates come from the audit's own count bootstrap
(prspace.stats.replicates.bootstrap), so the audit's path is what is calibrated.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from prspace import audit
from prspace import metrics as M
from prspace.audit.inference import audit_blocks
from prspace.audit.inference.audit_pairwise import PAIRWISE_COLUMNS, SHORT, block_decisions
from prspace.audit.inference.audit_ranksets import DECISIONS
from prspace.audit.inference.tables import LABELS
from prspace.cli import main
from prspace.stats.delong import delong
from prspace.stats.pairwise import (
    BOOT_MAX_T,
    BOOT_Z,
    CALIBRATION_NULL,
    DELONG_HOLM,
    JACK_HOLM,
    MEASURED_NULL_FWER,
    bootstrap_pairs,
    calibration_note,
    delong_pairs,
    holm,
    jackknife_pairs,
)
from prspace.stats.ranksets import rank_sets, rank_sets_from_bounds
from prspace.stats.replicates import (
    BOOT_METRICS,
    DELETE_ONE_ROWS,
    MIN_GROUPS,
    Block,
    bootstrap,
    jackknife,
    stable_groups,
)
from prspace.stats.resampling import StratumSampler, jackknife_groups

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "audit-example.csv"


def _loop_bootstrap(block: Block, *, n_boot: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The audit's bootstrap before vectorisation (one resample and one model at a time), verbatim,
    also returning the counts it drew: the reference of the vectorised one."""
    sampler = StratumSampler(block.stratum, rng)
    order = sampler.order
    y = block.y[order].astype(np.int64)
    weight = block.weight[order]
    unit = bool(np.all(weight == 1.0))
    keys = [(2 * g[order] + y) for g in block.groups]
    sizes = [2 * (int(g.max()) + 1) for g in block.groups]
    out = np.empty((n_boot, len(block.models), len(BOOT_METRICS)))
    drawn = []
    for b in range(n_boot):
        c = sampler.counts()
        drawn.append(c.copy())
        if not unit:
            c *= weight
        for k, key in enumerate(keys):
            both = np.bincount(key, weights=c, minlength=sizes[k]).reshape(-1, 2)
            try:
                m = M.metrics_from_group_counts(both[:, 1], both[:, 0])
            except ValueError:
                out[b, k] = np.nan
                continue
            out[b, k] = [m[name] for name in BOOT_METRICS]
    return out, np.array(drawn)


def _block(y: np.ndarray, scores: np.ndarray, weight: np.ndarray | None = None,
           stratum: np.ndarray | None = None) -> Block:
    groups = [np.unique(-s, return_inverse=True)[1].ravel() for s in scores]
    st = y.astype(np.int64) if stratum is None else stratum
    w = np.ones(y.size) if weight is None else weight
    return Block("t", [f"m{i}" for i in range(len(scores))], y, st, w, groups, list(scores))


# --------------------------------------------------------------------------- the vectorised bootstrap


@pytest.mark.parametrize("weighted", [False, True])
def test_vectorised_bootstrap_draws_the_loops_resamples(weighted):
    """Same seed -> the same random stream: the counts are bit-identical to the loop's, and the
    replicates equal the loop's to the last bits of summation order (the batch kernel sums the
    segments in another order than the row-wise one, <= 1e-15)."""
    rng = np.random.default_rng(11)
    n = 301
    y = rng.random(n) < 0.2
    scores = np.round(y * 0.8 + rng.standard_normal((4, n)), 1)  # many ties
    fold = rng.integers(0, 3, n)
    weight = np.where(rng.random(n) < 0.8, 1.0, rng.uniform(0, 3, n)) if weighted else None
    block = _block(y, scores, weight, stratum=2 * fold + y)
    ref, drawn = _loop_bootstrap(block, n_boot=97, rng=np.random.default_rng(5))
    sampler = StratumSampler(block.stratum, np.random.default_rng(5))
    batch = np.vstack([sampler.counts_batch(40), sampler.counts_batch(57)])
    assert np.array_equal(batch, drawn)
    got = bootstrap(block, n_boot=97, rng=np.random.default_rng(5), chunk=13)
    assert np.array_equal(np.isnan(got), np.isnan(ref))
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-14)
    # the generator is left where the loop leaves it (the next block's draws are unchanged)
    r1, r2 = np.random.default_rng(5), np.random.default_rng(5)
    _loop_bootstrap(block, n_boot=9, rng=r1)
    bootstrap(block, n_boot=9, rng=r2, chunk=4)
    assert r1.random() == r2.random()


def test_vectorised_bootstrap_one_class_resample_is_nan():
    """A resample that draws only zero-weight positives has no positives: NaN, as in the loop."""
    y = np.array([True, True, False, False, False, False])
    scores = np.array([[0.9, 0.1, 0.5, 0.4, 0.3, 0.2], [0.2, 0.8, 0.5, 0.4, 0.3, 0.1]])
    block = _block(y, scores, weight=np.array([1.0, 0.0, 1, 1, 1, 1]))
    ref, _ = _loop_bootstrap(block, n_boot=50, rng=np.random.default_rng(0))
    got = bootstrap(block, n_boot=50, rng=np.random.default_rng(0))
    assert np.isnan(ref).any()
    assert np.array_equal(np.isnan(got), np.isnan(ref))
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-14)


# --------------------------------------------------------------------------- the procedures


def test_holm_matches_the_definition():
    p = np.array([0.01, 0.04, 0.03, 0.005, np.nan])
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 -> 0.02, 0.03, 0.06, 0.04 -> running max
    np.testing.assert_allclose(holm(p), [0.03, 0.06, 0.06, 0.02, np.nan])
    assert np.all(holm(np.array([0.5, 0.9, 0.7])) == 1.0)


def test_delong_pairs_raw_p_is_delongs_paired_test_and_critical_is_between_bounds():
    rng = np.random.default_rng(3)
    n, k = 400, 6
    y = rng.random(n) < 0.3
    scores = y * np.linspace(0.4, 1.2, k)[:, None] + rng.standard_normal((k, n))
    est, cov = delong(y, scores)
    r = delong_pairs(est, cov, alpha=0.05, n_sim=40_000, seed=0)
    for p, (i, j) in enumerate(itertools.combinations(range(k), 2)):
        se = np.sqrt(cov[i, i] + cov[j, j] - 2 * cov[i, j])
        assert r.diff[p] == pytest.approx(est[i] - est[j])
        assert r.p_raw[p] == pytest.approx(2 * norm.sf(abs(est[i] - est[j]) / se))
    n_pairs = k * (k - 1) // 2
    assert norm.ppf(0.975) < r.critical <= norm.ppf(1 - 0.025 / n_pairs) * 1.01  # Bonferroni, with MC error
    np.testing.assert_allclose(r.hi - r.lo, 2 * r.critical * r.se)
    assert np.array_equal(r.survives, r.p_adjusted < 0.05)
    # two models: the max over one contrast is |N(0, 1)|, c = z_0.975
    two = delong_pairs(est[:2], cov[:2, :2], n_sim=200_000)
    assert two.critical == pytest.approx(norm.ppf(0.975), abs=0.02)


def _romano_wolf_by_loops(d: np.ndarray, se: np.ndarray, tstar: np.ndarray) -> np.ndarray:
    """Romano and Wolf's step-down p-values written out one step at a time (independent oracle)."""
    t = np.abs(d) / se
    order = list(np.argsort(-t, kind="stable"))
    p = np.empty(d.size)
    running = 0.0
    for r, pair in enumerate(order):
        rest = order[r:]
        mx = tstar[:, rest].max(axis=1)
        running = max(running, (1 + np.sum(mx >= t[pair])) / (tstar.shape[0] + 1))
        p[pair] = running
    return p


def test_bootstrap_pairs_step_down_and_intervals_match_their_definitions():
    rng = np.random.default_rng(8)
    k, b = 5, 400
    points = np.array([0.70, 0.69, 0.64, 0.60, 0.55])
    reps = points + 0.02 * rng.standard_normal((b, k)) + 0.02 * rng.standard_normal((b, 1))
    r = bootstrap_pairs(points, reps, alpha=0.05)
    iu, ju = np.triu_indices(k, 1)
    dstar = reps[:, iu] - reps[:, ju]
    se = dstar.std(axis=0, ddof=1)
    tstar = np.abs(dstar - r.diff) / se
    np.testing.assert_allclose(r.se, se)
    np.testing.assert_allclose(r.p_raw, (1 + (tstar >= np.abs(r.diff) / se).sum(axis=0)) / (b + 1))
    np.testing.assert_allclose(r.p_adjusted, _romano_wolf_by_loops(r.diff, se, tstar))
    assert np.all(r.p_adjusted >= r.p_raw)
    # single-step intervals: those of the rank sets
    rs = rank_sets(points, reps, 0.95)
    np.testing.assert_allclose(r.lo, rs.lo[iu, ju])
    np.testing.assert_allclose(r.hi, rs.hi[iu, ju])
    # step-down rejects at least what the intervals exclude
    assert np.all(r.survives[(r.lo > 0) | (r.hi < 0)])


def test_bootstrap_pairs_constant_difference():
    reps = np.random.default_rng(0).standard_normal((50, 1)) * np.ones((1, 3))
    reps[:, 2] += 0.1
    r = bootstrap_pairs(np.array([0.5, 0.5, 0.6]), reps)
    assert list(r.p_adjusted) == [1.0, 0.0, 0.0]
    assert list(r.survives) == [False, True, True]


def test_delong_pairs_without_a_variance_is_nan_not_a_verdict():
    r = delong_pairs(np.array([0.9, 0.5]), np.full((2, 2), np.nan))
    assert np.isnan(r.p_raw).all() and np.isnan(r.lo).all() and not r.any_survives


def test_bad_alpha_is_refused():
    with pytest.raises(ValueError, match="alpha"):
        bootstrap_pairs(np.zeros(2), np.zeros((5, 2)), alpha=1.5)


# --------------------------------------------------------------------------- the jackknife


@pytest.mark.parametrize("weighted", [False, True])
def test_delete_one_jackknife_is_every_metric_without_each_row(weighted):
    """Every replicate of :func:`jackknife` (n <= JACK_GROUPS: delete-one) equals the metrics of the
    rows without that row, computed row-wise by :func:`prspace.metrics.all_metrics`; ties included."""
    rng = np.random.default_rng(3)
    n = 40
    y = rng.random(n) < 0.4
    y[:2] = [True, False]
    scores = np.round(rng.standard_normal((3, n)) + y, 1)  # ties
    w = rng.uniform(0.5, 2.0, n) if weighted else np.ones(n)
    fold = rng.integers(0, 2, n)
    block = _block(y, scores, w, stratum=2 * fold + y)
    reps, strata = jackknife(block)
    order = np.argsort(block.stratum, kind="stable")
    assert reps.shape == (n, 3, len(BOOT_METRICS)) and (strata == block.stratum[order]).all()
    for g, row in enumerate(order):
        keep = np.arange(n) != row
        for k in range(3):
            want = M.all_metrics(y[keep], scores[k][keep], sample_weight=w[keep])
            assert reps[g, k] == pytest.approx([want[m] for m in BOOT_METRICS], rel=1e-9, abs=1e-12)


def test_delete_a_group_jackknife_leaves_every_row_out_once():
    """Above ``max_groups`` rows: about that many groups, within strata, every row left out exactly
    once, the same groups for the same seed; a replicate equals the metrics without its rows."""
    rng = np.random.default_rng(4)
    n = 500
    y = rng.random(n) < 0.3
    scores = rng.standard_normal((2, n)) + y
    block = _block(y, scores)
    groups, of = jackknife_groups(block.stratum, max_groups=50, rng=np.random.default_rng(9))
    assert 48 <= len(groups) <= 52 and set(of) == {0, 1}
    assert np.array_equal(np.sort(np.concatenate(groups)), np.arange(n))
    assert all((block.stratum[g] == s).all() for g, s in zip(groups, of, strict=True))
    # the audit's jackknife (stable_groups): strata above DELETE_ONE_ROWS rows cut into at least
    # MIN_GROUPS groups, smaller strata (the positives of a skewed task) left out row by row
    groups, of = stable_groups(block.stratum, max_groups=50, rng=np.random.default_rng(9))
    sizes = np.bincount(block.stratum)
    for s_ in (0, 1):
        want = sizes[s_] if sizes[s_] <= DELETE_ONE_ROWS else min(sizes[s_], max(MIN_GROUPS, round(50 * sizes[s_] / n)))
        assert (of == s_).sum() == want
    assert np.array_equal(np.sort(np.concatenate(groups)), np.arange(n))
    a, sa = jackknife(block, max_groups=50, rng=np.random.default_rng(9))
    b, _ = jackknife(block, max_groups=50, rng=np.random.default_rng(9))
    assert np.array_equal(a, b) and np.array_equal(sa, of)
    for g in (0, len(groups) - 1):
        keep = np.ones(n, dtype=bool)
        keep[groups[g]] = False
        want = M.all_metrics(y[keep], scores[1][keep])
        assert a[g, 1] == pytest.approx([want[m] for m in BOOT_METRICS], rel=1e-9)
    small = _block(y[:60], scores[:, :60])  # 60 > max_groups rows, strata of at most 50: delete-one, no rng
    g_small, _ = stable_groups(small.stratum, max_groups=50)
    assert len(g_small) == 60
    with pytest.raises(ValueError, match="rng"):
        jackknife(block, max_groups=50)


def test_jackknife_variance_of_auroc_is_delongs():
    """The stratified delete-one jackknife variance of an AUROC difference agrees with DeLong's
    (pROC's) within 2% at n = 300: both estimate the same U-statistic variance."""
    rng = np.random.default_rng(5)
    y = np.zeros(N, dtype=bool)
    y[:90] = True
    scores = (y + rng.standard_normal(N)) + rng.standard_normal((4, N))
    reps, strata = jackknife(_block(y, scores))
    est, cov = delong(y, scores)
    c = BOOT_METRICS.index("auroc")
    r = jackknife_pairs(est, reps[:, :, c], strata)
    dl = delong_pairs(est, cov, n_sim=200)
    assert r.se == pytest.approx(dl.se, rel=0.02)


def test_jackknife_pairs_is_the_stated_rule():
    """p_raw = 2 t_df.sf(|d| / se), se^2 = sum over strata (G_s - 1) / G_s sum (D - mean D)^2, df by
    Welch-Satterthwaite; Holm's adjustment; Bonferroni t intervals; NaN replicates: no test."""
    rng = np.random.default_rng(6)
    reps = rng.normal(size=(30, 3)) * [1.0, 1.5, 2.0] + [0.5, 0.0, 0.2]
    strata = np.r_[np.zeros(10, int), np.ones(20, int)]
    points = np.array([0.6, 0.1, 0.3])
    r = jackknife_pairs(points, reps, strata, alpha=0.1)
    from scipy.stats import t as student_t
    for p, (i, j) in enumerate(zip(r.a, r.b, strict=True)):
        dd = reps[:, i] - reps[:, j]
        v = [(m - 1) / m * ((x - x.mean()) ** 2).sum() for x in (dd[:10], dd[10:]) for m in [x.size]]
        se = np.sqrt(sum(v))
        df = sum(v) ** 2 / (v[0] ** 2 / 9 + v[1] ** 2 / 19)
        assert r.se[p] == pytest.approx(se, rel=1e-12)
        assert r.p_raw[p] == pytest.approx(2 * student_t.sf(abs(points[i] - points[j]) / se, df), rel=1e-10)
        assert r.hi[p] - r.diff[p] == pytest.approx(student_t.isf(0.1 / 6, df) * se, rel=1e-10)
    assert np.allclose(r.p_adjusted, holm(r.p_raw)) and r.method == JACK_HOLM
    bad = reps.copy()
    bad[3, 1] = np.nan
    assert np.isnan(jackknife_pairs(points, bad, strata).p_adjusted).all()


# --------------------------------------------------------------------------- calibration


K, N, PI, N_BOOT = 10, 300, 0.3, 200


def _simulate(rng: np.random.Generator, gap: float = 0.0) -> dict:
    """10 models on the same N rows: a shared latent score (positives shifted by 1 SD) plus
    independent N(0, 1) noise per model; model 0's positives shifted by ``gap`` more."""
    y = np.zeros(N, dtype=bool)
    y[: int(round(PI * N))] = True
    scores = (y + rng.standard_normal(N)) + rng.standard_normal((K, N))
    scores[0] += gap * y
    est, cov = delong(y, scores)
    out = {"DeLong-Holm AUROC": delong_pairs(est, cov, n_sim=2000, seed=1)}
    block = _block(y, scores)
    reps = bootstrap(block, n_boot=N_BOOT, rng=rng)
    jack, strata = jackknife(block)  # delete-one: N rows <= JACK_GROUPS
    points = [M.all_metrics(y, s) for s in scores]
    for c, metric in enumerate(BOOT_METRICS):
        if metric in ("auroc", "average_precision", "aupr", "auprg"):
            est = np.array([p[metric] for p in points])
            out[f"max-T {metric}"] = bootstrap_pairs(est, reps[:, :, c])
            out[f"jackknife-Holm {metric}"] = jackknife_pairs(est, jack[:, :, c], strata)
    return out


N_SIM = 400
MC_SE = np.sqrt(0.05 * 0.95 / N_SIM)
CALIBRATED = ("DeLong-Holm AUROC", "max-T auroc", "max-T auprg", "jackknife-Holm auroc",
              "jackknife-Holm average_precision", "jackknife-Holm aupr", "jackknife-Holm auprg")
#: Measured rates: prspace.stats.pairwise.MEASURED_NULL_FWER (checked below); cause: the bootstrap se of an
#: AP difference is ~9% below its sampling sd (docs/audit.md, "Comparing all pairs").
LIBERAL = ("max-T average_precision", "max-T aupr")


@pytest.fixture(scope="module")
def null_fwer() -> dict[str, float]:
    """Family-wise error of every procedure over the same N_SIM null simulations."""
    rng = np.random.default_rng(2026)
    hits: dict[str, int] = {}
    for _ in range(N_SIM):
        for name, r in _simulate(rng).items():
            hits[name] = hits.get(name, 0) + r.any_survives
    out = {name: h / N_SIM for name, h in hits.items()}
    for name, fwer in out.items():
        print(f"{name}: FWER {fwer:.3f} (Monte Carlo SE {MC_SE:.3f}, {N_SIM} simulations)")
    return out


@pytest.mark.parametrize("name", CALIBRATED)
def test_family_wise_error_under_the_null_of_ten_equal_models(null_fwer, name):
    fwer = null_fwer[name]
    assert fwer <= 0.05 + 2 * MC_SE, (f"{name}: FWER {fwer:.3f} > 0.05 + 2 x Monte Carlo SE {MC_SE:.3f} "
                                      f"({N_SIM} simulations)")


@pytest.mark.xfail(strict=True, reason="the bootstrap max-T is liberal for AP and AUPR at n = 300, pi = 0.3")
@pytest.mark.parametrize("name", LIBERAL)
def test_family_wise_error_of_ap_and_aupr_known_liberal(null_fwer, name):
    """Strict xfail: documents the measured excess (and fails, as a pass, once it is fixed)."""
    fwer = null_fwer[name]
    assert fwer <= 0.05 + 2 * MC_SE, (f"{name}: FWER {fwer:.3f} > 0.05 + 2 x Monte Carlo SE {MC_SE:.3f} "
                                      f"({N_SIM} simulations)")


def test_measured_rates_that_the_audit_prints_are_these_simulations(null_fwer):
    """The rates the audit's warning states (MEASURED_NULL_FWER, AUCNPR deciding as AUPR) are the
    ones of this null, recomputed: a change of the procedure or the simulation fails here."""
    assert CALIBRATION_NULL == {"models": K, "n": N, "pi": PI, "n_resamples": N_BOOT, "n_simulations": N_SIM,
                                "seed": 2026}
    assert null_fwer["max-T average_precision"] == pytest.approx(MEASURED_NULL_FWER["average_precision"], abs=1e-12)
    assert null_fwer["max-T aupr"] == pytest.approx(MEASURED_NULL_FWER["aupr"], abs=1e-12)
    assert MEASURED_NULL_FWER["aucnpr"] == MEASURED_NULL_FWER["aupr"]
    for metric, rate in MEASURED_NULL_FWER.items():
        assert rate > 0.05 + 2 * MC_SE  # only metrics that do not hold the level are listed
        assert f"{rate:.3f} measured at nominal 0.05" in calibration_note(metric)
    for metric in ("auroc", "auprg"):
        assert calibration_note(metric) == "" and null_fwer[f"max-T {metric}"] <= 0.05 + 2 * MC_SE
    assert calibration_note("aupr", DELONG_HOLM) == ""


def test_family_wise_error_of_the_delete_a_group_jackknife():
    """The delete-a-group jackknife (above JACK_GROUPS rows) holds the level too: the same null with
    120 groups (50 of the 90 positives' stratum, 70 of the 210 negatives') instead of 300 single rows,
    every metric, 200 simulations."""
    n_sim = 200
    mc_se = np.sqrt(0.05 * 0.95 / n_sim)
    rng = np.random.default_rng(11)
    y = np.zeros(N, dtype=bool)
    y[: int(round(PI * N))] = True
    hits = np.zeros(len(BOOT_METRICS))
    for _ in range(n_sim):
        scores = (y + rng.standard_normal(N)) + rng.standard_normal((K, N))
        jack, strata = jackknife(_block(y, scores), max_groups=100, rng=rng)
        assert jack.shape[0] == 120
        points = [M.all_metrics(y, s) for s in scores]
        for c, metric in enumerate(BOOT_METRICS):
            hits[c] += jackknife_pairs(np.array([p[metric] for p in points]), jack[:, :, c], strata).any_survives
    for metric, fwer in zip(BOOT_METRICS, hits / n_sim, strict=True):
        print(f"delete-a-group jackknife-Holm {metric}: FWER {fwer:.3f} (Monte Carlo SE {mc_se:.3f}, {n_sim} simulations)")
        assert fwer <= 0.05 + 2 * mc_se, metric


def test_jackknife_rank_sets_contain_the_true_best():
    """The rank sets of AP, AUPR and AUCNPR (the jackknife's Bonferroni intervals, as the audit builds
    them): model 0's positives shifted by 0.3 SD more, a unique best by a small margin; its
    plausible-best set contains it in >= 95% of 200 simulations, for each metric."""
    n_sim = 200
    rng = np.random.default_rng(12)
    y = np.zeros(N, dtype=bool)
    y[: int(round(PI * N))] = True
    hits = {m: 0 for m in MEASURED_NULL_FWER}
    for _ in range(n_sim):
        scores = (y + rng.standard_normal(N)) + rng.standard_normal((K, N))
        scores[0] += 0.3 * y
        jack, strata = jackknife(_block(y, scores))
        points = [M.all_metrics(y, s) for s in scores]
        for metric in hits:
            c = BOOT_METRICS.index(metric)
            r = jackknife_pairs(np.array([p[metric] for p in points]), jack[:, :, c], strata)
            hits[metric] += bool(rank_sets_from_bounds(K, r.lo, r.hi).plausible_best[0])
    for metric, h in hits.items():
        print(f"jackknife rank sets {metric}: true best in {h} of {n_sim}")
        assert h / n_sim >= 0.95, metric


def test_power_on_a_planted_gap():
    """Model 0's positives shifted by 1.2 SD more: population AUROC Phi(2.2 / 2) = 0.864 against
    Phi(1 / 2) = 0.691 for the nine others (a gap of 0.173), at n = 300, pi = 0.3; the pair
    (model 0, model 1) survives in >= 80% of simulations, for every procedure."""
    n_sim, gap = 60, 1.2
    rng = np.random.default_rng(7)
    hits: dict[str, int] = {}
    for _ in range(n_sim):
        for name, r in _simulate(rng, gap).items():
            assert r.a[0] == 0 and r.b[0] == 1
            hits[name] = hits.get(name, 0) + bool(r.survives[0] and r.diff[0] > 0)
    for name, h in hits.items():
        power = h / n_sim
        se = np.sqrt(power * (1 - power) / n_sim)
        print(f"{name}: power {power:.2f} (Monte Carlo SE {se:.3f}, {n_sim} simulations)")
        assert power >= 0.8, f"{name}: power {power:.2f} < 0.8 (Monte Carlo SE {se:.3f}, {n_sim} simulations)"


# --------------------------------------------------------------------------- the audit


def test_audit_pairwise_table_api_and_reports():
    """``AuditResult.pairwise``: DeLong-Holm rows for AUROC whose raw p-values are the paired tests of
    ``comparisons``, jackknife-Holm rows for every metric, bootstrap max-T rows for every metric whose
    intervals give the rank sets."""
    frame = pd.read_csv(EXAMPLE)
    res = audit.audit(frame, label_col="diagnosis", pos_label="malignant", n_boot=200, seed=0)
    t = res.pairwise
    assert list(t.columns) == PAIRWISE_COLUMNS
    k = frame["model"].nunique()
    n_pairs = k * (k - 1) // 2
    assert t.groupby(["metric", "method"]).size().to_dict() == {
        **{(m, BOOT_MAX_T): n_pairs for m in BOOT_METRICS}, **{(m, JACK_HOLM): n_pairs for m in BOOT_METRICS},
        **{(m, BOOT_Z): n_pairs for m in BOOT_METRICS}, ("auroc", DELONG_HOLM): n_pairs}
    # a pair survives when its test rejects and its simultaneous interval excludes 0 (issue 59: one answer)
    assert (t["survives"] == ((t["p_adjusted"] < 0.05) & ((t["lo"] > 0) | (t["hi"] < 0)))).all()
    assert (t["p_adjusted"] >= t["p_raw"] - 1e-15).all() and (t["lo"] <= t["diff"]).all()
    cmp = res.comparisons[res.comparisons["method"] == "DeLong paired"].set_index(["model_a", "model_b"])
    for r in t[(t["method"] == DELONG_HOLM) & (t["role"] == "cross-check")].to_dict("records"):  # uncorrected
        assert r["p_raw"] == pytest.approx(cmp.loc[(r["model_a"], r["model_b"]), "p_value"], rel=1e-12)
    # one procedure decides per metric, by the rule; the rank sets are its decisions
    block = audit_blocks.blocks(res.data)[0][0]
    rule = block_decisions(block, bootstrapped=True)
    for metric in BOOT_METRICS:
        g = t[t["metric"] == metric]
        dec = g[g["role"] == "decides"]
        assert set(g["role"]) <= {"decides", "cross-check"}
        if rule[metric].method is None:
            assert not len(dec) and (g["note"] == rule[metric].why()).all()
            continue
        assert set(dec["method"]) == {rule[metric].method} and len(dec) == n_pairs, metric
        beaten = set(dec.loc[dec["survives"] & (dec["diff"] > 0), "model_b"]) | set(
            dec.loc[dec["survives"] & (dec["diff"] < 0), "model_a"])
        rs = res.rank_sets[res.rank_sets["metric"] == metric]
        assert beaten == set(rs.loc[~rs["plausible_best"], "model"]), metric
    text, md, page = res.to_text(), res.to_markdown(), res.to_html(figures={})
    for report in (text, md, page):
        flat = " ".join(report.split())  # the text report wraps its lines
        assert "survive the comparison of all pairs" in flat
        # one line per metric: the deciding procedure's, or "cannot decide"
        for metric in BOOT_METRICS:
            label = LABELS[metric]
            n_lines = sum(len(re.findall(rf"{label} \({s}\): \d+ of \d+ pairs differ", flat)) for s in SHORT.values())
            n_lines += flat.count(f"{label}: cannot decide:")
            assert n_lines == 1, (metric, n_lines)


def test_audit_pairwise_without_pairing_or_bootstrap():
    frame = pd.read_csv(EXAMPLE)
    res0 = audit.audit(frame, label_col="diagnosis", pos_label="malignant", n_boot=0)
    none = res0.pairwise
    assert set(none["method"]) == {DELONG_HOLM, JACK_HOLM}
    # without a bootstrap the max-T never decides; the rank sets follow what does
    assert set(none.loc[none["role"] == "decides", "method"]) <= {DELONG_HOLM, JACK_HOLM}
    rs = res0.rank_sets
    assert (rs["method"].str.endswith(DECISIONS) | rs["method"].str.startswith("not computed: cannot decide")).all()
    apart = frame.assign(row_id=frame["row_id"] + np.where(frame["model"] == frame["model"].iloc[0], 10_000, 0))
    res = audit.audit(apart, label_col="diagnosis", pos_label="malignant", n_boot=50)
    assert len(res.pairwise) == 0 and "pairs differ" not in res.to_text()


def test_pairwise_csv_after_cli_audit(tmp_path, capsys):
    out = tmp_path / "out"
    rc = main(["audit", str(EXAMPLE), "--label-col", "diagnosis", "--pos-label", "malignant",
               "--bootstrap", "100", "--out", str(out)])
    assert rc in (0, 1)
    t = pd.read_csv(out / "pairwise.csv")
    assert {"task", "metric", "model_a", "model_b", "diff", "p_raw", "p_adjusted", "lo", "hi", "survives",
            "method", "level", "note"} <= set(t.columns)
    assert not t.duplicated(["task", "metric", "method", "model_a", "model_b"]).any()
    assert "pairs differ" in capsys.readouterr().out

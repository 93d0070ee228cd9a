"""The simulations' fast scoring (experiments.noise.sim_metrics, metrics_from_untied_counts_batch, keys)
equals the computation it replaced, bit for bit, on small seeded cases."""

from __future__ import annotations

import platform

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from prspace import metrics as M
from prspace.core.memory import keep_freed_memory
from prspace.experiments.noise import noise_calibration as C
from prspace.experiments.noise import noise_floor as NF
from prspace.experiments.noise import rank_sets as RS
from prspace.experiments.noise import sim_metrics as SM
from prspace.stats.pairwise import JACK_HOLM, rank_set_method, rank_sets_by_rule
from prspace.stats.resampling import (
    JACK_GROUPS,
    jackknife_groups,
    jackknife_weights,
    uniform_counts,
)

METRICS = ["aupr", "auprg", "auroc"]


def _old_scored_metrics(scores, yf, counts, metrics):
    """The scoring before the fast path: every metric of every resample through the per-group counts."""
    k, n_boot = len(scores), counts.shape[0]
    full = {m: np.zeros(k) for m in metrics}
    boot = {m: np.zeros((n_boot, k)) for m in metrics}
    for j, s in enumerate(scores):
        _, group = np.unique(-s, return_inverse=True)
        g = int(group.max()) + 1
        res = M.metrics_from_group_counts(np.bincount(group, yf, g), np.bincount(group, 1 - yf, g))
        res_b = M.metrics_from_group_counts_batch(*NF.group_counts(counts, group, yf, g))
        for m in metrics:
            full[m][j] = res[m]
            boot[m][:, j] = res_b[m]
    return full, boot


def _task(seed, n_pos=23, n_neg=61, k=3, n_boot=40):
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, dtype=bool), np.zeros(n_neg, dtype=bool)]
    yf = y.astype(np.float64)
    scores = np.array([yf * (1.0 + 0.3 * j) + rng.standard_normal(y.size) * (1 + 3 * (j % 2)) for j in range(k)])
    return y, yf, scores, uniform_counts(y, n_boot, rng)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_untied_kernel_equals_the_group_count_kernel_bit_for_bit(seed):
    y, yf, scores, w = _task(seed)
    jack = jackknife_weights(jackknife_groups(y.astype(np.int64), max_groups=30,
                                              rng=np.random.default_rng(seed))[0], y.size)
    for counts in (w, jack):
        for s in scores:
            _, first, group = np.unique(-s, return_index=True, return_inverse=True)
            ref = M.metrics_from_group_counts_batch(*NF.group_counts(counts, group, yf, y.size))
            for keys in (None, METRICS, ["auprg"], ["aucnpr", "average_precision"]):
                got = M.metrics_from_untied_counts_batch(counts, yf, first, keys)
                assert set(got) == (set(ref) if keys is None else {*keys, "pi", "n_pos", "n_neg"})
                for m, v in got.items():
                    np.testing.assert_array_equal(v, ref[m], err_msg=m)
                sub = M.metrics_from_group_counts_batch(*NF.group_counts(counts, group, yf, y.size), keys)
                for m, v in sub.items():
                    np.testing.assert_array_equal(v, ref[m], err_msg=m)
    # an oracle nobody here wrote: scikit-learn's weighted AUROC of one resample
    _, first, _ = np.unique(-scores[0], return_index=True, return_inverse=True)
    got = M.metrics_from_untied_counts_batch(w, yf, first, ["auroc"])["auroc"]
    assert got[3] == pytest.approx(roc_auc_score(y, scores[0], sample_weight=w[3]), abs=1e-12)


def test_stacked_rankings_equal_one_at_a_time():
    tasks = [_task(seed) for seed in range(4)]
    yf = tasks[0][1]
    orders = np.array([np.unique(-t[2][1], return_index=True)[1] for t in tasks])
    w = np.stack([t[3] for t in tasks])
    got = M.metrics_from_untied_counts_batch(w, yf, orders, METRICS)
    for s in range(len(tasks)):
        one = M.metrics_from_untied_counts_batch(w[s], yf, orders[s], METRICS)
        for m in METRICS:
            np.testing.assert_array_equal(got[m][s], one[m])


def test_kernels_reject_unknown_keys_and_bad_shapes():
    y, yf, scores, w = _task(0)
    order = np.argsort(-scores[0])
    with pytest.raises(ValueError, match="unknown metric"):
        M.metrics_from_untied_counts_batch(w, yf, order, ["aupr", "f1"])
    with pytest.raises(ValueError, match="one column per row"):
        M.metrics_from_untied_counts_batch(w[:, :-1], yf, order)


@pytest.mark.parametrize("chunk", [SM.CHUNK_CELLS, 1])
def test_scored_metrics_many_equals_the_old_scoring_with_ties_and_chunks(monkeypatch, chunk):
    monkeypatch.setattr(SM, "CHUNK_CELLS", chunk)  # 1: one simulated task per kernel call
    tasks = [_task(seed) for seed in range(3)]
    yf = tasks[0][1]
    scores = np.stack([t[2] for t in tasks])
    scores[1, 2] = np.round(scores[1, 2], 1)  # a tied model: the per-group path
    w = np.stack([t[3] for t in tasks])
    full, boot = SM.scored_metrics_many(scores, yf, w, METRICS)
    for s in range(3):
        f_ref, b_ref = _old_scored_metrics(list(scores[s]), yf, w[s], METRICS)
        for m in METRICS:
            np.testing.assert_array_equal(full[m][s], f_ref[m])
            np.testing.assert_array_equal(boot[m][s], b_ref[m])


def _old_calibration_simulate(n_pos, n_neg, mu_a, sigma_a, mu_b, sigma_b, rho, alpha, pairs, n_sim, n_boot, rng):
    """calibration._simulate before the fast path (one task at a time, every metric)."""
    y = np.r_[np.ones(n_pos, dtype=bool), np.zeros(n_neg, dtype=bool)]
    yf = y.astype(np.float64)
    n = y.size
    metrics = sorted({m for p in pairs for m in p})
    out = {p: [] for p in pairs}
    sd_a, sd_b = np.where(y, sigma_a, 1.0), np.where(y, sigma_b, 1.0)
    for _ in range(n_sim):
        z1 = rng.standard_normal(n)
        z2 = rho * z1 + np.sqrt(1.0 - rho * rho) * rng.standard_normal(n)
        scores = (mu_a * yf + sd_a * z1, mu_b * yf + sd_b * z2)
        w = uniform_counts(y, n_boot, rng)
        full, boot = _old_scored_metrics(scores, yf, w, metrics)
        for a, b in pairs:
            differs, dist = NF.pair_decision(full[a], full[b], boot[a], boot[b], ["A", "B"], 1, alpha)
            sign = (1 if full[a][0] > full[a][1] else -1) if differs else 0
            t = [int(NF.excludes_zero(boot[m][:, 0] - boot[m][:, 1], alpha))
                 - int(NF.excludes_zero(boot[m][:, 1] - boot[m][:, 0], alpha)) for m in (a, b)]
            out[(a, b)].append((differs, bool(dist) if differs else False, sign, t[0], t[1]))
    return out


def test_calibration_simulation_equals_the_old_computation(monkeypatch):
    monkeypatch.setattr(SM, "CHUNK_CELLS", 3 * 60 * 60)  # several chunks of three tasks
    pairs = [("aupr", "auroc"), ("auprg", "auroc")]
    args = (20, 40, 1.2, 1.0, 1.0, 4.0, 0.5, 0.05, pairs, 8, 60)
    new = C._simulate(*args, np.random.default_rng([0, 1, 2]))
    old = _old_calibration_simulate(*args, np.random.default_rng([0, 1, 2]))
    assert new == old
    assert any(r[0] for rows in new.values() for r in rows)  # the case has disagreements to decide


def _old_rank_sets_simulate(y, mus, sigmas, rho, metrics, n_sim, n_boot, confidence, rng):
    """rank_sets._simulate before the fast path."""
    yf = y.astype(np.float64)
    n, k = y.size, len(mus)
    sd = np.where(y[None, :], sigmas[:, None], 1.0)
    best = {m: np.zeros((n_sim, k), dtype=bool) for m in metrics}
    jacked = [m for m in metrics if rank_set_method(m) == JACK_HOLM]
    groups, strata = jackknife_groups(y.astype(np.int64), max_groups=JACK_GROUPS, rng=rng)
    for s in range(n_sim):
        z0 = rng.standard_normal(n)
        z = np.sqrt(rho) * z0[None, :] + np.sqrt(1.0 - rho) * rng.standard_normal((k, n))
        scores = mus[:, None] * yf[None, :] + sd * z
        w = uniform_counts(y, n_boot, rng)
        full, boot = _old_scored_metrics(list(scores), yf, w, metrics)
        jack = _old_scored_metrics(list(scores), yf, jackknife_weights(groups, n), jacked)[1] if jacked else None
        for m in metrics:
            best[m][s] = rank_sets_by_rule(m, full[m], boot[m], None if jack is None else jack.get(m), strata,
                                           confidence).plausible_best
    return best


def test_rank_set_simulation_equals_the_old_computation(monkeypatch):
    monkeypatch.setattr(SM, "CHUNK_CELLS", 2 * 50 * 70)
    y = np.r_[np.ones(25, dtype=bool), np.zeros(45, dtype=bool)]
    args = (y, np.array([1.5, 1.3, 1.0, 0.9]), np.array([1.0, 4.0, 1.0, 1.0]), 0.5, METRICS, 5, 50, 0.95)
    new = RS._simulate(*args, np.random.default_rng([0, 3]))
    old = _old_rank_sets_simulate(*args, np.random.default_rng([0, 3]))
    for m in METRICS:
        np.testing.assert_array_equal(new[m], old[m])
    assert any(rank_set_method(m) == JACK_HOLM for m in METRICS)  # the jackknife path is exercised


def test_population_metrics_keys_equal_the_full_computation():
    full = C.population_metrics(1.1, 4.0, 0.2)
    part = C.population_metrics(1.1, 4.0, 0.2, keys=("aupr", "auprg"))
    assert set(part) == {"aupr", "auprg", "pi", "n_pos", "n_neg"}
    assert all(part[m] == full[m] for m in part)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's mallopt")
def test_glibc_accepts_the_heap_settings():
    assert keep_freed_memory() is True

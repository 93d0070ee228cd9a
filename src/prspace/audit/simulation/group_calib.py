"""Calibration by simulation of the grouped power answer and the grouped curve bands (``--group-col``).

This project's analysis (no paper), in the world of :mod:`prspace.audit.simulation.group_sim` (groups of 3 to 10
rows, intra-group correlation ``icc`` of the scores, a random prevalence per group):

* :func:`audit_detection_rate`: the audit's grouped paired test (grouped jackknife t at the level
  :func:`prspace.audit.inference.audit_pairwise.block_decisions` corrects it to for a grouped block) on fresh samples of a
  world, the share rejecting with model a better: the truth ``prspace power --group-col`` must recover;
* :func:`power_rates`: for one world, ``prspace power``'s grouped answers (:mod:`prspace.audit.simulation.audit_power`)
  from one large sample of the null world (its false rate, either sign, under no difference, and its
  power on a planted shift of a's positives) beside the audit's detection rate in the shifted world;
* :func:`band_coverage`: the pointwise coverage and width of the curve bands
  (:func:`prspace.stats.bands.curve_bands`) with groups resampled and with rows resampled, against the
  world's curves (one very large sample).

Used by ``tests/audit/test_power_groups.py``, ``tests/stats/test_bands_groups.py`` (small sizes) and
``benchmarks/calib_power_groups.py`` (the numbers in ``docs/audit.md``, "Grouped rows").
"""

from __future__ import annotations

import dataclasses

import numpy as np

from prspace.audit.inference.decision import decide
from prspace.audit.simulation.audit_power import (
    Pair,
    detection_rate,
    difference,
    grouped_threshold,
    power_at,
    shift_for,
)
from prspace.audit.simulation.group_sim import World, draw
from prspace.stats.bands import curve_at, curve_bands, default_grid
from prspace.stats.pairwise import jackknife_pairs
from prspace.stats.replicates import BOOT_METRICS, Block, jackknife, point_metrics

__all__ = ["audit_detection_rate", "audit_level", "band_coverage", "false_rate", "pair_of", "power_rates"]

ALPHA = 0.05


def pair_of(block: Block) -> Pair:
    """A grouped sample as :mod:`prspace.audit.simulation.audit_power`'s population (model a against b)."""
    return Pair(block.y, block.scores[0], block.scores[1], g=block.cluster)


def audit_level(block: Block, metric: str, alpha: float = ALPHA, cache: dict | None = None) -> float:
    """The raw threshold at which the audit decides ``metric`` for a grouped ``block`` of two models
    (:func:`prspace.audit.inference.audit_pairwise.block_decisions`: the jackknife-Holm for every metric, at the positives
    and rows of the block; one pair, so Holm's is the raw p-value), cached by the block's sizes."""
    key = (metric, float(block.weight[block.y].sum()), float(block.weight.sum()))
    if cache is not None and key in cache:
        return cache[key]
    level = decide(metric, key[1], key[2], available=("jackknife-Holm",)).raw_threshold(alpha)
    if cache is not None:
        cache[key] = level
    return level


def audit_detection_rate(world: World, metric: str, n_groups: int, sims: int, seed: int,
                         alpha: float = ALPHA) -> tuple[float, float]:
    """The audit's grouped test on ``sims`` fresh samples of ``n_groups`` groups of ``world``: the share
    rejecting with model a better, and its Monte Carlo se."""
    rng = np.random.default_rng(seed)
    col = BOOT_METRICS.index(metric)
    cache: dict = {}
    hits = np.zeros(sims, dtype=bool)
    for s in range(sims):
        block = draw(world, n_groups, rng)
        jack, strata = jackknife(block, rng=rng)
        r = jackknife_pairs(point_metrics(block)[:, col], jack[:, :, col], strata, alpha=alpha)
        hits[s] = bool(r.p_raw[0] < audit_level(block, metric, alpha, cache)) and r.diff[0] > 0
    p = float(hits.mean())
    return p, float(np.sqrt(p * (1 - p) / sims))


def false_rate(population: Pair, metric: str, n_groups: int, sims: int, seed: int,
               alpha: float = ALPHA) -> tuple[float, float]:
    """``prspace power``'s grouped test on planned sets of ``n_groups`` groups of ``population`` with its
    difference planted at 0: the share rejecting with either sign, and its Monte Carlo se."""
    c = shift_for(population, metric, 0.0)
    level = grouped_threshold(population, metric, n_groups, alpha)
    return detection_rate(population, metric, c=c, n_groups=n_groups, alpha=level, sims=sims,
                          rng=np.random.default_rng(seed), sign=0.0)


def power_rates(population: Pair, null: World, metric: str, n_groups: int, shift: float, sims: int, seed: int,
                alpha: float = ALPHA, truth_groups: int = 20_000) -> dict:
    """``prspace power``'s power on the difference of the world whose model a's positives are shifted by
    ``shift`` (planted in ``population``, a sample of ``null``), beside the audit's grouped test's detection
    rate on fresh samples of that world."""
    better = dataclasses.replace(null, d=(null.d[0] + shift, null.d[1]))
    delta = difference(pair_of(draw(better, truth_groups, np.random.default_rng(seed))), metric)
    level = grouped_threshold(population, metric, n_groups, alpha)
    ours, se1 = power_at(population, metric, delta, n_groups=n_groups, alpha=level, sims=sims, seed=seed + 1)
    real, se2 = audit_detection_rate(better, metric, n_groups, sims, seed + 2, alpha)
    return {"metric": metric, "n_groups": n_groups, "delta": delta, "power": ours, "power_se": se1,
            "audit": real, "audit_se": se2}


def band_coverage(world: World, n_groups: int, sims: int, n_boot: int, seed: int, *,
                  curves: tuple[str, ...] = ("roc", "pr", "prg"), grid_size: int = 20,
                  truth_groups: int = 50_000, level: float = 0.95) -> dict:
    """Per unit (``group``: :func:`~prspace.stats.bands.curve_bands` with ``groups``; ``row``: without) and
    curve, the pointwise bands' coverage of the world's curve (mean over the grid points and ``sims``
    samples; its minimum over the grid points), their mean width, and the simultaneous band's coverage
    of the whole curve on the grid, for model a."""
    rng = np.random.default_rng(seed)
    big = draw(world, truth_groups, rng, grouped=False)
    ties = np.unique(-big.scores[0], return_inverse=True)[1].ravel()
    tp = np.bincount(ties, weights=big.y.astype(np.float64))
    fp = np.bincount(ties, weights=(~big.y).astype(np.float64))
    grids = {c: default_grid(c, grid_size) for c in curves}
    true = {c: curve_at(c, tp, fp, grids[c]) for c in curves}
    hit = {(u, c): [] for u in ("group", "row") for c in curves}
    whole = {(u, c): [] for u in ("group", "row") for c in curves}
    width = {(u, c): [] for u in ("group", "row") for c in curves}
    for _ in range(sims):
        block = draw(world, n_groups, rng)
        for unit in ("group", "row"):
            bands = curve_bands(block.y, block.scores[0], curves=curves, grids=grids, n_boot=n_boot,
                                level=level, rng=rng, groups=block.cluster if unit == "group" else None)
            for c in curves:
                hit[unit, c].append((bands[c].lo <= true[c]) & (true[c] <= bands[c].hi))
                whole[unit, c].append(bool(np.all((bands[c].sim_lo <= true[c]) & (true[c] <= bands[c].sim_hi))))
                width[unit, c].append(np.mean(bands[c].hi - bands[c].lo))
    out = {}
    for (unit, c), h in hit.items():
        h = np.asarray(h)
        out[unit, c] = {"coverage": float(h.mean()), "worst_point": float(h.mean(axis=0).min()),
                        "width": float(np.mean(width[unit, c])), "simultaneous": float(np.mean(whole[unit, c]))}
    return out

"""The coverage of the procedure a study runs, counted in a nested simulation (issue 80).

The ``coverage`` a verdict row states beside its interval (:meth:`prspace.stats.cluster_bootstrap.Result.coverage`)
is an oracle's: the level of each simulated study's interval is corrected on studies drawn from the population
itself, so it comes out near the level by construction. A real study corrects its level from its own sample.
:func:`procedure_coverage` counts that: the study's families are the population (its estimate the truth,
exactly); each of ``studies`` simulated studies of the study's size is drawn from them (families with
replacement) and runs the *whole* interval procedure on its own families (:func:`interval_of`: the
studentized cluster bootstrap with its double-bootstrap level correction,
:func:`prspace.stats.cluster_bootstrap.run`, or the sign-flip test with its counted level,
:func:`prspace.stats.sign_flip.from_stat`) at reduced resamples (:class:`Settings`); the share of simulated
studies whose interval covers the truth is the procedure's coverage, with its binomial Monte Carlo SE.

A quartile's simulated study recomputes its own quartile and the share of its tasks at or below it
(:func:`resampled`), as the study's Woodruff interval does from its own tasks.

The inner and outer counts are below the study's (1,000 inner, 1,000 to 20,000 outer): the coverage counted
is that of the procedure at those counts; docs/verdicts.md states how it moves with them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from prspace.core.errors import InputError
from prspace.stats import cluster_bootstrap as CB
from prspace.stats import sign_flip as SF
from prspace.stats.bootstrap_kernel import Stat, quantile_stat

__all__ = ["METHODS", "Settings", "interval_of", "procedure_coverage", "resampled"]

#: The interval procedures :func:`interval_of` runs.
METHODS = ("bootstrap-t", "sign-flip")


@dataclass(frozen=True)
class Settings:
    """The nested simulation's counts: ``studies`` simulated studies, each running its procedure with
    ``boot`` resamples (the bootstrap-t's ``t*``), ``outer`` simulated studies of its own level correction
    (the double bootstrap's outer samples, or the sign-flip test's null studies) and ``inner`` resamples
    in each of those (the bootstrap-t only). Their one default is in ``workflow/schemas/config.schema.yaml``
    (``analysis.verdicts.procedure_coverage``)."""

    studies: int
    boot: int
    outer: int
    inner: int

    def __post_init__(self) -> None:
        for name in ("studies", "boot", "outer", "inner"):
            v = getattr(self, name)
            if int(v) != v or int(v) < 2:
                raise InputError(f"analysis.verdicts.procedure_{name} must be an integer >= 2, got {v!r}; set it in the "
                                 "study's configuration")


def resampled(stats: list[Stat], idx: np.ndarray) -> list[Stat]:
    """The statistics of the study made of families ``idx`` ``(F,)`` (ids of the study's families, drawn with
    replacement; slot ``j`` becomes family ``j``): a mean's per-family sums and counts; a quartile recomputed from
    the drawn families' tasks (its estimate and the share of tasks at or below it are the simulated study's own)."""
    idx = np.asarray(idx, dtype=np.intp)
    out = []
    for s in stats:
        if s.quantile is None:
            out.append(replace(s, S=s.S[idx], N=s.N[idx]))
            continue
        x, fam = np.asarray(s.x), np.asarray(s.x_family)
        members = [np.flatnonzero(fam == f) for f in idx]
        xs = np.concatenate([x[m] for m in members]) if members else np.zeros(0)
        fs = np.concatenate([np.full(len(m), j) for j, m in enumerate(members)]) if members else np.zeros(0, int)
        out.append(replace(quantile_stat(xs, fs, s.quantile, len(idx)), bounds=s.bounds))
    return out


def interval_of(stats: list[Stat], method: str, settings: Settings, seed: list[int], *, level: float = 0.95
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(lo, hi, plain_lo, plain_hi)`` ``(K,)``: each statistic's interval at ``level`` by ``method``
    (:data:`METHODS`), its level corrected as the study corrects it (the plain interval beside it), at
    ``settings``' counts, in one run (the study pools reruns; their pooled draws are one run's)."""
    alpha = np.full(len(stats), 1.0 - level)
    if method == "bootstrap-t":
        res = CB.run(stats, B=settings.boot, seed=seed, replicates=1, n_out=settings.outer, n_in=settings.inner)
        return (*res.interval_at(alpha), *res.interval_at(alpha, calibrate=False))
    if method != "sign-flip":
        raise ValueError(f"unknown interval method {method!r}; choose one of {', '.join(METHODS)}")
    ends = []
    for k, s in enumerate(stats):
        res = SF.from_stat(s, n_sims=settings.outer, reruns=1, seed=[*seed, k])
        ends.append((*res.interval_at(alpha[k:k + 1]), *res.interval_at(alpha[k:k + 1], calibrate=False)))
    return tuple(np.array([e[i][0] for e in ends]) for i in range(4))  # type: ignore[return-value]


def procedure_coverage(stats: list[Stat], truth: np.ndarray, method: str, settings: Settings, *, seed: int | list,
                       level: float = 0.95) -> dict[str, np.ndarray]:
    """Each statistic's procedure coverage (module docstring) over ``settings.studies`` simulated studies drawn
    from ``stats``' families, against ``truth`` ``(K,)`` (the study's estimates): ``coverage`` (the corrected
    interval's share covering the truth), ``mc_se`` (binomial), ``plain`` (the uncorrected interval's),
    ``miss_below`` / ``miss_above`` (the truth below the lower end, above the upper end) and ``n`` (the
    simulated studies), each ``(K,)``."""
    F = stats[0].n_families
    truth = np.asarray(truth, dtype=np.float64)
    K, n = len(stats), int(settings.studies)
    below, above = np.zeros((n, K), bool), np.zeros((n, K), bool)
    covered, plain = np.zeros((n, K), bool), np.zeros((n, K), bool)
    ss = np.random.SeedSequence(seed)
    rng = np.random.default_rng(ss.spawn(1)[0])
    for i, child in enumerate(ss.spawn(n)):
        idx = rng.integers(0, F, size=F)
        lo, hi, plo, phi = interval_of(resampled(stats, idx), method, settings, [int(x) for x in child.generate_state(2)],
                                       level=level)
        below[i], above[i] = truth < lo, truth > hi
        covered[i] = (lo <= truth) & (truth <= hi)  # an interval without ends (NaN) covers nothing
        plain[i] = (plo <= truth) & (truth <= phi)
    cov = covered.mean(axis=0)
    return {"coverage": cov, "mc_se": np.sqrt(cov * (1.0 - cov) / n), "plain": plain.mean(axis=0),
            "miss_below": below.mean(axis=0), "miss_above": above.mean(axis=0), "n": np.full(K, float(n))}


#: The columns :func:`of_results` gives each claim (``verdicts.csv``).
COLUMNS = ("procedure_coverage", "procedure_coverage_mc_se", "procedure_coverage_n", "procedure_coverage_inner")


def _as_stats(res: CB.Result | SF.Result) -> tuple[list[Stat], str]:
    """A result's statistics and the procedure that made it (a sign-flip result keeps its families' sums)."""
    if isinstance(res, SF.Result):
        return [Stat(np.asarray(res.S, float)[:, None], np.asarray(res.N, float)[:, None], np.ones(1))], "sign-flip"
    return list(res.stats), "bootstrap-t"


def of_results(pairs: list[tuple[CB.Result | SF.Result, int]], settings: Settings | None, *, seed: int | list,
               level: float = 0.95) -> list[dict[str, float]]:
    """The :data:`COLUMNS` of each ``(result, statistic index)``: :func:`procedure_coverage` of the result's
    statistics against its estimates, each distinct result simulated once (seed ``[*seed, g]`` for the
    ``g``-th), the statistic's share taken; NaN everywhere without ``settings``."""
    nan = float("nan")
    if settings is None:
        return [dict.fromkeys(COLUMNS, nan) for _ in pairs]
    done: dict[int, dict[str, np.ndarray]] = {}
    base = list(np.atleast_1d(seed))
    out = []
    for res, k in pairs:
        if id(res) not in done:
            stats, method = _as_stats(res)
            done[id(res)] = procedure_coverage(stats, np.asarray(res.estimate, float), method, settings,
                                               seed=[*base, len(done)], level=level)
            done[id(res)]["inner"] = np.full(len(stats), float(settings.inner) if method == "bootstrap-t" else nan)
        d = done[id(res)]
        out.append(dict(zip(COLUMNS, (float(d["coverage"][k]), float(d["mc_se"][k]), float(d["n"][k]),
                                      float(d["inner"][k])), strict=True)))
    return out

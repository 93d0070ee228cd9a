"""The stratified count bootstrap: one home for every resampling of examples.

A stratified bootstrap resample draws, within each stratum (a class, or a class within a fold),
as many examples with replacement as the stratum holds; it is kept as *counts*, one weight per
example (how often it was drawn), so that no row is copied and tied scores stay groups.

Three samplers draw from this one distribution with three random streams.  Each feeds seeded
numbers that the studies publish (the noise floor, the calibration of the verdict rule, the
audit's intervals), so each keeps its own stream: drawing all three the same way would change
those numbers, not their distribution.

* :func:`stratified_counts`: per class, ``rng.multinomial`` (the noise floor,
  :mod:`prspace.experiments.noise_floor`).
* :func:`uniform_counts`: per class, uniform indices with ``rng.integers``; faster than
  ``multinomial`` over many categories (the calibration, :mod:`prspace.experiments.calibration`).
* :class:`StratumSampler`: one resample at a time over any strata, one ``rng.random`` per
  example (the audit, :mod:`prspace.audit.intervals`); ``counts_batch`` draws many resamples
  at once from the same stream.
"""

from __future__ import annotations

import numpy as np

__all__ = ["StratumSampler", "stratified_counts", "uniform_counts"]


def stratified_counts(y: np.ndarray, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """``(n_boot, n)`` bootstrap counts: each row draws as many positives and negatives as ``y`` has."""
    y = np.asarray(y, dtype=bool)
    w = np.zeros((n_boot, y.size), dtype=np.float64)
    for cls in (True, False):
        idx = np.flatnonzero(y == cls)
        if idx.size:
            w[:, idx] = rng.multinomial(idx.size, np.full(idx.size, 1.0 / idx.size), size=n_boot)
    return w


def uniform_counts(y: np.ndarray, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """``(n_boot, n)`` stratified bootstrap counts, distributed as :func:`stratified_counts`
    (each class's rows drawn with replacement as often as the class has rows) but drawn as
    uniform indices, which is faster than ``rng.multinomial`` over many categories."""
    w = np.zeros((n_boot, y.size))
    for cls in (True, False):
        idx = np.flatnonzero(y == cls)
        m = idx.size
        if m:
            draws = rng.integers(0, m, size=(n_boot, m)) + (np.arange(n_boot) * m)[:, None]
            w[:, idx] = np.bincount(draws.ravel(), minlength=n_boot * m).reshape(n_boot, m)
    return w


class StratumSampler:
    """Draws stratified resamples as counts per example, in stratum order (``self.order``).

    ``stratum``: one non-negative integer per example; :meth:`counts` returns one resample."""

    def __init__(self, stratum: np.ndarray, rng: np.random.Generator) -> None:
        self.order = np.argsort(stratum, kind="stable")
        sizes = np.bincount(stratum)
        starts = np.r_[0, np.cumsum(sizes)[:-1]]
        self.rng, self.n = rng, stratum.shape[0]
        self.start_of = starts[stratum[self.order]].astype(np.float64)
        self.size_of = sizes[stratum[self.order]].astype(np.float64)

    def counts(self) -> np.ndarray:
        u = self.rng.random(self.n)
        u *= self.size_of
        u += self.start_of  # a uniformly random member of the same stratum, for every slot
        return np.bincount(u.astype(np.int64), minlength=self.n).astype(np.float64)

    def counts_batch(self, size: int) -> np.ndarray:
        """``size`` resamples at once, shape ``(size, n)``: the same random stream, hence exactly
        the counts that ``size`` successive :meth:`counts` calls return."""
        u = self.rng.random((size, self.n))
        u *= self.size_of
        u += self.start_of
        idx = u.astype(np.int64)
        idx += (np.arange(size, dtype=np.int64) * self.n)[:, None]
        return np.bincount(idx.ravel(), minlength=size * self.n).reshape(size, self.n).astype(np.float64)

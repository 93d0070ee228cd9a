"""The stratified count bootstrap: one home for every resampling of examples.

A stratified bootstrap resample draws, within each stratum (a class, or a class within a fold),
as many examples with replacement as the stratum holds; it is kept as *counts*, one weight per
example (how often it was drawn), so that no row is copied and tied scores stay groups.

Three samplers draw from this one distribution with three random streams.  Each feeds seeded
numbers that the studies publish (the noise floor, the calibration of the verdict rule, the
audit's intervals), so each keeps its own stream: drawing all three the same way would change
those numbers, not their distribution.

* :func:`stratified_counts`: per class, ``rng.multinomial`` (the noise floor,
  :mod:`prspace.experiments.noise.noise_floor`).
* :func:`uniform_counts`: per class, uniform indices with ``rng.integers``; faster than
  ``multinomial`` over many categories (the calibration, :mod:`prspace.experiments.noise.noise_calibration`).
* :func:`jackknife_groups` / :func:`jackknife_weights`: the stratified jackknife's left-out
  groups (delete-one up to :data:`JACK_GROUPS` rows, else random groups within strata) and
  their 0/1 weights (the paired tests of :mod:`prspace.stats.pairwise`, audit and studies).
* :class:`StratumSampler`: one resample at a time over any strata, one ``rng.random`` per
  example (the audit, :mod:`prspace.audit.inference.audit_blocks`); ``counts_batch`` draws many resamples
  at once from the same stream.
"""

from __future__ import annotations

import functools

import numpy as np

__all__ = ["JACK_GROUPS", "StratumSampler", "jackknife_groups", "jackknife_variance", "jackknife_weights",
           "stratified_counts", "uniform_counts"]

#: Most jackknife replicates per task: up to this many rows, every row is left out once (the
#: delete-one jackknife, exact); above it, the rows of each stratum are split at random into
#: groups (about this many in all) and each group is left out once (delete-a-group).
JACK_GROUPS = 500


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
        self.sizes = np.bincount(stratum)
        self.starts = np.r_[0, np.cumsum(self.sizes)[:-1]]
        self.rng, self.n = rng, stratum.shape[0]

    @functools.cached_property
    def start_of(self) -> np.ndarray:
        """Per position (in stratum order), the first position of its stratum (float64); made when first read
        (:meth:`count_into` reads one number per stratum, not this array)."""
        return np.repeat(self.starts, self.sizes).astype(np.float64)

    @functools.cached_property
    def size_of(self) -> np.ndarray:
        """Per position (in stratum order), the size of its stratum (float64); made when first read."""
        return np.repeat(self.sizes, self.sizes).astype(np.float64)

    def draws(self, rng: np.random.Generator | None = None) -> np.ndarray:
        """One resample as the drawn positions (in stratum order), one per slot: :meth:`counts` is their
        ``bincount``; the same random stream (``rng``: another generator drawn from instead, e.g. one set to
        an earlier state of ``self.rng`` to draw a resample again)."""
        u = (rng or self.rng).random(self.n)
        u *= self.size_of
        u += self.start_of  # a uniformly random member of the same stratum, for every slot
        return u.astype(np.int64)

    def count_into(self, counts: np.ndarray, u: np.ndarray, drawn: np.ndarray) -> None:
        """One resample's draws counted into ``counts`` (one per position, added to: ``np.add.at``), a chunk of
        slots at a time (``u`` float64 and ``drawn`` int64 work arrays of the chunk's length, in cache): the same
        random stream and positions as :meth:`draws` (the uniforms are drawn in the same order, and each is
        scaled by its stratum's size and start, as ``size_of`` and ``start_of`` hold them, and cast as there),
        without an array over every slot."""
        most, one = u.size, counts.dtype.type(1)
        for a, b in self._runs():
            size, start = np.float64(b - a), np.float64(a)
            for lo in range(a, b, most):
                part, where = u[: min(most, b - lo)], drawn[: min(most, b - lo)]
                self.rng.random(out=part)
                part *= size
                part += start
                np.copyto(where, part, casting="unsafe")
                np.add.at(counts, where, one)

    def _runs(self) -> list[tuple[int, int]]:
        """The strata's runs of positions ``[a, b)`` in stratum order (the non-empty strata)."""
        if not hasattr(self, "_run_list"):
            self._run_list = [(int(a), int(a + n)) for a, n in zip(self.starts, self.sizes, strict=True) if n > 0]
        return self._run_list

    def counts(self) -> np.ndarray:
        return np.bincount(self.draws(), minlength=self.n).astype(np.float64)

    def draws_batch(self, size: int) -> np.ndarray:
        """``size`` resamples at once as drawn positions, shape ``(size, n)``: the same random stream as
        ``size`` successive :meth:`draws` (and :meth:`counts_batch`)."""
        u = self.rng.random((size, self.n))
        u *= self.size_of
        u += self.start_of
        return u.astype(np.int64)

    def counts_batch(self, size: int) -> np.ndarray:
        """``size`` resamples at once, shape ``(size, n)``: the same random stream, hence exactly
        the counts that ``size`` successive :meth:`counts` calls return."""
        u = self.rng.random((size, self.n))
        u *= self.size_of
        u += self.start_of
        idx = u.astype(np.int64)
        idx += (np.arange(size, dtype=np.int64) * self.n)[:, None]
        return np.bincount(idx.ravel(), minlength=size * self.n).reshape(size, self.n).astype(np.float64)


def jackknife_groups(stratum: np.ndarray, *, max_groups: int = JACK_GROUPS,
                     rng: np.random.Generator | None = None) -> tuple[list[np.ndarray], np.ndarray]:
    """The rows (indices) each jackknife replicate leaves out, and the stratum of each replicate.

    With at most ``max_groups`` rows every row is its own group (delete-one, no randomness);
    otherwise each stratum of ``n_s`` rows is cut into ``max(2, round(max_groups n_s / n))``
    (at most ``n_s``) groups of nearly equal size after a permutation drawn from ``rng``."""
    stratum = np.asarray(stratum)
    n = stratum.size
    groups: list[np.ndarray] = []
    of: list[int] = []
    for s in np.unique(stratum):
        rows = np.flatnonzero(stratum == s)
        if n <= max_groups:
            parts = [rows[i : i + 1] for i in range(rows.size)]
        else:
            if rng is None:
                raise ValueError("a delete-a-group jackknife needs an rng")
            count = int(min(rows.size, max(2, round(max_groups * rows.size / n))))
            parts = [np.sort(p) for p in np.array_split(rng.permutation(rows), count)]
        groups += parts
        of += [int(s)] * len(parts)
    return groups, np.asarray(of, dtype=np.int64)


def jackknife_weights(groups: list[np.ndarray], n: int) -> np.ndarray:
    """``(len(groups), n)`` weights: 1 for every row, 0 for the rows replicate g leaves out."""
    w = np.ones((len(groups), n))
    for g, rows in enumerate(groups):
        w[g, rows] = 0.0
    return w


def jackknife_variance(replicates: np.ndarray, strata: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The stratified jackknife variance of the statistics of ``replicates`` (axis 0: the G
    leave-a-group-out replicates; ``strata`` (G,) the stratum of each) and Satterthwaite's
    denominator: ``var = sum_s (G_s - 1) / G_s sum_{g in s} (x_g - mean_s x)^2`` and
    ``spread = sum_s var_s^2 / (G_s - 1)``, so that ``var^2 / spread`` are the degrees of freedom
    of a t reference (a stratum of one replicate adds nothing)."""
    var = np.zeros(replicates.shape[1:])
    spread = np.zeros(replicates.shape[1:])
    for s in np.unique(strata):
        g = replicates[strata == s]
        m = g.shape[0]
        if m < 2:
            continue
        v = (m - 1) / m * ((g - g.mean(axis=0)) ** 2).sum(axis=0)
        var += v
        spread += v**2 / (m - 1)
    return var, spread

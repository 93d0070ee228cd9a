"""Bootstrap bands for one model's ROC, PR and PRG curves: pointwise and simultaneous.

One module (over 400 lines): the procedure below is one algorithm whose steps (inputs, replicates by
rows, by tie cells or by groups, curves on a grid, bands) share the kernels and the band rule.

The procedure (stated once here, and in ``docs/audit.md``, section "Curve bands"):

1. **One sort.**  The scores are sorted once (``np.unique``): every row gets its tie group
   (group 0 = highest score).  Tied scores are one operating point.
2. **Resamples as counts.**  ``n_resamples`` stratified bootstrap resamples of the rows, drawn
   by :class:`prspace.stats.resampling.StratumSampler` as counts per row; strata are the classes
   (crossed with ``strata``, e.g. folds, when given), so every resample keeps each stratum's
   class counts, as pROC's default ``boot.stratified = TRUE``.  A resample's counts (times the
   sample weights) are summed per tie group and class with one ``bincount``; the cumulative
   sums give its operating points ``(FP_k, TP_k)``, k = 0 (the origin, nothing predicted
   positive) .. K (everything positive).  No row is copied.
3. **Curves on a fixed grid**, from the operating points of the original rows (the estimate)
   and of each resample (the replicates):

   * ROC: TPR at each FPR of the grid, linear between operating points.  Where the grid point
     falls on a vertical segment (a tie group of positives only) the upper end (the highest
     TPR at that FPR; pROC's ``coords(input = "specificity")`` does the same).
   * PR: precision at each recall of the grid, Davis and Goadrich's (hyperbolic)
     interpolation between operating points, which interpolates the contingency table
     linearly: between A and B, ``TP = TP_A + x``, ``FP = FP_A + x (FP_B - FP_A) / (TP_B -
     TP_A)``; this is the curve whose area :func:`prspace.metrics.aupr` gives (its default).
     On a vertical drop (a tie group of negatives only) the upper end: the precision where the
     recall is first reached.  Before the first operating point that holds positives the
     first-point rule of :mod:`prspace.metrics`: from the origin the precision is constant,
     the first threshold's; if the top tie groups hold negatives only the curve rises from
     precision 0.  At recall 0 (if the grid holds it) the limit from the right.
   * PRG: precision gain at each recall gain of the grid, linear in gain space between the
     operating points with recall gain >= 0 (Flach and Kull 2015; by their Theorem 1 this is
     the same contingency-table interpolation, so the curve starts at the point where recall
     gain is 0, as :func:`prspace.metrics.prg_curve` inserts it); upper end on vertical drops.
     Points with recall gain < 0 are not part of the curve.

   Default grids (:func:`default_grid`): ``j / G`` with G = ``grid_size`` = 100, over the middle
   of the axis where several rows decide each point: ROC FPR and PR recall from 0.05 to 0.95,
   PRG recall gain from 0 (recall pi, an interior point) to 0.95.  The ends are left out: there
   the curve is fixed (TPR at FPR 1) or decided by one extreme row (TPR at FPR 0 by the highest
   negative, the precision at recall 1 by the lowest positive, the precision at recall 1 / P by
   the top positive), where the bootstrap cannot vary what the data never showed: a point whose
   replicates never vary gets a band of zero width, and near the ends the percentile intervals
   under-cover.  Any increasing grid in [0, 1] may be given instead.
4. **Pointwise band**: at each grid point the percentile interval of the replicates,
   ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles (numpy's linear quantile, R's type 7,
   as pROC's ``ci.se`` / ``ci.coords``).
5. **Simultaneous band** (sup-t, Montiel Olea and Plagborg-Moller 2019, J. Appl. Econometrics
   34(1); the "bootstrap simultaneous confidence band"): ``sd_j`` = the standard deviation of
   the replicates at grid point j, ``T_b = max_j |c*_b(j) - c(j)| / sd_j`` over the grid points
   with ``sd_j > 0``, ``q`` = the ``level`` quantile of ``T_b``; the band is ``c(j) +- q sd_j``
   (clipped to [0, 1] for ROC and PR, to <= 1 for PRG).  It covers the whole true curve on the
   grid with probability ``level`` (asymptotically).  A grid point whose replicates never vary
   has the estimate as both bounds.

**Grouped rows** (``groups``: a patient, subject or site per row, the audit's ``--group-col``): step 2
draws whole groups instead of rows, a cluster bootstrap as the audit's intervals
(:func:`prspace.stats.replicates.bootstrap` of a grouped block): per resample multinomial counts over
the groups, drawn with replacement within each stratum of ``strata`` when every group lies in one
stratum (folds made by GroupKFold; :func:`prspace.stats.replicates.cluster_strata`), else over all
groups; every row weighs its group's count (times its own weight).  The classes are not stratified (a
group holds rows of both and moves with all of them); a resample left with one class is dropped
(``n_resamples`` counts the ones kept).  Steps 3 to 5 are unchanged.

**Tied scores** (``tied=True``, as the audit asks; unit weights, on average at least :data:`TIED_ROWS` rows per tie group and class, e.g.
scores rounded to a few decimals over many rows): step 2 draws each stratum's counts per (tie group,
class) cell directly, a multinomial over the cells with the cells' shares of the stratum, which is the
joint distribution of those counts under the row draws: the same bootstrap at a cost in the cells, not
the rows (:func:`_tied_replicates`; another random stream than the row draws).

**Many distinct scores** (``tied=True``, unit weights, no groups, at least :data:`BLOCK_MIN_ROWS` rows and
:data:`BLOCK_MIN_GROUPS` distinct scores, too few rows per tie group for the above: untied scores as
``predict_proba`` gives them): step 2 in two stages
(:func:`_block_replicates`).  The tie groups are cut into blocks of about ``sqrt(n / 40)`` rows; a stratum's
row draws give its (block) cells counts that are jointly multinomial with the cells' shares, and, given a
cell's count, the rows drawn in it are that many uniform draws from its rows; so each resample draws its cells'
counts, finds from the operating points at the block ends the few blocks holding the points each grid point's
interpolation reads, and draws rows only there.  The same bootstrap distribution as drawing every row (another
random stream; the estimates are the data's, unchanged), each curve value the one the kernel gives on all the
resample's operating points (the kernels read a subsequence holding every point they use; whole counts, so the
cumulative sums are exact; ``tests/stats/test_bands.py``).  Cost per resample: the blocks plus the rows of the
blocks hit, not every row.  From :data:`TREE_MIN_ROWS` rows the blocks' counts are drawn down a binary tree of
leaves of :data:`LEAF_ROWS` rows instead (:func:`_tree_replicates`): a node's draws split between its halves by a
binomial with their shares of the stratum's rows (again the row draws' distribution), only where a point the
kernels read lies; elsewhere a half is one operating point.  At 10^6 rows a resample costs about 2 ms, not the
row draws' 20 to 50 ms.

Assumptions: the test rows are independent draws, or, with ``groups``, the groups are (rows of one
patient resampled one by one make the bands too narrow; ``docs/audit.md``, "Curve bands").  Cost: one sort, then per resample
one ``bincount`` over the rows, one cumulative sum over the K tie groups and one binary search
of the grid per curve: O(n log n + B (n + G log K)).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from prspace.core.errors import InputError
from prspace.metrics.labels import default_positives
from prspace.stats.replicates import cluster_strata
from prspace.stats.resampling import StratumSampler

__all__ = ["CURVES", "Band", "CurveBand", "curve_bands", "default_grid", "curve_at"]

#: The curves, with (x, y) axis names.
CURVES: dict[str, tuple[str, str]] = {
    "roc": ("fpr", "tpr"),
    "pr": ("recall", "precision"),
    "prg": ("recall_gain", "precision_gain"),
}
DEFAULT_GRID_SIZE = 100
#: The share of each end of the axis the default grids leave out.
EDGE = 0.05


@dataclasses.dataclass(frozen=True)
class Band:
    """A curve's band on ``grid``: the estimate, pointwise (``lo``, ``hi``) and simultaneous
    (``sim_lo``, ``sim_hi``) bounds at ``level``, from ``n_resamples`` resamples; what a figure
    reads back from a bands table (:func:`prspace.figures.curves.bands_from_table`)."""

    grid: np.ndarray
    estimate: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    sim_lo: np.ndarray
    sim_hi: np.ndarray
    level: float
    n_resamples: int


@dataclasses.dataclass(frozen=True)
class CurveBand(Band):
    """A :class:`Band` of one curve as computed: which curve (``x`` and ``y`` its axes), ``sd`` the
    replicates' standard deviation and ``critical_value`` the sup-t quantile ``q``."""

    curve: str
    x: str
    y: str
    sd: np.ndarray
    critical_value: float

    def columns(self) -> dict[str, np.ndarray]:
        """The band as columns (``grid, estimate, lo, hi, sim_lo, sim_hi``) for a table."""
        return {"grid": self.grid, "estimate": self.estimate, "lo": self.lo, "hi": self.hi,
                "sim_lo": self.sim_lo, "sim_hi": self.sim_hi}

    def rows(self, **ids: object) -> pd.DataFrame:
        """The band as a table, one row per grid point: the ``ids`` (constant columns naming it), ``x``,
        :meth:`columns`, ``level``, ``n_resamples`` (the audit's ``bands.csv`` and Figure 5's bands)."""
        return pd.DataFrame({**ids, "x": self.x, **self.columns(), "level": self.level,
                             "n_resamples": self.n_resamples})


def default_grid(curve: str, grid_size: int = DEFAULT_GRID_SIZE) -> np.ndarray:
    """The default grid of ``curve`` (module docstring): ``j / G`` for ``j / G`` in [0.05, 0.95]
    (PRG: [0, 0.95]), ``G = grid_size``."""
    _check_curve(curve)
    g = int(grid_size)
    if g < 2:
        raise InputError(f"grid_size must be at least 2, got {grid_size!r}")
    first = 0 if curve == "prg" else int(np.ceil(EDGE * g - 1e-9))
    j = np.arange(first, int(np.floor((1.0 - EDGE) * g + 1e-9)) + 1)
    return j / g  # j / G correctly rounded, so it equals count ratios such as 10 / 100 exactly


def _check_curve(curve: str) -> None:
    if curve not in CURVES:
        raise InputError(f"unknown curve {curve!r}; choose one of {', '.join(CURVES)}")


# --------------------------------------------------------------------------------------------
# The curves at grid points, from cumulative counts (TP0, FP0: k = 0 .. K, starting at 0)
# --------------------------------------------------------------------------------------------


def _roc_at(tp0: np.ndarray, fp0: np.ndarray, grid: np.ndarray) -> np.ndarray:
    x, y = fp0 / fp0[-1], tp0 / tp0[-1]
    i = np.searchsorted(x, grid, side="right") - 1  # last point with FPR <= f: the upper end
    j = np.minimum(i + 1, x.size - 1)
    exact = x[i] == grid
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(exact, 0.0, (grid - x[i]) / (x[j] - x[i]))
    return y[i] + t * (y[j] - y[i])


def _fp_where_tp(tp0: np.ndarray, fp0: np.ndarray, j: np.ndarray, tp: np.ndarray, exact: np.ndarray) -> np.ndarray:
    """FP on the contingency-table interpolation where TP = ``tp`` is first reached (in segment j - 1 -> j)."""
    a = np.maximum(j - 1, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = (fp0[j] - fp0[a]) / (tp0[j] - tp0[a])
        fp = fp0[a] + (tp - tp0[a]) * slope
    return np.where(exact, fp0[j], fp)


def _pr_at(tp0: np.ndarray, fp0: np.ndarray, grid: np.ndarray) -> np.ndarray:
    p = tp0[-1]
    rec = tp0 / p
    j = np.searchsorted(rec, grid, side="left")  # first point with recall >= r: the upper end
    exact = rec[j] == grid
    tp = grid * p
    fp = _fp_where_tp(tp0, fp0, j, tp, exact)
    tp = np.where(exact, tp0[j], tp)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = tp / (tp + fp)
    zero = grid == 0.0
    if zero.any():  # recall 0: the limit from the right (first-point rule)
        k = int(np.argmax(tp0 > 0))
        first = 0.0 if fp0[k - 1] > 0 else tp0[k] / (tp0[k] + fp0[k])
        out = np.where(zero, first, out)
    return out


def _prg_at(tp0: np.ndarray, fp0: np.ndarray, grid: np.ndarray) -> np.ndarray:
    p, nn = tp0[-1], fp0[-1]
    r = p / nn
    with np.errstate(divide="ignore", invalid="ignore"):
        rg = np.where(tp0 > 0, 1.0 - r * ((p - tp0) / tp0), -np.inf)
    rg[-1] = 1.0  # the all-positive point is exactly (1, 0); rounding must not move it
    j = np.searchsorted(rg, grid, side="left")  # first point with recall gain >= g
    exact = rg[j] == grid
    tp = p * p / (p + (1.0 - grid) * nn)  # recall gain g <=> TP = P^2 / (P + (1 - g) N)
    fp = _fp_where_tp(tp0, fp0, j, tp, exact)
    tp = np.where(exact, tp0[j], tp)
    out = 1.0 - r * (fp / tp)
    return np.where(exact & (j == tp0.size - 1), 0.0, out)


_KERNELS = {"roc": _roc_at, "pr": _pr_at, "prg": _prg_at}


# The same curves for many resamples at once (rows of ``tp0``, ``fp0``: (resamples, K + 1)): every value is the
# one the kernel above gives for that row (the same elementwise operations; only the binary search runs per row).


def _at(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    return np.take_along_axis(a, idx, axis=1)


def _search_rows(a: np.ndarray, grid: np.ndarray, side: str) -> np.ndarray:
    out = np.empty((a.shape[0], grid.size), dtype=np.intp)
    for r in range(a.shape[0]):
        out[r] = np.searchsorted(a[r], grid, side=side)
    return out


def _roc_rows(tp0: np.ndarray, fp0: np.ndarray, grid: np.ndarray) -> np.ndarray:
    x, y = fp0 / fp0[:, -1:], tp0 / tp0[:, -1:]
    i = _search_rows(x, grid, "right") - 1
    j = np.minimum(i + 1, x.shape[1] - 1)
    xi, xj = _at(x, i), _at(x, j)
    exact = xi == grid
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(exact, 0.0, (grid - xi) / (xj - xi))
    yi = _at(y, i)
    return yi + t * (_at(y, j) - yi)


def _fp_where_tp_rows(tp0: np.ndarray, fp0: np.ndarray, j: np.ndarray, tp: np.ndarray,
                      exact: np.ndarray) -> np.ndarray:
    a = np.maximum(j - 1, 0)
    fa, fj, ta = _at(fp0, a), _at(fp0, j), _at(tp0, a)
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = (fj - fa) / (_at(tp0, j) - ta)
        fp = fa + (tp - ta) * slope
    return np.where(exact, fj, fp)


def _pr_rows(tp0: np.ndarray, fp0: np.ndarray, grid: np.ndarray) -> np.ndarray:
    p = tp0[:, -1:]
    rec = tp0 / p
    j = _search_rows(rec, grid, "left")
    exact = _at(rec, j) == grid
    tp = grid * p
    fp = _fp_where_tp_rows(tp0, fp0, j, tp, exact)
    tp = np.where(exact, _at(tp0, j), tp)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = tp / (tp + fp)
    zero = grid == 0.0
    if zero.any():
        k = np.argmax(tp0 > 0, axis=1)[:, None]
        tk, fk = _at(tp0, k), _at(fp0, k)
        with np.errstate(divide="ignore", invalid="ignore"):
            first = np.where(_at(fp0, k - 1) > 0, 0.0, tk / (tk + fk))
        out = np.where(zero, first, out)
    return out


def _prg_rows(tp0: np.ndarray, fp0: np.ndarray, grid: np.ndarray, last: np.ndarray | None = None) -> np.ndarray:
    """``last``: each row's index of its final point (rows padded after it with copies of it, as
    :func:`_compact_rows` gives them); None: the last column."""
    p, nn = tp0[:, -1:], fp0[:, -1:]
    r = p / nn
    with np.errstate(divide="ignore", invalid="ignore"):
        rg = np.where(tp0 > 0, 1.0 - r * ((p - tp0) / tp0), -np.inf)
    rg[:, -1] = 1.0
    end = tp0.shape[1] - 1 if last is None else last[:, None]
    if last is not None:
        rg[np.arange(rg.shape[0]), last] = 1.0
    j = _search_rows(rg, grid, "left")
    exact = _at(rg, j) == grid
    tp = p * p / (p + (1.0 - grid) * nn)
    fp = _fp_where_tp_rows(tp0, fp0, j, tp, exact)
    tp = np.where(exact, _at(tp0, j), tp)
    out = 1.0 - r * (fp / tp)
    return np.where(exact & (j == end), 0.0, out)


_ROW_KERNELS = {"roc": _roc_rows, "pr": _pr_rows, "prg": _prg_rows}


def curve_at(curve: str, tp: ArrayLike, fp: ArrayLike, grid: ArrayLike) -> np.ndarray:
    """``curve`` ("roc", "pr", "prg") at ``grid`` from the (weighted) positives ``tp[k]`` and
    negatives ``fp[k]`` of each tie group, highest score first (the interpolation of the module
    docstring)."""
    _check_curve(curve)
    tp0 = np.concatenate(([0.0], np.cumsum(np.asarray(tp, dtype=np.float64))))
    fp0 = np.concatenate(([0.0], np.cumsum(np.asarray(fp, dtype=np.float64))))
    return _KERNELS[curve](tp0, fp0, _grid(np.asarray(grid, dtype=np.float64), curve))


# --------------------------------------------------------------------------------------------
# Input checks
# --------------------------------------------------------------------------------------------


def _labels(y: ArrayLike) -> np.ndarray:
    a = np.asarray(y)
    if a.ndim != 1 or a.size == 0:
        raise InputError("y must be a non-empty 1-d array of labels; pass one label per test row")
    if a.dtype == bool:
        return default_positives(a)
    try:
        v = a.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError("y must hold 0/1 or True/False labels; map your classes to 1 (positive) and 0") from None
    # the bands take 0/1 only (not -1/1); which of them is positive is the one rule's
    if not np.isin(v, (0.0, 1.0)).all():
        raise InputError("y must hold 0/1 or True/False labels; map your classes to 1 (positive) and 0")
    return default_positives(v)


def _grid(grid: np.ndarray, curve: str) -> np.ndarray:
    if grid.ndim != 1 or grid.size == 0 or not np.all(np.isfinite(grid)):
        raise InputError(f"the {curve} grid must be a non-empty 1-d array of finite numbers")
    if grid.min() < 0.0 or grid.max() > 1.0 or np.any(np.diff(grid) <= 0):
        raise InputError(f"the {curve} grid must be increasing values in [0, 1]; give e.g. np.arange(1, 100) / 100")
    return grid


def _inputs(y, scores, sample_weight, strata, groups=None):
    y = _labels(y)
    try:
        s = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError):
        s = None
    if s is None or s.shape != y.shape:
        raise InputError(f"scores must be a numeric 1-d array as long as y ({y.size} rows)")
    if not np.all(np.isfinite(s)):
        raise InputError("scores hold NaN or infinite values; drop or impute those rows first")
    if sample_weight is None:
        w = np.ones(y.size)
    else:
        w = np.asarray(sample_weight, dtype=np.float64)
        if w.shape != y.shape or not np.all(np.isfinite(w)) or np.any(w < 0):
            raise InputError("sample_weight must be finite, non-negative and one per row of y")
    if strata is None:
        code = np.zeros(y.size, dtype=np.int64)
    else:
        st = np.asarray(strata)
        if st.shape != y.shape:
            raise InputError("strata must hold one value per row of y (e.g. the fold of each row)")
        code = np.unique(st, return_inverse=True)[1].ravel().astype(np.int64)
    cluster = None
    if groups is not None:
        gr = np.asarray(groups)
        if gr.shape != y.shape:
            raise InputError("groups must hold one value per row of y (each row's patient, subject or site)")
        if pd.isna(gr).any():
            raise InputError("groups hold missing values; give every row its group (a row on its own: its own id)")
        cluster = gr
    keep = w > 0
    y, s, w, code = y[keep], s[keep], w[keep], code[keep]
    if not (y.any() and (~y).any()):
        raise InputError("y holds one class only (with positive weight); bands need positives and negatives")
    if cluster is not None:
        cluster = np.unique(cluster[keep], return_inverse=True)[1].ravel().astype(np.int64)
    return y, s, w, code, cluster


# --------------------------------------------------------------------------------------------
# The bands
# --------------------------------------------------------------------------------------------


def _band(curve: str, grid: np.ndarray, est: np.ndarray, reps: np.ndarray, level: float) -> CurveBand:
    a = (1.0 - level) / 2.0
    lo, hi = np.quantile(reps, a, axis=0), np.quantile(reps, 1.0 - a, axis=0)
    sd = reps.std(axis=0, ddof=1) if reps.shape[0] > 1 else np.zeros(grid.size)
    varies = sd > 1e-12
    if varies.any():
        t = np.max(np.abs(reps[:, varies] - est[varies]) / sd[varies], axis=1)
        q = float(np.quantile(t, level))
    else:
        q = 0.0
    half = np.where(varies, q * sd, 0.0)
    top = 1.0
    bottom = 0.0 if curve in ("roc", "pr") else -np.inf
    x, yname = CURVES[curve]
    return CurveBand(grid=grid, estimate=est, lo=lo, hi=hi, sim_lo=np.clip(est - half, bottom, top),
                     sim_hi=np.clip(est + half, bottom, top), level=float(level), n_resamples=int(reps.shape[0]),
                     curve=curve, x=x, y=yname, sd=sd, critical_value=q)


def curve_bands(y: ArrayLike, scores: ArrayLike, *, sample_weight: ArrayLike | None = None,
                strata: ArrayLike | None = None, curves: tuple[str, ...] = ("roc", "pr", "prg"),
                grids: dict[str, ArrayLike] | None = None, grid_size: int = DEFAULT_GRID_SIZE,
                n_resamples: int = 1000, level: float = 0.95,
                rng: np.random.Generator | int | None = 0, groups: ArrayLike | None = None,
                tied: bool = False) -> dict[str, CurveBand]:
    """Pointwise and simultaneous bootstrap bands of one model's curves (module docstring).

    ``y``: 0/1 or bool labels (1 = positive); ``scores``: higher means more positive;
    ``sample_weight``: one non-negative weight per row (rows of weight 0 are dropped);
    ``strata``: optional label per row (e.g. the fold) crossed with the class for the stratified
    bootstrap; ``curves``: any of "roc", "pr", "prg"; ``grids``: curve -> grid in [0, 1]
    (default :func:`default_grid` with ``grid_size``); ``rng``: a Generator or a seed; ``groups``:
    optional group (patient, subject, site) per row: whole groups are resampled, within ``strata``
    where every group lies in one (module docstring, "Grouped rows"); without, bit for bit as before.
    ``tied``: draw tied scores' counts per cell (module docstring, "Tied scores"), and many distinct scores' in two
    stages (from :data:`BLOCK_MIN_ROWS` rows, "Many distinct scores"): the audit's bands; off, the rows are drawn as
    before, bit for bit (the studies' Figure 5 keeps its numbers).
    Returns curve -> :class:`CurveBand`.  Bad input raises :class:`~prspace.core.errors.InputError`.
    """
    for c in curves:
        _check_curve(c)
    if not curves:
        raise InputError("curves is empty; ask for any of roc, pr, prg")
    if not 0.0 < float(level) < 1.0:
        raise InputError(f"level must lie strictly between 0 and 1, got {level!r}")
    if int(n_resamples) != n_resamples or int(n_resamples) < 2:
        raise InputError(f"n_resamples must be an integer >= 2, got {n_resamples!r}")
    n_resamples = int(n_resamples)
    grids = grids or {}
    unknown = set(grids) - set(CURVES)
    if unknown:
        raise InputError(f"grids names unknown curve(s) {sorted(unknown)}; use roc, pr, prg")
    grid = {c: _grid(np.asarray(grids[c], dtype=np.float64), c) if c in grids else default_grid(c, grid_size)
            for c in curves}
    yb, s, w, code, cluster = _inputs(y, scores, sample_weight, strata, groups)
    group = np.unique(-s, return_inverse=True)[1].ravel()  # the one sort: tie group, 0 = highest
    size = 2 * (int(group.max()) + 1)
    key = 2 * group + yb
    both = np.bincount(key, weights=w, minlength=size).reshape(-1, 2)
    est = {c: curve_at(c, both[:, 1], both[:, 0], grid[c]) for c in curves}
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    if cluster is not None:
        reps = _grouped_replicates(key, w, cluster, code, size, grid, curves, n_resamples, gen)
        return {c: _band(c, grid[c], est[c], reps[c], float(level)) for c in curves}
    unit = bool(np.all(w == 1.0))
    if tied and unit and size * TIED_ROWS <= key.size:  # many rows per tie group: the stratum counts per tie group at once
        reps = _tied_replicates(key, 2 * code + yb, size, grid, curves, n_resamples, gen)
        return {c: _band(c, grid[c], est[c], reps[c], float(level)) for c in curves}
    if tied and unit and key.size >= BLOCK_MIN_ROWS and size // 2 >= BLOCK_MIN_GROUPS:  # many distinct scores
        draw = _tree_replicates if key.size >= TREE_MIN_ROWS else _block_replicates
        reps = draw(group, yb, 2 * code + yb, grid, curves, n_resamples, gen)
        return {c: _band(c, grid[c], est[c], reps[c], float(level)) for c in curves}
    sampler = StratumSampler(2 * code + yb, gen)
    key_o, w_o = key[sampler.order], w[sampler.order]
    reps = {c: np.empty((n_resamples, grid[c].size)) for c in curves}
    tp0, fp0 = np.zeros(size // 2 + 1), np.zeros(size // 2 + 1)
    for b in range(n_resamples):
        if unit:  # whole counts, exact in any order: each row's draws counted, then summed per key in row order
            g = np.bincount(key_o, weights=np.bincount(sampler.draws(), minlength=key_o.size), minlength=size).reshape(-1, 2)
        else:
            g = np.bincount(key_o, weights=sampler.counts() * w_o, minlength=size).reshape(-1, 2)
        np.cumsum(g[:, 1], out=tp0[1:])
        np.cumsum(g[:, 0], out=fp0[1:])
        for c in curves:
            reps[c][b] = _KERNELS[c](tp0, fp0, grid[c])
    return {c: _band(c, grid[c], est[c], reps[c], float(level)) for c in curves}


#: Unit weights and at least this many rows per (tie group, class) cell on average: the resamples are drawn as
#: counts per cell (:func:`_tied_replicates`), not per row.
TIED_ROWS = 8


def _tied_replicates(key: np.ndarray, stratum: np.ndarray, size: int, grid: dict[str, np.ndarray],
                     curves: tuple[str, ...], n_resamples: int, gen: np.random.Generator) -> dict[str, np.ndarray]:
    """The replicates of step 2 when the scores hold few distinct values (ties): drawing ``n_s`` rows with
    replacement from a stratum of ``n_s`` rows gives each (tie group, class) cell of the stratum a count
    that is, jointly, multinomial(``n_s``, the cells' shares of the stratum), so the counts per cell are
    drawn directly (``Generator.multinomial``, all resamples of a stratum at once): the same bootstrap
    distribution as drawing the rows, at a cost in the cells, not the rows (another random stream)."""
    reps = {c: np.empty((n_resamples, grid[c].size)) for c in curves}
    cells = [np.unique(key[stratum == s], return_counts=True) for s in np.unique(stratum)]
    chunk = max(1, 4_000_000 // size)  # the draws' chunks: another chunk would be another stream
    count = np.int32 if key.size < 2**31 else np.int64  # a cell's count is at most the rows
    for b0 in range(0, n_resamples, chunk):
        m = min(chunk, n_resamples - b0)
        g = np.zeros((m, size), dtype=count)
        filled = np.zeros(size, dtype=bool)
        for k, n in cells:
            drawn = gen.multinomial(int(n.sum()), n / n.sum(), size=m)
            if filled[k].any():  # a cell in two strata (tie group and class in several folds): summed
                g[:, k] += drawn
            else:
                g[:, k] = drawn
            filled[k] = True
            del drawn
        # the curves in pieces of KERNEL_ROWS resamples: each resample's row is computed alone (its cumulative
        # sums, binary search and elementwise operations), so the pieces give the same numbers in less memory
        for r0 in range(0, m, KERNEL_ROWS):
            part = g[r0 : r0 + KERNEL_ROWS]
            tp0, fp0 = np.zeros((len(part), size // 2 + 1)), np.zeros((len(part), size // 2 + 1))
            np.cumsum(part[:, 1::2], axis=1, dtype=np.float64, out=tp0[:, 1:])  # whole counts: exact in any order
            np.cumsum(part[:, 0::2], axis=1, dtype=np.float64, out=fp0[:, 1:])
            for c in curves:
                reps[c][b0 + r0 : b0 + r0 + len(part)] = _ROW_KERNELS[c](tp0, fp0, grid[c])
    return reps


#: Resamples per call of the tied bands' curve kernels (:func:`_tied_replicates`): their temporaries are about
#: ten arrays of this many rows x tie groups.
KERNEL_ROWS = 128


def _grouped_replicates(key: np.ndarray, w: np.ndarray, cluster: np.ndarray, code: np.ndarray, size: int,
                        grid: dict[str, np.ndarray], curves: tuple[str, ...], n_resamples: int,
                        gen: np.random.Generator) -> dict[str, np.ndarray]:
    """The replicates of the cluster bootstrap (module docstring, "Grouped rows"): per resample the
    groups' multinomial counts within their strata, each row weighted by its group's count; resamples
    left with one class dropped."""
    gstrat, _ = cluster_strata(cluster, code)
    sampler = StratumSampler(gstrat, gen)
    reps = {c: np.empty((n_resamples, grid[c].size)) for c in curves}
    tp0, fp0 = np.zeros(size // 2 + 1), np.zeros(size // 2 + 1)
    per = np.empty(gstrat.size)
    kept = np.ones(n_resamples, dtype=bool)
    for b in range(n_resamples):
        per[sampler.order] = sampler.counts()  # the counts come in stratum order
        g = np.bincount(key, weights=per[cluster] * w, minlength=size).reshape(-1, 2)
        np.cumsum(g[:, 1], out=tp0[1:])
        np.cumsum(g[:, 0], out=fp0[1:])
        if not (tp0[-1] > 0 and fp0[-1] > 0):
            kept[b] = False
            continue
        for c in curves:
            reps[c][b] = _KERNELS[c](tp0, fp0, grid[c])
    if kept.sum() < 2:
        raise InputError("fewer than two group resamples hold both classes; bands need groups of both classes")
    return {c: r[kept] for c, r in reps.items()}


#: The audit's bands (``tied=True``, unit weights, no groups) of at least this many rows and :data:`BLOCK_MIN_GROUPS`
#: distinct scores, with too few rows per tie group for :func:`_tied_replicates`, draw their resamples in two stages
#: (:func:`_block_replicates`); with fewer distinct scores the row draws' curves are cheap (a pass over the tie groups).
BLOCK_MIN_ROWS = 50_000
BLOCK_MIN_GROUPS = 10_000


def _block_sizes(n: int) -> int:
    """Rows per block of :func:`_block_replicates`: about ``sqrt(n / 40)`` (the cost of the blocks' multinomial
    draws, per block, against the rows drawn again in the few blocks the grid points fall in), at least 16."""
    return max(16, int(np.sqrt(n / 40.0)))


def _crossings(curve: str, tp: np.ndarray, fp: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """The index, in the points ``tp``/``fp`` (a subsequence of a resample's operating points holding its first and
    last), of the first point the kernel of ``curve`` at ``grid`` reads after its binary search (ROC: the first with
    FPR above the grid point; PR and PRG: the first with recall, recall gain, at or above it; PR at recall 0 also
    the first point with a positive): the curve's value at a grid point depends only on that point and the one
    before it (:func:`_roc_at`, :func:`_pr_at`, :func:`_prg_at`, with the same elementwise operations)."""
    if curve == "roc":
        return np.searchsorted(fp / fp[-1], grid, side="right")
    p = tp[-1]
    if curve == "pr":
        j = np.searchsorted(tp / p, grid, side="left")
        if grid[0] == 0.0:
            j = np.r_[j, np.argmax(tp > 0)]
        return j
    nn = fp[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        rg = np.where(tp > 0, 1.0 - (p / nn) * ((p - tp) / tp), -np.inf)
    rg[-1] = 1.0
    return np.searchsorted(rg, grid, side="left")


def _block_replicates(group: np.ndarray, yb: np.ndarray, stratum: np.ndarray, grid: dict[str, np.ndarray],
                      curves: tuple[str, ...], n_resamples: int, gen: np.random.Generator) -> dict[str, np.ndarray]:
    """Step 2 of the audit's bands on many distinct scores, in two stages, drawing the same bootstrap as the rows
    (another random stream; module docstring, "Many distinct scores").  The tie groups (score order) are cut into
    blocks of about :func:`_block_sizes` rows; a stratum's rows drawn with replacement give its (block) cells
    counts that are jointly multinomial (the cells' shares of the stratum), and, given a cell's count, the rows
    drawn in it are that many uniform draws from its rows.  So each resample draws its cells' counts (all
    resamples at once, ``Generator.multinomial``); its operating points at the block ends are their cumulative
    sums; the points each curve's grid reads fall in a few blocks (:func:`_crossings` on the block ends), and only
    there are the rows drawn, giving every operating point inside them.  The kernels then run on the block ends
    and those blocks' points: a subsequence of the resample's operating points holding every point they read, so
    each value is the one the kernel gives on all the points (whole counts: the cumulative sums are exact)."""
    n = group.size
    n_groups = int(group.max()) + 1
    rows_in = np.bincount(group, minlength=n_groups)
    edges = np.searchsorted(np.cumsum(rows_in), np.arange(1, n // _block_sizes(n) + 1) * _block_sizes(n), "left")
    bstart = np.unique(np.r_[0, np.minimum(edges + 1, n_groups)])  # first tie group of each block
    bstart = bstart[bstart < n_groups]
    nb = bstart.size
    bend = np.r_[bstart[1:], n_groups]  # one past the last tie group of each block
    block_of = np.repeat(np.arange(nb), bend - bstart)  # per tie group
    strata = np.unique(stratum)
    s_code = np.searchsorted(strata, stratum)
    n_s = strata.size
    # the rows in (stratum, tie group) order: a cell (stratum, block) is one run of them
    order = np.lexsort((group, s_code))
    g_sorted = group[order]
    cell = s_code[order] * nb + block_of[g_sorted]
    cell_size = np.bincount(cell, minlength=n_s * nb)
    cell_start = np.r_[0, np.cumsum(cell_size)[:-1]]
    s_pos = np.array([bool(yb[s_code == k][0]) for k in range(n_s)])  # each stratum's class
    s_rows = cell_size.reshape(n_s, nb).sum(axis=1)
    reps = {c: np.empty((n_resamples, grid[c].size)) for c in curves}
    chunk = max(1, min(n_resamples, BLOCK_CHUNK))
    for b0 in range(0, n_resamples, chunk):
        m = min(chunk, n_resamples - b0)
        counts = np.empty((m, n_s, nb), dtype=np.int64)
        for k in range(n_s):
            counts[:, k, :] = gen.multinomial(int(s_rows[k]), cell_size[k * nb:(k + 1) * nb] / s_rows[k], size=m)
        tp_blk = counts[:, s_pos, :].sum(axis=1).astype(np.float64)
        fp_blk = counts[:, ~s_pos, :].sum(axis=1).astype(np.float64)
        tp_end = np.zeros((m, nb + 1))
        fp_end = np.zeros((m, nb + 1))
        np.cumsum(tp_blk, axis=1, out=tp_end[:, 1:])
        np.cumsum(fp_blk, axis=1, out=fp_end[:, 1:])
        hit = _hit_rows(tp_end, fp_end, grid, curves)
        rr, hb = np.nonzero(hit)  # the hit blocks, resample by resample
        width = bend[hb] - bstart[hb]
        shift = np.r_[0, np.cumsum(width)[:-1]] - bstart[hb]  # tie group -> its place among all the hit blocks'
        tp_in = np.zeros(int(width.sum()))
        fp_in = np.zeros(tp_in.size)
        for k in range(n_s):  # the rows drawn in the stratum's cells hit: uniform within each (all resamples at once)
            cnt = counts[rr, k, hb]
            cells = k * nb + hb
            u = gen.random(int(cnt.sum()))
            u *= np.repeat(cell_size[cells], cnt)
            pos = u.astype(np.int64)
            pos += np.repeat(cell_start[cells], cnt)
            local = g_sorted[pos]
            local += np.repeat(shift, cnt)
            (tp_in if s_pos[k] else fp_in)[:] += np.bincount(local, minlength=tp_in.size)
        del counts
        tp0, fp0, last = _compact_rows(tp_blk, fp_blk, hit, bstart, bend, tp_in, fp_in)
        for c in curves:
            if c == "prg":
                reps[c][b0:b0 + m] = _prg_rows(tp0, fp0, grid[c], last)
            else:  # the padding (copies of the final point) moves neither ROC's nor PR's search
                reps[c][b0:b0 + m] = _ROW_KERNELS[c](tp0, fp0, grid[c])
    return reps


#: Resamples :func:`_block_replicates` draws and runs the kernels on at once (their points padded to the longest):
#: at 10^5 rows about 20 MB, as one resample at a time (32: 45 MB, no faster).
BLOCK_CHUNK = 8


def _hit_rows(tp_end: np.ndarray, fp_end: np.ndarray, grid: dict[str, np.ndarray], curves: tuple[str, ...]
              ) -> np.ndarray:
    """:func:`_hit_blocks` of many resamples at once (rows of ``tp_end``/``fp_end``), as a (resamples, blocks) mask:
    the same searched values (:func:`_crossings`' elementwise operations), searched row by row."""
    m, nb = tp_end.shape[0], tp_end.shape[1] - 1
    hit = np.zeros((m, nb), dtype=bool)
    rows = np.arange(m)[:, None]
    p, nn = tp_end[:, -1:], fp_end[:, -1:]
    for c in curves:
        if c == "roc":
            idx = _search_rows(fp_end / nn, grid[c], "right")
        elif c == "pr":
            idx = _search_rows(tp_end / p, grid[c], "left")
            if grid[c][0] == 0.0:
                idx = np.c_[idx, np.argmax(tp_end > 0, axis=1)]
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                rg = np.where(tp_end > 0, 1.0 - (p / nn) * ((p - tp_end) / tp_end), -np.inf)
            rg[:, -1] = 1.0
            idx = _search_rows(rg, grid[c], "left")
        hit[rows, np.clip(idx - 1, 0, nb - 1)] = True
    return hit


def _compact_rows(tp_blk: np.ndarray, fp_blk: np.ndarray, hit: np.ndarray, bstart: np.ndarray, bend: np.ndarray,
                  tp_in: np.ndarray, fp_in: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_compact_points` of many resamples at once: ``tp_blk``, ``fp_blk`` (resamples, blocks) their counts
    per block, ``hit`` (resamples, blocks) the blocks whose tie groups are kept, ``tp_in``, ``fp_in`` the counts per
    tie group of the hit blocks (resample by resample, blocks in order).  Returns ``tp0``, ``fp0`` (resamples,
    longest + 1): each row its points from the origin, then copies of its final point up to the longest row's
    length, and ``last``, each row's index of its final point."""
    m, nb = tp_blk.shape
    n_el = np.ones((m, nb), dtype=np.int64)
    rr, hb = np.nonzero(hit)
    width = bend[hb] - bstart[hb]
    n_el[rr, hb] = width
    off = np.cumsum(n_el, axis=1)
    last = off[:, -1].copy()  # points per row = the index of its final point in tp0 (after the origin)
    off -= n_el  # first element of each block, per row
    tp_el, fp_el = np.zeros((m, int(last.max()))), np.zeros((m, int(last.max())))
    mr, mb = np.nonzero(~hit)
    at = off[mr, mb]
    tp_el[mr, at] = tp_blk[mr, mb]
    fp_el[mr, at] = fp_blk[mr, mb]
    inside = np.repeat(off[rr, hb] - np.r_[0, np.cumsum(width)[:-1]], width) + np.arange(int(width.sum()))
    row = np.repeat(rr, width)
    tp_el[row, inside] = tp_in
    fp_el[row, inside] = fp_in
    tp0, fp0 = np.zeros((m, tp_el.shape[1] + 1)), np.zeros((m, tp_el.shape[1] + 1))
    np.cumsum(tp_el, axis=1, out=tp0[:, 1:])  # whole counts: exact in any order; the padding adds zeros
    np.cumsum(fp_el, axis=1, out=fp0[:, 1:])
    return tp0, fp0, last


def _hit_blocks(tp_end: np.ndarray, fp_end: np.ndarray, grid: dict[str, np.ndarray], curves: tuple[str, ...]
                ) -> np.ndarray:
    """The blocks (sorted) holding every operating point the kernels of ``curves`` read, from the points at the
    block ends (``tp_end``/``fp_end``: the origin, then the end of each block): a point :func:`_crossings` finds
    at index i (the end of block i - 1) lies in block i - 1 in the whole curve too, and the point before it in
    the same block or at its start (the end of the block before: kept)."""
    nb = tp_end.size - 1
    hit = np.zeros(nb, dtype=bool)
    for c in curves:
        hit[np.clip(_crossings(c, tp_end, fp_end, grid[c]) - 1, 0, nb - 1)] = True
    return np.flatnonzero(hit)


def _compact_points(tp_blk: np.ndarray, fp_blk: np.ndarray, hb: np.ndarray, bstart: np.ndarray, bend: np.ndarray,
                    tp_in: np.ndarray, fp_in: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A resample's operating points at the block ends and at every tie group of the blocks ``hb``: ``tp_blk``,
    ``fp_blk`` its counts per block, ``tp_in``, ``fp_in`` its counts per tie group of those blocks (in order);
    cumulative, from the origin (the subsequence of its operating points the kernels read, exact: whole counts)."""
    nb = tp_blk.size
    n_el = np.ones(nb, dtype=np.int64)
    n_el[hb] = bend[hb] - bstart[hb]
    off = np.r_[0, np.cumsum(n_el)[:-1]]
    tp_el, fp_el = np.zeros(int(n_el.sum())), np.zeros(int(n_el.sum()))
    miss = np.ones(nb, dtype=bool)
    miss[hb] = False
    tp_el[off[miss]] = tp_blk[miss]
    fp_el[off[miss]] = fp_blk[miss]
    width = n_el[hb]
    inside = np.repeat(off[hb] - np.r_[0, np.cumsum(width)[:-1]], width) + np.arange(int(width.sum()))
    tp_el[inside] = tp_in
    fp_el[inside] = fp_in
    tp0, fp0 = np.zeros(tp_el.size + 1), np.zeros(fp_el.size + 1)
    np.cumsum(tp_el, out=tp0[1:])
    np.cumsum(fp_el, out=fp0[1:])
    return tp0, fp0


#: Rows per leaf of :func:`_tree_replicates`' tree (consecutive tie groups; a tie group is never cut).
LEAF_ROWS = 16
#: From this many rows the two-stage draws descend a tree (:func:`_tree_replicates`: fewer draws per resample, more
#: array operations; faster at 10^6 rows, slower at 10^5) instead of counting every block (:func:`_block_replicates`).
TREE_MIN_ROWS = 300_000


def _search_values(curve: str, tp: np.ndarray, fp: np.ndarray, p: float, nn: float, last: np.ndarray) -> np.ndarray:
    """What the kernel of ``curve`` binary-searches, at operating points ``tp``/``fp`` (``last``: the final point,
    everything positive), with the kernel's own operations: ROC's FPR, PR's recall, PRG's recall gain."""
    if curve == "roc":
        return fp / nn
    if curve == "pr":
        return tp / p
    with np.errstate(divide="ignore", invalid="ignore"):
        rg = np.where(tp > 0, 1.0 - (p / nn) * ((p - tp) / tp), -np.inf)
    return np.where(last, 1.0, rg)


def _tree_points(m: int, prefix: np.ndarray, s_pos: np.ndarray, bstart: np.ndarray, bend: np.ndarray,
                 grid: dict[str, np.ndarray], curves: tuple[str, ...], left_counts, leaf_counts
                 ) -> list[tuple[np.ndarray, np.ndarray]]:
    """The operating points the kernels read, of ``m`` resamples (module docstring, "Many distinct scores"): from
    the root (every leaf, each stratum's rows all drawn) each node holding a point the kernels read is split in two
    halves of leaves, ``left_counts(k, node, lo, mid, hi, count)`` giving stratum k's draws in the left half
    (the binomial); a half holding none is one operating point (its end); a leaf holding one gives every tie
    group's point, ``leaf_counts(node, leaf, counts)`` their draws: per tie group of those leaves (in order) the
    positives and negatives.  Returns per resample ``(tp0, fp0)``: a subsequence of its operating points holding
    every point the kernels read (and its first and last), in order.  ``prefix``: (strata, leaves + 1) the rows of
    each stratum before each leaf; ``s_pos`` each stratum's class."""
    n_s, nb = prefix.shape[0], prefix.shape[1] - 1
    p, nn = float(prefix[s_pos, -1].sum()), float(prefix[~s_pos, -1].sum())
    side = {c: "left" if c == "roc" else "right" for c in curves}  # ROC: a <= f < b; PR, PRG: a < r <= b
    zero = "pr" in curves and grid["pr"][0] == 0.0  # PR at recall 0: the first point with a positive

    def place(tp: np.ndarray, fp: np.ndarray, last: bool) -> list[np.ndarray]:
        """Per curve, the grid points at or below (ROC) / below (PR, PRG) each point's searched value."""
        flag = np.full(tp.shape, last)
        return [np.searchsorted(grid[c], _search_values(c, tp, fp, p, nn, flag), side[c]) for c in curves]

    node = np.arange(m)  # resample of each active node
    lo, hi = np.zeros(m, dtype=np.int64), np.full(m, nb, dtype=np.int64)
    cnt = np.repeat(prefix[:, -1:], m, axis=1)  # (strata, nodes)
    tp_b, fp_b = np.zeros(m), np.zeros(m)  # the points before each node
    tp_e = np.full(m, p)  # the positives up to each node's end
    ia, ib = place(tp_b, fp_b, False), place(np.full(m, p), np.full(m, nn), True)  # at each node's start and end
    done_res, done_key, done_tp, done_fp = [], [], [], []
    leaf_res, leaf_at, leaf_cnt = [], [], []
    while node.size:
        leaf = hi - lo == 1
        if leaf.any():
            leaf_res.append(node[leaf])
            leaf_at.append(lo[leaf])
            leaf_cnt.append(cnt[:, leaf])
            keep = ~leaf
            node, lo, hi, cnt, tp_b, fp_b, tp_e = (node[keep], lo[keep], hi[keep], cnt[:, keep], tp_b[keep],
                                                   fp_b[keep], tp_e[keep])
            ia, ib = [x[keep] for x in ia], [x[keep] for x in ib]
            if not node.size:
                break
        mid = (lo + hi) // 2
        left = np.stack([left_counts(k, node, lo, mid, hi, cnt[k]) for k in range(n_s)])
        tp_m = tp_b + left[s_pos].sum(axis=0)
        fp_m = fp_b + left[~s_pos].sum(axis=0)
        im = place(tp_m, fp_m, False)  # the point between the halves (never the last: mid < hi)
        read_l = np.zeros(node.size, dtype=bool)
        read_r = np.zeros(node.size, dtype=bool)
        for k in range(len(curves)):
            read_l |= im[k] > ia[k]
            read_r |= ib[k] > im[k]
        if zero:
            read_l |= (tp_b == 0) & (tp_m > 0)
            read_r |= (tp_m == 0) & (tp_e > 0)
        fp_e = fp_b + cnt[~s_pos].sum(axis=0)
        # a half holding no point the kernels read: one operating point, its end
        for out, key, t0, f0, t1, f1 in ((~read_l, lo, tp_b, fp_b, tp_m, fp_m), (~read_r, mid, tp_m, fp_m, tp_e, fp_e)):
            done_res.append(node[out])
            done_key.append(bstart[key[out]])
            done_tp.append(t1[out] - t0[out])
            done_fp.append(f1[out] - f0[out])
        node = np.r_[node[read_l], node[read_r]]
        lo, hi = np.r_[lo[read_l], mid[read_r]], np.r_[mid[read_l], hi[read_r]]
        cnt = np.concatenate([left[:, read_l], (cnt - left)[:, read_r]], axis=1)
        tp_b, fp_b = np.r_[tp_b[read_l], tp_m[read_r]], np.r_[fp_b[read_l], fp_m[read_r]]
        tp_e = np.r_[tp_m[read_l], tp_e[read_r]]
        ia, ib = ([np.r_[x[read_l], y[read_r]] for x, y in zip(ia, im, strict=True)],
                  [np.r_[x[read_l], y[read_r]] for x, y in zip(im, ib, strict=True)])
    res = np.concatenate(done_res) if done_res else np.zeros(0, np.int64)
    key = np.concatenate(done_key) if done_key else np.zeros(0, np.int64)
    tp, fp = (np.concatenate(done_tp), np.concatenate(done_fp)) if done_tp else (np.zeros(0), np.zeros(0))
    if leaf_res:
        l_res, l_at = np.concatenate(leaf_res), np.concatenate(leaf_at)
        l_cnt = np.concatenate(leaf_cnt, axis=1)
        order = np.lexsort((l_at, l_res))
        l_res, l_at, l_cnt = l_res[order], l_at[order], l_cnt[:, order]
        width = bend[l_at] - bstart[l_at]
        g_tp, g_fp = leaf_counts(l_res, l_at, l_cnt)
        res = np.r_[res, np.repeat(l_res, width)]
        key = np.r_[key, np.repeat(bstart[l_at] - np.r_[0, np.cumsum(width)[:-1]], width) + np.arange(width.sum())]
        tp, fp = np.r_[tp, g_tp], np.r_[fp, g_fp]
    order = np.lexsort((key, res))
    res, tp, fp = res[order], tp[order], fp[order]
    cut = np.searchsorted(res, np.arange(m + 1))
    out = []
    for r in range(m):
        a, b = cut[r], cut[r + 1]
        tp0, fp0 = np.zeros(b - a + 1), np.zeros(b - a + 1)
        np.cumsum(tp[a:b], out=tp0[1:])
        np.cumsum(fp[a:b], out=fp0[1:])
        out.append((tp0, fp0))
    return out


def _tree_replicates(group: np.ndarray, yb: np.ndarray, stratum: np.ndarray, grid: dict[str, np.ndarray],
                     curves: tuple[str, ...], n_resamples: int, gen: np.random.Generator) -> dict[str, np.ndarray]:
    """Step 2 of the audit's bands on many distinct scores (module docstring, "Many distinct scores"): the tie
    groups cut into leaves of about :data:`LEAF_ROWS` rows, a stratum's draws split between the two halves of a
    node by a binomial with the halves' shares of its rows (the row draws' distribution), only where a point the
    kernels read lies (:func:`_tree_points`), and in a leaf holding one the rows drawn uniformly within it."""
    n = group.size
    n_groups = int(group.max()) + 1
    cum = np.cumsum(np.bincount(group, minlength=n_groups))
    edges = np.searchsorted(cum, np.arange(1, n // LEAF_ROWS + 1) * LEAF_ROWS, "left")
    bstart = np.unique(np.r_[0, np.minimum(edges + 1, n_groups)])
    bstart = bstart[bstart < n_groups]
    nb = bstart.size
    bend = np.r_[bstart[1:], n_groups]
    leaf_of = np.repeat(np.arange(nb), bend - bstart)
    strata = np.unique(stratum)
    s_code = np.searchsorted(strata, stratum)
    n_s = strata.size
    size = np.bincount(s_code * nb + leaf_of[group], minlength=n_s * nb)
    del leaf_of
    g_sorted = group[np.lexsort((group, s_code))]  # a (stratum, leaf) cell is one run of these rows
    start = np.r_[0, np.cumsum(size)[:-1]]
    prefix = np.zeros((n_s, nb + 1), dtype=np.int64)
    np.cumsum(size.reshape(n_s, nb), axis=1, out=prefix[:, 1:])
    s_pos = np.zeros(n_s, dtype=bool)
    s_pos[s_code[yb]] = True  # each stratum's class
    del s_code

    def left_counts(k, node, lo, mid, hi, count):
        rows = prefix[k, hi] - prefix[k, lo]
        share = np.divide(prefix[k, mid] - prefix[k, lo], rows, out=np.zeros(rows.size), where=rows > 0)
        return gen.binomial(count, share)

    def leaf_counts(res, at, counts):
        width = bend[at] - bstart[at]
        shift = np.r_[0, np.cumsum(width)[:-1]] - bstart[at]  # tie group -> its place among these leaves'
        tp_in, fp_in = np.zeros(int(width.sum())), np.zeros(int(width.sum()))
        for k in range(n_s):
            c = counts[k]
            cells = k * nb + at
            u = gen.random(int(c.sum()))
            u *= np.repeat(size[cells], c)
            pos = u.astype(np.int64)
            pos += np.repeat(start[cells], c)
            local = g_sorted[pos]
            local += np.repeat(shift, c)
            (tp_in if s_pos[k] else fp_in)[:] += np.bincount(local, minlength=tp_in.size)
        return tp_in, fp_in

    reps = {c: np.empty((n_resamples, grid[c].size)) for c in curves}
    for b0 in range(0, n_resamples, TREE_CHUNK):
        m = min(TREE_CHUNK, n_resamples - b0)
        for r, (tp0, fp0) in enumerate(_tree_points(m, prefix, s_pos, bstart, bend, grid, curves, left_counts,
                                                    leaf_counts)):
            for c in curves:
                reps[c][b0 + r] = _KERNELS[c](tp0, fp0, grid[c])
    return reps


#: Resamples :func:`_tree_replicates` descends at once.
TREE_CHUNK = 64

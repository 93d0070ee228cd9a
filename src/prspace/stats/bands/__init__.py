"""Bootstrap bands for one model's ROC, PR and PRG curves: pointwise and simultaneous.

The procedure and its public functions; the curves at grid points are
:mod:`prspace.stats.bands.curve_kernels`, the resamples' draws :mod:`prspace.stats.bands.band_draws` (by rows, tie
cells, groups and blocks) and :mod:`prspace.stats.bands.tree_draws` (down a tree of leaves).  One module (over 400
lines) because a third of it is this statement of the procedure, kept beside the entry points it documents.

The procedure (stated once here, and in ``docs/audit.md``, section "Curve bands"):

1. **One sort.**  The scores are sorted once (:func:`tie_groups`, ``np.unique``'s numbers): every row gets its tie group
   (group 0 = highest score).  Tied scores are one operating point.
2. **Resamples as counts.**  ``n_boot`` stratified bootstrap resamples of the rows, drawn
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

from prspace.core.defaults import renamed_keyword, resolve_n_boot
from prspace.core.errors import InputError
from prspace.metrics.labels import default_positives
from prspace.stats.bands.band_draws import (  # noqa: F401 - the private draws: read (and replaced) here by the tests
    BLOCK_CHUNK,
    KERNEL_ROWS,
    _block_replicates,
    _block_sizes,
    _compact_points,
    _compact_rows,
    _crossings,
    _grouped_replicates,
    _hit_blocks,
    _hit_rows,
    _row_replicates,
    _tied_replicates,
)
from prspace.stats.bands.curve_kernels import (  # noqa: F401 - the kernels: read here by the tests
    _KERNELS,
    _ROW_KERNELS,
    _at,
    _pr_rows,
    _prg_rows,
    _roc_rows,
    _search_rows,
)
from prspace.stats.bands.tree_draws import (  # noqa: F401
    LEAF_ROWS,
    TREE_CHUNK,
    _search_values,
    _tree_cells,
    _tree_draws,
    _tree_points,
    _tree_replicates,
)

__all__ = ["CURVES", "Band", "CurveBand", "curve_bands", "handed_bands", "default_grid", "curve_at"]

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
        code = None  # one stratum: zeros, made when the draws read them (:func:`_replicates`)
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
    if not keep.all():  # every row kept (the audit's unit weights): the arrays as given, not copies of them
        y, s, w = y[keep], s[keep], w[keep]
        code = None if code is None else code[keep]
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
                n_boot: int | None = None, level: float = 0.95,
                rng: np.random.Generator | int | None = 0, groups: ArrayLike | None = None,
                tied: bool = False, n_resamples: int | None = None) -> dict[str, CurveBand]:
    """Pointwise and simultaneous bootstrap bands of one model's curves (module docstring).

    ``y``: 0/1 or bool labels (1 = positive); ``scores``: higher means more positive;
    ``sample_weight``: one non-negative weight per row (rows of weight 0 are dropped);
    ``strata``: optional label per row (e.g. the fold) crossed with the class for the stratified
    bootstrap; ``curves``: any of "roc", "pr", "prg"; ``grids``: curve -> grid in [0, 1]
    (default :func:`default_grid` with ``grid_size``); ``rng``: a Generator or a seed; ``groups``:
    optional group (patient, subject, site) per row: whole groups are resampled, within ``strata``
    where every group lies in one (module docstring, "Grouped rows"); without, bit for bit as before.
    ``n_boot``: bootstrap resamples (default :data:`prspace.core.defaults.N_BOOT`; ``n_resamples``, its former
    name, is deprecated: a :class:`FutureWarning`).  ``tied``: draw tied scores' counts per cell (module docstring, "Tied scores"), and many distinct scores' in two
    stages (from :data:`BLOCK_MIN_ROWS` rows, "Many distinct scores"): the audit's bands; off, the rows are drawn as
    before, bit for bit (the studies' Figure 5 keeps its numbers).
    Returns curve -> :class:`CurveBand`.  Bad input raises :class:`~prspace.core.errors.InputError`.
    """
    n_boot = renamed_keyword(n_boot, n_resamples, new_name="n_boot", old_name="n_resamples", where="curve_bands()")
    return handed_bands([y, scores, sample_weight, strata, groups], curves=curves, grids=grids, grid_size=grid_size,
                        n_boot=resolve_n_boot(n_boot), level=level, rng=rng, tied=tied)


def handed_bands(rows: list, *, curves: tuple[str, ...] = ("roc", "pr", "prg"),
                 grids: dict[str, ArrayLike] | None = None, grid_size: int = DEFAULT_GRID_SIZE,
                 n_boot: int, level: float = 0.95, rng: np.random.Generator | int | None = 0,
                 tied: bool = False) -> dict[str, CurveBand]:
    """:func:`curve_bands` of ``rows`` = ``[y, scores, sample_weight, strata, groups]`` handed over by their only
    holder: the list is emptied once they are checked, and each array is let go as soon as no later step reads it
    (the scores after the one sort, the weights once the draws need them no more), so that arrays only the list
    referred to are freed while the resamples are drawn (the audit's bands of 10^6 rows,
    :func:`prspace.audit.inference.audit_bands.start_ahead`, beside the audit's own arrays).  The same bands."""
    grid = _grids(curves, grids, grid_size, n_boot, level)
    n_boot = int(n_boot)
    yb, s, w, code, cluster = _inputs(*rows)
    rows.clear()
    group = tie_groups(s)  # the one sort: tie group, 0 = highest
    del s
    size = 2 * (int(group.max()) + 1)
    both = np.bincount(2 * group + yb, weights=w, minlength=size).reshape(-1, 2)
    tp0, fp0 = np.zeros(size // 2 + 1), np.zeros(size // 2 + 1)  # as curve_at's, summed once for the curves
    np.cumsum(both[:, 1], out=tp0[1:])
    np.cumsum(both[:, 0], out=fp0[1:])
    del both
    est = {c: _KERNELS[c](tp0, fp0, grid[c]) for c in curves}
    del tp0, fp0
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    parts = [group, yb, w, code, cluster]
    del group, yb, w, code, cluster
    reps = _replicates(parts, grid, curves, n_boot, gen, tied=tied)
    return {c: _band(c, grid[c], est[c], reps[c], float(level)) for c in curves}


def tie_groups(s: np.ndarray) -> np.ndarray:
    """Each row's tie group of the scores ``s`` (finite), 0 = the highest score: ``np.unique(-s,
    return_inverse=True)[1]``, the same numbers, with fewer arrays of the rows alive at once (one sort of the
    order, the sorted scores' buffer reused for the groups)."""
    order = np.argsort(-s)
    ranked = s[order]  # decreasing; equal scores (0.0 and -0.0 too) adjacent, as -s's ascending sort puts them
    new = np.empty(s.size, dtype=np.int64)  # per sorted row, its tie group: the count of new scores up to it
    new[:1] = 0
    np.not_equal(ranked[1:], ranked[:-1], out=new[1:])
    np.cumsum(new, out=new)
    group = ranked.view(np.int64)  # the sorted scores read no more: their buffer holds the groups
    group[order] = new
    return group


def _grids(curves: tuple[str, ...], grids: dict[str, ArrayLike] | None, grid_size: int, n_boot: int,
           level: float) -> dict[str, np.ndarray]:
    """:func:`curve_bands`' options checked; each curve's grid (given, or :func:`default_grid`)."""
    for c in curves:
        _check_curve(c)
    if not curves:
        raise InputError("curves is empty; ask for any of roc, pr, prg")
    if not 0.0 < float(level) < 1.0:
        raise InputError(f"level must lie strictly between 0 and 1, got {level!r}")
    if int(n_boot) != n_boot or int(n_boot) < 2:
        raise InputError(f"n_boot must be an integer >= 2, got {n_boot!r}")
    grids = grids or {}
    unknown = set(grids) - set(CURVES)
    if unknown:
        raise InputError(f"grids names unknown curve(s) {sorted(unknown)}; use roc, pr, prg")
    return {c: _grid(np.asarray(grids[c], dtype=np.float64), c) if c in grids else default_grid(c, grid_size)
            for c in curves}


def _replicates(parts: list, grid: dict[str, np.ndarray], curves: tuple[str, ...], n_boot: int,
                gen: np.random.Generator, *, tied: bool) -> dict[str, np.ndarray]:
    """Step 2 and the curves of every resample (module docstring): by groups, by tie cells, in two stages, or by
    rows, as :func:`curve_bands` chooses.  ``parts``: ``[group, yb, w, code, cluster]`` handed over (emptied
    here): the two-stage draws keep only their cells' arrays while they draw."""
    group, yb, w, code, cluster = parts
    parts.clear()
    n = group.size
    size = 2 * (int(group.max()) + 1)
    if code is None:  # one stratum: code 0 (2 * code + yb is the class)
        code = np.zeros(n, dtype=np.int64) if cluster is not None else None
    if cluster is not None:
        return _grouped_replicates(2 * group + yb, w, cluster, code, size, grid, curves, n_boot, gen)
    stratum = yb.astype(np.int64) if code is None else 2 * code + yb
    del code
    unit = bool(np.all(w == 1.0))
    if tied and unit and size * TIED_ROWS <= n:  # many rows per tie group: the stratum counts per tie group at once
        return _tied_replicates(2 * group + yb, stratum, size, grid, curves, n_boot, gen)
    if tied and unit and n >= BLOCK_MIN_ROWS and size // 2 >= BLOCK_MIN_GROUPS:  # many distinct scores
        del w
        if n < TREE_MIN_ROWS:
            return _block_replicates(group, yb, stratum, grid, curves, n_boot, gen)
        cells = _tree_cells(group, yb, stratum)
        del group, yb, stratum  # the descent reads the cells' arrays only
        return _tree_draws(cells, grid, curves, n_boot, gen)
    return _row_replicates(2 * group + yb, w, stratum, size, grid, curves, n_boot, gen, unit=unit)


#: Unit weights and at least this many rows per (tie group, class) cell on average: the resamples are drawn as
#: counts per cell (:func:`_tied_replicates`), not per row.
TIED_ROWS = 8

#: The audit's bands (``tied=True``, unit weights, no groups) of at least this many rows and :data:`BLOCK_MIN_GROUPS`
#: distinct scores, with too few rows per tie group for :func:`_tied_replicates`, draw their resamples in two stages
#: (:func:`_block_replicates`); with fewer distinct scores the row draws' curves are cheap (a pass over the tie groups).
BLOCK_MIN_ROWS = 50_000
BLOCK_MIN_GROUPS = 10_000

#: From this many rows the two-stage draws descend a tree (:func:`_tree_replicates`: fewer draws per resample, more
#: array operations; faster at 10^6 rows, slower at 10^5) instead of counting every block (:func:`_block_replicates`).
TREE_MIN_ROWS = 300_000


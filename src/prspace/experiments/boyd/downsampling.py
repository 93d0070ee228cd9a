"""Downsampling (Boyd et al. 2012, section 4.3 and Table 3, generalised).

Boyd et al. trained SAYU on the UW-CSE advisedBy task (1 positive : 24 negatives) after
subsampling the training negatives to 1:1, 1:2, ..., 1:10, and scored each model twice: on a
test set downsampled to the training ratio and on the original test set. AUCPR (and, less so,
AUCNPR) on the downsampled test set grew as the ratio approached 1:1 -- with no better model.

:func:`downsampling_experiment` does the same for any table of features and a panel of learners:
stratified k-fold cross-validation, repeated with different seeds; in every training fold the
negatives are subsampled to each ratio ``1:k``, and every model is scored on the test fold
downsampled to the same ratio and on the original test fold, with every metric of
:func:`prspace.metrics.all_metrics`. The functions here are pure: arrays and learner factories
in, data frames out; the CLI loads datasets and writes files.

:data:`BOYD_TABLE3` transcribes Boyd et al.'s Table 3, and :func:`table3_check` recomputes its
AUCNPR column from its AUCPR column and the skews (AUCNPR = (AUCPR - AUCPR_MIN) / (1 - AUCPR_MIN),
Boyd section 3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from prspace import metrics
from prspace.core.errors import InputError
from prspace.metrics.names import BOYD_METRICS

METRICS = BOYD_METRICS
TEST_SETS = ("downsampled", "original")
ORIGINAL = 0.0  # train_k value that marks "no subsampling" (the task's own ratio)

RUN_COLUMNS = [
    "task_id", "learner", "repeat", "fold", "train_k", "train_ratio", "task_k",
    "test", "test_pi", "n_pos_test", "n_neg_test", "n_pos_train", "n_neg_train",
    "aupr", "aucnpr", "auprg", "auroc", "average_precision",
]


def ratio_label(k: float, task_k: float | None = None) -> str:
    """``1:k`` for a subsampling ratio, ``original (1:24.0)`` for the task's own ratio."""
    if k == ORIGINAL:
        return "original" if task_k is None else f"original (1:{task_k:.1f})"
    return f"1:{k:g}"


def subsample_negatives(y: np.ndarray, k: float, rng: np.random.Generator) -> np.ndarray:
    """Indices (sorted) of all positives and ``round(k * n_pos)`` negatives drawn without replacement.

    ``k`` negatives per positive; if fewer negatives exist, all of them are kept.
    """
    y = np.asarray(y, dtype=bool)
    pos = np.flatnonzero(y)
    neg = np.flatnonzero(~y)
    n_keep = min(neg.size, max(1, int(round(k * pos.size))))
    keep_neg = rng.choice(neg, size=n_keep, replace=False)
    return np.sort(np.concatenate([pos, keep_neg]))


def _rng(seed: int, *keys: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([seed, *keys]))


def downsampling_experiment(
    X: pd.DataFrame | np.ndarray,
    y: np.ndarray,
    learners: Mapping[str, Callable[[int], Any]],
    *,
    score: Callable[[Any, Any], np.ndarray],
    ratios: Sequence[float] = (1, 2, 3, 4, 5, 10),
    n_folds: int = 5,
    repeats: int = 1,
    seed: int = 0,
    task_id: str = "",
) -> pd.DataFrame:
    """Train on negatives subsampled to ``1:k``; score on downsampled and original test folds.

    Parameters
    ----------
    X, y
        Features and labels (True = positive = minority class).
    learners
        ``name -> factory(seed)`` returning an unfitted scikit-learn estimator.
    score
        ``score(fitted, X_test) -> scores`` (higher = more positive), e.g.
        :func:`prspace.local.learners.score_of`.
    ratios
        Negatives per positive in the subsampled training folds. Ratios at or above the task's own
        ratio are skipped (they would not subsample); the task's own ratio is always run and
        marked ``train_k = 0`` ("original").
    n_folds, repeats, seed
        ``repeats`` stratified ``n_folds``-fold cross-validations; repeat ``r`` uses split seed
        ``(seed, r)``, learner seed ``seed + r`` and subsampling seeds ``(seed, r, fold, k)``, so
        every learner sees the same rows.

    Returns
    -------
    DataFrame with :data:`RUN_COLUMNS`: one row per learner x repeat x fold x training ratio x test
    set (``downsampled``: the test fold's negatives subsampled to the same ``1:k``; ``original``:
    the whole test fold). For ``train_k = 0`` both test sets are the original test fold.
    """
    y = np.asarray(y, dtype=bool)
    n_pos = int(y.sum())
    n_neg = int(y.size - n_pos)
    if n_pos < n_folds or n_neg < n_folds:
        raise InputError(
            f"task {task_id or '?'}: {n_pos} positives and {n_neg} negatives cannot fill "
            f"{n_folds} stratified folds; lower boyd.downsampling.folds or drop the task"
        )
    if not learners:
        raise InputError("no learners given; set boyd.downsampling.learners")
    bad = [k for k in ratios if not (k > 0 and np.isfinite(k))]
    if bad:
        raise InputError(f"downsampling ratios must be positive numbers of negatives per positive, got {bad}")
    task_k = n_neg / n_pos
    ks = sorted({float(k) for k in ratios if k < task_k}) + [ORIGINAL]
    take = (lambda idx: X.iloc[idx]) if isinstance(X, pd.DataFrame) else (lambda idx: np.asarray(X)[idx])

    from sklearn.model_selection import StratifiedKFold  # scikit-learn only where models are fitted

    rows: list[dict[str, Any]] = []
    for r in range(repeats):
        cv = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=int(_rng(seed, r).integers(2**31 - 1)))
        for f, (train, test) in enumerate(cv.split(np.zeros(y.size), y)):
            for k in ks:
                if k == ORIGINAL:
                    tr, te_down = train, test
                else:
                    tr = train[subsample_negatives(y[train], k, _rng(seed, r, f, int(k * 1000), 1))]
                    te_down = test[subsample_negatives(y[test], k, _rng(seed, r, f, int(k * 1000), 2))]
                for name, factory in learners.items():
                    model = factory(seed + r)
                    model.fit(take(tr), y[tr])
                    s_test = np.asarray(score(model, take(test)), dtype=np.float64)
                    s_down = s_test[np.searchsorted(test, te_down)]  # te_down is a sorted subset of test
                    for test_name, idx, s in (("downsampled", te_down, s_down), ("original", test, s_test)):
                        m = metrics.all_metrics(y[idx], s)
                        rows.append(
                            {
                                "task_id": task_id, "learner": name, "repeat": r, "fold": f,
                                "train_k": k, "train_ratio": ratio_label(k), "task_k": task_k,
                                "test": test_name, "test_pi": float(y[idx].mean()),
                                "n_pos_test": int(y[idx].sum()), "n_neg_test": int((~y[idx]).sum()),
                                "n_pos_train": int(y[tr].sum()), "n_neg_train": int((~y[tr]).sum()),
                                **{c: float(m[c]) for c in (*METRICS, "average_precision")},
                            }
                        )
    return pd.DataFrame(rows, columns=RUN_COLUMNS)


def task_runs(
    X: pd.DataFrame | np.ndarray,
    y: np.ndarray,
    learners: Mapping[str, Callable[[int], Any]],
    *,
    score: Callable[[Any, Any], np.ndarray],
    max_pi: float,
    provenance: str = "",
    **kw: Any,
) -> tuple[pd.DataFrame, str]:
    """One task's runs of :func:`downsampling_experiment` (keywords ``kw``) and a note saying what
    they are: no runs (empty, :data:`RUN_COLUMNS`) when the task's pi is above ``max_pi`` (Boyd's
    experiment is about skewed tasks), the note saying so.  One BLAS/OpenMP thread: the workflow
    runs tasks in parallel, and on small matrices a thread pool costs far more than it gives (about
    10x slower logistic regression on a busy machine)."""
    y = np.asarray(y, dtype=bool)
    pi = float(y.mean())
    if pi > max_pi:
        return pd.DataFrame(columns=RUN_COLUMNS), f"skipped: pi = {pi:.3f} > max_pi = {max_pi}"
    with threadpool_limits(limits=1):
        runs = downsampling_experiment(X, y, learners, score=score, **kw)
    return runs, f"pi = {pi:.4f}; source {provenance}"


def _ratio_order(df: pd.DataFrame) -> pd.DataFrame:
    # original (train_k = 0) goes last, like the 1:24 row of Boyd's Table 3
    key = df["train_k"].where(df["train_k"] != ORIGINAL, np.inf)
    return df.assign(_key=key).sort_values([c for c in ("task_id", "learner") if c in df] + ["_key"], kind="stable").drop(columns="_key")


def table3(runs: pd.DataFrame) -> pd.DataFrame:
    """Boyd's Table 3 per task and learner: mean over repeats and folds of every metric.

    One row per task x learner x training ratio; columns ``<test>_<metric>`` for
    ``test`` in (downsampled, original) and metric in :data:`METRICS`, plus the downsampled test
    skew ``test_pi`` and the number of folds averaged.
    """
    if runs.empty:
        return pd.DataFrame()
    keys = ["task_id", "learner", "train_k"]
    g = runs.groupby(keys + ["test"], sort=False)
    means = g[list(METRICS)].mean()
    wide = means.unstack("test")
    wide.columns = [f"{t}_{m}" for m, t in wide.columns]
    pis = runs[runs["test"] == "downsampled"].groupby(keys)["test_pi"].mean().rename("downsampled_test_pi")
    n = runs[runs["test"] == "original"].groupby(keys).size().rename("n_runs")
    task_k = runs.groupby(keys)["task_k"].first()
    out = pd.concat([pis, wide, n, task_k], axis=1).reset_index()
    out["train_ratio"] = [ratio_label(k, tk) for k, tk in zip(out["train_k"], out["task_k"], strict=True)]
    cols = ["task_id", "learner", "train_ratio", "train_k", "task_k", "downsampled_test_pi"]
    cols += [f"{t}_{m}" for t in TEST_SETS for m in METRICS] + ["n_runs"]
    return _ratio_order(out[cols]).reset_index(drop=True)


def learners_text(runs: pd.DataFrame, *, most: int = 8) -> str:
    """The learners of ``runs`` (column ``learner``) in words: their number, and their names when at most ``most``."""
    names = sorted(runs["learner"].astype(str).unique())
    return f"{len(names)} learner{'s' * (len(names) != 1)}" + (f" ({', '.join(names)})" if len(names) <= most else "")


def table3_summary(per_task: pd.DataFrame) -> pd.DataFrame:
    """Table 3 summarised over tasks: per learner (and ``all`` learners) x training ratio.

    For every ``<test>_<metric>`` column: the mean over tasks, the standard deviation over tasks
    and the number of tasks; plus ``gap_<metric>`` = downsampled minus original (the inflation
    that comes only from the test set's skew), mean over tasks.
    """
    if per_task.empty:
        return pd.DataFrame()
    value_cols = [f"{t}_{m}" for t in TEST_SETS for m in METRICS]
    df = per_task.copy()
    for m in METRICS:
        df[f"gap_{m}"] = df[f"downsampled_{m}"] - df[f"original_{m}"]
    value_cols += [f"gap_{m}" for m in METRICS]
    both = pd.concat([df, df.assign(learner="all learners")], ignore_index=True)
    # average the learners within a task first so every task weighs the same in "all learners"
    both = both.groupby(["learner", "train_k", "task_id"], sort=False)[value_cols + ["downsampled_test_pi"]].mean().reset_index()
    g = both.groupby(["learner", "train_k"], sort=False)
    mean = g[value_cols + ["downsampled_test_pi"]].mean()
    sd = g[value_cols].std(ddof=1).add_suffix("_sd")
    n = g.size().rename("n_tasks")
    out = pd.concat([mean, sd, n], axis=1).reset_index()
    n_all = per_task["learner"].nunique()
    out["n_learners"] = [n_all if lr == "all learners" else 1 for lr in out["learner"]]
    out["train_ratio"] = [ratio_label(k) for k in out["train_k"]]
    cols = ["learner", "train_ratio", "train_k", "n_tasks", "n_learners", "downsampled_test_pi"]
    for c in value_cols:
        cols += [c, f"{c}_sd"]
    return _ratio_order(out[cols]).reset_index(drop=True)


# Boyd et al. 2012, Table 3: SAYU on UW-CSE advisedBy; original test ratio 1 positive : 24
# negatives (pi = 0.04). Columns: ratio k (negatives per positive in train and downsampled test),
# AUCPR and AUCNPR on the downsampled test set, AUCPR and AUCNPR on the original test set.
BOYD_TABLE3: tuple[tuple[int, float, float, float, float], ...] = (
    (1, 0.851, 0.785, 0.330, 0.316),
    (2, 0.740, 0.680, 0.329, 0.315),
    (3, 0.678, 0.627, 0.343, 0.329),
    (4, 0.701, 0.665, 0.314, 0.299),
    (5, 0.599, 0.560, 0.334, 0.320),
    (10, 0.383, 0.352, 0.258, 0.242),
    (24, 0.363, 0.349, 0.363, 0.349),
)
BOYD_TABLE3_ORIGINAL_K = 24


def table3_check() -> pd.DataFrame:
    """Recompute Boyd's Table 3 AUCNPR values from its AUCPR values and the test skews.

    The skew of a test set with ratio 1:k is ``pi = 1 / (1 + k)``; AUCPR_MIN(pi) is Theorem 2
    (:func:`prspace.metrics.aupr_min`) and AUCNPR = (AUCPR - AUCPR_MIN) / (1 - AUCPR_MIN)
    (Boyd section 3). The published values carry three decimals, so agreement within about 0.001
    is the most the check can show.
    """
    rows = []
    for k, pr_down, npr_down, pr_orig, npr_orig in BOYD_TABLE3:
        for test, kk, pr, npr in (("downsampled", k, pr_down, npr_down), ("original", BOYD_TABLE3_ORIGINAL_K, pr_orig, npr_orig)):
            pi = 1.0 / (1.0 + kk)
            lo = float(metrics.aupr_min(pi))
            computed = (pr - lo) / (1.0 - lo)
            rows.append(
                {
                    "train_ratio": f"1:{k}", "test": test, "test_ratio": f"1:{kk}", "test_pi": pi,
                    "aucpr_min": lo, "aucpr_published": pr, "aucnpr_published": npr,
                    "aucnpr_computed": computed, "difference": computed - npr,
                }
            )
    return pd.DataFrame(rows)


def compare_with_paper(summary: pd.DataFrame) -> pd.DataFrame:
    """Boyd's Table 3 beside ours: per training ratio, their SAYU numbers and our all-learner means.

    Boyd's last row (1:24) is their task's original ratio; it sits beside our ``original`` row
    (each task's own ratio; ``our_test_pi`` gives the mean skew). Differences are not expected to
    vanish (other data, other learners); the pattern -- a large downsampled-minus-original gap at
    1:1 shrinking toward the original ratio, for AUCPR and AUCNPR alike -- is the comparison.
    """
    ours = summary[summary["learner"] == "all learners"].set_index("train_k")
    rows = []
    for k, pr_d, npr_d, pr_o, npr_o in BOYD_TABLE3:
        key = ORIGINAL if k == BOYD_TABLE3_ORIGINAL_K else float(k)
        row: dict[str, Any] = {
            "train_ratio": "original (Boyd: 1:24)" if key == ORIGINAL else f"1:{k}",
            "boyd_aucpr_downsampled": pr_d, "boyd_aucpr_original": pr_o,
            "boyd_aucnpr_downsampled": npr_d, "boyd_aucnpr_original": npr_o,
        }
        if key in ours.index:
            o = ours.loc[key]
            row |= {
                "our_test_pi": float(o["downsampled_test_pi"]), "n_tasks": int(o["n_tasks"]),
                "our_aupr_downsampled": float(o["downsampled_aupr"]), "our_aupr_original": float(o["original_aupr"]),
                "our_aucnpr_downsampled": float(o["downsampled_aucnpr"]), "our_aucnpr_original": float(o["original_aucnpr"]),
                "our_auroc_downsampled": float(o["downsampled_auroc"]), "our_auroc_original": float(o["original_auroc"]),
            }
        rows.append(row)
    return pd.DataFrame(rows)

"""``prspace audit``: where AUROC, AP, AUPR, AUCNPR and AUPRG disagree on *your* predictions.

Input is a table of scored test rows (one row per model x test example): a model
column, a binary label, a score (higher = more positive) and optionally a fold, a
task and a sample weight.  :func:`prepare` validates it and turns it into the
canonical frame (``task, model, fold, y, score, weight``); :func:`run_audit`
computes the metrics, the ranks and the findings; :func:`format_text`,
:func:`format_markdown` and :func:`plot_curves` present them.  Paths and files are
the command line's business (:mod:`prspace.cli.audit`).

What the audit computes, per task and model
    AUROC, AP, AUPR (hyperbolic interpolation), AUPR_MIN (Boyd et al. 2012,
    Theorem 2), AUCNPR, AUPRG and pi, all from :func:`prspace.metrics.all_metrics`.
    With folds, on the pooled test rows (all folds merged: Boyd et al. 2012,
    section 4.1, "ideally ... calculated on a single, merged data set") *and* the
    mean, standard deviation, minimum and maximum over folds.

The findings (each has a code, a severity and a sentence)
    ``aupr-below-min`` (error)
        AUPR < AUPR_MIN(pi), or (unit weights only) AP < AP_MIN (Theorem 3).  For
        a correct ranking this cannot happen: the worst possible ranking (every
        negative first) attains exactly the minimum, and ties only raise the
        area.  It means the labels, scores or weights are not what the metric
        code was given, or the metric code is wrong.
    ``skew-varies-folds`` / ``skew-varies-tasks`` (warning)
        The folds of a task (or the tasks) have skews whose AUPR_MIN differ by
        more than ``skew_tolerance`` (default 0.02 AUPR units), so a mean of AUPR
        over them averages scores with different floors (Boyd et al. 2012,
        sections 4.1-4.2).  The finding says whether averaging AUCNPR instead
        reorders the models.
    ``worse-than-random`` (warning)
        AUPRG < 0 on the pooled test rows, or averaged over folds (AUPRG is linear
        in PRG space, so its fold mean is meaningful): the PRG curve encloses less
        area than the random classifier's (precision gain 0 everywhere, AUPRG 0;
        Flach & Kull 2015, Figure 4 caption).
    ``below-always-positive`` (warning)
        No threshold of the model beats the always-positive classifier in F1:
        ``max_t F1(t) <= 2 pi / (1 + pi)``.  Equivalently its PRG curve never
        rises above the minor diagonal ``precG + recG = 1``, the baseline of PRG
        space (Flach & Kull 2015, section 3.1, Theorem 2 with beta = 1).
        A random classifier is such a model.
    ``downsampled-test`` (warning)
        Only with a training/population prevalence (``train_pi``): the test set is
        more balanced than the training data suggests, i.e. the odds of a positive
        on the test set are at least ``downsample_ratio`` (default 1.5) times the
        odds at ``train_pi``.  AUPR is then optimistic for the real skew (Boyd et
        al. 2012, section 4.3, Table 3).  The finding quotes each model's AUPR
        re-weighted to ``train_pi`` (negatives weighted up), which is what AUPR
        would be at that skew *if the test negatives are a uniform random subsample
        of the population's negatives* (ROC points are unchanged by such
        sampling; precision is not).
    ``balanced-test`` (note)
        Without ``train_pi``: a task's test set is exactly balanced (as many
        positives as negatives).  That is what downsampling to 1:1 produces; the
        audit cannot tell from test data alone, so it asks.
    ``fold-one-class`` (note)
        A fold holds a single class; it has no AUPR of its own and is left out of
        the fold means (its rows still count in the pooled metrics).
    ``skew-differs-models`` (note)
        Models of one task were scored on test sets with different skews, so their
        AUPRs have different floors and their ranks are not comparable.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace import metrics as M
from prspace.errors import InputError
from prspace.experiments import ranking

#: Metrics reported and ranked, in display order (keys of ``all_metrics``).
RANKED = ("auroc", "average_precision", "aupr", "aucnpr", "auprg")
LABELS = {**ranking.METRIC_LABELS, "aupr_min": "AUPR_MIN", "pi": "pi"}
#: Metric pairs whose disagreement the audit spells out (Flach & Kull's three, plus AP vs AUPR).
PAIRS = (("aupr", "auprg"), ("aupr", "auroc"), ("auprg", "auroc"), ("average_precision", "aupr"))

DEFAULT_COLUMNS = {
    "model": ("model", "model_id"),
    "label": ("y_true", "label", "y", "target"),
    "score": ("score", "y_score"),
    "fold": ("fold",),
    "task": ("task_id", "task"),
    "weight": (),
    "repeat": ("repeat",),
}
SINGLE_MODEL = "model"
SINGLE_TASK = "all"
SEVERITIES = ("error", "warning", "note")


# --------------------------------------------------------------------------- input


@dataclasses.dataclass(frozen=True)
class Columns:
    """Which input column holds what (``None``: absent)."""

    model: str | None
    label: str
    score: str
    fold: str | None = None
    task: str | None = None
    weight: str | None = None
    repeat: str | None = None


def resolve_columns(
    available: Sequence[str],
    *,
    model: str | None = None,
    label: str | None = None,
    score: str | None = None,
    fold: str | None = None,
    task: str | None = None,
    weight: str | None = None,
    repeat: str | None = None,
) -> Columns:
    """Pick the input columns: those named, else the first default name present.

    Defaults (:data:`DEFAULT_COLUMNS`) follow the predictions schema of
    :mod:`prspace.schema`.  Without a model column the whole file is one model;
    fold, task, weight and repeat are optional; an explicitly named column must exist.
    An empty string switches an optional column off.
    """
    cols = [str(c) for c in available]
    listing = ", ".join(repr(c) for c in cols)
    given = {
        "model": model,
        "label": label,
        "score": score,
        "fold": fold,
        "task": task,
        "weight": weight,
        "repeat": repeat,
    }
    chosen: dict[str, str | None] = {}
    for role, name in given.items():
        if name == "" and role in ("model", "fold", "task", "weight", "repeat"):
            chosen[role] = None
            continue
        if name is not None:
            if name not in cols:
                raise InputError(
                    f"no column {name!r} (given with --{role}-col); the file has columns {listing}: "
                    f"pass one of them with --{role}-col"
                )
            chosen[role] = name
            continue
        found = next((c for c in DEFAULT_COLUMNS[role] if c in cols), None)
        if found is None and role in ("label", "score"):
            tried = " or ".join(repr(c) for c in DEFAULT_COLUMNS[role])
            raise InputError(
                f"no {role} column: looked for {tried}; the file has columns {listing}: "
                f"name it with --{role}-col"
            )
        chosen[role] = found
    used = [c for c in chosen.values() if c is not None]
    dup = sorted({c for c in used if used.count(c) > 1})
    if dup:
        raise InputError(f"column {dup[0]!r} is used for two roles; give each role its own column")
    return Columns(**chosen)  # type: ignore[arg-type]


def _positive_mask(labels: pd.Series, pos_label: str | None, column: str) -> tuple[np.ndarray, str]:
    """Boolean positives from a two-valued label column, and a description of the positive class."""
    if labels.isna().any():
        first = int(np.flatnonzero(labels.isna().to_numpy())[0])
        raise InputError(
            f"column {column!r} has {int(labels.isna().sum())} missing labels (first at data row {first + 1}): "
            "drop those rows or fill in their labels"
        )
    values = pd.unique(labels)
    shown = ", ".join(
        repr(v.item() if hasattr(v, "item") else v) for v in sorted(values, key=str)[:6]
    )
    if len(values) > 2:
        raise InputError(
            f"column {column!r} has {len(values)} distinct labels ({shown}{', ...' if len(values) > 6 else ''}); "
            "the audit needs binary labels: recode it as 1 for the class of interest and 0 otherwise"
        )
    if len(values) < 2:
        raise InputError(
            f"column {column!r} holds one class only ({shown}); the metrics need positives and negatives: "
            "audit a test set that contains both"
        )
    if pos_label is not None:
        text = labels.astype(str)
        mask = (text == pos_label).to_numpy()
        if (
            not mask.any()
            and pd.api.types.is_numeric_dtype(labels)
            and not pd.api.types.is_bool_dtype(labels)
        ):
            try:
                mask = (labels.astype(np.float64) == float(pos_label)).to_numpy()
            except ValueError:
                mask = np.zeros(len(labels), dtype=bool)
        if (
            not mask.any()
            and pd.api.types.is_bool_dtype(labels)
            and pos_label.lower() in ("true", "1", "false", "0")
        ):
            mask = (labels == (pos_label.lower() in ("true", "1"))).to_numpy()
        if not mask.any():
            raise InputError(
                f"--pos-label {pos_label!r} matches no value of column {column!r} (its values: {shown}); "
                "pass one of those values"
            )
        return mask, f"{column} == {pos_label!r}"
    if pd.api.types.is_bool_dtype(labels):
        return labels.to_numpy(dtype=bool), f"{column} == True"
    if pd.api.types.is_numeric_dtype(labels):
        as_float = set(np.asarray(values, dtype=np.float64).tolist())
        if as_float in ({0.0, 1.0}, {-1.0, 1.0}):
            return (labels.to_numpy(dtype=np.float64) == 1.0), f"{column} == 1"
    raise InputError(
        f"column {column!r} has labels {shown}; say which one is the positive class with --pos-label "
        f"(e.g. --pos-label {str(sorted(values, key=str)[-1])!r})"
    )


def _numeric(df: pd.DataFrame, column: str, role: str) -> np.ndarray:
    raw = df[column]
    values = pd.to_numeric(raw, errors="coerce")
    bad = values.isna() & raw.notna()
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise InputError(
            f"column {column!r} ({role}) is not numeric: data row {i + 1} holds {raw.iloc[i]!r}; "
            f"give a numeric {role} column"
        )
    return values.to_numpy(dtype=np.float64)


def prepare(
    df: pd.DataFrame, columns: Columns, *, pos_label: str | None = None
) -> tuple[pd.DataFrame, str]:
    """Validate the input table and return the canonical frame and the positive-class description.

    Canonical columns: ``task`` (str), ``model`` (str), ``fold`` (str or ``None``
    without folds), ``y`` (bool, True = positive), ``score`` (float64, finite),
    ``weight`` (float64, >= 0).  Raises :class:`~prspace.errors.InputError` naming
    the problem and the fix for: no rows, non-binary or missing labels, a single
    class (overall or within one task and model), non-numeric, missing or infinite
    scores, and negative, missing or all-zero weights.
    """
    if len(df) == 0:
        raise InputError(
            "the file has no data rows; audit a file with one row per model and test example"
        )
    y, positive = _positive_mask(df[columns.label], pos_label, columns.label)
    score = _numeric(df, columns.score, "score")
    nan = np.isnan(score)
    if nan.any():
        i = int(np.flatnonzero(nan)[0])
        where = f", model {df[columns.model].iloc[i]!r}" if columns.model else ""
        raise InputError(
            f"column {columns.score!r} has {int(nan.sum())} missing (NaN) scores (first at data row {i + 1}{where}); "
            "drop those rows or give every row a score"
        )
    if np.isinf(score).any():
        i = int(np.flatnonzero(np.isinf(score))[0])
        raise InputError(
            f"column {columns.score!r} has {int(np.isinf(score).sum())} infinite scores (first at data row {i + 1}); "
            "clip them to finite values (only their order matters)"
        )
    if columns.weight:
        weight = _numeric(df, columns.weight, "sample weight")
        if np.isnan(weight).any() or np.isinf(weight).any() or (weight < 0).any():
            i = int(np.flatnonzero(~(np.isfinite(weight) & (weight >= 0)))[0])
            raise InputError(
                f"column {columns.weight!r} (sample weights) must be finite and >= 0; data row {i + 1} holds "
                f"{df[columns.weight].iloc[i]!r}: fix or drop that row"
            )
    else:
        weight = np.ones(len(df), dtype=np.float64)

    def text(col: str | None, default: str | None) -> pd.Series:
        if col is None:
            return pd.Series([default] * len(df), dtype=object)
        values = df[col]
        if values.isna().any():
            i = int(np.flatnonzero(values.isna().to_numpy())[0])
            raise InputError(
                f"column {col!r} is empty in data row {i + 1}; fill it in or drop the row"
            )
        names = {v: _display(v) for v in pd.unique(values)}  # per distinct value, not per row
        return values.map(names).astype(object).reset_index(drop=True)

    if columns.repeat:
        text(columns.repeat, None)  # no empty repeats

    out = pd.DataFrame(
        {
            "task": text(columns.task, SINGLE_TASK),
            "model": text(columns.model, columns.score if columns.model is None else None),
            "fold": _fold_keys(text(columns.fold, None), columns, df),
            "y": y,
            "score": score,
            "weight": weight,
        }
    )
    for (task, model), g in out.groupby(["task", "model"], sort=True):
        w_pos = float(g.loc[g["y"], "weight"].sum())
        w_neg = float(g.loc[~g["y"], "weight"].sum())
        if w_pos <= 0 or w_neg <= 0:
            missing = "positives" if w_pos <= 0 else "negatives"
            where = _where(task, model, out["task"].nunique() > 1)
            raise InputError(
                f"{where} has no {missing} (with positive weight); its metrics are undefined: "
                "give it a test set with both classes or drop it"
            )
    return out, positive


def _fold_keys(fold: pd.Series, columns: Columns, df: pd.DataFrame) -> pd.Series:
    """Fold identity: the fold, or ``repeat/fold`` when a repeat column has several values.

    Fold 0 of repeat 0 and fold 0 of repeat 1 hold different test rows (the
    predictions schema's ``repeat``), so they are different folds.
    """
    if columns.fold is None or columns.repeat is None or df[columns.repeat].nunique() < 2:
        return fold
    names = {v: _display(v) for v in pd.unique(df[columns.repeat])}
    repeat = df[columns.repeat].map(names).astype(str).reset_index(drop=True)
    return (repeat + "/" + fold.astype(str)).astype(object)


def _display(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _where(task: str, model: str, multi_task: bool) -> str:
    parts = []
    if multi_task or task != SINGLE_TASK:
        parts.append(f"task {task!r}")
    parts.append(f"model {model!r}")
    return ", ".join(parts)


# --------------------------------------------------------------------------- metrics


def _metrics(y: np.ndarray, score: np.ndarray, weight: np.ndarray, where: str) -> dict[str, float]:
    try:
        m = M.all_metrics(y, score, sample_weight=weight)
    except ValueError as exc:  # the metrics module's own validation, with our context
        raise InputError(f"{where}: {exc}") from None
    out = {k: float(m[k]) for k in (*RANKED, "pi", "n_pos", "n_neg")}
    out["aupr_min"] = float(M.aupr_min(out["pi"]))
    return out


def _ap_min(y: np.ndarray, weight: np.ndarray) -> float:
    """AP_MIN (Boyd et al. 2012, Theorem 3) for unit weights; NaN (no check) with other weights."""
    if not np.all(weight == 1.0):
        return float("nan")
    return float(M.ap_min(int(y.sum()), int((~y).sum())))


def pooled_metrics(data: pd.DataFrame) -> pd.DataFrame:
    """One row per (task, model): the metrics on all its test rows (folds merged)."""
    rows = []
    multi = data["task"].nunique() > 1
    for (task, model), g in data.groupby(["task", "model"], sort=True):
        y, s, w = g["y"].to_numpy(), g["score"].to_numpy(), g["weight"].to_numpy()
        row = {"task": task, "model": model, **_metrics(y, s, w, _where(task, model, multi))}
        row["ap_min"] = _ap_min(y, w)
        row["n_rows"] = len(g)
        rows.append(row)
    return pd.DataFrame(rows)


def fold_metrics(data: pd.DataFrame) -> pd.DataFrame:
    """One row per (task, model, fold); ``one_class`` marks folds with a single class (no metrics)."""
    rows = []
    if data["fold"].isna().all():
        return pd.DataFrame(
            columns=["task", "model", "fold", *RANKED, "pi", "aupr_min", "ap_min", "one_class"]
        )
    multi = data["task"].nunique() > 1
    for (task, model, fold), g in data.groupby(["task", "model", "fold"], sort=True):
        y, s, w = g["y"].to_numpy(), g["score"].to_numpy(), g["weight"].to_numpy()
        one_class = not (w[y].sum() > 0 and w[~y].sum() > 0)
        row: dict[str, object] = {
            "task": task,
            "model": model,
            "fold": fold,
            "one_class": one_class,
        }
        if not one_class:
            row |= _metrics(y, s, w, f"{_where(task, model, multi)}, fold {fold!r}")
            row["ap_min"] = _ap_min(y, w)
        rows.append(row)
    return pd.DataFrame(rows)


def fold_summary(folds: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard deviation (ddof=1), minimum and maximum over folds per (task, model)."""
    usable = folds[~folds["one_class"].astype(bool)] if len(folds) else folds
    if usable.empty:
        return pd.DataFrame()
    g = usable.groupby(["task", "model"], sort=True)
    parts = {"n_folds": g.size()}
    for m in (*RANKED, "pi", "aupr_min"):
        col = g[m]
        parts[f"{m}_mean"] = col.mean()
        parts[f"{m}_sd"] = col.std(ddof=1)
        parts[f"{m}_min"] = col.min()
        parts[f"{m}_max"] = col.max()
    return pd.DataFrame(parts).reset_index()


# --------------------------------------------------------------------------- findings


@dataclasses.dataclass(frozen=True)
class Finding:
    """One thing the audit noticed: ``severity`` is error, warning or note."""

    code: str
    severity: str
    where: str
    message: str


def _fmt(x: float, digits: int = 3) -> str:
    return "nan" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def _names(models: Sequence[str]) -> str:
    models = list(models)
    if len(models) <= 1:
        return "".join(models)
    return ", ".join(models[:-1]) + " and " + models[-1]


def _best_f1(y: np.ndarray, score: np.ndarray, weight: np.ndarray) -> float:
    """The best F1 over all thresholds, from the metrics module's PR points."""
    precision, recall = _pr_points(y, score, weight)
    ok = (precision + recall) > 0
    if not ok.any():
        return 0.0
    return float(np.max(2 * precision[ok] * recall[ok] / (precision[ok] + recall[ok])))


def fold_skew_findings(
    folds: pd.DataFrame, *, skew_tolerance: float = 0.02, where=lambda task: ""
) -> list[Finding]:
    """``skew-varies-folds``: per task, folds whose AUPR_MIN spread exceeds ``skew_tolerance``.

    ``folds`` holds one row per (task, model, fold) with ``pi, aupr_min, aupr, aucnpr``
    (folds with one class already removed).  The finding says whether ranking the
    models by their mean AUCNPR over folds instead of their mean AUPR changes the
    order, and names the highest-placed pair of models that swap.
    """
    out = []
    for task, g in folds.groupby("task", sort=True):
        # the same test rows for every model is the usual case; report the widest spread
        spread = g.groupby("model")["aupr_min"].agg(lambda s: s.max() - s.min())
        if spread.max() <= skew_tolerance:
            continue
        gm = g[g["model"] == spread.idxmax()]
        means = g.groupby("model")[["aupr", "aucnpr"]].mean().reset_index()
        means["task"] = task
        flips = ranking.flipped_pairs(means, "aupr", "aucnpr", group="task", model="model")
        if len(flips):
            f = flips.iloc[0]
            consequence = (
                f"averaging AUCNPR instead reorders the models: {f['first']} beats {f['second']} by mean AUPR "
                f"({f['aupr_first']:.3f} vs {f['aupr_second']:.3f}) but loses by mean AUCNPR "
                f"({f['aucnpr_first']:.3f} vs {f['aucnpr_second']:.3f})"
                + (f", and {len(flips) - 1} more pair(s) swap" if len(flips) > 1 else "")
            )
        else:
            consequence = "here averaging AUCNPR instead gives the same order of models"
        out.append(
            Finding(
                "skew-varies-folds",
                "warning",
                where(task),
                f"the folds' skews differ: pi from {gm['pi'].min():.3f} to {gm['pi'].max():.3f}, so AUPR_MIN "
                f"from {gm['aupr_min'].min():.3f} to {gm['aupr_min'].max():.3f} (spread "
                f"{spread.max():.3f} > {skew_tolerance:g}); a mean of AUPR over these folds averages scores with "
                f"different floors (Boyd et al. 2012, 4.1); {consequence}. Prefer the pooled AUPR or the "
                "mean AUCNPR",
            )
        )
    return out


def find_issues(
    data: pd.DataFrame,
    pooled: pd.DataFrame,
    folds: pd.DataFrame,
    *,
    train_pi: dict[str, float] | None = None,
    skew_tolerance: float = 0.02,
    downsample_ratio: float = 1.5,
    tol: float = 1e-9,
) -> list[Finding]:
    """The findings documented in the module docstring, errors first."""
    out: list[Finding] = []
    multi_task = pooled["task"].nunique() > 1

    def where(task: str, model: str | None = None, fold: str | None = None) -> str:
        parts = [f"task {task}"] if multi_task else []
        if model is not None:
            parts.append(f"model {model}")
        if fold is not None:
            parts.append(f"fold {fold}")
        return ", ".join(parts)

    # aupr-below-min: pooled and per fold
    checks = [(r, None) for r in pooled.to_dict("records")]
    if len(folds):
        checks += [
            (r, r["fold"]) for r in folds[~folds["one_class"].astype(bool)].to_dict("records")
        ]
    for r, fold in checks:
        for value, floor, name in (
            (r["aupr"], r["aupr_min"], "AUPR"),
            (r["average_precision"], r["ap_min"], "AP"),
        ):
            if value < floor - tol:
                out.append(
                    Finding(
                        "aupr-below-min",
                        "error",
                        where(r["task"], r["model"], fold),
                        f"{name} = {value:.4f} is below its minimum {floor:.4f} for pi = {r['pi']:.4f}, "
                        "which no ranking can reach: the labels, scores or weights are not what they should be "
                        "(check the label encoding, --pos-label and the row alignment of scores and labels)",
                    )
                )

    # skew-differs-models: within a task, models evaluated on different skews
    for task, g in pooled.groupby("task", sort=True):
        if g["pi"].max() - g["pi"].min() > 1e-12:
            out.append(
                Finding(
                    "skew-differs-models",
                    "note",
                    where(task),
                    f"the models were scored on test sets of different skew (pi from {g['pi'].min():.3f} to "
                    f"{g['pi'].max():.3f}), so their AUPRs have different floors; rank them on the same test rows",
                )
            )

    # skew-varies-folds
    if len(folds):
        usable = folds[~folds["one_class"].astype(bool)]
        for (task, model), g in folds[folds["one_class"].astype(bool)].groupby(
            ["task", "model"], sort=True
        ):
            out.append(
                Finding(
                    "fold-one-class",
                    "note",
                    where(task, model),
                    f"fold(s) {_names([str(f) for f in g['fold']])} hold one class only: no AUPR of their own, left "
                    "out of the fold means (their rows still count in the pooled metrics)",
                )
            )
        out += fold_skew_findings(usable, skew_tolerance=skew_tolerance, where=where)

    # skew-varies-tasks
    if multi_task:
        per_task = pooled.groupby("task")[["pi", "aupr_min"]].mean()
        spread = float(per_task["aupr_min"].max() - per_task["aupr_min"].min())
        if spread > skew_tolerance:
            models_everywhere = pooled.groupby("model")["task"].nunique()
            keep = models_everywhere.index[models_everywhere == pooled["task"].nunique()]
            sub = pooled[pooled["model"].isin(keep)]
            consequence = ""
            if sub["model"].nunique() > 1:
                learners = ranking.learner_ranking_across_tasks(
                    sub, ("aupr", "aucnpr"), group="task", learner="model"
                )
                agree = ranking.learner_order_agreement(
                    learners, ("aupr", "aucnpr"), learner="model"
                ).iloc[0]
                if agree["top1_differs"] or (agree["spearman"] < 1 - 1e-12):
                    consequence = (
                        "; averaging AUCNPR instead reorders the models "
                        f"(best by mean AUPR: {agree['best_a']}; by mean AUCNPR: {agree['best_b']})"
                    )
                else:
                    consequence = "; here averaging AUCNPR instead gives the same order of models"
            out.append(
                Finding(
                    "skew-varies-tasks",
                    "warning",
                    "across tasks",
                    f"the tasks' skews differ: pi from {per_task['pi'].min():.3f} to {per_task['pi'].max():.3f}, "
                    f"AUPR_MIN from {per_task['aupr_min'].min():.3f} to {per_task['aupr_min'].max():.3f} "
                    f"(spread {spread:.3f} > {skew_tolerance:g}); a mean of AUPR over tasks averages scores with "
                    f"different floors (Boyd et al. 2012, 4.2){consequence}. Prefer the mean AUCNPR",
                )
            )

    # PRG baselines
    groups = data.groupby(["task", "model"], sort=False)
    for r in pooled.to_dict("records"):
        task, model = r["task"], r["model"]
        fold_mean = float("nan")
        if len(folds):
            fm = folds[
                (folds["task"] == task)
                & (folds["model"] == model)
                & ~folds["one_class"].astype(bool)
            ]
            fold_mean = float(fm["auprg"].mean()) if len(fm) else float("nan")
        if r["auprg"] < 0 or fold_mean < 0:
            which = []
            if r["auprg"] < 0:
                which.append(f"AUPRG = {r['auprg']:.3f} on the pooled test rows")
            if fold_mean < 0:
                which.append(f"AUPRG = {fold_mean:.3f} averaged over folds")
                if r["auprg"] >= 0:
                    which[-1] += (
                        f" (pooled: {r['auprg']:.3f}; single folds with few positives swing widely)"
                    )
            out.append(
                Finding(
                    "worse-than-random",
                    "warning",
                    where(task, model),
                    f"{' and '.join(which)}, below 0: in PRG space the model does worse than a random classifier, "
                    "whose AUPRG is 0 (Flach & Kull 2015); check that higher scores mean 'more positive'",
                )
            )
        g = groups.get_group((task, model))
        best = _best_f1(g["y"].to_numpy(), g["score"].to_numpy(), g["weight"].to_numpy())
        baseline = 2 * r["pi"] / (1 + r["pi"])
        if best <= baseline * (1 + 1e-12):
            out.append(
                Finding(
                    "below-always-positive",
                    "warning",
                    where(task, model),
                    f"no threshold beats the always-positive classifier: best F1 {best:.3f} <= {baseline:.3f} "
                    "(= 2pi/(1+pi)); its PRG curve never rises above the minor diagonal, the baseline of "
                    "PRG space (Flach & Kull 2015, 3.1). Predicting every example positive is at least as good",
                )
            )

    # downsampling
    for task, g in pooled.groupby("task", sort=True):
        pi = float(g["pi"].iloc[0])
        tp = (train_pi or {}).get(task)
        if tp is None:
            n_pos, n_neg = float(g["n_pos"].iloc[0]), float(g["n_neg"].iloc[0])
            if abs(n_pos - n_neg) <= 1e-9 * max(n_pos, 1.0) and n_pos + n_neg >= 10:
                out.append(
                    Finding(
                        "balanced-test",
                        "note",
                        where(task),
                        "the test set is exactly balanced (as many positives as negatives); if it was "
                        "downsampled, its AUPR overstates AUPR at the real skew: pass the real prevalence "
                        "with --train-pi to see by how much",
                    )
                )
            continue
        ratio = (pi / (1 - pi)) / (tp / (1 - tp))
        if ratio < downsample_ratio:
            continue
        sub = data[data["task"] == task]
        parts = []
        for model, gm in sub.groupby("model", sort=True):
            y, s, w = gm["y"].to_numpy(), gm["score"].to_numpy(), gm["weight"].to_numpy()
            m_pi = float(w[y].sum() / w.sum())
            # weight the negatives up so that the weighted prevalence is train_pi
            factor = (m_pi / (1 - m_pi)) / (tp / (1 - tp))
            rew = _metrics(y, s, np.where(y, w, w * factor), where(task, model))
            test_aupr = float(g.loc[g["model"] == model, "aupr"].iloc[0])
            parts.append(f"{model} {test_aupr:.3f} -> {rew['aupr']:.3f}")
        out.append(
            Finding(
                "downsampled-test",
                "warning",
                where(task),
                f"the test set (pi = {pi:.3f}) is more balanced than the training data (pi = {tp:.3f}; odds "
                f"ratio {ratio:.1f} >= {downsample_ratio:g}); AUPR on it is optimistic for the real skew "
                f"(Boyd et al. 2012, 4.3). AUPR re-weighted to pi = {tp:.3f}, assuming the test negatives are a "
                f"uniform random subsample: {'; '.join(parts)}",
            )
        )
    order = {s: i for i, s in enumerate(SEVERITIES)}
    return sorted(out, key=lambda f: order[f.severity])


# --------------------------------------------------------------------------- ranks


def disagreement_sentences(
    ranks: pd.DataFrame, pooled: pd.DataFrame, summary: pd.DataFrame | None = None
) -> dict[str, list[str]]:
    """Plain sentences, per task, on where the metrics' rankings of the models disagree.

    With ``summary`` (:func:`fold_summary`), also whether the pooled AUPR and the mean
    AUPR over folds order the models differently: pooling compares scores across
    folds, which assumes calibrated models (Boyd et al. 2012, 4.1).
    """
    out: dict[str, list[str]] = {}
    for task, r in ranks.groupby("task", sort=True):
        sentences: list[str] = []
        n = len(r)
        if n < 2:
            out[task] = ["Only one model: nothing to rank."]
            continue
        rr = r.set_index("model")
        for a, b in PAIRS:
            la, lb = LABELS[a], LABELS[b]
            best_a, best_b = ranking.top_k(rr[a], 1), ranking.top_k(rr[b], 1)
            d = ranking.disagreement(r, a, b, group="task", model="model").iloc[0]
            if best_a == best_b:
                s = f"{la} and {lb} agree on the best model ({_names(sorted(best_a))})"
            else:
                s = f"{la} and {lb} disagree on the best model: {la} picks {_names(sorted(best_a))}, {lb} picks {_names(sorted(best_b))}"
            if n > 3:
                t_a = [
                    m
                    for m, _ in sorted(
                        ranking.top_k(rr[a], 3).items(), key=lambda kv: (kv[1], kv[0])
                    )
                ]
                t_b = [
                    m
                    for m, _ in sorted(
                        ranking.top_k(rr[b], 3).items(), key=lambda kv: (kv[1], kv[0])
                    )
                ]
                if d["top3_differs"]:
                    s += (
                        f"; their top three differ ({la}: {', '.join(t_a)}; {lb}: {', '.join(t_b)})"
                    )
                else:
                    s += "; their top three are the same, in the same order"
            if not math.isnan(d["spearman"]):
                s += f"; rank correlation Spearman {d['spearman']:.2f}, Kendall {d['kendall']:.2f}"
            sentences.append(s + ".")
        flips = ranking.flipped_pairs(
            pooled[pooled["task"] == task], "aupr", "auprg", group="task", model="model"
        )
        if len(flips):
            f = flips.iloc[0]
            sentences.append(
                f"{len(flips)} pair(s) of models swap places between AUPR and AUPRG; the highest-ranked: "
                f"{f['first']} beats {f['second']} by AUPR ({f['aupr_first']:.3f} vs {f['aupr_second']:.3f}) "
                f"but loses by AUPRG ({f['auprg_first']:.3f} vs {f['auprg_second']:.3f})."
            )
        if summary is not None and len(summary):
            sentences += _pooled_vs_fold_mean(pooled[pooled["task"] == task], summary, task)
        out[task] = sentences
    return out


def _pooled_vs_fold_mean(pooled: pd.DataFrame, summary: pd.DataFrame, task: str) -> list[str]:
    means = summary.loc[summary["task"] == task, ["model", "aupr_mean"]]
    table = pooled[["task", "model", "aupr"]].merge(means, on="model")
    if len(table) < 2:
        return []
    flips = ranking.flipped_pairs(table, "aupr", "aupr_mean", group="task", model="model")
    if not len(flips):
        return ["The pooled AUPR and the mean AUPR over folds order the models the same way."]
    f = flips.iloc[0]
    return [
        f"The pooled AUPR and the mean AUPR over folds order the models differently ({len(flips)} "
        f"pair(s) swap): {f['first']} beats {f['second']} pooled ({f['aupr_first']:.3f} vs "
        f"{f['aupr_second']:.3f}) but not on average over folds ({f['aupr_mean_first']:.3f} vs "
        f"{f['aupr_mean_second']:.3f}). Pooling compares scores across folds, which assumes "
        "calibrated models; averaging does not, but averages AUPRs whose floors depend on each "
        "fold's skew "
        "(Boyd et al. 2012, 4.1)."
    ]


# --------------------------------------------------------------------------- the audit


@dataclasses.dataclass
class AuditResult:
    """Everything :func:`run_audit` found; tables sorted by task and model."""

    data: pd.DataFrame
    positive: str
    pooled: pd.DataFrame
    folds: pd.DataFrame
    fold_summary: pd.DataFrame
    ranks: pd.DataFrame
    sentences: dict[str, list[str]]
    findings: list[Finding]
    train_pi: dict[str, float] | None = None

    @property
    def has_folds(self) -> bool:
        return bool(len(self.folds))

    @property
    def exit_code(self) -> int:
        """1 if any finding is an error (results that cannot be right), else 0."""
        return int(any(f.severity == "error" for f in self.findings))


def run_audit(
    data: pd.DataFrame,
    positive: str = "",
    *,
    train_pi: float | dict[str, float] | None = None,
    skew_tolerance: float = 0.02,
    downsample_ratio: float = 1.5,
) -> AuditResult:
    """Audit the canonical frame from :func:`prepare`.

    ``train_pi`` is the prevalence of the positive class in the training data (or
    the population) before any downsampling: one number for every task, or a
    mapping task -> prevalence.
    """
    if isinstance(train_pi, (int, float)):
        if not 0 < float(train_pi) < 1:
            raise InputError(
                f"--train-pi must lie strictly between 0 and 1, got {train_pi}; give the training prevalence"
            )
        train_pi = {t: float(train_pi) for t in data["task"].unique()}
    pooled = pooled_metrics(data)
    folds = fold_metrics(data)
    summary = fold_summary(folds) if len(folds) else pd.DataFrame()
    ranks = ranking.rank_models(pooled, RANKED, group="task", model="model")
    sentences = disagreement_sentences(ranks, pooled, summary)
    findings = find_issues(
        data,
        pooled,
        folds,
        train_pi=train_pi,
        skew_tolerance=skew_tolerance,
        downsample_ratio=downsample_ratio,
    )
    return AuditResult(data, positive, pooled, folds, summary, ranks, sentences, findings, train_pi)


# --------------------------------------------------------------------------- presentation


def _table(rows: list[list[str]], header: list[str], *, markdown: bool) -> str:
    if markdown:
        lines = [
            "| " + " | ".join(header) + " |",
            "| " + " | ".join("---" if i == 0 else "---:" for i in range(len(header))) + " |",
        ]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]

    def fmt(r: list[str]) -> str:
        cells = zip(r, widths, strict=True)
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(cells))

    return "\n".join(["  " + fmt(header), *("  " + fmt(r) for r in rows)])


def _pooled_table(res: AuditResult, task: str, *, markdown: bool) -> str:
    g = res.pooled[res.pooled["task"] == task]
    cols = ("auroc", "average_precision", "aupr", "aupr_min", "aucnpr", "auprg")
    header = ["model", *(LABELS[c] for c in cols)]
    rows = [[str(r["model"]), *(_fmt(r[c]) for c in cols)] for r in g.to_dict("records")]
    return _table(rows, header, markdown=markdown)


def _fold_table(res: AuditResult, task: str, *, markdown: bool) -> str:
    g = res.fold_summary[res.fold_summary["task"] == task]
    cols = ("auroc", "average_precision", "aupr", "aucnpr", "auprg")
    header = ["model", *(LABELS[c] for c in cols)]
    pm = "±" if markdown else "+-"
    rows = [
        [str(r["model"]), *(f"{_fmt(r[c + '_mean'])} {pm} {_fmt(r[c + '_sd'])}" for c in cols)]
        for r in g.to_dict("records")
    ]
    return _table(rows, header, markdown=markdown)


def _rank_table(res: AuditResult, task: str, *, markdown: bool) -> str:
    g = res.ranks[res.ranks["task"] == task]
    header = ["model", *(LABELS[c] for c in RANKED)]
    rows = [[str(r["model"]), *(f"{r[c]:g}" for c in RANKED)] for r in g.to_dict("records")]
    return _table(rows, header, markdown=markdown)


def _overview(res: AuditResult) -> str:
    d = res.data
    n_folds = d["fold"].nunique() if res.has_folds else 0
    parts = [
        f"{len(d)} rows",
        f"{d['model'].nunique()} model{'s' if d['model'].nunique() != 1 else ''}",
        f"{d['task'].nunique()} task{'s' if d['task'].nunique() != 1 else ''}",
    ]
    if n_folds:
        parts.append(f"{n_folds} folds")
    return ", ".join(parts) + f"; positive class: {res.positive}"


def _task_header(res: AuditResult, task: str) -> str:
    g = res.pooled[res.pooled["task"] == task].iloc[0]
    name = f"task {task}: " if res.pooled["task"].nunique() > 1 or task != SINGLE_TASK else ""
    return (
        f"{name}pi = {g['pi']:.3f} ({g['n_pos']:g} positives, {g['n_neg']:g} negatives), "
        f"AUPR_MIN = {g['aupr_min']:.3f}"
    )


def _findings_lines(res: AuditResult) -> list[str]:
    if not res.findings:
        return ["No warnings: none of the checks fired."]
    return [
        f"{f.severity.upper()} [{f.code}]{' ' + f.where if f.where else ''}: {f.message}."
        for f in res.findings
    ]


def format_text(res: AuditResult, source: str = "") -> str:
    """The terminal summary."""
    lines = [f"prspace audit{(' of ' + source) if source else ''}", f"  {_overview(res)}", ""]
    for task in sorted(res.pooled["task"].unique()):
        lines.append(_task_header(res, task))
        lines.append("Pooled metrics" + (" (all folds merged)" if res.has_folds else "") + ":")
        lines.append(_pooled_table(res, task, markdown=False))
        if res.has_folds and len(res.fold_summary):
            lines += [
                "",
                "Mean +- standard deviation over folds:",
                _fold_table(res, task, markdown=False),
            ]
        lines += [
            "",
            "Ranks (1 = best; ties share the average rank):",
            _rank_table(res, task, markdown=False),
            "",
        ]
        lines.append("Where the metrics disagree:")
        lines += [_wrap(s, "  - ", "    ") for s in res.sentences[task]]
        lines.append("")
    lines.append("Findings:")
    lines += [_wrap(s, "  ", "      ") for s in _findings_lines(res)]
    return "\n".join(lines) + "\n"


def _wrap(text: str, first: str, rest: str, width: int = 100) -> str:
    import textwrap

    return textwrap.fill(
        text,
        width,
        initial_indent=first,
        subsequent_indent=rest,
        break_on_hyphens=False,
        break_long_words=False,
    )


def format_markdown(res: AuditResult, source: str = "", figure: str | None = None) -> str:
    """The Markdown report (``figure``: a relative path to the curves PNG)."""
    lines = [
        f"# prspace audit{(' of `' + source + '`') if source else ''}",
        "",
        _overview(res) + ".",
        "",
    ]
    lines += ["## Findings", ""]
    lines += [f"- {s}" for s in _findings_lines(res)]
    lines.append("")
    for task in sorted(res.pooled["task"].unique()):
        multi = res.pooled["task"].nunique() > 1
        lines += [
            f"## {'Task ' + task if multi else 'Metrics'}",
            "",
            _task_header(res, task) + ".",
            "",
        ]
        lines += [
            "Pooled" + (" (all folds merged)" if res.has_folds else "") + ":",
            "",
            _pooled_table(res, task, markdown=True),
            "",
        ]
        if res.has_folds and len(res.fold_summary):
            lines += [
                "Mean ± standard deviation over folds:",
                "",
                _fold_table(res, task, markdown=True),
                "",
            ]
        lines += [
            "Ranks (1 = best; ties share the average rank):",
            "",
            _rank_table(res, task, markdown=True),
            "",
        ]
        lines += (
            ["Where the metrics disagree:", ""] + [f"- {s}" for s in res.sentences[task]] + [""]
        )
    if figure:
        lines += ["## Curves", "", f"![ROC, PR and PRG curves of the models]({figure})", ""]
        lines += [
            "ROC (left; dotted: random), PR (middle; dashed: the minimum PR curve of Boyd et al. 2012, "
            "the unachievable region below it shaded; dotted: pi, the precision of random and "
            "always-positive classifiers), PRG (right; dotted: the minor diagonal, the always-positive "
            "baseline of Flach & Kull 2015). Curves are on the pooled test rows.",
            "",
        ]
    lines += [
        "## Definitions",
        "",
        "AUPR uses hyperbolic (exact) interpolation between PR points; AP is scikit-learn's step-wise "
        "average precision; AUPR_MIN = 1 + (1 - pi) ln(1 - pi) / pi is the smallest AUPR any ranking "
        "can have at skew pi; AUCNPR = (AUPR - AUPR_MIN) / (1 - AUPR_MIN) (Boyd et al. 2012); AUPRG is the "
        "area under the Precision-Recall-Gain curve (Flach & Kull 2015). See `prspace.audit` for how "
        "each finding is defined.",
        "",
    ]
    return "\n".join(lines)


def _pr_points(
    y: np.ndarray, score: np.ndarray, weight: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(precision, recall) at every distinct threshold, from :func:`prspace.metrics.pr_curve`."""
    curve = M.pr_curve(y, score, sample_weight=weight)
    precision, recall = _unpack_pr(curve)
    return np.asarray(precision, dtype=np.float64), np.asarray(recall, dtype=np.float64)


def _unpack_pr(curve: object) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(curve, dict):
        return np.asarray(curve["precision"]), np.asarray(curve["recall"])
    if hasattr(curve, "precision"):
        return np.asarray(curve.precision), np.asarray(curve.recall)
    precision, recall = curve[0], curve[1]
    return np.asarray(precision), np.asarray(recall)


# --------------------------------------------------------------------------- figure

#: Tasks drawn in the figure at most (one row of three panels each).
MAX_FIGURE_TASKS = 4
#: Above this many models the legends get two columns and a smaller font.
LEGEND_ONE_COLUMN = 8


def model_curves(data: pd.DataFrame, task: str) -> dict[str, dict[str, object]]:
    """Per model of ``task``: ROC, interpolated PR and PRG curves, from :mod:`prspace.metrics`."""
    out: dict[str, dict[str, object]] = {}
    for model, g in data[data["task"] == task].groupby("model", sort=True):
        y, s, w = g["y"].to_numpy(), g["score"].to_numpy(), g["weight"].to_numpy()
        out[model] = {
            "roc": M.roc_curve(y, s, sample_weight=w),
            # dense hyperbolic segments only while they are few; beyond, vertices suffice
            "pr": M.interpolate_pr_curve(
                pr := M.pr_curve(y, s, sample_weight=w), 20 if len(pr.recall) <= 1000 else 2
            ),
            "prg": M.prg_curve(y, s, sample_weight=w),
        }
    return out


def draw_curve_panels(
    axes: Sequence[object],
    curves: dict[str, dict[str, object]],
    table: pd.DataFrame,
    pi: float,
    title: str = "",
) -> None:
    """Draw ROC, PR (with the minimum PR curve and the pi baseline) and PRG panels on three axes.

    ``table`` is the pooled metrics of the task (for the legend); kept separate from
    the data so that a shared curve-panel helper can replace this function.
    """
    ax_roc, ax_pr, ax_prg = axes
    styles = ["-", "--", "-.", ":"]
    by_model = table.set_index("model")
    for i, (model, c) in enumerate(curves.items()):
        color, ls = f"C{i % 10}", styles[(i // 10) % len(styles)]
        m = by_model.loc[model]
        roc, pr, prg = c["roc"], c["pr"], c["prg"]
        ax_roc.plot(
            roc.fpr, roc.tpr, color=color, ls=ls, lw=1.6, label=f"{model} ({m['auroc']:.3f})"
        )
        ax_pr.plot(
            pr.recall, pr.precision, color=color, ls=ls, lw=1.6, label=f"{model} ({m['aupr']:.3f})"
        )
        keep = prg.recall_gain >= 0  # PRG space is the unit square; AUPRG uses recall gain >= 0
        ax_prg.plot(
            prg.recall_gain[keep],
            prg.precision_gain[keep],
            color=color,
            ls=ls,
            lw=1.6,
            label=f"{model} ({m['auprg']:.3f})",
        )
    ax_roc.plot([0, 1], [0, 1], color="0.5", ls=":", lw=1, label="random (0.5)")
    minimum = M.min_pr_curve(pi)
    ax_pr.fill_between(
        minimum.recall, 0, minimum.precision, color="0.85", zorder=0, label="unachievable"
    )
    ax_pr.plot(
        minimum.recall,
        minimum.precision,
        color="k",
        ls="--",
        lw=1,
        label=f"minimum PR curve ({M.aupr_min(pi):.3f})",
    )
    ax_pr.axhline(pi, color="0.5", ls=":", lw=1, label=f"pi = {pi:.3f}")
    ax_prg.plot([0, 1], [1, 0], color="0.5", ls=":", lw=1, label="always-positive baseline")
    ax_prg.axhline(0, color="0.7", lw=0.6)
    for ax, (xl, yl, name) in zip(
        axes,
        (
            ("false positive rate", "true positive rate", "ROC (AUROC)"),
            ("recall", "precision", "PR (AUPR)"),
            ("recall gain", "precision gain", "PRG (AUPRG)"),
        ),
        strict=True,
    ):
        ax.set_xlabel(xl)
        ax.set_ylabel(yl)
        ax.set_title(f"{title}{name}", fontsize=10)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1.02)
        ax.grid(True, lw=0.3, alpha=0.5)
        # below the panel: inside, the legend would hide the curves' best part
        many = len(curves) > LEGEND_ONE_COLUMN
        ax.legend(
            fontsize=6.5 if many else 8,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.13),
            ncol=2 if many else 1,
            frameon=False,
        )
    ax_prg.set_ylim(-0.25, 1.02)


def plot_curves(res: AuditResult, *, max_tasks: int = MAX_FIGURE_TASKS):
    """Figure with one row per task (at most ``max_tasks``): ROC, PR and PRG curves of the models."""
    from matplotlib.figure import Figure  # no pyplot: no global backend or figure state

    tasks = sorted(res.pooled["task"].unique())
    shown = tasks[:max_tasks]
    n_models = int(res.pooled.groupby("task")["model"].nunique().max())
    many = n_models > LEGEND_ONE_COLUMN
    legend_rows = math.ceil((n_models + 3) / (2 if many else 1))
    height = 5.4 + legend_rows * (0.13 if many else 0.17)  # inches per task: panels + legend
    fig = Figure(figsize=(15, height * len(shown)))
    axes = fig.subplots(len(shown), 3, squeeze=False)
    for row, task in zip(axes, shown, strict=True):
        table = res.pooled[res.pooled["task"] == task]
        pi = float(table["pi"].iloc[0])
        title = f"{task}: " if len(tasks) > 1 else ""
        draw_curve_panels(row, model_curves(res.data, task), table, pi, title)
    note = f"; {len(tasks) - len(shown)} more task(s) not drawn" if len(tasks) > len(shown) else ""
    fig.suptitle(f"Pooled test predictions; legend: model (area){note}", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.4 / fig.get_figheight()))  # room for the title
    return fig

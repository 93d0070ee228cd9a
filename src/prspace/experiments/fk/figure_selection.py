"""What the figures and the Boyd experiments draw: tasks and models chosen by rule, not by hand.

Pure functions (tables in, choices out, no I/O), so the command line and the rules only read
and write, and the tests reach every choice as a library call.

* Flach & Kull (2015), Figure 4 (right): the tasks at the lower and upper quartile of the
  per-task rank correlation between AUPR and AUPRG (:func:`prspace.experiments.ranking.quartile_groups`;
  the paper's quartiles were 0.944 and 0.991, :data:`PAPER_QUARTILES`).
* Figure 5: "in both datasets AUPR and AUPRG agree on the best model. However, in the
  white-clover dataset [the lower-quartile task] the second best is AdaBoost according to
  AUPRG and Logistic Regression according to AUPR" -- :func:`choose_flip` takes the flip
  among the top models of the lower-quartile task, if it flips by a visible margin
  (:data:`VISIBLE_GAP` in both metrics; the paper's flip: 0.049 in AUPR, 0.027 in AUPRG);
  else the task nearest the lower quartile of rho that has one; else (no visible flip in the
  study) the study's largest flip, and the figure says it cannot be seen.
* Figure 4 (left): tasks where models tie at AUROC = AUPR = AUPRG = 1 (:func:`saturated_tasks`)
  put their tied models all on one averaged rank; the heat map leaves them out.
* Flach & Kull Figure 2 on real scores (:func:`choose_pr_prg`).  The tasks of Boyd's downsampling and
  fold-skew experiments are chosen in :mod:`prspace.experiments.boyd.boyd_tasks`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from prspace import metrics as M
from prspace.core import registry as R
from prspace.experiments import ranking as RANKING

#: Flach & Kull (2015), section 4: the per-task Spearman correlations between AUPR and AUPRG
#: ranks of the tasks in Figure 4 (right), "selected as lower and upper quartiles among all tasks".
PAPER_QUARTILES = (0.944, 0.991)
#: Flach & Kull (2015), Figure 5 caption: AdaBoost (solid) vs Logistic Regression (dashed) on
#: white-clover: AUPR 0.724 vs 0.773, AUPRG 0.714 vs 0.687.
PAPER_FLIP = {"aupr": (0.724, 0.773), "auprg": (0.714, 0.687)}
#: The smallest difference, in AUPR and in AUPRG alike, that makes a flip visible in Figure 5: the
#: two models' areas then differ in the second decimal the legend prints and their curves part.
VISIBLE_GAP = 0.01


def paper_flip_note() -> str:
    """The paper's Figure 5 values, to print beside ours."""
    (a1, a2), (g1, g2) = PAPER_FLIP["aupr"], PAPER_FLIP["auprg"]
    return (f"Flach & Kull's Figure 5 (white-clover, their lower-quartile task): AdaBoost vs Logistic Regression, "
            f"AUPR {a1:.3f} vs {a2:.3f}, AUPRG {g1:.3f} vs {g2:.3f}.")


def saturated_tasks(metrics: pd.DataFrame, *, group: str = "task_id") -> list[str]:
    """Tasks where at least two models tie at AUROC = AUPR = AUPRG = 1 (perfect rankings).

    Their tied models share one average rank (e.g. 2.5 for four perfect models), which in a
    rank-by-rank heat map piles them onto one cell off the diagonal's start -- an artefact of
    the ties, not a disagreement between the metrics.  If the tasks table already carries a
    ``saturated`` column, use that instead.
    """
    perfect = (metrics[["auroc", "aupr", "auprg"]].to_numpy(np.float64).round(12) == 1.0).all(axis=1)
    counts = metrics.assign(_p=perfect).groupby(group)["_p"].sum()
    return sorted(str(t) for t in counts.index[counts >= 2])


def quartile_tasks(per_task: pd.DataFrame, metric_a: str = "aupr", metric_b: str = "auprg") -> dict[str, object]:
    """The tasks of Figure 4 (right) and the quartiles they stand for.

    Returns ``lower``, ``upper`` (task ids), ``q25``, ``q75`` (quantiles of the per-task Spearman's
    rho, numpy's linear method), ``rho_lower``, ``rho_upper`` (the chosen tasks' rho) and
    ``n_tasks`` (tasks with a defined rho).
    """
    sub = per_task[(per_task["metric_a"] == metric_a) & (per_task["metric_b"] == metric_b)]
    rho = sub.dropna(subset=["spearman"]).set_index("task_id")["spearman"]
    lo, hi = RANKING.quartile_groups(per_task, metric_a, metric_b)
    return {"lower": lo, "upper": hi, "q25": float(np.quantile(rho, 0.25)), "q75": float(np.quantile(rho, 0.75)),
            "rho_lower": float(rho[lo]), "rho_upper": float(rho[hi]), "n_tasks": int(rho.size)}


@dataclass(frozen=True)
class Flip:
    """Two models of one task ordered one way by AUPR and the other way by AUPRG."""

    task_id: str
    higher_aupr: str  #: better by AUPR, worse by AUPRG (the paper's Logistic Regression)
    higher_auprg: str  #: better by AUPRG, worse by AUPR (the paper's AdaBoost)
    best_position: int  #: the better of the two models' positions by AUPRG (1 = best)
    gap: float  #: the smaller of the two metrics' differences between the models
    reason: str
    visible: bool = True  #: ``gap`` >= the visible margin the choice asked for


def _top_flips(metrics: pd.DataFrame, tasks: list[str], top: int, metric_a: str, metric_b: str) -> pd.DataFrame:
    """Flips (:func:`prspace.experiments.ranking.flipped_pairs`) with a model in the top ``top`` by
    ``metric_b`` in ``tasks``, with ``gap`` = min(|delta metric_a|, |delta metric_b|), clearest first
    (ties by task and model ids)."""
    flips = RANKING.flipped_pairs(metrics[metrics["task_id"].isin(tasks)], metric_a, metric_b)
    flips = flips[flips["best_position"] <= top]
    flips = flips.assign(gap=np.minimum((flips[f"{metric_a}_first"] - flips[f"{metric_a}_second"]).abs(),
                                        (flips[f"{metric_b}_first"] - flips[f"{metric_b}_second"]).abs()))
    return flips.sort_values(["gap", "task_id", "first", "second"], ascending=[False, True, True, True], kind="stable")


def choose_flip(metrics: pd.DataFrame, tasks: list[str], *, top: int = 3, metric_a: str = "aupr",
                metric_b: str = "auprg", min_gap: float = VISIBLE_GAP) -> Flip | None:
    """Figure 5's pair, by rule (stated in ``docs/workflow.md``, Figures 4 and 5).

    ``tasks``: the lower-quartile task first (as the paper chose), then the others by the distance
    of their rho from the lower quartile. A flip is a pair ordered one way by ``metric_a`` and
    the other by ``metric_b`` (:func:`prspace.experiments.ranking.flipped_pairs`) with one of
    the two in the top ``top`` by ``metric_b`` (the paper's AdaBoost was second by AUPRG,
    Logistic Regression second by AUPR); its gap is the smaller of the two metrics' differences.

    1. The first task in ``tasks`` with a flip of gap >= ``min_gap`` (visible); in it, the flip
       with the largest gap (the flip least likely to hang on one example). Ties by model ids.
    2. No such flip in any task: the flip with the largest gap over all ``tasks``, marked
       ``visible=False`` (the figure says it cannot be seen).
    3. No flip among the top models at all: None.
    """
    labels = {metric_a: RANKING.METRIC_LABELS.get(metric_a, metric_a), metric_b: RANKING.METRIC_LABELS.get(metric_b, metric_b)}
    A, B = labels[metric_a], labels[metric_b]
    flips = _top_flips(metrics, tasks, top, metric_a, metric_b)
    if flips.empty:
        return None
    among = f"among pairs with a model in the top {top} by {B}"
    seen = flips[flips["gap"] >= min_gap]
    for i, task in enumerate(tasks):
        f = seen[seen["task_id"] == task]
        if f.empty:
            continue
        best = f.iloc[0]
        where = ("of the lower-quartile task, as the paper chose" if i == 0 else
                 f"of the task nearest the lower quartile of rho with one (none in the lower-quartile task {tasks[0]})")
        reason = (f"clearest flip (smaller of the {A} and {B} gaps: {best.gap:.4f}, at least {min_gap:g}) {among} "
                  f"{where}")
        return Flip(str(task), str(best["first"]), str(best["second"]), int(best["best_position"]), float(best.gap),
                    reason)
    best = flips.iloc[0]
    reason = (f"no pair {among} flips by at least {min_gap:g} in both {A} and {B} in any of the {len(tasks)} tasks; "
              f"drawn: the study's largest such flip (smaller gap {best.gap:.4f}, task {best.task_id}), too small to "
              f"see in the figure")
    return Flip(str(best.task_id), str(best["first"]), str(best["second"]), int(best["best_position"]),
                float(best.gap), reason, visible=False)


def tasks_by_quartile_distance(per_task: pd.DataFrame, q: float, *, metric_a: str = "aupr",
                               metric_b: str = "auprg") -> list[str]:
    """Task ids ordered by the distance of their Spearman's rho from ``q`` (then by id)."""
    sub = per_task[(per_task["metric_a"] == metric_a) & (per_task["metric_b"] == metric_b)].dropna(subset=["spearman"])
    sub = sub.assign(d=(sub["spearman"] - q).abs()).sort_values(["d", "task_id"])
    return [str(t) for t in sub["task_id"]]


def median_model(df: pd.DataFrame) -> tuple[pd.DataFrame, str, float]:
    """The first test fold of the first repeat, and its model with the median AUPRG (lower median)."""
    rep = int(df["repeat"].min())
    fold = int(df.loc[df["repeat"] == rep, "fold"].min())
    sub = df[(df["repeat"] == rep) & (df["fold"] == fold)]
    vals = {m: float(M.auprg(g["y_true"].to_numpy(bool), g["score"].to_numpy(np.float64)))
            for m, g in sub.groupby("model_id", sort=True)}
    order = sorted(vals, key=lambda m: (vals[m], m))
    model = order[len(order) // 2]
    return sub, model, vals[model]


def pr_prg_candidates(infos: list, *, target_positives: int, n: int = 8) -> list[int]:
    """Indices of the tasks worth trying for Figure 2: moderate skew (0.1 <= pi <= 0.45) first,
    then test folds of about ``target_positives`` positives (``n_pos / n_folds``); at most ``n``."""
    keyed = [((not (0.1 <= ti.pi <= 0.45), abs(ti.n_pos / max(ti.n_folds, 1) - target_positives), ti.task_id), i)
             for i, ti in enumerate(infos)]
    moderate = [k for k in keyed if not k[0][0]] or keyed
    return [i for _, i in sorted(moderate)[:n]]


def choose_pr_prg(candidates: list[tuple[object, pd.DataFrame]], *, target_auprg: float = 0.6):
    """Among ``(task_info, predictions)`` candidates, the one whose median-AUPRG model on its first
    test fold is nearest ``target_auprg`` (a curve with visible trade-offs, neither perfect nor
    random). Returns ``(task_info, fold_predictions, model_id)``."""
    best = None
    for info, df in candidates:
        sub, model, v = median_model(df)
        key = (abs(v - target_auprg), info.task_id)
        if best is None or key < best[0]:
            best = (key, info, sub, model)
    if best is None:
        raise ValueError("no candidate task to draw")
    return best[1], best[2], best[3]


def _aupr_first(per_task: pd.DataFrame) -> pd.DataFrame:
    """The per-task disagreement table with the pair written (aupr, auprg) whichever order it came in."""
    per_task = per_task.copy()
    swap = (per_task.metric_a == "auprg") & (per_task.metric_b == "aupr")
    per_task.loc[swap, ["metric_a", "metric_b"]] = ["aupr", "auprg"]
    return per_task


def saturated_from(tasks: pd.DataFrame | None, metrics: pd.DataFrame) -> list[str]:
    """Saturated tasks: the tasks table's ``saturated`` column if it has one, else :func:`saturated_tasks`."""
    if tasks is not None and "saturated" in tasks.columns:
        flag = tasks["saturated"].astype(str).str.strip().str.lower().isin(["true", "1", "yes"])
        return sorted(str(t) for t in tasks.loc[flag, "task_id"])
    return saturated_tasks(metrics)


@dataclass(frozen=True)
class FigureSelection:
    """What Flach & Kull Figures 4 and 5 draw for a study, and why (:func:`figure_selection`)."""

    quartiles: dict  #: :func:`quartile_tasks`
    flip: Flip | None
    scatter_tasks: list[str]  #: tasks of Figure 4 (right): the quartile tasks (+ Figure 5's, if elsewhere)
    scatter_labels: list[str]
    highlight: list[tuple[str, str]]  #: (task, model) pairs circled in Figure 4 (right)
    curves_task: str  #: task of Figure 5
    curves_models: list[str]  #: its two models
    curves_roles: list[str]
    curves_reason: str
    saturated: list[str]  #: tasks left out of Figure 4 (left)
    note: str  #: our quartiles beside the paper's

    @property
    def curves_note(self) -> str:
        """What Figure 5 draws and why, for the figure's note; says so when no flip is visible."""
        if self.flip is None:
            return f"No flip to draw: {self.curves_reason}; drawn: the best two models by AUPR of {self.curves_task}."
        if not self.flip.visible:
            return f"No visible flip: {self.curves_reason}."
        return f"Drawn here: the {self.curves_reason}."

    def table(self, metrics: pd.DataFrame, per_task: pd.DataFrame) -> pd.DataFrame:
        """One row per drawn task of Figure 4 (right) and per model of Figure 5."""
        q, (p_lo, p_hi) = self.quartiles, PAPER_QUARTILES
        per_task = _aupr_first(per_task)
        pair = per_task[(per_task.metric_a == "aupr") & (per_task.metric_b == "auprg")].set_index("task_id")["spearman"]
        pis = metrics.drop_duplicates("task_id").set_index("task_id")["pi"]
        nan = float("nan")
        rows = [{"figure": R.FIGURE_FIG4_AUPRG_VS_AUPR.name,
                 "role": f"{role} quartile of per-task Spearman (AUPR vs AUPRG): ours {ours:.3f}, paper {paper:.3f}",
                 "task_id": t, "model_id": "", "flow_name": "", "aupr": nan, "auprg": nan, "auroc": nan,
                 "spearman": float(pair[t]), "pi": float(pis[t])}
                for t, role, ours, paper in ((q["lower"], "lower", q["q25"], p_lo), (q["upper"], "upper", q["q75"], p_hi))]
        for m, role in zip(self.curves_models, self.curves_roles, strict=True):
            r = metrics[(metrics.task_id == self.curves_task) & (metrics.model_id == m)].iloc[0]
            rows.append({"figure": R.FIGURE_FIG5_CURVES.name, "role": f"{role}; {self.curves_reason}", "task_id": self.curves_task,
                         "model_id": m, "flow_name": r["flow_name"], "aupr": r["aupr"], "auprg": r["auprg"],
                         "auroc": r["auroc"], "spearman": float(pair.get(self.curves_task, nan)), "pi": float(r["pi"])})
        return pd.DataFrame(rows)


def figure_selection(metrics: pd.DataFrame, per_task: pd.DataFrame, tasks: pd.DataFrame | None = None) -> FigureSelection:
    """Choose what Figures 4 and 5 draw, as Flach & Kull chose it.

    Figure 4 (right): the quartile tasks (:func:`quartile_tasks`); Figure 5: :func:`choose_flip`
    over the lower-quartile task, then the others by distance of their rho from the lower
    quartile -- if the flip is in another task, that task joins Figure 4 (right) so its circled
    models are shown.  Without any flip among the top models, Figure 5 draws the best two models
    by AUPR of the lower-quartile task and says so.  ``per_task`` may list the pair as (auprg, aupr).
    """
    per_task = _aupr_first(per_task)
    q = quartile_tasks(per_task)
    lo, hi = q["lower"], q["upper"]
    order = [lo] + [t for t in tasks_by_quartile_distance(per_task, q["q25"]) if t != lo]
    flip = choose_flip(metrics, order)
    shown = [lo, hi]
    labels = [f"{lo}: rho {q['rho_lower']:.3f} (lower quartile)", f"{hi}: rho {q['rho_upper']:.3f} (upper quartile)"]
    if flip is not None and flip.task_id not in (lo, hi):
        shown.append(flip.task_id)
        labels.append(f"{flip.task_id}: the task of Figure 5 (no visible flip among the top models of the lower-quartile task)")
    if flip is None:
        top = metrics[metrics.task_id == lo].sort_values(["aupr", "model_id"], ascending=[False, True]).model_id
        task, models, roles = lo, [str(m) for m in top.iloc[:2]], ["best by AUPR", "second by AUPR"]
        why = "no pair of models with one in the top 3 by AUPRG is ordered differently by AUPR and AUPRG in any task"
        highlight = [(lo, m) for m in models]
    else:
        task, models = flip.task_id, [flip.higher_aupr, flip.higher_auprg]
        roles, why = ["higher AUPR, lower AUPRG", "higher AUPRG, lower AUPR"], flip.reason
        highlight = [(task, m) for m in models]
    p_lo, p_hi = PAPER_QUARTILES
    note = (f"Quartiles of the per-task Spearman's rho (AUPR vs AUPRG ranks) over {q['n_tasks']} tasks: "
            f"ours {q['q25']:.3f} and {q['q75']:.3f}; Flach & Kull (886 OpenML tasks): {p_lo:.3f} and {p_hi:.3f}.")
    return FigureSelection(q, flip, shown, labels, highlight, task, models, roles, why,
                           saturated_from(tasks, metrics), note)

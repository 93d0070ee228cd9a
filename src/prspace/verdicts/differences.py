"""How this replication differs from Flach & Kull's (2015) section-4 experiment, and what each
difference does to the comparison: one table, :data:`DIFFERENCES`, shown in ``summary.md`` and the
README through :func:`differences_markdown`.

Each row: ``what`` (the aspect), ``paper`` (what the paper did, in its words where it says),
``here`` (what this project does), ``effect`` (what it does to comparing our numbers with the
paper's). The population sizes of the studies come from their task tables when given
(:func:`differences_markdown`'s ``tasks``), never typed here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import pandas as pd

from prspace.core.panels import PANELS


class Difference(NamedTuple):
    what: str
    paper: str
    here: str
    effect: str


DIFFERENCES: tuple[Difference, ...] = (
    Difference(
        "panel of models",
        "per task, 30 models drawn at random from the OpenML runs of different flows (tasks with >= 30 flows); a "
        "different draw of learners on every task",
        "one fixed panel of 30 learners (prspace.local.learners) run on every task",
        "the paper's estimand averages over random panels; ours is conditional on one panel, so learner variation is "
        "outside every interval. panel_draws.csv gives each primary estimate's spread over random panels drawn per task "
        f"(20 of the study's 30; and, as Flach & Kull drew, 30 of a pool of {len(PANELS['pool'])} learners in "
        "results/panel-pool, made by make panel-pool), panel_sensitivity.csv the estimates with one model per learner method"),
    Difference(
        "population of tasks",
        "886 OpenML binary tasks covering 426 datasets",
        "offline studies: a default study of KEEL imbalanced tasks and a paper-like study of native, one-vs-rest and "
        "KEEL tasks from packaged data (sizes below); the OpenML study (source openml) draws from Flach & Kull's population",
        "a different mix of skews and sizes: disagreement rises as pi falls (skew_evidence.csv), so shares are not "
        "expected to match unless the skew distribution does (the skew counterfactual reweights to a reference pi); "
        "with tens of families instead of 426 datasets the intervals are several times wider"),
    Difference(
        "rows per dataset",
        "OpenML's full datasets; run listings read in full",
        "paper-like study: datasets above 1,000 rows subsampled (stratified, seed 0) for the run-time budget; OpenML "
        "study: the live server lists at most 1,000 runs per call, so listings are paged and a page that fails is "
        "completed flow by flow, with a warning",
        "smaller test sets make metric values noisier, which can raise disagreement (the noise floor measures how "
        "much); a listing that stops early can miss flows and change which 30 models are drawn"),
    Difference(
        "preprocessing",
        "whatever each OpenML flow did inside its own cross-validation",
        "the data packages impute and one-hot encode on the whole dataset before our folds (docs/local.md); our "
        "pipelines impute, encode and scale again inside each fold",
        "a little leakage common to all learners; it shifts all models' metrics together and is not expected to "
        "change which metric ranks which model first"),
    Difference(
        "saturated tasks and ties",
        "not stated",
        "a task where two models reach AUROC = AUPR = AUPRG = 1 counts as agreement of any two metrics; tied "
        "models share average ranks; every share is also given without saturated tasks (*_share_unsat)",
        "more saturated tasks lower every disagreement share; the convention is stated in the scorecard's note"),
    Difference(
        "top-3 disagreement",
        "'agree on top, second and third method' (an ordered top three)",
        "the ordered top three: the same three models in the same order",
        "none intended; an unordered reading would give lower shares"),
    Difference(
        "AUPR estimator",
        "'areas under ROC, PRG and PR curves (with hyperbolic interpolation as recommended by [2])'",
        "AUPR with Davis & Goadrich's hyperbolic interpolation (prspace.metrics.aupr); average precision (the step "
        "estimator) reported beside it as its own metric",
        "none for AUPR; AP differs from interpolated AUPR, and rows name which one they use"),
    Difference(
        "positive class",
        "'with minority class as positives'",
        "the minority class as positive on every task",
        "none"),
    Difference(
        "correlation",
        "'the pairwise correlations between the ranks across all tasks' (pooled over tasks)",
        "the mean over tasks of each task's Spearman correlation (equal to the pooled one when every task has the "
        "same number of untied models)",
        "ties and unequal panels make the two differ slightly"),
)

COLUMNS = ("what", "the paper", "this project", "effect on the comparison")


def differences_table() -> pd.DataFrame:
    """:data:`DIFFERENCES` as a DataFrame (columns :data:`COLUMNS`)."""
    return pd.DataFrame([tuple(d) for d in DIFFERENCES], columns=list(COLUMNS))


def _sizes(tasks: Mapping[str, pd.DataFrame]) -> str:
    parts = []
    for study, t in tasks.items():
        ok = t[t["status"] == "ok"] if "status" in t.columns else t
        fam = ok["family"].nunique() if "family" in ok.columns else len(ok)
        parts.append(f"`{study}`: {len(ok)} tasks in {fam} families")
    return "; ".join(parts)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def differences_markdown(tasks: Mapping[str, pd.DataFrame] | None = None) -> str:
    """The differences as a Markdown table with a one-line lead; ``tasks`` (study name -> its
    ``tasks.csv``) adds each study's number of tasks and families to the population row."""
    lines = ["**How this replication differs from Flach & Kull's experiment** (and what each difference does to the "
             "comparison):", "", "| " + " | ".join(COLUMNS) + " |", "|" + " --- |" * len(COLUMNS)]
    for d in DIFFERENCES:
        here = d.here
        if d.what == "population of tasks" and tasks:
            here = f"{here}: {_sizes(tasks)}"
        lines.append("| " + " | ".join(_cell(x) for x in (d.what, d.paper, here, d.effect)) + " |")
    return "\n".join(lines) + "\n"

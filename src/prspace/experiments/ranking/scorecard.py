"""Flach & Kull's published numbers (section 4) and the scorecard that sets this run's beside them."""



import pandas as pd

from prspace.metrics import METRIC_LABELS  # re-exported: the display names live in prspace.metrics

#: Flach & Kull (NIPS 2015), section 4: 886 OpenML tasks, 30 models from distinct flows
#: each; share of tasks where the best model (top-1) / the ordered top three (top-3)
#: differ, and "the correlation between [the metrics'] ranks" across all tasks (the paper
#: does not say which correlation).  Figure 4 (left) counts 25,980 models, not 886 x 30.
PAPER_SOURCE = "Flach & Kull 2015, sec. 4: OpenML, 886 tasks x 30 models (distinct flows), minority class positive"
PAPER_N_TASKS = 886
PAPER_N_MODELS = 30
PAPER_N_MODELS_TOTAL = 25980
PAPER_RESULTS: dict[tuple[str, str], dict[str, float]] = {
    ("aupr", "auprg"): {"top1": 0.24, "top3": 0.58, "spearman": 0.95},
    ("aupr", "auroc"): {"top1": 0.29, "top3": 0.65, "spearman": 0.95},
    ("auprg", "auroc"): {"top1": 0.22, "top3": 0.57, "spearman": 0.96},
}
#: Figure 4 (right): the per-task rank correlations of AUPR and AUPRG at the lower and upper
#: quartile over tasks (tasks 3872 white-clover and 3896 ada-agnostic).
PAPER_QUARTILES: dict[tuple[str, str], tuple[float, float]] = {("aupr", "auprg"): (0.944, 0.991)}

#: How ties count, stated in the scorecard.
TIE_CONVENTION = (
    "Ties: values equal after rounding to 12 decimals tie; a tie shares the average rank; two metrics "
    "agree on the top k when the same models hold the same competition positions (1 + number strictly "
    "better) <= k, so a tie at the top under one metric only is a disagreement, a tie shared by both is "
    "agreement. Saturated tasks (at least 2 models at AUROC = AUPR = AUPRG = 1) therefore always count "
    "as agreement; 'without saturated' leaves them out."
)

SCORECARD_COLUMNS = (
    "comparison",
    "statistic",
    "paper",
    "this_run",
    "ci_lo",
    "ci_hi",
    "noise_floor",
    "without_saturated",
    "distinguishable",
    "paper_source",
    "this_source",
)


def scorecard(summary: pd.DataFrame, per_group: pd.DataFrame, *, source: str, group: str = "task_id") -> pd.DataFrame:
    """The paper's numbers beside this run's, each labelled with its source.

    Parameters
    ----------
    summary : output of :func:`summarise_disagreement` (with ``pooled_spearman``).
    per_group : the per-task table it was made from (for the number of models).
    source : what this run is (e.g. "local: 30 learners on 40 datasets of ...").

    Returns
    -------
    Rows: the number of tasks, of models per task and in all, then for each of the paper's
    three pairs (AUPR-AUPRG, AUPR-AUROC, AUPRG-AUROC) the top-1 and top-3 disagreement shares
    (with the cluster-bootstrap interval over families, the noise floor, the share without
    saturated tasks and the share of disagreements that are distinguishable) and the rank
    correlation (the paper's is unnamed; this run: mean per-task Spearman, the pooled-rank
    reading, and the per-task quartiles beside the paper's Figure 4 quartiles).
    Columns :data:`SCORECARD_COLUMNS`.
    """
    rows: list[dict[str, object]] = []
    nan = float("nan")

    def add(comparison: str, statistic: str, paper: float, this: float, lo: float = nan, hi: float = nan,
            floor: float = nan, unsat: float = nan, dist: float = nan) -> None:
        rows.append({"comparison": comparison, "statistic": statistic, "paper": paper, "this_run": this,
                     "ci_lo": lo, "ci_hi": hi, "noise_floor": floor, "without_saturated": unsat,
                     "distinguishable": dist, "paper_source": PAPER_SOURCE, "this_source": source})

    n_tasks = per_group[group].nunique()
    models = per_group.drop_duplicates(group)["n_models"]
    add("all", "tasks", PAPER_N_TASKS, float(n_tasks))
    add("all", "models per task (median)", PAPER_N_MODELS, float(models.median()) if len(models) else nan)
    add("all", "models in all (paper: Figure 4 count; 886 x 30 would be 26,580)", PAPER_N_MODELS_TOTAL,
        float(models.sum()) if len(models) else nan)
    if "n_families" in summary.columns and len(summary):
        add("all", "families of tasks (clusters of the bootstrap)", nan, float(summary["n_families"].iloc[0]))
        add("all", "tasks without saturated", nan, float(summary["n_tasks_unsaturated"].iloc[0]))
    for (a, b), paper in PAPER_RESULTS.items():
        hit = summary[((summary.metric_a == a) & (summary.metric_b == b)) | ((summary.metric_a == b) & (summary.metric_b == a))]
        label = f"{METRIC_LABELS[a]} vs {METRIC_LABELS[b]}"
        if hit.empty:
            continue
        s = hit.iloc[0]
        for k in ("top1", "top3"):
            add(label, f"top-{k[-1]} disagreement (share of tasks)", paper[k], s[f"{k}_share"], s[f"{k}_lo"], s[f"{k}_hi"],
                s.get(f"{k}_floor", nan), s.get(f"{k}_share_unsat", nan), s.get(f"{k}_distinguishable", nan))
        add(label, "rank correlation (paper: unnamed; this run: mean per-task Spearman)", paper["spearman"],
            s.spearman_mean, s.spearman_lo, s.spearman_hi, unsat=s.get("spearman_mean_unsat", nan))
        if "pooled_spearman" in s.index:
            add(label, "rank correlation (paper: unnamed; this run: ranks pooled over tasks)", paper["spearman"], s.pooled_spearman)
        q = PAPER_QUARTILES.get((a, b), (nan, nan))
        add(label, "per-task rank correlation, lower quartile (this run: Spearman)", q[0], s.spearman_q25)
        add(label, "per-task rank correlation, upper quartile (this run: Spearman)", q[1], s.spearman_q75)
    return pd.DataFrame(rows, columns=list(SCORECARD_COLUMNS))

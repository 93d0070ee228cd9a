"""Plain sentences on where the metrics' rankings disagree, each with its noise floor.

For each metric pair of :data:`PAIRS` the sentence says whether the best model and the
top three agree, the rank correlations, and for the highest-placed pair of models whose
order flips between the two metrics whether either metric's preference is
distinguishable from noise (the paired test of :mod:`prspace.audit.inference.uncertainty`).
When the models of a task were scored on different test rows the sentences say so
first and call the rankings' differences what they are: not evidence about the metrics.
"""

from __future__ import annotations

import math

import pandas as pd

from prspace.audit.audit_numbers import compared
from prspace.audit.inference.tables import LABELS
from prspace.audit.inference.uncertainty import noise
from prspace.audit.report.findings import names
from prspace.experiments import ranking
from prspace.metrics.names import FK_PAIRS

#: Metric pairs whose disagreement the audit spells out (Flach & Kull's three, plus AP vs AUPR).
PAIRS = (*FK_PAIRS, ("average_precision", "aupr"))


def _top(rr: pd.DataFrame, metric: str, k: int) -> list[str]:
    return [m for m, _ in sorted(ranking.top_k(rr[metric], k).items(), key=lambda kv: (kv[1], kv[0]))]


def _pair_sentence(task: str, r: pd.DataFrame, pooled: pd.DataFrame, d: pd.Series, a: str, b: str,
                   comparisons: pd.DataFrame | None) -> str:
    la, lb = LABELS[a], LABELS[b]
    rr = r.set_index("model")
    best_a, best_b = sorted(ranking.top_k(rr[a], 1)), sorted(ranking.top_k(rr[b], 1))
    if best_a == best_b:
        s = f"{la} and {lb} agree on the best model ({names(best_a)})"
    else:
        s = f"{la} and {lb} disagree on the best model: {la} picks {names(best_a)}, {lb} picks {names(best_b)}"
    if len(r) > 3:
        t_a, t_b = _top(rr, a, 3), _top(rr, b, 3)
        s += (f"; their top three differ ({la}: {', '.join(t_a)}; {lb}: {', '.join(t_b)})" if d["top3_differs"]
              else "; their top three are the same, in the same order")
    if not math.isnan(d["spearman"]):
        s += f"; rank correlation Spearman {d['spearman']:.2f}, Kendall {d['kendall']:.2f}"
    flips = ranking.flipped_pairs(pooled, a, b, group="task", model="model")
    if not len(flips):
        return s + f"; no pair of models swaps places between {la} and {lb}."
    f = flips.iloc[0]
    return (s + f". Highest pair that swaps: {noise(comparisons, task, a, f['first'], f['second'])}; "
            f"{noise(comparisons, task, b, f['second'], f['first'])}.")


def _pooled_vs_fold_mean(pooled: pd.DataFrame, summary: pd.DataFrame, task: str) -> list[str]:
    means = summary.loc[summary["task"] == task, ["model", "aupr_mean"]]
    table = pooled[["task", "model", "aupr"]].merge(means, on="model")
    if len(table) < 2:
        return []
    flips = ranking.flipped_pairs(table, "aupr", "aupr_mean", group="task", model="model")
    if not len(flips):
        return ["The pooled AUPR and the mean AUPR over folds order the models the same way."]
    f = flips.iloc[0]
    p1, p2 = compared(f["aupr_first"], f["aupr_second"])
    m1, m2 = compared(f["aupr_mean_first"], f["aupr_mean_second"])
    return [
        f"The pooled AUPR and the mean AUPR over folds order the models differently ({len(flips)} pair(s) swap): "
        f"{f['first']} beats {f['second']} pooled ({p1} vs {p2}) but not on "
        f"average over folds ({m1} vs {m2}). Pooling compares scores "
        "across folds, which assumes calibrated models; averaging does not, but averages AUPRs whose floors "
        "depend on each fold's skew (Boyd et al. 2012, 4.1)."
    ]


def disagreement_tables(ranks: pd.DataFrame) -> dict[tuple[str, str], pd.DataFrame]:
    """:func:`prspace.experiments.ranking.disagreement` of every pair, for every task at once."""
    return {(a, b): ranking.disagreement(ranks, a, b, group="task", model="model").set_index("task")
            for a, b in PAIRS}


def disagreement_sentences(ranks: pd.DataFrame, pooled: pd.DataFrame, summary: pd.DataFrame | None = None, *,
                           comparisons: pd.DataFrame | None = None,
                           comparable: dict[str, bool] | None = None) -> dict[str, list[str]]:
    """Per task, the sentences on where the metrics' rankings disagree, each with its noise floor.

    For each metric pair of :data:`PAIRS`: whether the best model and the top three agree, the rank
    correlations, and for the highest-placed pair of models that swaps whether either metric's
    preference is beyond noise; then whether the pooled AUPR and the mean AUPR over folds order the
    models alike. A task whose models were scored on different rows gets a NOT COMPARABLE sentence
    first; a task of one model, one sentence saying so.

    Parameters
    ----------
    ranks : pandas.DataFrame
        The models' ranks per task and metric (:func:`prspace.audit.inference.tables.rank_table`).
    pooled : pandas.DataFrame
        The pooled metrics (:func:`prspace.audit.pooled_metrics`).
    summary : pandas.DataFrame, optional
        The folds' summary (:func:`prspace.audit.fold_summary`): adds the pooled against the mean
        AUPR over folds; None or empty: not said.
    comparisons : pandas.DataFrame, optional
        The paired comparisons of the models (the noise floor); None: each preference "was not tested".
    comparable : dict of str to bool, optional
        Per task: whether its models were scored on the same test rows.

    Returns
    -------
    dict of str to list of str
        Per task, in sorted order, its sentences.

    See Also
    --------
    prspace.experiments.ranking.disagreement : The rank correlations and top-three test of a pair.
    prspace.audit.AuditResult : Its ``sentences``.

    Examples
    --------
    >>> import pandas as pd
    >>> from prspace.audit import disagreement_sentences, pooled_metrics, prepare, resolve_columns
    >>> from prspace.audit.inference.tables import rank_table
    >>> df = pd.DataFrame({"model": ["a"] * 10 + ["b"] * 10, "y_true": [1, 1, 1, 0, 0, 0, 0, 0, 0, 0] * 2,
    ...                    "score": [10, 1, 2, 9, 8, 7, 6, 5, 4, 3] + [8, 7, 6, 10, 9, 5, 4, 3, 2, 1]})
    >>> data, _ = prepare(df, resolve_columns(df.columns))
    >>> pooled = pooled_metrics(data)
    >>> sentences = disagreement_sentences(rank_table(pooled), pooled)
    >>> print(sentences["all"][1])
    AUPR and AUROC disagree on the best model: AUPR picks a, AUROC picks b; rank correlation Spearman -1.00, Kendall -1.00. Highest pair that swaps: AUPR's preference for a over b was not tested; AUROC's preference for b over a was not tested.
    """
    tables = disagreement_tables(ranks) if ranks["model"].nunique() > 1 else {}
    out: dict[str, list[str]] = {}
    for task, r in ranks.groupby("task", sort=True):
        if len(r) < 2:
            out[task] = ["Only one model: nothing to rank."]
            continue
        p = pooled[pooled["task"] == task]
        sentences = []
        if comparable is not None and not comparable.get(task, True):
            sentences.append(
                "NOT COMPARABLE: the models were scored on different test rows (see different-test-rows), so the "
                "differences between the rankings below come at least partly from the data, not from the "
                "metrics; they are not evidence that the metrics disagree.")
        sentences += [_pair_sentence(task, r, p, tables[(a, b)].loc[task], a, b, comparisons) for a, b in PAIRS]
        if summary is not None and len(summary):
            sentences += _pooled_vs_fold_mean(p, summary, task)
        out[task] = sentences
    return out

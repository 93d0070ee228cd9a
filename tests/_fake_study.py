"""A realistic fake study for the page tests: a verdict table in the interface the verdict rule
writes (columns ``role``, ``where``, ``quote``, ``margin``, ``level``, ``mc_error``, ``power`` beside
the older ones; primary rows from the registry, implementation rows, this project's rows) and the
tables the pages quote (tasks, per-task metrics, plausible-best sets, sensitivity, winners).

The numbers are chosen so that each is distinct, so a page that quotes one can be checked to quote
the right one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from prspace.core import claims as REG

PAIRS = ("aupr_auprg", "aupr_auroc", "auprg_auroc")

#: Primary rows: estimate, lo, hi, mc_error, verdict.
PRIMARY = {
    "fk.aupr_auprg.top1": (0.271, 0.183, 0.366, 0.0011, "equivalent: replicates"),
    "fk.aupr_auprg.top3": (0.566, 0.421, 0.703, 0.0014, "inconclusive: leans lower here"),
    "fk.aupr_auroc.top1": (0.481, 0.352, 0.611, 0.0012, "different, beyond the margin: higher here"),
    "fk.aupr_auroc.top3": (0.642, 0.511, 0.759, 0.0013, "inconclusive: leans lower here"),
    "fk.auprg_auroc.top1": (0.333, 0.221, 0.452, 0.0016, "borderline: between equivalent: replicates and inconclusive"),
    "fk.auprg_auroc.top3": (0.594, 0.468, 0.712, 0.0015, "inconclusive: leans higher here"),
    "fk.aupr_auprg.spearman": (0.9312, 0.9121, 0.9488, 0.0004, "equivalent: replicates"),
    "fk.aupr_auroc.spearman": (0.8874, 0.8512, 0.9197, 0.0006, "different: lower here"),
    "fk.auprg_auroc.spearman": (0.8791, 0.8403, 0.9122, 0.0007, "different: lower here"),
    "fk.aupr_auprg.spearman_q25": (0.9027, 0.8765, 0.9244, 0.0009, "different: lower here"),
    "fk.aupr_auprg.spearman_q75": (0.9861, 0.9802, 0.9911, 0.0003, "equivalent: replicates"),
    "fk.as_different.top1": (-0.2104, -0.3302, -0.0957, 0.0013,
                             "different: AUPR and AUPRG are more alike than AUPR and AUROC"),
    "fk.as_different.top3": (-0.0761, -0.1802, 0.0311, 0.0015,
                             "inconclusive: leans to AUPR-AUPRG more alike than AUPR-AUROC"),
    "fk.as_different.spearman": (0.0438, 0.0201, 0.0702, 0.0005,
                                 "different: AUPR and AUPRG are more alike than AUPR and AUROC"),
    "boyd.sec4_1.averaging_optimistic": (0.0857, 0.05, 0.1214, 0.0008, "inconclusive: leans the claimed way"),
    "boyd.sec4_1.aucnpr_reduces_bias": (0.0212, 0.0094, 0.0337, 0.0006, "different: holds"),
    "boyd.sec4_3.aupr_rises": (0.3714, 0.2803, 0.4512, 0.0011, "different: holds"),
    "boyd.sec4_3.gap_grows_with_pi": (0.6622, 0.3104, 0.9907, 0.0019, "different: holds"),
    "boyd.sec4_3.aucnpr_moves_less": (0.0405, 0.0133, 0.0671, 0.0008, "different: holds"),
    "boyd.sec4_3.aucnpr_still_moves": (0.1557, 0.0811, 0.2302, 0.0009, "different: holds"),
    "boyd.sec4_3.aucnpr_less_variance": (0.0118, 0.0042, 0.0199, 0.0004, "different: holds"),
    "boyd.sec4_3.aucnpr_more_than_twice": (-0.0214, -0.0391, -0.0052, 0.0007, "different: contradicted"),
    "fk.all_different": (0.0308, 0.0151, 0.0462, 0.0009, "different: holds"),
}
KIND = {"share": "share", "correlation": "correlation", "quartile": "quartile", "share_gap": "equivalence",
        "correlation_gap": "equivalence", "direction": "direction", "test": "test"}
def _clopper_pearson(k: int, n: int) -> tuple[float, float]:
    """The exact 95% interval of k of n (as the rule stores it for a ``bound`` row)."""
    lo = stats.beta.ppf(0.025, k, n - k + 1) if k > 0 else 0.0
    hi = stats.beta.ppf(0.975, k + 1, n - k) if k < n else 1.0
    return float(lo), float(hi)


#: This project's rows: id -> (kind, estimate, lo, hi, k, n, verdict, power).
EXPLORATORY = {
    **{f"px.{p}.top1.cross_vs_self": ("difference", e, lo, hi, np.nan, np.nan, "larger", np.nan)
       for p, e, lo, hi in (("aupr_auprg", 0.0237, 0.0151, 0.0322), ("aupr_auroc", 0.0518, 0.0396, 0.0644),
                            ("auprg_auroc", 0.0446, 0.0318, 0.0571))},
    **{f"px.{p}.top1.distinguishable": ("bound", k / n, *_clopper_pearson(k, n), k, n, v, pw)
       for p, k, n, v, pw in (("aupr_auprg", 0, 29, "cannot be told: the check has power 0.00 here", 0.0),
                              ("aupr_auroc", 1, 36, "mostly within noise", 0.83),
                              ("auprg_auroc", 0, 35, "mostly within noise", 0.91))},
    **{f"px.{p}.rank_sets.disjoint": ("bound", 0.0, *_clopper_pearson(0, 106), 0, 106, "cannot be told: the check has power 0.12 here",
                                      0.12) for p in PAIRS},
    **{f"px.{p}.cd.order": ("test", pv, np.nan, np.nan, np.nan, np.nan, v, 0.9)
       for p, pv, v in (("aupr_auprg", 0.344, "within noise"), ("aupr_auroc", 0.001, "differs beyond noise"),
                        ("auprg_auroc", 0.008, "differs beyond noise"))},
    **{f"px.{p}.top1.skew_trend": ("direction", e, lo, hi, np.nan, np.nan, v, np.nan)
       for p, e, lo, hi, v in (("aupr_auprg", -0.016, -0.076, 0.043, "cannot be told"),
                               ("aupr_auroc", 0.163, 0.112, 0.217, "holds"), ("auprg_auroc", 0.162, 0.106, 0.219, "holds"))},
    "px.boyd.sec4_2.order_changes": ("direction", 0.12, 0.05, 0.2, np.nan, np.nan, "holds", np.nan),
}
IMPLEMENTATION = ("boyd.thm1", "boyd.thm2", "boyd.thm3", "boyd.cor4", "boyd.table3", "boyd.table2.mean_row",
                  "boyd.table2.more_conservative", "boyd.aucnpr_orders_as_aupr")


def verdicts(*, n_tasks: int = 106, n_families: int = 73, not_exact: tuple[str, ...] = ()) -> pd.DataFrame:
    """The fake verdict table (primary, then implementation, then exploratory rows)."""
    rows = []
    level = REG.CLAIM_LEVEL
    for i, (cid, (e, lo, hi, mc, verdict)) in enumerate(PRIMARY.items()):
        c = REG.BY_ID[cid]
        pv = c.paper_value if c.quantity != "direction" else float(c.direction)
        rows.append({"role": "primary", "paper": c.paper, "claim_id": cid, "claim": c.quote, "where": c.where,
                     "quote": c.quote, "paper_value": pv, "margin": c.margin, "estimate": e, "ci_lo": lo,
                     "ci_hi": hi, "level": level, "mc_error": mc, "n_tasks": n_tasks, "n_families": n_families,
                     "power": np.nan, "verdict": verdict, "explanation": f"explained {cid}", "kind": KIND[c.quantity],
                     "tolerance": np.nan, "k": np.nan, "n": np.nan,
                     # the decision columns: families that would decide with 80% power (distinct numbers), none
                     # for a decided row
                     "families_80": np.nan if not verdict.startswith("inconclusive") else 200.0 + 100 * i,
                     "ci95_lo": lo, "ci95_hi": hi, "p_holm": 0.001 * (i + 1), "oracle_coverage": 0.95 + 0.0001 * i,
                     "coverage_mc_se": 0.0015, "coverage_n": 20000.0, "p_diff": 0.002 * (i + 1)})
    for cid in IMPLEMENTATION:
        c = REG.BY_ID[cid]
        bad = cid in not_exact
        rows.append({"role": "implementation", "paper": c.paper, "claim_id": cid, "claim": c.quote, "where": c.where,
                     "quote": c.quote, "paper_value": np.nan, "margin": np.nan, "estimate": 0.3 if bad else 1e-15,
                     "ci_lo": np.nan, "ci_hi": np.nan, "level": np.nan, "mc_error": np.nan, "n_tasks": np.nan,
                     "n_families": np.nan, "power": np.nan, "verdict": "differs" if bad else "exact",
                     "explanation": f"checked {cid}", "kind": "exact", "tolerance": 1e-9, "k": np.nan, "n": np.nan})
    for cid, (kind, e, lo, hi, k, n, verdict, power) in EXPLORATORY.items():
        rows.append({"role": "exploratory", "paper": "prspace", "claim_id": cid, "claim": f"the project's row {cid}",
                     "where": "", "quote": "", "paper_value": 0.5, "margin": np.nan, "estimate": e, "ci_lo": lo,
                     "ci_hi": hi, "level": 0.95, "mc_error": np.nan, "n_tasks": n_tasks, "n_families": n_families,
                     "power": power, "verdict": verdict, "explanation": f"explored {cid}", "kind": kind,
                     "tolerance": np.nan, "k": k, "n": n})
    return pd.DataFrame(rows)


def tasks(ids: list[str], pis: list[float], families: list[str]) -> pd.DataFrame:
    return pd.DataFrame({"task_id": ids, "status": "ok", "source": "local", "pi": pis, "family": families,
                         "n_models": 4, "n_folds": 10, "n_pos": [int(40 * p) + 5 for p in pis]})


def metrics_and_rank_sets(ids: list[str], seed: int = 0, best_sizes: dict[str, list[int]] | None = None):
    """Per task 4 models with distinct metric values; plausible-best sets of the given sizes per
    metric (the top ``k`` models by that metric), else sizes 1..4 cycling."""
    rng = np.random.default_rng(seed)
    models = ["logreg", "rf-50", "svm-rbf", "knn-10"]
    mrows, rrows = [], []
    for i, t in enumerate(ids):
        vals = {m: rng.permutation(np.linspace(0.5, 0.9, 4)) + rng.uniform(0, 0.01, 4) for m in ("aupr", "auprg", "auroc")}
        for j, model in enumerate(models):
            mrows.append({"task_id": t, "model_id": model, **{m: float(v[j]) for m, v in vals.items()}})
        for m, v in vals.items():
            k = (best_sizes or {}).get(m, [1 + (i % 4)] * len(ids))[i]
            order = np.argsort(-v)
            for r, j in enumerate(order):
                rrows.append({"task": t, "metric": m, "model": models[j], "estimate": float(v[j]), "rank_lo": 1,
                              "rank_hi": 4, "plausible_best": r < k, "n_models": 4})
    return pd.DataFrame(mrows), pd.DataFrame(rrows)


def sensitivity() -> pd.DataFrame:
    """Variants of three primary claims; ``fk.aupr_auroc.top1`` changes verdict in one variant."""
    rows = []
    for cid in ("fk.aupr_auprg.top1", "fk.aupr_auroc.top1", "fk.aupr_auprg.spearman"):
        e, lo, hi, _, v = PRIMARY[cid]
        for variant in ("saturated as agreement", "saturated left out", "pi >= 0.3", "one model per learner method"):
            moved = cid == "fk.aupr_auroc.top1" and variant == "pi >= 0.3"
            rows.append({"claim_id": cid, "variant": variant, "estimate": e + 0.01, "ci_lo": lo, "ci_hi": hi,
                         "verdict": "inconclusive: leans higher here" if moved else v})
    return pd.DataFrame(rows)


#: Boyd 4.1's fold-skew summary (aggregate ``mean_aupr``): dispersion -> (bias_mean, bias_lo, bias_hi).
FOLD_SKEW = {0.25: (-0.0041, -0.0052, -0.0031), 0.5: (-0.0157, -0.0182, -0.0135), 0.9: (-0.0722, -0.0825, -0.0628)}


def fold_skew_summary(n_tasks: int) -> pd.DataFrame:
    """``boyd_fold_skew_summary.csv``: the mean of per-fold AUPR (and, as a distractor, AUROC) per dispersion."""
    rows = []
    for d, (b, lo, hi) in FOLD_SKEW.items():
        rows.append({"dispersion": d, "aggregate": "mean_aupr", "n_tasks": n_tasks, "bias_mean": b, "bias_lo": lo,
                     "bias_hi": hi})
        rows.append({"dispersion": d, "aggregate": "mean_auroc", "n_tasks": n_tasks, "bias_mean": 0.001,
                     "bias_lo": -0.001, "bias_hi": 0.003})
    return pd.DataFrame(rows)


def write(tables: Path, *, ids: list[str], pis: list[float], families: list[str],
          with_sensitivity: bool = True, best_sizes: dict[str, list[int]] | None = None,
          extra_columns: dict[str, dict[str, object]] | None = None) -> None:
    """Write the fake study's tables into ``tables`` (``extra_columns``: column -> {claim id: value} added to
    ``verdicts.csv``, e.g. the ``by_construction`` flag)."""
    tables.mkdir(parents=True, exist_ok=True)
    v = verdicts(n_tasks=len(ids), n_families=len(set(families)))
    for col, values in (extra_columns or {}).items():
        v[col] = v["claim_id"].map(values)
    v.to_csv(tables / "verdicts.csv", index=False)
    fold_skew_summary(len(ids)).to_csv(tables / "boyd_fold_skew_summary.csv", index=False)
    tasks(ids, pis, families).to_csv(tables / "tasks.csv", index=False)
    m, r = metrics_and_rank_sets(ids, best_sizes=best_sizes)
    m.to_csv(tables / "metrics.csv", index=False)
    r.to_csv(tables / "rank_sets.csv", index=False)
    pd.DataFrame({"metric": ["aupr", "auprg", "auroc"], "criterion": "mean", "winner": ["rf-50", "logreg", "rf-50"],
                  "runner_up": "svm-rbf", "margin": 0.01, "n_tasks_flip": 0}).to_csv(tables / "learner_winners.csv",
                                                                                    index=False)
    if with_sensitivity:
        sensitivity().to_csv(tables / "sensitivity.csv", index=False)

"""A study's evidence rows and its verdict table, computed apart from the pages (:mod:`prspace.verdicts.report`).

:func:`collect_evidence` gathers the evidence rows of a study's tables (Flach & Kull's numbers from
``disagreement_per_task.csv`` through :mod:`prspace.verdicts.primary`, the rows read off its summary
tables below, the learner-order rows from the cd job's ``cd_metric_pairs.csv``, and the evidence tables
other analyses write: :data:`prspace.core.registry.EVIDENCE_ROWS`); :func:`verdict_table` applies the one
rule (:func:`prspace.verdicts.rule.apply_rule`).

The rows read off a study's summary tables (Flach & Kull's primary numbers are computed from
the per-task table in :mod:`prspace.verdicts.primary`):
:func:`within_task_order_evidence` checks Boyd et al.'s consequence that AUCNPR, an increasing
function of AUPR within a task, orders a task's models as AUPR does (the implementation row
``boyd.aucnpr_orders_as_aupr``, from ``metrics.csv``: no task may order two models one way by AUPR and the
other by AUCNPR).
:func:`cd_order_evidence` turns ``cd_metric_pairs.csv`` (:func:`prspace.experiments.ranking.cd_tables.study_tables`: per pair
of metrics the calibrated sign-flip test of whether they order the learners differently across
tasks) into one ``test`` row per pair, ``px.<a>_<b>.cd.order``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from prspace.core import registry as R
from prspace.core.claims import ROLES
from prspace.metrics import METRIC_LABELS
from prspace.metrics.names import FK_PAIRS
from prspace.stats.nested import procedure as NP
from prspace.verdicts import rule as RULE
from prspace.verdicts.direction import direction_rows
from prspace.verdicts.pagedata import table_paths
from prspace.verdicts.primary import primary_rows
from prspace.verdicts.rule import evidence_row
from prspace.verdicts.verdict_labels import follows_note


def _pair(summary: pd.DataFrame, a: str, b: str) -> pd.Series | None:
    hit = summary[((summary.metric_a == a) & (summary.metric_b == b)) | ((summary.metric_a == b) & (summary.metric_b == a))]
    return None if hit.empty else hit.iloc[0]


def _g(s: pd.Series, col: str) -> float:
    v = s.get(col, np.nan)
    return float(v) if v is not None and v == v else float("nan")


def strict_reversals(metrics: pd.DataFrame, a: str = "aupr", b: str = "aucnpr") -> tuple[int, int]:
    """``(tasks with a strict reversal, tasks)``: a task reverses when two of its models are ordered one way by
    ``a`` and the other way by ``b`` (``a_i > a_j`` and ``b_i < b_j``); a pair tied under either metric is
    no reversal, so values rounded alike (``metrics.csv`` holds six significant digits) cannot make one.

    >>> m = pd.DataFrame({"task_id": ["t", "t", "u", "u"], "aupr": [0.9985, 0.998499, 0.5, 0.6],
    ...                   "aucnpr": [0.998414, 0.998414, 0.4, 0.3]})
    >>> strict_reversals(m)
    (1, 2)
    """
    hits = 0
    groups = metrics.groupby("task_id", sort=False)
    for _, g in groups:
        x, y = g[a].to_numpy(np.float64), g[b].to_numpy(np.float64)
        hits += bool(np.any((x[:, None] > x[None, :]) & (y[:, None] < y[None, :])))
    return hits, groups.ngroups


def within_task_order_evidence(summary: pd.DataFrame, metrics: pd.DataFrame | None = None) -> list[dict[str, object]]:
    """AUCNPR orders every task's models as AUPR does: with ``metrics`` (``metrics.csv``), the share of tasks
    with a strict reversal (:func:`strict_reversals`); without it, the larger of the rank step's shares of
    tasks where the two differ on the top-1 and on the top-3 (which also count a tie under one metric only)."""
    s = _pair(summary, "aupr", "aucnpr")
    if s is None:
        return []
    shares = (f"the rank step's shares of tasks where AUPR and AUCNPR differ on the top-1 {_g(s, 'top1_share'):.4f} "
              f"and on the top-3 {_g(s, 'top3_share'):.4f}, mean Spearman {_g(s, 'spearman_mean'):.6f}")
    have = metrics is not None and {"task_id", "aupr", "aucnpr"} <= set(metrics.columns)
    if have:
        k, n = strict_reversals(metrics)
        dev, n_tasks = k / n if n else float("nan"), float(n)
        detail = (f"deviation = the share of tasks where AUPR orders two models one way and AUCNPR the other "
                  f"({k} of {n}; from metrics.csv, six significant digits: two values rounded alike under one "
                  f"metric only are a tie there, not a reversal); {shares} (they count such ties)")
    else:
        dev, n_tasks = max(_g(s, "top1_share"), _g(s, "top3_share")), _g(s, "n_tasks")
        detail = (f"deviation = the larger of the shares of tasks where AUPR and AUCNPR differ on the top-1 and on "
                  f"the top-3 (no metrics.csv to count strict reversals: a tie in the six-significant-digit values "
                  f"under one metric only counts as a difference); {shares}")
    return [evidence_row(
        paper="boyd-2012", claim_id="boyd.aucnpr_orders_as_aupr", kind="exact", tolerance=1e-9,
        claim="Within a task AUCNPR is an increasing function of AUPR, so both order the models identically",
        estimate=dev, n_tasks=n_tasks, n_families=_g(s, "n_families"), detail=detail)]


def _pair_key(a: str, b: str) -> str:
    """``a_b`` in Flach & Kull's order when the pair is one of theirs (the other ``px.`` rows' ids)."""
    return f"{b}_{a}" if (b, a) in FK_PAIRS else f"{a}_{b}"


def cd_order_evidence(pairs: pd.DataFrame) -> list[dict[str, object]]:
    """One ``test`` row per metric pair of ``cd_metric_pairs.csv`` (``px.<a>_<b>.cd.order``): does
    the learner order across tasks differ between the two metrics beyond noise? ``estimate`` = the
    sign-flip p-value, ``tolerance`` = its alpha, ``power`` = the calibrated power on a planted
    reversal (``power_planted_reversal``), ``mc_error`` = the p-value's Monte Carlo SE; the detail gives the tasks and learners, the learners
    that move and the calibrated false rate and power. A pair the cd job could not test
    (no learner shared by two tasks: its ``note``) gets a row without p-value that says why."""
    rows: list[dict[str, object]] = []
    for _, r in pairs.iterrows():
        a, b = str(r["metric_a"]), str(r["metric_b"])
        A, B = METRIC_LABELS.get(a, a), METRIC_LABELS.get(b, b)
        p, alpha = _g(r, "p_value"), _g(r, "alpha")
        n_tasks, k = _g(r, "n_tasks"), _g(r, "n_learners")
        claim = f"{A} and {B} order the learners differently across tasks (beyond noise)"
        if not np.isfinite(p):
            note = str(r.get("note", "") or "")
            detail = note if note and note != "nan" else "the cd job wrote no p-value for this pair"
        else:
            moved = str(r.get("learners_moved", "") or "")
            moved = "" if moved == "nan" else moved
            how = "all sign flips" if bool(r.get("exact", False)) else f"{int(_g(r, 'n_perm'))} random sign flips"
            detail = (f"sign-flip test of the two metrics' within-task ranks over {int(n_tasks)} tasks and {int(k)} "
                      f"learners ({how}; cd_metric_pairs.csv); Spearman correlation of the average ranks "
                      f"{_g(r, 'spearman_average_ranks'):.3f}; learners that move (Wilcoxon-Holm): "
                      f"{moved if moved else 'none'}")
            fr, pw = _g(r, "false_rate"), _g(r, "power_planted_reversal")
            if np.isfinite(fr) and np.isfinite(pw):
                detail += (f"; calibrated at {int(n_tasks)} tasks x {int(k)} learners ({int(_g(r, 'calibration_n_sim'))} "
                           f"simulations): false rate {fr:.3f} (MC SE {_g(r, 'false_rate_se'):.3f}) with exchangeable "
                           f"metrics, power {pw:.2f} (MC SE {_g(r, 'power_se'):.2f}) when one metric swaps the best "
                           f"and the worst learner")
            else:
                detail += "; no calibration (prspace step cd --set n_sim=0)"
        rows.append(evidence_row(
            paper="prspace", claim_id=f"px.{_pair_key(a, b)}.cd.order", kind="test", claim=claim,
            estimate=p, tolerance=alpha if np.isfinite(alpha) else float("nan"), n_tasks=n_tasks, detail=detail,
            power=_g(r, "power_planted_reversal"), mc_error=_p_mc_error(r, p)))
    return rows


def _p_mc_error(r: pd.Series, p: float) -> float:
    """Monte Carlo SE of a sign-flip p-value: 0 when every flip was enumerated, else the binomial
    ``sqrt(p (1 - p) / n_perm)`` of a share of ``n_perm`` random flips."""
    if not np.isfinite(p):
        return float("nan")
    if str(r.get("exact", False)).lower() in ("true", "1"):
        return 0.0
    n = _g(r, "n_perm")
    return float(np.sqrt(p * (1 - p) / n)) if n > 0 else float("nan")


def collect_evidence(tables_dir: str | Path | Mapping[str, str | Path], *, n_boot: int, seed: int = 0,
                     keep: dict | None = None, power: bool = True, procedure: NP.Settings | None = None) -> pd.DataFrame:
    """Every evidence row a study's tables hold (:data:`prspace.verdicts.rule.EVIDENCE_COLUMNS`; the tables a
    folder, or table name -> path, :func:`prspace.verdicts.pagedata.table_paths`):
    Flach & Kull's primary rows from ``disagreement_per_task.csv`` and ``tasks.csv``
    (:func:`prspace.verdicts.primary.primary_rows`, ``n_boot`` resamples, ``seed``), then the rows
    of the other tables; Boyd's primary direction rows re-decided from their per-task values
    (:func:`prspace.verdicts.direction.direction_rows`). ``keep`` receives each paper's bootstraps
    (:func:`prspace.verdicts.sensitivity.margin_sensitivity_table`); ``power=False`` skips the
    sample-size simulation; ``procedure``: the settings of the nested simulation that counts the coverage of the
    procedure each primary row runs (:mod:`prspace.stats.nested.procedure`; None: not counted)."""
    paths = table_paths(tables_dir)
    where = tables_dir if not isinstance(tables_dir, Mapping) else "the study's tables"

    def have(table: R.Table) -> Path | None:
        p = paths.get(table.name)
        return p if p is not None and p.is_file() else None

    def by_task(table: R.Table) -> pd.DataFrame | None:  # a table keyed by task (None: absent)
        p = have(table)
        return pd.read_csv(p, dtype={"task_id": str}) if p is not None else None

    rows: list[dict[str, object]] = []
    per_task = by_task(R.DISAGREEMENT_PER_TASK)
    if per_task is not None:
        rows += primary_rows(per_task, by_task(R.TASKS), n_boot=n_boot, seed=seed, keep=keep, power=power,
                             noise_pairs=by_task(R.NOISE_FLOOR_PAIRS), procedure=procedure)
    summary_path = have(R.DISAGREEMENT_SUMMARY)
    if summary_path is not None:
        rows += within_task_order_evidence(pd.read_csv(summary_path), by_task(R.METRICS))
    # the cd job's metric pairs (prspace.experiments.ranking.cd_tables.study_tables) become the px.<a>_<b>.cd.order rows
    cd_path = have(R.CD_METRIC_PAIRS)
    if cd_path is not None:
        rows += cd_order_evidence(pd.read_csv(cd_path, keep_default_na=False, na_values=[""]))
    frames = [RULE.evidence_frame(rows, scheme=True)]
    for table in R.EVIDENCE_ROWS:  # each optional: no Boyd experiments, no boyd_evidence
        p = have(table)
        if p is not None:
            df = pd.read_csv(p, keep_default_na=False, na_values=[""])
            for c in RULE.OPTIONAL_EVIDENCE_COLUMNS:
                if c not in df.columns:
                    df[c] = np.nan
            missing = [c for c in RULE.EVIDENCE_COLUMNS if c not in df.columns]
            if missing:
                raise ValueError(f"{p} lacks evidence column(s) {missing}; it must be written with prspace.verdicts.rule.evidence_row")
            frames.append(df[RULE.ALL_EVIDENCE_COLUMNS])
    ev = pd.concat([f for f in frames if len(f)], ignore_index=True) if any(len(f) for f in frames) else frames[0]
    dup = ev["claim_id"][ev["claim_id"].duplicated()]
    if len(dup):
        raise ValueError(f"claim ids appear twice in the evidence tables of {where}: {sorted(set(dup))}")
    ev["detail"] = ev["detail"].fillna("").astype(str)
    # Boyd's primary direction rows: re-decided by the one scheme from their per-task values by family
    vals = have(R.BOYD_EVIDENCE_VALUES)
    if vals is not None:
        ev = direction_rows(ev, pd.read_csv(vals, dtype={"family": str}), n_boot=n_boot, seed=seed, keep=keep,
                            power=power, procedure=procedure)
    return ev


def verdict_table(evidence: pd.DataFrame) -> pd.DataFrame:
    """The verdict table (:func:`prspace.verdicts.rule.apply_rule`): primary rows first, then
    implementation, then exploratory; within a role in the order of the evidence."""
    v = RULE.apply_rule(evidence)
    # a row whose sign follows by arithmetic says so first (the registry's flag, verdict_labels.follows_note)
    notes = v["claim_id"].map(follows_note)
    flagged = notes != ""
    v.loc[flagged, "explanation"] = [f"{n[:1].upper()}{n[1:]}. {e}" for n, e in zip(notes[flagged], v.loc[flagged, "explanation"],
                                                                                  strict=True)]
    v["_o"] = v["role"].map({r: i for i, r in enumerate(ROLES)})
    return v.sort_values(["_o"], kind="stable").drop(columns="_o").reset_index(drop=True)

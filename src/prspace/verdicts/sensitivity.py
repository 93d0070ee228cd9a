"""The sensitivity tables of the primary verdicts: every claim at half and twice its margin
(:func:`margin_sensitivity_table`), and Flach & Kull's primary rows on subsets of the tasks and on one
model per learner method (:func:`sensitivity_table`); exploratory, beside the decisions, never replacing them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.core import claims as REG
from prspace.verdicts.pagedata import Study, robust_ids
from prspace.verdicts.primary import (
    _GAPS,
    _KIND,
    _MEANS,
    _QUARTILES,
    ALL_DIFFERENT,
    Bootstrapped,
    _wide,
    decide_family,
    families_of,
    primary_rows,
)
from prspace.verdicts.primary_text import sensitivity_outer
from prspace.verdicts.rule import MIN_FAMILIES, apply_rule, decide, evidence_frame, few_families
from prspace.verdicts.verdict_labels import label, value_cell, verdict_key

MARGIN_COLUMNS = ["claim_id", "paper", "margin", "estimate", "ci_lo", "ci_hi", "level", "p_holm", "verdict"]


def margin_sensitivity_table(kept: dict[str, list[Bootstrapped]], *, n_boot: int, seed: int) -> pd.DataFrame:
    """Every primary claim decided at its own margin and at each multiple of it in
    :data:`prspace.core.claims.SENSITIVITY_FACTORS` (half and twice: each on the claim's own scale;
    Holm over each paper's claims recomputed at that margin; the same bootstraps), the main table's
    margin first. Columns :data:`MARGIN_COLUMNS` and ``margin_kind``."""
    rows = []
    for paper, boots in kept.items():
        for factor in (None, *REG.SENSITIVITY_FACTORS):
            d = decide_family(boots, n_boot=n_boot, seed=seed, margin_factor=factor, power=False)
            for r in d.to_dict("records"):
                c = REG.BY_ID[r["claim_id"]]
                row = {**r, "paper": paper, "kind": _KIND.get(c.quantity, c.quantity), "role": "primary",
                       "paper_value": REG.decision_value(r["claim_id"]) if c.quantity != "direction"
                       else float(c.direction)}
                verdict, _, _ = decide(row)
                rows.append({**{k: row[k] for k in MARGIN_COLUMNS if k in row}, "verdict": verdict,
                             "margin_kind": "the claim's margin" if factor is None else f"{factor:g} x the margin"})
    return pd.DataFrame(rows, columns=[*MARGIN_COLUMNS, "margin_kind"])


SENSITIVITY_COLUMNS = ["claim_id", "variant", "n_tasks", "n_families", "estimate", "ci_lo", "ci_hi", "mc_error", "verdict"]
#: Balance levels of the sensitivity table: (label, lowest pi, pi below).
BALANCE_VARIANTS = (("pi >= 0.3", 0.3, math.inf), ("0.1 <= pi < 0.3", 0.1, 0.3), ("pi < 0.1", 0.0, 0.1))


def sensitivity_variants(tasks: pd.DataFrame | None, task_ids: Sequence[str]) -> list[tuple[str, list[str]]]:
    """``(variant, task ids)``: every task (saturated tasks as agreement, the primary rows'
    convention), saturated tasks left out (``tasks.saturated``), and each balance level by the
    task's ``pi`` (:data:`BALANCE_VARIANTS`). A variant the task table cannot define is left out."""
    ids = [str(t) for t in task_ids]
    out = [("all tasks (saturated as agreement)", ids)]
    if tasks is None:
        return out
    t = tasks.assign(task_id=tasks["task_id"].astype(str)).drop_duplicates("task_id").set_index("task_id").reindex(ids)
    if "saturated" in t.columns:
        sat = t["saturated"].map({True: True, "True": True, False: False, "False": False}).fillna(False).astype(bool)
        out.append(("saturated tasks left out", [i for i in ids if not sat[i]]))
    if "pi" in t.columns:
        pi = pd.to_numeric(t["pi"], errors="coerce")
        out += [(label, [i for i in ids if lo <= pi[i] < hi]) for label, lo, hi in BALANCE_VARIANTS]
    return out


#: The variant of :func:`sensitivity_table` ranking one model per learner method (hyperparameter variants of one method).
ONE_PER_FAMILY = "one model per learner method"


#: One variant of :func:`sensitivity_table`: its name, its task ids, the per-task table it ranks and the
#: noise floor's pairs (None: no "all significantly different" row).
Variant = tuple[str, list[str], pd.DataFrame, "pd.DataFrame | None"]


def sensitivity_variants_of(per_task: pd.DataFrame, tasks: pd.DataFrame | None, *,
                            per_task_one_per_family: pd.DataFrame | None = None,
                            noise_pairs: pd.DataFrame | None = None) -> list[Variant]:
    """The variants of :func:`sensitivity_table`, in its rows' order: :func:`sensitivity_variants` of
    ``per_task``, with :data:`ONE_PER_FAMILY` third when ``per_task_one_per_family`` is given."""
    ids = _wide(per_task, None).index
    variants: list[Variant] = [(v, keep, per_task, noise_pairs) for v, keep in sensitivity_variants(tasks, ids)]
    if per_task_one_per_family is not None:
        variants.insert(2, (ONE_PER_FAMILY, list(_wide(per_task_one_per_family, None).index), per_task_one_per_family,
                            None))
    return variants


def variant_rows(variant: Variant, tasks: pd.DataFrame | None, *, n_boot: int, seed: int) -> list[dict]:
    """One variant's rows of :func:`sensitivity_table` (its own draws, seeded by ``seed``: the same
    whichever process computes it and whatever the other variants)."""
    name, keep, table, noise = variant
    all_ids = (*(c for c, _, _ in _MEANS), *(g for g, _, _ in _GAPS), *(q for q, _ in _QUARTILES))
    ids_here = (*all_ids, ALL_DIFFERENT) if noise is not None else all_ids
    if not keep:
        return [{"claim_id": cid, "variant": name, "n_tasks": 0, "n_families": 0,
                 "verdict": "cannot be told: no task"} for cid in ids_here]
    n_f = len(set(families_of(_wide(table, keep).index, tasks)))
    if n_f < MIN_FAMILIES:
        return [{"claim_id": cid, "variant": name, "n_tasks": len(keep), "n_families": n_f,
                 "verdict": few_families(n_f)} for cid in ids_here]
    v = apply_rule(evidence_frame(primary_rows(table, tasks, n_boot=n_boot, seed=seed, task_ids=keep, power=False,
                                               n_out=sensitivity_outer(n_boot),
                                               noise_pairs=noise), scheme=True))
    return v.assign(variant=name)[SENSITIVITY_COLUMNS].to_dict("records")


def sensitivity_frame(rows: Sequence[list[dict]]) -> pd.DataFrame:
    """The table of :func:`sensitivity_table` from each variant's :func:`variant_rows`, in order."""
    return pd.DataFrame([r for part in rows for r in part], columns=SENSITIVITY_COLUMNS)


def sensitivity_table(per_task: pd.DataFrame, tasks: pd.DataFrame | None, *, n_boot: int,
                      seed: int = 0, per_task_one_per_family: pd.DataFrame | None = None,
                      noise_pairs: pd.DataFrame | None = None) -> pd.DataFrame:
    """Flach & Kull's primary rows recomputed on each :func:`sensitivity_variants` subset, and on
    ``per_task_one_per_family`` (the per-task table of the same tasks ranked with one model per
    learner method: :func:`prspace.experiments.ranking.one_model_per_family`) as the variant
    :data:`ONE_PER_FAMILY`; each decided by the one rule (a subset of fewer than 10 families says
    so). Columns :data:`SENSITIVITY_COLUMNS`. The level correction of each variant rests on at most
    :data:`~prspace.verdicts.primary_text.SENSITIVITY_OUTER` outer resamples: its ends carry a larger MC error than the primary rows'
    (column ``mc_error``, measured the same way; an end within it of a threshold reads borderline).
    ``noise_pairs`` (the noise floor's pair table) adds "all significantly different" to every variant
    ranked with the whole panel (the one-learner-per-family ranking has no noise floor of its own).
    The variants are independent (:func:`variant_rows`): the verdict step computes them in other
    processes beside its evidence, with the same rows."""
    variants = sensitivity_variants_of(per_task, tasks, per_task_one_per_family=per_task_one_per_family,
                                       noise_pairs=noise_pairs)
    return sensitivity_frame([variant_rows(v, tasks, n_boot=n_boot, seed=seed) for v in variants])


def sensitivity_lines(s: Study) -> list[str]:
    """Findings' section on ``sensitivity.csv`` (nothing when the study has none)."""
    sens = s.sensitivity
    if sens is None or not len(sens):
        return []
    same, changed, variants = robust_ids(s)
    out = ["## How robust the primary verdicts are", "",
           f"Each primary claim recomputed on {len(variants)} variants of the population ({', '.join(variants)}); "
           f"{len(same)} verdict(s) stay the same in every variant"
           + (": " + ", ".join(f"`{c}`" for c in same) if same else "") + ".", "",
           "| claim | variant | estimate [interval] | verdict | same as the main verdict? |", "| --- | --- | --- | --- | --- |"]
    base = s.verdicts.set_index("claim_id")["verdict"]
    for _, r in sens.iterrows():
        cid = str(r["claim_id"])
        x = {**r, "kind": s.verdicts.set_index("claim_id")["kind"].get(cid, "share"), "k": np.nan, "n": np.nan}
        same_v = "yes" if cid in base.index and verdict_key(base[cid]) == verdict_key(r["verdict"]) else "no"
        out.append(f"| {label(cid, cid)} | {r['variant']} | {value_cell(x)} | {r['verdict']} | {same_v} |")
    return out + [""]

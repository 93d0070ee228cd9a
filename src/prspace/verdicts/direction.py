"""Boyd et al.'s primary direction rows re-decided from their per-task values by family.

The Boyd experiments write each direction row with its per-task values (``boyd_evidence_values.csv``);
:func:`direction_rows` recomputes each claim's test from them (the sign-flip test over families of
:mod:`prspace.stats.sign_flip`, by :func:`prspace.verdicts.primary.sign_flip_claims`) and decides the
paper's claims together (:func:`prspace.verdicts.primary.decide_family`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.core import claims as REG
from prspace.core.errors import InputError
from prspace.stats import cluster_bootstrap as CB
from prspace.stats.nested import procedure as NP
from prspace.verdicts.primary import (
    Bootstrapped,
    _scheme,
    decide_family,
    degenerate_share,
    sign_flip_claims,
)
from prspace.verdicts.primary_text import how_computed
from prspace.verdicts.rule import ALL_EVIDENCE_COLUMNS, clopper_pearson

#: The Boyd step's note on its own interval (simultaneous, at the Bonferroni level over every primary claim),
#: which the verdict replaces: left out of a re-decided row's detail.
_STEP_CALIBRATION = re.compile(r" Calibration: a [0-9.]+% family interval from \d+ families[^.]*(?:\.\d[^.]*)*\.")
_STEP_BOUNDARY = re.compile(r" Every task gives [01], so the bootstrap over families gives the one-point interval[^;]*; "
                            r"with the \d+ families as independent units the exact \(Clopper-Pearson\) [0-9.]+% interval "
                            r"is \[[0-9., ]+\]\.")
#: The counted-coverage columns, not counted for an exact interval (:func:`_exact_share`; nor the procedure's,
#: :data:`prspace.stats.nested.procedure.COLUMNS`).
_COUNTED = ("oracle_coverage", "oracle_coverage_plain", "coverage_mc_se", "coverage_n", "false_rate", "false_rate_mc_se",
            "coverage_miss_below", "coverage_miss_above", "coverage_step_below", "coverage_step_above")


def direction_stats(values: pd.DataFrame, claim_ids: Sequence[str]) -> list[tuple[str, CB.Stat, int]]:
    """The mean over tasks of each claim's per-task values (``claim_id, family, value``: one row per
    task, the evidence-values table of the Boyd experiments) as a ratio-mean statistic over its
    families; claims without values are left out."""
    need = {"claim_id", "family", "value"}
    if not need <= set(values.columns):
        raise InputError(f"the per-task evidence values lack column(s) {sorted(need - set(values.columns))}; "
                         "rerun the study's Boyd experiments")
    out = []
    for cid in claim_ids:
        sub = values[values["claim_id"] == cid]
        v = pd.to_numeric(sub["value"], errors="coerce").to_numpy(np.float64)
        if not np.isfinite(v).any():
            continue
        _, fid = np.unique(sub["family"].astype(str).to_numpy(), return_inverse=True)
        out.append((cid, CB.ratio_stat(v, fid), int(np.isfinite(v).sum())))
    return out


def direction_rows(evidence: pd.DataFrame, values: pd.DataFrame | None, *, paper: str = REG.BOYD,
                   n_boot: int, seed: int = 0, power: bool = True, keep: dict | None = None,
                   procedure: NP.Settings | None = None) -> pd.DataFrame:
    """A paper's primary direction rows of ``evidence`` re-decided by the one scheme: each claim's
    interval recomputed from its per-task ``values`` by family (:func:`direction_stats`; the row's
    estimate must be their mean), the claims decided together (:func:`decide_family`, Holm over the
    paper's primary claims); other rows returned unchanged. A primary row without values keeps its
    interval and says so. ``procedure``: the nested simulation of the procedure's coverage (:func:`decide_family`)."""
    ids = [c for c in REG.primary_ids() if REG.BY_ID[c].paper == paper and REG.BY_ID[c].quantity == "direction"]
    mine = evidence["claim_id"].isin(ids)
    if values is None or not mine.any():
        return evidence
    entries = direction_stats(values, [c for c in evidence.loc[mine, "claim_id"]])
    if not entries:
        return evidence
    boots = sign_flip_claims(entries, n_boot=n_boot, seed=seed + 1)
    if keep is not None:
        keep[paper] = boots
    dec = decide_family(boots, n_boot=n_boot, seed=seed + 1, power=power, procedure=procedure).set_index("claim_id")
    ev = evidence.copy()
    for col in ALL_EVIDENCE_COLUMNS:
        if col not in ev.columns:
            ev[col] = np.nan
    for i in ev.index[mine]:
        cid = ev.at[i, "claim_id"]
        if cid not in dec.index:
            ev.at[i, "detail"] = f"{ev.at[i, 'detail']}; no per-task values: its own interval, outside the Holm family"
            continue
        r = dec.loc[cid]
        # the evidence CSV keeps 6 significant digits (prspace.core.output.CSV_SIGNIFICANT), the estimate and each
        # per-task value alike: half a unit of the sixth digit is 5e-6 of the estimate, plus 5e-6 of the mean |value|
        # for the values' own rounding (a mean of differences can be far smaller than the values); twice that
        v = pd.to_numeric(values.loc[values["claim_id"] == cid, "value"], errors="coerce").abs().mean()
        tol = 1e-5 * (abs(float(r["estimate"])) + float(v)) + 1e-9
        if abs(float(ev.at[i, "estimate"]) - float(r["estimate"])) > tol:
            raise InputError(f"{cid}: the evidence row's estimate {ev.at[i, 'estimate']} is not the mean of its per-task "
                             f"values {r['estimate']}; rerun the study's Boyd experiments")
        rr = r.rename({"mc_lo": "mc_error_lo", "mc_hi": "mc_error_hi"})
        for col in ("ci_lo", "ci_hi", "level", "mc_error", "mc_error_lo", "mc_error_hi", "n_families", *_scheme(r)):
            ev.at[i, col] = float(rr[col])
        detail = _STEP_BOUNDARY.sub("", _STEP_CALIBRATION.sub("", str(ev.at[i, "detail"])))
        b = next(x for x in boots if x.claim_id == cid)
        if degenerate_share(b) is not None:
            how = _exact_share(ev, i, b, r, len(dec))
        else:
            how = how_computed(r.rename(None).to_frame().T.assign(claim_id=cid).iloc[0], len(dec), "Boyd et al.")
        ev.at[i, "detail"] = f"{detail}; interval: {how}"
    return ev


def _exact_share(ev: pd.DataFrame, i: object, b: Bootstrapped, r: pd.Series, n_claims: int) -> str:
    """A share every task gives alike (0 or 1: :func:`prspace.verdicts.primary.degenerate_share`): the sign-flip
    test has no spread, so the row's interval is the exact binomial (Clopper-Pearson) one with the families as the
    independent units, at the claim's Holm level ``1 - alpha_used`` (its p-values are the exact tests', in the Holm
    family), ``ci95_*`` at 95%; exact, it covers at least its level by construction, so no coverage is counted
    (NaN, not a simulated 1.000 with MC SE 0). Writes the row; returns the sentence of its detail."""
    k, n = degenerate_share(b)
    a = float(r["alpha_used"])
    lo, hi = clopper_pearson(k, n, 1.0 - a)
    lo95, hi95 = clopper_pearson(k, n, 0.95)
    ev.loc[i, ["ci_lo", "ci_hi", "level", "ci95_lo", "ci95_hi"]] = [lo, hi, 1.0 - a, lo95, hi95]
    ev.loc[i, ["mc_error", "mc_error_lo", "mc_error_hi", "p_diff_mc", "p_equiv_mc", "p_beyond_mc"]] = 0.0
    ev.loc[i, [c for c in (*_COUNTED, *NP.COLUMNS) if c in ev.columns]] = np.nan
    return (f"every task gives {k // max(n, 1):g}, so the sign-flip test over families has no spread; with the {n} "
            f"families as independent units ({k} of {n}) the exact binomial (Clopper-Pearson) interval at the claim's "
            f"Holm level {1.0 - a:.2%} (multiplier {int(r['holm_multiplier'])} of the {n_claims} primary claims of Boyd et "
            f"al., error {a:.3g}) is [{lo:.3f}, {hi:.3f}] (95%: [{lo95:.3f}, {hi95:.3f}]); its p-values are the exact "
            f"binomial tests' against 0 +- the margin {float(r['margin']):g} (adjusted p of deciding {float(r['p_holm']):.3g}); "
            "an exact interval covers at least its level by construction, so no coverage is counted")

"""Boyd et al.'s primary direction rows re-decided from their per-task values by family.

The Boyd experiments write each direction row with its per-task values (``boyd_evidence_values.csv``);
:func:`direction_rows` recomputes each claim's test from them (the sign-flip test over families of
:mod:`prspace.stats.sign_flip`, by :func:`prspace.verdicts.primary.sign_flip_claims`) and decides the
paper's claims together (:func:`prspace.verdicts.primary.decide_family`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.core import claims as REG
from prspace.core.errors import InputError
from prspace.stats import cluster_bootstrap as CB
from prspace.stats.nested import procedure as NP
from prspace.verdicts.primary import _scheme, decide_family, sign_flip_claims
from prspace.verdicts.primary_text import how_computed
from prspace.verdicts.rule import ALL_EVIDENCE_COLUMNS


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
        how = how_computed(r.rename(None).to_frame().T.assign(claim_id=cid).iloc[0], len(dec), "Boyd et al.")
        ev.at[i, "detail"] = f"{ev.at[i, 'detail']}; interval: {how}"
    return ev

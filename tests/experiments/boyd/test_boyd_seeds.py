"""The committed Boyd et al. verdicts do not move with the bootstrap seed (issue 31).

Every exploratory interval row of ``boyd_evidence.csv`` (the primary ones are re-decided by the verdicts'
engine, whose seeds ``tests/verdicts/test_primary_seeds*.py`` rerun) is recomputed from the per-task values it resampled
(``boyd_evidence_values.csv``, committed beside it) and the order-change row from the committed
metrics table, under five seeds, and decided by the one rule: the verdict must be the committed one
under every seed. The values also re-derive each row's estimate (their mean)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from prspace.core import claims as REG
from prspace.experiments.boyd import boyd_evidence as be
from prspace.experiments.boyd.boyd_evidence_runs import interval
from prspace.verdicts.rule import apply_rule

ROOT = Path(__file__).resolve().parents[3]
STUDIES = ("default", "paperlike")
SEEDS = (0, 1, 2, 3, 4)
N_RESAMPLES = be.DEFAULT_RESAMPLES  # as the studies ran (config boyd.evidence.n_resamples)


def _tables(study):
    t = ROOT / "results" / study / "tables"
    ev = pd.read_csv(t / "boyd_evidence.csv")
    values = pd.read_csv(t / "boyd_evidence_values.csv", dtype={"family": str})
    verdicts = pd.read_csv(t / "verdicts.csv").set_index("claim_id")
    return t, ev, values, verdicts


@pytest.mark.slow
@pytest.mark.parametrize("study", STUDIES)
def test_committed_values_re_derive_every_interval_rows_estimate(study):
    _, ev, values, _ = _tables(study)
    ev = ev.set_index("claim_id")
    assert len(values.claim_id.unique()) >= 6
    for cid, g in values.groupby("claim_id"):
        assert ev.loc[cid, "estimate"] == pytest.approx(np.nanmean(g.value), rel=1e-5, abs=1e-9), cid  # 6 digits
        assert ev.loc[cid, "n_families"] == g.family.nunique(), cid


@pytest.mark.slow
@pytest.mark.parametrize("study", STUDIES)
def test_committed_boyd_verdicts_do_not_move_with_the_seed(study):
    t, ev, values, verdicts = _tables(study)
    by_id = ev.set_index("claim_id")
    metrics = pd.read_csv(t / "metrics.csv", dtype={"task_id": str})
    tasks = pd.read_csv(t / "tasks.csv", dtype={"task_id": str})
    for seed in SEEDS:
        rows = []
        for cid, g in values.groupby("claim_id", sort=False):
            if cid in REG.primary_ids():  # decided by the verdicts' engine: tests/verdicts/test_primary_seeds*.py
                continue
            r = by_id.loc[cid].to_dict()
            iv = interval(g.value.to_numpy(np.float64), g.family.to_numpy(), n_resamples=N_RESAMPLES, seed=seed,
                          level=float(r["level"]))
            rows.append({**r, "claim_id": cid, **iv.row()})
        agg = pd.DataFrame(be.aggregation_rows(metrics, tasks, learner="flow_id", seed=seed, n_resamples=N_RESAMPLES))
        rows.append(agg.set_index("claim_id").loc["px.boyd.sec4_2.order_changes"].to_dict()
                    | {"claim_id": "px.boyd.sec4_2.order_changes"})
        got = apply_rule(pd.DataFrame(rows)[ev.columns]).set_index("claim_id")["verdict"]
        want = verdicts.loc[got.index, "verdict"]
        changed = got[got != want]
        assert changed.empty, f"seed {seed}: {changed.to_dict()} (committed: {want[changed.index].to_dict()})"

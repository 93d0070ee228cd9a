"""The committed learner-order rows (``px.<a>_<b>.cd.order``) do not move with the seed of their
sign flips (issue 31): every metric pair's sign-flip test recomputed from the committed metrics table
under five seeds, at the job's flips, with the committed calibration (power enters a verdict only
when p >= alpha), and decided by the one rule; seed 0, the study's own, gives the committed p-values."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from prspace.core.contracts import read_metrics_table
from prspace.experiments.ranking.cd_tables import study_tables
from prspace.experiments.steps.cd_step import _families
from prspace.verdicts.rule import apply_rule
from prspace.verdicts.study_evidence import cd_order_evidence

ROOT = Path(__file__).resolve().parents[2]
STUDIES = ("default", "paperlike")
METRICS = ["aupr", "auprg", "auroc", "aucnpr"]  # prspace cd's --rank-by default, as the rule runs it


@pytest.mark.slow
@pytest.mark.parametrize("study", STUDIES)
def test_committed_learner_order_verdicts_do_not_move_with_the_seed(study):
    t = ROOT / "results" / study / "tables"
    table = read_metrics_table(t / "metrics.csv")
    families = _families(str(t / "tasks.csv"))
    committed_pairs = pd.read_csv(t / "cd_metric_pairs.csv")
    calibration = ["false_rate", "false_rate_se", "power_planted_reversal", "power_se", "calibration_n_sim"]
    committed = pd.read_csv(t / "verdicts.csv").set_index("claim_id")["verdict"]
    for seed in range(5):
        pairs = study_tables(table, METRICS, n_perm=int(committed_pairs["n_perm"].iloc[0]), n_sim=0, seed=seed,
                             families=families)["cd_metric_pairs"]
        assert list(pairs[["metric_a", "metric_b"]].itertuples(index=False)) == \
            list(committed_pairs[["metric_a", "metric_b"]].itertuples(index=False))
        if seed == 0:
            np.testing.assert_allclose(pairs["p_value"], committed_pairs["p_value"], rtol=1e-5)
        pairs[calibration] = committed_pairs[calibration].to_numpy()
        got = apply_rule(pd.DataFrame(cd_order_evidence(pairs))).set_index("claim_id")["verdict"]
        changed = got[got != committed[got.index]]
        assert changed.empty, f"seed {seed}: {changed.to_dict()} (committed: {committed[changed.index].to_dict()})"

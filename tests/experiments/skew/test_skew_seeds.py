"""The committed skew rows do not move with the bootstrap seed (issue 31): ``skew_evidence.csv``
recomputed from the committed per-task tables (``controlled_skew_per_task.csv``,
``controlled_skew_counterfactual_per_task.csv``, ``disagreement_per_task.csv``) under five seeds, at
the study's resamples (``analysis.skew_n_boot``), and decided by the one rule; seed 0, the study's
own, reproduces the committed rows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from prspace.experiments.skew.skew_evidence import skew_analysis
from prspace.verdicts.rule import apply_rule
from prspace.verdicts.skew import shown_skew_evidence

ROOT = Path(__file__).resolve().parents[3]
CONFIGS = {"default": ROOT / "config.yaml", "paperlike": ROOT / "config" / "paperlike.yaml"}
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"


def _n_boot(study):
    analysis = yaml.safe_load(CONFIGS[study].read_text()).get("analysis", {})
    default = yaml.safe_load(SCHEMA.read_text())["properties"]["analysis"]["properties"]["skew_n_boot"]["default"]
    return int(analysis.get("skew_n_boot", default))


@pytest.mark.slow
@pytest.mark.parametrize("study", sorted(CONFIGS))
def test_committed_skew_verdicts_do_not_move_with_the_seed(study):
    t = ROOT / "results" / study / "tables"
    read = lambda name: pd.read_csv(t / name, dtype={"task_id": str})  # noqa: E731
    tasks, per, cf, observed = (read(n) for n in ("tasks.csv", "controlled_skew_per_task.csv",
                                                  "controlled_skew_counterfactual_per_task.csv",
                                                  "disagreement_per_task.csv"))
    ref = pd.read_csv(ROOT / "results" / "paperlike" / "tables" / "tasks.csv")
    ref_pi = ref.loc[ref["status"] == "ok", "pi"].to_numpy(np.float64)
    committed_rows = pd.read_csv(t / "skew_evidence.csv")
    committed = pd.read_csv(t / "verdicts.csv").set_index("claim_id")["verdict"]
    for seed in range(5):
        ev = shown_skew_evidence(skew_analysis(per, cf, observed, tasks, reference=ref_pi, reference_name="paperlike",
                                               n_boot=_n_boot(study), seed=seed)["skew_evidence"])
        assert len(ev) >= 6
        if seed == 0:
            cols = ["estimate", "ci_lo", "ci_hi", "mc_error"]
            np.testing.assert_allclose(ev[cols].to_numpy(np.float64), committed_rows[cols].to_numpy(np.float64),
                                       rtol=1e-5, atol=1e-9)
        got = apply_rule(ev).set_index("claim_id")["verdict"]
        changed = got[got != committed[got.index]]
        assert changed.empty, f"seed {seed}: {changed.to_dict()} (committed: {committed[changed.index].to_dict()})"

"""Boyd's downsampling panel: the committed cost measurement (benchmarks/boyd_panel_cost.csv) is its
script's, and the configured panel is the one that measurement decides (issue 78.5)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pandas as pd
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
TABLE = pd.read_csv(ROOT / "benchmarks" / "boyd_panel_cost.csv")


def _script():
    spec = importlib.util.spec_from_file_location("bench_boyd_panel", ROOT / "benchmarks" / "bench_boyd_panel.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_estimate_is_the_scripts_from_the_measured_rows():
    bench = _script()
    rows = [{k: v for k, v in r.items() if pd.notna(v)}
            for r in TABLE[TABLE["kind"] != "estimate"].drop(columns="note").to_dict("records")]
    want = pd.DataFrame(bench.estimate(rows))
    got = TABLE[TABLE["kind"] == "estimate"].reset_index(drop=True)
    assert got[["study", "panel"]].values.tolist() == want[["study", "panel"]].values.tolist()
    assert got["n_tasks"].tolist() == want["n_tasks"].tolist()
    assert got["n_families"].tolist() == want["n_families"].tolist()
    # the CSV keeps 4 significant digits
    assert got["cpu_s"].to_numpy() == pytest.approx(want["cpu_s"].to_numpy(), rel=1e-3)
    # every qualifying task of both studies is counted: the committed task tables, pi <= 0.1, >= 25 positives
    for study, n in zip(got["study"], got["n_tasks"], strict=True):
        assert n == len(bench.qualifying(study)) > 0


def test_the_configured_panel_is_the_one_the_measurement_decides():
    """The whole panel becomes the default only if it adds at most the budget's CPU to each study."""
    schema = yaml.safe_load((ROOT / "workflow" / "schemas" / "boyd.schema.yaml").read_text())
    default = schema["properties"]["downsampling"]["properties"]["learners"]["default"]
    paperlike = yaml.safe_load((ROOT / "config" / "paperlike.yaml").read_text())["boyd"]["downsampling"]["learners"]
    extra = TABLE.dropna(subset=["extra_cpu_s"])
    assert set(extra["study"]) == {"default", "paperlike"}
    affordable = bool((extra["extra_cpu_s"] <= extra["budget_cpu_s"]).all())
    assert {default, paperlike} == ({"default"} if affordable else {"small"})

"""prspace.core.contracts: the task list, the task status and the metrics table, and the rules reading them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from prspace.core.contracts import (
    TASK_LIST_COLUMNS,
    TaskStatus,
    local_task_list,
    read_metrics_table,
    read_status,
    read_task_list,
    selected_task_ids,
    write_status,
    write_task_list,
)
from prspace.core.errors import InputError

ROOT = Path(__file__).resolve().parents[1]


def _local_table() -> pd.DataFrame:
    return pd.DataFrame({"task_id": ["keel-a", "keel-b", "keel-c"], "n": [100, 50, 30], "n_pos": [10, 25, 3],
                         "pi": [0.1, 0.5, 0.1], "n_features": [4, 5, 6], "usable": [True, True, False],
                         "reason": ["", "", "only 3 minority examples; needs 10"]})


def test_local_and_openml_task_lists_share_the_contract(tmp_path):
    from prspace.openml import TaskCandidate, candidates_frame

    local = write_task_list(local_task_list(_local_table()), tmp_path / "local.csv")
    assert list(local.columns[:8]) == TASK_LIST_COLUMNS
    back = read_task_list(tmp_path / "local.csv")
    assert selected_task_ids(back) == ["keel-a", "keel-b"] and list(back["family"]) == ["keel-a", "keel-b", "keel-c"]
    assert back["n_pos"].dtype == "Int64" and back["selected"].dtype == bool

    cands = [TaskCandidate("openml-7", True, "ok", 200, 50, 7, 70, "credit", 2, "10-fold Crossvalidation", 31, 40),
             TaskCandidate("openml-8", False, "task not found: x", None, None, 8, None, "", None, "", 0, 0)]
    df = write_task_list(candidates_frame(cands), tmp_path / "openml.csv")
    back = read_task_list(tmp_path / "openml.csv").set_index("task_id")
    assert list(df.columns[:8]) == TASK_LIST_COLUMNS
    assert back.loc["openml-7", "pi"] == pytest.approx(0.25) and back.loc["openml-7", "family"] == "credit"
    assert pd.isna(back.loc["openml-8", "n_pos"]) and back.loc["openml-8", "source"] == "openml"


def test_task_list_errors_name_the_problem(tmp_path):
    (tmp_path / "bad.csv").write_text("task_id,usable\na,True\n")
    with pytest.raises(InputError, match="lacks column.*selected.*remake it"):
        read_task_list(tmp_path / "bad.csv")
    with pytest.raises(InputError, match="no task list at"):
        read_task_list(tmp_path / "none.csv")
    t = local_task_list(_local_table())
    t.loc[0, "source"] = "elsewhere"
    with pytest.raises(InputError, match="source 'elsewhere'"):
        write_task_list(t, tmp_path / "x.csv")


def test_task_status_round_trip_and_failed_is_refused(tmp_path):
    st = TaskStatus("openml-7", "ok", "30 models", str(tmp_path / "p.parquet"), 30, 1.5, extra={"runs": [{"run_id": 1}]})
    write_status(st, tmp_path / "s.json")
    back = read_status(tmp_path / "s.json")
    assert back == st and back["runs"] == [{"run_id": 1}] and back.get("missing", 3) == 3
    write_status({"task_id": "openml-7", "status": "failed", "reason": "server down"}, tmp_path / "f.json")
    with pytest.raises(InputError, match="neither 'ok' nor 'skipped'.*read its log"):
        read_status(tmp_path / "f.json")
    (tmp_path / "o.json").write_text(json.dumps({"task_id": "x", "status": "ok"}))
    with pytest.raises(InputError, match="names no predictions file"):
        read_status(tmp_path / "o.json")


def test_metrics_table_keeps_ids_as_strings(tmp_path):
    (tmp_path / "m.csv").write_text("task_id,model_id,flow_id,flow_name,auroc\n1882,0012,0012,7,0.5\n")
    m = read_metrics_table(tmp_path / "m.csv")
    assert m.loc[0, "flow_id"] == "0012" and m.loc[0, "task_id"] == "1882"
    with pytest.raises(InputError, match="not the expected metrics table"):
        read_metrics_table(tmp_path / "m.csv", columns=["task_id", "model_id"])


def test_rules_read_task_lists_only_through_the_contract():
    """No input function in workflow/rules reads a column no prspace schema defines."""
    text = {p.name: p.read_text() for p in (ROOT / "workflow" / "rules").glob("*.smk")}
    for name, src in text.items():
        assert not re.search(r"pd\.read_(csv|parquet)\(", src), f"{name} reads a table without a contract"
        for col in re.findall(r"\btable\[\"(\w+)\"\]", src):
            assert col in TASK_LIST_COLUMNS, f"{name} reads task-list column {col!r} the contract does not define"
    # the rules' input functions live in prspace.study.workflow_inputs (no function in a rules file):
    # they read task lists only through the contract's reader
    inputs = (ROOT / "src" / "prspace" / "study" / "workflow_inputs.py").read_text()
    assert "read_task_list" in inputs and not re.search(r"pd\.read_(csv|parquet)\(", inputs)
    assert "StudyInputs(" in text["common.smk"]

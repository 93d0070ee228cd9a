"""prspace.core.contracts: the task list, the task status and the metrics table, and the rules reading them."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pandas as pd
import pytest

from prspace.core.contracts import (
    TASK_LIST_COLUMNS,
    TaskStatus,
    local_task_list,
    ok_predictions,
    ok_statuses,
    read_metrics_table,
    read_status,
    read_task_list,
    selected_task_ids,
    task_predictions,
    write_status,
    write_task_list,
)
from prspace.core.errors import InputError
from prspace.core.schema import TaskInfo, write_predictions

ROOT = Path(__file__).resolve().parents[2]


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


def _task_files(folder: Path, task: str, y: list[int]) -> Path:
    """A predictions file of one model on ``y`` and its ok status; returns the status path."""
    n = len(y)
    df = pd.DataFrame({"task_id": task, "model_id": "m", "flow_id": "m", "flow_name": "m", "repeat": 0,
                       "fold": [i % 2 for i in range(n)], "row_id": range(n), "y_true": y,
                       "score": [i / n for i in range(n)]})
    info = TaskInfo(task_id=task, source="local", dataset_id=task, dataset_name=task, n=n, n_pos=sum(y),
                    positive_class="1", estimation_procedure="2-fold CV", n_folds=2, n_repeats=1, n_models=1,
                    provenance="test", created_at="2026-01-01T00:00:00Z")
    write_predictions(df, info, folder / f"{task}.parquet")
    write_status(TaskStatus(task, "ok", "1 model", str(folder / f"{task}.parquet"), 1), folder / f"{task}.json")
    return folder / f"{task}.json"


def test_ok_predictions_reads_the_ok_tasks_in_path_order_and_skips_the_rest(tmp_path):
    b = _task_files(tmp_path, "keel-b", [1, 0, 0, 1, 0, 0])
    a = _task_files(tmp_path, "keel-a", [0, 1, 1, 0])
    write_status(TaskStatus("keel-c", "skipped", "too few positives"), tmp_path / "keel-c.json")
    got = list(ok_predictions([b, tmp_path / "keel-c.json", str(a)]))
    assert [(s.task_id, i.task_id, len(df), int(df.y_true.sum())) for s, df, i in got] == [
        ("keel-a", "keel-a", 4, 2), ("keel-b", "keel-b", 6, 2)]
    assert [s.task_id for s in ok_statuses([tmp_path / "keel-c.json", b, a])] == ["keel-a", "keel-b"]
    st, df, info = task_predictions(tmp_path / "keel-c.json")
    assert (st.status, st.reason, df, info) == ("skipped", "too few positives", None, None)
    st, df, info = task_predictions(a)
    assert st.task_id == info.task_id == "keel-a" and list(df.y_true) == [0, 1, 1, 0]
    # every status is read before any predictions: a failed task stops the loop before it starts
    write_status({"task_id": "keel-d", "status": "failed", "reason": "crash"}, tmp_path / "keel-d.json")
    (tmp_path / "keel-a.parquet").unlink()
    with pytest.raises(InputError, match="neither 'ok' nor 'skipped'"):
        next(ok_predictions([a, tmp_path / "keel-d.json"]))


def test_ok_predictions_says_how_far_it_is_when_asked(tmp_path, caplog):
    paths = [_task_files(tmp_path, f"keel-{c}", [1, 0] * (2 + 40 * (c == "a"))) for c in "abc"]
    with caplog.at_level(logging.INFO, logger="prspace.core.contracts"):
        assert len(list(ok_predictions(paths))) == 3
        assert not caplog.records  # no progress unless asked
        assert len(list(ok_predictions(paths, progress="noise floor", every=0.0))) == 3
    lines = [r.getMessage() for r in caplog.records]
    assert [re.sub(r"[\d.]+ min", "T min", line) for line in lines] == [
        "noise floor: 1 of 3 tasks done, T min; about T min left", "noise floor: 2 of 3 tasks done, T min; about T min left"]


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

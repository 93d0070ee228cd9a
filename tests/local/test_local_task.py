"""prspace.local.task: the dataset a predict-local call names, and the status it writes (key order kept)."""

from __future__ import annotations

import json
import time

import pytest

from prspace.core.contracts import TaskStatus, read_status, write_status
from prspace.core.errors import InputError
from prspace.core.schema import read_predictions
from prspace.local.task import predict_task, task_dataset

LOCAL_KEYS = ["task_id", "status", "reason", "predictions", "n_models", "failed_learners", "seconds", "n", "n_pos",
              "learner_seconds", "learner_cpu_seconds", "learner_phase_seconds"]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"n_folds": 1}, "at least 2 folds"),
    ({"data_dir": "."}, "--data-dir needs --target"),
    ({"pos_label": "1"}, "--pos-label only applies"),
    ({"target": "y"}, "--target only applies"),
])
def test_option_checks_name_the_fix(kwargs, message):
    with pytest.raises(InputError, match=message):
        task_dataset("keel-ecoli1", **kwargs)


def test_user_id_without_files_and_member_of_another_suite():
    with pytest.raises(InputError, match="is a user dataset; add --data-dir"):
        task_dataset("user-mine")
    with pytest.raises(InputError, match="unknown|not"):
        task_dataset("no-such-dataset")


def test_suite_member_loads():
    d = task_dataset("keel-ecoli1")
    assert d.task_id == "keel-ecoli1" and (d.n, d.n_pos) == (336, 77)


def test_predict_task_ok_and_skipped_status(tmp_path):
    d = task_dataset("keel-ecoli1")
    t0 = time.perf_counter()
    ok = predict_task(d, ["gnb", "tree-depth2"], tmp_path / "p.parquet", n_folds=3, seed=1, t0=t0)
    assert list(ok.to_dict()) == LOCAL_KEYS
    assert ok.status == "ok" and ok.predictions == str(tmp_path / "p.parquet") and ok.n_models == 2
    assert ok.extra["failed_learners"] == [] and set(ok.extra["learner_seconds"]) == {"gnb", "tree-depth2"}
    assert 0 < ok.seconds <= time.perf_counter() - t0 + 1e-3
    # fit and score apart: both measured, and together within the learner's total (rounding aside)
    phases = ok.extra["learner_phase_seconds"]
    assert set(phases) == {"gnb", "tree-depth2"}
    for name, p in phases.items():
        assert set(p) == {"fit_s", "score_s", "fit_cpu_s", "score_cpu_s"} and p["fit_s"] > 0 and p["score_s"] > 0
        assert p["fit_s"] + p["score_s"] <= ok.extra["learner_seconds"][name] + 1e-3
    _, info = read_predictions(tmp_path / "p.parquet")
    assert info.n_models == 2 and info.n_folds == 3
    write_status(ok, tmp_path / "s.json")  # written in the same key order, read back equal
    assert list(json.loads((tmp_path / "s.json").read_text())) == LOCAL_KEYS
    assert read_status(tmp_path / "s.json").to_dict() == ok.to_dict()

    skip = predict_task(d, ["gnb"], tmp_path / "q.parquet", n_folds=3, min_minority=1000)
    assert list(skip.to_dict()) == LOCAL_KEYS
    assert skip.status == "skipped" and "1000" in skip.reason and skip.predictions is None and skip.n_models == 0
    assert not (tmp_path / "q.parquet").exists()


def test_failed_openml_status_keeps_its_key_order():
    from prspace.cli.fetch_openml import _failed

    d = _failed("openml-3", ValueError("boom"), time.monotonic()).to_dict()
    assert list(d) == ["task_id", "status", "reason", "predictions", "n_models", "replaced_runs", "seconds",
                       "http_requests"]
    assert d["status"] == "failed" and d["reason"] == "boom" and d["replaced_runs"] == [] and d["http_requests"] is None
    plain = TaskStatus("t", "ok", extra={"a": 1}).to_dict()  # without before_seconds: extras after the core
    assert list(plain) == ["task_id", "status", "reason", "predictions", "n_models", "seconds", "a"]

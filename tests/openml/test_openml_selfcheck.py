"""openml.selfcheck.check_statuses / stack_checks: a study's self-check from its status files."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score  # independent oracle of the server's AUROC

from prspace.core.contracts import TaskStatus, write_status
from prspace.core.schema import TaskInfo, write_predictions
from prspace.openml.selfcheck import CHECK_COLUMNS, check_statuses, compare_task, stack_checks


def _task(tmp_path, task: str, n_models: int, seed: int, *, wrong: bool = False):
    rng = np.random.default_rng(seed)
    n, folds = 60, 3
    y = np.arange(n) % 3 == 0
    frames, runs = [], []
    for k in range(n_models):
        score = np.round(np.clip(0.3 * y + rng.uniform(0, 0.7, n), 0, 1), 6)
        fold = np.empty(n, dtype=np.int64)  # stratified: both classes in every fold
        fold[y], fold[~y] = np.arange(y.sum()) % folds, np.arange((~y).sum()) % folds
        frames.append(pd.DataFrame({"task_id": task, "model_id": f"run-{10 * seed + k}", "flow_id": str(100 + k), "flow_name": f"flow{k}", "repeat": 0, "fold": fold,
                                    "row_id": np.arange(n), "y_true": y, "score": score}))
        overall = roc_auc_score(y, score)
        runs.append({"run_id": 10 * seed + k, "flow_id": 100 + k,
                     "server_auroc": round(1 - overall if wrong and k == 0 else overall, 6),
                     "server_fold_auroc": {f"0:{f}": round(roc_auc_score(y[fold == f], score[fold == f]), 6)
                                           for f in range(folds)}})
    df = pd.concat(frames, ignore_index=True)
    info = TaskInfo(task_id=task, source="openml", dataset_id="1", dataset_name="d", n=n, n_pos=int(y.sum()),
                    positive_class="p", estimation_procedure="3-fold", n_folds=folds, n_repeats=1, n_models=n_models,
                    provenance="test", created_at="2026-01-01T00:00:00Z")
    write_predictions(df, info, tmp_path / f"{task}.parquet")
    write_status(TaskStatus(task, "ok", predictions=str(tmp_path / f"{task}.parquet"), n_models=n_models,
                            extra={"runs": runs, "task_repeats": 1}), tmp_path / f"{task}.json")
    return df, runs


def test_check_statuses_is_compare_task_over_the_ok_tasks_stacked(tmp_path):
    df_b, runs_b = _task(tmp_path, "openml-2", 2, seed=2, wrong=True)
    df_a, runs_a = _task(tmp_path, "openml-1", 1, seed=1)
    write_status(TaskStatus("openml-3", "skipped", reason="too small"), tmp_path / "openml-3.json")
    paths = [tmp_path / f"openml-{i}.json" for i in (2, 3, 1)]
    checks = check_statuses(paths)
    assert list(checks.columns) == CHECK_COLUMNS
    assert len(checks) == 3 * (1 + 3)  # three runs, overall + three folds each; the skipped task left out
    assert list(checks["task_id"]) == sorted(checks["task_id"])  # sorted, whatever the paths' order
    expected = stack_checks([compare_task(df_a, runs_a, task_repeats=1), compare_task(df_b, runs_b, task_repeats=1)])
    pd.testing.assert_frame_equal(checks, expected)
    bad = checks[~checks["agrees"].astype(bool)]
    assert len(bad) == 1 and bad.iloc[0]["task_id"] == "openml-2" and bad.iloc[0]["scope"] == "overall"
    assert checks.loc[checks["agrees"].astype(bool), "abs_diff"].max() <= 5.1e-7  # 6 printed decimals


def test_nothing_compared_gives_an_empty_table_with_the_columns(tmp_path):
    write_status(TaskStatus("openml-3", "skipped", reason="too small"), tmp_path / "s.json")
    for checks in (check_statuses([tmp_path / "s.json"]), stack_checks([]), stack_checks([pd.DataFrame()])):
        assert checks.empty and list(checks.columns) == CHECK_COLUMNS

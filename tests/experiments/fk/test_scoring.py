"""Tests of prspace.experiments.fk.scoring and `prspace score` against scikit-learn oracles."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.metrics import average_precision_score, roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from prspace import metrics as M
from prspace.cli import main
from prspace.core.schema import TaskInfo, write_predictions
from prspace.experiments.fk import scoring


def _predictions(n_folds: int = 4) -> tuple[pd.DataFrame, TaskInfo]:
    X, y = load_breast_cancer(return_X_y=True)
    y = y == 0  # malignant: the minority class
    cv = StratifiedKFold(n_folds, shuffle=True, random_state=0)
    folds = np.empty(len(y), dtype=int)
    for k, (_, test) in enumerate(cv.split(X, y)):
        folds[test] = k
    frames = []
    for name, est in (("nb", GaussianNB()), ("tree", DecisionTreeClassifier(max_depth=2, random_state=0))):
        s = cross_val_predict(est, X, y, cv=cv, method="predict_proba")[:, 1]
        frames.append(pd.DataFrame({"task_id": "bc", "model_id": name, "flow_id": name, "flow_name": name,
                                    "repeat": 0, "fold": folds, "row_id": np.arange(len(y)),
                                    "y_true": y, "score": s}))
    task = TaskInfo("bc", "local", "bc", "breast_cancer", len(y), int(y.sum()), "malignant",
                    f"{n_folds}-fold", n_folds, 1, 2, "scikit-learn", "2026-01-01T00:00:00Z")
    return pd.concat(frames, ignore_index=True), task


def test_pooled_metrics_match_sklearn_and_all_metrics():
    df, task = _predictions()
    table, folds = scoring.score_task(df, task)
    assert list(table.columns) == scoring.METRICS_COLUMNS
    assert table.model_id.tolist() == ["nb", "tree"]
    for _, row in table.iterrows():
        g = df[df.model_id == row.model_id]
        assert row.auroc == pytest.approx(roc_auc_score(g.y_true, g.score), abs=1e-12)
        assert row.average_precision == pytest.approx(average_precision_score(g.y_true, g.score), abs=1e-12)
        ref = M.all_metrics(g.y_true.to_numpy(), g.score.to_numpy())
        for m in scoring.METRICS:
            assert row[m] == ref[m]
        assert row.pi == pytest.approx(task.pi)
        assert row.aupr_min == pytest.approx(float(M.aupr_min(task.pi)))
        assert (row.n_folds, row.n_folds_scored, row.n_repeats) == (4, 4, 1)


def test_fold_mean_and_spread():
    df, task = _predictions()
    table, folds = scoring.score_task(df, task)
    assert len(folds) == 8 and list(folds.columns) == scoring.FOLD_COLUMNS
    for _, row in table.iterrows():
        per_fold = [
            roc_auc_score(g.y_true, g.score) for _, g in df[df.model_id == row.model_id].groupby("fold")
        ]
        assert row.auroc_fold_mean == pytest.approx(np.mean(per_fold), abs=1e-12)
        assert row.auroc_fold_std == pytest.approx(np.std(per_fold, ddof=1), abs=1e-12)
    # the tree has few distinct scores: pooled and fold-mean AUPR differ (Boyd et al. sec. 4.1)
    tree = table.set_index("model_id").loc["tree"]
    assert tree.aupr != tree.aupr_fold_mean


def test_fold_with_one_class_is_left_out_of_the_fold_mean():
    df, task = _predictions()
    # move every positive of fold 3 into fold 0: fold 3 then has negatives only
    df.loc[(df.fold == 3) & df.y_true, "fold"] = 0
    table, folds = scoring.score_task(df, task)
    row = table.iloc[0]
    assert (row.n_folds, row.n_folds_scored) == (4, 3)
    assert folds[folds.fold == 3].auroc.isna().all()
    ok = folds[(folds.model_id == row.model_id) & folds.auroc.notna()]
    assert row.auroc_fold_mean == pytest.approx(ok.auroc.mean())


def _score(folder, task: str) -> list[str]:
    return ["step", "score", "--in", f"status={folder / f'{task}.json'}", "--out", f"metrics={folder / f'{task}.csv'}",
            "--out", f"folds={folder / f'{task}.folds.csv'}"]


def test_cli_score_task_and_collect(tmp_path):
    df, task = _predictions()
    write_predictions(df, task, tmp_path / "bc.parquet")
    (tmp_path / "bc.json").write_text(json.dumps(
        {"task_id": "bc", "status": "ok", "reason": "", "predictions": str(tmp_path / "bc.parquet")}))
    (tmp_path / "tiny.json").write_text(json.dumps(
        {"task_id": "tiny", "status": "skipped", "reason": "too few minority examples", "predictions": None}))
    for t in ("bc", "tiny"):
        assert main(_score(tmp_path, t)) == 0
    assert len(pd.read_csv(tmp_path / "tiny.csv")) == 0
    assert main(["step", "collect", "--set", 'study="s"', "--in", f"status={tmp_path / 'bc.json'}",
                 str(tmp_path / "tiny.json"), "--in", f"metrics={tmp_path / 'bc.csv'}", str(tmp_path / "tiny.csv"),
                 "--tables-dir", str(tmp_path)]) == 0
    metrics = pd.read_csv(tmp_path / "metrics.csv")
    assert metrics.task_id.unique().tolist() == ["bc"] and len(metrics) == 2
    tasks = pd.read_csv(tmp_path / "tasks.csv")
    assert tasks.set_index("task_id").status.to_dict() == {"bc": "ok", "tiny": "skipped"}
    assert "created_at" not in tasks.columns  # no timestamps in result tables
    assert (tmp_path / "tasks.md").read_text().startswith("### Tasks of study s: 1 scored of 2")


def test_task_table_lists_every_candidate_with_family_and_saturation():
    from prspace.experiments.steps.collect_step import TASK_COLUMNS, task_table

    statuses = [{"task_id": "b", "status": "ok", "reason": ""}, {"task_id": "a", "status": "skipped", "reason": "tiny"}]
    infos = {"b": {"dataset_name": "bee", "n": 10, "n_pos": 3, "pi": 0.3}}
    listed = pd.DataFrame({"task_id": ["a", "b", "c", "d"], "selected": [True, True, True, False],
                           "reason": ["", "", "", "too few positives"], "family": ["fa", None, "fc", "fd"]})
    # task b: two models tied at AUROC = AUPR = AUPRG = 1 (saturated)
    metrics = pd.DataFrame({"task_id": "b", "model_id": ["m1", "m2", "m3"], "auroc": [1.0, 1.0, 0.8],
                            "aupr": [1.0, 1.0, 0.7], "auprg": [1.0, 1.0, 0.6]})
    t = task_table(statuses, infos, metrics, listed).set_index("task_id")
    assert list(t.index) == ["a", "b", "c", "d"] and list(t.columns[:3]) == ["status", "reason", *TASK_COLUMNS[3:4]]
    assert t["status"].to_dict() == {"a": "skipped", "b": "ok", "c": "not run", "d": "excluded"}
    assert t.loc["d", "reason"] == "too few positives" and t.loc["a", "reason"] == "tiny"
    assert t["family"].to_dict() == {"a": "fa", "b": "b", "c": "fc", "d": "fd"}  # no family: the task itself
    assert t.loc["b", "dataset_name"] == "bee" and t.loc["b", "n_pos"] == 3 and str(t["n"].dtype) == "Int64"
    assert t["saturated"].to_dict() == {"a": False, "b": True, "c": False, "d": False}
    assert t.loc["b", "n_saturated"] == 2
    # without a task list: the tasks that ran, each its own family
    alone = task_table(statuses, infos, metrics.iloc[:0])
    assert alone["task_id"].tolist() == ["a", "b"] and alone["family"].tolist() == ["a", "b"]
    assert not alone["saturated"].any()


def test_cli_collect_rejects_fold_tables(tmp_path, capsys):
    df, task = _predictions()
    write_predictions(df, task, tmp_path / "bc.parquet")
    (tmp_path / "bc.json").write_text(json.dumps(
        {"task_id": "bc", "status": "ok", "reason": "", "predictions": str(tmp_path / "bc.parquet")}))
    assert main(_score(tmp_path, "bc")) == 0
    code = main(["step", "collect", "--set", 'study="s"', "--in", f"status={tmp_path / 'bc.json'}",
                 "--in", f"metrics={tmp_path / 'bc.folds.csv'}", "--tables-dir", str(tmp_path / "t")])
    assert code == 2
    assert "per-fold" in capsys.readouterr().err


def test_cli_bad_status_file(tmp_path, capsys):
    (tmp_path / "x.json").write_text("{not json")
    code = main(_score(tmp_path, "x"))
    assert code == 2
    err = capsys.readouterr().err
    assert "x.json is not valid JSON" in err and "rerun" in err

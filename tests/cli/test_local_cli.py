"""`prspace predict-local` and `prspace list-datasets`: the contract the workflow codes against."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer

from prspace.cli import main
from prspace.core.schema import read_predictions


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_predict_local_ok_writes_parquet_and_status(tmp_path, capsys):
    out, status = tmp_path / "p" / "keel-ecoli1.parquet", tmp_path / "s" / "keel-ecoli1.json"
    code, _, err = _run(
        capsys, "predict-local", "--dataset", "keel-ecoli1", "--learners", "gnb,tree-depth2",
        "--folds", "3", "--seed", "1", "--out", str(out), "--status", str(status),
    )
    assert code == 0, err
    st = json.loads(status.read_text())
    assert st["task_id"] == "keel-ecoli1" and st["status"] == "ok" and st["reason"] == ""
    assert st["predictions"] == str(out) and st["n_models"] == 2
    assert st["failed_learners"] == [] and st["seconds"] > 0
    df, task = read_predictions(out)
    assert task.n_models == 2 and task.n_folds == 3 and task.n == 336
    assert set(df["model_id"]) == {"gnb", "tree-depth2"}
    assert not list(tmp_path.rglob("*.part"))  # atomic writes leave no temporaries


def test_predict_local_skipped_writes_status_only(tmp_path, capsys):
    out, status = tmp_path / "zoo.parquet", tmp_path / "zoo.json"
    code, _, err = _run(
        capsys, "predict-local", "--dataset", "keel-zoo-3", "--suite", "all",
        "--learners", "small", "--out", str(out), "--status", str(status),
    )
    assert code == 0, err
    st = json.loads(status.read_text())
    assert st["status"] == "skipped" and "only 5 minority" in st["reason"]
    assert st["predictions"] is None and st["n_models"] == 0
    assert not out.exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--dataset", "keel-nope"], "unknown dataset 'keel-nope'"),
        (["--dataset", "keel-zoo-3"], "not in suite 'default'; pass --suite all"),
        (["--dataset", "keel-ecoli1", "--learners", "gnb,nope"], "unknown learner(s) nope"),
        (["--dataset", "keel-ecoli1", "--folds", "1"], "at least 2 folds"),
        (["--dataset", "keel-ecoli1", "--target", "y"], "--target only applies"),
        (["--dataset", "user-x"], "user dataset; add --data-dir"),
    ],
)
def test_predict_local_user_errors_exit_2_with_one_line(tmp_path, capsys, args, message):
    status = tmp_path / "s.json"
    code, _, err = _run(
        capsys, "predict-local", *args, "--out", str(tmp_path / "p.parquet"), "--status", str(status)
    )
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in err
    assert not status.exists()


def test_user_folder_end_to_end(tmp_path, capsys):
    data = load_breast_cancer(as_frame=True)
    df = data.data.iloc[::4, :4].copy()
    df["label"] = np.where(data.target.iloc[::4] == 0, "M", "B")
    (tmp_path / "data").mkdir()
    df.to_csv(tmp_path / "data" / "cancer.csv", index=False)
    df.drop(columns="label").to_csv(tmp_path / "data" / "nolabel.csv", index=False)

    code, out, err = _run(
        capsys, "list-datasets", "--data-dir", str(tmp_path / "data"), "--target", "label",
        "--out", str(tmp_path / "list.csv"),
    )
    assert code == 0, err
    table = pd.read_csv(tmp_path / "list.csv")
    assert list(table.columns)[:8] == ["task_id", "selected", "reason", "n", "n_pos", "pi", "source", "family"]
    by = table.set_index("task_id")
    assert bool(by.loc["user-cancer", "usable"]) and by.loc["user-cancer", "n"] == len(df)
    assert not by.loc["user-nolabel", "usable"] and "no column 'label'" in by.loc["user-nolabel", "reason"]
    assert "user-cancer" in out

    status = tmp_path / "cancer.json"
    code, _, err = _run(
        capsys, "predict-local", "--dataset", "user-cancer", "--data-dir", str(tmp_path / "data"),
        "--target", "label", "--learners", "small", "--folds", "3",
        "--out", str(tmp_path / "cancer.parquet"), "--status", str(status),
    )
    assert code == 0, err
    preds, task = read_predictions(tmp_path / "cancer.parquet")
    assert task.task_id == "user-cancer" and task.positive_class == "M"
    assert sorted(preds["row_id"].unique()) == list(range(len(df)))

    code, _, err = _run(
        capsys, "predict-local", "--dataset", "user-nolabel", "--data-dir", str(tmp_path / "data"),
        "--target", "label", "--out", str(tmp_path / "x.parquet"), "--status", str(tmp_path / "x.json"),
    )
    assert code == 2 and "no column 'label'" in err


def test_list_datasets_default_suite_table(tmp_path, capsys, monkeypatch):
    import prspace.data.datasets as dmod

    # the default suite takes a while to load; the table's shape is the same for a subset
    monkeypatch.setitem(dmod.SUITES, "default", ("keel-ecoli1", "keel-glass5"))
    code, out, err = _run(capsys, "list-datasets", "--out", str(tmp_path / "d.csv"))
    assert code == 0, err
    table = pd.read_csv(tmp_path / "d.csv")
    assert table["usable"].tolist() == [True, False]
    assert "only 9 minority" in table.loc[1, "reason"]
    assert "2 datasets, 1 usable" in err
    code, out, err = _run(capsys, "list-datasets", "--min-minority", "5")
    assert code == 0 and "2 usable" in err


def test_help_documents_the_flags(capsys):
    assert main(["predict-local", "--help"]) == 0
    text = capsys.readouterr().out
    for flag in ("--dataset", "--suite", "--data-dir", "--target", "--learners", "--folds",
                 "--seed", "--min-minority", "--out", "--status"):
        assert flag in text

"""`prspace predict-local` and `prspace list-datasets`: the contract the workflow codes against."""

from __future__ import annotations

import json
from pathlib import Path

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


def test_predict_local_scores_its_task_in_the_same_process_as_step_score_does(tmp_path, capsys):
    """Issue 42.5: the workflow's predict job scores its task (``--metrics-out``, ``--folds-out``), one
    process per task instead of two; the files are byte for byte those of ``prspace step score``, and
    one option without the other is one line (exit 2) before any work."""
    out, status = tmp_path / "keel-ecoli1.parquet", tmp_path / "keel-ecoli1.json"
    common = ["predict-local", "--dataset", "keel-ecoli1", "--learners", "gnb,tree-depth2", "--folds", "3",
              "--out", str(out), "--status", str(status)]
    code, _, err = _run(capsys, *common, "--metrics-out", str(tmp_path / "m.csv"))
    assert code == 2 and "--metrics-out and --folds-out go together" in err and not status.exists()
    code, _, err = _run(capsys, *common, "--metrics-out", str(tmp_path / "m.csv"), "--folds-out", str(tmp_path / "f.csv"))
    assert code == 0, err
    code, _, err = _run(capsys, "step", "score", "--in", f"status={status}", "--out", f"metrics={tmp_path / 'm2.csv'}",
                        "--out", f"folds={tmp_path / 'f2.csv'}")
    assert code == 0, err
    assert (tmp_path / "m.csv").read_bytes() == (tmp_path / "m2.csv").read_bytes()
    assert (tmp_path / "f.csv").read_bytes() == (tmp_path / "f2.csv").read_bytes()
    assert len(pd.read_csv(tmp_path / "m.csv")) == 2 and len(pd.read_csv(tmp_path / "f.csv")) == 6


def test_boyd_fold_skew_writes_every_task_into_one_folder_as_one_task_runs_do(tmp_path, capsys):
    """Rule boyd_fold_skew is one job for every task (``--out-dir``): each task's file, named after its
    status file, is byte for byte the file of a run of that task alone (``--out``)."""
    statuses = []
    for task in ("keel-ecoli1", "keel-glass1"):
        status = tmp_path / "p" / f"{task}.json"
        code, _, err = _run(capsys, "predict-local", "--dataset", task, "--learners", "gnb,tree-depth2", "--folds", "3",
                            "--out", str(tmp_path / "p" / f"{task}.parquet"), "--status", str(status))
        assert code == 0, err
        statuses.append(str(status))
    settings = ["--dispersions", "0.5,0.9", "--seeds", "2", "--seed", "3"]
    code, _, err = _run(capsys, "boyd", "fold-skew", "--status", *statuses, *settings, "--out-dir", str(tmp_path / "fs"))
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "fs").iterdir()) == ["keel-ecoli1.parquet", "keel-glass1.parquet"]
    assert "fold-skew: 2 of 2 tasks written (keel-glass1)" in err
    # the tasks shared by two processes: each file the same bytes
    code, _, err = _run(capsys, "boyd", "fold-skew", "--status", *statuses, *settings, "--jobs", "2", "--out-dir",
                        str(tmp_path / "fs2"))
    assert code == 0, err
    for p in (tmp_path / "fs").iterdir():
        assert (tmp_path / "fs2" / p.name).read_bytes() == p.read_bytes()
    code, _, err = _run(capsys, "boyd", "fold-skew", "--status", *statuses, "--jobs", "0", "--out-dir", str(tmp_path))
    assert code == 2 and "--jobs" in err and "whole number of processes >= 1" in err
    for status in statuses:
        alone = tmp_path / "alone.parquet"
        code, _, err = _run(capsys, "boyd", "fold-skew", "--status", status, *settings, "--out", str(alone))
        assert code == 0, err
        assert (tmp_path / "fs" / f"{Path(status).stem}.parquet").read_bytes() == alone.read_bytes()
    code, _, err = _run(capsys, "boyd", "fold-skew", "--status", *statuses, *settings, "--out", str(tmp_path / "x.parquet"))
    assert code == 2 and "--out takes the runs of one task" in err
    code, _, err = _run(capsys, "boyd", "fold-skew", "--status", *settings, "--out-dir", str(tmp_path / "none"))
    assert code == 0 and (tmp_path / "none").is_dir() and not list((tmp_path / "none").iterdir())


def test_boyd_downsample_writes_every_task_into_one_folder_as_one_task_runs_do(tmp_path, capsys):
    """Rule boyd_downsample is one job for every task (``--out-dir``): each task's file is byte for byte
    the file of a run of that task alone (``--out``), whatever the number of processes; an unknown task is
    one line before any file is written."""
    tasks = ("keel-ecoli1", "keel-glass1")
    settings = ["--learners", "gnb", "--ratios", "1,3", "--folds", "3", "--seed", "2", "--max-pi", "0.5"]
    code, _, err = _run(capsys, "boyd", "downsample", "--dataset", *tasks, *settings, "--out-dir", str(tmp_path / "ds"))
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "ds").iterdir()) == ["keel-ecoli1.parquet", "keel-glass1.parquet"]
    assert "downsample: 2 of 2 tasks written (keel-glass1)" in err
    code, _, err = _run(capsys, "boyd", "downsample", "--dataset", *tasks, *settings, "--jobs", "2", "--out-dir",
                        str(tmp_path / "ds2"))
    assert code == 0, err
    for task in tasks:
        alone = tmp_path / f"{task}.alone.parquet"
        code, _, err = _run(capsys, "boyd", "downsample", "--dataset", task, *settings, "--out", str(alone))
        assert code == 0, err
        assert len(pd.read_parquet(alone)) > 0
        assert (tmp_path / "ds" / f"{task}.parquet").read_bytes() == alone.read_bytes()
        assert (tmp_path / "ds2" / f"{task}.parquet").read_bytes() == alone.read_bytes()
    code, _, err = _run(capsys, "boyd", "downsample", "--dataset", "keel-ecoli1", "no-such-dataset", *settings,
                        "--out-dir", str(tmp_path / "bad"))
    assert code == 2 and "unknown dataset 'no-such-dataset'" in err and not (tmp_path / "bad").exists()
    code, _, err = _run(capsys, "boyd", "downsample", "--dataset", *tasks, *settings, "--out", str(tmp_path / "x.parquet"))
    assert code == 2 and "--out takes the runs of one task" in err
    code, _, err = _run(capsys, "boyd", "downsample", "--dataset", "keel-ecoli1", "keel-ecoli1", *settings,
                        "--out-dir", str(tmp_path / "twice"))
    assert code == 2 and "name the same task" in err
    code, _, err = _run(capsys, "boyd", "downsample", "--dataset", *settings, "--out-dir", str(tmp_path / "none"))
    assert code == 0 and (tmp_path / "none").is_dir() and not list((tmp_path / "none").iterdir())


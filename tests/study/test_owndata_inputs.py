"""Own-data studies never mislead and never trace back (issue 24, cases 1-6).

1. a 3-class target, a header row repeated inside the file -> the setup check's one line;
2. a class column named twice in a CSV header -> an error naming the column and the fix;
3. the status of an unusable file: `excluded` in code and docs;
4. `pos_label` naming the majority class works end to end (pi > 0.5);
5. `pos_label: yes` in YAML (a boolean) -> "quote it";
6. duplicate rows: identical rows are kept in one fold and the notes say so.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.metrics import roc_auc_score

from prspace.core.errors import InputError
from prspace.data.datasets import load_dataset
from prspace.data.userdata import FileDefect, duplicate_groups, file_columns, screen_file
from prspace.local.crossval import predict_dataset
from prspace.study.setup_check import check_setup
from prspace.study.study_config import prepare_config

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"
SNAKEMAKE = Path(sys.executable).with_name("snakemake")


def _config(**local) -> dict:
    return {"study": "s", "source": "local", "seed": 0,
            "local": {"suite": "default", "data_dir": "data", "target": "label", "pos_label": None,
                      "datasets": [], "learners": "gnb", "folds": 3, "min_minority": 10, **local}}


def _cancer(target: str = "diagnosis") -> pd.DataFrame:
    df = load_breast_cancer(as_frame=True).frame.iloc[:, [0, 1, 2, 3, -1]]
    df[target] = df.pop("target").map({0: "malignant", 1: "benign"})
    return df


# ------------------------------------------------------------------------ case 1


def test_case1_three_classes_stop_at_the_setup_check(tmp_path):
    (tmp_path / "data").mkdir()
    load_iris(as_frame=True).frame.to_csv(tmp_path / "data" / "iris.csv", index=False)
    problems = check_setup(_config(target="target"), workdir=tmp_path)
    assert len(problems) == 1, problems
    assert problems[0].startswith("config key local.data_dir: no usable dataset")
    assert "iris.csv: target column 'target' has 3 classes (0, 1, 2)" in problems[0]
    assert "recode the column to two classes" in problems[0]


def test_case1_a_header_repeated_inside_the_file_is_named_with_its_line(tmp_path):
    (tmp_path / "data").mkdir()
    df = _cancer("label")
    text = df.to_csv(index=False)
    lines = text.splitlines(keepends=True)
    (tmp_path / "data" / "c.csv").write_text("".join(lines[:101] + [lines[0]] + lines[101:]))  # header at line 102
    problems = check_setup(_config(), workdir=tmp_path)
    assert len(problems) == 1, problems
    assert "c.csv: the header row is repeated inside the file as data (line(s) 102, 1 in all" in problems[0]
    assert "delete those lines" in problems[0]
    with pytest.raises(FileDefect, match="line"):
        load_dataset("user-c", data_dir=tmp_path / "data", target="label")


def test_case1_workflow_stops_with_the_setup_line_not_a_traceback(tmp_path):
    (tmp_path / "data").mkdir()
    load_iris(as_frame=True).frame.to_csv(tmp_path / "data" / "iris.csv", index=False)
    cfg = _config(target="target")
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(cfg))
    res = subprocess.run(
        [str(SNAKEMAKE), "--snakefile", str(ROOT / "Snakefile"), "--directory", str(tmp_path), "--cores", "1",
         "-n", "--configfile", str(tmp_path / "c.yaml")],
        capture_output=True, text=True, timeout=300)
    out = res.stdout + res.stderr
    assert res.returncode != 0
    assert "has 3 classes (0, 1, 2)" in out and "nothing was run" in out
    assert "task_ids" not in out and "InputFunctionException" not in out and "Traceback" not in out


# ------------------------------------------------------------------------ case 2


def test_case2_a_class_column_named_twice_is_an_error_naming_it(tmp_path):
    (tmp_path / "data").mkdir()
    rows = "".join(f"{i},{'a' if i % 3 else 'b'},{i % 2}\n" for i in range(60))
    (tmp_path / "data" / "d.csv").write_text("x,label,label\n" + rows)
    with pytest.raises(FileDefect, match=r"column 'label' is named twice in the header \(columns 2 and 3\); rename"):
        file_columns(tmp_path / "data" / "d.csv")
    with pytest.raises(FileDefect, match="named twice"):
        load_dataset("user-d", data_dir=tmp_path / "data", target="label")
    problems = check_setup(_config(), workdir=tmp_path)
    assert len(problems) == 1 and "d.csv: column 'label' is named twice" in problems[0], problems


def test_case2_a_feature_named_twice_and_parquet_too(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "d.csv").write_text("x;x;label\n1;2;a\n")
    with pytest.raises(FileDefect, match="column 'x' is named twice"):
        file_columns(tmp_path / "data" / "d.csv")
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table([pa.array([1, 2]), pa.array([3, 4]), pa.array(["a", "b"])], names=["x", "x", "label"])
    pq.write_table(table, tmp_path / "data" / "p.parquet")
    with pytest.raises(FileDefect, match="column 'x' is named twice"):
        file_columns(tmp_path / "data" / "p.parquet")


# ------------------------------------------------------------------------ case 3


def test_case3_status_words_agree_between_code_and_docs():
    score = (ROOT / "src/prspace/experiments/steps/collect_step.py").read_text()
    assert '"not run" if r.selected else "excluded"' in score  # the code's word for an unusable file
    for doc in ("docs/local.md", "docs/workflow.md"):
        text = (ROOT / doc).read_text()
        assert "listed as skipped" not in text and "lists it as skipped" not in text, doc
        assert "`excluded`" in text, doc


# ------------------------------------------------------------------------ case 4


def test_case4_majority_positive_passes_the_setup_check_and_cross_validates(tmp_path):
    (tmp_path / "data").mkdir()
    _cancer().to_csv(tmp_path / "data" / "c.csv", index=False)
    assert check_setup(_config(target="diagnosis", pos_label="benign"), workdir=tmp_path) == []
    ds = load_dataset("user-c", data_dir=tmp_path / "data", target="diagnosis", pos_label="benign")
    assert ds.n_pos == 357 and ds.pi > 0.5 and "the majority class (357 of 569, pi = 0.627 > 0.5)" in ds.notes
    df, task, failures = predict_dataset(ds, ["gnb"], n_folds=3, seed=0)
    from prspace.core.schema import validate_predictions

    out = validate_predictions(df, task)  # the schema allows a majority positive in own-data tasks
    assert task.n_pos == 357 and out["y_true"].sum() == 357
    assert roc_auc_score(out["y_true"], out["score"]) > 0.5


def test_case4_the_schema_still_requires_a_minority_positive_elsewhere():
    from prspace.core.errors import SchemaError
    from prspace.core.schema import validate_predictions

    n = 10
    df = pd.DataFrame({"task_id": "keel-x", "model_id": "m", "flow_id": "m", "flow_name": "m",
                       "repeat": 0, "fold": np.arange(n) % 2, "row_id": np.arange(n),
                       "y_true": np.arange(n) < 7, "score": np.linspace(0, 1, n)})
    with pytest.raises(SchemaError, match="minority"):
        validate_predictions(df)
    validate_predictions(df.assign(task_id="user-x"))


@pytest.mark.slow
def test_case4_a_majority_positive_study_runs_end_to_end(tmp_path):
    (tmp_path / "data").mkdir()
    _cancer().to_csv(tmp_path / "data" / "cancer.csv", index=False)
    cfg = {"study": "maj", "source": "local", "seed": 0,
           "local": {"data_dir": "data", "target": "diagnosis", "pos_label": "benign",
                     "learners": "gnb,tree-depth2", "folds": 3},
           "analysis": {"n_boot": 20, "figure_formats": ["png"]},
           "boyd": {"theory": False, "downsampling": {"enabled": False}, "fold_skew": {"enabled": False}}}
    (tmp_path / "maj.yaml").write_text(yaml.safe_dump(cfg))
    tables = "results/maj/tables"
    targets = [f"{tables}/{n}.csv" for n in ("metrics", "tasks", "scorecard", "boyd_aggregation_tasks",
                                             "controlled_skew", "noise_floor_per_task")]
    res = subprocess.run(
        [str(SNAKEMAKE), "--snakefile", str(ROOT / "Snakefile"), "--directory", str(tmp_path), "--cores", "2",
         *targets, "--configfile", str(tmp_path / "maj.yaml")],
        capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, (res.stdout + res.stderr)[-3000:]
    tasks = pd.read_csv(tmp_path / tables / "tasks.csv")
    assert tasks.loc[0, "status"] == "ok" and tasks.loc[0, "positive_class"] == "benign"
    assert tasks.loc[0, "n_pos"] == 357 and abs(tasks.loc[0, "pi"] - 357 / 569) < 1e-6
    agg = pd.read_csv(tmp_path / tables / "boyd_aggregation_tasks.csv")
    pi = 357 / 569
    assert np.allclose(agg["aupr_min"], 1 + (1 - pi) * np.log(1 - pi) / pi)  # Boyd's minimum, any pi
    metrics = pd.read_csv(tmp_path / tables / "metrics.csv")
    assert set(metrics["model_id"]) == {"gnb", "tree-depth2"} and (metrics["auroc"] > 0.8).all()


# ------------------------------------------------------------------------ case 5


@pytest.mark.parametrize("text, shown", [("yes", "True"), ("no", "False"), ("on", "True"), ("1.50", "1.5")])
def test_case5_yaml_booleans_and_numbers_get_quote_it(text, shown):
    cfg = yaml.safe_load(f"study: s\nsource: local\nlocal:\n  data_dir: data\n  target: label\n  pos_label: {text}\n")
    with pytest.raises(InputError) as exc:
        prepare_config(cfg, SCHEMA)
    msg = str(exc.value)
    assert "config key local.pos_label:" in msg and "quote it" in msg and shown in msg
    if text in ("yes", "on"):
        assert 'pos_label: "yes"' in msg


def test_case5_the_setup_check_says_quote_it_too(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.csv").write_text("x,label\n" + "".join(f"{i},{'yes' if i % 4 else 'no'}\n" for i in range(40)))
    problems = check_setup(_config(pos_label=True), workdir=tmp_path)
    assert problems == [problems[0]] and 'quote it: pos_label: "yes"' in problems[0]
    problems = check_setup(_config(target=False), workdir=tmp_path)
    assert 'quote it: target: "no"' in problems[0]
    # an integer label that the file writes differently: say to quote it as the file writes it
    (tmp_path / "data" / "a.csv").write_text("x,label\n" + "".join(f"{i},{'01' if i % 4 else '00'}\n" for i in range(40)))
    problems = check_setup(_config(pos_label=1), workdir=tmp_path)
    assert len(problems) == 1 and 'quote it as the file writes it, e.g. pos_label: "00"' in problems[0]


# ------------------------------------------------------------------------ case 6


def _with_duplicates(tmp_path) -> Path:
    (tmp_path / "data").mkdir(exist_ok=True)
    df = _cancer("label")
    dup = pd.concat([df, df.iloc[:200]], ignore_index=True)  # 200 rows twice
    dup.to_csv(tmp_path / "data" / "d.csv", index=False)
    return tmp_path / "data"


def test_case6_duplicate_rows_are_grouped_in_one_fold_and_noted(tmp_path):
    data = _with_duplicates(tmp_path)
    ds = load_dataset("user-d", data_dir=data, target="label", n_folds=5, seed=3)
    assert "200 row(s) repeat the features of another row" in ds.notes
    assert "kept in one cross-validation fold" in ds.notes
    groups = duplicate_groups(ds.X)
    assert len(np.unique(groups)) == 569
    # every set of identical rows in one fold; folds stratified (each within 2 positives of the mean)
    per_group = pd.Series(ds.folds).groupby(groups).nunique()
    assert (per_group == 1).all()
    pos_per_fold = np.bincount(ds.folds[ds.y], minlength=5)
    assert pos_per_fold.max() - pos_per_fold.min() <= 3
    df, task, _ = predict_dataset(ds, ["gnb"], n_folds=5, seed=3)
    assert "StratifiedGroupKFold" in task.estimation_procedure and "identical rows" in task.estimation_procedure
    assert "repeat the features" in task.notes
    # the same folds for the same seed; another seed, other folds
    again = load_dataset("user-d", data_dir=data, target="label", n_folds=5, seed=3)
    np.testing.assert_array_equal(again.folds, ds.folds)
    other = load_dataset("user-d", data_dir=data, target="label", n_folds=5, seed=4)
    assert not np.array_equal(other.folds, ds.folds)


def test_case6_without_duplicates_the_folds_are_unchanged(tmp_path):
    (tmp_path / "data").mkdir()
    _cancer("label").to_csv(tmp_path / "data" / "c.csv", index=False)
    ds = load_dataset("user-c", data_dir=tmp_path / "data", target="label", n_folds=5, seed=0)
    assert ds.folds is None and "repeat the features" not in ds.notes


def test_case6_identical_features_with_both_classes_are_counted(tmp_path):
    (tmp_path / "data").mkdir()
    rows = [f"{i % 30},{'a' if i < 60 else 'b'}\n" for i in range(90)]  # rows i, i+30 (a) and i+60 (b)
    (tmp_path / "data" / "m.csv").write_text("x,label\n" + "".join(rows))
    s = screen_file(tmp_path / "data" / "m.csv", "label", n_folds=3)
    assert s.usable, s
    assert "60 row(s) repeat the features of another row (30 set(s) of identical features with both classes)" in s.notes
    s = screen_file(tmp_path / "data" / "m.csv", "label", n_folds=40)
    assert "only 30 distinct feature rows, fewer than the 40 folds; lower local.folds" in s.reason


def test_task_ids_stop_is_one_line_and_exit_status_2(capsys):
    from prspace.study.setup_check import stop_run

    with pytest.raises(SystemExit) as exc:
        stop_run("study s: no usable task (...); fix the data or the selection and run again")
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err == "prspace: error: study s: no usable task (...); fix the data or the selection and run again\n"

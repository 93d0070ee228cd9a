"""The audit's key columns at scale (issue 41, point 1, third pass): groups cut from remembered codes are
pandas' groupby, the remembered factorisations are pandas' and never stale, integer row ids are checked
for repeats without hashing."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from prspace.audit.inference.tables import groups
from prspace.audit.intake import keys
from prspace.audit.intake.inputs import Columns
from prspace.audit.intake.row_checks import _unique_row_ids, check_duplicate_keys
from prspace.core.errors import InputError


def _frame(rng: np.random.Generator, n: int = 600) -> pd.DataFrame:
    folds = np.array(["10", "2", "1", "b", "B", "é"], dtype=object)
    return pd.DataFrame({"task": rng.choice(["t2", "t10", "a"], n), "model": rng.choice(["m1", "M0", "m0"], n),
                         "fold": pd.Series(folds[rng.integers(0, len(folds), n)], dtype=object),
                         "score": rng.random(n)})


@pytest.mark.parametrize("cols", [("task", "model"), ("task", "model", "fold"), ("model",)])
@pytest.mark.parametrize("memo", [False, True])
def test_groups_are_pandas_groupby(cols: tuple[str, ...], memo: bool) -> None:
    data = _frame(np.random.default_rng(3))
    expected = [(k, g.index.to_numpy()) for k, g in data.groupby(list(cols), sort=True)]
    if memo:
        with keys.memo():
            got = list(groups(data, *cols))
    else:
        got = list(groups(data, *cols))
    assert [k for k, _ in got] == [k for k, _ in expected]
    for (_, a), (_, b) in zip(got, expected, strict=True):
        np.testing.assert_array_equal(a, b)


def test_groups_leave_out_missing_keys_as_groupby_does() -> None:
    data = _frame(np.random.default_rng(4))
    data.loc[[5, 17, 40], "fold"] = None
    expected = [(k, g.index.to_numpy()) for k, g in data.groupby(["task", "model", "fold"], sort=True)]
    got = list(groups(data, "task", "model", "fold"))
    assert [k for k, _ in got] == [k for k, _ in expected]
    assert sum(len(i) for _, i in got) == len(data) - 3


def test_remembered_factorize_is_pandas_and_follows_a_changed_column() -> None:
    data = _frame(np.random.default_rng(5))
    with keys.memo():
        code, uniques = keys.factorize(data["fold"])
        again = keys.factorize(data["fold"])
        assert again[0] is code  # remembered: the same answer, not recomputed
        expected = pd.factorize(data["fold"])
        np.testing.assert_array_equal(code, expected[0])
        assert list(uniques) == list(expected[1])
        assert not keys.any_na(data["fold"])
        data.loc[0, "fold"] = "new"  # copy-on-write: the remembered column keeps its values
        code2, uniques2 = keys.factorize(data["fold"])
        assert "new" in list(uniques2) and "new" not in list(uniques)
        np.testing.assert_array_equal(code2, pd.factorize(data["fold"])[0])
    assert keys._MEMO is None  # forgotten when the block ends


def test_integer_row_ids_checked_for_repeats_without_hashing() -> None:
    cols = Columns(model="model", label="y", score="score", row="row_id")
    n = 50
    ok = pd.DataFrame({"model": np.repeat(["a", "b"], n), "row_id": np.tile(np.arange(n), 2),
                       "score": np.arange(2 * n) / 100.0})
    assert _unique_row_ids(ok, cols)
    check_duplicate_keys(ok, cols)  # no error
    bad = ok.copy()
    bad.loc[3, "row_id"] = 4  # model a scores row 4 twice, with two scores
    assert not _unique_row_ids(bad, cols)
    with pytest.raises(InputError, match="repeat an earlier"):
        check_duplicate_keys(bad, cols)
    text = ok.assign(row_id=ok["row_id"].astype(str))
    assert not _unique_row_ids(text, cols)  # text ids: the full check decides
    check_duplicate_keys(text, cols)


@pytest.mark.parametrize("n_models", [1, 3, 20])
@pytest.mark.parametrize("categorical", [False, True])
def test_integer_row_ids_checked_one_model_at_a_time(n_models: int, categorical: bool) -> None:
    # a few models (a wide file's categorical model column among them): each model's ids marked in turn; many: one key
    cols = Columns(model="model", label="y", score="score", row="row_id")
    n = 40
    names = pd.Series(np.repeat([f"m{k}" for k in range(n_models)], n))
    ok = pd.DataFrame({"model": names.astype("category") if categorical else names,
                       "row_id": np.tile(np.arange(n), n_models), "score": np.zeros(n * n_models)})
    assert _unique_row_ids(ok, cols)
    for where in (1, len(ok) - 1):  # a repeat in the first model, in the last
        bad = ok.copy()
        bad.loc[where, "row_id"] = bad.loc[where - 1, "row_id"]
        assert not _unique_row_ids(bad, cols)


def test_task_groups_are_the_same_frames_within_a_run() -> None:
    from prspace.audit.intake.rows import task_groups

    data = _frame(np.random.default_rng(6))
    expected = [(t, g.index.to_numpy()) for t, g in data.groupby("task", sort=True)]
    with keys.memo():
        first, again = task_groups(data), task_groups(data)
        assert first is again  # one set of frames: their key codes are remembered once
        assert [t for t, _ in first] == [t for t, _ in expected]
        for (_, g), (_, idx) in zip(first, expected, strict=True):
            np.testing.assert_array_equal(g.index.to_numpy(), idx)
    assert [t for t, _ in task_groups(data)] == [t for t, _ in expected]


def test_narrowed_codes_are_pandas_codes_in_the_smallest_type() -> None:
    # int8 for a few values (-1 for a missing one kept), int16 / int32 as the values grow: the same numbers
    for n_values, dtype in ((3, np.int8), (500, np.int16), (40_000, np.int32)):
        col = pd.Series(np.arange(2 * n_values) % n_values).astype(object)
        col.iloc[1] = None
        with keys.memo():
            code, uniques = keys.factorize(col)
        expected, expected_uniques = pd.factorize(col)
        assert code.dtype == dtype
        np.testing.assert_array_equal(code, expected)
        assert list(uniques) == list(expected_uniques) and code.min() == -1


def test_categorical_key_columns_group_and_factorise_as_their_texts(monkeypatch) -> None:
    # keys.category (the canonical frame's task, model and fold, issue 41 sixth pass): coded a chunk at a time,
    # the same values, groupby's order and pd.factorize's codes as the text column; remembered by its codes
    monkeypatch.setattr(keys, "CATEGORY_CHUNK", 7)
    frame = _frame(np.random.default_rng(3), 100)
    for col in ("task", "model", "fold"):
        text = frame[col]
        cat = keys.category(text)
        assert isinstance(cat.dtype, pd.CategoricalDtype) and list(cat.cat.categories) == sorted(set(text))
        assert cat.astype(object).tolist() == text.tolist()
        by_text = frame["score"].groupby(text, sort=True).sum()
        by_cat = frame["score"].groupby(cat, sort=True).sum()
        assert list(by_cat.index) == list(by_text.index) and np.array_equal(by_cat.to_numpy(), by_text.to_numpy())
        with keys.memo():
            code, uniques = keys.factorize(cat)
            again, _ = keys.factorize(cat)
            other, _ = keys.factorize(keys.category(text.iloc[::-1].reset_index(drop=True)))
        expected, expected_uniques = pd.factorize(text)
        assert code is again and np.array_equal(code, expected) and list(uniques) == list(expected_uniques)
        assert not np.array_equal(other, code)  # another column: its own codes, not the remembered ones
    unsorted = pd.Series(pd.Categorical(["b", "a", "b"], categories=["b", "a", "c"]))
    cat = keys.category(unsorted)
    assert list(cat.cat.categories) == ["a", "b"] and cat.astype(object).tolist() == ["b", "a", "b"]
    for cats, used in ((["a", "b"], ["a", "b"]), (["a", "b", "c"], ["a", "b"]), (["c", "a", "b"], ["a", "b"])):
        values = ["b", None, "a"] * 5 + ["b"]  # 16 rows, chunks of 7: a missing value, every category used or not
        cat = keys.category(pd.Series(pd.Categorical(values, categories=cats)))
        assert list(cat.cat.categories) == used and cat.astype(object).tolist() == [v if v else np.nan for v in values]
    const = keys.constant_key("all", 4)
    assert list(const) == ["all"] * 4 and const.codes.dtype == np.int8


def test_integer_row_ids_rank_as_their_texts() -> None:
    # integer row ids are ranked by their texts from numpy's bytes of them (not a Python str each): the order of str()
    from prspace.audit.inference.audit_blocks import _sort_ranks

    ids = np.array([10, 9, -3, 100, 0, -12, 1, 99, 1000, 2, -1], dtype=np.int64)
    rank, code = _sort_ranks(pd.Series(ids))
    texts = [str(v) for v in ids]
    expected = [sorted(texts).index(t) for t in texts]
    assert rank[code].tolist() == expected


def test_a_wide_file_is_freed_once_made_long(tmp_path, monkeypatch) -> None:
    # audit_file hands the table it read over (result.Handover): once made long nothing refers to the wide table
    import weakref

    from prspace.audit import audit_files as files

    rng = np.random.default_rng(2)
    y = rng.random(500) < 0.2
    pd.DataFrame({"y_true": y.astype(int), "a": rng.random(500) + y, "b": rng.random(500) + y}).to_csv(
        tmp_path / "wide.csv", index=False)
    read, refs = files.read_table, []

    def reading(*args, **kwargs):
        table = read(*args, **kwargs)
        refs.append(weakref.ref(table))
        return table

    monkeypatch.setattr(files, "read_table", reading)
    alive: list[bool | None] = []  # per stage: whether the table read is still referenced (None: not read yet)
    result, _ = files.audit_file(str(tmp_path / "wide.csv"), score_cols="a,b", skew_tolerance=0.02,
                                 downsample_ratio=1.5, n_boot=0, confidence=0.95,
                                 progress=lambda text: alive.append(refs[0]() is not None if refs else None))
    assert len(alive) > 2 and alive[0] is None  # "reading ...", then every stage of the audit: freed
    assert alive[1:] == [False] * (len(alive) - 1)
    assert len(result.pooled) == 2

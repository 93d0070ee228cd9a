"""Own data files as researchers have them (issue 15, items 3 and 7): pos_label, separators,
header-only files, numeric labels in messages, the note on wide text columns."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer

from prspace.cli import main
from prspace.core.errors import InputError
from prspace.data.datasets import load_dataset
from prspace.data.userdata import encoding_notes, file_columns
from prspace.local.crossval import predict_dataset


@pytest.fixture(scope="module")
def cancer() -> pd.DataFrame:
    df = load_breast_cancer(as_frame=True).frame
    df["diagnosis"] = df.pop("target").map({0: "malignant", 1: "benign"})
    return df


def test_pos_label_chooses_the_positive_class(tmp_path, cancer):
    cancer.to_csv(tmp_path / "c.csv", index=False)
    default = load_dataset("user-c", data_dir=tmp_path, target="diagnosis")
    assert default.positive_class == "malignant" and default.n_pos == 212  # the minority
    chosen = load_dataset("user-c", data_dir=tmp_path, target="diagnosis", pos_label="benign")
    assert chosen.positive_class == "benign" and chosen.n_pos == 357
    np.testing.assert_array_equal(chosen.y, ~default.y)
    assert "given by pos_label" in chosen.notes
    with pytest.raises(InputError, match=r"pos_label 'yes' matches no value of column 'diagnosis' \(classes: benign, malignant\)"):
        load_dataset("user-c", data_dir=tmp_path, target="diagnosis", pos_label="yes")
    # the majority class as positive still cross-validates (pi > 0.5)
    df, task, failures = predict_dataset(chosen, ["gnb"], n_folds=3, seed=0)
    assert not failures and task.positive_class == "benign" and task.n_pos == 357
    assert df["y_true"].sum() == 357


def test_pos_label_on_the_command_line(tmp_path, cancer, capsys):
    cancer.to_csv(tmp_path / "c.csv", index=False)
    assert main(["list-datasets", "--data-dir", str(tmp_path), "--target", "diagnosis",
                 "--pos-label", "benign"]) == 0
    assert "357" in capsys.readouterr().out
    assert main(["list-datasets", "--suite", "default", "--pos-label", "x"]) == 2
    assert "only apply to your own files" in capsys.readouterr().err


@pytest.mark.parametrize("sep", [";", "\t"])
def test_semicolon_and_tab_separated_files_are_read(tmp_path, cancer, sep):
    cancer.to_csv(tmp_path / "c.csv", index=False, sep=sep)
    assert "diagnosis" in file_columns(tmp_path / "c.csv")
    ds = load_dataset("user-c", data_dir=tmp_path, target="diagnosis")
    assert ds.n == 569 and ds.X.shape[1] == 30
    assert "-separated" in ds.notes


def test_a_wrong_separator_is_named_not_a_missing_column(tmp_path):
    (tmp_path / "p.csv").write_text("a|b|label\n1|2|x\n")
    with pytest.raises(InputError, match="does not look comma-separated"):
        load_dataset("user-p", data_dir=tmp_path, target="label")


def test_header_only_and_one_class_files(tmp_path):
    (tmp_path / "h.csv").write_text("a,b,label\n")
    with pytest.raises(InputError, match="has a header but no data rows"):
        load_dataset("user-h", data_dir=tmp_path, target="label")
    (tmp_path / "one.csv").write_text("a,label\n1,x\n2,x\n")
    with pytest.raises(InputError, match=r"has 1 class \(x\); prspace needs a binary target"):
        load_dataset("user-one", data_dir=tmp_path, target="label")
    (tmp_path / "e.csv").write_text("")
    with pytest.raises(InputError, match="is empty"):
        load_dataset("user-e", data_dir=tmp_path, target="label")


def test_numeric_labels_read_as_the_file_writes_them(tmp_path):
    pd.DataFrame({"x": np.arange(30.0), "y": [-0.5] * 20 + [1.5] * 5 + [2.5] * 5}).to_csv(
        tmp_path / "n.csv", index=False)
    with pytest.raises(InputError) as err:
        load_dataset("user-n", data_dir=tmp_path, target="y")
    assert "(-0.5, 1.5, 2.5)" in str(err.value) and "np.float64" not in str(err.value)


def test_wide_text_columns_get_a_note(tmp_path):
    X = pd.DataFrame({"id": [f"p{i}" for i in range(50)], "colour": ["red", "blue"] * 25,
                      "x": np.arange(50.0)})
    notes = encoding_notes(X)
    assert len(notes) == 1 and "id (50 values)" in notes[0] and "colour" not in notes[0]
    assert "19 most frequent" in notes[0]
    assert encoding_notes(X[["colour", "x"]]) == []


def test_the_note_says_what_the_learners_encoder_does():
    """Oracle: the learners' own preprocessing (scikit-learn's OneHotEncoder)."""
    from prspace.data.userdata import MAX_CATEGORIES as NOTE_MAX
    from prspace.local.learners import MAX_CATEGORIES, preprocessor

    assert NOTE_MAX == MAX_CATEGORIES
    X = pd.DataFrame({"id": np.array([f"p{i % 40}" for i in range(200)], dtype=object)})
    out = preprocessor(scale=False).fit(X).get_feature_names_out()
    assert len(out) == MAX_CATEGORIES  # 19 most frequent + 1 'infrequent'
    assert sum("infrequent" in str(c) for c in out) == 1


def test_list_datasets_prints_each_reason_whole(tmp_path, cancer, capsys):
    """The issue: the reason was cut before the part that names the fix."""
    cancer.to_csv(tmp_path / "wide.csv", index=False)
    assert main(["list-datasets", "--data-dir", str(tmp_path), "--target", "label"]) == 0
    out = capsys.readouterr().out
    assert "user-wide: wide.csv has no column 'label' (columns: mean radius" in out
    assert out.rstrip().endswith("name the class column with --target (config key local.target)")

"""Own data in ARFF, read as the format defines it (issue 15, item 3).

Oracles: liac-arff (the ``arff`` module the ``openml`` client ships with) on the real
OpenML ARFF files that scikit-learn's wheel carries as test fixtures (read from the
installed package at test time: titanic is OpenML dataset 40945, australian 292 is
sparse), and hand-made files for each rule of the format.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import arff as liac
import numpy as np
import pandas as pd
import pytest
import sklearn

from prspace.core.errors import InputError
from prspace.data.arff import read_arff
from prspace.data.datasets import describe_user_datasets, load_dataset
from prspace.data.userdata import task_id_of, user_files

OPENML = Path(sklearn.__file__).parent / "datasets" / "tests" / "data" / "openml"
FIXTURES = sorted(OPENML.glob("id_*/*.arff.gz"))
TITANIC = next(OPENML.glob("id_40945/*.arff.gz"))


def _missing(v: object) -> bool:
    return v is None or (isinstance(v, float) and np.isnan(v))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.parent.name)
def test_openml_arff_files_read_as_liac_arff_reads_them(path):
    assert len(FIXTURES) >= 10
    ref = liac.loads(gzip.open(path, "rt", encoding="utf-8").read())
    df = read_arff(path)
    names = [a[0] for a in ref["attributes"]]
    assert list(df.columns) == names
    assert len(df) == len(ref["data"])
    for j, (name, typ) in enumerate(ref["attributes"]):
        want = [row[j] for row in ref["data"]]
        got = df[name].tolist()
        if isinstance(typ, str) and typ.upper() in ("NUMERIC", "REAL", "INTEGER"):
            assert df[name].dtype == np.float64, name
            np.testing.assert_array_equal(np.array([np.nan if _missing(v) else v for v in want], dtype=float),
                                          df[name].to_numpy(), err_msg=name)
        else:
            assert [None if _missing(v) else str(v) for v in want] == [None if _missing(v) else v for v in got], name


def test_titanic_as_it_ships_double_quoted_strings_with_commas(tmp_path):
    """The issue's file: `Expected 16 fields in line 3, saw 17` before."""
    df = read_arff(TITANIC)
    assert df.shape == (1309, 14)
    assert df.loc[0, "name"] == "Allen, Miss. Elisabeth Walton"
    assert df.loc[0, "home.dest"] == "St Louis, MO"
    assert df["survived"].value_counts().to_dict() == {"0": 809, "1": 500}
    (tmp_path / "titanic.arff.gz").write_bytes(TITANIC.read_bytes())
    ds = load_dataset("user-titanic", data_dir=tmp_path, target="survived")
    assert (ds.n, ds.n_pos, ds.positive_class) == (1309, 500, "1")
    assert "name (1307 values)" in ds.notes and "infrequent" in ds.notes  # one-hot note


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


HEADER = """% a comment before the header
@RELATION 'toy data'

@ATTRIBUTE x NUMERIC
@ATTRIBUTE 'the label' {yes,no}
@ATTRIBUTE note STRING
@DATA
"""


def test_quotes_escapes_comments_and_missing_values(tmp_path):
    p = _write(tmp_path / "toy.arff", HEADER + (
        "% a comment among the rows\n"
        "1.5,yes,'it''s'\n".replace("''", "\\'")
        + '2,no,"a, b"\n'
        "\n"
        "?,'yes',\"say \\\"hi\\\"\"\n"
        "3e2,no,'tab\\there'\n"
        "4,?,?\n"
    ))
    df = read_arff(p)
    assert list(df.columns) == ["x", "the label", "note"]
    assert df["x"].tolist()[:2] == [1.5, 2.0] and np.isnan(df["x"][2]) and df["x"][3] == 300.0
    assert df["the label"].tolist()[:4] == ["yes", "no", "yes", "no"] and _missing(df["the label"][4])
    assert df["note"].tolist()[:4] == ["it's", "a, b", 'say "hi"', "tab\there"]
    assert _missing(df["note"][4])


def test_single_quotes_only_take_the_fast_path_and_agree(tmp_path):
    rows = "".join(f"{i},{'yes' if i % 3 else 'no'},'row {i}, with a comma'\n" for i in range(200))
    df = read_arff(_write(tmp_path / "fast.arff", HEADER + rows))
    assert df.shape == (200, 3)
    assert df["note"][7] == "row 7, with a comma" and df["x"][199] == 199.0


def test_sparse_rows(tmp_path):
    p = _write(tmp_path / "sparse.arff", HEADER + "{0 2.5, 2 'a b'}\n{1 no}\n{}\n")
    df = read_arff(p)
    assert df["x"].tolist() == [2.5, 0.0, 0.0]
    # an omitted nominal value is the attribute's first declared value (Weka)
    assert df["the label"].tolist() == ["yes", "no", "yes"]
    assert df["note"].tolist() == ["a b", "", ""]


def test_gzip_and_csv_gz_are_data_files(tmp_path):
    text = HEADER + "1,yes,a\n2,no,b\n"
    with gzip.open(tmp_path / "zipped.arff.gz", "wt") as fh:
        fh.write(text)
    pd.DataFrame({"x": [1, 2], "y": ["a", "b"]}).to_csv(tmp_path / "table.csv.gz", index=False)
    (tmp_path / "notes.txt").write_text("not data")
    assert read_arff(tmp_path / "zipped.arff.gz")["note"].tolist() == ["a", "b"]
    assert sorted(user_files(tmp_path)) == ["user-table", "user-zipped"]
    assert task_id_of("data/My file.arff.gz") == "user-My_file"


@pytest.mark.parametrize(
    ("rows", "line", "what"),
    [
        ("1,yes,a\n2,no\n", 9, "2 values but the header declares 3"),
        ("1,yes,a\n\n% c\n2,no,'open\n", 11, "quote ' is not closed"),
        ("1,yes,a\nx,no,b\n", 9, "'x' in numeric attribute 'x'"),
        ("{5 1}\n", 8, "sparse index 5"),
        ('1,yes,"a"\n2,no,"open\n3,yes,"c"\n', 9, 'quote " is not closed'),
    ],
)
def test_errors_give_the_line_counted_from_the_top_of_the_file(tmp_path, rows, line, what):
    p = _write(tmp_path / "bad.arff", HEADER + rows)
    with pytest.raises(InputError, match=rf"bad\.arff, line {line}: .*{_re(what)}"):
        read_arff(p)


def _re(text: str) -> str:
    import re

    return re.escape(text)


def test_header_errors_name_the_file_and_line(tmp_path):
    with pytest.raises(InputError, match="no @DATA line"):
        read_arff(_write(tmp_path / "a.arff", "@relation r\n@attribute x numeric\n"))
    with pytest.raises(InputError, match=r"b\.arff: line 2: .*unknown attribute type"):
        read_arff(_write(tmp_path / "b.arff", "@relation r\n@attribute x blob\n@data\n1\n"))
    (tmp_path / "c.arff.gz").write_bytes(b"\x1f\x8b not really gzip")
    with pytest.raises(InputError, match="damaged gzip"):
        read_arff(tmp_path / "c.arff.gz")


def test_a_bad_file_is_listed_with_its_reason_not_fatal(tmp_path):
    (tmp_path / "good.arff.gz").write_bytes(TITANIC.read_bytes())
    _write(tmp_path / "bad.arff", "@relation r\n@attribute survived {0,1}\n@data\n0\n1,2\n")
    table = describe_user_datasets(tmp_path, "survived").set_index("task_id")
    assert bool(table.loc["user-good", "usable"])
    assert not table.loc["user-bad", "usable"] and "bad.arff, line 5" in table.loc["user-bad", "reason"]

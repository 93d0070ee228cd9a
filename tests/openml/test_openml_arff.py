"""The fast predictions-ARFF parser against liac-arff (the openml client's own parser)."""

from __future__ import annotations

import sys
from pathlib import Path

import arff  # liac-arff: the oracle
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))
from openml_server import make_task  # noqa: E402
from prspace.openml.predictions_arff import ArffError, parse_arff_header, parse_predictions_arff  # noqa: E402


def _liac(body: bytes):
    d = arff.loads(body.decode())
    names = [a[0] for a in d["attributes"]]
    return names, d["data"]


def _check_against_liac(body: bytes, classes: tuple[str, ...] | None = None) -> None:
    got = parse_predictions_arff(body)
    names, rows = _liac(body)
    col = {n: i for i, n in enumerate(names)}
    assert len(got) == len(rows)
    for role in ("repeat", "fold", "row_id"):
        np.testing.assert_array_equal(getattr(got, role), [r[col[role]] for r in rows])
    conf = [n for n in names if n.startswith("confidence.")]
    # values by position: liac-arff keeps backslash escapes in attribute *names*
    # (it reads 'confidence.neg \'x\'' as "confidence.neg \\'x\\"), we unescape them
    assert len(got.confidence) == len(conf)
    for n, mine in zip(conf, got.confidence.values(), strict=True):
        ref = np.array([np.nan if r[col[n]] is None else r[col[n]] for r in rows], dtype=float)
        np.testing.assert_array_equal(mine, ref)
    if classes is not None:
        assert set(got.confidence) == set(classes)
    if "correct" in col:
        assert got.correct.tolist() == [r[col["correct"]] for r in rows]
    else:
        assert got.correct is None


@pytest.mark.parametrize("classes", [("neg 'x'", "pos.y z"), ("a,b", 'say "hi"'), ("0", "1"), ("tested_negative", "tested_positive")])
def test_generated_files_agree_with_liac_arff(classes):
    # make_task writes Weka (single quotes, 5.0000E-5), scikit-learn (double quotes, reversed
    # confidence columns, '%' lines after the data) and mlr (no `correct`, ints, ", ") styles
    t = make_task(11, n_flows=6, n_rows=45, classes=classes)
    for r in t.runs:
        _check_against_liac(r.arff, classes)


def test_missing_values_exponents_and_quoted_nominals():
    body = b"""% Weka-like
@RELATION 'weka predictions'
@ATTRIBUTE repeat NUMERIC
@ATTRIBUTE fold INTEGER
@ATTRIBUTE row_id REAL
@ATTRIBUTE 'confidence.it\\'s a.b' NUMERIC
@ATTRIBUTE confidence.other NUMERIC
@ATTRIBUTE prediction {'it\\'s a.b',other}
@ATTRIBUTE correct {'it\\'s a.b',other}

@data
0,0,3,1.0E-4,0.9999,other,'it\\'s a.b'
0,1,4,?,?,?,other
1,0,3,1,0,'it\\'s a.b','it\\'s a.b'

"""
    _check_against_liac(body)
    got = parse_predictions_arff(body)
    assert got.confidence["it's a.b"][0] == 1e-4 and np.isnan(got.confidence["other"][1])
    assert got.class_values == ("it's a.b", "other")
    assert got.repeat.tolist() == [0, 0, 1]


def test_header_parser_handles_quotes_braces_and_types():
    rel, attrs = parse_arff_header(
        "@relation 'a b'\n% comment\n@attribute \"confidence.{x}\" numeric\n"
        "@ATTRIBUTE y {'p q', \"r's\", s.t}\n@attribute z string\n"
    )
    assert rel == "a b"
    assert [(a.name, a.type) for a in attrs] == [("confidence.{x}", "numeric"), ("y", "nominal"), ("z", "string")]
    assert attrs[1].values == ("p q", "r's", "s.t")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"@relation x\n@attribute repeat numeric\n", "no @DATA"),
        (b"@relation x\n@attribute repeat numeric\n@attribute fold numeric\n@attribute confidence.a numeric\n@data\n0,0,1\n", "no 'row_id' column"),
        (b"@relation x\n@attribute repeat numeric\n@attribute fold numeric\n@attribute row_id numeric\n@data\n0,0,1\n", "no confidence"),
        (b"@relation x\n@attribute repeat numeric\n@attribute fold numeric\n@attribute row_id numeric\n@attribute confidence.a numeric\n@data\n{0 1}\n", "sparse"),
        (b"@relation x\n@attribute repeat numeric\n@attribute fold numeric\n@attribute row_id numeric\n@attribute confidence.a numeric\n@data\n0,0,1,abc\n", "cannot read the @DATA"),
        (b"@relation x\n@attribute repeat numeric\n@attribute fold numeric\n@attribute row_id numeric\n@attribute confidence.a numeric\n@data\n0,0,1,0.5,7,8\n", "cannot read the @DATA"),
        (b"@relation x\n@attribute repeat foo\n@data\n", "unknown attribute type"),
    ],
)
def test_malformed_files_raise_clear_errors(body, message):
    with pytest.raises(ArffError, match=message):
        parse_predictions_arff(body)


def test_truncated_last_line_is_an_error_not_garbage():
    t = make_task(12, n_flows=3, n_rows=30)
    for r in t.runs:  # weka, sklearn and mlr layouts
        body = r.arff.rstrip(b"\n% end")
        cut = body[: body.rindex(b",")]  # the last line loses its final field
        with pytest.raises(ArffError, match=r"data row 30 has fewer fields"):
            parse_predictions_arff(cut)

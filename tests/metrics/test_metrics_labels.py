"""The one positive-class rule (:func:`prspace.metrics.labels.default_positives`) against
scikit-learn's rule for ``pos_label=None`` (an oracle written elsewhere), and its users (its doctest
examples run in test_metrics_doctests.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.utils.validation import _check_pos_label_consistency

from prspace.data.dataset import positive_class
from prspace.metrics.labels import default_positives
from prspace.stats.bands import _labels

SRC = Path(__file__).resolve().parents[2] / "src" / "prspace"

CASES = [[0, 1, 1], [1, 0], [-1, 1, 1], [0, 2], [-1, 0, 1], [1, 1], [0, 0], [-1, -1], [2, 3], [0.0, 1.0], [-1.0, 1.0],
         [0.5, 1.0]]


@pytest.mark.parametrize("values", CASES)
@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.float64])
def test_rule_is_scikit_learns(values, dtype):
    y = np.array(values, dtype=dtype)
    try:
        sk = _check_pos_label_consistency(None, y)
    except ValueError:
        sk = None
    got = default_positives(y)
    if sk is None:
        assert got is None
    else:
        assert got is not None and got.dtype == bool and got.tolist() == (y == sk).tolist()


def test_booleans_and_other_dtypes():
    y = np.array([True, False, True])
    assert default_positives(y) is y
    assert default_positives(np.array(["0", "1"])) is None
    assert default_positives(np.array([0.0, np.nan])) is None


def test_callers_agree_with_the_rule():
    y = np.array([1, 0, 0, 1, 1])
    want = default_positives(y).tolist()
    assert _labels(y).tolist() == want
    assert positive_class(pd.Series(y), default="one")[0].tolist() == want
    assert positive_class(pd.Series([-1, 1, -1, 1, 1]), default="one")[0].tolist() == [False, True, False, True, True]


def test_function_names_are_unique_for_the_rule():
    """No two functions of the package share a name of the rule's functions (issue 43: two different
    functions were both ``_positive_mask``), and the rule is defined once."""
    names = [n.name for p in SRC.rglob("*.py") for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
             if isinstance(n, ast.FunctionDef)]
    for name in ("_positive_mask", "_y_true_positives", "default_positives", "positive_class"):
        assert names.count(name) <= 1, name
    assert names.count("default_positives") == 1

"""Test-only access to the PRG authors' reference implementation (PyPI ``pyprg``).

``pyprg`` calls ``numpy.alen``, removed in numpy 1.23+. We restore it here, in the tests only,
with numpy's original definition (``len``, falling back to ``len(array(a, ndmin=1))`` for
scalars), and wrap the reference functions.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest


def _alen(a):
    try:
        return len(a)
    except TypeError:
        return len(np.array(a, ndmin=1))


if not hasattr(np, "alen"):
    np.alen = _alen  # type: ignore[attr-defined]

try:
    from prg import prg
except ImportError:  # pyprg is a test dependency (pyproject [dev]); only its tests skip
    prg = None


def _require() -> None:
    if prg is None:
        pytest.skip("pyprg (the PRG reference code) is not installed")


class ReferenceError_(Exception):
    """The reference code raised (e.g. meeliskull/prg #6)."""


def reference_curve(y_true, y_score):
    """``create_prg_curve`` of the reference code on {0,1} labels (as int array)."""
    _require()
    y = np.asarray(y_true).astype(int)
    s = np.asarray(y_score, dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return prg.create_prg_curve(y, s)
        except Exception as exc:  # the reference code fails on some inputs (prg #6)
            raise ReferenceError_(repr(exc)) from exc


def reference_auprg(y_true, y_score) -> float:
    """``calc_auprg(create_prg_curve(...))`` of the reference code."""
    return float(prg.calc_auprg(reference_curve(y_true, y_score)))

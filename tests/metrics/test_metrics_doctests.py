"""The examples in prspace.metrics' docstrings run and print what they say (doctest), and every
public function of the package has one."""

from __future__ import annotations

import doctest
import importlib
import inspect

import pytest

import prspace.metrics as M

MODULES = ("prspace.metrics.roc", "prspace.metrics.pr", "prspace.metrics.pr_estimators", "prspace.metrics.boyd_minima",
           "prspace.metrics.prg", "prspace.metrics.prg_gains", "prspace.metrics.prg_hull",
           "prspace.metrics.headline", "prspace.metrics.sklearn_scorers", "prspace.metrics.labels",
           "prspace.metrics.operating", "prspace.metrics.all_curves")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_print_what_they_say(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} fail (output above)"


def test_every_public_function_has_an_example():
    functions = {n: getattr(M, n) for n in M.__all__ if inspect.isfunction(getattr(M, n))}
    assert len(functions) >= 20
    missing = sorted(n for n, f in functions.items() if ">>> " not in (f.__doc__ or ""))
    assert not missing, f"public functions without a docstring example: {missing}"
    assert {f.__module__ for f in functions.values()} <= set(MODULES)  # every example is run above


def test_a_wrong_example_fails():
    """The check can fail: a docstring whose printed value is wrong is counted as a failure."""

    def planted():
        """
        >>> 1 + 1
        3
        """

    runner = doctest.DocTestRunner(verbose=False)
    for t in doctest.DocTestFinder().find(planted, "planted", globs={}):
        runner.run(t, out=lambda _text: None)
    assert runner.failures == 1

"""The public API is documented as scikit-learn documents its own (issue 79.5): every public function
and class of prspace.metrics, prspace.audit and prspace.display (their ``__all__``), and each public
method and property of those classes, passes numpydoc's own validator (summary, Parameters, Returns,
Raises, See Also, Examples) but for the codes of :data:`IGNORE`; their examples run (doctest); and the
API reference page, ``docs/api.md``, is the one generated from them (``prspace numbers --write
docs/api.md`` regenerates it).

The objects are enumerated from the packages (:func:`prspace.repo.api_reference.public_objects`), not
listed here, so a new public name is checked the day it is exported.
"""

from __future__ import annotations

import doctest
import inspect
import sys
import types
from pathlib import Path

import pytest

numpydoc_validate = pytest.importorskip("numpydoc.validate")

from prspace.repo import api_reference as A  # noqa: E402
from prspace.repo import quoted_numbers as N  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
#: numpydoc codes not required: ES01 extended summary, GL01/GL02 where the text starts and ends
#: after the quotes, SA04 a description for each See Also entry.
IGNORE = frozenset({"ES01", "GL01", "GL02", "SA04"})
#: (public path, defining path, object): numpydoc imports an object from where it is defined
#: (``prspace.metrics.all_curves`` is also a module's name)
OBJECTS = [entry for package in A.PACKAGES for entry in A.public_objects(package)]


def errors(path: str) -> list[str]:
    """numpydoc's errors of the object at ``path`` but the codes of :data:`IGNORE`, one line each."""
    return [f"{code} {message}" for code, message in numpydoc_validate.validate(path)["errors"]
            if code not in IGNORE]


def test_the_api_is_enumerated_from_the_packages():
    paths = [p for p, _, _ in OBJECTS]
    assert len(paths) == len(set(paths)) and len(paths) > 60
    for must in ("prspace.metrics.auprg", "prspace.audit.audit", "prspace.audit.AuditResult",
                 "prspace.display.PrecisionRecallGainDisplay.from_predictions", "prspace.display.RocCurveDisplay.plot"):
        assert must in paths


@pytest.mark.parametrize("path", [pytest.param(w, id=p) for p, w, _ in OBJECTS])
def test_numpydoc_validation(path):
    found = errors(path)
    assert not found, f"{path}:\n  " + "\n  ".join(found)


def _docstring_owner(obj):
    func = obj.__func__ if isinstance(obj, (classmethod, staticmethod)) else obj
    return func.fget if isinstance(func, property) else func


#: each docstring once (an inherited method's is shared by the displays)
EXAMPLES = {id(_docstring_owner(o)): (p, _docstring_owner(o)) for p, _, o in OBJECTS}.values()


@pytest.mark.parametrize("path,obj", [pytest.param(p, o, id=p) for p, o in EXAMPLES])
def test_the_examples_run(path, obj):
    """Each object's own docstring examples print what they say (a class's methods are checked as
    objects of their own)."""
    module = sys.modules[obj.__module__]
    tests = doctest.DocTestFinder(recurse=False).find(obj, path, globs=dict(vars(module)))
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    out: list[str] = []
    for t in tests:
        runner.run(t, out=out.append)
    assert runner.tries > 0, f"{path} has no example"
    assert runner.failures == 0, "".join(out)


def test_a_bad_docstring_fails_validation(monkeypatch):
    """The check can fail: a function documented in prose, as the API was before issue 79, has errors
    (no Parameters, See Also or Examples); one documented in numpydoc has none."""
    planted = types.ModuleType("planted_api")

    def prose(x, *, y=1):
        """Add ``y`` to ``x``: a number, or an array."""
        return x + y

    def numpydoc(x, *, y=1):
        """
        Add ``y`` to ``x``.

        Parameters
        ----------
        x : float
            The first term.
        y : float, default=1
            The second term.

        Returns
        -------
        float
            Their sum.

        See Also
        --------
        prose : The same, documented in prose.

        Examples
        --------
        >>> numpydoc(1, y=2)
        3
        """
        return x + y

    planted.prose, planted.numpydoc = prose, numpydoc
    prose.__module__ = numpydoc.__module__ = "planted_api"
    monkeypatch.setitem(sys.modules, "planted_api", planted)
    # (RT01 too where numpydoc reads the function's source: not in every run, so not asserted)
    assert {e[:4] for e in errors("planted_api.prose")} >= {"PR01", "SA01", "EX01"}
    assert errors("planted_api.numpydoc") == []


def test_the_api_page_is_up_to_date():
    """docs/api.md quotes every package's listing, each as generated now (regenerated in memory)."""
    page = ROOT / "docs" / "api.md"
    text = page.read_text(encoding="utf-8")
    for package in A.PACKAGES:
        assert f"<!-- include: api:{package} -->" in text, f"docs/api.md does not quote api:{package}"
    stale = [m.spec for m in N.check([page], ROOT)]
    assert not stale, f"docs/api.md is out of date ({stale}); regenerate: prspace numbers --write docs/api.md"


def test_the_api_listing_renders_a_docstring():
    """The page's entry of one function: its signature without annotations, its sections as Markdown."""
    from prspace.metrics import auroc

    entry = A.render("prspace.metrics.auroc", auroc)
    assert entry.startswith("### `prspace.metrics.auroc`\n\n```python\nauroc(y_true, y_score, *, ")
    for part in ("**Parameters**", "- `y_true` (*", "**Returns**", "**See Also**", "```pycon\n>>> "):
        assert part in entry, part
    assert inspect.getdoc(auroc).splitlines()[0] in entry

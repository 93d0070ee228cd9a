"""docs/audit.md, section "In a notebook": its python blocks run in order (matplotlib Agg, in a
temporary folder) and do what the text says."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.image import imread  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402

from prspace.audit.audit_result import AuditResult, Headline  # noqa: E402
from prspace.metrics import auprg  # noqa: E402

DOC = Path(__file__).resolve().parents[2] / "docs" / "audit.md"
TITLE = "### In a notebook: arrays, displays and scorers"


def section_code(text: str, title: str = TITLE) -> list[str]:
    """The python blocks of the section headed ``title`` (up to the next heading of its level or above)."""
    start = text.index(title + "\n")
    end = re.search(r"^#{1,3} ", text[start + len(title):], flags=re.M)
    body = text[start: start + len(title) + (end.start() if end else len(text))]
    return re.findall(r"^```python\n(.*?)^```$", body, flags=re.M | re.S)


def test_the_extractor_stops_at_the_next_heading():
    text = "## A\n```python\nx = 0\n```\n### T\n```python\nx = 1\n```\n#### sub\n```python\nx = 2\n```\n### U\n```python\nx = 3\n```\n"
    assert section_code(text, "### T") == ["x = 1\n", "x = 2\n"]


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    blocks = section_code(DOC.read_text(encoding="utf-8"))
    assert len(blocks) == 4
    folder = tmp_path_factory.mktemp("notebook")
    ns: dict = {"__name__": "notebook"}
    old = Path.cwd()
    import os

    os.chdir(folder)
    try:
        for block in blocks:
            exec(compile(block, str(DOC), "exec"), ns)
    finally:
        os.chdir(old)
        matplotlib.pyplot.close("all")
    return ns, folder


def test_the_audit_of_two_fitted_models(ran):
    ns, _ = ran
    result, models, X_test, y_test = ns["result"], ns["models"], ns["X_test"], ns["y_test"]
    assert isinstance(result, AuditResult) and isinstance(result.headline(), Headline)
    pooled = result.pooled.set_index("model")
    assert sorted(pooled.index) == ["forest", "logreg"]
    for name, model in models.items():
        p = model.predict_proba(X_test)[:, 1]
        assert pooled.loc[name, "auroc"] == pytest.approx(roc_auc_score(y_test, p), abs=1e-12)
        assert pooled.loc[name, "auprg"] == pytest.approx(auprg(y_test, p), abs=1e-12)
    assert "Plausible best" in result._repr_html_()


def test_the_displays_drew_one_png_with_three_panels(ran):
    ns, folder = ran
    img = imread(folder / "curves.png")
    assert img.shape[0] == 500 and img.shape[1] == 1500  # figsize (15, 5) at 100 dpi
    axes = ns["axes"]
    assert [len(ax.get_lines()) >= 2 for ax in axes] == [True] * 3
    assert axes[1].collections, "the PR panel shades the unachievable region"
    x = axes[2].get_lines()[-1].get_xdata()
    assert x.min() >= 0.0  # the PRG panel stays in the unit square


def test_the_scorers_ran_in_cross_validate(ran):
    ns, _ = ran
    cv, early = ns["cv"], ns["early"]
    for key in ("test_auprg", "test_aucnpr", "test_aupr", "test_roc_auc"):
        assert len(cv[key]) == 5 and np.all((cv[key] > 0) & (cv[key] <= 1))
    assert np.all(early["test_score"] <= 0.5) and np.all(early["test_score"] > 0)

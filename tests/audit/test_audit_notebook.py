"""The audit's notebook form: audit(y_true, scores={...}) beside the table form, the headline object,
and AuditResult's notebook display (_repr_html_), on predictions made in the test."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from prspace.audit import audit
from prspace.audit.audit_result import Headline
from prspace.audit.inference.audit_ranksets import plausible_best_lines
from prspace.core.errors import InputError


@pytest.fixture(scope="module")
def arrays():
    rng = np.random.default_rng(3)
    n = 400
    y = rng.random(n) < 0.15
    scores = {"strong": y * 1.5 + rng.normal(size=n), "weak": y * 0.4 + rng.normal(size=n),
              "odd <name> & co": y * 0.8 + rng.normal(size=n)}
    return y.astype(int), scores, rng.integers(1, 4, n).astype(float), np.arange(n) % 5


@pytest.fixture(scope="module")
def result(arrays):
    y, scores, _, _ = arrays
    return audit(y, scores=scores, n_boot=200, seed=0)


def test_arrays_give_the_same_audit_as_the_table(arrays, result):
    y, scores, _, _ = arrays
    table = pd.DataFrame({"y_true": y, **scores})
    from_table = audit(table, label_col="y_true", score_cols=list(scores), n_boot=200, seed=0)
    cols = ["model", "auroc", "average_precision", "aupr", "aucnpr", "auprg", "n_pos", "n_neg"]
    pd.testing.assert_frame_equal(result.pooled[cols], from_table.pooled[cols])
    assert list(result.headline()) == list(from_table.headline())
    assert result.columns == ["arrays: y_true (400 rows), scores of 3 model(s) (strong, weak, odd <name> & co); "
                              "every model scored on every row, paired by position",
                              "resampling unit: the row (rows resampled one by one, within class; if several rows "
                              "belong to one patient, subject or site, --group-col resamples them together)"]
    assert result.paired == {"all": True}


def test_weights_and_folds_as_arrays(arrays):
    y, scores, w, folds = arrays
    res = audit(pd.Series(y), scores=pd.DataFrame(scores), sample_weight=w, folds=folds, n_boot=0)
    for model, s in scores.items():
        row = res.pooled[res.pooled["model"] == model].iloc[0]
        assert row["auroc"] == pytest.approx(roc_auc_score(y, s, sample_weight=w), abs=1e-12)
        assert row["n_pos"] == w[y == 1].sum()
    assert sorted(res.folds["fold"].unique()) == [0, 1, 2, 3, 4]
    assert "sample_weight, folds" in res.columns[0]
    text = audit(np.where(y == 1, "yes", "no"), scores=scores, pos_label="yes", n_boot=0)
    assert text.positive == "y_true == 'yes'"
    for model, s in scores.items():
        got = text.pooled.set_index("model").loc[model, "auroc"]
        assert got == pytest.approx(roc_auc_score(y, s), abs=1e-12)


@pytest.mark.parametrize(("call", "message"), [
    (lambda y, s: audit(y, scores={"a": s["strong"][:-1]}), r"scores\['a'\] has 399 values but y_true has 400"),
    (lambda y, s: audit(y, scores=[s["strong"]]), "scores= must map each model's name to its scores"),
    (lambda y, s: audit(y, scores={}), "scores= holds no model"),
    (lambda y, s: audit(y, scores={"a": np.c_[s["strong"], s["weak"]]}), "must be one-dimensional"),
    (lambda y, s: audit(y), "audit\\(\\) takes a pandas DataFrame of scored rows, or y_true with scores="),
    (lambda y, s: audit(y, scores=s, label_col="y"), "label_col= name columns of a table"),
    (lambda y, s: audit(y, scores=s, sample_weight=np.ones(3)), "sample_weight has 3 values but y_true has 400"),
    (lambda y, s: audit(pd.DataFrame({"y": y}), scores=s), "scores= goes with arrays"),
    (lambda y, s: audit(pd.DataFrame({"y": y}), folds=y), "sample_weight= and folds= go with arrays"),
    (lambda y, s: audit(np.r_[y[:-1], 2], scores=s), "3 distinct labels"),
    (lambda y, s: audit(y, scores={"a": np.r_[s["strong"][:-1], np.nan]}), "score"),
])
def test_bad_arrays_are_one_clear_error(arrays, call, message):
    y, scores, _, _ = arrays
    with pytest.raises(InputError, match=message) as err:
        call(y, scores)
    assert "\n" not in str(err.value)


def test_headline_is_a_list_that_prints_as_text(result):
    h = result.headline()
    assert isinstance(h, Headline) and isinstance(h, list) and len(h) >= 1
    assert h[0] == list(h)[0] and (h + ["x"])[-1] == "x"  # used as the old list
    assert str(h) == "\n".join(h) and "[" not in str(h)[:1]
    assert h._repr_html_() == "<ul>" + "".join(f"<li>{html.escape(s)}</li>" for s in h) + "</ul>"


def test_repr_html_is_valid_html_with_headline_metrics_and_plausible_best(result):
    page = result._repr_html_()
    root = ET.fromstring(page)  # well-formed: every tag closed, every text escaped
    text = " ".join(root.itertext())
    for line in result.headline():
        assert line in text
    (table,) = root.iter("table")
    head = [th.text.strip() for th in table.iter("th")]
    assert head == ["model", "AUROC", "AP", "AUPR", "AUPR_MIN", "AUCNPR", "AUPRG"]
    rows = [[td.text.strip() for td in tr.iter("td")] for tr in table.find("tbody").iter("tr")]
    assert [r[0] for r in rows] == sorted(["strong", "weak", "odd <name> & co"])
    strong = next(r for r in rows if r[0] == "strong")
    auroc = result.pooled.set_index("model").loc["strong", "auroc"]
    assert strong[1].startswith(f"{auroc:.3f} [")  # the value with its calibrated interval
    best = plausible_best_lines(result.rank_sets, "all")
    assert best and all(b in text for b in best)
    assert "Plausible best" in text and "pooled metrics" in text
    # compact, unlike the report (to_html) or the dataclass dump: the text beside the one embedded figure (issue 59)
    assert page.count("data:image/png;base64,") == 1
    assert len(re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", page)) < 6000
    assert repr(result).startswith("<AuditResult: 1200 rows, 3 model(s), 1 task(s)") and len(repr(result)) < 1000

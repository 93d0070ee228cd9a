"""Issue 32, points 1, 2 and 5: every column accounted for, wide files, models that lack a few rows.

Each case as the user met it, on real out-of-fold predictions (scikit-learn's breast-cancer data,
pi 0.37, and a second data set of pi 0.03, five models, stratified 5-fold CV).  Oracles:
scikit-learn's ``roc_auc_score`` and ``average_precision_score`` on the rows themselves, scipy's
chi-square test, scikit-learn's splitters.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import average_precision_score, roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from prspace.audit import audit
from prspace.audit.intake import columns
from prspace.cli import main
from prspace.core.errors import InputError

REPO = Path(__file__).resolve().parents[2]

MODELS = {
    "logreg": lambda: make_pipeline(StandardScaler(), LogisticRegression(max_iter=500)),
    "rf": lambda: RandomForestClassifier(n_estimators=20, random_state=0),
    "tree": lambda: DecisionTreeClassifier(max_depth=3, random_state=0),
    "knn": lambda: make_pipeline(StandardScaler(), KNeighborsClassifier(15)),
    "gnb": GaussianNB,
}


def _scores(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    fold = np.empty(len(y), int)
    for k, (_, test) in enumerate(cv.split(X, y)):
        fold[test] = k
    return fold, {m: cross_val_predict(make(), X, y, cv=cv, method="predict_proba")[:, 1] for m, make in MODELS.items()}


@pytest.fixture(scope="module")
def predictions() -> dict[str, tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]]:
    X1, y1 = load_breast_cancer(return_X_y=True)
    X2, y2 = make_classification(n_samples=600, n_features=10, weights=[0.967], flip_y=0, random_state=0)
    return {"breast_cancer": (1 - y1, *_scores(X1, 1 - y1)), "rare": (y2, *_scores(X2, y2))}


@pytest.fixture(scope="module")
def long(predictions) -> pd.DataFrame:
    """The user's file: ``dataset,row,fold,model,y_true,y_score``, 5 models on two data sets."""
    parts = [pd.DataFrame({"dataset": name, "row": np.arange(len(y)), "fold": fold, "model": m, "y_true": y,
                           "y_score": s})
             for name, (y, fold, scores) in predictions.items() for m, s in scores.items()]
    return pd.concat(parts, ignore_index=True)


def cli(tmp_path: Path, capsys, df: pd.DataFrame, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "preds.csv"
    df.to_csv(path, index=False)
    rc = main(["audit", str(path), "--bootstrap", "0", *args])
    out, err = capsys.readouterr()
    return rc, out, err


def one_line_error(rc: int, out: str, err: str) -> str:
    assert rc == 2 and out == "", out[:300]
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("prspace audit: error: ") and "Traceback" not in err, err
    return lines[0]


# --------------------------------------------------------------------------- point 1


def test_the_dataset_and_row_columns_are_used_and_every_column_is_named(tmp_path, capsys, long, predictions):
    rc, out, err = cli(tmp_path, capsys, long)
    assert rc == 0, err
    head = " ".join(out.split("Headline:")[0].split())
    assert "2 tasks" in head
    assert "columns: task 'dataset', model 'model', label 'y_true', score 'y_score', fold 'fold', row id 'row'" in head
    res = audit(long, n_boot=0)
    pooled = res.pooled.set_index(["task", "model"])
    for name, (y, _, scores) in predictions.items():
        assert pooled.loc[(name, "logreg"), "pi"] == pytest.approx(y.mean(), abs=1e-15)
        for m, s in scores.items():
            assert pooled.loc[(name, m), "auroc"] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
            assert pooled.loc[(name, m), "average_precision"] == pytest.approx(average_precision_score(y, s), abs=1e-12)
    assert res.paired == {"breast_cancer": True, "rare": True}


def test_a_grouping_column_with_another_name_is_an_error_naming_the_option(tmp_path, capsys, long):
    corpus = long.rename(columns={"dataset": "corpus"})
    line = one_line_error(*cli(tmp_path, capsys, corpus))
    assert "column 'corpus' looks like a task column" in line and "--task-col corpus" in line
    assert "--ignore-col corpus" in line
    assert line.split(": ", 3)[3] in " ".join((REPO / "docs" / "audit.md").read_text().split())
    # without row ids the rows cannot repeat visibly, but the positive rates differ (0.37 vs 0.03)
    line = one_line_error(*cli(tmp_path, capsys, corpus.drop(columns="row")))
    assert "column 'corpus' looks like a task column: the rate of the rarer label differs" in line
    assert "--task-col corpus" in line
    rc, out, err = cli(tmp_path, capsys, corpus, "--task-col", "corpus")
    assert rc == 0 and "2 tasks" in out, err
    # --ignore-col accepts it as unused: the rows then repeat, which is an error of its own
    line = one_line_error(*cli(tmp_path, capsys, corpus, "--ignore-col", "corpus"))
    assert "repeat an earlier" in line and "looks like" not in line


def test_weight_and_row_names_are_taken_and_look_alikes_must_be_named(tmp_path, capsys, long):
    one = long[long["dataset"] == "breast_cancer"].drop(columns="dataset")
    w = np.where(one["row"] % 4 == 0, 2.0, 1.0)
    for name in ("weight", "sample_weight"):
        res = audit(one.assign(**{name: w}), n_boot=0)
        n_pos = float(w[(one["model"] == "logreg").to_numpy() & (one["y_true"] == 1).to_numpy()].sum())
        assert res.pooled["n_pos"].iloc[0] == pytest.approx(n_pos)
        assert f"sample weight '{name}'" in res.columns[0]
    line = one_line_error(*cli(tmp_path, capsys, one.rename(columns={"row": "id"})))
    assert "column 'id' is named like a row id column: pass --row-col id" in line
    line = one_line_error(*cli(tmp_path, capsys, one.assign(weights=w)))
    assert "'weights' is named like a sample weight column: pass --weight-col weights" in line
    rc, out, err = cli(tmp_path, capsys, one.assign(weights=w), "--ignore-col", "weights")
    assert rc == 0 and "not used: 'weights' (--ignore-col)" in " ".join(out.split()), err
    # a fold-like column (integers 0..9 in equal parts) without a fold column
    tenfold = one.drop(columns="fold").assign(cv_split=(one["row"] % 10).to_numpy())
    line = one_line_error(*cli(tmp_path, capsys, tenfold))
    assert "column 'cv_split' looks like a fold column" in line and "--fold-col cv_split" in line
    # columns that look like no role are listed as not used, and the audit runs
    notes = one.assign(notes="checked", y_pred=(one["y_score"] > 0.5).astype(int))
    rc, out, err = cli(tmp_path, capsys, notes)
    assert rc == 0, err
    assert "not used: 'notes', 'y_pred'" in " ".join(out.split())


def test_the_prevalence_check_is_calibrated():
    """False rate under the null: a grouping unrelated to the label (random folds of 10, random halves)
    fires in none of 2,000 draws at p < 1e-6 (expected 0.002); power: the issue's two data sets, subsampled
    to 150 + 150 rows, fire in every one of 200 draws."""
    rng = np.random.default_rng(0)
    fired = 0
    for i in range(2000):
        n = int(rng.integers(100, 2000))
        y = rng.random(n) < rng.uniform(0.03, 0.5)
        group = rng.integers(0, 10 if i % 2 else 2, n)
        fired += columns._prevalence_p(pd.Series(group), pd.Series(y)) < columns.PREVALENCE_P
    assert fired == 0
    y1 = np.r_[np.ones(212), np.zeros(357)]
    y2 = np.r_[np.ones(19), np.zeros(581)]
    hits = 0
    for _ in range(200):
        a, b = rng.choice(y1, 150, replace=False), rng.choice(y2, 150, replace=False)
        hits += columns._prevalence_p(pd.Series(np.repeat(["x", "y"], 150)), pd.Series(np.r_[a, b])) < \
            columns.PREVALENCE_P
    assert hits == 200


def test_an_equivalent_alias_is_accounted_for_and_a_conflicting_one_is_not(long):
    aliased = long.assign(task_id=long["dataset"].map({"breast_cancer": 1, "rare": 2}))
    res = audit(aliased, n_boot=0)
    assert "task 'task_id'" in res.columns[0]
    assert "'dataset' (same values as the task column)" in res.columns[1]
    with pytest.raises(InputError, match="'dataset' is named like a task column but 'task_id' is used"):
        audit(long.assign(task_id=1), n_boot=0)


# --------------------------------------------------------------------------- point 2


def test_a_wide_file_is_recognised_and_read_with_score_cols(tmp_path, capsys, predictions):
    y, _, scores = predictions["breast_cancer"]
    wide = pd.DataFrame({"y_true": y, **scores})
    line = one_line_error(*cli(tmp_path, capsys, wide))
    assert "--score-cols logreg,rf,tree,knn,gnb" in line and "one score column per model" in line
    three = one_line_error(*cli(tmp_path, capsys, wide[["y_true", "logreg", "rf", "tree"]].rename(
        columns={"tree": "hgb"})))
    assert three.split(": ", 3)[3] in " ".join((REPO / "docs" / "audit.md").read_text().split())  # as the docs show
    for option in ("logreg,rf,tree,knn,gnb", "all"):
        rc, out, err = cli(tmp_path, capsys, wide, "--score-cols", option)
        assert rc == 0, err
        assert "5 models" in out and "row id (the line of the file)" in " ".join(out.split())
    res = audit(wide, score_cols="all", n_boot=0)
    pooled = res.pooled.set_index("model")
    for m, s in scores.items():
        assert pooled.loc[m, "auroc"] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
        assert pooled.loc[m, "average_precision"] == pytest.approx(average_precision_score(y, s), abs=1e-12)
    # without a bootstrap: AUROC by DeLong, every metric by the procedure that decides it (issue 59: one answer)
    assert res.paired == {"all": True} and len(res.comparisons) == 50
    # an empty cell: that model did not score that row; the others are paired on the rows all scored
    holes = wide.astype({"rf": float})
    holes.loc[[3, 50], "rf"] = np.nan
    res = audit(holes, score_cols=["logreg", "rf"], n_boot=0)
    assert res.pooled.set_index("model").loc["logreg", "n_rows"] == len(y) - 2
    assert {f.code for f in res.findings} >= {"rows-dropped"}
    with pytest.raises(InputError, match="--score-cols: no column 'svm'"):
        audit(wide, score_cols="logreg,svm")


# --------------------------------------------------------------------------- point 5


def test_three_missing_rows_pair_the_566_shared_rows(tmp_path, capsys, long, predictions):
    one = long[long["dataset"] == "breast_cancer"]
    lacking = one[~((one["model"] == "rf") & one["row"].isin([12, 40, 77]))]
    res = audit(lacking, n_boot=200)
    found = {f.code: f for f in res.findings}
    assert "different-test-rows" not in found and not res.headline()[0].startswith("NOT COMPARABLE")
    msg = found["rows-dropped"].message
    assert "rf lacks 3 (row id(s) 12, 40, 77)" in msg and "566 rows every model scored" in msg
    assert "3 of logreg's 569" in msg
    assert res.paired == {"breast_cancer": True} and len(res.comparisons) == 10 * 5 and len(res.pairwise)
    y, _, scores = predictions["breast_cancer"]
    keep = ~np.isin(np.arange(len(y)), [12, 40, 77])
    for m, s in scores.items():
        assert res.pooled.set_index("model").loc[m, "auroc"] == pytest.approx(roc_auc_score(y[keep], s[keep]), abs=1e-12)
    rc, out, err = cli(tmp_path, capsys, lacking)
    assert rc == 0 and "paired on the 566 rows every model scored" in " ".join(out.split()), err
    # without a bootstrap the lead is decided by the procedure the body prints (issue 59: one answer)
    text = " ".join(out.split())
    assert "its AUPR lead over" in text and "not tested" not in text


def test_models_on_different_test_rows_stay_not_comparable(long):
    one = long[long["dataset"] == "breast_cancer"]
    halves = one[(one["model"] == "logreg") == (one["row"] % 2 == 0)]  # logreg on even rows, the others on odd
    res = audit(halves, n_boot=0)
    assert "different-test-rows" in {f.code for f in res.findings} and not res.dropped
    assert res.headline()[0].startswith("NOT COMPARABLE")

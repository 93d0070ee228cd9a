"""Generate ``examples/audit-example.csv``: real cross-validated predictions for ``prspace audit``.

Source: scikit-learn's bundled Wisconsin diagnostic breast-cancer dataset
(``sklearn.datasets.load_breast_cancer``; 569 tumours, 212 malignant, 357 benign).
Nothing here is synthetic: the rows are real tumours and the scores are real
out-of-fold predictions of real scikit-learn models.

What this script does to the data, and why:

* **Makes the positive class rare.**  All 270 benign tumours of a random draw are
  kept but only 30 malignant ones (pi = 0.10 instead of 0.37), so that the
  precision-recall metrics differ visibly from AUROC.
* **Gives the models four of the 30 features** (mean texture, smoothness,
  compactness and symmetry).  On all 30 features every model is nearly perfect
  (logistic regression reaches AUROC 1.0), which leaves nothing to audit.
* **Uses unstratified 5-fold cross-validation** (``KFold(shuffle=True)``), so the
  folds end up with different skews.  This is deliberate: it is the situation
  Boyd et al. (2012, section 4.1) warn about, and the audit should say so.
* **Includes one weak model on purpose**: logistic regression on the single
  feature ``mean fractal dimension``, which carries almost no information about
  malignancy.  It shows what the audit says about a model near the
  always-positive baseline of Flach & Kull (2015).

Output columns: ``row_id`` (row of the original dataset), ``fold``, ``model``,
``diagnosis`` (``malignant`` / ``benign``; audit it with ``--pos-label
malignant``), ``score`` (the model's out-of-fold score for malignant; higher = more
likely malignant).

Run from the repository root::

    python examples/make_audit_example.py            # writes examples/audit-example.csv
    prspace audit examples/audit-example.csv --label-col diagnosis --pos-label malignant
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

SEED = 0
N_MALIGNANT = 30
N_BENIGN = 270
N_FOLDS = 5
WEAK_FEATURE = "mean fractal dimension"
FEATURES = ["mean texture", "mean smoothness", "mean compactness", "mean symmetry"]


def models(feature_names: list[str]) -> dict[str, object]:
    """The model panel: name -> unfitted estimator (scores come from ``predict_proba``)."""

    def columns(names: list[str]) -> ColumnTransformer:
        index = [feature_names.index(name) for name in names]
        return ColumnTransformer([("select", "passthrough", index)])

    return {
        "logistic_regression": make_pipeline(
            columns(FEATURES), StandardScaler(), LogisticRegression(max_iter=1000)
        ),
        "random_forest": make_pipeline(
            columns(FEATURES), RandomForestClassifier(n_estimators=200, random_state=SEED)
        ),
        "gaussian_nb": make_pipeline(columns(FEATURES), GaussianNB()),
        "knn_15": make_pipeline(
            columns(FEATURES), StandardScaler(), KNeighborsClassifier(n_neighbors=15)
        ),
        "logreg_fractal_dim_only": make_pipeline(
            columns([WEAK_FEATURE]), StandardScaler(), LogisticRegression(max_iter=1000)
        ),
    }


def make_example(seed: int = SEED) -> pd.DataFrame:
    """Return the example predictions (long format, one row per model x tumour)."""
    data = load_breast_cancer()
    names = list(data.target_names)  # ['malignant', 'benign']
    malignant = np.flatnonzero(data.target == names.index("malignant"))
    benign = np.flatnonzero(data.target == names.index("benign"))
    rng = np.random.default_rng(seed)
    rows = np.sort(
        np.concatenate(
            [
                rng.choice(malignant, N_MALIGNANT, replace=False),
                rng.choice(benign, N_BENIGN, replace=False),
            ]
        )
    )
    X = data.data[rows]
    y = (data.target[rows] == names.index("malignant")).astype(int)  # 1 = malignant

    cv = KFold(n_splits=N_FOLDS, shuffle=True, random_state=seed)
    fold = np.empty(len(rows), dtype=int)
    for k, (_, test) in enumerate(cv.split(X)):
        fold[test] = k
    for k in range(N_FOLDS):
        if not 0 < y[fold == k].sum() < (fold == k).sum():
            raise RuntimeError(f"fold {k} has one class; choose another seed")

    frames = []
    for name, model in models(list(data.feature_names)).items():
        proba = cross_val_predict(model, X, y, cv=cv, method="predict_proba")
        frames.append(
            pd.DataFrame(
                {
                    "row_id": rows,
                    "fold": fold,
                    "model": name,
                    "diagnosis": np.where(y == 1, "malignant", "benign"),
                    "score": np.round(proba[:, 1], 6),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", default=str(Path(__file__).with_name("audit-example.csv")), help="output CSV"
    )
    args = parser.parse_args()
    df = make_example()
    df.to_csv(args.out, index=False)
    print(
        f"wrote {args.out}: {len(df)} rows ({df['model'].nunique()} models x {len(df) // df['model'].nunique()} tumours)"
    )


if __name__ == "__main__":
    main()

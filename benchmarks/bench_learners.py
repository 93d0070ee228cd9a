"""Benchmark: CPU seconds of every learner of two panels on a sample of a suite, side by side.

Cross-validates each learner of ``--panels`` (default: the ``default`` panel and the
first panel, ``first``) on ``--datasets`` (default: eight datasets of the default suite
spread over its sizes, 106 to 4,174 rows), single-threaded, in one process, and prints
the CPU seconds of every learner, each panel's total, and the ratio of the totals (the
factor by which the panel changes the default study's predict jobs).

    nice python benchmarks/bench_learners.py --folds 10 --out /tmp/bench_learners.csv
"""

from __future__ import annotations

import argparse
import warnings

import pandas as pd

from prspace.data.datasets import load_dataset
from prspace.local.crossval import predict_dataset
from prspace.local.learners import PANELS

#: the first panel (before issue 11), by name; its learners now carry the converged
#: solver settings of issue 14, so this compares the panels as they run today
FIRST_PANEL = (
    "logreg-C0.01", "logreg-C0.1", "logreg-C1", "logreg-C100", "logreg-l1-C0.1",
    "linsvm-C0.01", "linsvm-C1", "ridge-a1", "ridge-a100", "sgd-hinge", "sgd-modhuber",
    "gnb", "bnb", "lda-shrinkage", "qda-shrink0.5", "knn-5", "knn-15", "knn-45-distance",
    "nearest-centroid", "tree-depth2", "tree-depth5", "tree-leaf5", "rf-50",
    "extratrees-50", "bagging-tree-20", "adaboost-50", "gboost-50", "histgb-50",
    "svm-rbf-C1", "mlp-16",
)
PANELS = {**PANELS, "first": FIRST_PANEL}

SAMPLE = (
    "keel-glass1", "keel-ionosphere", "keel-pima", "keel-vowel0",
    "keel-kddcup-land_vs_portsweep", "keel-yeast1", "keel-segment0", "keel-abalone19",
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default=",".join(SAMPLE))
    ap.add_argument("--panels", default="default,first")
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--out", default=None, help="CSV of CPU seconds per learner and dataset")
    args = ap.parse_args()
    panels = args.panels.split(",")
    names = list(dict.fromkeys(n for p in panels for n in PANELS[p]))
    rows = []
    for task in args.datasets.split(","):
        ds = load_dataset(task)
        cpu: dict[str, float] = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, _, failures = predict_dataset(ds, names, n_folds=args.folds, cpu_timings=cpu)
        for f in failures:
            print(f"{task}: {f.learner} failed: {f.error}")
        rows += [{"task_id": task, "n": ds.n, "learner": k, "cpu_s": v} for k, v in cpu.items()]
        print(f"{task} (n={ds.n}): {sum(cpu.values()):.1f} CPU s", flush=True)
    df = pd.DataFrame(rows)
    if args.out:
        df.to_csv(args.out, index=False)
    per = df.groupby("learner")["cpu_s"].sum().sort_values(ascending=False)
    totals = {}
    for p in panels:
        totals[p] = per.reindex(list(PANELS[p])).sum()
        print(f"\npanel {p}: {totals[p]:.1f} CPU s on {df.task_id.nunique()} datasets")
        print(per.reindex(list(PANELS[p])).sort_values(ascending=False).round(2).to_string())
    if len(panels) == 2:
        a, b = panels
        print(f"\nratio {a} / {b}: {totals[a] / totals[b]:.3f}")


if __name__ == "__main__":
    main()

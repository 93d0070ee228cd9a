"""Calibration of the audit's grouped resampling (``--group-col``) by simulation: coverage of model a's
95% intervals and the false rate of the paired tests under a null (two models with equal metrics), with
groups resampled whole (``unit = group``) and, on the same samples, with rows resampled one by one
(``unit = row``, the audit without ``--group-col``; DeLong too).  The world:
:mod:`prspace.audit.group_sim` (random intercepts per group, 3 to 10 rows per group).

    nice -n 10 python benchmarks/calib_groups.py --sims 250 --boot 250 --icc 0.5,0.3

and it writes the audit's rule table ``src/prspace/audit/group_coverage_table.csv`` (the grouped methods'
worst coverage and false rate over the ICCs per number of groups: :func:`prspace.audit.grouping.shown`).

Summarised in docs/calibration.md, "Grouped rows".
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import pandas as pd

from prspace.audit.group_sim import World, one_run, truth
from prspace.audit.grouping import write_table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=300)
    ap.add_argument("--boot", type=int, default=300)
    ap.add_argument("--groups", default="30,100,300")
    ap.add_argument("--icc", default="0.3,0.5")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--out", default="benchmarks/group_coverage.csv")
    ap.add_argument("--write-rule", action="store_true",
                    help="only (re)write src/prspace/audit/group_coverage_table.csv from --out")
    a = ap.parse_args()
    if a.write_rule:
        print(write_table(pd.read_csv(a.out), a.seed))
        return
    rows = []
    for icc in (float(x) for x in a.icc.split(",")):
        world = World(icc=icc)
        true = truth(world, np.random.default_rng([a.seed, 0]))
        for n_groups in (int(x) for x in a.groups.split(",")):
            rng = np.random.default_rng([a.seed, n_groups, int(icc * 100)])
            t0 = time.perf_counter()
            runs = pd.DataFrame([r for _ in range(a.sims) for r in one_run(world, n_groups, true, rng, n_boot=a.boot)])
            agg = runs.groupby(["unit", "metric", "method"], sort=False).agg(
                coverage=("covers", "mean"), false_rate=("rejects", "mean")).reset_index()
            agg.insert(0, "icc", icc)
            agg.insert(0, "n_groups", n_groups)
            agg["sims"] = a.sims
            agg["mc_se_coverage"] = np.sqrt(0.95 * 0.05 / a.sims)
            rows.append(agg)
            print(f"icc {icc} groups {n_groups}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
            pd.concat(rows).to_csv(a.out, index=False, float_format="%.4f")
    out = pd.concat(rows)
    write_table(out, a.seed)
    print(out[out["metric"].isin(["auroc", "average_precision"])].to_string(index=False))


if __name__ == "__main__":
    main()

"""Calibrate the audit's intervals and all-pairs procedures across skew (:mod:`prspace.audit.simulate`).

    PYTHONPATH=src python benchmarks/calib_audit.py --n 300 1000 --reps 250 --out benchmarks/audit_calibration.csv

One row per cell (pi, n, truth), statistic (coverage, fwer, power, simultaneous), metric and method,
with its Monte Carlo standard error; ``--merge`` joins per-n files into one and prints the table
the decision rule reads (:mod:`prspace.audit.calibration_table`, written with ``--write-rule``).
"""

from __future__ import annotations

import argparse
import time

import pandas as pd

PIS = (0.5, 0.1, 0.03, 0.01)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, nargs="+", default=[300, 1000])
    ap.add_argument("--pi", type=float, nargs="+", default=list(PIS))
    ap.add_argument("--reps", type=int, default=250)
    ap.add_argument("--n-boot", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default="benchmarks/audit_calibration.csv")
    ap.add_argument("--merge", nargs="*", default=None, help="per-n CSVs to join into --out")
    ap.add_argument("--write-rule", action="store_true", help="write src/prspace/audit/calibrated.py from --out")
    a = ap.parse_args()
    if a.merge:
        pd.concat([pd.read_csv(f, keep_default_na=False, na_values=[""]) for f in a.merge]).to_csv(a.out, index=False)
    elif not a.write_rule:
        from prspace.audit.simulate import calibrate

        parts = []
        for n in a.n:
            for pi in a.pi:
                for alt in (False, True):
                    t0 = time.perf_counter()
                    parts.append(calibrate(pi, n, a.reps, alternative=alt, seed=a.seed, n_boot=a.n_boot))
                    print(f"n={n} pi={pi} alt={alt}: {time.perf_counter() - t0:.0f} s", flush=True)
                    pd.concat(parts).to_csv(a.out, index=False)
    if a.write_rule:
        from prspace.audit.decision import write_table

        print(write_table(pd.read_csv(a.out, keep_default_na=False, na_values=[""]), a.seed))


if __name__ == "__main__":
    main()

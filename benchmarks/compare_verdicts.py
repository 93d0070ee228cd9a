"""What one setting buys: the verdicts of two runs of a study compared, claim by claim (issue 60).

Issue 60 asks that repeat and resample counts be set by what they change, not by habit.  This script
takes the ``results/<study>`` folders of two runs of the same study that differ in one setting (the
first at one value, the second run in the same checkout with ``snakemake --config`` giving the other,
so that only the jobs the setting feeds run again) and writes one row per claim of every study given:
the two verdicts, whether the verdict changed, how far each interval end moved, and the Monte Carlo
error of the ends in each run; and one row per study (``claim_id`` ``(all)``) with the number of
claims whose verdict changed, the largest move of an interval end and the largest MC error of each
run.  ``docs/boyd.md`` reads those summary rows through value blocks (``prspace numbers``).

How ``benchmarks/boyd_repeats.csv`` was made (2026-11-28, main at 96ddf23, Boyd's downsampling at
3 repeats): ``make run`` in a fresh clone, its ``results/`` copied aside, then in that clone::

    snakemake --cores 2 --config 'boyd={"downsampling":{"repeats":1}}'
    snakemake --cores 2 --configfile config/paperlike.yaml --config 'boyd={"downsampling":{"repeats":1}}'
    python benchmarks/compare_verdicts.py --setting boyd.downsampling.repeats --values 3 1 \\
        --study default BEFORE/default results/default --study paperlike BEFORE/paperlike results/paperlike \\
        --out benchmarks/boyd_repeats.csv
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

#: the columns compared, each written for both runs (suffixes _before, _after)
KEEP = ("verdict", "ci_lo", "ci_hi", "mc_error")


def compare(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """One row per claim of ``before`` (a verdicts table) with its row of ``after``: both verdicts,
    ``changed``, ``end_move`` (the larger move of the two interval ends; NaN where a run has none)."""
    missing = sorted(set(before["claim_id"]) ^ set(after["claim_id"]))
    if missing:
        raise SystemExit(f"the two verdicts tables hold different claims ({', '.join(missing[:5])}); "
                         "compare two runs of the same study")
    b = before.set_index("claim_id")
    a = after.set_index("claim_id").loc[b.index]
    out = pd.DataFrame({"claim_id": b.index, "role": b["role"].to_numpy()})
    for col in KEEP:
        out[f"{col}_before"] = b[col].to_numpy()
        out[f"{col}_after"] = a[col].to_numpy()
    out["changed"] = out["verdict_before"] != out["verdict_after"]
    with np.errstate(invalid="ignore"):
        moves = np.abs(np.column_stack([a["ci_lo"].to_numpy() - b["ci_lo"].to_numpy(),
                                        a["ci_hi"].to_numpy() - b["ci_hi"].to_numpy()]))
    finite = np.where(np.isfinite(moves), moves, -np.inf).max(axis=1)
    out["end_move"] = np.where(np.isfinite(finite), finite, np.nan)
    return out


def summary(rows: pd.DataFrame) -> dict:
    """The study's row ``(all)``: claims compared, verdicts changed, the largest end move and MC errors."""
    return {"claim_id": "(all)", "role": "", "n_claims": len(rows), "n_changed": int(rows["changed"].sum()),
            "end_move": float(rows["end_move"].max()), "mc_error_before": float(rows["mc_error_before"].max()),
            "mc_error_after": float(rows["mc_error_after"].max())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--setting", required=True, help="the configuration key the two runs differ in")
    ap.add_argument("--values", nargs=2, required=True, metavar=("BEFORE", "AFTER"), help="its two values")
    ap.add_argument("--study", nargs=3, action="append", required=True, metavar=("NAME", "BEFORE_DIR", "AFTER_DIR"),
                    help="a study and its two results/<study> folders (repeatable)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    frames = []
    for name, before_dir, after_dir in args.study:
        tables = [Path(d) / "tables" / "verdicts.csv" for d in (before_dir, after_dir)]
        for t in tables:
            if not t.is_file():
                raise SystemExit(f"{t} does not exist; give the results/<study> folder of a finished run")
        rows = compare(*(pd.read_csv(t) for t in tables))
        rows = pd.concat([pd.DataFrame([summary(rows)]), rows], ignore_index=True)
        rows.insert(0, "study", name)
        frames.append(rows)
        s = rows.iloc[0]
        print(f"{name}: {int(s['n_changed'])} of {int(s['n_claims'])} verdicts changed; interval ends moved at most "
              f"{s['end_move']:.4f}; largest MC error {s['mc_error_before']:.4f} -> {s['mc_error_after']:.4f}")
    out = pd.concat(frames, ignore_index=True)
    out.insert(0, "setting", args.setting)
    out.insert(1, "value_before", args.values[0])
    out.insert(2, "value_after", args.values[1])
    cols = ["setting", "value_before", "value_after", "study", "claim_id", "role", "n_claims", "n_changed", "changed",
            *(f"{c}_{w}" for c in KEEP for w in ("before", "after")), "end_move"]
    out[cols].to_csv(args.out, index=False, float_format="%.6g")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

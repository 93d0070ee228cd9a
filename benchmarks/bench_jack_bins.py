"""What binning the scores costs the jackknife-t intervals (issue 59): exact against binned, side by side.

For each ``--rows`` size it makes untied scores as ``predict_proba`` gives them (three models, pi ``--pi``,
``np.random.default_rng(seed)``), computes every model's jackknife-t interval of every metric
(:func:`prspace.stats.intervals.jackknife_interval`, the class-stratified jackknife of the audit) once from
the exact tie groups and once from the binned ones (:func:`prspace.stats.binned.binned_block`, ``--bins``),
with the same left-out groups, and prints per metric the largest move of an end as a share of the exact
interval's half-width (the audit allows binning where it is below 0.1), and the seconds of each.  Also the
jackknife-Holm paired test's simultaneous ends, as a share of their half-width.

    python benchmarks/bench_jack_bins.py [--rows 20000 200000 1000000] [--bins 2048] [--seeds 0 1 2]

Writes ``benchmarks/jack_bins.csv``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from prspace.metrics.names import REPORTED_METRICS
from prspace.stats.binned import JACK_BINS, binned_block
from prspace.stats.intervals import jackknife_interval
from prspace.stats.pairwise import jackknife_pairs
from prspace.stats.replicates import Block, jackknife, point_metrics


def make_block(rows: int, pi: float, seed: int, tied: bool = False) -> Block:
    rng = np.random.default_rng(seed)
    y = (rng.random(rows) < pi).astype(np.int8)
    scores = []
    for k in range(3):
        s = 1 / (1 + np.exp(-(y * (1.0 + 0.3 * k) + rng.normal(size=rows) - 3)))
        scores.append(np.round(s, 3) if tied else s)
    groups = [np.unique(-s, return_inverse=True)[1].ravel() for s in scores]
    return Block("t", ["m0", "m1", "m2"], y, y.astype(np.int64), np.ones(rows), groups, scores)


def compare(block: Block, bins: int, seed: int) -> list[dict]:
    points = point_metrics(block)
    t = time.perf_counter()
    exact, strata = jackknife(block, rng=np.random.default_rng(seed))
    t_exact = time.perf_counter() - t
    t = time.perf_counter()
    binned, strata2 = jackknife(binned_block(block, bins), rng=np.random.default_rng(seed))
    t_binned = time.perf_counter() - t
    assert (strata == strata2).all()
    lo, hi = jackknife_interval(points, exact, strata, 0.95)
    lo2, hi2 = jackknife_interval(points, binned, strata, 0.95)
    half = (hi - lo) / 2
    move = np.fmax(np.abs(lo2 - lo), np.abs(hi2 - hi)) / half
    rows = []
    for i, m in enumerate(REPORTED_METRICS):
        e = jackknife_pairs(points[:, i], exact[:, :, i], strata)
        b = jackknife_pairs(points[:, i], binned[:, :, i], strata)
        pair_half = (e.hi - e.lo) / 2
        pair_move = np.fmax(np.abs(b.lo - e.lo), np.abs(b.hi - e.hi)) / pair_half
        rows.append({"rows": block.y.size, "seed": seed, "bins": bins, "metric": m,
                     "max_end_move_over_half_width": float(np.max(move[:, i])),
                     "max_pair_end_move_over_half_width": float(np.max(pair_move)),
                     "seconds_exact": round(t_exact, 3), "seconds_binned": round(t_binned, 3)})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, nargs="+", default=[2e4, 2e5, 1e6])
    ap.add_argument("--bins", type=int, default=JACK_BINS)
    ap.add_argument("--pi", type=float, default=0.05)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--csv", default=str(Path(__file__).with_name("jack_bins.csv")))
    args = ap.parse_args()
    out = []
    for n in (int(r) for r in args.rows):
        for seed in args.seeds:
            rows = compare(make_block(n, args.pi, seed), args.bins, seed)
            out += rows
            worst = max(rows, key=lambda r: r["max_end_move_over_half_width"])
            print(f"{n:>9,} seed {seed}: largest end move {worst['max_end_move_over_half_width']:.4f} of the "
                  f"half-width ({worst['metric']}); paired {max(r['max_pair_end_move_over_half_width'] for r in rows):.4f}; "
                  f"jackknife {rows[0]['seconds_exact']:.2f} s exact, {rows[0]['seconds_binned']:.2f} s binned",
                  flush=True)
    pd.DataFrame(out).to_csv(args.csv, index=False)
    print(f"wrote {args.csv}")


if __name__ == "__main__":
    main()

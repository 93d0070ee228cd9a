"""What binning the scores costs the jackknife-t and bootstrap intervals (issue 59): exact against binned, side by side.

The curve bands are measured too (binned, then shifted to the exact curve, as the bootstrap's replicates are): the
audit does NOT bin them, because there the ends moved by up to 0.11 of the half-width at 2,048 bins (0.08 at 8,192),
above or too near the allowance of a tenth.

For each ``--rows`` size it makes untied scores as ``predict_proba`` gives them (three models, pi ``--pi``,
``np.random.default_rng(seed)``), computes every model's jackknife-t interval of every metric
(:func:`prspace.stats.intervals.jackknife_interval`, the class-stratified jackknife of the audit) once from
the exact tie groups and once from the binned ones (:func:`prspace.stats.binned.binned_block`, ``--bins``),
with the same left-out groups, and prints per metric the largest move of an end as a share of the exact
interval's half-width (the audit allows binning where it is below 0.1), and the seconds of each.  Also the
jackknife-Holm paired test's simultaneous ends, as a share of their half-width, and (``--boot B``, default 200) the
within-class bootstrap's percentile intervals and paired percentile intervals of the differences: the same draws on
exact and binned scores, the binned replicates shifted by the exact point minus the binned one, as the audit does
(:func:`prspace.audit.inference.uncertainty._binned_bootstrap`).

    python benchmarks/bench_jack_bins.py [--rows 20000 200000 1000000] [--bins 2048] [--seeds 0 1 2] [--boot 200]

Writes ``benchmarks/jack_bins.csv``; ``--docs`` writes its table into docs/benchmarks.md between the ``jack-bins``
markers, ``--docs-only`` from the committed CSV without running anything.
"""

from __future__ import annotations

import argparse
import dataclasses
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _docs import write_block  # noqa: E402

from prspace.metrics.names import REPORTED_METRICS
from prspace.stats.bands import CurveBand, curve_at, curve_bands
from prspace.stats.binned import JACK_BINS, binned_block, binned_groups
from prspace.stats.intervals import jackknife_interval, percentile
from prspace.stats.pairwise import jackknife_pairs
from prspace.stats.replicates import Block, bootstrap, jackknife, point_metrics


def make_block(rows: int, pi: float, seed: int, tied: bool = False) -> Block:
    rng = np.random.default_rng(seed)
    y = (rng.random(rows) < pi).astype(np.int8)
    scores = []
    for k in range(3):
        s = 1 / (1 + np.exp(-(y * (1.0 + 0.3 * k) + rng.normal(size=rows) - 3)))
        scores.append(np.round(s, 3) if tied else s)
    groups = [np.unique(-s, return_inverse=True)[1].ravel() for s in scores]
    return Block("t", ["m0", "m1", "m2"], y, y.astype(np.int64), np.ones(rows), groups, scores)


def _boot_moves(block: Block, bins: int, seed: int, n_boot: int) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Per metric, the largest move of a percentile end (models; paired differences) over its exact half-width."""
    binned = binned_block(block, bins)
    t = time.perf_counter()
    exact = bootstrap(block, n_boot=n_boot, rng=np.random.default_rng(seed), scheme="class")
    t_exact = time.perf_counter() - t
    t = time.perf_counter()
    coarse = bootstrap(binned, n_boot=n_boot, rng=np.random.default_rng(seed), scheme="class")
    coarse += (point_metrics(block) - point_metrics(binned))[None]
    t_binned = time.perf_counter() - t
    lo, hi = percentile(exact, 0.95)
    lo2, hi2 = percentile(coarse, 0.95)
    move = (np.fmax(np.abs(lo2 - lo), np.abs(hi2 - hi)) / ((hi - lo) / 2)).max(axis=0)
    iu, ju = np.triu_indices(exact.shape[1], 1)
    dlo, dhi = percentile(exact[:, iu] - exact[:, ju], 0.95)
    dlo2, dhi2 = percentile(coarse[:, iu] - coarse[:, ju], 0.95)
    pmove = (np.fmax(np.abs(dlo2 - dlo), np.abs(dhi2 - dhi)) / ((dhi - dlo) / 2)).max(axis=0)
    return move, pmove, t_exact, t_binned


def shifted(band: CurveBand, estimate: np.ndarray) -> CurveBand:
    """``band`` moved by ``estimate - band.estimate`` at every grid point, within the curve's range."""
    d = estimate - band.estimate
    bottom = 0.0 if band.curve in ("roc", "pr") else -np.inf
    return dataclasses.replace(band, estimate=estimate, lo=np.clip(band.lo + d, bottom, 1.0),
                               hi=np.clip(band.hi + d, bottom, 1.0), sim_lo=np.clip(band.sim_lo + d, bottom, 1.0),
                               sim_hi=np.clip(band.sim_hi + d, bottom, 1.0))


def _band_moves(block: Block, bins: int, seed: int, n_boot: int) -> dict[str, float]:
    """Per curve, the largest move of a band end (pointwise and simultaneous), binned and shifted against exact, over
    the exact band's half-width at that grid point (first model; grid points whose half-width is 0 left out)."""
    y, s = block.y.astype(bool), block.scores[0]
    # the same row draws on both (tied=False: the audit's binned bands draw counts per cell, the same distribution
    # from another stream, whose Monte Carlo difference is not the binning's)
    exact = curve_bands(y, s, n_boot=n_boot, rng=seed)
    g = block.groups[0]
    coarse = binned_groups(g, block.y, bins)
    binned = curve_bands(y, -coarse.astype(np.float64), n_boot=n_boot, rng=seed)
    k = int(g.max()) + 1
    tp, fp = np.bincount(g, weights=y, minlength=k), np.bincount(g, weights=~y, minlength=k)
    out = {}
    for c, e in exact.items():
        b = shifted(binned[c], curve_at(c, tp, fp, e.grid))
        worst = 0.0
        for lo, hi, lo2, hi2 in ((e.lo, e.hi, b.lo, b.hi), (e.sim_lo, e.sim_hi, b.sim_lo, b.sim_hi)):
            half = (hi - lo) / 2
            ok = half > 1e-9
            worst = max(worst, float(np.max(np.fmax(np.abs(lo2 - lo), np.abs(hi2 - hi))[ok] / half[ok])))
        out[c] = worst
    return out


def compare(block: Block, bins: int, seed: int, n_boot: int = 0) -> list[dict]:
    points = point_metrics(block)
    boot = _boot_moves(block, bins, seed, n_boot) if n_boot else None
    bands = _band_moves(block, bins, seed, n_boot) if n_boot else {}
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
                     "seconds_exact": round(t_exact, 3), "seconds_binned": round(t_binned, 3),
                     "n_boot": n_boot,
                     "boot_max_end_move_over_half_width": float(boot[0][i]) if boot else float("nan"),
                     "boot_max_pair_end_move_over_half_width": float(boot[1][i]) if boot else float("nan"),
                     "boot_seconds_exact": round(boot[2], 3) if boot else float("nan"),
                     "boot_seconds_binned": round(boot[3], 3) if boot else float("nan"),
                     **{f"band_{c}_max_end_move_over_half_width": v for c, v in bands.items()}})
    return rows


DOCS = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"


def docs_block(t: pd.DataFrame, commit: str) -> str:
    """Per size: the largest end move over all seeds, models and metrics, as a share of the half-width, and the seconds."""
    g = t.groupby("rows")
    seeds = ", ".join(str(x) for x in sorted(t["seed"].unique()))
    lines = [f"Generated by `python benchmarks/bench_jack_bins.py --docs` from `benchmarks/jack_bins.csv` (commit {commit}; "
             f"{int(t['bins'].iloc[0]):,} bins; seeds {seeds}; {int(t['n_boot'].iloc[0])} bootstrap resamples; three "
             "models of untied scores at pi 0.05; every metric).", "",
             "| rows | jackknife-t end | jackknife-Holm end | bootstrap percentile end | paired bootstrap end | "
             "curve band end (ROC, PR, PRG) | jackknife s exact / binned | bootstrap s exact / binned |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for n, r in g:
        lines.append(f"| {n:,} | {r['max_end_move_over_half_width'].max():.4f} | "
                     f"{r['max_pair_end_move_over_half_width'].max():.4f} | {r['boot_max_end_move_over_half_width'].max():.4f} | "
                     f"{r['boot_max_pair_end_move_over_half_width'].max():.4f} | "
                     + ", ".join(f"{r[f'band_{c}_max_end_move_over_half_width'].max():.4f}" for c in ("roc", "pr", "prg"))
                     + f" | {r['seconds_exact'].mean():.2f} / {r['seconds_binned'].mean():.2f} | "
                     f"{r['boot_seconds_exact'].mean():.2f} / {r['boot_seconds_binned'].mean():.2f} |")
    lines += ["", "Each cell: the largest move of an interval end, binned against exact, as a share of the exact "
              "interval's half-width (the audit's allowance: 0.1; a band: at each grid point, pointwise and simultaneous ends, the first model); below 2,048 positives nothing is binned (0). The bands' column is why the audit's curve bands are not binned."]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, nargs="+", default=[2e4, 2e5, 1e6])
    ap.add_argument("--bins", type=int, default=JACK_BINS)
    ap.add_argument("--pi", type=float, default=0.05)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--boot", type=int, default=200, help="bootstrap resamples (0: the jackknife only)")
    ap.add_argument("--csv", default=str(Path(__file__).with_name("jack_bins.csv")))
    ap.add_argument("--docs", action="store_true", help="write the table into docs/benchmarks.md")
    ap.add_argument("--docs-only", action="store_true", help="write docs/benchmarks.md's table from --csv; run nothing")
    args = ap.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=DOCS.parent).stdout.strip() or "unknown"
    if args.docs_only:
        t = pd.read_csv(args.csv)
        write_block(DOCS, "jack-bins", docs_block(t, str(t["commit"].iloc[0]) if "commit" in t else commit))
        return
    out = []
    for n in (int(r) for r in args.rows):
        for seed in args.seeds:
            rows = compare(make_block(n, args.pi, seed), args.bins, seed, args.boot)
            out += rows
            worst = max(rows, key=lambda r: r["max_end_move_over_half_width"])
            print(f"{n:>9,} seed {seed}: largest end move {worst['max_end_move_over_half_width']:.4f} of the "
                  f"half-width ({worst['metric']}); paired {max(r['max_pair_end_move_over_half_width'] for r in rows):.4f}; "
                  f"jackknife {rows[0]['seconds_exact']:.2f} s exact, {rows[0]['seconds_binned']:.2f} s binned; "
                  f"bootstrap: largest end move {max(r['boot_max_end_move_over_half_width'] for r in rows):.4f}, "
                  f"paired {max(r['boot_max_pair_end_move_over_half_width'] for r in rows):.4f}, "
                  f"{rows[0]['boot_seconds_exact']:.2f} s exact, {rows[0]['boot_seconds_binned']:.2f} s binned",
                  flush=True)
    t = pd.DataFrame(out).assign(commit=commit)
    t.to_csv(args.csv, index=False)
    if args.docs:
        write_block(DOCS, "jack-bins", docs_block(t, commit))
    print(f"wrote {args.csv}")


if __name__ == "__main__":
    main()

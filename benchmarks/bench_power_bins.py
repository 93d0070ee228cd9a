"""What binning a planned test set's scores costs ``prspace power``'s jackknife t (issue 59): exact against binned,
on the very planned sets the power simulation tests, side by side.

``prspace power`` tests each planned test set of AP, AUPR and AUPRG (and, with groups, of every metric) by the
jackknife t, its replicates computed on at most :data:`prspace.audit.simulation.power_tests.POWER_BINS` bins of
positive tie groups (:func:`prspace.stats.binned.left_out_replicates_sets`): the difference is exact, only its
standard error (and the t's degrees of freedom) come from the binned replicates.  Issue 59's rule: an interval may be
computed from binned scores only where its ends move by less than a tenth of its half-width, measured and stated.

This script draws the planned sets as ``prspace power`` does (:func:`prspace.audit.simulation.audit_power.
detection_rate`: rows per class, or whole groups with ``--group-col``), and for every set the power simulation
tests (each call of :func:`prspace.audit.simulation.power_tests.jackknife_rejects`, recorded as it is made) computes
the test's interval, the difference plus or minus the two-sided t quantile at the level the test uses times the
jackknife se, once exact (no binning) and once at each of ``--bins``.  Per case it writes the largest move of an
interval end, binned against exact and against ``--ref`` (512) bins, as a share of the reference interval's
half-width (the difference is the same exact number in both, so that is the relative move of the half-width), and
the simulated power (share of sets rejecting with the planted sign) at each, with its Monte Carlo se and the se of
the paired change (the same sets).

Populations: the 2,000-row file of ``benchmarks/bench_power_time.py`` (its ``make_file``: 400 patients of 5 rows, pi
about 0.25, three untied models) and a skewed one made the same way with a lower intercept (``--skewed-rows``, pi
about 0.05).  Per metric the best model against the runner-up, as ``prspace power``; planned sizes from a few
hundred to a few thousand positives (``--positives``; prevalence kept) and, grouped, in groups (``--groups``); at
each size the difference planted is the one the normal approximation detects with power 0.8 there (``prspace
power``'s own starting guess, :func:`prspace.audit.simulation.power_search.difference_guess` of the population's
jackknife se scaled to the planned size: a power near 0.8, where a change in rejections shows), tested at the level
``prspace power`` tests it
(:func:`prspace.audit.simulation.audit_power.planned_threshold`, alpha 0.05 over the three pairs).

    python benchmarks/bench_power_bins.py [--sims 200] [--bins 128 256] [--docs]

Writes ``benchmarks/power_bins.csv``; ``--docs`` writes its table into docs/benchmarks.md between the ``power-bins``
markers, ``--docs-only`` from the committed CSV without running anything.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _docs import write_block  # noqa: E402
from bench_power_time import make_file  # noqa: E402

import prspace.audit.simulation.power_tests as PT  # noqa: E402
from prspace.audit.simulation.audit_power import (  # noqa: E402
    Pair,
    data_se,
    detection_rate,
    difference,
    grouped_threshold,
    planned_threshold,
    shift_for,
)
from prspace.audit.simulation.power_search import difference_guess  # noqa: E402
from prspace.stats.binned import left_out_replicates_sets  # noqa: E402
from prspace.stats.distributions import student_t  # noqa: E402
from prspace.stats.pairwise import jackknife_pairs_batch  # noqa: E402
from prspace.stats.replicates import BOOT_METRICS, Block, point_metrics  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "benchmarks.md"
#: No binning: more bins than any planned set has positive tie groups.
EXACT = 1 << 40
#: The allowance of issue 59's rule: an end may move by less than this share of the half-width.
ALLOWANCE = 0.1
#: The metrics' names in the docs.
NAMES = {"auroc": "AUROC", "average_precision": "AP", "aupr": "AUPR", "auprg": "AUPRG"}


def skewed_frame(rows: int, seed: int = 1, intercept: float = 3.4) -> pd.DataFrame:
    """``make_file``'s patients and models with the label's intercept lowered (``1.2`` there: pi about 0.25; the
    default here: about 0.05)."""
    rng = np.random.default_rng(seed)
    k = rows // 5
    g = np.repeat(np.arange(k), 5)
    u = rng.normal(size=k)[g]
    y = (rng.random(g.size) < 1 / (1 + np.exp(-(u - intercept)))).astype(int)
    cols = {"patient": g, "y_true": y}
    for j in range(3):
        cols[f"m{j}"] = 1 / (1 + np.exp(-(y * (1 + 0.3 * j) + 0.7 * u + rng.normal(size=g.size) - 1)))
    return pd.DataFrame(cols)


def best_pair(frame: pd.DataFrame, metric: str, grouped: bool) -> Pair:
    """The best model against the runner-up by ``metric`` (as ``prspace power`` picks them), unit weights."""
    y = frame["y_true"].to_numpy().astype(bool)
    scores = [frame[f"m{j}"].to_numpy(np.float64) for j in range(3)]
    groups = [np.unique(-s, return_inverse=True)[1].ravel() for s in scores]
    block = Block("t", ["m0", "m1", "m2"], y, y.astype(np.int64), np.ones(y.size), groups, scores)
    col = point_metrics(block)[:, BOOT_METRICS.index(metric)]
    a, b = (int(i) for i in np.argsort(-col, kind="stable")[:2])
    return Pair(y, scores[a], scores[b], None, frame["patient"].to_numpy(np.int64) if grouped else None)


class Recorder:
    """Stands in for :func:`prspace.audit.simulation.power_tests.jackknife_rejects` while a power is simulated: each
    call's sets are tested exact and at every bins, and the per-set interval and rejection recorded."""

    def __init__(self, bins: list[int]) -> None:
        self.bins = bins
        self.real = PT.jackknife_rejects
        self.rows: dict[int, list[dict[str, np.ndarray]]] = {b: [] for b in bins}
        self.seconds = dict.fromkeys(bins, 0.0)

    def __call__(self, metric, y, a, b, sets, n_sets, part, strata, alpha, sign):
        for bins in self.bins:
            t = time.perf_counter()
            reps = left_out_replicates_sets(y, [a, b], sets, n_sets, part, strata.size, metric, bins=bins)
            d, se, p, df = jackknife_pairs_batch(reps[:, 0], reps[:, 1:], strata)
            self.seconds[bins] += time.perf_counter() - t
            d, se, p, df = d[:, 0], se[:, 0], p[:, 0], df[:, 0]
            with np.errstate(invalid="ignore"):
                half = np.where(se > 0, student_t.isf(alpha / 2, df) * se, 0.0)
            hit = (p < alpha) & ((sign == 0) | (np.sign(d) == sign))
            self.rows[bins].append({"diff": d, "half": half, "hit": hit})
        return self.real(metric, y, a, b, sets, n_sets, part, strata, alpha, sign)

    def table(self, key: int) -> dict[str, np.ndarray]:
        return {c: np.concatenate([r[c] for r in self.rows[key]]) for c in ("diff", "half", "hit")}


def end_move(t: dict[str, np.ndarray], ref: dict[str, np.ndarray]) -> np.ndarray:
    """Per set, the larger move of the two interval ends of ``t`` against ``ref``, over ``ref``'s half-width (sets
    whose reference half-width is 0 or NaN: NaN)."""
    lo, hi = t["diff"] - t["half"], t["diff"] + t["half"]
    rlo, rhi = ref["diff"] - ref["half"], ref["diff"] + ref["half"]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ref["half"] > 0, np.fmax(np.abs(lo - rlo), np.abs(hi - rhi)) / ref["half"], np.nan)


def change(t: dict[str, np.ndarray], ref: dict[str, np.ndarray]) -> tuple[float, float]:
    """The power's change (share rejecting) on the same sets, and the Monte Carlo se of that paired change."""
    d = t["hit"].astype(float) - ref["hit"].astype(float)
    return float(d.mean()), float(d.std(ddof=1) / np.sqrt(d.size)) if d.size > 1 else float("nan")


def measure(name: str, frame: pd.DataFrame, metric: str, grouped: bool, size: int, bins: list[int], ref: int,
            sims: int, seed: int) -> list[dict]:
    """One case: ``size`` planned positives (groups when ``grouped``) of ``frame``'s best pair by ``metric``."""
    pair = best_pair(frame, metric, grouped)
    pairs = 3
    d_obs = difference(pair, metric)
    own = int(np.unique(pair.g).size) if grouped else int(pair.y.sum())
    sign = 1.0 if d_obs > 0 else -1.0
    if grouped:
        level = grouped_threshold(pair, metric, size, 0.05 / pairs)
    else:
        n_neg = max(2, int(round(size * (~pair.y).sum() / pair.y.sum())))
        level = planned_threshold(metric, size, n_neg, 0.05 / pairs)
    # the difference the normal approximation detects with power 0.8 at this size (prspace power's own guess)
    delta = sign * difference_guess(data_se(pair, metric, seed=seed) * np.sqrt(own / size), level, 0.8)
    c = shift_for(pair, metric, delta)
    keys = [EXACT, ref, *[b for b in bins if b != ref]]
    rec = Recorder(keys)
    PT.jackknife_rejects = rec
    try:
        if grouped:
            detection_rate(pair, metric, c=c, n_groups=size, alpha=level, sims=sims, rng=np.random.default_rng(seed),
                           sign=sign)
        else:
            detection_rate(pair, metric, c=c, n_pos=size, n_neg=n_neg, alpha=level, sims=sims,
                           rng=np.random.default_rng(seed), sign=sign)
    finally:
        PT.jackknife_rejects = rec.real
    exact, at_ref = rec.table(EXACT), rec.table(ref)
    out = []
    for b in keys:
        t = rec.table(b)
        mv_exact, mv_ref = end_move(t, exact), end_move(t, at_ref)
        ch_exact, ch_exact_se = change(t, exact)
        ch_ref, ch_ref_se = change(t, at_ref)
        power = float(t["hit"].mean())
        out.append({"population": name, "pi": round(float(pair.y.mean()), 4), "grouped": grouped, "metric": metric,
                    "size": size, "unit": "groups" if grouped else "positives",
                    "positives": round(size * float(pair.y.sum()) / own, 1) if grouped else size,
                    "sims": int(t["hit"].size), "level": level, "planted_diff": float(delta), "bins": "exact" if b == EXACT else b,
                    "max_end_move_vs_exact": float(np.nanmax(mv_exact)),
                    "mean_end_move_vs_exact": float(np.nanmean(mv_exact)),
                    "max_end_move_vs_ref": float(np.nanmax(mv_ref)), "ref_bins": ref,
                    "power": power, "power_mc_se": float(np.sqrt(power * (1 - power) / t["hit"].size)),
                    "power_change_vs_exact": ch_exact, "power_change_vs_exact_se": ch_exact_se,
                    "power_change_vs_ref": ch_ref, "power_change_vs_ref_se": ch_ref_se,
                    "seconds": round(rec.seconds[b], 3)})
    return out


def chosen_bins(t: pd.DataFrame) -> int | None:
    """The fewest bins whose interval ends moved by less than :data:`ALLOWANCE` of the half-width, against exact, in
    every measured case (None: none of the binned ones)."""
    b = t[t["bins"] != "exact"].assign(bins=lambda x: x["bins"].astype(int))
    ok = b.groupby("bins")["max_end_move_vs_exact"].max() < ALLOWANCE
    return int(ok[ok].index.min()) if ok.any() else None


def docs_block(t: pd.DataFrame) -> str:
    """Per case: the largest end move of each binning against exact and against the reference, and the powers."""
    ref = int(t["ref_bins"].iloc[0])
    bins = sorted({int(b) for b in t["bins"] if b != "exact"})
    cheaper = [b for b in bins if b != ref]
    commit, sims = str(t["commit"].iloc[0]), int(t["sims"].max())
    pops = t.groupby("population")["pi"].first()
    lines = [f"Generated by `python benchmarks/bench_power_bins.py --docs` from `benchmarks/power_bins.csv` (commit "
             f"{commit}; up to {sims} planned test sets per case, the sets `prspace power` draws and tests; "
             + "; ".join(f"{p}: pi {v:.3f}" for p, v in pops.items()) + ").", "",
             "| population | unit | metric | planned size | positives | "
             + " | ".join(f"end move {b} vs exact" for b in bins) + " | "
             + " | ".join(f"end move {b} vs {ref}" for b in cheaper) + " | power exact | "
             + " | ".join(f"power change {b} (se)" for b in bins) + " |",
             "| --- | --- | --- | ---: | ---: | " + " | ".join("---:" for _ in bins + cheaper) + " | ---: | "
             + " | ".join("---:" for _ in bins) + " |"]
    for (pop, unit, metric, size), g in t.groupby(["population", "unit", "metric", "size"], sort=False):
        by = g.set_index(g["bins"].astype(str))
        lines.append(f"| {pop} | {unit} | {NAMES[metric]} | {int(size):,} | {float(g['positives'].iloc[0]):,.0f} | "
                     + " | ".join(f"{by.loc[str(b), 'max_end_move_vs_exact']:.4f}" for b in bins) + " | "
                     + " | ".join(f"{by.loc[str(b), 'max_end_move_vs_ref']:.4f}" for b in cheaper) + " | "
                     + f"{by.loc['exact', 'power']:.3f} | "
                     + " | ".join(f"{by.loc[str(b), 'power_change_vs_exact']:+.3f} ({by.loc[str(b), 'power_change_vs_exact_se']:.3f})"
                                  for b in bins) + " |")
    worst = {b: float(t.loc[t["bins"].astype(str) == str(b), "max_end_move_vs_exact"].max()) for b in bins}
    pw_mc = float(t.loc[t["bins"] == "exact", "power_mc_se"].max())
    pick = chosen_bins(t)
    lines += ["", "Each end move: the largest over the case's planned sets of the move of an end of the test's interval "
              "(the exact difference plus or minus the t quantile at the test's level times the jackknife se), binned "
              "against exact (or against "
              f"{ref} bins), as a share of the reference interval's half-width (issue 59's allowance: {ALLOWANCE}); 0 "
              "where no set had more positive tie groups than the bins. Power change: the share of the same sets "
              "rejecting, binned less exact, and the Monte Carlo se of that paired change (a power's own Monte Carlo "
              f"se is up to {pw_mc:.3f} here).", "",
              "Largest end move over every case, against exact: "
              + ", ".join(f"{b} bins {worst[b]:.4f}" for b in bins) + ". "
              + (f"**The fewest bins under the allowance in every case: {pick}** (`POWER_BINS`)." if pick is not None
                 else "**No binning below the reference stays under the allowance in every case.**")]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bins", type=int, nargs="+", default=[128, 256])
    ap.add_argument("--ref", type=int, default=512, help="the bins compared against as well (POWER_BINS before)")
    ap.add_argument("--sims", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--positives", type=int, nargs="+", default=[250, 501, 2000])
    ap.add_argument("--groups", type=int, nargs="+", default=[100, 400, 2000])
    ap.add_argument("--skewed-rows", type=int, default=60_000)
    ap.add_argument("--skewed-positives", type=int, nargs="+", default=[300, 1000, 3000])
    ap.add_argument("--skewed-groups", type=int, nargs="+", default=[1000])
    ap.add_argument("--metrics", nargs="+", default=["average_precision", "aupr", "auprg"])
    ap.add_argument("--grouped-metrics", nargs="+", default=["aupr", "auroc"])
    ap.add_argument("--csv", default=str(Path(__file__).with_name("power_bins.csv")))
    ap.add_argument("--docs", action="store_true", help="write the table into docs/benchmarks.md")
    ap.add_argument("--docs-only", action="store_true", help="write docs/benchmarks.md's table from --csv; run nothing")
    args = ap.parse_args()
    if args.docs_only:
        write_block(DOCS, "power-bins", docs_block(pd.read_csv(args.csv)))
        return
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=ROOT).stdout.strip() or "unknown"
    with tempfile.TemporaryDirectory() as tmp:
        make_file(Path(tmp) / "power.csv", 2000)
        file = pd.read_csv(Path(tmp) / "power.csv")
    skewed = skewed_frame(args.skewed_rows)
    cases = ([("file", file, m, False, n) for n in args.positives for m in args.metrics]
             + [("file", file, m, True, n) for n in args.groups for m in args.grouped_metrics]
             + [("skewed", skewed, m, False, n) for n in args.skewed_positives for m in args.metrics]
             + [("skewed", skewed, m, True, n) for n in args.skewed_groups for m in args.grouped_metrics])
    out = []
    for name, frame, metric, grouped, size in cases:
        rows = measure(name, frame, metric, grouped, size, args.bins, args.ref, args.sims, args.seed)
        out += rows
        print(f"{name} {'groups' if grouped else 'positives'} {size:,} {metric}: "
              + "; ".join(f"{r['bins']}: move {r['max_end_move_vs_exact']:.4f} (vs {args.ref} "
                          f"{r['max_end_move_vs_ref']:.4f}), power {r['power']:.3f}, {r['seconds']:.1f} s" for r in rows),
              flush=True)
        pd.DataFrame(out).assign(commit=commit).to_csv(args.csv, index=False)
    t = pd.DataFrame(out).assign(commit=commit)
    t.to_csv(args.csv, index=False)
    if args.docs:
        write_block(DOCS, "power-bins", docs_block(t))
    print(f"wrote {args.csv}")


if __name__ == "__main__":
    main()

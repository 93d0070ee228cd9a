"""Benchmark ``prspace.metrics.all_metrics`` against its floor and against scikit-learn.

Prints, for n = 10^4 ... 10^7 and scores with and without ties, ratios measured side by side
in one process (interleaved repeats, medians):

* ``all_metrics / argsort``: ``all_metrics`` time over one default ``np.argsort`` of the
  same scores (the floor: all_metrics sorts once with the default kind), and over
  ``np.argsort(kind="stable")`` (what scikit-learn's kernel uses);
* ``sklearn / all_metrics``: (``roc_auc_score`` + ``average_precision_score``) time over
  ``all_metrics`` time (all_metrics computes six metrics; sklearn two);
* ``pyprg / auprg``: the PRG reference code (``calc_auprg(create_prg_curve(...))``) time over
  ``prspace.metrics.auprg``, and their largest absolute difference, up to n = 10^5.

Usage: python benchmarks/bench_metrics.py [--sizes 4 5 6 7] [--repeats 7] [--pyprg-max 5]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
import warnings

import numpy as np

from prspace import metrics as M


def _timer(fn, *args, **kwargs):
    t = time.perf_counter()
    fn(*args, **kwargs)
    return time.perf_counter() - t


def _data(n: int, ties: bool, pi: float = 0.1, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < pi).astype(np.int64)
    if ties:
        # about 1000 distinct scores: heavy ties (like rounded probabilities)
        s = np.round(rng.random(n) + 0.5 * y, 3)
    else:
        s = rng.random(n) + 0.5 * y
    return y, s


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _load_pyprg():
    try:
        if not hasattr(np, "alen"):

            def _alen(a):
                try:
                    return len(a)
                except TypeError:
                    return len(np.array(a, ndmin=1))

            np.alen = _alen  # benchmark-only shim for the reference code
        from prg import prg

        return prg
    except ImportError:
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[4, 5, 6, 7], help="log10 n")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--pyprg-max", type=int, default=5, help="largest log10 n for pyprg")
    ap.add_argument("--pi", type=float, default=0.1, help="share of positives (default 0.1)")
    ap.add_argument(
        "--weighted",
        action="store_true",
        help="pass sample_weight (random integers 1-3) to all_metrics and sklearn",
    )
    args = ap.parse_args(argv)

    import sklearn
    from sklearn.metrics import average_precision_score, roc_auc_score

    prg = _load_pyprg()
    print(
        f"# machine: nproc={os.cpu_count()}, cpu={_cpu_model()}, python {platform.python_version()}, "
        f"numpy {np.__version__}, scikit-learn {sklearn.__version__}"
    )
    try:
        print(
            f"# load average at start: {os.getloadavg()}; pi = {args.pi}; "
            f"weighted = {args.weighted}"
        )
    except OSError:
        pass
    header = (
        "| n | ties | argsort ms | argsort stable ms | all_metrics ms | all_metrics/argsort "
        "| all_metrics/argsort stable | sklearn 2 calls ms | sklearn/all_metrics "
        "| pyprg ms | auprg ms | pyprg/auprg | max abs diff |"
    )
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for k in args.sizes:
        n = 10**k
        for ties in (False, True):
            y, s = _data(n, ties, args.pi)
            w = np.random.default_rng(1).integers(1, 4, n).astype(float) if args.weighted else None
            reps = args.repeats if n <= 10**6 else max(3, args.repeats // 2)
            t_sort, t_stable, t_all, t_sk = [], [], [], []
            M.all_metrics(y, s, sample_weight=w)  # warm-up
            for _ in range(reps):  # interleaved
                t_sort.append(_timer(np.argsort, s))
                t_stable.append(_timer(np.argsort, s, kind="stable"))
                t_all.append(_timer(M.all_metrics, y, s, sample_weight=w))
                t = time.perf_counter()
                roc_auc_score(y, s, sample_weight=w)
                average_precision_score(y, s, sample_weight=w)
                t_sk.append(time.perf_counter() - t)
            med = statistics.median
            row = [
                f"10^{k}",
                "yes" if ties else "no",
                f"{1e3 * med(t_sort):.2f}",
                f"{1e3 * med(t_stable):.2f}",
                f"{1e3 * med(t_all):.2f}",
                f"{med(t_all) / med(t_sort):.2f}",
                f"{med(t_all) / med(t_stable):.2f}",
                f"{1e3 * med(t_sk):.2f}",
                f"{med(t_sk) / med(t_all):.2f}",
            ]
            if prg is not None and k <= args.pyprg_max:
                t_ref, t_ours = [], []
                diff = 0.0
                for _ in range(max(1, reps // 2)):
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        t = time.perf_counter()
                        ref = prg.calc_auprg(prg.create_prg_curve(y, s))
                        t_ref.append(time.perf_counter() - t)
                    t = time.perf_counter()
                    ours = M.auprg(y, s)
                    t_ours.append(time.perf_counter() - t)
                    diff = max(diff, abs(ref - ours))
                row += [
                    f"{1e3 * med(t_ref):.1f}",
                    f"{1e3 * med(t_ours):.2f}",
                    f"{med(t_ref) / med(t_ours):.0f}",
                    f"{diff:.1e}",
                ]
            else:
                row += ["-", "-", "-", "-"]
            print("| " + " | ".join(row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

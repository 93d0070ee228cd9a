"""Loop vs batch: the noise floor's bootstrap metrics, one call per resample or all at once.

One synthetic task (``n_rows`` rows, pi 0.2, scores rounded to 3 decimals so ties occur), 30
models, 200 stratified resamples as multinomial counts. Side by side in one run (CPU time,
``time.process_time``):

* ``loop``: per resample ``np.bincount`` over tie groups and
  :func:`prspace.metrics.metrics_from_group_counts` (the noise floor before the batch kernel);
* ``batch``: :func:`prspace.experiments.noise.noise_floor.group_counts` and
  :func:`prspace.metrics.metrics_from_group_counts_batch` on all resamples at once (what the
  noise floor and the calibration do now).

Prints both times, their ratio and the largest difference between the two results.
Run: ``python benchmarks/bench_batch_metrics.py [n_rows]``.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from prspace import metrics as M
from prspace.experiments.noise.noise_floor import group_counts, stratified_counts

N_MODELS, N_BOOT = 30, 200


def main(n: int = 1000) -> None:
    rng = np.random.default_rng(0)
    y = rng.random(n) < 0.2
    yf = y.astype(np.float64)
    scores = [np.round(rng.normal(size=n) + 0.1 * j * y, 3) for j in range(N_MODELS)]
    w = stratified_counts(y, N_BOOT, rng)
    groups = []
    for s in scores:
        _, g = np.unique(-s, return_inverse=True)
        groups.append((g, int(g.max()) + 1))

    t0 = time.process_time()
    loop = []
    for g, k in groups:
        rows = [M.metrics_from_group_counts(np.bincount(g, w[b] * yf, k), np.bincount(g, w[b] * (1 - yf), k))
                for b in range(N_BOOT)]
        loop.append({m: np.array([r[m] for r in rows]) for m in rows[0]})
    t_loop = time.process_time() - t0

    t0 = time.process_time()
    batch = [M.metrics_from_group_counts_batch(*group_counts(w, g, yf, k)) for g, k in groups]
    t_batch = time.process_time() - t0

    diff = max(float(np.max(np.abs(a[m] - b[m]))) for a, b in zip(loop, batch, strict=True) for m in a)
    print(f"n = {n} rows, {N_MODELS} models x {N_BOOT} resamples (CPU seconds per task)")
    print(f"  loop  (one call per resample)  {t_loop:7.3f} s   1.00x")
    print(f"  batch (all resamples at once)  {t_batch:7.3f} s   {t_loop / t_batch:.1f}x faster")
    print(f"  largest |loop - batch| over every metric: {diff:.2e}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)

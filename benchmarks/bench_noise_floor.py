"""Cost of the noise floor's bootstrap: one task, 30 models, 200 stratified resamples.

Side by side in one run (CPU time, ``time.process_time``):

* ``counts + group kernel`` (what :mod:`prspace.experiments.noise.noise_floor` does): scores sorted once
  per model, a resample is a vector of multinomial counts, its metrics come from
  ``np.bincount`` over tie groups and :func:`prspace.metrics.metrics_from_group_counts`;
* ``counts + all_metrics(sample_weight)``: the same counts through the public weighted metric
  (one argsort per resample);
* ``row copies``: the textbook bootstrap, ``y[idx], s[idx]`` copied and scored unweighted.

Prints the time per task and the ratios. Run: ``python benchmarks/bench_noise_floor.py [n_rows]``.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from prspace import metrics as M
from prspace.experiments.noise.noise_floor import stratified_counts

N_MODELS, N_BOOT = 30, 200


def main(n: int = 1000) -> None:
    rng = np.random.default_rng(0)
    y = rng.random(n) < 0.2
    scores = [np.round(rng.normal(size=n) + 0.1 * j * y, 3) for j in range(N_MODELS)]
    w = stratified_counts(y, N_BOOT, rng)
    yf = y.astype(np.float64)

    t0 = time.process_time()
    for s in scores:
        _, g = np.unique(-s, return_inverse=True)
        k = int(g.max()) + 1
        for b in range(N_BOOT):
            M.metrics_from_group_counts(np.bincount(g, w[b] * yf, k), np.bincount(g, w[b] * (1 - yf), k))
    t_group = time.process_time() - t0

    t0 = time.process_time()
    for s in scores:
        for b in range(N_BOOT):
            M.all_metrics(y, s, sample_weight=w[b])
    t_weighted = time.process_time() - t0

    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    t0 = time.process_time()
    for s in scores:
        for _ in range(N_BOOT):
            idx = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
            M.all_metrics(y[idx], s[idx])
    t_copies = time.process_time() - t0

    print(f"n = {n} rows, {N_MODELS} models x {N_BOOT} resamples (CPU seconds per task)")
    print(f"  counts + group kernel          {t_group:7.2f} s   1.00x")
    print(f"  counts + all_metrics(weights)  {t_weighted:7.2f} s   {t_weighted / t_group:.2f}x")
    print(f"  row copies + all_metrics       {t_copies:7.2f} s   {t_copies / t_group:.2f}x")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)

"""The coverage of the procedure a study runs at other counts than the committed ones (issue 80.1).

``verdicts.csv``'s ``procedure_coverage`` is counted in a nested simulation
(:mod:`prspace.stats.nested.procedure`) at reduced counts (``analysis.verdicts.procedure_*``: 1,000 t*,
200 outer x 250 inner resamples per simulated study; the study itself runs 1,000 inner and 1,000 to 20,000
outer).  This script counts it again for Flach & Kull's primary statistics of one study at the counts given,
so that the effect of the counts is measured, not assumed; one row per statistic and setting, with the CPU
seconds of each setting, into ``benchmarks/procedure_coverage_settings.csv`` (``docs/verdicts.md`` quotes it by
value blocks, ``prspace numbers``).  Made on 2026-11-29 (2 cores shared by 8 processes)::

    python benchmarks/calib_procedure.py --study default --studies 120 --setting 1000 200 250 \\
        --setting 1000 200 1000 --setting 1000 1000 250 --out benchmarks/procedure_coverage_settings.csv
    python benchmarks/calib_procedure.py --study paperlike --studies 120 --setting 1000 200 250 \
        --setting 1000 200 1000 --out benchmarks/procedure_coverage_settings.csv
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from prspace.stats.nested import procedure as NP
from prspace.verdicts import primary as P

COLUMNS = ["study", "claim_id", "studies", "boot", "outer", "inner", "procedure_coverage", "mc_se", "plain",
           "miss_below", "miss_above", "cpu_s"]


def measure(study: str, studies: int, settings: list[tuple[int, int, int]], seed: int = 0) -> pd.DataFrame:
    """Flach & Kull's primary statistics of ``results/<study>``, each setting ``(boot, outer, inner)`` counted on
    ``studies`` simulated studies (the same seed for each: the same simulated studies' families)."""
    tables = Path("results") / study / "tables"
    per_task = pd.read_csv(tables / "disagreement_per_task.csv", dtype={"task_id": str})
    tasks = pd.read_csv(tables / "tasks.csv", dtype={"task_id": str})
    noise = tables / "noise_floor_pairs.csv"
    stats, _, _ = P.fk_stats(per_task, tasks, noise_pairs=pd.read_csv(noise, dtype={"task_id": str})
                             if noise.is_file() else None)
    ids, sts = [c for c, _ in stats], [s for _, s in stats]
    truth = P.CB.run(sts, B=100, seed=0, replicates=1, n_out=20, n_in=10).estimate  # the estimates: exact
    rows = []
    for boot, outer, inner in settings:
        t0 = time.process_time()
        out = NP.procedure_coverage(sts, truth, "bootstrap-t", NP.Settings(studies, boot, outer, inner), seed=[seed, 80])
        cpu = time.process_time() - t0
        for k, cid in enumerate(ids):
            rows.append([study, cid, studies, boot, outer, inner, out["coverage"][k], out["mc_se"][k], out["plain"][k],
                         out["miss_below"][k], out["miss_above"][k], cpu])
    return pd.DataFrame(rows, columns=COLUMNS)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", action="append", required=True)
    ap.add_argument("--studies", type=int, default=120)
    ap.add_argument("--setting", nargs=3, type=int, action="append", required=True, metavar=("BOOT", "OUTER", "INNER"))
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    new = pd.concat([measure(s, a.studies, [tuple(x) for x in a.setting]) for s in a.study], ignore_index=True)
    if a.out.is_file():  # other studies' and settings' rows kept
        old = pd.read_csv(a.out)
        key = ["study", "claim_id", "studies", "boot", "outer", "inner"]
        old = old[~old.set_index(key).index.isin(new.set_index(key).index)]
        new = pd.concat([old, new], ignore_index=True)
    new.sort_values(["study", "claim_id", "outer", "inner"]).to_csv(a.out, index=False, float_format="%.6g")


if __name__ == "__main__":
    main()

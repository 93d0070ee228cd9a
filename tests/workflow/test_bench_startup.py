"""benchmarks/bench_startup.py: a study's jobs per stage counted from its benchmark files, for a rule run
per task (a file per task in the stage's folder) and for a rule run once for every task (one file)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_startup", ROOT / "benchmarks" / "bench_startup.py")
bs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bs)


def test_jobs_counts_a_file_per_task_and_the_one_file_of_a_rule_run_for_every_task(tmp_path):
    base = tmp_path / "work" / "s" / "benchmarks"
    (base / "predict").mkdir(parents=True)
    for task in ("a", "b", "c"):
        (base / "predict" / f"{task}.tsv").write_text("s\n1\n")
    (base / "boyd").mkdir()
    (base / "boyd" / "downsample.tsv").write_text("s\n1\n")
    jobs = bs._jobs(tmp_path, "s")
    assert jobs["predict"] == 3 and jobs["boyd/downsample"] == 1
    assert jobs["boyd/fold_skew"] == 0 and jobs["score"] == 0

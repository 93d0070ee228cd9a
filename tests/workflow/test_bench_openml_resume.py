"""benchmarks/bench_openml_loopback.py --resume: a stopped whole draw finished later is recorded from its own files
(GNU time of the analysis and of the report, the heavy steps' benchmark files), and its block says it was resumed."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))
_spec = importlib.util.spec_from_file_location("bench_openml_loopback", ROOT / "benchmarks" / "bench_openml_loopback.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def _time(wall: str, user: float, sys_s: float) -> str:
    return (f"\tUser time (seconds): {user}\n\tSystem time (seconds): {sys_s}\n"
            f"\tElapsed (wall clock) time (h:mm:ss or m:ss): {wall}\n\tMaximum resident set size (kbytes): 2048\n")


def test_a_resumed_draw_is_recorded_from_its_files_without_running_anything(tmp_path):
    wd = tmp_path / "size-886"
    bench_dir = wd / "work" / "openml-bench-886" / "benchmarks"
    (bench_dir / "boyd").mkdir(parents=True)
    (wd / "config.yaml").write_text(yaml.safe_dump({"study": "openml-bench-886"}))
    for step, s, rss in (("noise_floor", 1500.25, 900.0), ("rank_sets", 2400.0, 3100.5), ("boyd/fold_skew", 300.0, 500.0)):
        (bench_dir / f"{step}.tsv").write_text(f"s\th:m:s\tmax_rss\n{s}\t0\t{rss}\n")
    for name, wall, user, sys_s, start, end in (
            ("resume", "1:05:02.5", 7000.0, 300.5, "2026-11-28T00:40:00Z", "2026-11-28T01:45:00Z"),
            ("resume2", "30:00", 2000.0, 50.0, "2026-11-28T01:30:00Z", "2026-11-28T02:00:00Z"),
            ("report", "2:03", 100.0, 4.0, "2026-11-28T02:01:00Z", "2026-11-28T02:03:03Z")):
        (wd / f"{name}.started").write_text(start + "\n")
        (wd / f"{name}.ended").write_text(end + "\n")
        (wd / f"{name}.log").write_text("snakemake's lines\n" + _time(wall, user, sys_s))
    (wd / "resume2.cmd").write_text("all --nolock --omit-from rank_sets\n")
    (wd / "results" / "openml-bench-886" / "tables").mkdir(parents=True)
    (wd / "results" / "openml-bench-886" / "tables" / "verdicts.csv").write_text("claim_id\n")  # the study has its verdicts
    (wd / "report.html").write_text("<html></html>")
    (wd / "progress.csv").write_text("seconds,tasks_done,requests,mb_sent,disk_mb,max_in_flight,load1\n"
                                     "60,10,900,80.0,90.0,4,2.0\n2487,886,57064,5216.3,6531.7,4,2.7\n")
    rec = bench.resume(wd, cores=2)  # every part ended and the verdicts are there: nothing is run again
    assert rec["parts"]["resume"]["wall_s"] == 3902.5 and rec["report"]["wall_s"] == 123.0
    assert rec["analysis"] == {"started": "2026-11-28T00:40:00Z", "ended": "2026-11-28T02:00:00Z", "parts": 2,
                               "wall_s": 4800.0, "cpu_s": 9350.5}
    assert rec["parts"]["resume2"]["cmd"] == "all --nolock --omit-from rank_sets"
    assert rec["steps_s"] == {"noise_floor": 1500.2, "rank_sets": 2400.0, "boyd/fold_skew": 300.0}
    assert json.loads((wd / "resume.json").read_text()) == rec
    row = bench.whole_record(wd, "23:52 UTC", "first part").iloc[0]
    assert row["finished"] and row["analysis_cpu_s"] == 9350.5 and row["peak_rss_mb_any_job"] == 3100
    block = bench.whole_block(pd.DataFrame([row]))
    assert "stopped at 23:52 UTC in its analysis; the analysis resumed" in block
    (wd / "resume2.ended").unlink()  # a part still running is waited for, not run again
    with pytest.raises(SystemExit, match="resume2 of .* has not ended"):
        bench.resume(wd, cores=2)
    assert "2 invocations of Snakemake" in block and "4,800 s wall from its first start to its last end" in block
    assert "9,350 CPU s" in block and "report in 123 s" in block
    assert "| wall seconds | 1,500 | 2,400 | 300 |" in block

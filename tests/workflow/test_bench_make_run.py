"""benchmarks/bench_make_run.py: GNU time's report read back, and the targets of issue 60 judged in the
generated block from the table's rows (met and missed both reachable)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
_spec = importlib.util.spec_from_file_location("bench_make_run", ROOT / "benchmarks" / "bench_make_run.py")
bm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bm)

TIME = """\tCommand being timed: "make run"
\tUser time (seconds): 2218.62
\tSystem time (seconds): 156.00
\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:21:01.23
\tMaximum resident set size (kbytes): 731632
"""


def test_gnu_time_report_is_read_to_the_second():
    got = bm.gnu_time(TIME)
    assert got == {"wall_s": 4861.2, "user_s": 2218.62, "sys_s": 156.0, "max_rss_mb": 714.5}


def _row(label, wall, user, crit):
    row = {"label": label, "commit": label[:3], "started_utc": "2026-11-27 21:47", "machine": "cpu, 2 cores",
           "wall_s": wall, "user_s": user, "sys_s": 0.0, "max_rss_mb": 700.0, "venv_s": 48.0, "verify": "", "note": ""}
    for s in bm.STUDIES:
        row.update({f"{s}_jobs": 100, f"{s}_job_s": 900.0, f"{s}_span_s": 500.0, f"{s}_critical_s": crit,
                    f"{s}_model2_s": 500.0, f"{s}_model8_s": 200.0, f"{s}_model16_s": 150.0,
                    **{f"{s}_{part}_{col}": 10.0 for part in bm.PARTS for col in ("job_s", "cpu_s")}})
    return row


def test_the_block_judges_each_target_from_the_rows():
    met = bm.block(pd.DataFrame([_row("before", 3000, 5000, 500), _row("after", 1100, 2400, 300)]), "before", "after")
    assert "the target of 20 minutes is met" in met and "0.48 of bef's (before)" in met
    assert "the target of at most half is met" in met and "within the 6 minutes" in met
    missed = bm.block(pd.DataFrame([_row("before", 3000, 4000, 500), _row("after", 1261.2, 2400, 400)]),
                      "before", "after")
    assert "missed by 1 min 1 s" in missed and "0.60 of bef's" in missed and "the target of at most half is missed" in missed
    assert "paperlike, default over 6 minutes" in missed
    assert missed.count("\n| before |") == 1 + len(bm.STUDIES)  # its row, then a row per study of where it went

"""benchmarks/bench_make_run.py: GNU time's report read back, and the targets of issue 60 judged in the
generated block from the table's rows (met and missed both reachable)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pandas as pd
import pytest

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
    assert "measured on the same machine, started 2026-11-27 21:47 and 2026-11-27 21:47 UTC" in met
    other = _row("after", 1100, 2400, 300) | {"machine": "xeon, 2 cores", "started_utc": "2026-11-28 05:00"}
    moved = bm.block(pd.DataFrame([_row("before", 3000, 5000, 500), other]), "before", "after")
    # a run on another machine (another session) is not the after run's pair: no CPU ratio across machines
    # (issue 78.7: the block keeps the runs of the after run's session; the CSV keeps the rest)
    assert "of bef's" not in moved and "\n| before |" not in moved and "Machines: after: xeon, 2 cores." in moved
    missed = bm.block(pd.DataFrame([_row("before", 3000, 4000, 500), _row("after", 1261.2, 2400, 400)]),
                      "before", "after")
    assert "missed by 1 min 1 s" in missed and "0.60 of bef's" in missed and "the target of at most half is missed" in missed
    assert "paperlike, default over 6 minutes" in missed
    assert missed.count("\n| before |") == 1 + len(bm.STUDIES)  # its row, then a row per study of where it went


def test_make_test_rows_read_pytests_last_line_and_the_block_judges_the_target(tmp_path):
    log = "collected\n= 1 failed, 2457 passed, 1 skipped, 2 xfailed, 16 warnings in 624.75s (0:10:24) =\n"
    got = bm.pytest_summary(log)
    assert got == {"pytest_s": 624.75, "passed": 2457, "failed": 1, "skipped": 1, "xfailed": 2}
    with pytest.raises(SystemExit, match="no pytest summary line"):
        bm.pytest_summary("nothing ran\n")
    base = {"commit": "abc", "started_utc": "2026-11-28 05:20", "machine": "cpu, 2 cores", "user_s": 1000.0,
            "sys_s": 70.0, "venv_s": 16.0, "pytest_s": 560.0, "passed": 2460, "failed": 0, "skipped": 1, "xfailed": 2,
            "note": ""}
    t = pd.DataFrame([base | {"label": "before", "wall_s": 699.4}, base | {"label": "after", "wall_s": 590.0}])
    text = bm.test_block(t, "after")
    assert "**`make test` of abc: 9 min 50 s**" in text and "the target of 10 minutes is met." in text
    assert text.count("\n| before |") == 1 and text.count("\n| after |") == 1
    late = bm.test_block(t.assign(wall_s=[699.4, 641.9], failed=[0, 1]), "after")
    assert "missed by 0 min 42 s; 1 test(s) failed in that run." in late

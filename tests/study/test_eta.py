"""The progress line's estimate of the time left (prspace.study.eta): its arithmetic on made-up jobs,
the table it reads, and the tracker fed Snakemake-like log events. The line in a real run:
tests/workflow/test_workflow.py::test_progress_lines_estimate_the_time_left."""

from __future__ import annotations

import io
import logging
import types
from pathlib import Path

import pandas as pd
import pytest

from prspace.study import eta
from prspace.study.eta import Job, seconds_left

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = {"predict": 20.0, "verdicts": 150.0, "rank": 10.0}


def test_time_left_is_the_jobs_seconds_over_the_cores():
    jobs = [Job("predict")] * 6 + [Job("rank")] * 2  # 6 x 20 + 2 x 10 = 140 s of work
    assert seconds_left(jobs, EXPECTED, cores=2) == pytest.approx(70.0)
    assert seconds_left(jobs, EXPECTED, cores=4) == pytest.approx(35.0)
    assert seconds_left(jobs, EXPECTED, cores=1) == pytest.approx(140.0)


def test_a_running_job_counts_what_it_has_left_and_never_below_zero():
    jobs = [Job("predict", elapsed=15.0), Job("predict", elapsed=45.0), Job("rank")]  # 5 + 0 + 10
    assert seconds_left(jobs, EXPECTED, cores=1) == pytest.approx(15.0)


def test_the_longest_job_bounds_the_time_left_from_below():
    jobs = [Job("verdicts"), Job("rank"), Job("rank")]  # 170 s over 8 cores is 21 s, but verdicts takes 150
    assert seconds_left(jobs, EXPECTED, cores=8) == pytest.approx(150.0)


def test_speed_scales_every_job_and_unknown_rules_cost_the_given_seconds():
    jobs = [Job("predict"), Job("mystery")]
    assert seconds_left(jobs, EXPECTED, unknown=30.0, speed=1.5, cores=1) == pytest.approx(1.5 * 20 + 1.5 * 30)


def test_fetch_jobs_run_at_most_the_connection_cap_at_once():
    """8 fetch jobs of 20 s on 16 cores, the profile allowing 4 fetch jobs at once: 2 rounds, 40 s."""
    jobs = [Job("predict", fetch=True)] * 8 + [Job("rank")] * 16
    assert seconds_left(jobs, EXPECTED, cores=16, fetch_slots=4) == pytest.approx(40.0)
    assert seconds_left(jobs, EXPECTED, cores=16) == pytest.approx((160 + 160) / 16)
    assert seconds_left(jobs, EXPECTED, cores=2, fetch_slots=4) == pytest.approx((160 + 160) / 2)


def test_nothing_left_is_zero_and_the_line_reads_in_minutes():
    assert seconds_left([], EXPECTED, cores=2) == 0.0
    assert eta.format_line(152, 152, 0.0) == "152 of 152 jobs, <1 min left"
    assert eta.format_line(10, 152, 59.9) == "10 of 152 jobs, <1 min left"
    assert eta.format_line(10, 152, 60.0) == "10 of 152 jobs, ~1 min left"
    assert eta.format_line(10, 152, 61.0) == "10 of 152 jobs, ~2 min left"


def test_the_committed_table_has_every_studys_kind_and_positive_seconds():
    t = eta.load_table(ROOT / "workflow" / "job_seconds.csv")
    assert {"paperlike", "default", "openml"} <= set(t["kind"])
    assert (t["median_s"] > 0).all() and (t["jobs"] >= 1).all()
    assert not t.duplicated(["kind", "rule"]).any()
    assert {"predict", "verdicts", "select_tasks"} <= set(t.loc[t["kind"] == "paperlike", "rule"])


def test_a_kind_is_chosen_by_study_then_source_and_gaps_are_filled_from_other_kinds():
    t = pd.DataFrame({"kind": ["default", "default", "paperlike", "openml"],
                      "rule": ["predict", "rank", "predict", "predict"],
                      "jobs": [1, 1, 1, 1], "median_s": [10.0, 4.0, 20.0, 50.0]})
    assert eta.study_kind({"study": "paperlike", "source": "local"}, t) == "paperlike"
    assert eta.study_kind({"study": "mine", "source": "openml"}, t) == "openml"
    assert eta.study_kind({"study": "mine", "source": "local"}, t) == "default"
    expected, unknown = eta.expected_seconds(t, "openml")
    assert expected == {"predict": 50.0, "rank": 4.0}
    assert unknown == 15.0  # the median of 10, 4, 20, 50


class _Dag:
    def __init__(self, jobs):
        self.jobs = jobs  # [(jobid, rule, finished)]

    def needrun_jobs(self):
        return [j for j in self.jobs if not j.finished]

    @staticmethod
    def jobid(job):
        return job.jobid


def _job(jobid, rule, finished=False):
    return types.SimpleNamespace(jobid=jobid, rule=types.SimpleNamespace(name=rule), finished=finished)


def _record(**extra):
    r = logging.LogRecord("snakemake.logging", logging.INFO, __file__, 0, "", None, None)
    r.__dict__.update(extra)
    return r


def test_the_tracker_scales_the_table_by_the_jobs_finished_here(tmp_path):
    """One predict job finished here in 40 s where the table says 20: the run is 2x slower, so the
    3 predict jobs left (20 s each in the table) take 3 x 40 s over 2 cores = 60 s: ~1 min."""
    bench = tmp_path / "p1.tsv"
    bench.write_text("s\th:m:s\tmax_rss\n40.0\t0:00:40\t100\n")
    jobs = [_job(1, "predict", finished=True)] + [_job(k, "predict") for k in (2, 3, 4)]
    workflow = types.SimpleNamespace(dag=_Dag(jobs), global_resources={"_cores": 2, "_nodes": None})
    out = io.StringIO()
    tracker = eta.Tracker(workflow, {"predict": 20.0}, 10.0, fetch=False, out=out)
    tracker.emit(_record(event="job_info", jobid=1, rule_name="predict", benchmark=str(bench)))
    tracker.emit(_record(event="job_finished", job_id=1))
    assert tracker.speed() == pytest.approx(2.0)
    assert tracker.left() == pytest.approx(60.0)
    tracker.emit(_record(event="progress", done=1, total=4))
    assert out.getvalue() == "1 of 4 jobs, ~1 min left\n"


def test_the_tracker_never_breaks_a_run_on_what_it_cannot_read():
    workflow = types.SimpleNamespace(dag=None, global_resources={})
    out = io.StringIO()
    tracker = eta.Tracker(workflow, {}, 1.0, fetch=False, out=out)
    tracker.emit(_record(event="progress", done=1, total=2))  # no DAG to read: no line, no error
    tracker.emit(_record(event="job_finished", job_id=99))  # a job it never saw start
    assert out.getvalue() == "" and tracker.speed() == 1.0

"""A progress line with the time left: after Snakemake's "k of n steps (p%) done", the workflow prints
``k of n jobs, ~X min left (...)`` (issue 60, Deliver 5).

Where the seconds come from: a committed table of measured job seconds per rule and study kind
(``workflow/job_seconds.csv``, written by ``benchmarks/bench_job_seconds.py`` from a finished run's
Snakemake log and ``benchmark:`` files: the median wall seconds of each rule's jobs), scaled to this
run's machine: once jobs have finished here, by the ratio of their measured seconds (their own
``benchmark:`` files) to what the table expected of them.  A rule the table does not know costs the
median job of the table.  The table sits beside the rules, not in the package: a data file in a
package folder is part of the code version of every command importing that package
(:mod:`prspace.study.code_version`), and a new measurement must not rerun a study.

The arithmetic (:func:`seconds_left`): the unfinished jobs' expected seconds (a running job's less the
seconds it has run, never below 0) over the jobs that can run at once, the cores, and for the OpenML
fetch jobs of an OpenML study at most the profile's ``openml_connections``; never less than the longest
job still to finish.  A model of a greedy schedule, not a promise: the critical path can be longer.

Snakemake calls :func:`start` from the Snakefile's ``onstart``; it listens to Snakemake's log events
(a job starts, finishes, the progress count) and reads the jobs still to run from the workflow's DAG.
Anything it cannot read leaves the run alone: no line, never an error.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import statistics
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

import pandas as pd

#: the rules that talk to OpenML in an OpenML study (they hold ``openml_connections``)
FETCH_RULES = frozenset({"select_tasks", "predict"})


@dataclasses.dataclass(frozen=True)
class Job:
    """A job still to finish: its rule, the seconds it has run (0 when waiting), whether it fetches."""

    rule: str
    elapsed: float = 0.0
    fetch: bool = False


def load_table(path: Path) -> pd.DataFrame:
    """The committed table (``kind, rule, jobs, median_s``)."""
    return pd.read_csv(path)


def study_kind(config: dict[str, Any], table: pd.DataFrame) -> str:
    """The table's kind for a study: its name when the table has it, ``openml`` for an OpenML source,
    else ``default``."""
    kinds = set(table["kind"])
    name = str(config.get("study", ""))
    if name in kinds:
        return name
    return "openml" if config.get("source") == "openml" and "openml" in kinds else "default"


def expected_seconds(table: pd.DataFrame, kind: str) -> tuple[dict[str, float], float]:
    """``(seconds per rule, seconds of an unknown rule)`` for ``kind``: its rows, and for a rule it lacks
    the median over the other kinds; a rule of no kind costs the median job of the whole table."""
    out = table.groupby("rule")["median_s"].median().astype(float).to_dict()
    rows = table[table["kind"] == kind]
    out.update(zip(rows["rule"], rows["median_s"].astype(float), strict=True))
    return out, float(statistics.median(table["median_s"]))


def seconds_left(jobs: Iterable[Job], expected: dict[str, float], *, unknown: float = 0.0, speed: float = 1.0,
                 cores: int = 1, fetch_slots: int | None = None) -> float:
    """The seconds left to run ``jobs`` (see the module docstring): each job's expected seconds times
    ``speed``, less its ``elapsed`` (at least 0); their sum over ``cores``, the fetch jobs' sum over
    ``min(cores, fetch_slots)``, and the longest job, whichever is largest."""
    cores = max(int(cores), 1)
    slots = min(cores, fetch_slots) if fetch_slots else cores
    total = fetch = longest = 0.0
    for j in jobs:
        s = max(expected.get(j.rule, unknown) * speed - j.elapsed, 0.0)
        total += s
        fetch += s if j.fetch else 0.0
        longest = max(longest, s)
    return max(total / cores, fetch / max(slots, 1), longest)


def format_line(done: int, total: int, seconds: float) -> str:
    """``k of n jobs, ~X min left`` (under a minute: ``<1 min``)."""
    left = "<1 min" if seconds < 60 else f"~{math.ceil(seconds / 60)} min"
    return f"{done} of {total} jobs, {left} left"


def _benchmark_seconds(path: str | None) -> float | None:
    """The wall seconds of a finished job's ``benchmark:`` file, or None."""
    try:
        return float(pd.read_csv(path, sep="\t")["s"].iloc[-1]) if path else None
    except (OSError, ValueError, KeyError, IndexError, pd.errors.ParserError):
        return None


class Tracker(logging.Handler):
    """Listens to Snakemake's log events; after each progress event, logs the line (or prints it to ``out``)."""

    def __init__(self, workflow: Any, expected: dict[str, float], unknown: float, *, fetch: bool,
                 out: TextIO | None = None) -> None:
        super().__init__(level=logging.INFO)
        self.workflow, self.expected, self.unknown, self.fetch = workflow, expected, unknown, fetch
        self.out = out
        self.started: dict[int, tuple[str, float, str | None]] = {}  # jobid -> rule, monotonic start, benchmark
        self.measured = self.planned = 0.0  # finished jobs here: their seconds, and the table's

    def speed(self) -> float:
        return self.measured / self.planned if self.planned > 0 and self.measured > 0 else 1.0

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self._on(str(getattr(record, "event", "")), record)
        except Exception:  # noqa: BLE001 - the estimate must never break a run
            pass

    def _on(self, event: str, record: logging.LogRecord) -> None:
        if event == "job_info":
            bench = getattr(record, "benchmark", None)
            self.started[int(record.jobid)] = (str(record.rule_name), time.monotonic(), bench and str(bench))
        elif event == "job_finished":
            rule, _, bench = self.started.pop(int(record.job_id), ("", 0.0, None))
            s = _benchmark_seconds(bench)
            if s is not None and rule in self.expected:
                self.measured += s
                self.planned += self.expected[rule]
        elif event == "progress":
            line = format_line(int(record.done), int(record.total), self.left())
            if self.out is not None:
                print(line, file=self.out, flush=True)
            else:  # through Snakemake's logger: on the console and in .snakemake/log/ (this handler skips it)
                logging.getLogger("snakemake.logging").info(line)

    def left(self) -> float:
        now = time.monotonic()
        by_job = {jobid: (rule, now - t0) for jobid, (rule, t0, _) in self.started.items()}
        jobs = []
        dag = self.workflow.dag
        for j in dag.needrun_jobs():
            rule = j.rule.name
            elapsed = by_job.get(dag.jobid(j), (rule, 0.0))[1]
            jobs.append(Job(rule, elapsed, self.fetch and rule in FETCH_RULES))
        return seconds_left(jobs, self.expected, unknown=self.unknown, speed=self.speed(), cores=_cores(self.workflow),
                            fetch_slots=_resource(self.workflow, "openml_connections"))


def _resource(workflow: Any, name: str) -> int | None:
    try:
        value = workflow.global_resources[name]
        value = getattr(value, "value", value)
        return int(value) if value is not None else None
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _cores(workflow: Any) -> int:
    """How many jobs run at once: the cores, or the cluster's ``--jobs`` when fewer."""
    limits = [v for v in (_resource(workflow, "_cores"), _resource(workflow, "_nodes")) if v and 0 < v < 10**6]
    return min(limits) if limits else 1


def start(workflow: Any, config: dict[str, Any], table_path: Path, out: TextIO | None = None) -> Tracker | None:
    """Attach the tracker to Snakemake's logger (from the Snakefile's ``onstart``); None when the table
    cannot be read."""
    try:
        table = load_table(table_path)
    except (OSError, ValueError, pd.errors.ParserError):
        return None
    expected, unknown = expected_seconds(table, study_kind(config, table))
    tracker = Tracker(workflow, expected, unknown, fetch=config.get("source") == "openml", out=out)
    logging.getLogger("snakemake.logging").addHandler(tracker)
    return tracker

"""Snakemake's command line with the SLURM plugin's status polling kept at a fixed short interval (tests only).

``snakemake-executor-plugin-slurm`` waits ``--slurm-init-seconds-before-status-checks`` seconds between two
status queries after one that saw a job finish, and 10 s longer after each one that saw none (up to 180 s):
polite to a real cluster's controller, but on the test cluster of ``tests/slurm_cluster.py`` a job of 15 s
was seen finished only at the third query, 36 s after it started, and every level of the workflow's job
graph paid that wait (the reduced study took 449 s on SLURM against 151 s locally).  Here the wait between
queries is at most ``PRSPACE_TEST_SLURM_POLL`` seconds (default 2; ``--max-status-checks-per-second`` still
limits the queries).  Only the main Snakemake process is patched: the plugin's submission, the job scripts,
the jobs' own Snakemake inside SLURM and the status query itself are the plugin's.

    python tests/slurm_snakemake.py SNAKEMAKE-ARGS...
"""

from __future__ import annotations

import os
import sys

from snakemake_executor_plugin_slurm import Executor

#: the longest wait between two status queries, seconds
POLL = float(os.environ.get("PRSPACE_TEST_SLURM_POLL", "2"))

_plugin_sleep = Executor.sleep


async def _sleep(self: Executor) -> None:
    self.next_seconds_between_status_checks = min(self.next_seconds_between_status_checks, POLL)
    await _plugin_sleep(self)


Executor.sleep = _sleep

if __name__ == "__main__":
    from snakemake.cli import main

    sys.argv[0] = "snakemake"
    sys.exit(main())

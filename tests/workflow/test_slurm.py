"""The workflow on a real SLURM cluster gives the same tables as a local run.

Brings up a single-node SLURM cluster on this machine (munged, slurmctld, slurmd from Debian's
packages; tests/slurm_cluster.py), runs the reduced study (tests/fixtures/config-reduced.yaml)
through snakemake-executor-plugin-slurm (profiles/slurm), and checks against the session's local
run of it (profiles/local; tests/conftest.py's ``reduced_study``, which tests/workflow/test_workflow.py
checks too, built once per session by whichever worker asks first) that

* every job of the run ran inside a SLURM job: each
  SLURM job id that snakemake reports appears in slurmctld's allocation log and in
  `squeue --states=all` as COMPLETED under the run's job name, and the SLURM jobs'
  own logs name exactly the rule/wildcards pairs that the main snakemake ran remotely;
* the result tables of the SLURM run are byte for byte those of the local run;
* the daemons are gone after shutdown (stopped by pid).

The SLURM run makes the part of the study that exercises what ``profiles/slurm`` sets (``RULES``,
through the files ``TARGETS``): every rule with its own threads, resources or group there (predict,
which scores its task, Boyd's fold-skew runs), the checkpoint that selects tasks, and the steps that gather all tasks
into tables and a figure. The other ~25 rules are table and figure steps under ``default-resources``,
submitted the same way; each SLURM job starts Snakemake twice, so they were most of the test's time.
``test_the_slurm_run_covers_every_rule_the_profile_sets`` keeps the list complete.

Snakemake runs through ``tests/slurm_snakemake.py``: the plugin's own command line with its wait between
status queries kept at 2 s (the plugin grows it by 10 s after each query that sees no job finish, so each
level of the job graph waited up to ~36 s on this idle test cluster); submission, job scripts and the
query are the plugin's.

Skips, naming the fix, when the SLURM/munge binaries or the plugin are missing or when not
root (slurmd must run as root to start jobs). CI installs them with .ci/install-slurm.sh.
Slow: 8-14 min on 2 cores shared with other work (8 min 10 s and 10 min 9 s at load ~8, e.g.
3.8 min local run and 6.0 min SLURM run; 13 min 48 s at load ~11). Marked ``slurm``; run it alone with ``pytest -m slurm tests/workflow/test_slurm.py -rP``
(``-rP`` prints the table of workflow jobs and their SLURM job ids).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from slurm_cluster import SlurmCluster, missing_binaries, node_hardware  # noqa: E402

pytestmark = [pytest.mark.slurm, pytest.mark.slow, pytest.mark.timeout(3600)]

REPO = Path(__file__).resolve().parents[2]
SNAKEFILE = REPO / "Snakefile"
REDUCED = REPO / "tests" / "fixtures" / "config-reduced.yaml"
#: Snakemake's command line with the plugin's status queries every 2 s at most (tests/slurm_snakemake.py)
SNAKEMAKE = REPO / "tests" / "slurm_snakemake.py"

SUBMITTED = re.compile(r"^Job (\S+) has been submitted with SLURM jobid (\d+) \(log: (.+)\)\.$",
                       re.MULTILINE)
# A job block of snakemake's log: "rule score:" / "localcheckpoint select_tasks:" ... "jobid: 7"
JOB_BLOCK = re.compile(r"^\s*(local)?(rule|checkpoint) (\w+):\n((?:\s+\w+: .*\n)+)", re.MULTILINE)
TARGET_JOBS = re.compile(r"--target-jobs (.+?) --")


#: The rules the SLURM run makes (as the jobs its targets need, ``TARGETS``): every rule ``profiles/slurm``
#: gives its own threads, resources or group that the reduced study makes, and the steps that gather the
#: per-task jobs into tables and a figure.
RULES = ("predict", "boyd_fold_skew", "collect", "rank", "figure_data", "figure_fig5_curves")
#: Files whose jobs are those rules and what they read (``--until`` stops at the task-list checkpoint:
#: the jobs after it were never scheduled): the scorecard (``rank``, after the scoring and the noise
#: floor), Flach & Kull's Figure 5 (``figure_data``) and Boyd's fold-skew summary (every task's
#: ``boyd_fold_skew`` run).
TARGETS = ("tables/scorecard.csv", "figures/fig5_curves.png", "tables/boyd_fold_skew_summary.csv")
#: Named by the profile but made by neither run: no task of the reduced study qualifies for Boyd's
#: downsampling (pi <= 0.1 and >= 25 positives; checked on the local run below).
NOT_IN_REDUCED = {"boyd_downsample"}


def test_the_slurm_run_covers_every_rule_the_profile_sets():
    """Every rule that ``profiles/slurm`` configures by name (``set-threads``, ``set-resources``,
    ``groups``) and the reduced study makes is among the rules the SLURM run makes, so a request too
    large for the node or a group that never forms shows there."""
    profile = yaml.safe_load((REPO / "profiles" / "slurm" / "config.yaml").read_text())
    named = set(profile["set-threads"]) | set(profile["set-resources"]) | set(profile.get("groups", {}))
    assert named - NOT_IN_REDUCED <= {"select_tasks", *RULES}, sorted(named - NOT_IN_REDUCED - set(RULES))


def _skip_reason() -> str | None:
    missing = missing_binaries()
    if missing:
        return (f"SLURM/munge binaries not installed ({', '.join(missing)}): run "
                "`bash .ci/install-slurm.sh` (root, Debian packages munge slurmctld slurmd "
                "slurm-client)")
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        return ("snakemake-executor-plugin-slurm is not installed: "
                "pip install -c constraints.txt snakemake-executor-plugin-slurm")
    if os.geteuid() != 0:
        return "needs root: slurmd must run as root to start jobs as the submitting user"
    if not REDUCED.exists() or not SNAKEFILE.exists():
        return f"workflow or reduced config missing ({SNAKEFILE}, {REDUCED})"
    return None


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    c = SlurmCluster(tmp_path_factory.mktemp("slurm"))
    c.start()
    yield c
    c.stop()
    assert not any(c.alive().values()), f"daemons still running after stop: {c.alive()}"


def _snakemake(workdir: Path, *args: str, env: dict[str, str] | None = None,
               timeout: int = 2400) -> str:
    cmd = [sys.executable, str(SNAKEMAKE), "--snakefile", str(SNAKEFILE), "--directory", str(workdir),
           "--configfile", str(REDUCED), *args]
    proc = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True, text=True,
                          timeout=timeout)
    log = proc.stdout + proc.stderr
    (workdir / "snakemake.out").write_text(log)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed:\n{log[-6000:]}"
    return log


def _jobs_run(log: str) -> tuple[set[str], set[str]]:
    """(remote, local) jobs of a main snakemake log as 'rule:wc=v,...' strings."""
    remote, local = set(), set()
    for m in JOB_BLOCK.finditer(log):
        fields = dict(re.findall(r"^\s+(\w+): (.*)$", m.group(4), re.MULTILINE))
        wc = fields.get("wildcards", "").replace(", ", ",")
        key = f"{m.group(3)}:{wc}" if wc else m.group(3)
        (local if m.group(1) else remote).add(key)
    return remote, local


def _study() -> str:
    return yaml.safe_load(REDUCED.read_text())["study"]


def _tables(workdir: Path) -> dict[str, bytes]:
    tables = workdir / "results" / _study() / "tables"
    return {p.name: p.read_bytes() for p in sorted(tables.glob("*.csv"))}


def test_reduced_workflow_on_slurm_equals_local(cluster, request, tmp_path):
    hw = node_hardware()
    # SLURM enforces the profile's requests: a node smaller than the largest one (a group of
    # `cores` score jobs at 2,500 MB each, predict at 4,000 MB) would leave jobs pending forever.
    need_mb = max(4000, 2500 * hw["cpus"])
    if hw["memory"] < need_mb:
        pytest.skip(f"this node has {hw['memory']} MB; profiles/slurm requests up to {need_mb} MB")
    slurm_dir = tmp_path / "slurm"
    logdir = tmp_path / "slurm-logs"
    slurm_dir.mkdir()

    log = _snakemake(
        slurm_dir, "--profile", str(REPO / "profiles" / "slurm"),
        # This test cluster: no slurmdbd, so squeue (MinJobAge=3600 in tests/slurm), a node of
        # hw["cpus"] CPUs (groups and threads must fit on it), fast first status check.
        "--slurm-status-command", "squeue",
        "--slurm-init-seconds-before-status-checks", "2",
        "--max-status-checks-per-second", "1",
        "--cores", str(hw["cpus"]), "--max-threads", str(hw["cpus"]),
        "--slurm-keep-successful-logs", "--slurm-logdir", str(logdir),
        "--latency-wait", "10",
        *(f"results/{_study()}/{t}" for t in TARGETS),
        env=cluster.env())

    # -- every job ran as a SLURM job -----------------------------------------------------------
    run_id = re.search(r"SLURM run ID: (\S+)", log).group(1)
    submitted = {int(jobid): Path(path) for _, jobid, path in SUBMITTED.findall(log)}
    assert submitted, f"no SLURM submissions in the snakemake log:\n{log[-3000:]}"
    remote, local = _jobs_run(log)
    assert local <= {"all"}, f"jobs that ran outside SLURM: {sorted(local - {'all'})}"
    assert {k.split(":")[0] for k in remote} >= {"select_tasks", *RULES}, sorted(remote)

    queue = cluster.run("squeue", "--states=all", "--noheader", "--name", run_id,
                        "--format=%i|%j|%T").stdout
    states = {int(i): s for i, _, s in (line.split("|") for line in queue.split())}
    assert states == dict.fromkeys(submitted, "COMPLETED"), (states, sorted(submitted))

    # the main scheduler logs "sched: Allocate JobId=N", the backfill scheduler
    # "sched/backfill: _start_job: Started JobId=N"; either means SLURM started the job
    allocated = {int(j) for j in re.findall(r"(?:sched: Allocate|_start_job: Started) JobId=(\d+) ",
                                            cluster.logs["slurmctld"].read_text())}
    assert set(submitted) <= allocated, sorted(set(submitted) - allocated)

    ran_in_slurm: dict[str, int] = {}
    for jobid, path in submitted.items():
        assert path.name == f"{jobid}.log" and path.exists(), path
        text = path.read_text(errors="replace")
        m = TARGET_JOBS.search(text)
        assert m, f"{path} shows no snakemake job step"
        for target in (t.rstrip(":") for t in m.group(1).split()):
            assert target not in ran_in_slurm, f"{target} ran in two SLURM jobs"
            ran_in_slurm[target] = jobid
        # The job's own snakemake saw the SLURM environment.
        assert "slurm-jobstep" in text, path
    assert set(ran_in_slurm) == remote, (sorted(set(ran_in_slurm) ^ remote))
    # Shown with `pytest -rP`: every workflow job and the SLURM job it ran in.
    print(f"SLURM run {run_id}: {len(remote)} workflow jobs in {len(submitted)} SLURM jobs")
    for target, jobid in sorted(ran_in_slurm.items(), key=lambda kv: (kv[1], kv[0])):
        print(f"  SLURM job {jobid:>4}  {states[jobid]:<9}  {target}")

    # -- same results ---------------------------------------------------------------------------
    # the local run: the session's reduced study (tests/conftest.py; profiles/local, 2 cores), the one
    # tests/workflow/test_workflow.py checks; requested only now, so a skip above costs no run, and under
    # pytest-xdist the other worker makes it while this one makes the SLURM run (or has made it already)
    local_dir = request.getfixturevalue("reduced_study")
    assert not list((local_dir / "work" / _study() / "boyd" / "downsampling").glob("*.parquet"))  # NOT_IN_REDUCED
    local_tables, slurm_tables = _tables(local_dir), _tables(slurm_dir)
    assert "metrics.csv" in slurm_tables and len(slurm_tables) >= 5, sorted(slurm_tables)
    assert set(slurm_tables) <= set(local_tables), sorted(set(slurm_tables) - set(local_tables))
    differ = [name for name in slurm_tables if local_tables[name] != slurm_tables[name]]
    assert not differ, f"tables differ between local and SLURM runs: {differ}"

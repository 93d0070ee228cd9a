"""Own data through the whole workflow, as a researcher uses it (issue 15, items 1, 2 and 6).

A small study on real data: titanic as OpenML serves it (the gzipped ARFF file scikit-learn's
wheel ships as a test fixture, read from the installed package) and scikit-learn's breast
cancer data as CSV, two learners, 3 folds.  Then the issue's scenario, on a copy of the finished
study: titanic cut to 600 rows, a new file added (wine), the same command again -> exactly the
edited and the added tasks are predicted again and the tables say n = 600 and 3 datasets; a file
removed -> 2 (run up to the metrics table, ``--until collect``: which tasks are predicted again is
decided there, and a whole analysis pass after each edit cost ~100 CPU s and checked nothing more).
The report is built without repeating the run's configuration, every table in it rendered.
A failing job's own message reaches the console.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import sklearn
import yaml
from sklearn.datasets import load_breast_cancer, load_wine

from prspace.core import registry as R

ROOT = Path(__file__).resolve().parents[2]
SNAKEMAKE = Path(sys.executable).with_name("snakemake")
TITANIC = next((Path(sklearn.__file__).parent / "datasets/tests/data/openml/id_40945").glob("*.arff.gz"))
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

CONFIG = {
    "study": "mydata",
    "source": "local",
    "seed": 0,
    "local": {"data_dir": "data", "target": "survived", "learners": "gnb,tree-depth2", "folds": 3},
    # the simulations at smoke sizes (no test here reads their values, only that their tables exist and
    # reach the report): two planted reversals, not sixteen, for the noise floor's calibration, and a few
    # simulated tasks each (a study of two tasks simulates at its own sizes: titanic's 1,309 rows; 2026-11-28:
    # calibrate and rank_set_summary took 12 CPU s of the first run at 10 and 20 simulated tasks)
    "analysis": {"n_boot": 20, "figure_formats": ["png"], "verdicts": {"n_boot": 20000},
                 "calibration": {"n_sim": 4, "n_sim_null": 8, "sigmas": [0.3, 4], "sigmas_a": [1]},
                 "rank_sets": {"n_boot": 200, "n_sim": 4, "n_sim_null": 8, "sim_models": 4, "sim_boot": 100}},
    # the Boyd experiments that need no extra model fits; their tables must reach the report too
    "boyd": {"theory": False, "downsampling": {"enabled": False}, "fold_skew": {"enabled": False}},
}


def _snakemake(workdir: Path, *extra: str, configfile: bool = True) -> subprocess.CompletedProcess:
    args = [str(SNAKEMAKE), "--snakefile", str(ROOT / "Snakefile"), "--directory", str(workdir), "--cores", "1"]
    if configfile:
        args += ["--configfile", str(workdir / "mydata.yaml")]
    return subprocess.run([*args, *extra], capture_output=True, text=True, timeout=1700)


def _jobs(res: subprocess.CompletedProcess) -> list[tuple[str, str]]:
    """(rule, task) of every job Snakemake ran, from its log."""
    out = res.stdout + res.stderr
    jobs = []
    for block in re.split(r"\n(?=\[[A-Z][a-z]{2} )", out):
        m = re.search(r"^(?:local)?(?:rule|checkpoint) (\w+):", block, re.MULTILINE)
        if m:
            w = re.search(r"wildcards: task=(\S+)", block)
            jobs.append((m.group(1), w.group(1) if w else ""))
    return jobs


def _tasks(workdir: Path) -> pd.DataFrame:
    return pd.read_csv(workdir / "results/mydata/tables/tasks.csv").set_index("task_id")


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> Path:
    wd = tmp_path_factory.mktemp("owndata")
    (wd / "data").mkdir()
    (wd / "data" / "titanic.arff.gz").write_bytes(TITANIC.read_bytes())
    cancer = load_breast_cancer(as_frame=True).frame
    cancer["survived"] = cancer.pop("target").map({0: "malignant", 1: "benign"})  # the shared class column
    cancer.to_csv(wd / "data" / "cancer.csv", index=False)
    (wd / "mydata.yaml").write_text(yaml.safe_dump(CONFIG))
    res = _snakemake(wd)
    assert res.returncode == 0, res.stderr[-4000:]
    return wd


def test_first_run_reads_the_real_arff_and_notes_the_encoding(study):
    tasks = _tasks(study)
    assert list(tasks.index) == ["user-cancer", "user-titanic"]
    assert tasks.loc["user-titanic", "n"] == 1309 and tasks.loc["user-titanic", "n_pos"] == 500
    assert "one-hot encoded" in tasks.loc["user-titanic", "notes"] and "name (1307 values)" in tasks.loc[
        "user-titanic", "notes"]
    assert (study / "work/mydata/config.yaml").exists()  # recorded for the report
    again = _snakemake(study, "-n")
    assert "Nothing to be done" in again.stdout + again.stderr


def test_cd_tables_and_diagram(study):
    # prspace cd over the study's tasks: one row per metric, the two learners ranked, the diagram drawn
    tables = study / "results/mydata/tables"
    tests = pd.read_csv(tables / "cd_tests.csv")
    assert list(tests["metric"]) == ["aupr", "auprg", "auroc", "aucnpr"]
    assert (tests["n_tasks"] == 2).all() and (tests["n_learners"] == 2).all()
    ranks = pd.read_csv(tables / "cd_ranks.csv")
    assert set(ranks["learner"]) == {"gnb", "tree-depth2"} and ranks["average_rank"].between(1, 2).all()
    pairs = pd.read_csv(tables / "cd_metric_pairs.csv")
    assert len(pairs) == 6 and pairs["p_value"].between(0, 1).all()
    png = study / "results/mydata/figures/cd_diagram.png"
    assert png.stat().st_size > 10_000


def test_editing_adding_and_removing_files_reruns_exactly_what_depends_on_them(study, tmp_path):
    # the scenario on a copy of the finished study (times and Snakemake's records kept):
    # titanic cut to 600 rows, a new file added, the same command again
    study = Path(shutil.copytree(study, tmp_path / "edited", symlinks=True))
    lines = gzip.open(TITANIC, "rt", encoding="utf-8").read().split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.strip().lower() == "@data") + 1
    with gzip.open(study / "data/titanic.arff.gz", "wt", encoding="utf-8") as fh:
        fh.write("\n".join(lines[: start + 600]) + "\n")
    wine = load_wine(as_frame=True).frame
    wine["survived"] = (wine.pop("target") == 0).map({True: "yes", False: "no"})
    wine.to_csv(study / "data/wine.csv", index=False)
    before = pd.read_csv(study / "results/mydata/tables/metrics.csv")

    res = _snakemake(study, "--until", "collect")
    assert res.returncode == 0, res.stderr[-4000:]
    predicted = sorted(t for rule, t in _jobs(res) if rule == "predict")
    assert predicted == ["user-titanic", "user-wine"]  # cancer.csv did not change: not refitted
    tasks = _tasks(study)
    assert list(tasks.index) == ["user-cancer", "user-titanic", "user-wine"]
    assert tasks.loc["user-titanic", "n"] == 600 and tasks.loc["user-wine", "n"] == 178
    after = pd.read_csv(study / "results/mydata/tables/metrics.csv")
    assert set(after["task_id"]) == {"user-cancer", "user-titanic", "user-wine"}
    key = ["task_id", "model_id"]
    merged = before.merge(after, on=key, suffixes=("_before", "_after"))
    cancer = merged[merged["task_id"] == "user-cancer"]
    titanic = merged[merged["task_id"] == "user-titanic"]
    assert (cancer["aupr_before"] == cancer["aupr_after"]).all()
    assert (titanic["aupr_before"] != titanic["aupr_after"]).all()

    (study / "data/wine.csv").unlink()
    res = _snakemake(study, "--until", "collect")
    assert res.returncode == 0, res.stderr[-4000:]
    assert not [t for rule, t in _jobs(res) if rule == "predict"]
    assert list(_tasks(study).index) == ["user-cancer", "user-titanic"]
    assert set(pd.read_csv(study / "results/mydata/tables/metrics.csv")["task_id"]) == {"user-cancer", "user-titanic"}


def test_report_without_repeating_the_config_shows_every_table(study):
    res = _snakemake(study, "--report", "results/mydata/report.html", configfile=False)
    assert res.returncode == 0, res.stderr[-4000:]
    html = (study / "results/mydata/report.html").read_text()
    assert "data:text/csv" not in html  # tables are rendered pages, not downloads
    tables = sorted(p.stem for p in (study / "results/mydata/tables").glob("*.csv"))
    assert "boyd_aggregation_agreement" in tables and "boyd_aggregation_skew_groups" in tables
    rendered = sorted(p.stem for p in (study / "work/mydata/report").glob("*.html"))
    # a figure's source table (registry Figure.source) is shown as its figure, not as a page of its own
    tables = [t for t in tables if t not in {f.source.name for f in R.FIGURES if f.source is not None}]
    assert rendered == tables
    for name in tables:
        assert name in html, name
    tasks_page = (study / "work/mydata/report/tasks.html").read_text()
    assert "<td>1309</td>" in tasks_page and "1309.0000" not in tasks_page  # counts as integers
    # a study that did not run here: the message says exactly what to run
    other = _snakemake(study, "--report", "results/default/report.html", configfile=False)
    assert other.returncode != 0
    assert "snakemake --report results/mydata/report.html" in other.stdout + other.stderr


def test_a_failing_jobs_own_message_reaches_the_console(study):
    cfg = dict(CONFIG, boyd={**CONFIG["boyd"], "theory": True, "pr_prg": {"task": "user-nope"}})
    (study / "broken.yaml").write_text(yaml.safe_dump(cfg))
    res = subprocess.run(
        [str(SNAKEMAKE), "--snakefile", str(ROOT / "Snakefile"), "--directory", str(study), "--cores", "1",
         "--configfile", str(study / "broken.yaml"), "--until", "boyd_pr_prg"],
        capture_output=True, text=True, timeout=900,
    )
    assert res.returncode != 0
    out = res.stdout + res.stderr
    assert re.search(r"pr_prg\.log: prspace step: error: task 'user-nope' has no predictions; choose one of",
                     out), out[-3000:]


def _incomplete(workdir: Path) -> list[Path]:
    d = workdir / ".snakemake" / "incomplete"
    return [p for p in d.rglob("*") if p.is_file()] if d.is_dir() else []


def _predicting(workdir: Path) -> bool:
    """Whether a predict job has started: Snakemake has marked a prediction incomplete (each marker is
    named by its output's path, base64-encoded).  Not any marker: the task-list checkpoint marks its
    table too, and on a loaded machine the Ctrl-C then landed there instead."""
    import base64

    for p in _incomplete(workdir):
        try:
            name = base64.urlsafe_b64decode(p.name + "=" * (-len(p.name) % 4)).decode()
        except ValueError:
            continue
        if "/predictions/" in name:
            return True
    return False


def test_two_ctrl_c_during_a_run_leave_no_traceback_and_the_next_run_finishes(tmp_path):
    """Issue 15, item 4: "A second Ctrl-C during a run leaves a Snakemake traceback and
    .snakemake/incomplete markers".  A Ctrl-C to the whole process group (as a terminal sends it)
    while predict jobs run, then more of them every 50 ms until Snakemake has exited, so that
    one lands in every stage of its stop (waiting for the jobs, its summary, its exit handlers:
    a traceback was seen in each); then the same command again."""
    import os
    import signal
    import time

    (tmp_path / "data").mkdir()
    cancer = load_breast_cancer(as_frame=True).frame
    cancer["survived"] = cancer.pop("target").map({0: "malignant", 1: "benign"})
    for name in ("a", "b", "c"):
        cancer.to_csv(tmp_path / "data" / f"cancer_{name}.csv", index=False)
    # four of the slower learners, 3 folds: a predict job runs for seconds after it starts (its interpreter's
    # start-up, then 4 learners x 3 folds), so the first Ctrl-C, 1 s after a job started, lands in a running
    # job; the rerun predicts every task again (with 10 folds that rerun cost ~3x more and checked nothing more)
    cfg = dict(CONFIG, local={**CONFIG["local"], "learners": "svm-rbf-C1,gboost-50,rf-50,mlp-16", "folds": 3})
    (tmp_path / "mydata.yaml").write_text(yaml.safe_dump(cfg))
    args = [str(SNAKEMAKE), "--snakefile", str(ROOT / "Snakefile"), "--directory", str(tmp_path),
            "--cores", "2", "--configfile", str(tmp_path / "mydata.yaml")]

    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        # a predict job has started once Snakemake marks its output incomplete
        while not _predicting(tmp_path):
            assert proc.poll() is None, "the run ended before any job started"
            assert time.monotonic() < deadline, "no job started within 5 minutes"
            time.sleep(0.2)
        time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGINT)
        more = 0
        while proc.poll() is None and time.monotonic() < deadline + 300:
            time.sleep(0.05)
            try:
                os.killpg(proc.pid, signal.SIGINT)
                more += 1
            except ProcessLookupError:
                break
        out, _ = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode != 0, out[-3000:]
    assert "Traceback" not in out and "Exception ignored" not in out, out[-5000:]
    assert more >= 1, "Snakemake exited before a second Ctrl-C"
    assert "Terminating processes on user request" in out, out[-3000:]
    assert out.count("prspace workflow: already stopping") == 1, out[-3000:]
    logs = list((tmp_path / "work" / "mydata" / "logs").rglob("*.log"))
    assert logs
    for log in logs:
        assert "Traceback" not in log.read_text(errors="replace"), (log, log.read_text()[-3000:])
    # nothing half-written: every prediction status there is complete JSON naming a readable file
    from prspace.core.contracts import read_status
    from prspace.core.schema import read_predictions

    for status in (tmp_path / "work" / "mydata" / "predictions").glob("*.json"):
        s = read_status(status)
        if s.status == "ok":
            assert len(read_predictions(tmp_path / s.predictions)) > 0
    left = [p for p in (tmp_path / "work").rglob(".*.part")] + [p for p in (tmp_path / "results").rglob(".*.part")]
    assert not left, f"half-written files left: {left}"

    # up to the metrics table: the interrupted stage is the predictions (the analysis after them is the
    # module study's, checked above)
    again = subprocess.run([*args, "--until", "collect"], capture_output=True, text=True, timeout=1700)
    assert again.returncode == 0, (again.stdout + again.stderr)[-4000:]
    assert "Traceback" not in again.stdout + again.stderr
    assert _incomplete(tmp_path) == []
    metrics = pd.read_csv(tmp_path / "results" / "mydata" / "tables" / "metrics.csv")
    assert set(metrics["task_id"]) == {f"user-cancer_{n}" for n in "abc"}, sorted(set(metrics["task_id"]))


def test_a_two_dataset_study_opens_with_your_data_and_tells_no_share(study):
    """Issue 31: a study of a user's own 2 datasets answers the user's question first (per task, which
    learner each metric picks, whether they agree, how many models could be the best) and gives no
    verdict on Flach & Kull's shares from 2 families: every share row says 'cannot be told: 2 families'."""
    v = pd.read_csv(study / "results/mydata/tables/verdicts.csv", keep_default_na=False, na_values=[""])
    shares = v[v["kind"] == "share"]  # Flach & Kull's six, and this project's at the paper-like pi
    assert sorted(shares.loc[shares["role"] == "primary", "claim_id"]) == sorted(
        f"fk.{p}.{k}" for p in ("aupr_auprg", "aupr_auroc", "auprg_auroc") for k in ("top1", "top3"))
    assert (shares["n_families"] == 2).all()
    assert (shares["verdict"] == "cannot be told: 2 families").all(), shares[["claim_id", "verdict"]]
    # the exact binomial interval over tasks is in the explanation
    assert shares["explanation"].str.contains("exact").all()
    summary = (study / "results/mydata/summary.md").read_text()
    first = summary.index("**Your data first**")
    assert first < summary.index("Flach & Kull")
    metrics = pd.read_csv(study / "results/mydata/tables/metrics.csv")
    for task, g in metrics.groupby("task_id"):
        best = g.sort_values("aupr", ascending=False).iloc[0]
        assert f"| {task} |" in summary and best["model_id"] in summary


def _edited_code(tmp_path: Path, module: str) -> dict[str, str]:
    """An environment whose prspace is a copy of this one with ``module`` (a path under
    src/prspace) edited by a comment: the code a rule runs changes, its command line does not."""
    src = Path(shutil.copytree(ROOT / "src", tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__")))
    with open(src / "prspace" / module, "a", encoding="utf-8") as fh:
        fh.write("\n# edited\n")
    return {**os.environ, "PYTHONPATH": str(src)}


@pytest.mark.parametrize(
    ("module", "predicted", "figures"),
    [("local/learners.py", True, True),  # a learner: every task predicted again, and all that follows
     ("figures/study.py", False, True),  # a figure: only the figures are drawn again
     ("audit/report/render.py", False, False)],  # code no rule runs: nothing
)
def test_a_rule_reruns_when_the_code_it_runs_changes(study, tmp_path, module, predicted, figures):
    # the cause of 2026-11-25's failed `make verify`: predictions of an older learner code survived a pull
    env = _edited_code(tmp_path, module)
    res = subprocess.run([str(SNAKEMAKE), "--snakefile", str(ROOT / "Snakefile"), "--directory", str(study),
                          "--cores", "1", "--configfile", str(study / "mydata.yaml"), "-n"],
                         capture_output=True, text=True, timeout=600, env=env)
    assert res.returncode == 0, res.stderr[-4000:]
    jobs = _jobs(res)
    assert sorted(t for rule, t in jobs if rule == "predict") == (["user-cancer", "user-titanic"] if predicted else [])
    assert any(rule.startswith("figure_") for rule, _ in jobs) is figures
    assert bool(jobs) is (predicted or figures)
    if jobs:
        assert "Params have changed" in res.stdout + res.stderr

"""End to end: an OpenML study through the whole workflow (Snakemake) against the loopback server.

The server follows the live listing rules (1,000 rows a call, 516 above, 513 without a limit) and
one task has more than 1,000 runs.  Checked: the study completes and builds the report; it selects
the tasks with >= 30 flows; each has 30 models from distinct flows whose scores equal the server's
files (read by liac-arff, the client's own parser); Boyd's fold skew and aggregation ran on the
fetched predictions and downsampling is left out with its reason; the self-check agrees with the
server's AUROC (computed by the server from the same files with the Mann-Whitney formula) and
reports the run whose server value the test made wrong; a warm-cache rerun of the fetch steps makes
zero requests; a replay of the manifest draws the same runs, with no listing call, after the server
gained runs.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import arff  # liac-arff: the openml client's own parser, an independent oracle
import numpy as np
import pandas as pd
import pytest
import yaml

sys.path.insert(0, str(Path(__file__).parents[1]))
from openml_server import FakeOpenML, make_runs, make_task  # noqa: E402
from prspace.core.contracts import read_task_list  # noqa: E402
from prspace.core.schema import read_predictions  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SNAKEMAKE = Path(sys.executable).with_name("snakemake")
STUDY = "openml-e2e"
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def _config(srv: FakeOpenML, cache: Path, *, study: str = STUDY, replay: Path | None = None) -> dict:
    return {
        "study": study,
        "source": "openml",
        "seed": 0,
        "openml": {"server": srv.url, "cache_dir": str(cache), "task_ids": [3001, 3002, 3003],
                   "min_flows": 30, "n_models": 30, "repeats": 0, "workers": 2,
                   "replay": str(replay) if replay else None},
        # the simulations at smoke sizes, as tests/workflow/test_local_workflow.py's (no test here reads them)
        "analysis": {"n_boot": 50, "figure_formats": ["png"], "verdicts": {"n_boot": 20000},
                     "calibration": {"n_sim": 10, "n_sim_null": 20, "sigmas": [0.3, 4], "sigmas_a": [1]},
                     "rank_sets": {"n_boot": 200, "n_sim": 10, "n_sim_null": 20, "sim_models": 4, "sim_boot": 100}},
        "boyd": {"fold_skew": {"min_positives": 20, "seeds": 1, "dispersions": [0.5, 0.9]},
                 "pr_prg": {"target_positives": 3},
                 "evidence": {"mechanism_n_sim": 50}},  # section 4.1's single-model check at smoke size
    }


def _snakemake(workdir: Path, config: dict, *extra: str) -> subprocess.CompletedProcess:
    cfg = workdir / f"config-{config['study']}.yaml"
    cfg.write_text(yaml.safe_dump(config))
    return subprocess.run(
        [str(SNAKEMAKE), "--snakefile", str(ROOT / "Snakefile"), "--directory", str(workdir),
         "--configfile", str(cfg), "--cores", "2", *extra],
        capture_output=True, text=True, timeout=800,
    )


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    big = make_task(3001, n_flows=34, runs_per_flow=30, n_rows=80, seed=1)  # 1,020 runs
    exact = make_task(3002, n_flows=30, n_rows=90, seed=2)  # exactly 30 flows: every run is drawn
    few = make_task(3003, n_flows=10, n_rows=60, seed=3)
    assert len(big.runs) > 1000
    wrong = exact.runs[4]
    wrong.auroc = round(1.0 - wrong.auroc, 6) if abs(wrong.auroc - 0.5) > 0.05 else wrong.auroc + 0.2
    workdir = tmp_path_factory.mktemp("openml-workflow")
    cache = workdir / "cache"
    with FakeOpenML([big, exact, few]) as srv:
        config = _config(srv, cache)
        res = _snakemake(workdir, config)
        assert res.returncode == 0, res.stderr[-5000:]
        first_paths = list(srv.paths)
        rep = _snakemake(workdir, config, "--report", f"results/{STUDY}/report.html")
        assert rep.returncode == 0, rep.stderr[-4000:]

        # warm cache: the select and fetch steps again, from scratch, make no request
        srv.reset_count()
        again = _snakemake(workdir, config, "--forcerun", "select_tasks", "predict", "--until", "predict")
        assert again.returncode == 0, again.stderr[-4000:]
        warm_requests = srv.count

        # the server gains runs (new flows on both tasks); a replay draws exactly the same runs
        rng = np.random.default_rng(9)
        for t in (big, exact):
            for r in make_runs(t, n_flows=5, first_flow=5000, first_run=t.task_id * 1000 + 90_000, rng=rng):
                t.runs.append(r)
                srv.add_run(r)
        manifest = workdir / "frozen-manifest.json"
        shutil.copy(workdir / "results" / STUDY / "openml-manifest.json", manifest)
        srv.reset_count()
        replay = _snakemake(workdir, _config(srv, cache, study="openml-e2e-replay", replay=manifest),
                            "--until", "openml_manifest")
        assert replay.returncode == 0, replay.stderr[-4000:]
        replay_paths = list(srv.paths)
        fresh = _snakemake(workdir, _config(srv, workdir / "cache2", study="openml-e2e-fresh"),
                           "--until", "openml_manifest")
        assert fresh.returncode == 0, fresh.stderr[-4000:]
    return {"dir": workdir, "tasks": {t.task_id: t for t in (big, exact, few)}, "wrong": wrong,
            "first_paths": first_paths, "warm_requests": warm_requests, "replay_paths": replay_paths,
            "manifest": manifest}


def test_pages_follow_the_live_limits(study):
    runs = [p for p in study["first_paths"] if "/run/list/" in p]
    assert runs and all("/limit/1000/" in p for p in runs)  # never above the cap, never without a limit
    big = [p for p in runs if "/task/3001/" in p]
    assert any("/offset/1000/" in p for p in big)  # the task of 1,020 runs needed a second page


def test_selects_tasks_with_30_flows_and_draws_30_distinct_flows_matching_the_server_files(study):
    d, tasks = study["dir"], study["tasks"]
    table = read_task_list(d / "work" / STUDY / "tasks.csv")
    assert sorted(table.loc[table.selected, "task_id"]) == ["openml-3001", "openml-3002"]
    few = table.set_index("task_id").loc["openml-3003"]
    assert not few.selected and "10 flows" in few.reason
    for tid in (3001, 3002):
        t = tasks[tid]
        row = table.set_index("task_id").loc[f"openml-{tid}"]
        assert row.n == len(t.y) and row.n_pos == int((t.y == 1).sum())  # class sizes from the listing qualities
        df, info = read_predictions(d / "work" / STUDY / "predictions" / f"openml-{tid}.parquet")
        assert info.n_models == 30 and df.groupby("model_id")["flow_id"].first().nunique() == 30
        runs = {r.run_id: r for r in t.runs}
        for mid, g in df.groupby("model_id"):
            body = runs[int(mid.removeprefix("run-"))].arff.decode()
            a = arff.loads(body)
            ref = pd.DataFrame(a["data"], columns=[x[0] for x in a["attributes"]])
            ref = ref.sort_values("row_id")[f"confidence.{info.positive_class}"].to_numpy(dtype=float)
            np.testing.assert_array_equal(g.sort_values("row_id")["score"].to_numpy(), ref)


def test_boyd_experiments_ran_on_fetched_predictions_and_downsampling_is_left_out_with_reason(study):
    tables = study["dir"] / "results" / STUDY / "tables"
    fs = pd.read_csv(tables / "boyd_fold_skew_per_task.csv", dtype={"task_id": str})
    assert set(fs["task_id"]) == {"openml-3001", "openml-3002"}
    agg = pd.read_csv(tables / "boyd_aggregation_tasks.csv", dtype={"task_id": str})
    assert {"openml-3001", "openml-3002"} <= set(agg["task_id"])
    notes = pd.read_csv(tables / "openml_study.csv").set_index("item")["value"]
    assert "raw features" in notes["Boyd downsampling (section 4.3)"]
    assert not (tables / "boyd_downsampling_table3.csv").exists()
    report = (study["dir"] / "results" / STUDY / "report.html").read_bytes()
    assert len(report) > 10_000 and b"openml_selfcheck" in report


def test_selfcheck_agrees_with_the_server_and_reports_the_wrong_run(study):
    tables = study["dir"] / "results" / STUDY / "tables"
    checks = pd.read_csv(tables / "openml_selfcheck.csv", dtype={"task_id": str, "model_id": str})
    assert checks["model_id"].nunique() == 60
    assert set(checks["scope"]) == {"overall", "fold"}
    bad = checks[~checks["agrees"]]
    wrong = f"run-{study['wrong'].run_id}"
    assert set(bad["model_id"]) == {wrong} and set(bad["scope"]) == {"overall"}
    good = checks[checks["agrees"]]
    assert good["abs_diff"].max() <= 5.1e-7  # the server prints 6 decimals
    summary = pd.read_csv(tables / "openml_selfcheck_summary.csv").set_index("statistic")["value"]
    assert int(summary["runs compared"]) == 60
    assert int(summary["runs differing by more than 0.0001"]) == 1
    assert "likely cause" in summary[f"openml-3002 {wrong}"]
    card = pd.read_csv(tables / "scorecard.csv")
    sc = card[card.comparison == "OpenML self-check (AUROC)"].set_index("statistic")["this_run"]
    assert sc["runs compared"] == 60 and sc["runs differing by more than 0.0001"] == 1


def test_warm_cache_rerun_makes_no_request(study):
    assert study["warm_requests"] == 0


def test_replay_draws_the_same_runs_without_listing_after_the_server_gained_runs(study):
    d = study["dir"]
    frozen = json.loads(study["manifest"].read_text())
    replayed = json.loads((d / "results" / "openml-e2e-replay" / "openml-manifest.json").read_text())
    fresh = json.loads((d / "results" / "openml-e2e-fresh" / "openml-manifest.json").read_text())

    def runs(m):
        return {t["task_id"]: [(r["run_id"], r["sha256"]) for r in t["runs"]] for t in m["tasks"]}

    assert frozen["server"] and frozen["client"].startswith("openml-python") and frozen["created_at"]
    assert runs(replayed) == runs(frozen)
    assert runs(fresh) != runs(frozen)  # a fresh draw sees the new flows
    assert not [p for p in study["replay_paths"] if "/list/" in p]  # no listing call in the replay

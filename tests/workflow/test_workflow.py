"""End to end: the whole workflow on the reduced configuration, through Snakemake, in a tmp dir
(run once per session by tests/conftest.py's ``reduced_study``).

tests/fixtures/config-reduced.yaml: four small embedded datasets, the small learner panel,
3-fold CV.  The outputs' content is checked against oracles: the metrics table against
prspace.metrics recomputed from the predictions, the ranks against scipy's rankdata, the
disagreement shares against the per-task table, and AUPR vs AUCNPR within a task must
never disagree.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats

from prspace import metrics as M
from prspace.cli import main
from prspace.core import registry as R
from prspace.core.output import CSV_SIGNIFICANT
from prspace.core.schema import read_predictions
from prspace.experiments.noise import rank_sets as RS
from prspace.metrics.names import FK_PAIRS
from prspace.stats.pairwise import JACK_HOLM, rank_set_method
from prspace.stats.resampling import JACK_GROUPS

ROOT = Path(__file__).resolve().parents[2]
SNAKEMAKE = Path(sys.executable).with_name("snakemake")
CONFIG = ROOT / "tests" / "fixtures" / "config-reduced.yaml"
STUDY = yaml.safe_load(CONFIG.read_text())["study"]
CSV_REL = 0.5 * 10.0 ** (1 - CSV_SIGNIFICANT)  # half a unit in the last written digit, relative
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


def _snakemake(workdir: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(SNAKEMAKE), "--snakefile", str(ROOT / "Snakefile"), "--directory", str(workdir),
         "--configfile", str(CONFIG), "--cores", "2", *extra],
        capture_output=True, text=True, timeout=1700,
    )


@pytest.fixture
def run(reduced_study) -> Path:
    """The reduced study run once per session, report built (tests/conftest.py; tests/workflow/test_slurm.py
    compares its SLURM run with the same folder): read it, never write to it."""
    return reduced_study


def _ids() -> dict:
    return {c: str for c in ("task_id", "model_id", "flow_id", "flow_name")}


def test_outputs_of_the_study_are_under_its_name(run):
    tables = run / "results" / STUDY / "tables"
    for name in ("metrics.csv", "tasks.csv", "tasks.md", "disagreement_per_task.csv", "disagreement_summary.csv",
                 "disagreement_summary.md", "scorecard.csv", "scorecard.md", "learner_ranking.csv",
                 "learner_agreement.csv", "figure_selection.csv"):
        assert (tables / name).stat().st_size > 0, name
    for name in ("fig4_rank_heatmap", "fig4_auprg_vs_aupr", "fig5_curves"):
        for ext in ("png", "pdf"):
            path = run / "results" / STUDY / "figures" / f"{name}.{ext}"
            assert path.stat().st_size > 5000, path
        assert (run / "results" / STUDY / "figures" / f"{name}.png").read_bytes()[:4] == b"\x89PNG"
    # Figure 5's PR and PRG bands (issue 25): written by figure-data at the configured level and resamples
    bands = pd.read_csv(run / "work" / STUDY / "figure_data" / "fig5_curve_bands.csv")
    assert set(bands["kind"]) == {"pr", "prg"} and bands["curve"].nunique() == 2
    assert (bands["level"] == 0.95).all() and (bands["n_resamples"] == 1000).all()
    assert (bands["sim_lo"] <= bands["estimate"]).all() and (bands["estimate"] <= bands["sim_hi"]).all()
    # every rule left a log and a benchmark
    assert list((run / "work" / STUDY / "logs").rglob("*.log"))
    assert list((run / "work" / STUDY / "benchmarks").rglob("*.tsv"))


def test_metrics_table_equals_metrics_recomputed_from_predictions(run):
    metrics = pd.read_csv(run / "results" / STUDY / "tables" / "metrics.csv", dtype=_ids())
    config = yaml.safe_load(CONFIG.read_text())
    assert sorted(metrics.task_id.unique()) == sorted(config["local"]["datasets"])
    n_checked = 0
    for task, sub in metrics.groupby("task_id"):
        df, info = read_predictions(run / "work" / STUDY / "predictions" / f"{task}.parquet")
        assert len(sub) == info.n_models
        for _, row in sub.iterrows():
            g = df[df.model_id == row.model_id]
            ref = M.all_metrics(g.y_true.to_numpy(), g.score.to_numpy())
            for m in ("auroc", "average_precision", "aupr", "aupr_linear", "aucnpr", "auprg"):
                # the table carries CSV_SIGNIFICANT digits (prspace.core.output's precision policy)
                assert row[m] == pytest.approx(ref[m], rel=CSV_REL, abs=1e-12), (task, row.model_id, m)
            assert row.pi == pytest.approx(info.pi, rel=CSV_REL)
            folds = [M.all_metrics(f.y_true.to_numpy(), f.score.to_numpy())["aupr"] for _, f in g.groupby("fold")]
            assert row.aupr_fold_mean == pytest.approx(np.mean(folds), rel=CSV_REL)
            assert row.n_folds == config["local"]["folds"]
            n_checked += 1
    assert n_checked == len(metrics) > 0


def test_ranks_follow_the_metrics(run):
    metrics = pd.read_csv(run / "results" / STUDY / "tables" / "metrics.csv", dtype=_ids())
    ranks = pd.read_csv(run / "work" / STUDY / "ranks.csv", dtype=_ids())
    for task, sub in metrics.groupby("task_id"):
        r = ranks[ranks.task_id == task].set_index("model_id").loc[sub.model_id]
        for m in ("aupr", "auprg", "auroc", "aucnpr", "average_precision"):
            np.testing.assert_array_equal(r[m].to_numpy(), stats.rankdata(-sub[m].round(12).to_numpy()))


def test_aupr_and_aucnpr_never_disagree_within_a_task(run):
    per = pd.read_csv(run / "results" / STUDY / "tables" / "disagreement_per_task.csv", dtype={"task_id": str})
    pair = per[(per.metric_a == "aupr") & (per.metric_b == "aucnpr")]
    assert len(pair) == per.task_id.nunique() > 0
    assert not pair.top1_differs.any() and not pair.top3_differs.any()
    np.testing.assert_allclose(pair.spearman, 1.0)


def test_summary_and_scorecard_agree_with_per_task_table(run):
    tables = run / "results" / STUDY / "tables"
    per = pd.read_csv(tables / "disagreement_per_task.csv", dtype={"task_id": str})
    summary = pd.read_csv(tables / "disagreement_summary.csv")
    card = pd.read_csv(tables / "scorecard.csv")
    assert len(summary) == 10  # every pair of the 5 metrics
    for _, s in summary.iterrows():
        sub = per[(per.metric_a == s.metric_a) & (per.metric_b == s.metric_b)]
        assert s.top1_share == pytest.approx(sub.top1_differs.mean())
        assert s.top3_share == pytest.approx(sub.top3_differs.mean())
        assert s.top1_lo <= s.top1_share <= s.top1_hi
    row = card[(card.comparison == "AUPR vs AUPRG") & card.statistic.str.startswith("top-1")].iloc[0]
    assert row.paper == 0.24
    s = summary[(summary.metric_a == "aupr") & (summary.metric_b == "auprg")].iloc[0]
    assert row.this_run == pytest.approx(s.top1_share)
    assert card.this_source.str.contains("local learners").all()
    assert card.paper_source.str.contains("OpenML, 886 tasks").all()


def test_rank_sets_are_consistent_with_the_metrics_and_reach_the_verdicts(run):
    tables = run / "results" / STUDY / "tables"
    metrics = pd.read_csv(tables / "metrics.csv", dtype=_ids())
    rs = pd.read_csv(tables / "rank_sets.csv", dtype={"task": str, "model": str})
    cfg = yaml.safe_load(CONFIG.read_text())["analysis"]["rank_sets"]
    per_task = sorted(p.stem for p in (run / "work" / STUDY / "rank_sets").glob("*.csv"))
    assert per_task == sorted(metrics.task_id.unique())
    for (task, metric), g in rs.groupby(["task", "metric"]):
        m = metrics[metrics.task_id == task].set_index("model_id")
        assert sorted(g.model) == sorted(m.index)
        np.testing.assert_allclose(g.estimate, m.loc[g.model, metric], rtol=CSV_REL)
        assert (g.plausible_best == (g.rank_lo == 1)).all() and g.plausible_best.any()
        assert ((1 <= g.rank_lo) & (g.rank_lo <= g.rank_hi) & (g.rank_hi <= len(g))).all()
        # the model(s) with the best estimate are always plausible best
        assert g.loc[g.estimate == g.estimate.max(), "plausible_best"].all()
        # the rank-set rule: bootstrap max-T resamples, or the jackknife's replicates (AP, AUPR)
        method = RS.METHOD_LABELS[rank_set_method(metric)]
        assert (g.method == method).all()
        if rank_set_method(metric) == JACK_HOLM:
            assert ((2 <= g.n_resamples) & (g.n_resamples <= JACK_GROUPS + 2)).all() and g.critical.isna().all()
        else:
            assert (g.n_resamples <= cfg["n_boot"]).all()
    summary = pd.read_csv(tables / "rank_set_summary.csv")
    per = pd.read_csv(tables / "disagreement_per_task.csv", dtype={"task_id": str})
    assert len(summary) == 3
    for _, s in summary.iterrows():
        best = {x: rs[rs.metric == x].groupby("task").apply(lambda d: set(d.model[d.plausible_best]))
                for x in (s.metric_a, s.metric_b)}
        disjoint = sum(not (best[s.metric_a][t] & best[s.metric_b][t]) for t in best[s.metric_a].index)
        assert s.n_disjoint == disjoint and s.n_tasks == len(per_task)
        plain = per[(per.metric_a == s.metric_a) & (per.metric_b == s.metric_b)]
        assert s.n_top1_differs == plain.top1_differs.sum()  # the plain top-1 of the rank step
        assert s.disjoint_lo <= s.disjoint_share <= s.disjoint_hi
        assert s.n_disjoint <= s.n_top1_differs  # disjoint best sets imply different best models
    cal = pd.read_csv(tables / "rank_set_calibration.csv")
    assert set(cal.scenario) >= {"null_equal", "null_ranking", "reversal"}
    verdicts = pd.read_csv(tables / "verdicts.csv", keep_default_na=False, na_values=[""])
    rows = verdicts[verdicts.claim_id.str.endswith(".rank_sets.disjoint")]
    assert sorted(rows.claim_id) == ["px.aupr_auprg.rank_sets.disjoint", "px.aupr_auroc.rank_sets.disjoint",
                                     "px.auprg_auroc.rank_sets.disjoint"]
    assert (rows.k == summary.sort_values(["metric_a", "metric_b"]).n_disjoint.to_numpy()).all()
    assert "rank_sets.n_boot" in (run / "results" / STUDY / "findings.md").read_text()


def test_cd_order_rows_reach_the_verdicts(run):
    """Rule verdicts reads cd_metric_pairs.csv: one px.<a>_<b>.cd.order row per metric pair whose
    p-value is the table's and whose verdict follows it (p < alpha: differs beyond noise)."""
    tables = run / "results" / STUDY / "tables"
    pairs = pd.read_csv(tables / "cd_metric_pairs.csv")
    verdicts = pd.read_csv(tables / "verdicts.csv", keep_default_na=False, na_values=[""])
    common = verdicts[verdicts.claim_id == "px.all_different.cd.order"]  # this project's intersection-union row
    rows = verdicts[verdicts.claim_id.str.endswith(".cd.order") & (verdicts.claim_id != "px.all_different.cd.order")
                    ].set_index("claim_id")
    assert len(rows) == len(pairs) == 6  # the 4 metrics the cd job ranks by, every pair
    fk_p = [p.p_value for p in pairs.itertuples()
            if (p.metric_a, p.metric_b) in FK_PAIRS or (p.metric_b, p.metric_a) in FK_PAIRS]
    assert len(common) == 1 and common.iloc[0].role == "exploratory"
    assert common.iloc[0].estimate == pytest.approx(max(fk_p), rel=CSV_REL)  # the largest of Flach & Kull's pairs
    for _, p in pairs.iterrows():
        key = f"{p.metric_b}_{p.metric_a}" if (p.metric_b, p.metric_a) in FK_PAIRS else f"{p.metric_a}_{p.metric_b}"
        r = rows.loc[f"px.{key}.cd.order"]
        assert r.kind == "test" and r.estimate == pytest.approx(p.p_value, rel=CSV_REL) and r.n_tasks == p.n_tasks
        # the rule of issue 31: a p-value at or above alpha from a test of power below 0.5 cannot tell
        quiet = ("within noise" if p.power_planted_reversal >= 0.5
                 else f"cannot be told: the check has power {p.power_planted_reversal:.2f} here")
        assert r.power == pytest.approx(p.power_planted_reversal, rel=CSV_REL)
        assert r.verdict == ("differs beyond noise" if p.p_value < p.alpha else quiet)
        assert f"false rate {p.false_rate:.3f}" in r.explanation
    # AUCNPR orders every task's learners as AUPR does (up to ties at 12 decimals): never beyond noise
    assert rows.loc["px.aupr_aucnpr.cd.order", "verdict"] != "differs beyond noise"


def test_tables_are_reproduced_exactly(run, tmp_path):
    tables = run / "results" / STUDY / "tables"
    cfg = yaml.safe_load(CONFIG.read_text())
    code = main(["step", "rank", "--in", f"metrics={tables / 'metrics.csv'}", "--in", f"tasks={tables / 'tasks.csv'}",
                 "--set", f"metrics={json.dumps(cfg['analysis']['metrics'])}",
                 "--set", f"n_boot={cfg['analysis']['n_boot']}", "--set", f"seed={cfg['seed']}",
                 "--in", f"floors={tables / 'noise_floor_per_task.csv'}",
                 "--in", f"pairs={tables / 'noise_floor_pairs.csv'}",
                 "--tables-dir", str(tmp_path), "--out", f"ranks={tmp_path / 'ranks.csv'}"])
    assert code == 0
    for name in ("disagreement_per_task.csv", "disagreement_summary.csv", "disagreement_summary.md",
                 "scorecard.csv", "scorecard.md", "learner_ranking.csv", "learner_agreement.csv"):
        assert (tmp_path / name).read_bytes() == (tables / name).read_bytes(), name


def test_report_has_every_table_and_figure_with_captions(run):
    html = (run / "results" / STUDY / "report.html").read_text()
    for needle in ("fig4_rank_heatmap", "fig5_curves", "Replication scorecard", "AUPRG rank against AUPR rank",
                   "Learners ranked across tasks"):
        assert needle in html, needle
    # every table of the study is in the report as a rendered page, Boyd's included (issue 15)
    tables = sorted(p.stem for p in (run / "results" / STUDY / "tables").glob("*.csv"))
    assert {"boyd_aggregation_agreement", "boyd_aggregation_skew_groups", "boyd_fig_pr_prg_source",
            "boyd_fold_skew_per_task"} <= set(tables)
    # a figure's source table (registry Figure.source: the numbers the figure draws) is shown as its figure
    sources = {f.source.name for f in R.FIGURES if f.source is not None}
    assert sorted(p.stem for p in (run / "work" / STUDY / "report").glob("*.html")) == [t for t in tables if t not in sources]
    assert "data:text/csv" not in html
    # the Figure 5 caption says what its bands are, from the configuration (Jinja in the caption)
    assert "95% bootstrap bands from" in html and "snakemake.config" not in html


def test_progress_lines_estimate_the_time_left(run):
    """After each of Snakemake's "k of n steps (p%) done" comes "k of n jobs, ~X min left" (prspace.study.eta),
    with the same k and n; the last says less than a minute."""
    logs = sorted((run / ".snakemake" / "log").glob("*.snakemake.log"), key=lambda p: p.stat().st_mtime)
    text = next(t for t in (p.read_text() for p in logs) if "steps (" in t and "select_tasks" in t)
    lines = text.splitlines()
    steps = [i for i, line in enumerate(lines) if re.fullmatch(r"\d+ of \d+ steps \(\d+%\) done", line)]
    assert len(steps) > 10
    for i in steps:
        k, n = re.match(r"(\d+) of (\d+)", lines[i]).groups()
        assert re.fullmatch(rf"{k} of {n} jobs, (~\d+ min|<1 min) left", lines[i + 1]), lines[i:i + 2]
    assert lines[steps[-1] + 1].endswith("<1 min left") and lines[steps[-1]].startswith(f"{n} of {n}")
    minutes = [int(m) for m in re.findall(r"jobs, ~(\d+) min left", text)]
    assert minutes and max(minutes) >= 1  # a real estimate, not a constant


def test_rerun_has_nothing_to_do(run):
    res = _snakemake(run, "-n")
    assert res.returncode == 0
    assert "Nothing to be done" in res.stdout + res.stderr


def _planned(out: str, *, per_task: bool = True) -> set[str]:
    """The rules of the jobs a Snakemake log (of a run or a dry run) lists; ``per_task=False``: only
    the rules of whole-study jobs (a dry run cannot list the per-task jobs behind the task-list
    checkpoint while that is to run again)."""
    rules = set()
    for block in re.split(r"\n(?=(?:local)?(?:rule|checkpoint) \w+:)", out):
        m = re.match(r"(?:local)?(?:rule|checkpoint) (\w+):", block)
        if m and (per_task or "wildcards: task=" not in block):
            rules.add(m.group(1))
    return rules


def test_committed_results_without_predictions_are_recomputed(run, tmp_path):
    """A fresh clone has the committed results/ but no work/ (git-ignored): the study must be
    recomputed from its data (its predictions are targets of `rule all`), not found up to date.
    The predictions are made again (a real run of them: they come after the task-list checkpoint,
    which a dry run cannot see past); then a dry run plans every rule that depends on them (the rest
    of the study, up to `all`), where an up-to-date study would plan none.
    (It ran the whole study a second time before: ~80% of this test's time, for the same check.)"""
    import shutil

    shutil.copytree(run / "results", tmp_path / "results")
    res = _snakemake(tmp_path, "-n")
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-3000:]
    assert "Nothing to be done" not in out
    assert "checkpoint select_tasks:" in out, out[-3000:]
    first = sorted(p.name for p in (run / "work" / STUDY / "predictions").glob("*.json"))
    assert len(first) == len(yaml.safe_load(CONFIG.read_text())["local"]["datasets"])
    again = _snakemake(tmp_path, *(f"work/{STUDY}/predictions/{name}" for name in first))
    assert again.returncode == 0, again.stderr[-3000:]
    assert "rule predict:" in again.stdout + again.stderr
    assert sorted(p.name for p in (tmp_path / "work" / STUDY / "predictions").glob("*.json")) == first
    rest = _snakemake(tmp_path, "-n")
    assert rest.returncode == 0, (rest.stdout + rest.stderr)[-3000:]
    # every rule that depends on the predictions, as a rerun of them in the session's run plans it
    session = _snakemake(run, "-n", "--forcerun", "predict")
    assert session.returncode == 0, (session.stdout + session.stderr)[-3000:]
    want = _planned(session.stdout + session.stderr, per_task=False)
    assert "all" in want and len(want) > 20, sorted(want)
    assert _planned(rest.stdout + rest.stderr) >= want, sorted(want - _planned(rest.stdout + rest.stderr))

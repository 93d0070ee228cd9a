"""The tables of the Boyd et al. steps (prspace.experiments.boyd.boyd_tables, boyd_steps), and what
`prspace step` writes from them.

Oracles: Theorem 2's closed form for Boyd's Table 3 check; the runs themselves (task counts, the
summary's columns as Boyd's Table 3 lays them out, the full CSV beside the narrower Markdown); the
written files read back.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from threadpoolctl import threadpool_limits

from prspace.cli import main
from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.experiments.boyd import boyd_tables as bt
from prspace.experiments.boyd import downsampling as ds
from prspace.experiments.boyd import fold_skew as fs
from prspace.experiments.steps.boyd_steps import read_runs


def _aupr_min(pi: float) -> float:
    """Boyd et al. Theorem 2, written out: AUCPR_MIN = 1 + (1 - pi) ln(1 - pi) / pi."""
    return 1.0 + (1.0 - pi) * np.log(1.0 - pi) / pi


def _score(model, X):
    return model.predict_proba(X)[:, list(model.classes_).index(True)]


@pytest.fixture(scope="module")
def ds_runs() -> pd.DataFrame:
    frames = []
    for task, seed in (("syn-a", 0), ("syn-b", 1)):
        rng = np.random.default_rng(seed)
        X = np.r_[rng.normal(1.0, 1, (40, 3)), rng.normal(0, 1, (400, 3))]
        y = np.r_[np.ones(40, bool), np.zeros(400, bool)]
        with threadpool_limits(limits=1):
            frames.append(ds.downsampling_experiment(
                X, y, {"logreg": lambda s: LogisticRegression(), "gnb": lambda s: GaussianNB()}, score=_score,
                ratios=(1, 4), n_folds=3, repeats=1, seed=seed, task_id=task))
    return pd.concat(frames, ignore_index=True)


@pytest.fixture(scope="module")
def fs_runs() -> pd.DataFrame:
    rng = np.random.default_rng(2)
    frames = []
    for task in ("t1", "t2", "t3"):
        n, n_pos, k = 300, 60, 5
        y = np.r_[np.ones(n_pos, bool), np.zeros(n - n_pos, bool)]
        fold = np.r_[rng.permutation(np.arange(n_pos) % k), rng.permutation(np.arange(n - n_pos) % k)]
        preds = pd.concat([pd.DataFrame({"task_id": task, "model_id": m, "flow_id": m, "flow_name": m, "repeat": 0,
                                         "fold": fold, "row_id": np.arange(n), "y_true": y,
                                         "score": rng.normal(0, 1, n) + sep * y})
                           for m, sep in (("weak", 0.5), ("strong", 2.0))], ignore_index=True)
        frames.append(fs.fold_skew_experiment(preds, dispersions=(0.5,), seeds=2, seed=0))
    return pd.concat(frames, ignore_index=True)


def test_paper_tables_note_the_largest_difference_from_theorem_2():
    report = bt.paper_tables_report()
    assert [t.table for t in report.tables] == [R.BOYD_TABLE3_CHECK, R.BOYD_TABLE2_CHECK]
    t3 = report.tables[0].frame
    lo = np.array([_aupr_min(pi) for pi in t3["test_pi"]])
    recomputed = (t3["aucpr_published"].to_numpy() - lo) / (1 - lo)
    worst = np.max(np.abs(recomputed - t3["aucnpr_published"].to_numpy()))
    assert worst < 0.002  # three published decimals
    assert f"Largest |difference|: {worst:.4f}" in report.tables[0].note
    assert report.figure_data == [] and report.warnings == []


def test_downsampling_report_tables(ds_runs):
    report = bt.downsampling_report(ds_runs, study="s1", criteria="pi <= 0.1")
    assert [t.table for t in report.tables] == [R.BOYD_DOWNSAMPLING_TABLE3, R.BOYD_DOWNSAMPLING_SUMMARY,
                                                R.BOYD_DOWNSAMPLING_VS_PAPER]
    per_task, full, _ = (t.frame for t in report.tables)
    summary = report.tables[1].markdown
    # one row per task x learner x training ratio ('original' = the task's own ratio)
    assert len(per_task) == 2 * 2 * 3
    assert "2 tasks (pi <= 0.1); source: study s1" in report.tables[0].note
    # the Markdown shows Boyd's layout; the CSV keeps every column of the summary
    assert list(summary.columns[:5]) == ["learner", "train_ratio", "n_tasks", "n_learners", "downsampled_test_pi"]
    # the sample beside the rows: learners counted per row and named in the note
    want = {lr: (ds_runs["learner"].nunique() if lr == "all learners" else 1) for lr in summary["learner"]}
    assert summary["n_learners"].tolist() == [want[lr] for lr in summary["learner"]]
    names = ", ".join(sorted(ds_runs["learner"].unique()))
    assert f"Sample: 2 tasks (pi <= 0.1), {ds_runs['learner'].nunique()} learners ({names})" in report.tables[1].note
    assert set(summary.columns) < set(full.columns)
    for m in ds.METRICS:
        assert {f"downsampled_{m}", f"original_{m}", f"gap_{m}", f"gap_{m}_sd"} <= set(summary.columns)
    assert (summary["n_tasks"] == 2).all()
    fig = R.FIGURE_BOYD_DOWNSAMPLING
    assert [d for d, _ in report.figure_data] == [*fig.data, fig.text] and report.warnings == []
    # the figure's axis: every training ratio in the summary's order, AUCPR_MIN at 1/(1+k) (Theorem 2)
    axis = dict(report.figure_data)[R.BOYD_DOWNSAMPLING_AXIS]
    k = axis["train_k"].to_numpy()
    finite = k != ds.ORIGINAL
    np.testing.assert_allclose(axis["aupr_min"].to_numpy()[finite], [_aupr_min(1 / (1 + v)) for v in k[finite]],
                               atol=1e-12)


def test_fold_skew_report_counts_tasks(fs_runs):
    report = bt.fold_skew_report(fs_runs, study="s2", criteria="at least 5 positives")
    assert [t.table for t in report.tables] == [R.BOYD_FOLD_SKEW_SUMMARY, R.BOYD_FOLD_SKEW_PER_TASK]
    assert "3 tasks (at least 5 positives); study s2." in report.tables[0].note
    assert set(report.tables[1].frame["task_id"]) == {"t1", "t2", "t3"}


@pytest.mark.parametrize("make,step,figure", [
    (bt.downsampling_report, R.STEP_BOYD_DOWNSAMPLING_REPORT, R.FIGURE_BOYD_DOWNSAMPLING),
    (bt.fold_skew_report, R.STEP_BOYD_FOLD_SKEW_REPORT, R.FIGURE_BOYD_FOLD_SKEW),
])
def test_no_qualifying_task_gives_empty_tables_that_say_why(make, step, figure):
    report = make(pd.DataFrame(), study="s3", criteria="crit")
    (warning,) = report.warnings
    assert tuple(t.table for t in report.tables) == step.tables
    assert all(t.frame.empty and t.note == warning for t in report.tables)
    assert warning.startswith("No task of study s3 qualified") and "(crit)" in warning
    assert [d for d, _ in report.figure_data] == [*figure.data, figure.text]
    text = dict(report.figure_data)[figure.text]
    assert text["field"].tolist() == ["message"] and text["text"].iloc[0] == warning


def test_read_runs_names_a_missing_file_and_drops_empty_ones(tmp_path, ds_runs):
    ds_runs.to_parquet(tmp_path / "a.parquet")
    ds_runs.iloc[:0].to_parquet(tmp_path / "b.parquet")
    assert len(read_runs([tmp_path / "a.parquet", tmp_path / "b.parquet"])) == len(ds_runs)
    assert read_runs([]).empty
    with pytest.raises(InputError, match="no runs file at .*c.parquet"):
        read_runs([tmp_path / "c.parquet"])


def test_command_writes_the_narrow_markdown_and_the_full_csv(tmp_path, ds_runs):
    ds_runs.to_parquet(tmp_path / "runs.parquet")
    code = main(["step", R.STEP_BOYD_DOWNSAMPLING_REPORT.name, "--in", f"runs={tmp_path / 'runs.parquet'}",
                 "--tables-dir", str(tmp_path / "t"), "--figure-data-dir", str(tmp_path / "f"), "--set", 'study="s"'])
    assert code == 0
    csv = pd.read_csv(tmp_path / "t" / "boyd_downsampling_summary.csv")
    md = (tmp_path / "t" / "boyd_downsampling_summary.md").read_text()
    table = bt.downsampling_report(ds_runs).tables[1]
    full = table.frame
    assert list(csv.columns) == list(full.columns)
    extra = [c for c in full.columns if c not in table.markdown.columns]
    assert "| learner | train_ratio | n_tasks |" in md
    assert extra and not any(f"| {c} |" in md for c in extra)
    f = tmp_path / "f"
    assert main(["figure", "boyd_downsampling", "--tables", *[str(f / f"boyd_downsampling_{n}.csv") for n in
                                                             ("levels", "axis", "paper")],
                 "--text", str(f / "boyd_downsampling_text.csv"), "--out", str(f / "fig.png"), "--formats", "png"]) == 0
    assert (f / "fig.png").stat().st_size > 0
    # the figure's table is the summary at full precision, read back bit for bit
    levels = pd.read_csv(f / "boyd_downsampling_levels.csv")
    np.testing.assert_array_equal(levels["gap_aupr"].to_numpy(), full["gap_aupr"].to_numpy())


def test_task_runs_skip_what_does_not_qualify_and_say_why(tmp_path):
    """One task's runs (the package functions `prspace boyd downsample` / `fold-skew` call): a task
    above max_pi or skipped upstream gives empty runs with a note; otherwise the experiment's runs."""
    import json

    from prspace.core.schema import TaskInfo, write_predictions

    rng = np.random.default_rng(3)
    X = np.r_[rng.normal(1.0, 1, (30, 2)), rng.normal(0, 1, (120, 2))]
    y = np.r_[np.ones(30, bool), np.zeros(120, bool)]
    learners = {"gnb": lambda s: GaussianNB()}
    runs, note = ds.task_runs(X, y, learners, score=_score, max_pi=0.1, ratios=(1,), n_folds=3, repeats=1)
    assert runs.empty and list(runs.columns) == ds.RUN_COLUMNS and note == "skipped: pi = 0.200 > max_pi = 0.1"
    runs, note = ds.task_runs(X, y, learners, score=_score, max_pi=0.5, provenance="here", ratios=(1,), n_folds=3,
                              repeats=1, seed=4, task_id="t")
    direct = ds.downsampling_experiment(X, y, learners, score=_score, ratios=(1,), n_folds=3, repeats=1, seed=4,
                                        task_id="t")
    pd.testing.assert_frame_equal(runs, direct)
    assert note == "pi = 0.2000; source here"

    (tmp_path / "s.json").write_text(json.dumps({"task_id": "s", "status": "skipped", "reason": "too few positives",
                                                 "predictions": None}))
    runs, note = fs.task_runs(tmp_path / "s.json", dispersions=(0.5,), seeds=1)
    assert runs.empty and list(runs.columns) == fs.RUN_COLUMNS and note == "skipped: too few positives"
    n, k = 150, 3
    fold = np.r_[np.arange(30) % k, np.arange(120) % k]
    preds = pd.DataFrame({"task_id": "t", "model_id": "m", "flow_id": "m", "flow_name": "m", "repeat": 0, "fold": fold,
                          "row_id": np.arange(n), "y_true": y, "score": X[:, 0]})
    info = TaskInfo("t", "local", "0", "synthetic", n, 30, "1", "3-fold", k, 1, 1, "fixture", "now")
    write_predictions(preds, info, tmp_path / "t.parquet")
    (tmp_path / "t.json").write_text(json.dumps({"task_id": "t", "status": "ok", "reason": "",
                                                 "predictions": str(tmp_path / "t.parquet")}))
    runs, note = fs.task_runs(tmp_path / "t.json", dispersions=(0.5,), seeds=2, seed=1)
    pd.testing.assert_frame_equal(runs, fs.fold_skew_experiment(preds, dispersions=(0.5,), seeds=2, seed=1))
    assert note == "task t; fixture"


def test_steps_check_settings_before_any_work_and_read_their_inputs(tmp_path, ds_runs):
    """The step functions of the Boyd rules: a bad setting is one InputError naming it; runs left
    out are 'no task qualified'; the runs given are the frames the report functions take."""
    from prspace.experiments.steps import boyd_steps as S

    for n_sim, seed in ((1, 0), (2001, 0), (10, -1)):
        with pytest.raises(InputError, match="n_sim|seed"):
            S.boyd_fold_skew_mechanism_step({}, n_sim=n_sim, seed=seed)
    empty = S.boyd_downsampling_report_step({}, study="s", criteria="c")
    assert empty.warnings and all(t.frame.empty for t in empty.tables)
    ds_runs.to_parquet(tmp_path / "a.parquet")
    ds_runs.iloc[:0].to_parquet(tmp_path / "b.parquet")
    out = S.boyd_downsampling_report_step({"runs": [tmp_path / "a.parquet", tmp_path / "b.parquet"]}, study="s")
    direct = bt.downsampling_report(ds_runs, study="s")
    for got, want in zip(out.tables, direct.tables, strict=True):
        pd.testing.assert_frame_equal(got.frame, want.frame)
        assert (got.table, got.note, got.title) == (want.table, want.note, want.title)

"""``prspace boyd ...``: the Boyd et al. (2012) experiments and the theory figures.

Sub-commands (each writes its files atomically; the rules in ``workflow/rules/boyd.smk`` call them):

* ``theory``            -- Boyd Figures 1-4 (exact curves from prspace.metrics);
* ``paper-tables``      -- Boyd's Tables 3 and 2 checked against Theorem 2;
* ``pr-prg``            -- Flach and Kull Figure 2 for a real model's scores from the study;
* ``downsample``        -- one task's downsampling runs (section 4.3);
* ``downsampling-report`` -- Table 3 per task and learner, summary over tasks, figure;
* ``fold-skew``         -- one task's fold-skew runs from its predictions (section 4.1);
* ``fold-skew-report``  -- bias and ranking changes per dispersion, figure;
* ``aggregation``       -- across-task aggregation (section 4.2, Table 2) from the metrics table;
* ``evidence``          -- one evidence row per claim of the paper, for the verdict table.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import numpy as np
import pandas as pd

from prspace._io import atomic_path
from prspace.errors import InputError

log = logging.getLogger("prspace.boyd")


def _floats(text: str) -> list[float]:
    try:
        return [float(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, got {text!r}") from None


def _formats(text: str) -> list[str]:
    from prspace.output import parse_formats

    try:
        return parse_formats(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("boyd", help="Boyd et al. (2012) experiments and theory figures",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="boyd_command", metavar="ACTION", required=True)

    t = sub.add_parser("theory", help="Boyd Figures 1-4: minimum PR curves, AUCPR_MIN, F1 contours", description='Draw Boyd et al. (2012) Figures 1-4 from exact formulas (prspace.metrics): the minimum PR curve, minimum PR curves for several skews, AUCPR_MIN against skew, F1 contours.')
    t.add_argument("--out-dir", required=True, type=Path, help="folder for the figure files")
    t.add_argument("--formats", type=_formats, default=["png", "pdf"], help="figure formats, comma-separated (png, pdf, svg)")
    t.set_defaults(func=run_theory)

    pt = sub.add_parser("paper-tables", help="Boyd Table 3 (AUCNPR recomputed) and Table 2 (implied skews)", description='Check Boyd et al. Table 3 (AUCNPR recomputed from AUCPR and the skew, Theorem 2) and Table 2 (the skews the table implies); write both as tables.')
    pt.add_argument("--out-dir", required=True, type=Path, help="folder for the tables")
    pt.set_defaults(func=run_paper_tables)

    g = sub.add_parser("pr-prg", help="Flach and Kull Figure 2 for one model's scores on one test fold of the study", description="Draw Flach and Kull (2015) Figure 2 (a PR curve beside its PRG curve) for one real model's scores on one test fold of the study.")
    g.add_argument("--status", nargs="+", required=True, help="status JSON of the study's tasks")
    g.add_argument("--task", default="auto", help="task id, or auto")
    g.add_argument("--model", default="auto", help="model id, or auto (the model with the median AUPRG on the fold)")
    g.add_argument("--target-positives", type=int, default=30,
                   help="auto task: the test fold's number of positives closest to this")
    g.add_argument("--out-dir", required=True, type=Path, help="folder for the figure files")
    g.add_argument("--formats", type=_formats, default=["png", "pdf"], help="figure formats, comma-separated (png, pdf, svg)")
    g.add_argument("--selection-out", type=Path, help="CSV naming the task, model and fold drawn")
    g.set_defaults(func=run_pr_prg)

    d = sub.add_parser("downsample", help="one task's downsampling runs (Boyd section 4.3)", description="Boyd et al. section 4.3: train on the task's folds downsampled to k negatives per positive and evaluate on downsampled and original test folds; write the runs as parquet.")
    d.add_argument("--dataset", required=True, help="task id of the local source (e.g. keel-ecoli1)")
    d.add_argument("--data-dir", default=None, help="user data directory (as for predict-local)")
    d.add_argument("--target", default=None, help="target column in --data-dir files")
    d.add_argument("--pos-label", default=None, help="positive class of --data-dir files (default: the minority)")
    d.add_argument("--learners", default="small", help="panel name or comma-separated learner names")
    d.add_argument("--ratios", type=_floats, default=[1, 2, 3, 4, 5, 10], help="negatives per positive, e.g. 1,2,3,4,5,10")
    d.add_argument("--folds", type=int, default=5, help="cross-validation folds (default: %(default)s)")
    d.add_argument("--repeats", type=int, default=3, help="repeats of the cross-validation (default: %(default)s)")
    d.add_argument("--seed", type=int, default=0, help="seed of the folds, the downsampling and the learners")
    d.add_argument("--max-pi", type=float, default=0.1, help="skip the task if its pi is above this")
    d.add_argument("--out", required=True, type=Path, help="parquet of runs (empty if the task is skipped)")
    d.set_defaults(func=run_downsample)

    dr = sub.add_parser("downsampling-report", help="Table 3 per task/learner, summary over tasks, figure", description='Boyd et al. Table 3 per task and learner, the summary over tasks, the comparison with the paper and the downsampling figure, from the runs of `boyd downsample`.')
    dr.add_argument("--runs", nargs="*", default=[], type=Path, help="runs of every qualifying task (none: tables say so)")
    dr.add_argument("--criteria", default="", help="how tasks were chosen, for the tables' notes")
    dr.add_argument("--tables-dir", required=True, type=Path, help="folder for the tables")
    dr.add_argument("--figures-dir", required=True, type=Path, help="folder for the figure files")
    dr.add_argument("--formats", type=_formats, default=["png", "pdf"], help="figure formats, comma-separated (png, pdf, svg)")
    dr.add_argument("--study", default="", help="study name for figure titles")
    dr.set_defaults(func=run_downsampling_report)

    f = sub.add_parser("fold-skew", help="one task's fold-skew runs (Boyd section 4.1)", description="Boyd et al. section 4.1: resample the task's test folds with skewed class ratios and compare the fold-averaged and pooled aggregates; write the runs as parquet.")
    f.add_argument("--status", required=True, type=Path, help="status JSON of the task's predictions")
    f.add_argument("--dispersions", type=_floats, default=[0.25, 0.5, 0.75, 0.9], help="shares of a class dropped from skewed test folds, comma-separated, each in [0, 1)")
    f.add_argument("--seeds", type=int, default=3, help="random drops per dispersion (default: %(default)s)")
    f.add_argument("--seed", type=int, default=0, help="seed of the resampling")
    f.add_argument("--max-repeats", type=int, default=1, help="CV repeats of the predictions to use at most")
    f.add_argument("--out", required=True, type=Path, help="parquet of runs to write")
    f.set_defaults(func=run_fold_skew)

    fr = sub.add_parser("fold-skew-report", help="bias and ranking changes per dispersion, figure", description='Bias of every aggregate and the ranking changes against the dispersion of fold skews, over tasks, and the fold-skew figure, from the runs of `boyd fold-skew`.')
    fr.add_argument("--runs", nargs="*", default=[], type=Path, help="runs of every qualifying task (none: tables say so)")
    fr.add_argument("--criteria", default="", help="how tasks were chosen, for the tables' notes")
    fr.add_argument("--tables-dir", required=True, type=Path, help="folder for the tables")
    fr.add_argument("--figures-dir", required=True, type=Path, help="folder for the figure files")
    fr.add_argument("--formats", type=_formats, default=["png", "pdf"], help="figure formats, comma-separated (png, pdf, svg)")
    fr.add_argument("--study", default="", help="study name for figure titles")
    fr.set_defaults(func=run_fold_skew_report)

    a = sub.add_parser("aggregation", help="across-task aggregation (Boyd section 4.2) from the metrics table", description="Boyd et al. section 4.2: learners' mean AUPR, AUCNPR, AUPRG and AUROC over tasks of different skew, their agreement, skew correlations and skew groups, and the figure, from the metrics table.")
    a.add_argument("--metrics", required=True, type=Path, help="the study's metrics table (CSV)")
    a.add_argument("--learner", default="flow_id", help="column naming the learner across tasks")
    a.add_argument("--skew-groups", type=int, default=3, help="number of equal-size groups of tasks by skew pi")
    a.add_argument("--tables-dir", required=True, type=Path, help="folder for the tables")
    a.add_argument("--figures-dir", required=True, type=Path, help="folder for the figure files")
    a.add_argument("--formats", type=_formats, default=["png", "pdf"], help="figure formats, comma-separated (png, pdf, svg)")
    a.add_argument("--study", default="", help="study name for figure titles")
    a.set_defaults(func=run_aggregation)

    e = sub.add_parser("evidence", help="one evidence row per Boyd et al. claim (for the verdict table)", description="Every Boyd et al. claim as an evidence row (prspace.verdicts.rule): Theorems 1-3 and Corollary 4, Tables 2 and 3, sections 4.1-4.3 from this study's runs; read by `prspace verdicts`.")
    e.add_argument("--metrics", type=Path, default=None, help="the study's metrics table (CSV; section 4.2 and Table 2 rows)")
    e.add_argument("--tasks", type=Path, default=None, help="the study's task table (CSV with a family column: the bootstrap clusters)")
    e.add_argument("--downsampling-runs", type=Path, nargs="*", default=None, help="runs of `boyd downsample` (section 4.3 rows)")
    e.add_argument("--fold-skew-runs", type=Path, nargs="*", default=None, help="runs of `boyd fold-skew` (section 4.1 rows)")
    e.add_argument("--learner", default="flow_id", help="column naming the learner across tasks")
    e.add_argument("--n-boot", type=int, default=1000, help="bootstrap resamples of families for every interval")
    e.add_argument("--seed", type=int, default=0, help="seed of the bootstrap and of Theorem 1's random rankings")
    e.add_argument("--out", required=True, type=Path, help="evidence table to write (CSV, prspace.verdicts.rule.EVIDENCE_COLUMNS)")
    e.set_defaults(func=run_evidence)


# --- helpers ---------------------------------------------------------------------------------


def _save(fig, out_dir: Path, name: str, formats: list[str]) -> None:
    from prspace.output import write_figure

    write_figure(fig, out_dir / name, formats)


def _table(df: pd.DataFrame, out_dir: Path, name: str, *, title: str, note: str | None = None) -> None:
    from prspace.output import write_table

    write_table(df, out_dir / f"{name}.csv", out_dir / f"{name}.md", title=title, note=note)


def _message_figure(msg: str):
    from prspace.output import message_figure

    return message_figure(msg)


def _read_parquets(paths: list[Path]) -> pd.DataFrame:
    frames = []
    for p in paths:
        if not p.is_file():
            raise InputError(f"no runs file at {p}; run the step that makes it")
        frames.append(pd.read_parquet(p))
    frames = [f for f in frames if len(f)]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _write_parquet(df: pd.DataFrame, path: Path, note: str = "") -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(df, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), b"prspace.note": note.encode()})
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp)
    log.info("wrote %s (%d rows)%s", path, len(df), f": {note}" if note else "")


# --- theory and paper tables -----------------------------------------------------------------


def run_theory(args: argparse.Namespace) -> int:
    from prspace.figures import theory

    _save(theory.figure_min_pr_curve(1 / 3), args.out_dir, "boyd_fig1_min_pr_curve", args.formats)
    _save(theory.figure_min_pr_curves(), args.out_dir, "boyd_fig2_min_pr_curves", args.formats)
    _save(theory.figure_aupr_min_vs_pi(), args.out_dir, "boyd_fig3_aucpr_min", args.formats)
    _save(theory.figure_f1_contours(0.33, 0.45), args.out_dir, "boyd_fig4_f1_contours", args.formats)
    return 0


def run_paper_tables(args: argparse.Namespace) -> int:
    from prspace.experiments.aggregation import table2_check
    from prspace.experiments.downsampling import table3_check

    t3 = table3_check()
    worst = float(t3["difference"].abs().max())
    _table(t3, args.out_dir, "boyd_table3_check",
           title="Boyd et al. 2012, Table 3: published AUCNPR vs AUCNPR recomputed from the published AUCPR",
           note=("Source: Boyd et al. 2012, Table 3 (SAYU, UW-CSE advisedBy), transcribed. "
                 "test_pi = 1/(1+k) for a 1:k test set; aucpr_min = prspace.metrics.aupr_min(test_pi) (Theorem 2); "
                 "aucnpr_computed = (aucpr_published - aucpr_min) / (1 - aucpr_min). "
                 f"Largest |difference|: {worst:.4f} (published values have three decimals)."))
    t2 = table2_check()
    _table(t2, args.out_dir, "boyd_table2_check",
           title="Boyd et al. 2012, Table 2: skews implied by the published AUCPR and AUCNPR",
           note=("Source: Boyd et al. 2012, Table 2 (LSM on IMDB), transcribed. implied_aucpr_min = "
                 "(AUCPR - AUCNPR) / (1 - AUCNPR); implied_pi inverts Theorem 2 (prspace.metrics.aupr_min). "
                 "stated_pi: the skew the paper's text gives (section 4.2); aucnpr_at_stated_pi: the AUCNPR that skew implies."))
    return 0


# --- Flach and Kull Figure 2 from the study's predictions -------------------------------------


def _ok_predictions(status_paths) -> list[tuple[str, str]]:
    from prspace.cli.score import read_status

    out = []
    for p in status_paths:
        st = read_status(p)
        if st["status"] == "ok":
            out.append((st["task_id"], st["predictions"]))
    return sorted(out)


def run_pr_prg(args: argparse.Namespace) -> int:
    from prspace import metrics
    from prspace.experiments import selection as S
    from prspace.figures import theory
    from prspace.output import write_csv
    from prspace.schema import read_predictions, read_task_info

    tasks = _ok_predictions(args.status)
    if not tasks:
        raise InputError("no task has predictions (every status is 'skipped'); run the predictions step first")
    if args.task != "auto":
        chosen = [t for t in tasks if t[0] == args.task]
        if not chosen:
            raise InputError(f"task {args.task!r} has no predictions; choose one of {', '.join(t for t, _ in tasks)} or auto")
        df, info = read_predictions(chosen[0][1])
        sub, median_model, _ = S.median_model(df)
    else:
        infos = [read_task_info(path_) for _, path_ in tasks]
        picks = S.pr_prg_candidates(infos, target_positives=args.target_positives)
        read = (read_predictions(tasks[i][1]) for i in picks)
        info, sub, median_model = S.choose_pr_prg([(info_, df_) for df_, info_ in read])
    model = median_model if args.model == "auto" else args.model
    if model not in set(sub["model_id"]):
        raise InputError(f"model {model!r} not in task {info.task_id}; choose one of {', '.join(sorted(set(sub['model_id'])))} or auto")
    rep, fold = int(sub["repeat"].iloc[0]), int(sub["fold"].iloc[0])
    g = sub[sub["model_id"] == model]
    y, s = g["y_true"].to_numpy(bool), g["score"].to_numpy(np.float64)
    source = (f"data: {info.dataset_name} ({info.task_id}; {info.provenance.split(';')[0]}); "
              f"model: {model}, test fold {fold} of repeat {rep}")
    _save(theory.figure_pr_prg(y, s, source=source), args.out_dir, "boyd_fig_pr_prg", args.formats)
    if args.selection_out:
        write_csv(pd.DataFrame([{"task_id": info.task_id, "dataset": info.dataset_name, "provenance": info.provenance,
                                 "model_id": model, "repeat": rep, "fold": fold, "n": int(y.size), "n_pos": int(y.sum()),
                                 "aupr": float(metrics.aupr(y, s)), "auprg": float(metrics.auprg(y, s))}]),
                  args.selection_out)
    return 0


# --- downsampling ----------------------------------------------------------------------------


def _load_dataset(args: argparse.Namespace):
    from prspace.sources.datasets import load_dataset

    return load_dataset(args.dataset, data_dir=args.data_dir, target=args.target, pos_label=args.pos_label)


def run_downsample(args: argparse.Namespace) -> int:
    from prspace.experiments.downsampling import RUN_COLUMNS, downsampling_experiment
    from prspace.sources.learners import make_learner, parse_learners, score_of

    names = parse_learners(args.learners)
    data = _load_dataset(args)
    y = np.asarray(data.y, dtype=bool)
    pi = float(y.mean())
    if pi > args.max_pi:
        _write_parquet(pd.DataFrame(columns=RUN_COLUMNS), args.out, f"skipped: pi = {pi:.3f} > max_pi = {args.max_pi}")
        return 0
    learners = {n: (lambda seed, n=n: make_learner(n, seed)) for n in names}
    # one BLAS/OpenMP thread: the workflow runs tasks in parallel, and on small matrices a thread
    # pool costs far more than it gives (about 10x slower logistic regression on a busy machine)
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        runs = downsampling_experiment(data.X, y, learners, score=score_of, ratios=args.ratios, n_folds=args.folds,
                                       repeats=args.repeats, seed=args.seed, task_id=args.dataset)
    _write_parquet(runs, args.out, f"pi = {pi:.4f}; source {getattr(data, 'provenance', '')}")
    return 0


def run_downsampling_report(args: argparse.Namespace) -> int:
    from prspace.experiments import downsampling as ds
    from prspace.figures.boyd import figure_downsampling

    runs = _read_parquets(args.runs)
    if runs.empty:
        msg = (f"No task of {'study ' + args.study if args.study else 'this study'} qualified for the downsampling "
               f"experiment ({args.criteria or 'see boyd.downsampling'}); raise boyd.downsampling.max_pi, "
               "lower min_positives or add skewed datasets.")
        log.warning(msg)
        for name in ("boyd_downsampling_table3", "boyd_downsampling_summary", "boyd_downsampling_vs_paper"):
            _table(pd.DataFrame(columns=["learner", "train_ratio"]), args.tables_dir, name, title="Downsampling", note=msg)
        _save(_message_figure(msg), args.figures_dir, "boyd_downsampling", args.formats)
        return 0
    per_task = ds.table3(runs)
    summary = ds.table3_summary(per_task)
    n_tasks = runs["task_id"].nunique()
    src = f"study {args.study}" if args.study else ""
    _table(per_task, args.tables_dir, "boyd_downsampling_table3",
           title="Downsampling per task and learner (Boyd et al. 2012, Table 3 generalised)",
           note=("Mean over repeats x folds. downsampled_*: test fold with negatives subsampled to the training ratio; "
                 "original_*: the whole test fold. 'original' training ratio = no subsampling (the task's own ratio). "
                 f"{n_tasks} tasks ({args.criteria or 'all given'}); source: {src or 'local data'}, "
                 "learners trained here by prspace (scikit-learn)."))
    cols = ["learner", "train_ratio", "n_tasks", "downsampled_test_pi"]
    for m in ds.METRICS:
        cols += [f"downsampled_{m}", f"original_{m}", f"gap_{m}", f"gap_{m}_sd"]
    _table(summary[cols], args.tables_dir, "boyd_downsampling_summary",
           title="Downsampling summarised over tasks (mean over tasks; gap = downsampled minus original test, sd over tasks)",
           note="Full columns including standard deviations over tasks: boyd_downsampling_summary.csv.")
    _write_full_csv(summary, args.tables_dir / "boyd_downsampling_summary.csv")
    _table(ds.compare_with_paper(summary), args.tables_dir, "boyd_downsampling_vs_paper",
           title="Boyd et al. 2012, Table 3 (SAYU, UW-CSE advisedBy, transcribed) beside this study (mean of all learners and tasks)",
           note=("Boyd's 1:24 row is their task's original ratio; ours is each task's own ratio (our_test_pi: mean skew). "
                 "Other data and learners: compare the pattern, not the digits."))
    _save(figure_downsampling(summary, source=src), args.figures_dir, "boyd_downsampling", args.formats)
    return 0


def _write_full_csv(df: pd.DataFrame, path: Path) -> None:
    from prspace.output import write_csv

    write_csv(df, path)


# --- fold skew -------------------------------------------------------------------------------


def run_fold_skew(args: argparse.Namespace) -> int:
    from prspace.cli.score import read_status
    from prspace.experiments.fold_skew import RUN_COLUMNS, fold_skew_experiment
    from prspace.schema import read_predictions

    st = read_status(args.status)
    if st["status"] != "ok":
        _write_parquet(pd.DataFrame(columns=RUN_COLUMNS), args.out, f"skipped: {st.get('reason', '')}")
        return 0
    df, info = read_predictions(st["predictions"])
    runs = fold_skew_experiment(df, dispersions=args.dispersions, seeds=args.seeds, seed=args.seed,
                                max_repeats=args.max_repeats)
    _write_parquet(runs, args.out, f"task {info.task_id}; {info.provenance}")
    return 0


def run_fold_skew_report(args: argparse.Namespace) -> int:
    from prspace.experiments import fold_skew as fs
    from prspace.figures.boyd import figure_fold_skew

    runs = _read_parquets(args.runs)
    if runs.empty:
        msg = (f"No task of {'study ' + args.study if args.study else 'this study'} qualified for the fold-skew "
               f"experiment ({args.criteria or 'see boyd.fold_skew'}); lower boyd.fold_skew.min_positives.")
        log.warning(msg)
        for name in ("boyd_fold_skew_summary", "boyd_fold_skew_per_task"):
            _table(pd.DataFrame(columns=["dispersion", "aggregate"]), args.tables_dir, name, title="Fold skew", note=msg)
        _save(_message_figure(msg), args.figures_dir, "boyd_fold_skew", args.formats)
        return 0
    summary = fs.fold_skew_summary(runs)
    per_task = fs.fold_skew_per_task(runs)
    src = f"study {args.study}" if args.study else ""
    _table(summary, args.tables_dir, "boyd_fold_skew_summary",
           title="Fold skew: bias of each aggregate (skewed minus stratified folds) and ranking changes",
           note=("Same models, same rows, same fold sizes: skewed folds swap a share d of one fold's positives with as many "
                 "negatives of its partner fold (fold pi about pi(1+d) and pi(1-d)); the control makes the same moves class for "
                 "class (fold pi unchanged). Pooled metrics are the same rows and scores in every design (bias 0 by construction). "
                 "bias_mean: mean over tasks (each task averaged "
                 "over models and seeds); abs_bias_mean: mean over tasks of |per-task bias|. top1_change_<design>: share "
                 "of task x seed where the best model on the reassigned folds differs from the best on the original folds; "
                 "kendall_<design>: Kendall's tau with the original folds' order; kendall_loss = stratified - skewed. "
                 f"{runs['task_id'].nunique()} tasks ({args.criteria or 'all given'}); {src}."))
    _table(per_task, args.tables_dir, "boyd_fold_skew_per_task",
           title="Fold skew: bias of each aggregate per task and dispersion (mean over models and seeds)")
    _save(figure_fold_skew(summary, source=src), args.figures_dir, "boyd_fold_skew", args.formats)
    return 0


# --- aggregation over tasks --------------------------------------------------------------------


def run_aggregation(args: argparse.Namespace) -> int:
    from prspace.experiments import aggregation as ag
    from prspace.figures.boyd import figure_aggregation

    if not args.metrics.is_file():
        raise InputError(f"no metrics table at {args.metrics}; run `prspace score collect` first")
    df = pd.read_csv(args.metrics)
    if df.empty:
        raise InputError(f"the metrics table {args.metrics} has no rows; no task was scored")
    per_task = ag.per_task_table(df, learner=args.learner)
    means, agree = ag.learner_means(df, learner=args.learner)
    corr = ag.skew_correlation(df, learner=args.learner)
    groups = ag.skew_group_means(df, learner=args.learner, n_groups=args.skew_groups)
    src = f"study {args.study}" if args.study else ""
    n = per_task["task_id"].nunique()
    _table(per_task, args.tables_dir, "boyd_aggregation_tasks",
           title="Per task and learner: pi, AUCPR_MIN and the metrics (Boyd et al. 2012, Table 2 generalised)",
           note=f"Pooled cross-validated predictions; {n} tasks; {src}.")
    _table(ag.order_changes(means, learner=args.learner), args.tables_dir, "boyd_aggregation_learners",
           title="Learners' mean over tasks and their rank by each metric (1 = best)")
    _table(agree, args.tables_dir, "boyd_aggregation_agreement",
           title="Do the learners' orders by mean metric agree? (pairs of metrics)")
    _table(corr, args.tables_dir, "boyd_aggregation_skew_correlation",
           title="Spearman's rho of each metric with pi across tasks; free_share = mean AUCPR_MIN / mean AUPR")
    _table(ag.skew_groups_wide(groups), args.tables_dir, "boyd_aggregation_skew_groups",
           title="Learners' mean metric and rank within pi groups of tasks")
    _save(figure_aggregation(per_task, groups, source=src), args.figures_dir, "boyd_aggregation", args.formats)
    return 0


# --- evidence rows for the verdict table ------------------------------------------------------


def run_evidence(args: argparse.Namespace) -> int:
    from prspace.experiments.boyd_evidence import evidence_from_files
    from prspace.output import write_csv

    write_csv(evidence_from_files(metrics=args.metrics, tasks=args.tasks, downsampling_runs=args.downsampling_runs,
                                  fold_skew_runs=args.fold_skew_runs, learner=args.learner, n_boot=args.n_boot,
                                  seed=args.seed), args.out)
    return 0

"""``prspace boyd ...``: the Boyd et al. (2012) experiments and the tables of the theory figures.

Sub-commands (each writes its files atomically; the rules in ``workflow/rules/boyd.smk`` call them):

* ``theory-data``       -- the tables of Boyd Figures 1-4 (exact curves from prspace.metrics);
* ``paper-tables``      -- Boyd's Tables 3 and 2 checked against Theorem 2;
* ``pr-prg``            -- the tables of Flach and Kull Figure 2 for a real model's scores from the study;
* ``downsample``        -- one task's downsampling runs (section 4.3);
* ``downsampling-report`` -- Table 3 per task and learner, summary over tasks, the figure's tables;
* ``fold-skew``         -- one task's fold-skew runs from its predictions (section 4.1);
* ``fold-skew-report``  -- bias and ranking changes per dispersion, the figure's tables;
* ``fold-skew-mechanism`` -- section 4.1 on one simulated model: the sign of the averaging bias;
* ``aggregation``       -- across-task aggregation (section 4.2, Table 2) from the metrics table;
* ``evidence``          -- one evidence row per claim of the paper, for the verdict table.

Every figure is drawn afterwards from its tables by ``prspace figure NAME`` (:mod:`prspace.figures.study`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prspace.core.output import write_csv, write_parquet
from prspace.core.steps import StepOutput, write_step
from prspace.experiments import boyd_steps as S
from prspace.experiments import fold_skew as fs
from prspace.experiments.boyd_evidence import evidence_from_files


def _floats(text: str) -> list[float]:
    try:
        return [float(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, got {text!r}") from None


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("boyd", help="Boyd et al. (2012) experiments and theory figures",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="boyd_command", metavar="ACTION", required=True)

    t = sub.add_parser("theory-data", help="the tables of Boyd Figures 1-4: minimum PR curves, AUCPR_MIN, F1 contours", description='Compute the tables Boyd et al. (2012) Figures 1-4 are drawn from, by exact formulas (prspace.metrics): the minimum PR curve, minimum PR curves for several skews, AUCPR_MIN against skew, F1 contours; `prspace figure NAME` draws each.')
    t.add_argument("--out-dir", required=True, type=Path, help="folder for the tables (full precision CSV)")
    t.set_defaults(func=run_theory_data)

    pt = sub.add_parser("paper-tables", help="Boyd Table 3 (AUCNPR recomputed) and Table 2 (implied skews)", description='Check Boyd et al. Table 3 (AUCNPR recomputed from AUCPR and the skew, Theorem 2) and Table 2 (the skews the table implies); write both as tables.')
    pt.add_argument("--out-dir", required=True, type=Path, help="folder for the tables")
    pt.set_defaults(func=run_paper_tables)

    g = sub.add_parser("pr-prg", help="the tables of Flach and Kull Figure 2 for one model's scores on one test fold of the study", description="Compute the tables of Flach and Kull (2015) Figure 2 (a PR curve beside its PRG curve) for one real model's scores on one test fold of the study; `prspace figure boyd_fig_pr_prg` draws it.")
    g.add_argument("--status", nargs="+", required=True, help="status JSON of the study's tasks")
    g.add_argument("--task", default="auto", help="task id, or auto")
    g.add_argument("--model", default="auto", help="model id, or auto (the model with the median AUPRG on the fold)")
    g.add_argument("--target-positives", type=int, default=30,
                   help="auto task: the test fold's number of positives closest to this")
    g.add_argument("--figure-data-dir", required=True, type=Path, help="folder for the figure's tables (full precision CSV)")
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

    dr = sub.add_parser("downsampling-report", help="Table 3 per task/learner, summary over tasks, the figure's tables", description='Boyd et al. Table 3 per task and learner, the summary over tasks, the comparison with the paper and the tables of the downsampling figure, from the runs of `boyd downsample`.')
    dr.add_argument("--runs", nargs="*", default=[], type=Path, help="runs of every qualifying task (none: tables say so)")
    dr.add_argument("--criteria", default="", help="how tasks were chosen, for the tables' notes")
    dr.add_argument("--tables-dir", required=True, type=Path, help="folder for the tables")
    dr.add_argument("--figure-data-dir", required=True, type=Path, help="folder for the figure's tables (full precision CSV)")
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

    fr = sub.add_parser("fold-skew-report", help="bias and ranking changes per dispersion, the figure's tables", description='Bias of every aggregate and the ranking changes against the dispersion of fold skews, over tasks, and the tables of the fold-skew figure, from the runs of `boyd fold-skew`.')
    fr.add_argument("--runs", nargs="*", default=[], type=Path, help="runs of every qualifying task (none: tables say so)")
    fr.add_argument("--criteria", default="", help="how tasks were chosen, for the tables' notes")
    fr.add_argument("--tables-dir", required=True, type=Path, help="folder for the tables")
    fr.add_argument("--figure-data-dir", required=True, type=Path, help="folder for the figure's tables (full precision CSV)")
    fr.add_argument("--study", default="", help="study name for figure titles")
    fr.set_defaults(func=run_fold_skew_report)

    fm = sub.add_parser("fold-skew-mechanism", help="section 4.1 on one simulated model: the sign of the averaging bias", description="Boyd et al. section 4.1 on a single simulated binormal model (no data): the bias of the mean of per-fold AUPR against the merged folds, from near the worst ranking to a good model, with Monte Carlo intervals.")
    fm.add_argument("--n-sim", type=int, default=50, help="simulations per model, 2 to 2000 (default: %(default)s; the studies: boyd.evidence.mechanism_n_sim)")
    fm.add_argument("--seed", type=int, default=0, help="seed of the simulations")
    fm.add_argument("--tables-dir", required=True, type=Path, help="folder for boyd_fold_skew_mechanism.csv/.md")
    fm.set_defaults(func=run_fold_skew_mechanism)

    a = sub.add_parser("aggregation", help="across-task aggregation (Boyd section 4.2) from the metrics table", description="Boyd et al. section 4.2: learners' mean AUPR, AUCNPR, AUPRG and AUROC over tasks of different skew, their agreement, skew correlations and skew groups, and the tables of its figure, from the metrics table.")
    a.add_argument("--metrics", required=True, type=Path, help="the study's metrics table (CSV)")
    a.add_argument("--learner", default="flow_id", help="column naming the learner across tasks")
    a.add_argument("--skew-groups", type=int, default=3, help="number of equal-size groups of tasks by skew pi")
    a.add_argument("--tables-dir", required=True, type=Path, help="folder for the tables")
    a.add_argument("--figure-data-dir", required=True, type=Path, help="folder for the figure's tables (full precision CSV)")
    a.add_argument("--study", default="", help="study name for figure titles")
    a.set_defaults(func=run_aggregation)

    e = sub.add_parser("evidence", help="one evidence row per Boyd et al. claim (for the verdict table)", description="Every Boyd et al. claim as an evidence row (prspace.verdicts.rule): Theorems 1-3 and Corollary 4, Tables 2 and 3, sections 4.1-4.3 from this study's runs; read by `prspace verdicts`.")
    e.add_argument("--metrics", type=Path, default=None, help="the study's metrics table (CSV; section 4.2 and Table 2 rows)")
    e.add_argument("--tasks", type=Path, default=None, help="the study's task table (CSV with a family column: the bootstrap clusters)")
    e.add_argument("--downsampling-runs", type=Path, nargs="*", default=None, help="runs of `boyd downsample` (section 4.3 rows)")
    e.add_argument("--fold-skew-runs", type=Path, nargs="*", default=None, help="runs of `boyd fold-skew` (section 4.1 rows)")
    e.add_argument("--learner", default="flow_id", help="column naming the learner across tasks")
    e.add_argument("--mechanism", type=Path, default=None, help="boyd_fold_skew_mechanism.csv (the 4.1 row's detail)")
    e.add_argument("--n-resamples", type=int, default=200_000,
                   help="family resamples of every interval (default: %(default)s)")
    e.add_argument("--seed", type=int, default=0, help="seed of the bootstrap and of Theorem 1's random rankings")
    e.add_argument("--max-pi", type=float, default=0.1, help="downsampling eligibility: pi at most this")
    e.add_argument("--min-positives", type=int, default=25, help="downsampling eligibility: at least this many positives")
    e.add_argument("--downsampling-scope", default="", help="what the downsampling ran and why not more (the rows' detail)")
    e.add_argument("--out", required=True, type=Path, help="evidence table to write (CSV, prspace.verdicts.rule.EVIDENCE_COLUMNS)")
    e.add_argument("--values-out", type=Path, default=None,
                   help="the per-task values every interval resampled (CSV: claim_id, family, value)")
    e.set_defaults(func=run_evidence)


# --- the steps (``prspace step NAME`` runs the same functions) ----------------------------------------


def _write(output, *, tables_dir=None, figure_data_dir=None) -> int:
    write_step(output, tables_dir=tables_dir, figure_data_dir=figure_data_dir)
    return 0


def run_theory_data(args: argparse.Namespace) -> int:
    return _write(S.theory_data_step({}), figure_data_dir=args.out_dir)


def run_paper_tables(args: argparse.Namespace) -> int:
    return _write(S.paper_tables_step({}), tables_dir=args.out_dir)


def run_pr_prg(args: argparse.Namespace) -> int:
    out = S.pr_prg_step({"status": args.status}, task=args.task, model=args.model,
                        target_positives=args.target_positives)
    write_step(StepOutput(figure_data=out.figure_data), figure_data_dir=args.figure_data_dir)
    if args.selection_out:
        write_csv(out.tables[0].frame, args.selection_out)
    return 0


def run_downsampling_report(args: argparse.Namespace) -> int:
    out = S.downsampling_report_step({"runs": args.runs}, study=args.study, criteria=args.criteria)
    return _write(out, tables_dir=args.tables_dir, figure_data_dir=args.figure_data_dir)


def run_fold_skew_report(args: argparse.Namespace) -> int:
    out = S.fold_skew_report_step({"runs": args.runs}, study=args.study, criteria=args.criteria)
    return _write(out, tables_dir=args.tables_dir, figure_data_dir=args.figure_data_dir)


def run_fold_skew_mechanism(args: argparse.Namespace) -> int:
    return _write(S.fold_skew_mechanism_step({}, n_sim=args.n_sim, seed=args.seed), tables_dir=args.tables_dir)


def run_aggregation(args: argparse.Namespace) -> int:
    out = S.aggregation_step({"metrics": args.metrics}, learner=args.learner, skew_groups=args.skew_groups,
                             study=args.study)
    return _write(out, tables_dir=args.tables_dir, figure_data_dir=args.figure_data_dir)


def run_evidence(args: argparse.Namespace) -> int:
    evidence, values = evidence_from_files(
        metrics=args.metrics, tasks=args.tasks, downsampling_runs=args.downsampling_runs,
        fold_skew_runs=args.fold_skew_runs, mechanism=args.mechanism, learner=args.learner,
        n_resamples=args.n_resamples, seed=args.seed, max_pi=args.max_pi, min_positives=args.min_positives,
        downsampling_scope=args.downsampling_scope)
    write_csv(evidence, args.out)
    if args.values_out is not None:
        write_csv(values, args.values_out)
    return 0


# --- one task's runs (parquet with a note, one file per task: not a generic step) -------------------


def run_downsample(args: argparse.Namespace) -> int:
    runs, note = S.downsample_task(args.dataset, data_dir=args.data_dir, target=args.target, pos_label=args.pos_label,
                                   learners=args.learners, max_pi=args.max_pi, ratios=args.ratios,
                                   n_folds=args.folds, repeats=args.repeats, seed=args.seed)
    write_parquet(runs, args.out, note)
    return 0


def run_fold_skew(args: argparse.Namespace) -> int:
    runs, note = fs.task_runs(args.status, dispersions=args.dispersions, seeds=args.seeds, seed=args.seed,
                              max_repeats=args.max_repeats)
    write_parquet(runs, args.out, note)
    return 0

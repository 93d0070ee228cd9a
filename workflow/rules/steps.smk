# Every `prspace step NAME` rule of both studies, declared as data and made by the one loop at the end
# (prspace.cli.step runs the step; prspace.core.registry names what it writes).  Per step: its inputs
# (name -> path or input function), its `--in` roles in command order (role -> input name), its
# settings (--set KEY=JSON, from the config), its outputs (from the registry), which outputs'
# folders are --tables-dir / --figure-data-dir, and which outputs are passed as --out.
# The shell line is one string literal: Snakemake evaluates it again when a job runs, when the loop
# variable has its last value, so everything of a step reaches it through params.

from prspace.study.step_args import step_arguments, step_settings

_CALIBRATION = ANALYSIS["calibration"]
_RANK_SETS = ANALYSIS["rank_sets"]

STEP_RULES = [
    dict(step=R.STEP_SCORE, task=True, resources=dict(mem_mb=2000, runtime=30),
         doc="Per-model metrics of one task, pooled over folds and per fold (prspace.metrics.all_metrics).",
         input=dict(status=PREDICTION_STATUS),
         output=dict(metrics=f"{WORK}/metrics/{{task}}.csv", folds=FOLD_METRICS), outs=("metrics", "folds")),
    dict(step=R.STEP_COLLECT, doc="The study's tidy metrics table and task table.",
         input=dict(status=per_task(PREDICTION_STATUS), metrics=per_task(f"{WORK}/metrics/{{task}}.csv"),
                    tasks=TASK_LIST),
         ins=dict(status="status", metrics="metrics", task_list="tasks"), settings=dict(study=STUDY),
         output=dict(metrics=METRICS_TABLE, tasks=TASKS_TABLE, tasks_md=R.TASKS.markdown(TABLES)), tables="metrics"),
    dict(step=R.STEP_NOISE_FLOOR,
         doc="Per task: how often each metric disagrees with itself under a stratified bootstrap of the test rows.",
         input=dict(status=per_task(PREDICTION_STATUS)),
         settings=dict(metrics=ANALYSIS["metrics"], n_boot=ANALYSIS["noise_boot"], seed=SEED,
                       alpha=ANALYSIS["noise_alpha"]),
         output=dict(floors=FILES.csv(R.NOISE_FLOOR_PER_TASK), pairs=FILES.csv(R.NOISE_FLOOR_PAIRS)), tables="floors"),
    dict(step=R.STEP_CALIBRATE,
         doc="False rate and power of the noise floor's distinguishable check, by simulation at this study's task sizes.",
         input=dict(tasks=TASKS_TABLE),
         settings=dict(**{k: _CALIBRATION[k] for k in ("n_sim", "n_sim_null", "seed", "auroc", "rho", "sigmas",
                                                       "sigmas_a", "mc_error")},
                       n_boot=ANALYSIS["noise_boot"], alpha=ANALYSIS["noise_alpha"]),
         output=dict(table=FILES.csv(R.CALIBRATION), summary=FILES.csv(R.CALIBRATION_SUMMARY),
                     md=[t.markdown(TABLES) for t in R.STEP_CALIBRATE.tables]), tables="table"),
    dict(step=R.STEP_AUROC_BOUNDS,
         doc="Top-1 disagreements with AUROC that the range of AUPR / AUPRG at a given AUROC permits (Mihelich et al. 2024).",
         input=dict(metrics=METRICS_TABLE),
         output=dict(csv=FILES.csv(R.AUROC_BOUNDS), md=R.AUROC_BOUNDS.markdown(TABLES)), tables="csv"),
    dict(step=R.STEP_NOISE_EVIDENCE,
         doc="Evidence rows: distinguishable disagreements (k of n, read with the calibrated power) and cross- vs "
             "self-disagreement.",
         input=dict(pairs=FILES.csv(R.NOISE_FLOOR_PAIRS), tasks=TASKS_TABLE, calibration=FILES.csv(R.CALIBRATION_SUMMARY)),
         settings=dict(n_boot=ANALYSIS["n_boot"], seed=SEED),
         output=dict(csv=FILES.csv(R.NOISE_EVIDENCE), md=R.NOISE_EVIDENCE.markdown(TABLES)), tables="csv"),
    dict(step=R.STEP_RANK_SETS,
         doc="Per task and metric: every model's rank interval and the plausible-best set (one shared paired bootstrap).",
         input=dict(status=per_task(PREDICTION_STATUS)),
         settings=dict(**{k: _RANK_SETS[k] for k in ("metrics", "n_boot", "confidence")}, seed=SEED),
         output=dict(per_task=directory(f"{WORK}/{R.STEP_RANK_SETS.name}"), table=FILES.csv(R.RANK_SETS)),
         tables="table", outs=("per_task",)),
    dict(step=R.STEP_RANK_SET_SUMMARY,
         doc="Per metric pair: tasks whose plausible-best sets are disjoint vs plain top-1 disagreement, calibrated; "
             "evidence rows.",
         input=dict(table=FILES.csv(R.RANK_SETS), tasks=TASKS_TABLE), ins=dict(rank_sets="table", tasks="tasks"),
         settings=dict(**{k: _RANK_SETS[k] for k in ("n_sim", "n_sim_null", "sim_models", "sim_boot", "mc_error")},
                       n_boot=ANALYSIS["n_boot"], seed=SEED),
         output=dict(summary=FILES.csv(R.RANK_SET_SUMMARY), calibration=FILES.csv(R.RANK_SET_CALIBRATION),
                     evidence=FILES.csv(R.RANK_SET_EVIDENCE),
                     md=[t.markdown(TABLES) for t in R.STEP_RANK_SET_SUMMARY.tables]), tables="summary"),
    dict(step=R.STEP_CONTROLLED_SKEW,
         doc="Rank disagreement against pi with the same models: every task's negatives reweighted.",
         input=dict(status=per_task(PREDICTION_STATUS), tasks=TASKS_TABLE, per_task=FILES.csv(R.DISAGREEMENT_PER_TASK),
                    reference=SKEW_REFERENCE),
         settings=dict(metrics=ANALYSIS["metrics"], targets=ANALYSIS["skew_targets"], n_boot=ANALYSIS["skew_n_boot"],
                       seed=SEED),
         output=dict(per_task=FILES.csv(R.CONTROLLED_SKEW_PER_TASK),
                     counterfactual_per_task=FILES.csv(R.CONTROLLED_SKEW_COUNTERFACTUAL_PER_TASK),
                     tables=FILES.tables(R.STEP_CONTROLLED_SKEW, skip=_PER_TASK_SKEW)), tables="per_task"),
    dict(step=R.STEP_RANK,
         doc="Ranks within tasks, pairwise disagreement with bootstrap CIs, learners across tasks, scorecard.",
         input=dict(metrics=METRICS_TABLE, tasks=TASKS_TABLE,
                    selfcheck=[FILES.csv(R.OPENML_SELFCHECK_SUMMARY)] if SOURCE == "openml" else [],
                    floors=FILES.csv(R.NOISE_FLOOR_PER_TASK), pairs=FILES.csv(R.NOISE_FLOOR_PAIRS)),
         settings=dict(metrics=ANALYSIS["metrics"], n_boot=ANALYSIS["n_boot"], seed=SEED),
         output=dict(ranks=f"{WORK}/ranks.csv", tables=FILES.tables(R.STEP_RANK)), tables="tables", outs=("ranks",)),
    dict(step=R.STEP_FIGURE_DATA,
         doc="The tables Figures 4 (left, right) and 5 of Flach & Kull (2015) are drawn from, and the selection.",
         input=dict(metrics=METRICS_TABLE, ranks=f"{WORK}/ranks.csv", per_task=FILES.csv(R.DISAGREEMENT_PER_TASK),
                    tasks=TASKS_TABLE, status=per_task(PREDICTION_STATUS)),
         settings=dict(band_resamples=ANALYSIS["bands"]["n_resamples"], band_level=ANALYSIS["bands"]["level"], seed=SEED),
         output=dict(data=FILES.figure_data(R.STEP_FIGURE_DATA), selection=FILES.csv(R.FIGURE_SELECTION),
                     selection_md=R.FIGURE_SELECTION.markdown(TABLES)),
         figure_data="data", tables="selection", figure_data_first=True),
    dict(step=R.STEP_CD,
         doc="Friedman, Nemenyi critical difference and cliques per metric; the metric-order test over families of "
             "tasks, calibrated.",
         input=dict(metrics=METRICS_TABLE, tasks=TASKS_TABLE), settings=dict(study=STUDY, seed=SEED),
         output=dict(tables=FILES.tables(R.STEP_CD)), tables="tables"),
    dict(step=R.STEP_BOYD_THEORY_DATA, doc="The tables of Boyd et al. Figures 1-4: exact curves from prspace.metrics (no data).",
         output=dict(tables=FILES.figure_data(R.STEP_BOYD_THEORY_DATA)), figure_data="tables"),
    dict(step=R.STEP_BOYD_PAPER_TABLES,
         doc="Boyd's Table 3 (AUCNPR recomputed from AUCPR and skew) and Table 2 (implied skews).",
         output=dict(tables=FILES.tables(R.STEP_BOYD_PAPER_TABLES)), tables="tables"),
    dict(step=R.STEP_BOYD_PR_PRG,
         doc="The tables of Flach and Kull Figure 2 (PR beside PRG) for one real model's scores on one test fold.",
         input=dict(status=per_task(PREDICTION_STATUS)),
         settings=dict(task=BOYD["pr_prg"]["task"], model=BOYD["pr_prg"]["model"],
                       target_positives=BOYD["pr_prg"]["target_positives"]),
         output=dict(tables=FILES.figure_data(R.STEP_BOYD_PR_PRG), selection=FILES.csv(R.BOYD_FIG_PR_PRG_SOURCE)),
         tables="selection", figure_data="tables"),
    dict(step=R.STEP_BOYD_DOWNSAMPLING_REPORT,
         doc="Table 3 per task and learner, summary over tasks, and the tables of the downsampling figure.",
         input=dict(runs=INPUTS.downsampling_runs(BOYD_DS_RUNS)), grouped=True,
         settings=dict(study=STUDY, criteria=(
             f"pi <= {BOYD_DS['max_pi']}, at least {BOYD_DS['min_positives']} positives, "
             + ("every such task" if BOYD_DS["max_tasks"] is None else f"at most {BOYD_DS['max_tasks']} tasks (lowest pi first)"))),
         output=dict(tables=FILES.tables(R.STEP_BOYD_DOWNSAMPLING_REPORT),
                     figure_data=FILES.figure_data(R.STEP_BOYD_DOWNSAMPLING_REPORT)),
         tables="tables", figure_data="figure_data"),
    dict(step=R.STEP_BOYD_FOLD_SKEW_REPORT,
         doc="Bias of each aggregate and ranking changes against dispersion, and the tables of the figure.",
         input=dict(runs=INPUTS.fold_skew_runs(BOYD_FS_RUNS)), grouped=True,
         settings=dict(study=STUDY, criteria=(
             f"tasks with at least {BOYD_FS['min_positives']} positives"
             + (f", at most {BOYD_FS['max_tasks']} (lowest pi first)" if BOYD_FS["max_tasks"] else "")
             + f"; {BOYD_FS['seeds']} seeds per dispersion")),
         output=dict(tables=FILES.tables(R.STEP_BOYD_FOLD_SKEW_REPORT),
                     figure_data=FILES.figure_data(R.STEP_BOYD_FOLD_SKEW_REPORT)),
         tables="tables", figure_data="figure_data"),
    dict(step=R.STEP_BOYD_FOLD_SKEW_MECHANISM,
         doc="Section 4.1 on one simulated model (no data): the sign of the averaging bias, worst ranking to good model.",
         settings=dict(n_sim=BOYD_EV["mechanism_n_sim"], seed=SEED),
         output=dict(tables=FILES.tables(R.STEP_BOYD_FOLD_SKEW_MECHANISM)), tables="tables"),
    dict(step=R.STEP_BOYD_AGGREGATION,
         doc="Learners' mean AUPR / AUCNPR / AUPRG / AUROC over tasks of different skew, and the tables of the figure.",
         input=dict(metrics=METRICS_TABLE),
         settings=dict(learner=BOYD_AG["learner"], skew_groups=BOYD_AG["skew_groups"], study=STUDY),
         output=dict(tables=FILES.tables(R.STEP_BOYD_AGGREGATION), figure_data=FILES.figure_data(R.STEP_BOYD_AGGREGATION)),
         tables="tables", figure_data="figure_data"),
    dict(step=R.STEP_BOYD_EVIDENCE,
         doc="One evidence row per Boyd et al. claim of the registry (theorems, Tables 2-3, sections 4.1 and 4.3) and "
             "this project's exploratory rows about them, for rule verdicts.",
         input=dict(tasks=TASKS_TABLE, metrics=[METRICS_TABLE] if BOYD_AG["enabled"] else [],
                    mechanism=[FILES.csv(R.BOYD_FOLD_SKEW_MECHANISM)] if BOYD_FS["enabled"] else [],
                    downsampling_runs=INPUTS.downsampling_runs(BOYD_DS_RUNS, enabled=BOYD_EVIDENCE_DS),
                    fold_skew_runs=INPUTS.fold_skew_runs(BOYD_FS_RUNS, enabled=BOYD_FS["enabled"])),
         grouped=True,
         settings=dict(
             learner=BOYD_AG["learner"], n_resamples=BOYD_EV["n_resamples"], seed=SEED, max_pi=BOYD_DS["max_pi"],
             min_positives=BOYD_DS["min_positives"], downsampling_scope=(
                 f"Learners: panel {BOYD_DS['learners']}; {BOYD_DS['repeats']} x {BOYD_DS['folds']}-fold cross-validation; "
                 + ("every eligible task" if BOYD_DS["max_tasks"] is None else f"at most {BOYD_DS['max_tasks']} tasks")
                 + f". {BOYD_DS['scope_note']}")),
         output=dict(evidence=FILES.csv(R.BOYD_EVIDENCE), values=FILES.csv(R.BOYD_EVIDENCE_VALUES)), tables="evidence"),
]

for _spec in STEP_RULES:

    rule:
        """A `prspace step` rule of STEP_RULES (its own description: `snakemake --list-rules`)."""
        name: _spec["step"].name
        input: **_spec.get("input", {})
        output: **_spec["output"]
        log: JOBS.log(_spec["step"], task=_spec.get("task", False)),
        benchmark: JOBS.benchmark(_spec["step"], task=_spec.get("task", False))
        resources: **_spec.get("resources", {})
        params:
            step=_spec["step"].name,
            args=step_arguments(
                _spec.get("ins") or {role: role for role in _spec.get("input", {})}, grouped=_spec.get("grouped", False),
                settings=step_settings(**_spec["settings"]) if "settings" in _spec else "",
                tables=_spec.get("tables"), figure_data=_spec.get("figure_data"), outs=_spec.get("outs", ()),
                figure_data_first=_spec.get("figure_data_first", False)),
            prspace=PRSPACE,
        shell:
            "{params.prspace} step {params.step} {params.args} > {log} 2>&1"

    workflow.get_rule(_spec["step"].name).docstring = _spec["doc"]

# Boyd, Santos Costa, Davis and Page (ICML 2012): the unachievable region of PR space.
# Theory figures, checks of the paper's Tables 2 and 3, and the experiments of section 4:
# fold skew (4.1), aggregation over tasks (4.2), downsampling (4.3).  All logic lives in
# prspace (`prspace boyd ...`); settings: the boyd: section (workflow/schemas/boyd.schema.yaml,
# docs/boyd.md).

# Every figure is its own rule (figure_boyd_*): `prspace figure NAME` draws it from the tables
# (full precision, under work/<study>/figure_data) that its analysis rule wrote.

import shlex

from prspace.study.workflow_commands import BOYD_AGGREGATION_TABLES as BOYD_AG_TABLES
from prspace.study.workflow_commands import BOYD_THEORY_FIGURES, boyd_formats, own_data_args

BOYD = config["boyd"]
BOYD_WORK = f"{WORK}/boyd"
BOYD_FORMATS = boyd_formats(config)
BOYD_CATEGORY = "Boyd et al. 2012"
BOYD_DS = BOYD["downsampling"]
BOYD_FS = BOYD["fold_skew"]
BOYD_AG = BOYD["aggregation"]
BOYD_EV = BOYD["evidence"]


BOYD_OTHER_EXT = [e for e in BOYD_FORMATS if e != "png"]
# report() entries (caption ../report/boyd/<name>.rst, category, subcategory) of the Boyd outputs
BOYD_FIGURE_SUBCATEGORY = {
    **{n: "Theory" for n in [*BOYD_THEORY_FIGURES, "boyd_fig_pr_prg"]},
    "boyd_downsampling": "Downsampling (section 4.3)",
    "boyd_fold_skew": "Fold skew (section 4.1)",
    "boyd_aggregation": "Aggregation over tasks (section 4.2)",
}
BOYD_TABLE_SUBCATEGORY = {
    "boyd_table3_check": "Paper tables",
    "boyd_table2_check": "Paper tables",
    **{n: "Downsampling (section 4.3)" for n in ["boyd_downsampling_table3", "boyd_downsampling_summary",
                                                   "boyd_downsampling_vs_paper"]},
    "boyd_fold_skew_summary": "Fold skew (section 4.1)",
    "boyd_fold_skew_mechanism": "Fold skew (section 4.1)",
    **{n: "Aggregation over tasks (section 4.2)" for n in BOYD_AG_TABLES},
}
BOYD_FIG = {
    n: report(f"{FIGURES}/{n}.png", caption=f"../report/boyd/{n}.rst", category=BOYD_CATEGORY, subcategory=s,
              labels={"figure": n})
    for n, s in BOYD_FIGURE_SUBCATEGORY.items()
}
# tables are shown in the report as HTML pages (rule report_tables in report.smk), not CSV downloads
BOYD_TAB = {n: f"{TABLES}/{n}.csv" for n in BOYD_TABLE_SUBCATEGORY}
# your own data (local.data_dir): the downsampling step reads the files itself
BOYD_DATA_ARGS = own_data_args(config["local"])

# the tasks of sections 4.3 and 4.1 (prspace.study.workflow_inputs.StudyInputs), as input functions
BOYD_DS_RUNS = f"{BOYD_WORK}/downsampling/{{task}}.parquet"
BOYD_FS_RUNS = f"{BOYD_WORK}/fold_skew/{{task}}.parquet"


rule boyd_theory_data:
    """The tables of Boyd et al. Figures 1-4: exact curves from prspace.metrics (no data)."""
    output:
        tables=expand(f"{FIGURE_DATA}/{{name}}.csv", name=BOYD_THEORY_FIGURES),
    log:
        f"{LOGS}/boyd/theory_data.log",
    benchmark:
        f"{BENCHMARKS}/boyd/theory_data.tsv"
    params:
        prspace=PRSPACE,
        out=output_folder("tables"),
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} boyd theory-data --out-dir {params.out} > {log} 2>&1"


rule boyd_paper_tables:
    """Boyd's Table 3 (AUCNPR recomputed from AUCPR and skew) and Table 2 (implied skews)."""
    output:
        t3=BOYD_TAB["boyd_table3_check"],
        t3_md=f"{TABLES}/boyd_table3_check.md",
        t2=BOYD_TAB["boyd_table2_check"],
        t2_md=f"{TABLES}/boyd_table2_check.md",
    log:
        f"{LOGS}/boyd/paper_tables.log",
    benchmark:
        f"{BENCHMARKS}/boyd/paper_tables.tsv"
    params:
        prspace=PRSPACE,
        tables=output_folder("t3"),
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} boyd paper-tables --out-dir {params.tables} > {log} 2>&1"


rule boyd_pr_prg:
    """The tables of Flach and Kull Figure 2 (PR beside PRG) for one real model's scores on one test fold."""
    input:
        status=per_task(PREDICTION_STATUS),
    output:
        tables=expand(f"{FIGURE_DATA}/boyd_fig_pr_prg_{{name}}.csv", name=["points", "areas", "hull", "isometrics", "text"]),
        selection=f"{TABLES}/boyd_fig_pr_prg_source.csv",
    log:
        f"{LOGS}/boyd/pr_prg.log",
    benchmark:
        f"{BENCHMARKS}/boyd/pr_prg.tsv"
    params:
        task=BOYD["pr_prg"]["task"],
        model=BOYD["pr_prg"]["model"],
        target=BOYD["pr_prg"]["target_positives"],
        prspace=PRSPACE,
        out=output_folder("tables"),
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} boyd pr-prg --status {input.status} --task '{params.task}' --model '{params.model}' "
        "--target-positives {params.target} --figure-data-dir {params.out} "
        "--selection-out {output.selection} > {log} 2>&1"


rule boyd_downsample:
    """One task's downsampling runs: train at 1:k, test on downsampled and original test folds."""
    input:
        tasks=ancient(TASK_LIST),  # a new task list alone does not change this task's runs
        data=data_file,  # your own data file of the task (reruns when it changes)
    output:
        BOYD_DS_RUNS,
    log:
        f"{LOGS}/boyd/downsample/{{task}}.log",
    benchmark:
        f"{BENCHMARKS}/boyd/downsample/{{task}}.tsv"
    threads: 1
    resources:
        mem_mb=3000,
        runtime=60,
    params:
        data=BOYD_DATA_ARGS,
        learners=BOYD_DS["learners"],
        ratios=",".join(str(r) for r in BOYD_DS["ratios"]),
        prspace=PRSPACE,
        seed=SEED,
        folds=BOYD_DS["folds"],
        repeats=BOYD_DS["repeats"],
        max_pi=BOYD_DS["max_pi"],
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} boyd downsample --dataset {wildcards.task} {params.data} --learners '{params.learners}' "
        "--ratios {params.ratios} --folds {params.folds} --repeats {params.repeats} --seed {params.seed} "
        "--max-pi {params.max_pi} --out {output} > {log} 2>&1"


rule boyd_downsampling_report:
    """Table 3 per task and learner, summary over tasks, and the tables of the downsampling figure."""
    input:
        runs=INPUTS.downsampling_runs(BOYD_DS_RUNS),
    output:
        table3=BOYD_TAB["boyd_downsampling_table3"],
        table3_md=f"{TABLES}/boyd_downsampling_table3.md",
        summary=BOYD_TAB["boyd_downsampling_summary"],
        summary_md=f"{TABLES}/boyd_downsampling_summary.md",
        vs_paper=BOYD_TAB["boyd_downsampling_vs_paper"],
        vs_paper_md=f"{TABLES}/boyd_downsampling_vs_paper.md",
        figure_data=expand(f"{FIGURE_DATA}/boyd_downsampling_{{name}}.csv", name=["levels", "axis", "paper", "text"]),
    log:
        f"{LOGS}/boyd/downsampling_report.log",
    benchmark:
        f"{BENCHMARKS}/boyd/downsampling_report.tsv"
    params:
        criteria=(
            f"pi <= {BOYD_DS['max_pi']}, at least {BOYD_DS['min_positives']} positives, "
            + ("every such task" if BOYD_DS["max_tasks"] is None else f"at most {BOYD_DS['max_tasks']} tasks (lowest pi first)")
        ),
        prspace=PRSPACE,
        study=STUDY,
        tables=output_folder("table3"),
        figure_data=output_folder("figure_data"),
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} boyd downsampling-report --runs {input.runs} --tables-dir {params.tables} --figure-data-dir {params.figure_data} "
        "--study {params.study} --criteria '{params.criteria}' > {log} 2>&1"


rule boyd_fold_skew:
    """One task's fold-skew runs: aggregates on skewed vs stratified test folds."""
    input:
        status=PREDICTION_STATUS,
    output:
        BOYD_FS_RUNS,
    log:
        f"{LOGS}/boyd/fold_skew/{{task}}.log",
    benchmark:
        f"{BENCHMARKS}/boyd/fold_skew/{{task}}.tsv"
    threads: 1
    params:
        dispersions=",".join(str(d) for d in BOYD_FS["dispersions"]),
        prspace=PRSPACE,
        seed=SEED,
        seeds=BOYD_FS["seeds"],
        max_repeats=BOYD_FS["max_repeats"],
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} boyd fold-skew --status {input.status} --dispersions {params.dispersions} "
        "--seeds {params.seeds} --max-repeats {params.max_repeats} --seed {params.seed} --out {output} > {log} 2>&1"


rule boyd_fold_skew_report:
    """Bias of each aggregate and ranking changes against dispersion, and the tables of the figure."""
    input:
        runs=INPUTS.fold_skew_runs(BOYD_FS_RUNS),
    output:
        summary=BOYD_TAB["boyd_fold_skew_summary"],
        summary_md=f"{TABLES}/boyd_fold_skew_summary.md",
        per_task=f"{TABLES}/boyd_fold_skew_per_task.csv",
        per_task_md=f"{TABLES}/boyd_fold_skew_per_task.md",
        figure_data=expand(f"{FIGURE_DATA}/boyd_fold_skew_{{name}}.csv", name=["lines", "text"]),
    log:
        f"{LOGS}/boyd/fold_skew_report.log",
    benchmark:
        f"{BENCHMARKS}/boyd/fold_skew_report.tsv"
    params:
        criteria=(
            f"tasks with at least {BOYD_FS['min_positives']} positives"
            + (f", at most {BOYD_FS['max_tasks']} (lowest pi first)" if BOYD_FS["max_tasks"] else "")
            + f"; {BOYD_FS['seeds']} seeds per dispersion"
        ),
        prspace=PRSPACE,
        study=STUDY,
        tables=output_folder("summary"),
        figure_data=output_folder("figure_data"),
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} boyd fold-skew-report --runs {input.runs} --tables-dir {params.tables} --figure-data-dir {params.figure_data} "
        "--study {params.study} --criteria '{params.criteria}' > {log} 2>&1"


rule boyd_fold_skew_mechanism:
    """Section 4.1 on one simulated model (no data): the sign of the averaging bias, worst ranking to good model."""
    output:
        table=BOYD_TAB["boyd_fold_skew_mechanism"],
        table_md=f"{TABLES}/boyd_fold_skew_mechanism.md",
    log:
        f"{LOGS}/boyd/fold_skew_mechanism.log",
    benchmark:
        f"{BENCHMARKS}/boyd/fold_skew_mechanism.tsv"
    params:
        prspace=PRSPACE,
        seed=SEED,
        n_sim=BOYD_EV["mechanism_n_sim"],
        tables=output_folder("table"),
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} boyd fold-skew-mechanism --n-sim {params.n_sim} --seed {params.seed} "
        "--tables-dir {params.tables} > {log} 2>&1"


rule boyd_aggregation:
    """Learners' mean AUPR / AUCNPR / AUPRG / AUROC over tasks of different skew, and the tables of the figure."""
    input:
        metrics=METRICS_TABLE,
    output:
        tasks=BOYD_TAB["boyd_aggregation_tasks"],
        learners=BOYD_TAB["boyd_aggregation_learners"],
        corr=BOYD_TAB["boyd_aggregation_skew_correlation"],
        other=expand(f"{TABLES}/{{name}}.{{ext}}", name=BOYD_AG_TABLES, ext=["md"])
        + [f"{TABLES}/boyd_aggregation_agreement.csv", f"{TABLES}/boyd_aggregation_skew_groups.csv"],
        figure_data=expand(f"{FIGURE_DATA}/boyd_aggregation_{{name}}.csv", name=["points", "task_means", "min_curve", "ranks", "text"]),
    log:
        f"{LOGS}/boyd/aggregation.log",
    benchmark:
        f"{BENCHMARKS}/boyd/aggregation.tsv"
    params:
        prspace=PRSPACE,
        study=STUDY,
        learner=BOYD_AG["learner"],
        skew_groups=BOYD_AG["skew_groups"],
        tables=output_folder("tasks"),
        figure_data=output_folder("figure_data"),
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} boyd aggregation --metrics {input.metrics} --learner {params.learner} "
        "--skew-groups {params.skew_groups} --tables-dir {params.tables} --figure-data-dir {params.figure_data} "
        "--study {params.study} > {log} 2>&1"


BOYD_EVIDENCE_DS = BOYD_DS["enabled"] and SOURCE == "local"


rule boyd_evidence:
    """One evidence row per Boyd et al. claim of the registry (theorems, Tables 2-3, sections 4.1 and 4.3) and
    this project's exploratory rows about them, for rule verdicts."""
    input:
        tasks=f"{TABLES}/tasks.csv",
        metrics=[METRICS_TABLE] if BOYD_AG["enabled"] else [],
        mechanism=[BOYD_TAB["boyd_fold_skew_mechanism"]] if BOYD_FS["enabled"] else [],
        ds_runs=INPUTS.downsampling_runs(BOYD_DS_RUNS, enabled=BOYD_EVIDENCE_DS),
        fs_runs=INPUTS.fold_skew_runs(BOYD_FS_RUNS, enabled=BOYD_FS["enabled"]),
    output:
        evidence=f"{TABLES}/boyd_evidence.csv",
        values=f"{TABLES}/boyd_evidence_values.csv",
    log:
        f"{LOGS}/boyd/evidence.log",
    benchmark:
        f"{BENCHMARKS}/boyd/evidence.tsv"
    params:
        metrics="--metrics" if BOYD_AG["enabled"] else "",
        mechanism="--mechanism" if BOYD_FS["enabled"] else "",
        ds_runs="--downsampling-runs" if BOYD_EVIDENCE_DS else "",
        fs_runs="--fold-skew-runs" if BOYD_FS["enabled"] else "",
        n_resamples=BOYD_EV["n_resamples"],
        prspace=PRSPACE,
        seed=SEED,
        learner=BOYD_AG["learner"],
        max_pi=BOYD_DS["max_pi"],
        min_positives=BOYD_DS["min_positives"],
        scope=shlex.quote(
            f"Learners: panel {BOYD_DS['learners']}; {BOYD_DS['repeats']} x {BOYD_DS['folds']}-fold cross-validation; "
            + ("every eligible task" if BOYD_DS["max_tasks"] is None else f"at most {BOYD_DS['max_tasks']} tasks")
            + f". {BOYD_DS['scope_note']}"
        ),
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} boyd evidence --tasks {input.tasks} {params.metrics} {input.metrics} "
        "{params.mechanism} {input.mechanism} {params.ds_runs} {input.ds_runs} {params.fs_runs} {input.fs_runs} "
        "--learner {params.learner} --n-resamples {params.n_resamples} --seed {params.seed} "
        "--max-pi {params.max_pi} --min-positives {params.min_positives} --downsampling-scope {params.scope} "
        "--out {output.evidence} --values-out {output.values} > {log} 2>&1"


rule figure_boyd_fig1_min_pr_curve:
    """Boyd et al. Figure 1, drawn from its table."""
    input:
        tables=[
            f"{FIGURE_DATA}/boyd_fig1_min_pr_curve.csv",
        ],
    output:
        png=BOYD_FIG["boyd_fig1_min_pr_curve"],
        other=expand(f"{FIGURES}/boyd_fig1_min_pr_curve.{{ext}}", ext=BOYD_OTHER_EXT),
    log:
        f"{LOGS}/figures/boyd_fig1_min_pr_curve.log",
    benchmark:
        f"{BENCHMARKS}/figures/boyd_fig1_min_pr_curve.tsv"
    params:
        formats=",".join(BOYD_FORMATS),
        prspace=PRSPACE,
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} figure boyd_fig1_min_pr_curve --tables {input.tables} --out {output.png} "
        "--formats {params.formats} > {log} 2>&1"


rule figure_boyd_fig2_min_pr_curves:
    """Boyd et al. Figure 2, drawn from its table."""
    input:
        tables=[
            f"{FIGURE_DATA}/boyd_fig2_min_pr_curves.csv",
        ],
    output:
        png=BOYD_FIG["boyd_fig2_min_pr_curves"],
        other=expand(f"{FIGURES}/boyd_fig2_min_pr_curves.{{ext}}", ext=BOYD_OTHER_EXT),
    log:
        f"{LOGS}/figures/boyd_fig2_min_pr_curves.log",
    benchmark:
        f"{BENCHMARKS}/figures/boyd_fig2_min_pr_curves.tsv"
    params:
        formats=",".join(BOYD_FORMATS),
        prspace=PRSPACE,
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} figure boyd_fig2_min_pr_curves --tables {input.tables} --out {output.png} "
        "--formats {params.formats} > {log} 2>&1"


rule figure_boyd_fig3_aucpr_min:
    """Boyd et al. Figure 3, drawn from its table."""
    input:
        tables=[
            f"{FIGURE_DATA}/boyd_fig3_aucpr_min.csv",
        ],
    output:
        png=BOYD_FIG["boyd_fig3_aucpr_min"],
        other=expand(f"{FIGURES}/boyd_fig3_aucpr_min.{{ext}}", ext=BOYD_OTHER_EXT),
    log:
        f"{LOGS}/figures/boyd_fig3_aucpr_min.log",
    benchmark:
        f"{BENCHMARKS}/figures/boyd_fig3_aucpr_min.tsv"
    params:
        formats=",".join(BOYD_FORMATS),
        prspace=PRSPACE,
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} figure boyd_fig3_aucpr_min --tables {input.tables} --out {output.png} "
        "--formats {params.formats} > {log} 2>&1"


rule figure_boyd_fig4_f1_contours:
    """Boyd et al. Figure 4, drawn from its table."""
    input:
        tables=[
            f"{FIGURE_DATA}/boyd_fig4_f1_contours.csv",
        ],
    output:
        png=BOYD_FIG["boyd_fig4_f1_contours"],
        other=expand(f"{FIGURES}/boyd_fig4_f1_contours.{{ext}}", ext=BOYD_OTHER_EXT),
    log:
        f"{LOGS}/figures/boyd_fig4_f1_contours.log",
    benchmark:
        f"{BENCHMARKS}/figures/boyd_fig4_f1_contours.tsv"
    params:
        formats=",".join(BOYD_FORMATS),
        prspace=PRSPACE,
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} figure boyd_fig4_f1_contours --tables {input.tables} --out {output.png} "
        "--formats {params.formats} > {log} 2>&1"


rule figure_boyd_fig_pr_prg:
    """Flach and Kull Figure 2 on real scores, drawn from the tables of rule boyd_pr_prg."""
    input:
        tables=[
            f"{FIGURE_DATA}/boyd_fig_pr_prg_points.csv",
            f"{FIGURE_DATA}/boyd_fig_pr_prg_areas.csv",
            f"{FIGURE_DATA}/boyd_fig_pr_prg_hull.csv",
            f"{FIGURE_DATA}/boyd_fig_pr_prg_isometrics.csv",
        ],
        text=f"{FIGURE_DATA}/boyd_fig_pr_prg_text.csv",
    output:
        png=BOYD_FIG["boyd_fig_pr_prg"],
        other=expand(f"{FIGURES}/boyd_fig_pr_prg.{{ext}}", ext=BOYD_OTHER_EXT),
    log:
        f"{LOGS}/figures/boyd_fig_pr_prg.log",
    benchmark:
        f"{BENCHMARKS}/figures/boyd_fig_pr_prg.tsv"
    params:
        formats=",".join(BOYD_FORMATS),
        prspace=PRSPACE,
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} figure boyd_fig_pr_prg --tables {input.tables} --text {input.text} --out {output.png} "
        "--formats {params.formats} > {log} 2>&1"


rule figure_boyd_downsampling:
    """The downsampling figure, drawn from the tables of rule boyd_downsampling_report."""
    input:
        tables=[
            f"{FIGURE_DATA}/boyd_downsampling_levels.csv",
            f"{FIGURE_DATA}/boyd_downsampling_axis.csv",
            f"{FIGURE_DATA}/boyd_downsampling_paper.csv",
        ],
        text=f"{FIGURE_DATA}/boyd_downsampling_text.csv",
    output:
        png=BOYD_FIG["boyd_downsampling"],
        other=expand(f"{FIGURES}/boyd_downsampling.{{ext}}", ext=BOYD_OTHER_EXT),
    log:
        f"{LOGS}/figures/boyd_downsampling.log",
    benchmark:
        f"{BENCHMARKS}/figures/boyd_downsampling.tsv"
    params:
        formats=",".join(BOYD_FORMATS),
        prspace=PRSPACE,
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} figure boyd_downsampling --tables {input.tables} --text {input.text} --out {output.png} "
        "--formats {params.formats} > {log} 2>&1"


rule figure_boyd_fold_skew:
    """The fold-skew figure, drawn from the tables of rule boyd_fold_skew_report."""
    input:
        tables=[
            f"{FIGURE_DATA}/boyd_fold_skew_lines.csv",
        ],
        text=f"{FIGURE_DATA}/boyd_fold_skew_text.csv",
    output:
        png=BOYD_FIG["boyd_fold_skew"],
        other=expand(f"{FIGURES}/boyd_fold_skew.{{ext}}", ext=BOYD_OTHER_EXT),
    log:
        f"{LOGS}/figures/boyd_fold_skew.log",
    benchmark:
        f"{BENCHMARKS}/figures/boyd_fold_skew.tsv"
    params:
        formats=",".join(BOYD_FORMATS),
        prspace=PRSPACE,
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} figure boyd_fold_skew --tables {input.tables} --text {input.text} --out {output.png} "
        "--formats {params.formats} > {log} 2>&1"


rule figure_boyd_aggregation:
    """The aggregation figure, drawn from the tables of rule boyd_aggregation."""
    input:
        tables=[
            f"{FIGURE_DATA}/boyd_aggregation_points.csv",
            f"{FIGURE_DATA}/boyd_aggregation_task_means.csv",
            f"{FIGURE_DATA}/boyd_aggregation_min_curve.csv",
            f"{FIGURE_DATA}/boyd_aggregation_ranks.csv",
        ],
        text=f"{FIGURE_DATA}/boyd_aggregation_text.csv",
    output:
        png=BOYD_FIG["boyd_aggregation"],
        other=expand(f"{FIGURES}/boyd_aggregation.{{ext}}", ext=BOYD_OTHER_EXT),
    log:
        f"{LOGS}/figures/boyd_aggregation.log",
    benchmark:
        f"{BENCHMARKS}/figures/boyd_aggregation.tsv"
    params:
        formats=",".join(BOYD_FORMATS),
        prspace=PRSPACE,
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} figure boyd_aggregation --tables {input.tables} --text {input.text} --out {output.png} "
        "--formats {params.formats} > {log} 2>&1"

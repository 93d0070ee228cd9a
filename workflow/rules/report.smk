# HTML renderings of every table of the study, so `snakemake --report` shows them (the report
# displays images, PDFs and HTML; CSVs would only be offered for download).  One job.

REPORT_TABLES = {
    # name: (title, category, subcategory, caption)
    "scorecard": ("Replication scorecard: Flach & Kull (2015), section 4", "Tables", "1 Ranking", None),
    "disagreement_summary": ("Rank disagreement between metrics, with bootstrap 95% intervals", "Tables", "1 Ranking", None),
    "disagreement_per_task": ("Rank disagreement per task and metric pair", "Tables", "1 Ranking", None),
    "learner_ranking": ("Learners ranked across tasks by mean AUPR, AUCNPR and AUPRG", "Tables", "2 Learners across tasks", None),
    "learner_agreement": ("Do the learners' orders by mean metric agree?", "Tables", "2 Learners across tasks", None),
    "tasks": ("Tasks of the study", "Tables", "3 Data", None),
    "figure_selection": ("Tasks and models drawn in Figures 4 (right) and 5", "Tables", "3 Data", None),
    "metrics": ("Metrics per task and model (pooled over folds; fold mean and spread)", "Tables", "3 Data", None),
    "noise_floor_per_task": ("Noise floor: how often a metric disagrees with itself on resampled test rows", "Tables", "4 Noise, skew and panel", None),
    "noise_floor_pairs": ("Noise floor: are the two preferred models distinguishable?", "Tables", "4 Noise, skew and panel", None),
    "controlled_skew": ("Skew isolated: the same models with the negatives reweighted", "Tables", "4 Noise, skew and panel", "../report/controlled_skew_table.rst"),
    "controlled_skew_observed": ("Observed disagreement by pi bin and by number of positives", "Tables", "4 Noise, skew and panel", None),
    "panel_sensitivity": ("Panel sensitivity: every model vs one model per learner family", "Tables", "4 Noise, skew and panel", None),
    "learner_winners": ("The best learner across tasks, its margin and the tasks that decide it", "Tables", "2 Learners across tasks", None),
}


def _boyd_report_tables():
    """The Boyd et al. tables this study makes (as boyd.smk decides), for the report."""
    b = config["boyd"]
    groups = []
    if not b["enabled"]:
        return {}
    if b["theory"]:
        groups.append(("Paper tables", {
            "boyd_table3_check": "Boyd Table 3: AUCNPR recomputed from AUCPR and skew",
            "boyd_table2_check": "Boyd Table 2: the skews the table implies",
        }))
        groups.append(("Theory", {"boyd_fig_pr_prg_source": "Scores drawn in the PR/PRG figure"}))
    if b["downsampling"]["enabled"] and SOURCE == "local":
        groups.append(("Downsampling (section 4.3)", {
            "boyd_downsampling_table3": "Downsampling: Boyd Table 3 per task and learner",
            "boyd_downsampling_summary": "Downsampling: summary over tasks",
            "boyd_downsampling_vs_paper": "Downsampling: this study beside the paper",
        }))
    if b["fold_skew"]["enabled"]:
        groups.append(("Fold skew (section 4.1)", {
            "boyd_fold_skew_summary": "Fold skew: bias of each aggregate per dispersion",
            "boyd_fold_skew_per_task": "Fold skew: bias per task and dispersion",
        }))
    if b["aggregation"]["enabled"]:
        groups.append(("Aggregation over tasks (section 4.2)", {
            "boyd_aggregation_tasks": "Aggregation: metrics per task and learner",
            "boyd_aggregation_learners": "Aggregation: learners' means over tasks",
            "boyd_aggregation_agreement": "Aggregation: do the learners' orders agree?",
            "boyd_aggregation_skew_correlation": "Aggregation: metrics against skew",
            "boyd_aggregation_skew_groups": "Aggregation: learners within skew groups",
        }))
    return {
        name: (title, "Boyd et al. 2012", sub, f"../report/boyd/{name}.rst")
        for sub, tables in groups
        for name, title in tables.items()
    }


REPORT_TABLES.update(_boyd_report_tables())


def _table_args(wildcards, input, output):
    from shlex import quote

    return " ".join(
        f"--table {i} {o} {quote(REPORT_TABLES[n][0] + f' (study {STUDY})')}"
        for n, i, o in zip(REPORT_TABLES, input, output)
    )


rule report_tables:
    """HTML pages of every result table, for the Snakemake report."""
    input:
        [f"{TABLES}/{name}.csv" for name in REPORT_TABLES],
    output:
        [
            report(
                f"{WORK}/report/{name}.html",
                caption=caption or f"../report/{name}.rst",
                category=category,
                subcategory=sub,
                labels={"table": name.replace("_", " ")},
            )
            for name, (title, category, sub, caption) in REPORT_TABLES.items()
        ],
    log:
        f"{LOGS}/report_tables.log",
    benchmark:
        f"{BENCHMARKS}/report_tables.tsv"
    params:
        tables=lambda wildcards, input, output: _table_args(wildcards, input, output),
    shell:
        "{PRSPACE} table-html {params.tables} > {log} 2>&1"


ALL_TARGETS.extend(f"{WORK}/report/{name}.html" for name in REPORT_TABLES)

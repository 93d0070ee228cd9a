# Every figure of the study: one rule figure_<name> each, made by the one loop below.  An analysis
# rule writes the figure's tables; `prspace figure <name>` only lays them out (docs/architecture.md).
# Flach & Kull's figures and the study's own are written in analysis.figure_formats (PNG first, for
# the report); Boyd et al.'s in those formats and always PNG (prspace.study.workflow_commands.boyd_formats).

from prspace.study.workflow_commands import boyd_formats

_FORMATS = config["analysis"]["figure_formats"]
_BOYD_FORMATS = boyd_formats(config)
_BOYD = "Boyd et al. 2012"
# name, its tables in draw order, its text table (or None), Boyd's (True) or the study's, report subcategory
_FIGURES = [
    ("fig4_rank_heatmap", [f"{FIGURE_DATA}/fig4_rank_counts.csv"], f"{FIGURE_DATA}/figure_text.csv", False, None),
    ("fig4_auprg_vs_aupr", [f"{FIGURE_DATA}/fig4_scatter.csv"], f"{FIGURE_DATA}/figure_text.csv", False, None),
    ("fig5_curves", [f"{FIGURE_DATA}/fig5_curve_{n}.csv" for n in ["points", "areas", "bands"]],
     f"{FIGURE_DATA}/figure_text.csv", False, None),
    ("controlled_skew", [f"{TABLES}/controlled_skew.csv", f"{TABLES}/controlled_skew_observed.csv"], None, False, None),
    ("cd_diagram", [f"{TABLES}/cd_{n}.csv" for n in ["ranks", "cliques", "tests"]], None, False, None),
    *((n, [f"{FIGURE_DATA}/{n}.csv"], None, True, "Theory") for n in BOYD_THEORY_FIGURES),
    ("boyd_fig_pr_prg", [f"{FIGURE_DATA}/boyd_fig_pr_prg_{n}.csv" for n in ["points", "areas", "hull", "isometrics"]],
     f"{FIGURE_DATA}/boyd_fig_pr_prg_text.csv", True, "Theory"),
    ("boyd_downsampling", [f"{FIGURE_DATA}/boyd_downsampling_{n}.csv" for n in ["levels", "axis", "paper"]],
     f"{FIGURE_DATA}/boyd_downsampling_text.csv", True, "Downsampling (section 4.3)"),
    ("boyd_fold_skew", [f"{FIGURE_DATA}/boyd_fold_skew_lines.csv"], f"{FIGURE_DATA}/boyd_fold_skew_text.csv", True,
     "Fold skew (section 4.1)"),
    ("boyd_aggregation", [f"{FIGURE_DATA}/boyd_aggregation_{n}.csv" for n in ["points", "task_means", "min_curve", "ranks"]],
     f"{FIGURE_DATA}/boyd_aggregation_text.csv", True, "Aggregation over tasks (section 4.2)"),
]


for _name, _tables, _text, _boyd, _section in _FIGURES:

    rule:
        """A figure (params.figure), drawn by `prspace figure` from the tables its analysis rule wrote."""
        name:
            f"figure_{_name}"
        input:
            tables=_tables,
            text=[_text] if _text else [],
        output:
            png=report(f"{FIGURES}/{_name}.png", caption=f"../report/{'boyd/' if _boyd else ''}{_name}.rst",
                       category=_BOYD if _boyd else "Figures", subcategory=_section, labels={"figure": _name}),
            other=[f"{FIGURES}/{_name}.{e}" for e in (_BOYD_FORMATS if _boyd else _FORMATS) if e != "png"],
        log:
            JOBS.log(f"figure_{_name}", figure=True),
        benchmark:
            JOBS.benchmark(f"figure_{_name}", figure=True)
        params:
            figure=_name,
            # the analysis figures pass png twice (PNG first, then every format): harmless, kept as it was
            formats=",".join(_BOYD_FORMATS) if _boyd else ",".join(["png", *_FORMATS]),
            text=lambda wildcards, input: "".join(f" --text {t}" for t in input.text),
            prspace=PRSPACE,
        # the shell command names no loop variable: Snakemake evaluates it again when the job runs
        shell:
            "{params.prspace} figure {params.figure} --tables {input.tables}{params.text} --out {output.png} "
            "--formats {params.formats} > {log} 2>&1"

# Every figure the study draws (prspace.study.study_plan.figures): one rule figure_<name> each, made by
# the one loop below from its registry entry (prspace.core.registry.Figure).  An analysis rule writes
# the figure's tables; `prspace figure <name>` only lays them out (docs/architecture.md).  Flach &
# Kull's figures and the study's own are written in analysis.figure_formats (PNG first, for the
# report); Boyd et al.'s in those formats and always PNG (prspace.study.study_plan.figure_formats).
# Each caption is its file workflow/report/captions/figures/<name>.rst (prspace.study.study_plan.caption_file).

from prspace.study.study_plan import caption_file, figure_formats, figures
from prspace.study.workflow_commands import figure_sources, figure_texts

for _fig in figures(config):

    rule:
        name: f"figure_{_fig.name}"
        input: tables=FILES.figure_tables(_fig), text=[FILES.csv(_fig.text)] if _fig.text else [],
        output:
            png=report(str(_fig.path(FIGURES, "png")), caption=caption_file(_fig, workflow.basedir), category=_fig.category,
                       subcategory=_fig.section, labels={"figure": _fig.name}),
            other=[_fig.path(FIGURES, e) for e in figure_formats(_fig, config) if e != "png"],
            # the numbers the figure draws, as its source table (results/<study>/tables/<source>.csv), if it has one
            source=[_fig.source.csv(TABLES)] if _fig.source else [],
        log: JOBS.log(f"figure_{_fig.name}", figure=True),
        benchmark: JOBS.benchmark(f"figure_{_fig.name}", figure=True)
        params:
            figure=_fig.name,
            # the analysis figures pass png twice (PNG first, then every format): harmless, kept as it was
            formats=",".join((["png"] if _fig.formats == "analysis" else []) + figure_formats(_fig, config)),
            text=figure_texts,
            source=figure_sources,
            prspace=PRSPACE,
            code=command_code("figure", _fig.draw),
        # the shell command names no loop variable: Snakemake evaluates it again when the job runs
        shell:
            "{params.prspace} figure {params.figure} --tables {input.tables}{params.text} --out {output.png} "
            "--formats {params.formats}{params.source} > {log} 2>&1"

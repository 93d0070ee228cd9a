"""The study registry: every result table, figure-data table, figure and workflow step, declared once.

Each name is a module constant, by convention named after it in upper case (figures with the
prefix ``FIGURE_``, steps ``STEP_<RULE>``; no code reads a constant by its name); everyone else
spells a name only through these constants (``from prspace.core import registry as R``;
``R.NOISE_FLOOR_PAIRS.csv(tables_dir)``).  What is derived from them (a study's targets, its report
tables, the verdicts' inputs, the figures) lives in :mod:`prspace.study.study_plan`.  Each table of
the report and each figure holds its title and report section, and each figure the function that
draws it (``draw``); the words under it in the Snakemake report, its caption (reStructuredText), is
a file beside the workflow, ``workflow/report/captions/tables/<name>.rst`` or
``.../figures/<name>.rst`` (:func:`prspace.study.study_plan.caption_of`), as the Snakemake catalog
keeps ``report/*.rst`` (issue 61).  What a declaration is (:class:`Table`, :class:`Step`, ...) lives
in :mod:`prspace.core.registry_types`, re-exported here.

Standard library only: the rule files and every layer may import it.  One module on purpose, though
long: each step declares here, once, its tables, its function (``run``) and its rule's inputs and
settings as data, so a new table edits this file and its step's code (and writes its caption), and
a new experiment this one file of the workflow's plumbing (issues 34 and 43).
"""

from __future__ import annotations

# the kinds of declaration (prspace.core.registry_types), re-exported: R.Table, R.Step, R.When, ...
from prspace.core.registry_types import (  # noqa: F401
    BOYD_CATEGORY,
    FIGURES_CATEGORY,
    OPENML_CATEGORY,
    TABLES_CATEGORY,
    Composed,
    Figure,
    FigureData,
    File,
    If,
    Input,
    OverTasks,
    Selection,
    Setting,
    Step,
    StudyFile,
    Table,
    When,
    per_task,
)


def _boyd(name: str, title: str, section: str, md: bool = True) -> Table:
    return Table(name, title, section, BOYD_CATEGORY, md=md)


def _openml(name: str, title: str) -> Table:
    return Table(name, title, None, OPENML_CATEGORY)


# --- tables, in the order of the report ----------------------------------------------------------
_V, _R, _L, _D, _N = "0 Verdicts", "1 Ranking", "2 Learners across tasks", "3 Data", "4 Noise, skew and panel"
VERDICTS = Table("verdicts", "Verdicts: every claim of both papers, by the rule of docs/verdicts.md", _V)
SENSITIVITY = Table("sensitivity", "Sensitivity: each primary claim's verdict on other views of the population", _V)
MARGIN_SENSITIVITY = Table("margin_sensitivity", "Margins: each primary claim's verdict at margins 0.05, 0.10 and 0.15", _V)
SCORECARD = Table("scorecard", "Replication scorecard: Flach & Kull (2015), section 4", _R)
DISAGREEMENT_SUMMARY = Table("disagreement_summary", "Rank disagreement between metrics, with bootstrap 95% intervals", _R)
DISAGREEMENT_PER_TASK = Table("disagreement_per_task", "Rank disagreement per task and metric pair", _R, md=False)
AUROC_BOUNDS = Table("auroc_bounds", "What a given AUROC allows: top-1 disagreements with AUROC that the AUROC gap permits", _R)
LEARNER_RANKING = Table("learner_ranking", "Learners ranked across tasks by mean AUPR, AUCNPR and AUPRG", _L)
LEARNER_AGREEMENT = Table("learner_agreement", "Do the learners' orders by mean metric agree?", _L)
TASKS = Table("tasks", "Tasks of the study", _D)
FIGURE_SELECTION = Table("figure_selection", "Tasks and models drawn in Figures 4 (right) and 5", _D)
METRICS = Table("metrics", "Metrics per task and model (pooled over folds; fold mean and spread)", _D, md=False)
NOISE_FLOOR_PER_TASK = Table("noise_floor_per_task", "Noise floor: how often a metric disagrees with itself on resampled test rows", _N, md=False)
NOISE_FLOOR_PAIRS = Table("noise_floor_pairs", "Noise floor: are the two preferred models distinguishable?", _N, md=False)
CALIBRATION_SUMMARY = Table("calibration_summary", "Calibration of the distinguishable check: false rate and the smallest reversal detected with 80% power", _N)
CALIBRATION = Table("calibration", "Calibration of the distinguishable check: every simulated scenario", _N)
NOISE_EVIDENCE = Table("noise_evidence", "Evidence rows: is the metrics' disagreement more than noise?", _N)
RANK_SETS = Table("rank_sets", "Confidence sets for ranks per task and metric: rank intervals and plausible-best sets", _N, md=False)
RANK_SET_SUMMARY = Table("rank_set_summary", "Disjoint plausible-best sets: disagreement on the best model real by construction", _N)
RANK_SET_CALIBRATION = Table("rank_set_calibration", "Calibration of disjoint plausible-best sets: false rate and power by simulation", _N)
RANK_SET_EVIDENCE = Table("rank_set_evidence", "Evidence rows: disjoint plausible-best sets per metric pair", _N)
CONTROLLED_SKEW = Table("controlled_skew", "Skew isolated: the same models with the negatives reweighted", _N)
CONTROLLED_SKEW_OBSERVED = Table("controlled_skew_observed", "Observed disagreement by pi bin and by number of positives", _N)
CONTROLLED_SKEW_TREND = Table("controlled_skew_trend", "Skew isolated: how fast each pair's disagreement rises as pi falls", _N)
CONTROLLED_SKEW_COUNTERFACTUAL = Table("controlled_skew_counterfactual", "Skew counterfactual: this study's disagreement at a reference population's pi", _N)
DISAGREEMENT_BY_BALANCE = Table("disagreement_by_balance", "Observed disagreement by balance level of the task", _N)
SKEW_EVIDENCE = Table("skew_evidence", "Evidence rows: skew as the explanation of the disagreement", _N)
CONTROLLED_SKEW_PER_TASK = Table("controlled_skew_per_task", "Skew isolated, per task: disagreement at each target pi with the negatives reweighted", _N, md=False)
CONTROLLED_SKEW_COUNTERFACTUAL_PER_TASK = Table("controlled_skew_counterfactual_per_task", "Skew counterfactual, per task: each task's disagreement at its reference pi", _N, md=False)
PANEL_SENSITIVITY = Table("panel_sensitivity", "Panel sensitivity: every model vs one model per learner method", _N)
LEARNER_WINNERS = Table("learner_winners", "The best learner across tasks, its margin and the tasks that decide it", _L)
CD_TESTS = Table("cd_tests", "Critical-difference diagrams: Friedman test and Nemenyi critical difference per metric", _L)
CD_METRIC_PAIRS = Table("cd_metric_pairs", "Do two metrics order the learners differently across tasks beyond noise?", _L)
CD_CLIQUES = Table("cd_cliques", "Cliques of the critical-difference diagrams: learners not significantly different", _L)
FK_EVIDENCE = Table("fk_evidence", "Evidence rows: the learners' common order, Flach & Kull's theorems and code", _V)
CLAIMS_NOT_TESTED = Table("claims_not_tested", "Claims of both papers not tested, and why", _V)
PANEL_DRAWS = Table("panel_draws", "Panel draws: each primary estimate over random model panels drawn per task", _N)
CD_RANKS = Table("cd_ranks", "Learners' average ranks across tasks per metric (critical-difference diagrams)", _L)

_BE, _BP, _BT = "Verdict evidence", "Paper tables", "Theory"
_BD, _BF, _BA = "Downsampling (section 4.3)", "Fold skew (section 4.1)", "Aggregation over tasks (section 4.2)"
BOYD_EVIDENCE = _boyd("boyd_evidence", "Boyd et al.: the evidence row of every claim the study checked", _BE, md=False)
BOYD_EVIDENCE_VALUES = _boyd("boyd_evidence_values", "Boyd et al.: the per-task values each interval row resampled", _BE, md=False)
BOYD_TABLE3_CHECK = _boyd("boyd_table3_check", "Boyd Table 3: AUCNPR recomputed from AUCPR and skew", _BP)
BOYD_TABLE2_CHECK = _boyd("boyd_table2_check", "Boyd Table 2: the skews the table implies", _BP)
BOYD_FIG_PR_PRG_SOURCE = _boyd("boyd_fig_pr_prg_source", "Scores drawn in the PR/PRG figure", _BT, md=False)
BOYD_DOWNSAMPLING_TABLE3 = _boyd("boyd_downsampling_table3", "Downsampling: Boyd Table 3 per task and learner", _BD)
BOYD_DOWNSAMPLING_SUMMARY = _boyd("boyd_downsampling_summary", "Downsampling: summary over tasks", _BD)
BOYD_DOWNSAMPLING_VS_PAPER = _boyd("boyd_downsampling_vs_paper", "Downsampling: this study beside the paper", _BD)
BOYD_FOLD_SKEW_SUMMARY = _boyd("boyd_fold_skew_summary", "Fold skew: bias of each aggregate per dispersion", _BF)
BOYD_FOLD_SKEW_PER_TASK = _boyd("boyd_fold_skew_per_task", "Fold skew: bias per task and dispersion", _BF)
BOYD_FOLD_SKEW_MECHANISM = _boyd("boyd_fold_skew_mechanism", "Fold skew on one simulated model: the sign of the averaging bias", _BF)
BOYD_AGGREGATION_TASKS = _boyd("boyd_aggregation_tasks", "Aggregation: metrics per task and learner", _BA)
BOYD_AGGREGATION_LEARNERS = _boyd("boyd_aggregation_learners", "Aggregation: learners' means over tasks", _BA)
BOYD_AGGREGATION_AGREEMENT = _boyd("boyd_aggregation_agreement", "Aggregation: do the learners' orders agree?", _BA)
BOYD_AGGREGATION_SKEW_CORRELATION = _boyd("boyd_aggregation_skew_correlation", "Aggregation: metrics against skew", _BA)
BOYD_AGGREGATION_SKEW_GROUPS = _boyd("boyd_aggregation_skew_groups", "Aggregation: learners within skew groups", _BA)

OPENML_STUDY = _openml("openml_study", "This OpenML study: source, draw, experiments run and left out")
OPENML_SELFCHECK_SUMMARY = _openml("openml_selfcheck_summary", "Self-check: our AUROC vs OpenML's evaluation engine (summary)")
OPENML_SELFCHECK = _openml("openml_selfcheck", "Self-check: our AUROC vs OpenML's evaluation engine, per run and fold")

#: Every table, in the order of the report (the study's, Boyd's, then OpenML's).
TABLES: tuple[Table, ...] = (
    VERDICTS, SENSITIVITY, MARGIN_SENSITIVITY, SCORECARD, DISAGREEMENT_SUMMARY, DISAGREEMENT_PER_TASK, AUROC_BOUNDS, LEARNER_RANKING,
    LEARNER_AGREEMENT, TASKS, FIGURE_SELECTION, METRICS, NOISE_FLOOR_PER_TASK, NOISE_FLOOR_PAIRS, CALIBRATION_SUMMARY,
    CALIBRATION, NOISE_EVIDENCE, RANK_SETS, RANK_SET_SUMMARY, RANK_SET_CALIBRATION, RANK_SET_EVIDENCE, CONTROLLED_SKEW,
    CONTROLLED_SKEW_OBSERVED, CONTROLLED_SKEW_TREND, CONTROLLED_SKEW_COUNTERFACTUAL, DISAGREEMENT_BY_BALANCE,
    SKEW_EVIDENCE, CONTROLLED_SKEW_PER_TASK, CONTROLLED_SKEW_COUNTERFACTUAL_PER_TASK, PANEL_SENSITIVITY,
    LEARNER_WINNERS, CD_TESTS, CD_METRIC_PAIRS, CD_CLIQUES, CD_RANKS, FK_EVIDENCE, CLAIMS_NOT_TESTED, PANEL_DRAWS,
    BOYD_EVIDENCE, BOYD_EVIDENCE_VALUES, BOYD_TABLE3_CHECK, BOYD_TABLE2_CHECK, BOYD_FIG_PR_PRG_SOURCE,
    BOYD_DOWNSAMPLING_TABLE3, BOYD_DOWNSAMPLING_SUMMARY, BOYD_DOWNSAMPLING_VS_PAPER, BOYD_FOLD_SKEW_SUMMARY,
    BOYD_FOLD_SKEW_PER_TASK, BOYD_FOLD_SKEW_MECHANISM, BOYD_AGGREGATION_TASKS, BOYD_AGGREGATION_LEARNERS,
    BOYD_AGGREGATION_AGREEMENT, BOYD_AGGREGATION_SKEW_CORRELATION, BOYD_AGGREGATION_SKEW_GROUPS,
    OPENML_STUDY, OPENML_SELFCHECK_SUMMARY, OPENML_SELFCHECK,
)  # fmt: skip

# --- figure-data tables (work/<study>/figure_data) -----------------------------------------------
FIG4_RANK_COUNTS = FigureData("fig4_rank_counts")
FIG4_SCATTER = FigureData("fig4_scatter")
FIG5_CURVE_POINTS = FigureData("fig5_curve_points")
FIG5_CURVE_AREAS = FigureData("fig5_curve_areas")
FIG5_CURVE_BANDS = FigureData("fig5_curve_bands")
FIGURE_TEXT = FigureData("figure_text")
BOYD_FIG1_MIN_PR_CURVE = FigureData("boyd_fig1_min_pr_curve")
BOYD_FIG2_MIN_PR_CURVES = FigureData("boyd_fig2_min_pr_curves")
BOYD_FIG3_AUCPR_MIN = FigureData("boyd_fig3_aucpr_min")
BOYD_FIG4_F1_CONTOURS = FigureData("boyd_fig4_f1_contours")
BOYD_FIG_PR_PRG_POINTS = FigureData("boyd_fig_pr_prg_points")
BOYD_FIG_PR_PRG_AREAS = FigureData("boyd_fig_pr_prg_areas")
BOYD_FIG_PR_PRG_HULL = FigureData("boyd_fig_pr_prg_hull")
BOYD_FIG_PR_PRG_ISOMETRICS = FigureData("boyd_fig_pr_prg_isometrics")
BOYD_FIG_PR_PRG_TEXT = FigureData("boyd_fig_pr_prg_text")
BOYD_DOWNSAMPLING_LEVELS = FigureData("boyd_downsampling_levels")
BOYD_DOWNSAMPLING_AXIS = FigureData("boyd_downsampling_axis")
BOYD_DOWNSAMPLING_PAPER = FigureData("boyd_downsampling_paper")
BOYD_DOWNSAMPLING_TEXT = FigureData("boyd_downsampling_text")
BOYD_FOLD_SKEW_LINES = FigureData("boyd_fold_skew_lines")
BOYD_FOLD_SKEW_TEXT = FigureData("boyd_fold_skew_text")
BOYD_AGGREGATION_POINTS = FigureData("boyd_aggregation_points")
BOYD_AGGREGATION_TASK_MEANS = FigureData("boyd_aggregation_task_means")
BOYD_AGGREGATION_MIN_CURVE = FigureData("boyd_aggregation_min_curve")
BOYD_AGGREGATION_RANKS = FigureData("boyd_aggregation_ranks")
BOYD_AGGREGATION_TEXT = FigureData("boyd_aggregation_text")


# --- figures (results/<study>/figures) -----------------------------------------------------------
def _boyd_figure(name: str, data: tuple[FigureData, ...], section: str, text: FigureData | None = None, *,
                 draw: str) -> Figure:
    return Figure(name, data, text, formats="boyd", category=BOYD_CATEGORY, section=section, draw=draw)


FIGURE_FIG4_RANK_HEATMAP = Figure("fig4_rank_heatmap", (FIG4_RANK_COUNTS,), FIGURE_TEXT, optional=(DISAGREEMENT_SUMMARY,),
                                  draw="prspace.figures.study:fig4_rank_heatmap")
FIGURE_FIG4_AUPRG_VS_AUPR = Figure("fig4_auprg_vs_aupr", (FIG4_SCATTER,), FIGURE_TEXT, draw="prspace.figures.study:fig4_auprg_vs_aupr")
FIGURE_FIG5_CURVES = Figure("fig5_curves", (FIG5_CURVE_POINTS, FIG5_CURVE_AREAS), FIGURE_TEXT,
                            optional=(FIG5_CURVE_BANDS,), draw="prspace.figures.study:fig5_curves")
FIGURE_CONTROLLED_SKEW = Figure("controlled_skew", (CONTROLLED_SKEW, CONTROLLED_SKEW_OBSERVED), draw="prspace.figures.study:controlled_skew")
FIGURE_CD_DIAGRAM = Figure("cd_diagram", (CD_RANKS, CD_CLIQUES, CD_TESTS), draw="prspace.figures.study:cd_diagram")
FIGURE_BOYD_FIG1_MIN_PR_CURVE = _boyd_figure("boyd_fig1_min_pr_curve", (BOYD_FIG1_MIN_PR_CURVE,), _BT, draw="prspace.figures.study:boyd_fig1_min_pr_curve")
FIGURE_BOYD_FIG2_MIN_PR_CURVES = _boyd_figure("boyd_fig2_min_pr_curves", (BOYD_FIG2_MIN_PR_CURVES,), _BT, draw="prspace.figures.study:boyd_fig2_min_pr_curves")
FIGURE_BOYD_FIG3_AUCPR_MIN = _boyd_figure("boyd_fig3_aucpr_min", (BOYD_FIG3_AUCPR_MIN,), _BT, draw="prspace.figures.study:boyd_fig3_aucpr_min")
FIGURE_BOYD_FIG4_F1_CONTOURS = _boyd_figure("boyd_fig4_f1_contours", (BOYD_FIG4_F1_CONTOURS,), _BT, draw="prspace.figures.study:boyd_fig4_f1_contours")
FIGURE_BOYD_FIG_PR_PRG = _boyd_figure(
    "boyd_fig_pr_prg", (BOYD_FIG_PR_PRG_POINTS, BOYD_FIG_PR_PRG_AREAS, BOYD_FIG_PR_PRG_HULL, BOYD_FIG_PR_PRG_ISOMETRICS),
    _BT, BOYD_FIG_PR_PRG_TEXT, draw="prspace.figures.study:boyd_fig_pr_prg")
FIGURE_BOYD_DOWNSAMPLING = _boyd_figure(
    "boyd_downsampling", (BOYD_DOWNSAMPLING_LEVELS, BOYD_DOWNSAMPLING_AXIS, BOYD_DOWNSAMPLING_PAPER), _BD,
    BOYD_DOWNSAMPLING_TEXT, draw="prspace.figures.study:boyd_downsampling")
FIGURE_BOYD_FOLD_SKEW = _boyd_figure("boyd_fold_skew", (BOYD_FOLD_SKEW_LINES,), _BF, BOYD_FOLD_SKEW_TEXT, draw="prspace.figures.study:boyd_fold_skew")
FIGURE_BOYD_AGGREGATION = _boyd_figure(
    "boyd_aggregation", (BOYD_AGGREGATION_POINTS, BOYD_AGGREGATION_TASK_MEANS, BOYD_AGGREGATION_MIN_CURVE,
                         BOYD_AGGREGATION_RANKS), _BA, BOYD_AGGREGATION_TEXT, draw="prspace.figures.study:boyd_aggregation")

#: The forest plot of the primary claims (issue 78), drawn from the verdict table; the numbers it plots
#: are its source table (not a report table: its figure shows it)
CLAIMS_FOREST = Table("claims_forest", "Forest plot of the primary claims: the numbers it draws", _V, md=False, report=False)
FIGURE_CLAIMS_FOREST = Figure("claims_forest", (VERDICTS,), source=CLAIMS_FOREST, section=_V,
                              draw="prspace.figures.study:claims_forest")

#: Boyd et al.'s Figures 1-4, each drawn from the figure-data table of its name.
BOYD_THEORY_FIGURES = (FIGURE_BOYD_FIG1_MIN_PR_CURVE, FIGURE_BOYD_FIG2_MIN_PR_CURVES, FIGURE_BOYD_FIG3_AUCPR_MIN,
                       FIGURE_BOYD_FIG4_F1_CONTOURS)

#: The tables whose rows are evidence rows (``prspace.verdicts.rule.EVIDENCE_COLUMNS``), in the order
#: their rows appear in the verdicts; each optional (no Boyd experiments: no boyd_evidence).
EVIDENCE_ROWS: tuple[Table, ...] = (NOISE_EVIDENCE, RANK_SET_EVIDENCE, SKEW_EVIDENCE, FK_EVIDENCE, BOYD_EVIDENCE)

# --- other outputs --------------------------------------------------------------------------------
#: results/<study>/summary.md and findings.md (rule verdicts)
SUMMARY = File("summary", "md")
FINDINGS = File("findings", "md")
#: work/<study>/report/front.rst: the report's front page (rule verdicts); workflow/report/workflow.rst its intro
FRONT_PAGE = File("front", "rst")
WORKFLOW_PAGE = File("workflow", "rst")
#: work/<study>/tasks.csv: the study's candidate tasks (checkpoint select_tasks), not the table TASKS
TASK_LIST = File("tasks", "csv")
#: results/<study>/openml-manifest.json: the frozen draw of an OpenML study
OPENML_MANIFEST = File("openml-manifest", "json")


# --- steps (rules), in an order of the DAG ------------------------------------------------------
def _pairs(**items: object) -> tuple[tuple[str, object], ...]:
    return tuple(items.items())


_EACH_STATUS = per_task(StudyFile.STATUS)
_SEED = "seed"


#: The sections of the configuration a setting's name leaves out (:func:`setting_name`).
SECTIONS = ("analysis", "local")


def setting_name(key: str) -> str:
    """The name of the setting read from configuration key ``key``: the key without its section
    (:data:`SECTIONS`), dots as underscores (``analysis.verdicts.n_boot`` -> ``verdicts_n_boot``,
    ``analysis.n_boot`` -> ``n_boot``, ``local.suite`` -> ``suite``, ``seed`` -> ``seed``); the findings page
    lists the run's parameters by the same key, dots kept."""
    head, dot, rest = key.partition(".")
    return (rest if dot and head in SECTIONS else key).replace(".", "_")


def by_key(*keys: str) -> tuple[tuple[str, str], ...]:
    """A step's settings, each named as its configuration key names it (:func:`setting_name`)."""
    return tuple((setting_name(k), k) for k in keys)


def _figure_step(figure: Figure, when: When | None = None) -> Step:
    return Step(f"figure_{figure.name}", figures=(figure,), when=when,
                description=f"Figure {figure.name}, drawn by prspace figure ({figure.draw}) from the tables its step wrote.")


STEP_SELECT_TASKS = Step("select_tasks", description="The study's candidate tasks: every dataset of the local suite (prspace "
                         "list-datasets) or the OpenML draw (prspace fetch-openml select), each with its counts.")
STEP_PREDICT = Step("predict", description="One task's cross-validated predictions (local learners or OpenML runs), then "
                    "its metrics (step score, in the same process).")
STEP_SCORE = Step("score", run="prspace.experiments.steps.score_step:score_step", files=_pairs(metrics=StudyFile.METRICS, folds=StudyFile.FOLDS),
    description="Per-model metrics of one task, pooled over folds and per fold (prspace.metrics.all_metrics).",
    inputs=_pairs(status=StudyFile.STATUS), within=STEP_PREDICT.name)
STEP_COLLECT = Step("collect", (METRICS, TASKS), evidence=(METRICS, TASKS),
                    run="prspace.experiments.steps.collect_step:collect_step",
    description="The study's tidy metrics table and task table.",
    inputs=_pairs(status=_EACH_STATUS, metrics=per_task(StudyFile.METRICS), task_list=StudyFile.TASK_LIST), settings=_pairs(study="study"))
STEP_OPENML_MANIFEST = Step("openml_manifest", (OPENML_STUDY,), when=When.OPENML,
    description="The frozen draw: server, client version, date; per task the run and flow ids and checksums.")
STEP_OPENML_SELFCHECK = Step("openml_selfcheck", (OPENML_SELFCHECK, OPENML_SELFCHECK_SUMMARY), when=When.OPENML,
    description="Our AUROC of every drawn run's predictions vs the server's area_under_roc_curve.")
STEP_NOISE_FLOOR = Step("noise_floor", (NOISE_FLOOR_PER_TASK, NOISE_FLOOR_PAIRS), evidence=(NOISE_FLOOR_PAIRS,),
                        run="prspace.experiments.steps.noise_floor_steps:noise_floor_step",
    description="Per task: how often each metric disagrees with itself under a stratified bootstrap of the test rows.",
    inputs=_pairs(status=_EACH_STATUS),
    settings=_pairs(metrics="analysis.metrics", n_boot="analysis.noise_boot", seed=_SEED, alpha="analysis.noise_alpha"))
STEP_CALIBRATE = Step("calibrate", (CALIBRATION, CALIBRATION_SUMMARY), run="prspace.experiments.steps.noise_floor_steps:calibrate_step",
    description="False rate and power of the noise floor's distinguishable check, by simulation at this study's task "
                "sizes.",
    inputs=_pairs(tasks=TASKS),
    settings=(*((k, f"analysis.calibration.{k}") for k in ("n_sim", "n_sim_null", "seed", "auroc", "rho", "sigmas",
                                                          "sigmas_a", "mc_error")),
              ("n_boot", "analysis.noise_boot"), ("alpha", "analysis.noise_alpha")))
STEP_NOISE_EVIDENCE = Step("noise_evidence", (NOISE_EVIDENCE,), evidence=(NOISE_EVIDENCE,),
                           run="prspace.experiments.steps.noise_evidence_step:noise_evidence_step",
    description="Evidence rows: distinguishable disagreements (k of n, read with the calibrated power) and cross- "
                "vs self-disagreement.",
    inputs=_pairs(pairs=NOISE_FLOOR_PAIRS, tasks=TASKS, calibration=CALIBRATION_SUMMARY),
    settings=_pairs(n_boot="analysis.n_boot", seed=_SEED))
STEP_RANK = Step("rank", (DISAGREEMENT_PER_TASK, DISAGREEMENT_SUMMARY, SCORECARD, LEARNER_RANKING, LEARNER_AGREEMENT,
                          LEARNER_WINNERS, PANEL_SENSITIVITY),
                 evidence=(DISAGREEMENT_SUMMARY, DISAGREEMENT_PER_TASK, LEARNER_WINNERS),
                 run="prspace.experiments.steps.rank_step:rank_step", files=_pairs(ranks=StudyFile.RANKS),
    description="Ranks within tasks, pairwise disagreement with bootstrap CIs, learners across tasks, scorecard.",
    inputs=_pairs(metrics=METRICS, tasks=TASKS, selfcheck=If(When.OPENML, OPENML_SELFCHECK_SUMMARY), floors=NOISE_FLOOR_PER_TASK,
                  pairs=NOISE_FLOOR_PAIRS),
    settings=_pairs(metrics="analysis.metrics", n_boot="analysis.n_boot", seed=_SEED))
STEP_AUROC_BOUNDS = Step("auroc_bounds", (AUROC_BOUNDS,), run="prspace.experiments.steps.auroc_bounds_step:auroc_bounds_step",
    description="Top-1 disagreements with AUROC that the range of AUPR / AUPRG at a given AUROC permits (Mihelich et "
                "al. 2024).",
    inputs=_pairs(metrics=METRICS))
STEP_RANK_SETS = Step("rank_sets", (RANK_SETS,), evidence=(RANK_SETS,),
                      run="prspace.experiments.steps.rank_sets_steps:rank_sets_step", files=_pairs(per_task=StudyFile.RANK_SETS_PER_TASK),
    description="Per task and metric: every model's rank interval and the plausible-best set (one shared paired "
                "bootstrap).",
    inputs=_pairs(status=_EACH_STATUS),
    settings=(*((k, f"analysis.rank_sets.{k}") for k in ("metrics", "n_boot", "confidence")), ("seed", _SEED)))
STEP_RANK_SET_SUMMARY = Step("rank_set_summary", (RANK_SET_SUMMARY, RANK_SET_CALIBRATION, RANK_SET_EVIDENCE),
                             evidence=(RANK_SET_EVIDENCE,), run="prspace.experiments.steps.rank_sets_steps:rank_set_summary_step",
    description="Per metric pair: tasks whose plausible-best sets are disjoint vs plain top-1 disagreement, "
                "calibrated; evidence rows.",
    inputs=_pairs(rank_sets=RANK_SETS, tasks=TASKS),
    settings=(*((k, f"analysis.rank_sets.{k}") for k in ("n_sim", "n_sim_null", "sim_models", "sim_boot", "mc_error")),
              ("n_boot", "analysis.n_boot"), ("seed", _SEED)))
STEP_CONTROLLED_SKEW = Step("controlled_skew", (CONTROLLED_SKEW_PER_TASK, CONTROLLED_SKEW_COUNTERFACTUAL_PER_TASK,
                                                CONTROLLED_SKEW, CONTROLLED_SKEW_OBSERVED, CONTROLLED_SKEW_TREND,
                                                CONTROLLED_SKEW_COUNTERFACTUAL, DISAGREEMENT_BY_BALANCE, SKEW_EVIDENCE),
                            evidence=(SKEW_EVIDENCE,), run="prspace.verdicts.controlled_skew_step:controlled_skew_step",
    description="Rank disagreement against pi with the same models: every task's negatives reweighted.",
    inputs=_pairs(status=_EACH_STATUS, tasks=TASKS, per_task=DISAGREEMENT_PER_TASK, reference=StudyFile.SKEW_REFERENCE),
    settings=_pairs(metrics="analysis.metrics", targets="analysis.skew_targets", n_boot="analysis.skew_n_boot",
                    seed=_SEED))
STEP_FIGURE_CONTROLLED_SKEW = _figure_step(FIGURE_CONTROLLED_SKEW)
STEP_FIGURE_DATA = Step("figure_data", (FIGURE_SELECTION,), (FIG4_RANK_COUNTS, FIG4_SCATTER, FIG5_CURVE_POINTS,
                                                             FIG5_CURVE_AREAS, FIG5_CURVE_BANDS, FIGURE_TEXT),
                        run="prspace.experiments.steps.figure_data_step:figure_data_step",
    description="The tables Figures 4 (left, right) and 5 of Flach & Kull (2015) are drawn from, and the selection.",
    inputs=_pairs(metrics=METRICS, ranks=StudyFile.RANKS, per_task=DISAGREEMENT_PER_TASK, tasks=TASKS, status=_EACH_STATUS),
    settings=_pairs(band_resamples="analysis.bands.n_resamples", band_level="analysis.bands.level", seed=_SEED))
STEP_FIGURE_FIG4_RANK_HEATMAP = _figure_step(FIGURE_FIG4_RANK_HEATMAP)
STEP_FIGURE_FIG4_AUPRG_VS_AUPR = _figure_step(FIGURE_FIG4_AUPRG_VS_AUPR)
STEP_FIGURE_FIG5_CURVES = _figure_step(FIGURE_FIG5_CURVES)
STEP_CD = Step("cd", (CD_RANKS, CD_CLIQUES, CD_TESTS, CD_METRIC_PAIRS), evidence=(CD_METRIC_PAIRS,),
               run="prspace.experiments.steps.cd_step:cd_step",
    description="Friedman, Nemenyi critical difference and cliques per metric; the metric-order test over families "
                "of tasks, calibrated.",
    inputs=_pairs(metrics=METRICS, tasks=TASKS), settings=_pairs(study="study", seed=_SEED))
STEP_FIGURE_CD_DIAGRAM = _figure_step(FIGURE_CD_DIAGRAM)
STEP_COMPLETENESS = Step("completeness", (FK_EVIDENCE, CLAIMS_NOT_TESTED), evidence=(FK_EVIDENCE,),
                         run="prspace.verdicts.completeness_step:completeness_step",
    description="Flach & Kull's 'all significantly different' (learner-order tests of the three pairs), their theorems and "
                "AUPRG against their code (pyprg), and the claims of both papers not tested, with why.",
    inputs=_pairs(status=_EACH_STATUS, pairs=CD_METRIC_PAIRS, noise=NOISE_EVIDENCE), settings=_pairs(seed=_SEED))
STEP_PANEL_DRAWS = Step("panel_draws", (PANEL_DRAWS,), run="prspace.experiments.steps.panel_draws_step:panel_draws_step",
    description="Each primary estimate of Flach & Kull over random panels of panel_size of each task's models (the "
                "paper drew its 30 models at random per task; the default study 20 of 30, the pool study 30 of more).",
    inputs=_pairs(metrics=METRICS, tasks=TASKS),
    settings=_pairs(n_draws="analysis.panel_draws.n_draws", panel_size="analysis.panel_draws.panel_size", seed=_SEED))
STEP_BOYD_THEORY_DATA = Step("boyd_theory_data", figure_data=(BOYD_FIG1_MIN_PR_CURVE, BOYD_FIG2_MIN_PR_CURVES,
                                                              BOYD_FIG3_AUCPR_MIN, BOYD_FIG4_F1_CONTOURS),
                             when=When.BOYD_THEORY, run="prspace.experiments.steps.boyd_steps:boyd_theory_data_step",
    description="The tables of Boyd et al. Figures 1-4: exact curves from prspace.metrics (no data).")
STEP_BOYD_PAPER_TABLES = Step("boyd_paper_tables", (BOYD_TABLE3_CHECK, BOYD_TABLE2_CHECK), when=When.BOYD_THEORY,
                              run="prspace.experiments.steps.boyd_steps:boyd_paper_tables_step",
    description="Boyd's Table 3 (AUCNPR recomputed from AUCPR and skew) and Table 2 (implied skews).")
STEP_BOYD_PR_PRG = Step("boyd_pr_prg", (BOYD_FIG_PR_PRG_SOURCE,),
                        (BOYD_FIG_PR_PRG_POINTS, BOYD_FIG_PR_PRG_AREAS, BOYD_FIG_PR_PRG_HULL, BOYD_FIG_PR_PRG_ISOMETRICS,
                         BOYD_FIG_PR_PRG_TEXT), when=When.BOYD_THEORY, run="prspace.experiments.steps.boyd_steps:boyd_pr_prg_step",
    description="The tables of Flach and Kull Figure 2 (PR beside PRG) for one real model's scores on one test fold.",
    inputs=_pairs(status=_EACH_STATUS),
    settings=tuple((k, f"boyd.pr_prg.{k}") for k in ("task", "model", "target_positives")))
STEP_BOYD_DOWNSAMPLE = Step("boyd_downsample", when=When.BOYD_DOWNSAMPLING,
    description="Every downsampling task's runs, one file per task, in one job: train at 1:k, test on downsampled "
                "and original test folds.")
STEP_BOYD_DOWNSAMPLING_REPORT = Step(
    "boyd_downsampling_report", (BOYD_DOWNSAMPLING_TABLE3, BOYD_DOWNSAMPLING_SUMMARY, BOYD_DOWNSAMPLING_VS_PAPER),
    (BOYD_DOWNSAMPLING_LEVELS, BOYD_DOWNSAMPLING_AXIS, BOYD_DOWNSAMPLING_PAPER, BOYD_DOWNSAMPLING_TEXT),
    when=When.BOYD_DOWNSAMPLING, run="prspace.experiments.steps.boyd_steps:boyd_downsampling_report_step",
    description="Table 3 per task and learner, summary over tasks, and the tables of the downsampling figure.",
    inputs=_pairs(runs=OverTasks(Selection.DOWNSAMPLING, StudyFile.DOWNSAMPLING_RUNS)), grouped=True,
    settings=_pairs(study="study", criteria=Composed.DOWNSAMPLING_CRITERIA))
STEP_BOYD_FOLD_SKEW = Step("boyd_fold_skew", when=When.BOYD_FOLD_SKEW,
    description="Every fold-skew task's runs, one file per task, in one job: aggregates on skewed vs stratified "
                "test folds.")
STEP_BOYD_FOLD_SKEW_REPORT = Step("boyd_fold_skew_report", (BOYD_FOLD_SKEW_SUMMARY, BOYD_FOLD_SKEW_PER_TASK),
                                  (BOYD_FOLD_SKEW_LINES, BOYD_FOLD_SKEW_TEXT), when=When.BOYD_FOLD_SKEW,
                                  run="prspace.experiments.steps.boyd_steps:boyd_fold_skew_report_step",
    description="Bias of each aggregate and ranking changes against dispersion, and the tables of the figure.",
    inputs=_pairs(runs=OverTasks(Selection.FOLD_SKEW, StudyFile.FOLD_SKEW_RUNS)), grouped=True,
    settings=_pairs(study="study", criteria=Composed.FOLD_SKEW_CRITERIA))
STEP_BOYD_FOLD_SKEW_MECHANISM = Step("boyd_fold_skew_mechanism", (BOYD_FOLD_SKEW_MECHANISM,), when=When.BOYD_FOLD_SKEW,
                                     run="prspace.experiments.steps.boyd_steps:boyd_fold_skew_mechanism_step",
    description="Section 4.1 on one simulated model (no data): the sign of the averaging bias, worst ranking to "
                "good model.",
    settings=_pairs(n_sim="boyd.evidence.mechanism_n_sim", seed=_SEED))
STEP_BOYD_AGGREGATION = Step(
    "boyd_aggregation", (BOYD_AGGREGATION_TASKS, BOYD_AGGREGATION_LEARNERS, BOYD_AGGREGATION_AGREEMENT,
                         BOYD_AGGREGATION_SKEW_CORRELATION, BOYD_AGGREGATION_SKEW_GROUPS),
    (BOYD_AGGREGATION_POINTS, BOYD_AGGREGATION_TASK_MEANS, BOYD_AGGREGATION_MIN_CURVE, BOYD_AGGREGATION_RANKS,
     BOYD_AGGREGATION_TEXT), when=When.BOYD_AGGREGATION, run="prspace.experiments.steps.boyd_steps:boyd_aggregation_step",
    description="Learners' mean AUPR / AUCNPR / AUPRG / AUROC over tasks of different skew, and the tables of the "
                "figure.",
    inputs=_pairs(metrics=METRICS),
    settings=_pairs(learner="boyd.aggregation.learner", skew_groups="boyd.aggregation.skew_groups", study="study"))
STEP_BOYD_EVIDENCE = Step("boyd_evidence", (BOYD_EVIDENCE, BOYD_EVIDENCE_VALUES), when=When.BOYD,
                          evidence=(BOYD_EVIDENCE, BOYD_EVIDENCE_VALUES), run="prspace.experiments.steps.boyd_steps:boyd_evidence_step",
    description="One evidence row per Boyd et al. claim of the registry (theorems, Tables 2-3, sections 4.1 and 4.3) "
                "and this project's exploratory rows about them, for rule verdicts.",
    inputs=_pairs(tasks=TASKS, metrics=If(When.BOYD_AGGREGATION, METRICS),
                  mechanism=If(When.BOYD_FOLD_SKEW, BOYD_FOLD_SKEW_MECHANISM),
                  downsampling_runs=If(When.BOYD_DOWNSAMPLING, OverTasks(Selection.DOWNSAMPLING, StudyFile.DOWNSAMPLING_RUNS)),
                  fold_skew_runs=If(When.BOYD_FOLD_SKEW, OverTasks(Selection.FOLD_SKEW, StudyFile.FOLD_SKEW_RUNS))),
    grouped=True,
    settings=_pairs(learner="boyd.aggregation.learner", n_resamples="boyd.evidence.n_resamples", seed=_SEED,
                    max_pi="boyd.downsampling.max_pi", min_positives="boyd.downsampling.min_positives",
                    downsampling_scope=Composed.DOWNSAMPLING_SCOPE))
STEP_FIGURE_BOYD_FIG1_MIN_PR_CURVE = _figure_step(FIGURE_BOYD_FIG1_MIN_PR_CURVE, When.BOYD_THEORY)
STEP_FIGURE_BOYD_FIG2_MIN_PR_CURVES = _figure_step(FIGURE_BOYD_FIG2_MIN_PR_CURVES, When.BOYD_THEORY)
STEP_FIGURE_BOYD_FIG3_AUCPR_MIN = _figure_step(FIGURE_BOYD_FIG3_AUCPR_MIN, When.BOYD_THEORY)
STEP_FIGURE_BOYD_FIG4_F1_CONTOURS = _figure_step(FIGURE_BOYD_FIG4_F1_CONTOURS, When.BOYD_THEORY)
STEP_FIGURE_BOYD_FIG_PR_PRG = _figure_step(FIGURE_BOYD_FIG_PR_PRG, When.BOYD_THEORY)
STEP_FIGURE_BOYD_DOWNSAMPLING = _figure_step(FIGURE_BOYD_DOWNSAMPLING, When.BOYD_DOWNSAMPLING)
STEP_FIGURE_BOYD_FOLD_SKEW = _figure_step(FIGURE_BOYD_FOLD_SKEW, When.BOYD_FOLD_SKEW)
STEP_FIGURE_BOYD_AGGREGATION = _figure_step(FIGURE_BOYD_AGGREGATION, When.BOYD_AGGREGATION)
STEP_REPORT_TABLES = Step("report_tables", description="HTML pages of the study's result tables, for the Snakemake report.")
STEP_OPENML_REPORT_TABLES = Step("openml_report_tables", when=When.OPENML,
                                 description="HTML pages of the OpenML tables, for the Snakemake report.")
STEP_VERIFY = Step("verify", description="Does this run reproduce the committed tables of the study? (prspace.repo.rerun_check)")

#: The steps before rule ``verdicts``, in an order of the DAG (each after the steps whose outputs it reads).
_BEFORE_VERDICTS: tuple[Step, ...] = (
    STEP_SELECT_TASKS, STEP_PREDICT, STEP_SCORE, STEP_COLLECT, STEP_OPENML_MANIFEST, STEP_OPENML_SELFCHECK,
    STEP_NOISE_FLOOR, STEP_CALIBRATE, STEP_NOISE_EVIDENCE, STEP_RANK, STEP_AUROC_BOUNDS, STEP_RANK_SETS,
    STEP_RANK_SET_SUMMARY, STEP_CONTROLLED_SKEW, STEP_FIGURE_CONTROLLED_SKEW, STEP_FIGURE_DATA,
    STEP_FIGURE_FIG4_RANK_HEATMAP, STEP_FIGURE_FIG4_AUPRG_VS_AUPR, STEP_FIGURE_FIG5_CURVES, STEP_CD,
    STEP_FIGURE_CD_DIAGRAM, STEP_COMPLETENESS, STEP_PANEL_DRAWS, STEP_BOYD_THEORY_DATA, STEP_BOYD_PAPER_TABLES, STEP_BOYD_PR_PRG, STEP_BOYD_DOWNSAMPLE,
    STEP_BOYD_DOWNSAMPLING_REPORT, STEP_BOYD_FOLD_SKEW, STEP_BOYD_FOLD_SKEW_REPORT, STEP_BOYD_FOLD_SKEW_MECHANISM,
    STEP_BOYD_AGGREGATION, STEP_BOYD_EVIDENCE, STEP_FIGURE_BOYD_FIG1_MIN_PR_CURVE, STEP_FIGURE_BOYD_FIG2_MIN_PR_CURVES,
    STEP_FIGURE_BOYD_FIG3_AUCPR_MIN, STEP_FIGURE_BOYD_FIG4_F1_CONTOURS, STEP_FIGURE_BOYD_FIG_PR_PRG,
    STEP_FIGURE_BOYD_DOWNSAMPLING, STEP_FIGURE_BOYD_FOLD_SKEW, STEP_FIGURE_BOYD_AGGREGATION,
)  # fmt: skip


def _evidence_inputs(steps: tuple[Step, ...]) -> tuple[tuple[str, Input], ...]:
    """Rule ``verdicts``' inputs: every step's ``evidence`` tables, each by its name as role, present only
    where its step runs (``If`` its ``when``); so a new evidence table is read with no edit here."""
    return tuple((t.name, t if s.when is None else If(s.when, t)) for s in steps for t in s.evidence)


STEP_VERDICTS = Step("verdicts", (VERDICTS, SENSITIVITY, MARGIN_SENSITIVITY), run="prspace.verdicts.verdicts_step:verdicts_step",
                     files=_pairs(summary=StudyFile.SUMMARY, findings=StudyFile.FINDINGS, front=StudyFile.FRONT_PAGE),
    description="A verdict per claim of both papers (docs/verdicts.md), the answer-first summary and the findings page.",
    inputs=(*_evidence_inputs(_BEFORE_VERDICTS), ("report_intro", StudyFile.REPORT_INTRO)),
    # the findings page lists the run's parameters: the study's seed, source, suite, panel, folds and resamples
    settings=by_key("analysis.verdicts.n_boot", _SEED, "study", "source", "local.data_dir", "local.suite", "local.learners",
                    "local.folds", "analysis.n_boot", "analysis.noise_boot", "analysis.rank_sets.n_boot",
                    "analysis.rank_sets.confidence", "analysis.verdicts.procedure_studies",
                    "analysis.verdicts.procedure_boot", "analysis.verdicts.procedure_outer",
                    "analysis.verdicts.procedure_inner"),
    # the evidence in the step's own process, each sensitivity variant (six at most) in one of the others
    threads=7)
STEP_FIGURE_CLAIMS_FOREST = _figure_step(FIGURE_CLAIMS_FOREST)

#: Every step, in an order of the DAG (each after the steps whose outputs it reads).
STEPS: tuple[Step, ...] = (*_BEFORE_VERDICTS, STEP_VERDICTS, STEP_FIGURE_CLAIMS_FOREST, STEP_REPORT_TABLES, STEP_OPENML_REPORT_TABLES, STEP_VERIFY)

#: The steps ``prspace step NAME`` runs (those with a ``run``), in the order of :data:`STEPS`.
COMMAND_STEPS: tuple[Step, ...] = tuple(s for s in STEPS if s.run is not None)
#: Those of them that are rules of their own (the loop of ``workflow/rules/steps.smk``); the others run
#: inside the jobs of the rule named by their ``within``.
OWN_RULE_STEPS: tuple[Step, ...] = tuple(s for s in COMMAND_STEPS if s.within is None)
#: Every figure, in the order of :data:`STEPS`.
FIGURES: tuple[Figure, ...] = tuple(f for s in STEPS for f in s.figures)
#: Every figure-data table, in the order of :data:`STEPS`.
FIGURE_DATA: tuple[FigureData, ...] = tuple(d for s in STEPS for d in s.figure_data)


def table(name: str) -> Table:
    """The table called ``name`` (a name read from a file or a command line)."""
    for t in TABLES:
        if t.name == name:
            return t
    raise KeyError(f"no table {name!r} in the registry (prspace.core.registry); known: {', '.join(t.name for t in TABLES)}")


def figure(name: str) -> Figure:
    """The figure called ``name`` (``prspace figure NAME``)."""
    for f in FIGURES:
        if f.name == name:
            return f
    raise KeyError(f"no figure {name!r} in the registry (prspace.core.registry); known: {', '.join(f.name for f in FIGURES)}")


def step_of(item: Table | FigureData | Figure) -> Step:
    """The step that writes ``item``."""
    for s in STEPS:
        if item in s.tables or item in s.figure_data or item in s.figures:
            return s
    raise KeyError(f"{item!r} is written by no step of prspace.core.registry.STEPS")

"""The study registry: every result table, figure-data table, figure and workflow step, declared once.

Each name is a module constant, by convention named after it in upper case (figures with the
prefix ``FIGURE_``, steps ``STEP_<RULE>``; no code reads a constant by its name); everyone else
spells a name only through these constants (``from prspace.core import registry as R``;
``R.NOISE_FLOOR_PAIRS.csv(tables_dir)``).  What is derived from them (a study's targets, its report
tables, the verdicts' inputs, the figures) lives in :mod:`prspace.study.study_plan`.  Each table of
the report and each figure holds its title, report section and caption (the words under it in the
Snakemake report, reStructuredText), and each figure the function that draws it (``draw``).

Standard library only: the rule files and every layer may import it.  One module on purpose, though
long: each step declares here, once, its tables (with their captions), its function (``run``) and
its rule's inputs and settings as data, so a new table edits this file and its step's code, and a
new experiment this one file of the workflow's plumbing (issues 34 and 43).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

#: Report categories.
TABLES_CATEGORY = "Tables"
FIGURES_CATEGORY = "Figures"
BOYD_CATEGORY = "Boyd et al. 2012"
OPENML_CATEGORY = "OpenML"



@dataclass(frozen=True)
class _Output:
    """Something a study writes under its name: ``<folder>/<name>.<ext>``."""

    name: str

    def file(self, folder: str | Path, ext: str) -> Path:
        return Path(folder) / f"{self.name}.{ext}"


@dataclass(frozen=True)
class Table(_Output):
    """A committed result table, ``results/<study>/tables/<name>.csv`` (and ``.md`` when ``md``)."""

    name: str
    title: str
    section: str | None
    category: str = TABLES_CATEGORY
    md: bool = True
    report: bool = True
    #: its caption in the report (reStructuredText; a Jinja2 template of Snakemake's report), required
    #: when ``report``: the words under the table (``prspace.study.study_plan.caption_file`` writes it)
    caption: str | None = None

    def csv(self, folder: str | Path) -> Path:
        return self.file(folder, "csv")

    def markdown(self, folder: str | Path) -> Path:
        return self.file(folder, "md")

    def files(self, folder: str | Path) -> list[Path]:
        return [self.csv(folder), *([self.markdown(folder)] if self.md else [])]


@dataclass(frozen=True)
class FigureData(_Output):
    """A figure's source table, ``work/<study>/figure_data/<name>.csv`` (full precision, not committed)."""

    name: str

    def csv(self, folder: str | Path) -> Path:
        return self.file(folder, "csv")


@dataclass(frozen=True)
class Figure(_Output):
    """``results/<study>/figures/<name>.<ext>``, drawn by rule ``figure_<name>`` from ``data``."""

    name: str
    #: source tables in draw order
    data: tuple[FigureData | Table, ...]
    #: its text table (``figure, field, text``), if any
    text: FigureData | None = None
    #: tables drawn when present (the figure is the same figure without them)
    optional: tuple[FigureData, ...] = ()
    #: "analysis": ``analysis.figure_formats``; "boyd": those and always PNG
    formats: str = "analysis"
    category: str = FIGURES_CATEGORY
    section: str | None = None
    #: ``prspace figure NAME`` draws it with this function, ``"module:function"``:
    #: ``fn(data, *, text, labels, optional) -> matplotlib Figure`` (:func:`prspace.figures.study.draw`)
    draw: str = ""
    #: its caption in the report (reStructuredText, as :attr:`Table.caption`)
    caption: str = ""

    def path(self, folder: str | Path, ext: str) -> Path:
        return self.file(folder, ext)


@dataclass(frozen=True)
class File(_Output):
    """Any other output a study writes under a fixed name (``summary.md``, the OpenML manifest)."""

    name: str
    ext: str

    def path(self, folder: str | Path) -> Path:
        return self.file(folder, self.ext)


class When(Enum):
    """The configuration switch a step (or one of its inputs, :class:`If`) runs under
    (:func:`prspace.study.study_plan.step_active`; a step without one runs in every study)."""

    #: ``boyd.enabled``
    BOYD = "boyd"
    #: ``boyd.enabled`` and ``boyd.theory``
    BOYD_THEORY = "boyd.theory"
    #: ``boyd.enabled``, ``boyd.downsampling.enabled`` and a local source (it retrains on the raw data)
    BOYD_DOWNSAMPLING = "boyd.downsampling"
    #: ``boyd.enabled`` and ``boyd.fold_skew.enabled``
    BOYD_FOLD_SKEW = "boyd.fold_skew"
    #: ``boyd.enabled`` and ``boyd.aggregation.enabled``
    BOYD_AGGREGATION = "boyd.aggregation"
    #: ``source: openml``
    OPENML = "openml"


class StudyFile(Enum):
    """A file of the study that is not a registry table: the rules name its path
    (``workflow/rules/steps.smk``, ``StepRules(paths={StudyFile.STATUS: ...})``)."""

    #: one task's prediction status (``{task}``; rule ``predict``)
    STATUS = "status"
    #: one task's metrics and per-fold metrics (``{task}``; step ``score``)
    METRICS = "metrics"
    FOLDS = "folds"
    #: the study's candidate tasks (checkpoint ``select_tasks``)
    TASK_LIST = "task_list"
    #: the ranks within tasks (step ``rank``)
    RANKS = "ranks"
    #: the reference population's task table (``analysis.skew_reference``)
    SKEW_REFERENCE = "skew_reference"
    #: one task's runs of Boyd's downsampling / fold-skew experiment (``{task}``)
    DOWNSAMPLING_RUNS = "downsampling_runs"
    FOLD_SKEW_RUNS = "fold_skew_runs"
    #: the folder of the per-task rank sets (step ``rank_sets``)
    RANK_SETS_PER_TASK = "rank_sets_per_task"
    #: the pages step ``verdicts`` writes besides its tables: ``summary.md``, ``findings.md`` and the report's
    #: front page (:data:`SUMMARY`, :data:`FINDINGS`, :data:`FRONT_PAGE`), and the front page's static intro it
    #: reads (:data:`WORKFLOW_PAGE`)
    SUMMARY = "summary"
    FINDINGS = "findings"
    FRONT_PAGE = "front"
    REPORT_INTRO = "report_intro"


class Selection(Enum):
    """The tasks an :class:`OverTasks` input reads a per-task file of."""

    #: every task of the study
    STUDY = "per_task"
    #: the tasks of Boyd's downsampling experiment (``boyd.downsampling``)
    DOWNSAMPLING = "downsampling"
    #: the tasks of Boyd's fold-skew experiment (``boyd.fold_skew``)
    FOLD_SKEW = "fold_skew"


@dataclass(frozen=True)
class OverTasks:
    """An input: the per-task file ``file`` of every task of ``selection`` (a list of files)."""

    selection: Selection
    file: StudyFile

    def __post_init__(self) -> None:
        if not isinstance(self.selection, Selection) or not isinstance(self.file, StudyFile):
            raise TypeError(f"OverTasks({self.selection!r}, {self.file!r}): give a Selection and a StudyFile "
                            "(OverTasks(Selection.STUDY, StudyFile.STATUS))")


def per_task(file: StudyFile) -> OverTasks:
    """An input: ``file`` of every task of the study."""
    return OverTasks(Selection.STUDY, file)


class Composed(Enum):
    """A setting whose value is text composed from the configuration (the scope a report states;
    each composed by its function in :data:`prspace.study.step_rules.COMPOSED`)."""

    DOWNSAMPLING_CRITERIA = "downsampling_criteria"
    FOLD_SKEW_CRITERIA = "fold_skew_criteria"
    DOWNSAMPLING_SCOPE = "downsampling_scope"


@dataclass(frozen=True)
class If:
    """An input present only when ``when`` holds (no file otherwise)."""

    when: When
    spec: Table | FigureData | StudyFile | OverTasks

    def __post_init__(self) -> None:
        if not isinstance(self.when, When):
            raise TypeError(f"If({self.when!r}, ...): the condition must be a When (When.BOYD_FOLD_SKEW)")
        if not isinstance(self.spec, (Table, FigureData, StudyFile, OverTasks)):
            raise TypeError(f"If({self.when}, {self.spec!r}): the input must be a Table, FigureData, StudyFile or "
                            "OverTasks (an If does not nest)")


#: An input of a step's rule: a table's CSV, a file of the study, a per-task file over tasks, or one of
#: those present only under a condition.
Input = Table | FigureData | StudyFile | OverTasks | If
#: A setting of a step's rule: a configuration key path (``"analysis.n_boot"``) or a composed text.
Setting = str | Composed


@dataclass(frozen=True)
class Step:
    """One rule of the workflow and everything it writes.

    A step with a ``run`` is a ``prspace step NAME`` rule, made by the loop of
    ``workflow/rules/steps.smk`` (:class:`prspace.study.step_rules.StepRules`) from its fields; one
    without is a rule written by hand in ``workflow/rules/*.smk`` (docs/architecture.md says why
    each is). A wrong type or a bad combination raises when this module is imported, naming the step.
    """

    name: str
    tables: tuple[Table, ...] = ()
    figure_data: tuple[FigureData, ...] = ()
    figures: tuple[Figure, ...] = ()
    #: the switch it runs under (None: every study)
    when: When | None = None
    #: the tables of this step that rule ``verdicts`` reads
    evidence: tuple[Table, ...] = ()
    #: ``prspace step NAME`` runs this function, ``"module:function"`` (imported only when the step runs)
    run: str | None = None
    #: the files it writes besides the registry's tables: ``--out`` role -> :class:`StudyFile`
    files: tuple[tuple[str, StudyFile], ...] = ()
    #: its rule's description (``snakemake --list-rules``)
    description: str = ""
    #: ``--in`` role -> :data:`Input`, in command order
    inputs: tuple[tuple[str, Input], ...] = ()
    #: ``--set`` key -> :data:`Setting` (a configuration key path or a :class:`Composed` text)
    settings: tuple[tuple[str, Setting], ...] = ()
    #: all input roles are one word group (a role without files is left out); Snakemake resources
    grouped: bool = False
    resources: tuple[tuple[str, int], ...] = ()
    #: the rule written by hand whose jobs run this step in their own process, after their own command
    #: (``predict`` scores its task: one process per task, not two); None: a ``prspace step`` rule of its own
    within: str | None = None

    def __post_init__(self) -> None:
        def bad(problem: str, kind: type[Exception] = TypeError) -> Exception:
            return kind(f"step {self.name!r} (prspace.core.registry): {problem}")

        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise bad("its name must be a Python identifier (it names a Snakemake rule)", ValueError)
        if self.when is not None and not isinstance(self.when, When):
            raise bad(f"when={self.when!r}; give a When (When.BOYD_THEORY) or None")
        for field, kinds in (("tables", Table), ("figure_data", FigureData), ("figures", Figure), ("evidence", Table)):
            items = getattr(self, field)
            if not isinstance(items, tuple) or not all(isinstance(x, kinds) for x in items):
                raise bad(f"{field} must be a tuple of {kinds.__name__}")
        if not set(self.evidence) <= set(self.tables):
            raise bad("evidence names a table the step does not write", ValueError)
        for field, kinds in (("files", StudyFile), ("inputs", (Table, FigureData, StudyFile, OverTasks, If)),
                             ("settings", (str, Composed)), ("resources", int)):
            pairs = getattr(self, field)
            if not isinstance(pairs, tuple):
                raise bad(f"{field} must be a tuple of (name, value) pairs")
            for pair in pairs:
                if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)
                        and pair[0].isidentifier()):
                    raise bad(f"{field} holds {pair!r}; each must be a (name, value) pair with an identifier name")
                if not isinstance(pair[1], kinds):
                    raise bad(f"{field} {pair[0]!r} is {pair[1]!r}, not "
                              + " / ".join(k.__name__ for k in (kinds if isinstance(kinds, tuple) else (kinds,))))
            names = [name for name, _ in pairs]
            if len(set(names)) != len(names):
                raise bad(f"{field} repeats a name: {names}", ValueError)
        if not self.description:
            raise bad("has no description (snakemake --list-rules and docs/workflow.md show it)", ValueError)
        if self.run is None:
            extra = [f for f in ("files", "inputs", "settings", "resources", "within") if getattr(self, f)]
            if extra or self.grouped:
                raise bad(f"declares {', '.join(extra) or 'grouped'} but no run: only a `prspace step` rule takes "
                          "them; give run='module:function' or declare its rule by hand", ValueError)
        else:
            if not isinstance(self.run, str) or self.run.count(":") != 1:
                raise bad(f"run={self.run!r}; give 'module:function'", ValueError)
            if self.figures:
                raise bad("a `prspace step` rule writes tables and figure data; its figures are steps of "
                          "their own (_figure_step)", ValueError)
        if self.within is not None and (self.run is None or self.resources or not isinstance(self.within, str)):
            raise bad(f"within={self.within!r}: only a step with a run and no resources of its own runs inside "
                      "another rule's jobs (give the rule's name)", ValueError)


def _boyd(name: str, title: str, section: str, md: bool = True, *, caption: str) -> Table:
    return Table(name, title, section, BOYD_CATEGORY, md=md, caption=caption)


def _openml(name: str, title: str, *, caption: str) -> Table:
    return Table(name, title, None, OPENML_CATEGORY, caption=caption)


# --- tables, in the order of the report ----------------------------------------------------------
_V, _R, _L, _D, _N = "0 Verdicts", "1 Ranking", "2 Learners across tasks", "3 Data", "4 Noise, skew and panel"
VERDICTS = Table("verdicts", "Verdicts: every claim of both papers, by the rule of docs/verdicts.md", _V, caption="""\
Every claim of Flach & Kull (NIPS 2015) and Boyd et al. (ICML 2012) that this study tests, one row
each: its role (primary, implementation; this project's own rows are exploratory), where the paper
says it and the paper's words (from the registry ``prspace.core.claims``), the paper's value and
margin, this run's estimate and interval (simultaneous over the primary claims), its Monte Carlo
error, the numbers of tasks and of families of tasks, and the verdict. Every verdict follows from its
own row by one rule (``prspace.verdicts.rule``; stated in ``docs/verdicts.md``): for a paper's number,
*replicates* when the whole interval lies within the paper's value +- margin, *consistent, too
imprecise* when it contains the value but is wider, *differs* when it excludes it; *borderline* when
an interval end is within two Monte Carlo errors of a threshold; *cannot be told* below 10 families or
where a check has too little power. Rows ``px.*`` are this project's own findings on what a
disagreement means (noise, skew). The ``explanation`` column gives the rule's reason and what was tested.
""")
SENSITIVITY = Table("sensitivity", "Sensitivity: each primary claim's verdict on other views of the population", _V, caption="""\
Each of Flach & Kull's primary claims recomputed on other views of this study's tasks, each decided by
the same rule as ``verdicts.csv`` (docs/verdicts.md): all tasks with saturated tasks (every metric 1 for
two models) counted as agreement (the main convention), saturated tasks left out, and the tasks of each
balance level (pi >= 0.3, 0.1 <= pi < 0.3, pi < 0.1). A verdict that holds on every view is robust to
these conventions; the answer-first summary says which are. A view with fewer than 10 families of tasks
says "cannot be told". The paper does not give its tasks' pi distribution, so no view is "the paper's".
""")
MARGIN_SENSITIVITY = Table("margin_sensitivity", "Margins: each primary claim's verdict at margins 0.05, 0.10 and 0.15", _V, caption="""\
Each primary claim of both papers decided by the one scheme (docs/verdicts.md) with its margin replaced by 0.05, 0.10 and 0.15 (in the claim's own units), Holm over each paper's claims recomputed at each margin; the main table uses the margins fixed before the results (docs/verdicts.md, "Margins").
""")
SCORECARD = Table("scorecard", "Replication scorecard: Flach & Kull (2015), section 4", _R, caption="""\
**Replication scorecard.**  Flach & Kull's (2015, section 4) numbers beside this run's.  The
paper ranked 30 models from distinct OpenML flows on each of 886 OpenML binary tasks (10-fold
cross-validation, minority class positive).  *top-1 disagreement*: share of tasks where the two
metrics pick a different best model; *top-3*: share where the ordered top three differ (the paper:
"they agree on top, second and third method in 42% of the tasks");  *rank correlation*: the paper's
"correlation between AUPR-ranks and AUPRG-ranks" across tasks, here computed two ways that coincide
without ties: the mean of the per-task Spearman correlations (with a bootstrap 95% interval over
tasks) and the Pearson correlation of the ranks pooled over all tasks.  The ``this_source`` column
says where this run's predictions come from (OpenML, or local learners on which datasets) --
numbers from a different set of tasks and models are a conceptual replication, not an identical one.
""")
DISAGREEMENT_SUMMARY = Table("disagreement_summary", "Rank disagreement between metrics, with bootstrap 95% intervals", _R, caption="""\
**Rank disagreement between every pair of metrics.**  For each pair: the number of tasks; the
share of tasks where the best model differs (top-1) and where the ordered top three differ (top-3);
the mean over tasks of Spearman's rho and Kendall's tau-b between the two rankings of all models;
brackets hold percentile-bootstrap 95% intervals over tasks (tasks resampled with replacement,
``analysis.n_boot`` resamples, the study's seed).  Ties: tied models share the average rank; a
model's position is 1 + the number of strictly better models, and two metrics agree on the top k
when the same models hold the same positions up to k.  AUPR vs AUCNPR must show 0 disagreement and
correlation 1: within one task AUCNPR is an increasing function of AUPR (Boyd et al. 2012).
""")
DISAGREEMENT_PER_TASK = Table("disagreement_per_task", "Rank disagreement per task and metric pair", _R, md=False, caption="""\
**Disagreement per task.**  One row per task and metric pair: number of models, whether the best
model (``top1_differs``) or the ordered top three (``top3_differs``) differ, and Spearman's rho and
Kendall's tau-b between the two rankings.  Rank correlations are empty when one metric ties all
models.  The disagreement summary averages these columns over tasks.
""")
AUROC_BOUNDS = Table("auroc_bounds", "What a given AUROC allows: top-1 disagreements with AUROC that the AUROC gap permits", _R, caption="""\
**What a given AUROC allows** (Mihelich, Castagnos and Dognin, ICML 2024). At a given AUROC and
class counts, AUPR and AUPRG can only lie in a range (``prspace.stats.auroc_bounds.aupr_range``: exact
for small tasks by a dynamic programme over all tie-free rankings, else its continuous limit at
pi). One row per task and metric (AUPR, AUPRG): the best model by AUROC and by the metric; where
they differ (top-1 disagreement), whether the metric's range at the runner-up's AUROC reaches above
its range at the AUROC winner's (``permitted``), the largest AUROC gap that would still permit the
flip (``max_flip_gap``) and ``tightness = auroc_gap / max_flip_gap``. Rows with ``task_id`` ``all``:
per metric, the share of top-1 disagreements permitted and the median and largest tightness. An
observed flip is a ranking that exists, so the exact bound permits every one: the share checks the
bound; the tightness says how far each gap is from forcing the order (docs/analysis.md).
""")
LEARNER_RANKING = Table("learner_ranking", "Learners ranked across tasks by mean AUPR, AUCNPR and AUPRG", _L, caption="""\
**Learners ranked across tasks** (Boyd et al. 2012, section 4.2).  Averaging AUPR over tasks of
different skew mixes scores of different ranges: the minimum achievable AUPR grows with the share of
positives pi, so a learner can gain by doing well on the easy, high-pi tasks.  AUCNPR rescales every
task's AUPR to [0, 1] between its minimum and 1 before averaging.  Per learner (only learners
evaluated on every task): ``mean_<metric>`` over tasks, ``rank_mean_<metric>`` (its rank by that
mean, 1 = best, ties averaged) and ``mean_rank_<metric>`` (its mean within-task rank).  Compare the
``rank_mean_aupr``, ``rank_mean_aucnpr`` and ``rank_mean_auprg`` columns.
""")
LEARNER_AGREEMENT = Table("learner_agreement", "Do the learners' orders by mean metric agree?", _L, caption="""\
**Do the learners' orders by mean metric agree?**  For every pair of mean AUPR, mean AUCNPR and
mean AUPRG: the best learner under each, whether the best learner and the ordered top three differ,
and Spearman's rho and Kendall's tau-b between the two orders of the learners.  Unlike within one
task, AUPR and AUCNPR *can* disagree here, because averaging over tasks of different skew is not a
monotone transformation.
""")
TASKS = Table("tasks", "Tasks of the study", _D, caption="""\
**Tasks of the study.**  Every candidate task with its status: ``ok`` (scored), ``skipped`` (the
predictions step declined it; ``reason`` says why, e.g. too few minority examples or too few
flows) or ``excluded`` (not usable by the selection criteria).  For scored tasks: dataset, number of
rows ``n``, positives ``n_pos`` (the minority class), skew ``pi = n_pos / n``, number of models,
cross-validation protocol and provenance (the package version or OpenML server the data came from).
""")
FIGURE_SELECTION = Table("figure_selection", "Tasks and models drawn in Figures 4 (right) and 5", _D, caption="""\
**Which tasks and models the figures show, and why** (``prspace.experiments.fk.figure_selection``).
Figure 4 (right): the two tasks whose per-task Spearman correlation between AUPR and AUPRG ranks is
closest to the lower and the upper quartile over all tasks, as the paper chose them (its quartiles:
0.944 and 0.991; ours are in the ``role`` column).  Figure 5: the flip the paper showed, taken
where the paper took it: in the lower-quartile task, among pairs with a model in the top three by
AUPRG, the pair with the largest smaller gap of the two metrics, if that gap is at least 0.01 (a
flip one can see); else the task nearest the lower quartile of rho with such a flip; else the
study's largest flip, and the role and the figure's note say it is too small to see.  The note
names the saturated tasks left out of Figure 4 (left) and the paper's pair for comparison.
""")
METRICS = Table("metrics", "Metrics per task and model (pooled over folds; fold mean and spread)", _D, md=False, caption="""\
**Metrics per task and model.**  The study's tidy metrics table, one row per task and model.
``auroc, average_precision, aupr`` (hyperbolic interpolation), ``aupr_linear, aucnpr, auprg`` are
computed on the predictions pooled over all test folds (mean over repeats if there are several);
``<metric>_fold_mean`` and ``<metric>_fold_std`` are the mean and sample standard deviation of the
metric computed on each test fold separately (folds with one class only are left out; see
``n_folds_scored``).  ``pi`` is the task's skew, ``aupr_min`` the minimum achievable AUPR at that
skew (Boyd et al. 2012, Theorem 2).  All metrics come from ``prspace.metrics.all_metrics``.
""")
NOISE_FLOOR_PER_TASK = Table("noise_floor_per_task", "Noise floor: how often a metric disagrees with itself on resampled test rows", _N, md=False, caption="""\
**Noise floor per task and metric.** For each task, how often a metric disagrees with itself about
the best model (top-1) and the ordered top three (top-3) when the pooled out-of-fold test rows are
resampled (stratified bootstrap, ``analysis.noise_boot`` resamples, seeded). A pairwise disagreement
share is a property of the metrics only where it stands above these floors.
""")
NOISE_FLOOR_PAIRS = Table("noise_floor_pairs", "Noise floor: are the two preferred models distinguishable?", _N, md=False, caption="""\
**Are the two preferred models distinguishable?** Per task and metric pair: the model each metric
ranks first, and whether each metric's preference is outside its paired bootstrap 95% interval of
the difference (the same resamples as the noise floor). ``top{k}_cross`` / ``top{k}_self_a`` /
``top{k}_self_b``: the share of pairs of distinct resamples whose top-k differs between metric a
and metric b (cross) and between a metric and itself (self), measured the same way;
``top{k}_cross_minus_self`` is cross minus the mean of the two self shares (docs/calibration.md).
""")
CALIBRATION_SUMMARY = Table("calibration_summary", "Calibration of the distinguishable check: false rate and the smallest reversal detected with 80% power", _N, caption="""\
**Calibration of the distinguishable check, summary.** Per metric pair and task size: the false
rate under the null with its Monte Carlo standard error, and ``mdr80``, the smallest planted
reversal such that every larger planted reversal was detected with power at least 0.8 (empty when
none was: then ``max_reversal`` and ``power_at_max`` say how far the check got). This is how to
read a "0 of n distinguishable" row of the verdict table (docs/calibration.md).
""")
CALIBRATION = Table("calibration", "Calibration of the distinguishable check: every simulated scenario", _N, caption="""\
**Calibration of the distinguishable check, every scenario.** Two binormal models simulated at this
study's task sizes (lower quartile, median and upper quartile of ``n_pos`` and ``n_neg``), decided
by the noise floor's own decision function (``prspace.experiments.noise.noise_floor.pair_decision``).
``scenario`` null: both models have the same score distribution, so equal population value under
every metric; ``rate`` is the false "distinguishable" rate. ``scenario`` reversal: model B's
positives have standard deviation ``sigma_b`` and mean ``mu_b`` chosen so that metric a prefers one
model and metric b the other by the same population margin ``reversal``; ``rate`` is the power
(``pop_*`` are the population values). Parameters: ``analysis.calibration`` (docs/calibration.md).
""")
NOISE_EVIDENCE = Table("noise_evidence", "Evidence rows: is the metrics' disagreement more than noise?", _N, caption="""\
**Evidence rows: is the disagreement more than noise?** One row per claim, decided by the
project's one verdict rule (``prspace.verdicts.rule``): ``px.*.top<k>.distinguishable`` (bound:
k of n disagreeing tasks whose two preferred models are distinguishable, exact 95% interval;
column ``power``: the check's calibrated power at the largest planted reversal at the calibrated
task size nearest the median number of positives of the tasks the row counts; the detail names
that size, the planted reversal and the false rates from ``calibration_summary``) and
``px.*.top<k>.cross_vs_self`` (difference: how much more often the two metrics disagree than one
metric disagrees with itself on resampled test rows, with a 95% cluster-bootstrap interval over
task families, its ``level`` and ``mc_error``, the Monte Carlo standard error of its ends). Every number in a
claim or detail is formatted from those tables.
""")
RANK_SETS = Table("rank_sets", "Confidence sets for ranks per task and metric: rank intervals and plausible-best sets", _N, md=False, caption="""\
**Confidence sets for ranks, per task and metric.** One row per task, metric and model: the
model's value on all test rows (``estimate``), its rank interval ``[rank_lo, rank_hi]`` and
whether it is in the plausible-best set (``rank_lo`` = 1). All rank intervals of a task and metric
hold simultaneously with probability ``level``: one shared paired stratified bootstrap of the
task's test rows (``n_resamples``), a studentised max-T over all pairs of models with critical
value ``critical`` (``prspace.stats.ranksets``; docs/analysis.md, "Confidence sets for ranks in the studies").
""")
RANK_SET_SUMMARY = Table("rank_set_summary", "Disjoint plausible-best sets: disagreement on the best model real by construction", _N, caption="""\
**Disjoint plausible-best sets: disagreement on the best model that is real by construction.**
Per task and metric, every model's rank interval comes from one shared paired stratified bootstrap
of the task's test rows (studentised max-T over all pairs of models, ``prspace.stats.ranksets``); the
plausible-best set holds the models whose rank interval starts at 1, and contains the truly best
model with the stated confidence. Per metric pair of Flach & Kull: ``n_disjoint`` tasks whose two
plausible-best sets share no model and their share ``disjoint_share`` with a 95% cluster-bootstrap
interval over task families, beside the plain top-1 disagreement ``top1_share`` (same resamples of
families); ``best_size_a`` / ``best_size_b`` the mean plausible-best set sizes and
``best_size_a_median`` / ``best_size_b_median`` their medians over tasks (on a typical task that
many models could be the best). If both metrics had
the same best model, disjoint sets would occur in at most ``false_rate_bound`` = 2 (1 - confidence)
of tasks; ``false_rate_equal``, ``false_rate_ranking``, ``power_at_max`` and ``mdr80`` come from
``rank_set_calibration``, simulated on a task of ``sim_n_pos`` positives, ``sim_n_neg`` negatives
and ``sim_models`` models (docs/analysis.md, "Confidence sets for ranks in the studies").
""")
RANK_SET_CALIBRATION = Table("rank_set_calibration", "Calibration of disjoint plausible-best sets: false rate and power by simulation", _N, caption="""\
**Calibration of disjoint plausible-best sets, by simulation at the study's median task size.**
Binormal models (negatives N(0, 1)) with correlated latent scores, each simulated task resampled as
the study resamples a task. ``null_equal``: every model equal under every metric; ``null_ranking``:
nested ROC curves, so every metric has the same best model; in both, ``rate`` is a false rate of
disjoint sets (Monte Carlo standard error ``rate_se``). ``reversal``: model B's population margins
under the two metrics are equal and opposite to model A's (``reversal`` = the margin), beside weaker
models; ``rate`` is the power, the share of simulated tasks whose sets are disjoint the right way.
""")
RANK_SET_EVIDENCE = Table("rank_set_evidence", "Evidence rows: disjoint plausible-best sets per metric pair", _N, caption="""\
**Evidence rows: disjoint plausible-best sets.** One row per metric pair,
``px.<a>_<b>.rank_sets.disjoint`` (kind ``bound``): k of n tasks whose plausible-best sets do not
overlap, decided by the project's one verdict rule (``prspace.verdicts.rule``, exact 95% interval)
against the guaranteed false rate 2 (1 - confidence) as ``tolerance``; column ``power``: the
calibrated power at the largest planted reversal on the simulated task; the detail gives that
scenario, the typical (median) and mean set sizes, the plain top-1 share and the calibrated false
rates from ``rank_set_calibration``.
""")
CONTROLLED_SKEW = Table("controlled_skew", "Skew isolated: the same models with the negatives reweighted", _N, caption="""\
**Skew isolated (table).** The same models and scores, the negatives reweighted (``sample_weight``)
so that pi takes each value of ``analysis.skew_targets``: AUROC and its ranks cannot change, AUPR,
AUPRG and AUCNPR can. Top-1 / top-3 disagreement and mean rank correlation per metric pair and pi,
with cluster-bootstrap 95% intervals over task families.
""")
CONTROLLED_SKEW_OBSERVED = Table("controlled_skew_observed", "Observed disagreement by pi bin and by number of positives", _N, caption="""\
**Observed disagreement by skew and by positives.** The study's own tasks binned by pi and by the
number of positives, for comparison with the controlled (reweighted) experiment: where the observed
share follows the controlled one, skew explains it; where it does not, something else does
(population, number of positives, panel).
""")
CONTROLLED_SKEW_TREND = Table("controlled_skew_trend", "Skew isolated: how fast each pair's disagreement rises as pi falls", _N, caption="""\
**Skew isolated: the trend.** Per metric pair and k (top-1, top-3): the least-squares slope of the
share of tasks whose top-k differ against -log10(pi) over the targets of ``analysis.skew_targets``
(change of the share per decade of falling pi), the same models and scores with the negatives
reweighted. Its 95% interval: whole families of tasks resampled with replacement, every target's
share recomputed from the same resample and the slope refit. A positive slope whose interval
excludes 0: skew moves this disagreement. The table's note gives the resamples and the seed.
""")
CONTROLLED_SKEW_COUNTERFACTUAL = Table("controlled_skew_counterfactual", "Skew counterfactual: this study's disagreement at a reference population's pi", _N, caption="""\
**Skew counterfactual.** This study's top-1 / top-3 disagreement with every task reweighted to the
pi of a reference population (``analysis.skew_reference``, a study's task table): to the
reference's median pi (``reference_median``) and to the reference's own pi distribution, the task
at pi-quantile q of this study taking the reference's pi-quantile q (``reference_distribution``).
The shares the paper comparison needs if skew is what separates this study from the paper's OpenML
tasks; 95% cluster-bootstrap intervals over families. The table's note names the reference and
its size.
""")
DISAGREEMENT_BY_BALANCE = Table("disagreement_by_balance", "Observed disagreement by balance level of the task", _N, caption="""\
**Observed disagreement by balance level.** The study's own (unweighted) top-1 / top-3 shares per
metric pair, pooled over every task (``all``, as in the disagreement summary) and per balance level
of the task's pi (``pi_lo <= pi < pi_hi``), with 95% cluster-bootstrap intervals over the families
of each level's tasks and the number of tasks and families behind each share. A level without a
task has no share.
""")
SKEW_EVIDENCE = Table("skew_evidence", "Evidence rows: skew as the explanation of the disagreement", _N, caption="""\
**Evidence rows: skew.** One row per claim, decided by the project's one verdict rule
(``prspace.verdicts.rule``): ``px.*.skew_trend`` (direction: the disagreement rises as pi falls,
estimate the slope of the trend table) and ``px.*.at_paperlike_pi_distribution`` (this project's
counterfactual: this study's share at the reference population's pi against Flach & Kull's share and
margin; ``px.*.at_paperlike_pi``, at the reference's median pi, only where its verdict differs; none
when the reference is the study's own tasks). Every number in a claim or detail is
formatted from those tables.
""")
CONTROLLED_SKEW_PER_TASK = Table("controlled_skew_per_task", "Skew isolated, per task: disagreement at each target pi with the negatives reweighted", _N, md=False, caption="""\
**Skew isolated, per task.** For every task, metric pair and target skew pi, the rank disagreement of
the study's own models when each task's negatives are reweighted so that its pi equals the target
(same models, same scores; ``negative_weight`` is the weight): ``top1_differs``, ``top3_differs``,
``spearman``, ``kendall``; ``is_observed`` marks the task's own pi. The controlled-skew tables and
the skew evidence rows are bootstraps of families over these rows; committed so that those
intervals can be recomputed under any seed (``tests/experiments/skew/test_skew_seeds.py``). Written by
step ``controlled_skew`` (``prspace step controlled_skew``).
""")
CONTROLLED_SKEW_COUNTERFACTUAL_PER_TASK = Table("controlled_skew_counterfactual_per_task", "Skew counterfactual, per task: each task's disagreement at its reference pi", _N, md=False, caption="""\
**Skew counterfactual, per task.** Each task's rank disagreement per metric pair with its negatives
reweighted to each target pi of the reference population (``analysis.skew_reference``; ``target_id``, e.g. its median), the
per-task rows behind ``controlled_skew_counterfactual`` and the ``at_<reference>_pi`` evidence rows;
committed so that those intervals can be recomputed under any seed (``tests/experiments/skew/test_skew_seeds.py``).
Written by step ``controlled_skew`` (``prspace step controlled_skew``).
""")
PANEL_SENSITIVITY = Table("panel_sensitivity", "Panel sensitivity: every model vs one model per learner family", _N, caption="""\
**Panel sensitivity.** The disagreement shares with every model of the panel and with one model per
learner family (``prspace.local.learners.learner_family``), so that near-duplicate models cannot
make the shares: if the two columns agree, the panel's composition does not drive the result.
""")
LEARNER_WINNERS = Table("learner_winners", "The best learner across tasks, its margin and the tasks that decide it", _L, caption="""\
**The best learner across tasks, and how firmly.** For each metric, the winner by mean, median and
mean within-task rank, its margin over the runner-up, and how many tasks alone, left out, change the
winner. AUPRG is unbounded below, so one task can decide a mean of AUPRG (Boyd et al. 2012, 4.2).
""")
CD_TESTS = Table("cd_tests", "Critical-difference diagrams: Friedman test and Nemenyi critical difference per metric", _L, caption="""\
**Friedman test across tasks, per metric** (``prspace.stats.cd.critical_difference``).  Friedman's chi2
(tie-corrected, as ``scipy.stats.friedmanchisquare``) and Iman-Davenport's F test whether all
learners rank alike over the tasks; ``critical_difference`` is Nemenyi's CD of average ranks at
``alpha`` (``q_alpha`` the studentized range quantile / sqrt 2); ``posthoc`` names the test behind
the cliques of the diagram.  A task where a learner has no score is dropped (``dropped_tasks``).
""")
CD_METRIC_PAIRS = Table("cd_metric_pairs", "Do two metrics order the learners differently across tasks beyond noise?", _L, caption="""\
**Do two metrics order the learners differently across tasks beyond noise?** (``prspace.stats.cd.metric_order_test``).
Statistic: the squared distance between the two metrics' average-rank vectors; p from random sign
flips of whole families of tasks (``n_families``: tasks derived from one source dataset flip
together, as they are not independent; null: within a family the two metrics' rank vectors are
exchangeable).  ``learners_moved``: learners whose family-mean rank differences are significant by
the Wilcoxon signed-rank test with Holm over learners.  ``false_rate`` and
``power_planted_reversal``: the test's calibration by simulation at this study's numbers of tasks,
learners and families, tasks correlated ``calibration_family_corr`` within a family (exchangeable
metrics; ``power_scenario``: best and worst learner swapped under one metric).  p-values are not
adjusted across metric pairs.
""")
CD_CLIQUES = Table("cd_cliques", "Cliques of the critical-difference diagrams: learners not significantly different", _L, caption="""\
**Cliques of the critical-difference diagrams** (``prspace.stats.cd``): per metric, each maximal run of
learners (in average-rank order) no two of which differ under the post hoc named in ``cd_tests``
(Nemenyi by default); the red bars of the diagram.
""")
FK_EVIDENCE = Table("fk_evidence", "Evidence rows: the learners' common order, Flach & Kull's theorems and code", _V, caption="""\
**Flach & Kull evidence rows.** ``px.all_different.cd.order`` (this project's own question): does
each metric pair order the learners differently across tasks, one common order per metric, an
intersection-union test over the three pairs' learner-order tests (``cd_metric_pairs``): p is the
largest of the three p-values (Flach & Kull's "all significantly different", ``fk.all_different``, is
decided with their other primary claims from each pair's disagreement beyond test-set noise). The
implementation rows check Definition 1 and Theorems 1-4 written out from the paper against
``prspace.metrics``, and AUPRG against the authors' code (``pyprg``) on the study's predictions.
""")
CLAIMS_NOT_TESTED = Table("claims_not_tested", "Claims of both papers not tested, and why", _V, caption="""\
**Claims not tested, and why.** Every checkable sentence of both papers that no verdict row tests
(claims about the authors' own OpenML runs or data, worked examples, proofs), with where it stands,
the paper's words, why it is not tested and the rows that bear on it.
""")
PANEL_DRAWS = Table("panel_draws", "Panel draws: each primary estimate over random model panels drawn per task", _N, caption="""\
**Panel draws.** Flach & Kull drew 30 models per task at random from more flows; this study runs one
fixed panel of learners on every task. Here each task's panel is redrawn at random (``panel_size`` of
its models, independently per task, ``n_draws`` times; the Markdown title says how many of how many)
and every share and mean rank correlation of the primary claims is recomputed: ``estimate_all`` is the
study's estimate on every model, ``p05``/``p50``/``p95`` its spread over the draws. The default study
draws 20 of its 30 learners (a smaller panel gives fewer chances to disagree, so shares sit lower
than on the whole panel); the pool study (``config/panel-pool.yaml``, ``make panel-pool``) draws 30
of a larger pool of distinct methods, as the paper drew 30 of more flows. The width of the spread is
what the draw of learners alone moves.
""")
CD_RANKS = Table("cd_ranks", "Learners' average ranks across tasks per metric (critical-difference diagrams)", _L, caption="""\
**Average ranks across tasks per metric** (``prspace.stats.cd``): each learner's mean within-task rank
(1 = best, ties averaged) over the tasks where every learner has a score, and its position; the
points of the critical-difference diagrams.
""")

_BE, _BP, _BT = "Verdict evidence", "Paper tables", "Theory"
_BD, _BF, _BA = "Downsampling (section 4.3)", "Fold skew (section 4.1)", "Aggregation over tasks (section 4.2)"
BOYD_EVIDENCE = _boyd("boyd_evidence", "Boyd et al.: the evidence row of every claim the study checked", _BE, md=False, caption="""\
**Evidence rows: Boyd et al. (2012).** One row per claim of the claims registry
(``prspace.core.claims``): implementation checks (Theorems 1-3 and Corollary 4 against their
closed forms, the arithmetic of Tables 2 and 3) and the primary empirical claims of sections 4.1 and
4.3 (directions with simultaneous cluster-bootstrap intervals over families, their Monte Carlo error
and calibration), plus this project's own questions about them (``px.boyd.*``, paper ``prspace``),
written by ``prspace step boyd_evidence`` (``prspace.experiments.boyd.boyd_evidence``) and decided by the
project's one verdict rule (``prspace.verdicts.rule``; ``docs/verdicts.md``, ``docs/boyd.md``). The
verdict of each row is in the verdict table.
""")
BOYD_EVIDENCE_VALUES = _boyd("boyd_evidence_values", "Boyd et al.: the per-task values each interval row resampled", _BE, md=False, caption="""\
**The values behind Boyd et al.'s interval rows.** For every evidence row of ``boyd_evidence.csv``
whose interval is a cluster bootstrap of a mean over tasks (sections 4.1 and 4.3, and this project's
questions about them), one line per task: the row's ``claim_id``, the task's ``family`` (the unit the
bootstrap resamples) and the per-task ``value`` it averaged. With it, every such interval can be
recomputed under any seed without the study's runs (``tests/experiments/boyd/test_boyd_seeds.py`` does, under five
seeds); written by ``prspace step boyd_evidence``.
""")
BOYD_TABLE3_CHECK = _boyd("boyd_table3_check", "Boyd Table 3: AUCNPR recomputed from AUCPR and skew", _BP, caption="""\
Boyd et al. (2012), Table 3, checked: the published AUCNPR values recomputed from the published
AUCPR values and the test skews (pi = 1/(1+k) for a 1:k test set; the original test set is 1:24,
pi = 0.04) with AUCNPR = (AUCPR - AUCPR_MIN(pi)) / (1 - AUCPR_MIN(pi)). Transcribed from the paper;
all differences are within the rounding of the three published decimals.
""")
BOYD_TABLE2_CHECK = _boyd("boyd_table2_check", "Boyd Table 2: the skews the table implies", _BP, caption="""\
Boyd et al. (2012), Table 2 (LSM on the IMDB predicates), checked: the mean row, and the skew each
predicate's (AUCPR, AUCNPR) pair implies by inverting Theorem 2. The text says the gender predicate
has "a skew close to pi = 0.5" (range [0.31, 1.0]); the table's values imply pi = 0.45 (floor 0.27).
At pi = 0.5 its AUCNPR would be 0.29, not 0.325.
""")
BOYD_FIG_PR_PRG_SOURCE = _boyd("boyd_fig_pr_prg_source", "Scores drawn in the PR/PRG figure", _BT, md=False, caption="""\
**Where the PR/PRG figure's scores come from.**  The task (dataset, provenance), the model, the
cross-validation repeat and test fold whose out-of-fold scores are drawn in the PR and PRG curves
beside each other (Flach & Kull 2015, Figure 2), with that fold's size ``n``, positives ``n_pos``
and its AUPR and AUPRG.
""")
BOYD_DOWNSAMPLING_TABLE3 = _boyd("boyd_downsampling_table3", "Downsampling: Boyd Table 3 per task and learner", _BD, caption="""\
Downsampling per task, learner and training ratio, in the shape of Boyd et al.'s Table 3: every
metric on the downsampled test fold and on the original test fold, mean over repeats x folds.
""")
BOYD_DOWNSAMPLING_SUMMARY = _boyd("boyd_downsampling_summary", "Downsampling: summary over tasks", _BD, caption="""\
Downsampling summarised over tasks: per learner and for all learners, the mean over tasks of
each metric on the downsampled and on the original test folds, the gap between them (the part
that comes only from the test set's skew) and its standard deviation over tasks.
""")
BOYD_DOWNSAMPLING_VS_PAPER = _boyd("boyd_downsampling_vs_paper", "Downsampling: this study beside the paper", _BD, caption="""\
Boyd et al. (2012) Table 3 (SAYU on UW-CSE advisedBy, transcribed) beside this study's downsampling
means over all learners and tasks, per training ratio. Boyd's 1:24 row is their original ratio; ours
is each task's own ratio. Different data and learners, so the comparison is the pattern: AUCPR and
AUCNPR on the downsampled test set far above the original test set at 1:1, the gap closing toward
the original ratio, AUROC unmoved.
""")
BOYD_FOLD_SKEW_SUMMARY = _boyd("boyd_fold_skew_summary", "Fold skew: bias of each aggregate per dispersion", _BF, caption="""\
Fold skew per dispersion d and aggregate: mean bias over tasks (skewed folds minus the control,
same rows and fold sizes; each task averaged over models and seeds), its sd over tasks, the share of
tasks with positive (optimistic) bias, how often the best model changes, and Kendall's tau between
the model orders on the reassigned folds and on the original folds.
""")
BOYD_FOLD_SKEW_PER_TASK = _boyd("boyd_fold_skew_per_task", "Fold skew: bias per task and dispersion", _BF, caption="""\
**Fold skew per task** (Boyd et al. 2012, section 4.1).  For each task (its skew ``task_pi``) and
each dispersion (the share of a fold's positives swapped into its partner fold): the bias of each
aggregate, i.e. its value on the skewed folds minus its value on the control folds (same rows, same
fold sizes, fold skews unchanged), averaged over models and seeds; ``mean_*`` average the metric
over folds, ``pooled_*`` compute it once on the pooled out-of-fold scores (0 by construction).
""")
BOYD_FOLD_SKEW_MECHANISM = _boyd("boyd_fold_skew_mechanism", "Fold skew on one simulated model: the sign of the averaging bias", _BF, caption="""\
**Fold skew on one simulated model** (Boyd et al. 2012, section 4.1; simulated, no data).  One
binormal model (negatives N(0, 1), positives N(separation, 1); ``auroc`` = Phi(separation / sqrt 2)),
one population, stratified folds made to differ in skew by the same swaps as the fold-skew
experiment, against the stratified control. ``bias_mean``: (mean of per-fold AUPR - merged AUPR) on
skewed folds minus the same on the control, over ``n_sim`` simulations, with its Monte Carlo interval
(``mc_lo``, ``mc_hi``); ``sign`` where that interval excludes 0. Near the worst ranking the fold mean
is optimistic, as Boyd et al.'s floor argument says (AUCPR_MIN is convex in pi); for models better
than random it is pessimistic (precision at a fixed ROC point is concave in pi).
""")
BOYD_AGGREGATION_TASKS = _boyd("boyd_aggregation_tasks", "Aggregation: metrics per task and learner", _BA, caption="""\
Per task and learner: pi, AUCPR_MIN(pi) and the pooled cross-validated AUPR, AUCNPR, AUPRG, AUROC
(Boyd et al. 2012, Table 2 generalised to every task and learner of the study).
""")
BOYD_AGGREGATION_LEARNERS = _boyd("boyd_aggregation_learners", "Aggregation: learners' means over tasks", _BA, caption="""\
Learners' mean AUPR, AUCNPR, AUPRG and AUROC over all tasks, and their rank by each mean
(1 = best); computed with ``prspace.experiments.ranking.learner_ranking_across_tasks``.
""")
BOYD_AGGREGATION_AGREEMENT = _boyd("boyd_aggregation_agreement", "Aggregation: do the learners' orders agree?", _BA, caption="""\
**Do the learners' orders across tasks agree?** (Boyd et al. 2012, section 4.2.)  For each pair
of aggregate metrics (mean AUPR, AUCNPR, AUPRG, AUROC over the study's tasks): the number of
learners compared, the best learner under each (``best_a``, ``best_b``), whether the best learner
(``top1_differs``) or the ordered top three (``top3_differs``) differ, and the Spearman and Kendall
correlations between the two orders of learners.
""")
BOYD_AGGREGATION_SKEW_CORRELATION = _boyd("boyd_aggregation_skew_correlation", "Aggregation: metrics against skew", _BA, caption="""\
Spearman's rho between each metric and the task's pi across tasks, per learner and for the mean
of learners. ``free_share`` is mean AUCPR_MIN over mean AUPR: the part of the average AUPR that any
model would have scored.
""")
BOYD_AGGREGATION_SKEW_GROUPS = _boyd("boyd_aggregation_skew_groups", "Aggregation: learners within skew groups", _BA, caption="""\
**Learners within groups of tasks of similar skew** (Boyd et al. 2012, section 4.2).  Tasks are
split into equal-size groups by their skew pi (``skew_group`` names the range); within each group,
every learner's mean AUCNPR, AUPR, AUPRG and AUROC over the group's ``n_tasks`` tasks and its rank
under each (1 = best).  AUPR favours the groups of high pi; AUCNPR removes the part of AUPR that
skew alone fixes (AUCPR_MIN, Theorem 2).
""")

OPENML_STUDY = _openml("openml_study", "This OpenML study: source, draw, experiments run and left out", caption="""\
**This OpenML study.**  Where the predictions come from (the OpenML server and client version), whether
the draw is fresh (frozen in ``openml-manifest.json`` beside the results) or a replay of a manifest, how
many tasks and models, and which experiments ran on the fetched predictions.  Boyd et al.'s downsampling
experiment retrains learners and needs each dataset's raw features, which OpenML runs do not carry: it is
left out, with that reason.
""")
OPENML_SELFCHECK_SUMMARY = _openml("openml_selfcheck_summary", "Self-check: our AUROC vs OpenML's evaluation engine (summary)", caption="""\
**Self-check against OpenML's own evaluation engine.**  For every drawn run, our AUROC of the fetched
predictions against the ``area_under_roc_curve`` the OpenML server computed from the same file: per
(repeat, fold), and overall (pooled over all folds and repeats, as the engine computes it; compared only
when every repeat was fetched).  Runs compared, the largest and median absolute difference, and every run
that differs by more than 1e-4 with its likely cause.  The server prints 6 decimals (at most 5e-7 apart).
""")
OPENML_SELFCHECK = _openml("openml_selfcheck", "Self-check: our AUROC vs OpenML's evaluation engine, per run and fold", caption="""\
**Self-check, value by value.**  One row per run and (repeat, fold), and one ``overall`` row per run
(``repeat = fold = -1``): the server's AUROC, ours, the absolute difference, whether they agree within
1e-4, and for a disagreement its likely cause.
""")

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
                 draw: str, caption: str) -> Figure:
    return Figure(name, data, text, formats="boyd", category=BOYD_CATEGORY, section=section, draw=draw,
                  caption=caption)


FIGURE_FIG4_RANK_HEATMAP = Figure("fig4_rank_heatmap", (FIG4_RANK_COUNTS,), FIGURE_TEXT, draw="prspace.figures.study:fig4_rank_heatmap", caption="""\
**AUPRG rank against AUPR rank** (Flach & Kull 2015, Figure 4 left).  *What the paper showed:* over
886 OpenML tasks x 30 models, most mass on the diagonal but a wide spread off it, also among the
best ranks: the metrics disagree on the best model in 24% and on the top three in 58% of tasks.
*Here:* each cell counts the models of this study with the given rank by AUPR (x) and by AUPRG (y)
among the models of their own task (1 = best), binned on a log2 scale (0, 1, 2-3, 4-7, ...).
Saturated tasks -- where models tie at AUROC = AUPR = AUPRG = 1 -- are left out (the title says
how many): their tied models share one averaged rank and would fill an off-diagonal cell with
ties, not disagreements.  Other ties: average ranks rounded half up.  *Look at:* the spread off
the diagonal, and near the bottom-left corner (disagreement about the best models).
""")
FIGURE_FIG4_AUPRG_VS_AUPR = Figure("fig4_auprg_vs_aupr", (FIG4_SCATTER,), FIGURE_TEXT, draw="prspace.figures.study:fig4_auprg_vs_aupr", caption="""\
**AUPRG against AUPR per model in two tasks** (Flach & Kull 2015, Figure 4 right).  *What the paper
showed:* two OpenML tasks whose per-task rank correlation between AUPR and AUPRG sits at the lower
and upper quartile over all tasks (0.944 and 0.991); in both the metrics agree on the best model,
and in the lower-quartile task (white-clover) the second place flips; the two models of that flip
are circled and drawn in Figure 5.  *Here:* the same rule on this study's tasks
(``prspace.experiments.fk.figure_selection.quartile_tasks``); the legend gives each task's rho and, below,
our quartiles beside the paper's.  Each marker is one model; the two circled models are those of
Figure 5.  *Look at:* how tightly each task's cloud follows a monotone curve (agreement) and where
models cross (a flip).  Models below AUPRG 0 (worse than the always-positive classifier in PRG
terms) fall outside the axes, as in the paper; the legend counts them.
""")
FIGURE_FIG5_CURVES = Figure("fig5_curves", (FIG5_CURVE_POINTS, FIG5_CURVE_AREAS), FIGURE_TEXT,
                            optional=(FIG5_CURVE_BANDS,), draw="prspace.figures.study:fig5_curves", caption="""\
**Why AUPR and AUPRG can order two models differently** (Flach & Kull 2015, Figure 5).  *What the
paper showed:* AdaBoost and Logistic Regression on white-clover, its lower-quartile task: the
second-best place flips -- AUPR 0.724 vs 0.773 (Logistic Regression ahead), AUPRG 0.714 vs 0.687
(AdaBoost ahead) -- because AUPR counts AdaBoost's poor early ranking, where recall is below pi and
the recall gain negative, and AUPRG ignores it.  *Here:* the clearest flip among the top models of
the lower-quartile task (one model in the top three by AUPRG; the largest smaller gap of the two
metrics, at least 0.01 in both so that it can be seen); if that task has none, the task nearest
the lower quartile of rho that has one; if no task has one, the study's largest flip, and the
figure's note says it is too small to see.  The models are circled in Figure 4 (right);
``figure_selection`` and the note under the figure name them and why.
ROC (top left), PR (top right: hyperbolic interpolation, the minimum PR curve with the
unachievable region shaded, the baseline precision = pi; the axis stops above the curves when
they stay low and says what it cuts), PRG (bottom left: the unit square, as in the paper; what
falls below it is named in the panel).  *Bands* (shaded in each model's colour, PR and PRG panels):
{{ "%g" | format(100 * snakemake.config["analysis"]["bands"]["level"]) }}% bootstrap bands from
{{ snakemake.config["analysis"]["bands"]["n_resamples"] }} resamples of the model's test rows (stratified
by class and fold, seed {{ snakemake.config["seed"] }}; ``prspace.stats.bands``, docs/audit.md "Curve bands"):
light, the simultaneous band (sup-t: it holds the whole curve on the grid with that probability);
dark, the pointwise band (percentile interval at each point).  The grid leaves out the ends, where
one row decides the curve: PR at recall 0.05-0.95 (hyperbolic interpolation, as the curve), PRG at
recall gain 0-0.95 (linear in gain space).  Each band is one model's: where the two overlap, the
models may still differ (a paired comparison of the same rows is sharper).  *Look at:* where the two PR curves cross relative to
recall = pi, and whether the PRG curves, which start at recall gain 0, keep the order.
""")
FIGURE_CONTROLLED_SKEW = Figure("controlled_skew", (CONTROLLED_SKEW, CONTROLLED_SKEW_OBSERVED), draw="prspace.figures.study:controlled_skew", caption="""\
**Skew, isolated** (controlled experiment; ``prspace.experiments.skew.controlled_skew``).  For every task
the negatives are reweighted so that the weighted share of positives is pi (0.5 ... 0.01), with the
same models and scores: ROC curves, AUROC and its ranks do not move; precision, AUPR, AP, AUCNPR and
AUPRG do.  One panel per metric pair: share of tasks whose best model (top-1) or ordered top three
(top-3) differ, and the mean per-task Spearman correlation, against pi (lines).  Hollow markers: the
study's own tasks, unweighted, binned by their pi (at the bin's mean pi): there skew is mixed with
everything else that differs between datasets.  Tables: ``controlled_skew``, ``controlled_skew_observed``.
""")
FIGURE_CD_DIAGRAM = Figure("cd_diagram", (CD_RANKS, CD_CLIQUES, CD_TESTS), draw="prspace.figures.study:cd_diagram", caption="""\
**Critical-difference diagrams across tasks** (Demsar 2006; ``prspace.stats.cd``, ``prspace step cd``), one
panel per metric (AUPR, AUPRG, AUROC, AUCNPR).  Each learner sits at its average within-task rank
over the study's tasks (best at the top).  Red bars join learners no two of which differ by
Nemenyi's test at alpha 0.05 (average ranks closer than the critical difference CD, the bracket).
Panel titles give Friedman's p.  Blue labels: learners whose average rank moved by at least the CD
against the first panel.  Whether two metrics' orders differ beyond noise is the sign-flip test (over
families of tasks) of table ``cd_metric_pairs``, calibrated by simulation (false rate, power).  Tables: ``cd_ranks``,
``cd_cliques``, ``cd_tests``.
""")
FIGURE_BOYD_FIG1_MIN_PR_CURVE = _boyd_figure("boyd_fig1_min_pr_curve", (BOYD_FIG1_MIN_PR_CURVE,), _BT, draw="prspace.figures.study:boyd_fig1_min_pr_curve", caption="""\
Boyd et al. (2012), Figure 1, redrawn exactly: the minimum PR curve p = pi r / (1 - pi + pi r)
(Theorem 1, equality case) and the random-guessing line p = pi at pi = 1/3 (one positive for two
negatives). Everything below the red curve is unachievable with these class counts; its area,
AUCPR_MIN = 1 + (1 - pi) ln(1 - pi) / pi (Theorem 2), is what any ranking, however bad, scores.
Curves from ``prspace.metrics.min_pr_curve`` and ``aupr_min``; no data.
""")
FIGURE_BOYD_FIG2_MIN_PR_CURVES = _boyd_figure("boyd_fig2_min_pr_curves", (BOYD_FIG2_MIN_PR_CURVES,), _BT, draw="prspace.figures.study:boyd_fig2_min_pr_curves", caption="""\
Boyd et al. (2012), Figure 2: minimum PR curves for several skews pi, with the area under each
(AUCPR_MIN). *What the paper showed, and what to look at:* the unachievable region grows quickly
with pi -- about 0.05 at pi = 0.1, 0.31 at pi = 0.5 -- so the same AUCPR means less at high skew.
The legend sits below the plot so it hides no curve. Exact curves from ``prspace.metrics``; no data.
""")
FIGURE_BOYD_FIG3_AUCPR_MIN = _boyd_figure("boyd_fig3_aucpr_min", (BOYD_FIG3_AUCPR_MIN,), _BT, draw="prspace.figures.study:boyd_fig3_aucpr_min", caption="""\
Boyd et al. (2012), Figure 3: AUCPR_MIN against pi (log axis) for recall in [0, 1] (Theorem 2),
[0.5, 1] and [0.8, 1] (Corollary 4). Dashed: the restricted areas divided by their width b - a,
i.e. the share of the restricted PR space that comes for free -- larger than for the full range,
because most of the unachievable region lies at high recall. ``prspace.metrics.aupr_min``; no data.
""")
FIGURE_BOYD_FIG4_F1_CONTOURS = _boyd_figure("boyd_fig4_f1_contours", (BOYD_FIG4_F1_CONTOURS,), _BT, draw="prspace.figures.study:boyd_fig4_f1_contours", caption="""\
Boyd et al. (2012), Figure 4: F1 contours over PR space with the minimum PR curve and the
unachievable region at pi = 0.33. Points A, B and C all have F1 = 0.45: A is unachievable (below the
minimum curve), B is achievable but barely above the minimum curve (hardly better than random), C
has good precision at modest recall. The points are computed, not placed by eye: B lies 0.03 in
recall left of where the F1 = 0.45 isometric meets the minimum curve, A to its right.
""")
FIGURE_BOYD_FIG_PR_PRG = _boyd_figure(
    "boyd_fig_pr_prg", (BOYD_FIG_PR_PRG_POINTS, BOYD_FIG_PR_PRG_AREAS, BOYD_FIG_PR_PRG_HULL, BOYD_FIG_PR_PRG_ISOMETRICS),
    _BT, BOYD_FIG_PR_PRG_TEXT, draw="prspace.figures.study:boyd_fig_pr_prg", caption="""\
After Flach and Kull (2015), Figure 2, on real data: one model's scores on one cross-validation
test fold of this study (the source -- dataset, package version, model, fold -- is in the figure
title and in ``boyd_fig_pr_prg_source.csv``). *What the paper showed:* a PR curve with hyperbolic
F1 isometrics and the always-positive baseline beside its PRG curve, where the same isometrics
become parallel straight lines, the baseline becomes the minor diagonal and the convex hull is
the Pareto front. *Here:* left, the PR curve (hyperbolic interpolation through the thresholds'
points) with the F1 isometrics 0.1 ... 0.9 (dotted) and the always-positive F1 isometric (solid);
right, the PRG curve with the images of exactly those isometrics under the gain transform
(Flach & Kull Definition 1; by their Theorem 2 the isometric F1 = f maps to precG + recG =
2 (f - pi) / ((1 - pi) f)), each labelled by its F1 value; isometrics with F1 <= pi have no image
in the unit square (the legend names them), and the baseline maps to the minor diagonal. *Look
at:* the same labelled isometric in both panels, hyperbola on the left and straight line on the
right, and the hull's vertices, the only thresholds optimal for some F-beta. By default the task
is one of moderate skew with about 30 positives per test fold whose median-AUPRG model scores
nearest AUPRG 0.6 on the first test fold (``boyd.pr_prg``; docs/boyd.md).
""")
FIGURE_BOYD_DOWNSAMPLING = _boyd_figure(
    "boyd_downsampling", (BOYD_DOWNSAMPLING_LEVELS, BOYD_DOWNSAMPLING_AXIS, BOYD_DOWNSAMPLING_PAPER), _BD,
    BOYD_DOWNSAMPLING_TEXT, draw="prspace.figures.study:boyd_downsampling", caption="""\
Downsampling (Boyd et al. 2012, section 4.3, Table 3 generalised to real datasets and several
learners). *What the paper showed:* SAYU on UW-CSE advisedBy trained at 1:1 ... 1:10 and on the
original 1:24: AUCPR on a test set downsampled to the training ratio far above AUCPR on the
original test set (0.851 vs 0.330 at 1:1), AUCNPR only slightly less so (0.785 vs 0.316). *Here:*
for each qualifying task (pi <= ``boyd.downsampling.max_pi``, enough positives) and learner, the
training negatives are subsampled to 1:k and each model is scored on its test fold downsampled to
1:k (red) and on the whole test fold (blue). Top row: levels (thick: mean over tasks of the
learners' mean; thin: single learners; black triangles: Boyd's Table 3, their 1:24 row at
"original"; dotted: AUCPR_MIN at the downsampled skew). Bottom row: the paired gap, downsampled
minus original test fold of the same models (bars: +- one sd over tasks; stars: Boyd's gaps).
Each row shares one y axis. *Look at:* the AUPR and AUCNPR gaps growing toward 1:1 like Boyd's
stars while the AUROC gap stays near zero on the same scale, and the sign of AUPRG's gap.
""")
FIGURE_BOYD_FOLD_SKEW = _boyd_figure("boyd_fold_skew", (BOYD_FOLD_SKEW_LINES,), _BF, BOYD_FOLD_SKEW_TEXT, draw="prspace.figures.study:boyd_fold_skew", caption="""\
Fold skew (Boyd et al. 2012, section 4.1), from this study's cross-validated predictions. *What
the paper showed (in words, no figure):* when folds differ in skew, averaging AUCPR over folds is
biased, because each fold's AUCPR has its own free minimum; AUCNPR removes it. *Here:* every row and
every fold's size are kept and only the skews move: the folds are paired, and in each pair a share d
of one fold's positives swap places with as many negatives of the other (skewed: fold pi about
pi(1+d) and pi(1-d)); the control makes the same moves class for class (every fold keeps its pi).
Left: the signed shift of each aggregate -- its value on the skewed folds minus on the control, same
models, per task averaged over models and seeds, mean over tasks -- against d, on a symmetric-log
axis (linear within +-0.001); below zero the aggregate is pessimistic on skewed folds. Pooled
metrics are the same rows and scores in every design, so their shift is 0 by construction. Right,
against the same d: Kendall's tau between the models' order and their order on the original folds,
control minus skewed (the agreement the skew costs). Solid: means of per-fold metrics; dashed:
pooled metrics. The verdicts on section 4.1 (boyd_evidence.csv) read these runs at every d (the primary
rows at the largest).
""")
FIGURE_BOYD_AGGREGATION = _boyd_figure(
    "boyd_aggregation", (BOYD_AGGREGATION_POINTS, BOYD_AGGREGATION_TASK_MEANS, BOYD_AGGREGATION_MIN_CURVE,
                         BOYD_AGGREGATION_RANKS), _BA, BOYD_AGGREGATION_TEXT, draw="prspace.figures.study:boyd_aggregation", caption="""\
Aggregation over tasks (Boyd et al. 2012, section 4.2, Table 2 generalised). *What the paper
showed:* for LSM on six IMDB predicates, the mean AUCPR (0.733) and mean AUCNPR (0.680) differ
because the predicates' skews differ, so an average over tasks of different skew rewards the
easy, high-pi tasks. *Here, left:* every task's AUPR, AUCNPR and AUPRG (faint dots: single
learners; large dots: mean over learners) against its skew, with AUCPR_MIN(pi) (dotted) -- the
part of AUPR any model gets -- and pi (dashed), the AUPR of a random ranking. AUPRG and AUCNPR are
negative for models worse than the always-positive baseline: the axis reaches down to show them
(at most to -0.5; lower values are triangles on the bottom edge) and the panel title counts them.
*Right:* each learner's rank (1 = best; black on light, white on dark cells) by its mean metric
over all tasks and within pi groups of tasks. *Look at:* how far the AUPR dots rise with pi
beside AUCPR_MIN, and rows whose rank changes between metrics or between pi groups.
""")

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
                      run="prspace.experiments.steps.rank_sets_step:rank_sets_step", files=_pairs(per_task=StudyFile.RANK_SETS_PER_TASK),
    description="Per task and metric: every model's rank interval and the plausible-best set (one shared paired "
                "bootstrap).",
    inputs=_pairs(status=_EACH_STATUS),
    settings=(*((k, f"analysis.rank_sets.{k}") for k in ("metrics", "n_boot", "confidence")), ("seed", _SEED)))
STEP_RANK_SET_SUMMARY = Step("rank_set_summary", (RANK_SET_SUMMARY, RANK_SET_CALIBRATION, RANK_SET_EVIDENCE),
                             evidence=(RANK_SET_EVIDENCE,), run="prspace.experiments.steps.rank_sets_step:rank_set_summary_step",
    description="Per metric pair: tasks whose plausible-best sets are disjoint vs plain top-1 disagreement, "
                "calibrated; evidence rows.",
    inputs=_pairs(rank_sets=RANK_SETS, tasks=TASKS),
    settings=(*((k, f"analysis.rank_sets.{k}") for k in ("n_sim", "n_sim_null", "sim_models", "sim_boot", "mc_error")),
              ("n_boot", "analysis.n_boot"), ("seed", _SEED)))
STEP_CONTROLLED_SKEW = Step("controlled_skew", (CONTROLLED_SKEW_PER_TASK, CONTROLLED_SKEW_COUNTERFACTUAL_PER_TASK,
                                                CONTROLLED_SKEW, CONTROLLED_SKEW_OBSERVED, CONTROLLED_SKEW_TREND,
                                                CONTROLLED_SKEW_COUNTERFACTUAL, DISAGREEMENT_BY_BALANCE, SKEW_EVIDENCE),
                            evidence=(SKEW_EVIDENCE,), run="prspace.verdicts.skew:controlled_skew_step",
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
                         run="prspace.verdicts.completeness:completeness_step",
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
                             when=When.BOYD_THEORY, run="prspace.experiments.steps.boyd_steps:theory_data_step",
    description="The tables of Boyd et al. Figures 1-4: exact curves from prspace.metrics (no data).")
STEP_BOYD_PAPER_TABLES = Step("boyd_paper_tables", (BOYD_TABLE3_CHECK, BOYD_TABLE2_CHECK), when=When.BOYD_THEORY,
                              run="prspace.experiments.steps.boyd_steps:paper_tables_step",
    description="Boyd's Table 3 (AUCNPR recomputed from AUCPR and skew) and Table 2 (implied skews).")
STEP_BOYD_PR_PRG = Step("boyd_pr_prg", (BOYD_FIG_PR_PRG_SOURCE,),
                        (BOYD_FIG_PR_PRG_POINTS, BOYD_FIG_PR_PRG_AREAS, BOYD_FIG_PR_PRG_HULL, BOYD_FIG_PR_PRG_ISOMETRICS,
                         BOYD_FIG_PR_PRG_TEXT), when=When.BOYD_THEORY, run="prspace.experiments.steps.boyd_steps:pr_prg_step",
    description="The tables of Flach and Kull Figure 2 (PR beside PRG) for one real model's scores on one test fold.",
    inputs=_pairs(status=_EACH_STATUS),
    settings=tuple((k, f"boyd.pr_prg.{k}") for k in ("task", "model", "target_positives")))
STEP_BOYD_DOWNSAMPLE = Step("boyd_downsample", when=When.BOYD_DOWNSAMPLING,
    description="One task's downsampling runs: train at 1:k, test on downsampled and original test folds.")
STEP_BOYD_DOWNSAMPLING_REPORT = Step(
    "boyd_downsampling_report", (BOYD_DOWNSAMPLING_TABLE3, BOYD_DOWNSAMPLING_SUMMARY, BOYD_DOWNSAMPLING_VS_PAPER),
    (BOYD_DOWNSAMPLING_LEVELS, BOYD_DOWNSAMPLING_AXIS, BOYD_DOWNSAMPLING_PAPER, BOYD_DOWNSAMPLING_TEXT),
    when=When.BOYD_DOWNSAMPLING, run="prspace.experiments.steps.boyd_steps:downsampling_report_step",
    description="Table 3 per task and learner, summary over tasks, and the tables of the downsampling figure.",
    inputs=_pairs(runs=OverTasks(Selection.DOWNSAMPLING, StudyFile.DOWNSAMPLING_RUNS)), grouped=True,
    settings=_pairs(study="study", criteria=Composed.DOWNSAMPLING_CRITERIA))
STEP_BOYD_FOLD_SKEW = Step("boyd_fold_skew", when=When.BOYD_FOLD_SKEW,
    description="Every fold-skew task's runs, one file per task, in one job: aggregates on skewed vs stratified "
                "test folds.")
STEP_BOYD_FOLD_SKEW_REPORT = Step("boyd_fold_skew_report", (BOYD_FOLD_SKEW_SUMMARY, BOYD_FOLD_SKEW_PER_TASK),
                                  (BOYD_FOLD_SKEW_LINES, BOYD_FOLD_SKEW_TEXT), when=When.BOYD_FOLD_SKEW,
                                  run="prspace.experiments.steps.boyd_steps:fold_skew_report_step",
    description="Bias of each aggregate and ranking changes against dispersion, and the tables of the figure.",
    inputs=_pairs(runs=OverTasks(Selection.FOLD_SKEW, StudyFile.FOLD_SKEW_RUNS)), grouped=True,
    settings=_pairs(study="study", criteria=Composed.FOLD_SKEW_CRITERIA))
STEP_BOYD_FOLD_SKEW_MECHANISM = Step("boyd_fold_skew_mechanism", (BOYD_FOLD_SKEW_MECHANISM,), when=When.BOYD_FOLD_SKEW,
                                     run="prspace.experiments.steps.boyd_steps:fold_skew_mechanism_step",
    description="Section 4.1 on one simulated model (no data): the sign of the averaging bias, worst ranking to "
                "good model.",
    settings=_pairs(n_sim="boyd.evidence.mechanism_n_sim", seed=_SEED))
STEP_BOYD_AGGREGATION = Step(
    "boyd_aggregation", (BOYD_AGGREGATION_TASKS, BOYD_AGGREGATION_LEARNERS, BOYD_AGGREGATION_AGREEMENT,
                         BOYD_AGGREGATION_SKEW_CORRELATION, BOYD_AGGREGATION_SKEW_GROUPS),
    (BOYD_AGGREGATION_POINTS, BOYD_AGGREGATION_TASK_MEANS, BOYD_AGGREGATION_MIN_CURVE, BOYD_AGGREGATION_RANKS,
     BOYD_AGGREGATION_TEXT), when=When.BOYD_AGGREGATION, run="prspace.experiments.steps.boyd_steps:aggregation_step",
    description="Learners' mean AUPR / AUCNPR / AUPRG / AUROC over tasks of different skew, and the tables of the "
                "figure.",
    inputs=_pairs(metrics=METRICS),
    settings=_pairs(learner="boyd.aggregation.learner", skew_groups="boyd.aggregation.skew_groups", study="study"))
STEP_BOYD_EVIDENCE = Step("boyd_evidence", (BOYD_EVIDENCE, BOYD_EVIDENCE_VALUES), when=When.BOYD,
                          evidence=(BOYD_EVIDENCE, BOYD_EVIDENCE_VALUES), run="prspace.experiments.steps.boyd_steps:evidence_step",
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
    settings=_pairs(n_boot="analysis.verdicts.n_boot", seed=_SEED, study="study", source="source",
                    data_dir="local.data_dir", suite="local.suite", learners="local.learners", folds="local.folds",
                    analysis_n_boot="analysis.n_boot", noise_boot="analysis.noise_boot",
                    rank_sets_n_boot="analysis.rank_sets.n_boot", rank_sets_confidence="analysis.rank_sets.confidence"))

#: Every step, in an order of the DAG (each after the steps whose outputs it reads).
STEPS: tuple[Step, ...] = (*_BEFORE_VERDICTS, STEP_VERDICTS, STEP_REPORT_TABLES, STEP_OPENML_REPORT_TABLES, STEP_VERIFY)

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

"""The kinds of declaration of the study registry (:mod:`prspace.core.registry`): its outputs (a result
:class:`Table`, a :class:`FigureData` table, a :class:`Figure`, any other :class:`File`), the report's
categories, and a workflow step with the vocabulary of its rule's wiring (:class:`Step`; its inputs
:class:`StudyFile`, :class:`OverTasks`, :class:`If`, its conditions :class:`When`, its composed
settings :class:`Composed`).

The registry declares with these and re-exports them (``R.Table``, ``R.When``), so that nobody
imports this module but the registry: ``prspace.core.registry`` holds the declarations, this module
what a declaration is and what makes one invalid (a wrong type or combination raises when the
registry is imported, naming the step).  Standard library only, as the registry.
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
    #: in the report, with its caption ``workflow/report/captions/tables/<name>.rst``
    #: (:func:`prspace.study.study_plan.caption_of`)
    report: bool = True

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
    optional: tuple[FigureData | Table, ...] = ()
    #: "analysis": ``analysis.figure_formats``; "boyd": those and always PNG
    formats: str = "analysis"
    category: str = FIGURES_CATEGORY
    section: str | None = None
    #: ``prspace figure NAME`` draws it with this function, ``"module:function"``:
    #: ``fn(data, *, text, labels, optional) -> matplotlib Figure`` (:func:`prspace.figures.study.draw`)
    draw: str = ""
    #: its source table, ``results/<study>/tables/<name>.csv``: the numbers it plots, written by the
    #: figure's rule beside it (:func:`prspace.figures.study.source_table`), if any
    source: Table | None = None

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
    #: the processes its function may use at most (its ``jobs`` keyword): the rule's ``threads``, which
    #: Snakemake caps at ``--cores`` and passes as ``prspace step NAME --jobs {threads}``
    threads: int = 1
    #: the rule written by hand whose jobs run this step in their own process, after their own command
    #: (``predict`` scores its task: one process per task, not two); None: a ``prspace step`` rule of its own
    within: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise self._bad("its name must be a Python identifier (it names a Snakemake rule)", ValueError)
        if self.when is not None and not isinstance(self.when, When):
            raise self._bad(f"when={self.when!r}; give a When (When.BOYD_THEORY) or None")
        self._check_outputs()
        for field, kinds in (("files", StudyFile), ("inputs", (Table, FigureData, StudyFile, OverTasks, If)),
                             ("settings", (str, Composed)), ("resources", int)):
            self._check_pairs(field, kinds)
        if not self.description:
            raise self._bad("has no description (snakemake --list-rules and docs/workflow.md show it)", ValueError)
        self._check_run()

    def _bad(self, problem: str, kind: type[Exception] = TypeError) -> Exception:
        """The error a bad declaration raises, naming the step."""
        return kind(f"step {self.name!r} (prspace.core.registry): {problem}")

    def _check_outputs(self) -> None:
        """``tables``, ``figure_data``, ``figures`` and ``evidence`` are tuples of their kind; the
        evidence is among the tables."""
        for field, kinds in (("tables", Table), ("figure_data", FigureData), ("figures", Figure), ("evidence", Table)):
            items = getattr(self, field)
            if not isinstance(items, tuple) or not all(isinstance(x, kinds) for x in items):
                raise self._bad(f"{field} must be a tuple of {kinds.__name__}")
        if not set(self.evidence) <= set(self.tables):
            raise self._bad("evidence names a table the step does not write", ValueError)

    def _check_pairs(self, field: str, kinds: type | tuple[type, ...]) -> None:
        """``field`` is a tuple of ``(identifier, value of kinds)`` pairs, no name twice."""
        pairs = getattr(self, field)
        if not isinstance(pairs, tuple):
            raise self._bad(f"{field} must be a tuple of (name, value) pairs")
        for pair in pairs:
            if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)
                    and pair[0].isidentifier()):
                raise self._bad(f"{field} holds {pair!r}; each must be a (name, value) pair with an identifier name")
            if not isinstance(pair[1], kinds):
                raise self._bad(f"{field} {pair[0]!r} is {pair[1]!r}, not "
                                + " / ".join(k.__name__ for k in (kinds if isinstance(kinds, tuple) else (kinds,))))
        names = [name for name, _ in pairs]
        if len(set(names)) != len(names):
            raise self._bad(f"{field} repeats a name: {names}", ValueError)

    def _check_run(self) -> None:
        """What only a ``prspace step`` rule takes (a ``run``) and what it may not (figures), and ``within``."""
        if self.run is None:
            extra = [f for f in ("files", "inputs", "settings", "resources", "within") if getattr(self, f)]
            extra += ["threads"] if self.threads != 1 else []
            if extra or self.grouped:
                raise self._bad(f"declares {', '.join(extra) or 'grouped'} but no run: only a `prspace step` rule "
                                "takes them; give run='module:function' or declare its rule by hand", ValueError)
        else:
            if not isinstance(self.run, str) or self.run.count(":") != 1:
                raise self._bad(f"run={self.run!r}; give 'module:function'", ValueError)
            if self.figures:
                raise self._bad("a `prspace step` rule writes tables and figure data; its figures are steps of "
                                "their own (_figure_step)", ValueError)
        if not isinstance(self.threads, int) or isinstance(self.threads, bool) or self.threads < 1:
            raise self._bad(f"threads={self.threads!r}; give a whole number of processes >= 1", ValueError)
        if self.within is not None and (self.run is None or self.resources or self.threads != 1
                                        or not isinstance(self.within, str)):
            raise self._bad(f"within={self.within!r}: only a step with a run and no resources of its own runs "
                            "inside another rule's jobs (give the rule's name)", ValueError)

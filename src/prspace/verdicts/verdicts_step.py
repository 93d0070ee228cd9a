"""Step ``verdicts``: a study's verdict per claim of both papers, its sensitivity tables and its pages.

The registry's step (:data:`prspace.core.registry.STEP_VERDICTS`) reads the evidence tables of every
step that runs in the study (each by its table's name as role: its inputs follow from the steps'
``evidence``) and the report's static intro; its settings come from the configuration by the route of
every step (``Step.settings``: ``analysis.verdicts.n_boot`` as ``verdicts_n_boot``, the study's seed, and the
parameters the findings page lists, each named as its key: :func:`prspace.core.registry.setting_name`), each with
its one default in ``workflow/schemas/config.schema.yaml``. It
collects the evidence (:func:`prspace.verdicts.study_evidence.collect_evidence`), applies the one rule
(:mod:`prspace.verdicts.rule`), and returns ``verdicts.csv`` and ``.md``, ``sensitivity`` and
``margin_sensitivity`` (:mod:`prspace.verdicts.sensitivity`), ``summary.md`` (the answer first, quoted by
the README), ``findings.md`` and the report's front page, which :func:`prspace.core.steps.write_step`
writes like every step's.

It lives in ``verdicts/`` rather than ``experiments/steps/`` for the reason the steps of rules
``controlled_skew`` (:mod:`prspace.verdicts.controlled_skew_step`) and ``completeness`` (:mod:`prspace.verdicts.completeness_step`)
do: it calls the one decision rule, and the layers (docs/architecture.md) put ``experiments`` below
``verdicts``, so no module of ``experiments`` may import it.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import NotRequired, TypedDict

import pandas as pd

from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.core.output import to_csv_text
from prspace.core.processes import Beside
from prspace.core.steps import StepOutput, TableOut
from prspace.experiments import ranking
from prspace.stats.nested import procedure as NP
from prspace.verdicts import report, study_evidence
from prspace.verdicts.sensitivity import (
    ONE_PER_FAMILY,
    margin_sensitivity_table,
    sensitivity_frame,
    sensitivity_variants_of,
    variant_rows,
)

__all__ = ["INTRO", "VerdictsInputs", "verdicts_step"]

#: the role of the report's static intro (``workflow/report/workflow.rst``), the front page's first part
INTRO = "report_intro"

#: The inputs of step ``verdicts``: one path per role of the registry's step, each optional (a table of a
#: step the study does not run has no file): every evidence table by its name, and :data:`INTRO`.
VerdictsInputs = TypedDict("VerdictsInputs", {role: NotRequired[Path] for role, _ in R.STEP_VERDICTS.inputs})

#: the tables without which there is no verdict: Flach & Kull's primary rows (step ``rank``)
_REQUIRED = (R.DISAGREEMENT_SUMMARY, R.DISAGREEMENT_PER_TASK)


def _as_written(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` as a reader of its CSV sees it (six significant digits: :func:`prspace.core.output.to_csv_text`),
    so that the pages say what the tables say."""
    return pd.read_csv(io.StringIO(to_csv_text(frame)), keep_default_na=False, na_values=[""])


def _one_per_family(metrics_csv: Path | None, per_task: pd.DataFrame) -> tuple[pd.DataFrame | None, str]:
    """The per-task disagreement of the study's models ranked with one model per learner method
    (from ``metrics.csv``, ranked by the metrics ``per_task`` compares, in its order, so that
    saturated tasks are told as the rank step tells them), and the sentence that says what it kept;
    ``(None, why not)`` when every learner is its own family or the table is absent."""
    if metrics_csv is None:
        return None, f"No {R.METRICS.name}.csv: no '{ONE_PER_FAMILY}' variant."
    metrics = pd.read_csv(metrics_csv, dtype={"task_id": str, "model_id": str})
    fams = ranking.learner_families(metrics)
    if fams.nunique() == len(fams):
        return None, f"Every learner is its own method: no '{ONE_PER_FAMILY}' variant."
    names = list(dict.fromkeys([*per_task["metric_a"], *per_task["metric_b"]]))
    per = ranking.one_per_family_disagreements(metrics, fams, names)
    n_all, n_one = metrics["model_id"].nunique(), fams.nunique()
    return per, (f"'{ONE_PER_FAMILY}': the {n_one} models left when each of the {fams.nunique()} learner methods "
                 f"(hyperparameter variants of one method) keeps the model whose id sorts first, of {n_all}.")


def run_parameters(*, study: str, source: str | None, seed: int, suite: str | None, learners: str | None,
                   folds: int | None, n_boot: int | None, noise_boot: int | None, verdicts_n_boot: int,
                   rank_sets_n_boot: int | None, rank_sets_confidence: float | None) -> dict[str, object]:
    """The parameters the findings page lists, in its order, each by its configuration key without its section
    (``analysis.verdicts.n_boot`` as ``verdicts.n_boot``; the learner panel only for a local study)."""
    out: dict[str, object] = {"study": study, "source": source, "seed": seed}
    if source == "local":
        out.update({"suite": suite, "learners": learners, "folds": folds})
    out.update({"n_boot": n_boot, "noise_boot": noise_boot, "verdicts.n_boot": verdicts_n_boot,
                "rank_sets.n_boot": rank_sets_n_boot, "rank_sets.confidence": rank_sets_confidence})
    return {k: v for k, v in out.items() if v is not None}


def verdicts_step(inputs: VerdictsInputs, *, verdicts_n_boot: int, seed: int, study: str, source: str | None = None,
                  data_dir: str | None = None, suite: str | None = None, learners: str | None = None,
                  folds: int | None = None, n_boot: int | None = None, noise_boot: int | None = None,
                  rank_sets_n_boot: int | None = None, rank_sets_confidence: float | None = None,
                  verdicts_procedure_studies: int | None = None, verdicts_procedure_boot: int | None = None,
                  verdicts_procedure_outer: int | None = None, verdicts_procedure_inner: int | None = None,
                  jobs: int = 1) -> StepOutput:
    """Step ``verdicts``: the verdict table from every evidence table given (``verdicts_n_boot`` resamples of
    families behind the primary rows, seeded by ``seed``), the sensitivity tables from the same
    bootstraps, and the pages of study ``study`` (``data_dir`` set: a study of the user's own files; the
    other settings are the run's parameters the findings page lists). Each setting is named as its
    configuration key (:func:`prspace.core.registry.setting_name`: ``analysis.verdicts.n_boot`` is
    ``verdicts_n_boot``, ``analysis.n_boot`` is ``n_boot``). ``jobs`` > 1: the sensitivity
    variants are computed in up to ``jobs - 1`` spawned processes while this one collects the evidence;
    each variant seeds its own draws, so every table is the same bytes whatever ``jobs``. ``verdicts_procedure_*``:
    the nested simulation that counts the coverage of the procedure each primary row runs (simulated studies, their
    resamples, outer and inner resamples of their own level correction: :class:`prspace.stats.nested.procedure.Settings`);
    not counted unless all four are given."""
    paths = {role: Path(p) for role, p in inputs.items() if role != INTRO}
    for table in _REQUIRED:
        if table.name not in paths:
            raise InputError(f"step verdicts needs --in {table.name}=PATH (the study's {table.name}.csv); "
                             "run the study's rank step first")

    def read(table: R.Table, **kw: object) -> pd.DataFrame | None:
        return pd.read_csv(paths[table.name], **kw) if table.name in paths else None

    tasks = read(R.TASKS, dtype={"task_id": str})
    winners = read(R.LEARNER_WINNERS)
    per_task = read(R.DISAGREEMENT_PER_TASK, dtype={"task_id": str})
    one, panel = _one_per_family(paths.get(R.METRICS.name), per_task)
    variants = sensitivity_variants_of(per_task, tasks, per_task_one_per_family=one,
                                       noise_pairs=read(R.NOISE_FLOOR_PAIRS, dtype={"task_id": str}))
    kept: dict = {}
    counts = (verdicts_procedure_studies, verdicts_procedure_boot, verdicts_procedure_outer, verdicts_procedure_inner)
    proc = NP.Settings(*counts) if all(c is not None for c in counts) else None  # type: ignore[arg-type]
    with Beside(min(jobs - 1, len(variants))) as beside:
        # the sensitivity variants in other processes (when jobs > 1) while this one collects the evidence
        parts = [beside.submit(variant_rows, var, tasks, n_boot=verdicts_n_boot, seed=seed) for var in variants]
        try:
            v = study_evidence.verdict_table(study_evidence.collect_evidence(paths, n_boot=verdicts_n_boot, seed=seed,
                                                                             keep=kept, procedure=proc))
        except ValueError as exc:
            raise InputError(str(exc)) from None
        sens = sensitivity_frame([part() for part in parts])
    margins = margin_sensitivity_table(kept, n_boot=verdicts_n_boot, seed=seed)
    # the pages read the tables as written, as a reader and the tests do
    shown = _as_written(v)
    pages = {"tables_dir": paths, "own_data": True if data_dir else None, "sensitivity": _as_written(sens)}
    params = run_parameters(study=study, source=source, seed=seed, suite=suite, learners=learners, folds=folds,
                            n_boot=n_boot, noise_boot=noise_boot, verdicts_n_boot=verdicts_n_boot,
                            rank_sets_n_boot=rank_sets_n_boot, rank_sets_confidence=rank_sets_confidence)
    intro = Path(inputs[INTRO]).read_text() if INTRO in inputs else ""
    files: dict[str, pd.DataFrame | dict[str, pd.DataFrame] | str] = {
        "summary": report.summary_markdown(shown, study=study, tasks=tasks, **pages),
        "findings": report.findings_markdown(shown, study=study, tasks=tasks, params=params, winners=winners, **pages),
        "front": report.summary_rst(shown, study=study, tasks=tasks, intro=intro, **pages),
    }
    return StepOutput(tables=[
        TableOut(R.VERDICTS, v, markdown=report.verdicts_markdown(shown, study=study)),
        TableOut(R.SENSITIVITY, sens,
                 title="Sensitivity of Flach & Kull's primary rows: saturated tasks, learner panel, balance levels",
                 note=(f"Each variant recomputes the primary rows on its tasks with the same paired bootstrap over families "
                       f"({verdicts_n_boot} resamples, seed {seed}, Holm over Flach & Kull's claims within the variant) and decides "
                       f"them by the one rule (docs/verdicts.md). {panel}")),
        TableOut(R.MARGIN_SENSITIVITY, margins, title="Each primary claim's verdict at its margin and at half and twice it",
                 note=("The same bootstraps as verdicts.csv; Holm over each paper's primary claims recomputed at each margin "
                       "(each margin on its claim's own scale: docs/verdicts.md; when they were set: "
                       "docs/analysis-plan.md).")),
    ], files=files)

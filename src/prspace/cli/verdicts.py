"""``prspace verdicts``: a study's verdict table, summary and findings page, from its tables.

Reads the study's evidence (:func:`prspace.verdicts.report.collect_evidence`), applies the one rule
(:mod:`prspace.verdicts.rule`) and writes ``tables/verdicts.csv`` and ``.md``, ``summary.md`` (the
answer first, quoted by the README) and ``findings.md``; and ``tables/sensitivity.csv`` and ``.md``
(:func:`prspace.verdicts.sensitivity.sensitivity_table`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd
import yaml

from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.core.output import write_csv, write_table, write_text
from prspace.experiments import ranking
from prspace.experiments.steps.rank_step import learner_families
from prspace.verdicts import report
from prspace.verdicts.primary import DEFAULT_N_BOOT
from prspace.verdicts.sensitivity import ONE_PER_FAMILY, margin_sensitivity_table, sensitivity_table


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("verdicts", help="the study's verdict per claim of both papers, from its tables")
    p.add_argument("--tables-dir", required=True, help="the study's tables folder (results/<study>/tables)")
    p.add_argument("--study", required=True, help="the study's name, for the headings")
    p.add_argument("--out-dir", required=True, help="where summary.md and findings.md go (results/<study>)")
    p.add_argument("--config", help="the configuration the run recorded (work/<study>/config.yaml), quoted on the findings page")
    p.add_argument("--n-boot", type=int, default=None,
                   help="resamples of the paired bootstrap over families behind Flach & Kull's primary rows "
                        "(config analysis.verdicts.n_boot; default: prspace.verdicts.primary.DEFAULT_N_BOOT)")
    p.add_argument("--seed", type=int, default=0, help="seed of that bootstrap (the study's seed)")
    p.add_argument("--report-rst", help="also write the report's front page: --report-intro, then the answer first")
    p.add_argument("--report-intro", help="the static description the front page starts with (workflow/report/workflow.rst)")
    p.set_defaults(func=run)


def _params(path: str | None) -> dict[str, object]:
    if not path:
        return {}
    p = Path(path)
    if not p.is_file():
        raise InputError(f"--config {path}: no such file; run the study first (snakemake writes it)")
    cfg = yaml.safe_load(p.read_text()) or {}
    a = cfg.get("analysis", {})
    local = cfg.get("local", {})
    out = {"study": cfg.get("study"), "source": cfg.get("source"), "seed": cfg.get("seed")}
    if cfg.get("source") == "local":
        out.update({"suite": local.get("suite"), "learners": local.get("learners"), "folds": local.get("folds")})
    out.update({k: a[k] for k in ("n_boot", "noise_boot") if k in a})
    if "n_boot" in (a.get("verdicts") or {}):
        out["verdicts.n_boot"] = a["verdicts"]["n_boot"]
    rs = a.get("rank_sets") or {}
    out.update({f"rank_sets.{k}": rs[k] for k in ("n_boot", "confidence") if k in rs})
    return {k: v for k, v in out.items() if v is not None}


def _own_data(path: str | None) -> bool | None:
    """True for a study of the user's files (``local.data_dir``); None lets the pages decide by
    the study's name and tasks (:class:`prspace.verdicts.pagedata.Study`)."""
    if not path or not Path(path).is_file():
        return None
    cfg = yaml.safe_load(Path(path).read_text()) or {}
    return True if (cfg.get("local") or {}).get("data_dir") else None


def _one_per_family(tables: Path, per_task: pd.DataFrame) -> tuple[pd.DataFrame | None, str]:
    """The per-task disagreement of the study's models ranked with one model per learner family
    (from ``metrics.csv``, ranked by the metrics ``per_task`` compares, in its order, so that
    saturated tasks are told as the rank step tells them), and the sentence that says what it kept; ``(None, why not)`` when every
    learner is its own family or the table is absent."""

    if not R.METRICS.csv(tables).is_file():
        return None, f"No {R.METRICS.csv(tables).name}: no '{ONE_PER_FAMILY}' variant."
    metrics = pd.read_csv(R.METRICS.csv(tables), dtype={"task_id": str, "model_id": str})
    fams = learner_families(metrics)
    if fams.nunique() == len(fams):
        return None, f"Every learner is its own family: no '{ONE_PER_FAMILY}' variant."
    names = list(dict.fromkeys([*per_task["metric_a"], *per_task["metric_b"]]))
    per = ranking.one_per_family_disagreements(metrics, fams, names)
    n_all, n_one = metrics["model_id"].nunique(), fams.nunique()
    return per, (f"'{ONE_PER_FAMILY}': the {n_one} models left when each of the {fams.nunique()} learner families "
                 f"(hyperparameter variants of one method) keeps the model whose id sorts first, of {n_all}.")


def run(args: argparse.Namespace) -> int:

    tables = Path(args.tables_dir)
    for table in (R.DISAGREEMENT_SUMMARY, R.DISAGREEMENT_PER_TASK):
        if not table.csv(tables).is_file():
            raise InputError(f"{tables} has no {table.csv(tables).name}; run the study's rank step first")
    n_boot = DEFAULT_N_BOOT if args.n_boot is None else args.n_boot
    if n_boot < 100:
        raise InputError(f"--n-boot {n_boot}: give at least 100 resamples (the default {DEFAULT_N_BOOT} keeps the "
                         "Monte Carlo error of every primary interval end near 0.002 or below)")
    try:
        kept: dict = {}
        v = report.verdict_table(report.collect_evidence(tables, n_boot=n_boot, seed=args.seed, keep=kept))
    except ValueError as exc:
        raise InputError(str(exc)) from None
    tasks_csv, winners_csv = R.TASKS.csv(tables), R.LEARNER_WINNERS.csv(tables)
    tasks = pd.read_csv(tasks_csv, dtype={"task_id": str}) if tasks_csv.is_file() else None
    winners = pd.read_csv(winners_csv) if winners_csv.is_file() else None
    out = Path(args.out_dir)
    write_csv(v, R.VERDICTS.csv(tables))
    # the pages read the table as written (six significant digits), as a reader and the tests do
    v = pd.read_csv(R.VERDICTS.csv(tables), keep_default_na=False, na_values=[""])
    per_task = pd.read_csv(R.DISAGREEMENT_PER_TASK.csv(tables), dtype={"task_id": str})
    one, panel = _one_per_family(tables, per_task)
    noise_csv = R.NOISE_FLOOR_PAIRS.csv(tables)
    noise = pd.read_csv(noise_csv, dtype={"task_id": str}) if noise_csv.is_file() else None
    sens = sensitivity_table(per_task, tasks, n_boot=n_boot, seed=args.seed, per_task_one_per_family=one,
                             noise_pairs=noise)
    write_table(sens, *R.SENSITIVITY.files(tables),
                title="Sensitivity of Flach & Kull's primary rows: saturated tasks, learner panel, balance levels",
                note=(f"Each variant recomputes the primary rows on its tasks with the same paired bootstrap over families "
                      f"({n_boot} resamples, seed {args.seed}, Holm over Flach & Kull's claims within the variant) and decides "
                      f"them by the one rule (docs/verdicts.md). {panel}"))
    write_table(margin_sensitivity_table(kept, n_boot=n_boot, seed=args.seed), *R.MARGIN_SENSITIVITY.files(tables),
                title="Each primary claim's verdict at its margin and at half and twice it",
                note=("The same bootstraps as verdicts.csv; Holm over each paper's primary claims recomputed at each margin "
                      "(each margin on its claim's own scale: docs/verdicts.md; when they were set: "
                      "docs/analysis-plan.md)."))
    write_text(report.verdicts_markdown(v, study=args.study), R.VERDICTS.markdown(tables))
    pages = {"tables_dir": tables, "own_data": _own_data(args.config)}
    write_text(report.summary_markdown(v, study=args.study, tasks=tasks, **pages), R.SUMMARY.path(out))
    write_text(report.findings_markdown(v, study=args.study, tasks=tasks, params=_params(args.config), winners=winners,
                                        **pages), R.FINDINGS.path(out))
    if args.report_rst:
        intro = Path(args.report_intro).read_text() if args.report_intro else ""
        write_text(report.summary_rst(v, study=args.study, tasks=tasks, intro=intro, **pages), args.report_rst)
    return 0

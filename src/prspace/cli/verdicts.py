"""``prspace verdicts``: a study's verdict table, summary and findings page, from its tables.

Reads the study's evidence (:func:`prspace.verdicts.report.collect_evidence`), applies the one rule
(:mod:`prspace.verdicts.rule`) and writes ``tables/verdicts.csv`` and ``.md``, ``summary.md`` (the
answer first, quoted by the README) and ``findings.md``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd
import yaml

from prspace.errors import InputError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("verdicts", help="the study's verdict per claim of both papers, from its tables")
    p.add_argument("--tables-dir", required=True, help="the study's tables folder (results/<study>/tables)")
    p.add_argument("--study", required=True, help="the study's name, for the headings")
    p.add_argument("--out-dir", required=True, help="where summary.md and findings.md go (results/<study>)")
    p.add_argument("--config", help="the configuration the run recorded (work/<study>/config.yaml), quoted on the findings page")
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


def run(args: argparse.Namespace) -> int:
    from prspace.output import write_csv, write_text
    from prspace.verdicts import report

    tables = Path(args.tables_dir)
    if not (tables / "disagreement_summary.csv").is_file():
        raise InputError(f"{tables} has no disagreement_summary.csv; run the study's rank step first")
    v = report.verdict_table(report.collect_evidence(tables))
    tasks = pd.read_csv(tables / "tasks.csv", dtype={"task_id": str}) if (tables / "tasks.csv").is_file() else None
    winners = pd.read_csv(tables / "learner_winners.csv") if (tables / "learner_winners.csv").is_file() else None
    out = Path(args.out_dir)
    write_csv(v, tables / "verdicts.csv")
    write_text(report.verdicts_markdown(v, study=args.study), tables / "verdicts.md")
    pages = {"tables_dir": tables, "own_data": _own_data(args.config)}
    write_text(report.summary_markdown(v, study=args.study, tasks=tasks, **pages), out / "summary.md")
    write_text(report.findings_markdown(v, study=args.study, tasks=tasks, params=_params(args.config), winners=winners,
                                        **pages), out / "findings.md")
    if args.report_rst:
        intro = Path(args.report_intro).read_text() if args.report_intro else ""
        write_text(report.summary_rst(v, study=args.study, tasks=tasks, intro=intro, **pages), args.report_rst)
    return 0

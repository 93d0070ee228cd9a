"""``prspace verdicts``: step ``verdicts`` on a study's tables folder, for a reader outside the workflow.

The workflow runs the step as every other (``prspace step verdicts --in ROLE=PATH ... --set
verdicts_n_boot=...``: rule ``verdicts`` of ``workflow/rules/steps.smk``); this command is a thin caller of the same
step (:func:`prspace.verdicts.verdicts_step.verdicts_step`, written by :func:`prspace.cli.step.run_step`)
that finds its inputs in ``--tables-dir`` (each role is a table's name) and takes its settings from the
configuration a run recorded (``--config work/<study>/config.yaml``, by the step's own keys,
``prspace.core.registry.STEP_VERDICTS.settings``), ``--n-boot`` and ``--seed`` overriding them. It has no
default of its own: without ``--config``, give ``--n-boot`` (the schema's default of
``analysis.verdicts.n_boot`` is the study's).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import yaml

from prspace.cli._options import processes
from prspace.cli.step import run_step
from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.study.step_rules import config_value
from prspace.verdicts.verdicts_step import INTRO

#: The step's setting that ``--n-boot`` sets: configuration key ``analysis.verdicts.n_boot``.
N_BOOT_SETTING = R.setting_name("analysis.verdicts.n_boot")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("verdicts", help="the study's verdict per claim of both papers, from its tables "
                                               "(step verdicts on a tables folder)")
    p.add_argument("--tables-dir", required=True, help="the study's tables folder (results/<study>/tables)")
    p.add_argument("--study", required=True, help="the study's name, for the headings")
    p.add_argument("--out-dir", required=True, help="where summary.md and findings.md go (results/<study>)")
    p.add_argument("--config", help="the configuration the run recorded (work/<study>/config.yaml): the step's "
                                    "settings, and the parameters the findings page lists")
    p.add_argument("--n-boot", type=int, default=None,
                   help="resamples of the paired bootstrap over families behind the primary rows (instead of the "
                        "recorded analysis.verdicts.n_boot)")
    p.add_argument("--seed", type=int, default=None, help="seed of that bootstrap (instead of the recorded seed)")
    p.add_argument("--report-rst", help="where the report's front page goes (default: none written)")
    p.add_argument("--report-intro", help="the static description the front page starts with (workflow/report/workflow.rst)")
    p.add_argument("--jobs", type=processes, default=1, metavar="N",
                   help="processes (default 1): the sensitivity variants beside the evidence; the same bytes whatever N")
    p.set_defaults(func=run)


def _recorded(path: str | None) -> dict[str, object]:
    """The step's settings from the recorded configuration, by its own keys (those it lacks left out)."""
    if not path:
        return {}
    p = Path(path)
    if not p.is_file():
        raise InputError(f"--config {path}: no such file; run the study first (snakemake writes it)")
    cfg = yaml.safe_load(p.read_text()) or {}
    out = {}
    for key, spec in R.STEP_VERDICTS.settings:
        try:
            out[key] = config_value(cfg, spec)
        except KeyError:
            continue
    return out


def run(args: argparse.Namespace) -> int:
    tables = Path(args.tables_dir)
    # every table of the step's inputs that the folder holds (a step the study did not run left none)
    inputs: dict[str, Path | list[Path]] = {role: _table(spec).csv(tables) for role, spec in R.STEP_VERDICTS.inputs
                                           if not isinstance(spec, R.StudyFile) and _table(spec).csv(tables).is_file()}
    if args.report_intro:
        inputs[INTRO] = Path(args.report_intro)
    settings = {**_recorded(args.config), "study": args.study}
    # the flags by the settings they set: --n-boot is analysis.verdicts.n_boot (the step's verdicts_n_boot)
    flags = {"--n-boot": (N_BOOT_SETTING, args.n_boot), "--seed": ("seed", args.seed)}
    settings.update({k: v for k, v in flags.values() if v is not None})
    missing = [flag for flag, (k, _) in flags.items() if k not in settings]
    if missing:
        raise InputError(f"give {' and '.join(missing)}, or --config work/<study>/config.yaml (the run's "
                         "analysis.verdicts.n_boot and seed)")
    out = Path(args.out_dir)
    with tempfile.TemporaryDirectory() as scratch:  # the front page, when not asked for, is not kept
        front = args.report_rst or str(R.FRONT_PAGE.path(scratch))
        run_step(R.STEP_VERDICTS.name, inputs, settings, tables_dir=str(tables),
                 outputs={"summary": str(R.SUMMARY.path(out)), "findings": str(R.FINDINGS.path(out)), "front": front},
                 jobs=args.jobs)
    return 0


def _table(spec: R.Input) -> R.Table:
    return spec.spec if isinstance(spec, R.If) else spec

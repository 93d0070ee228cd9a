"""A study's effective configuration, recorded by its run and reused by its report.

``snakemake --report`` reads the Snakefile again, with ``config.yaml`` unless told
otherwise; a study run with ``--config``/``--configfile`` would then be reported as the
default study (or fail: "marked for report but does not exist").  So every run records
the configuration it ran with (defaults filled in) in ``work/<study>/config.yaml``
(:func:`record_config`, from the Snakefile's ``onstart``), and
``snakemake --report results/<study>/report.html`` uses it (:func:`report_request`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import yaml

from prspace._io import atomic_path
from prspace.errors import InputError

__all__ = ["recorded_config_path", "record_config", "report_request"]


def recorded_config_path(study: str, *, workdir: str | os.PathLike[str] = ".") -> Path:
    return Path(workdir) / "work" / study / "config.yaml"


def record_config(config: Mapping[str, object], *, workdir: str | os.PathLike[str] = ".") -> Path:
    """Write the effective configuration of a run to ``work/<study>/config.yaml``."""
    plain = json.loads(json.dumps(config, default=str))
    path = recorded_config_path(str(plain["study"]), workdir=workdir)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = (
        f"# The configuration study {plain['study']!r} last ran with (written by the workflow).\n"
        f"# Report: snakemake --report results/{plain['study']}/report.html\n"
        + yaml.safe_dump(plain, sort_keys=False)
    )
    with atomic_path(path) as tmp:
        Path(tmp).write_text(text)
    return path


def _report_target(argv: Sequence[str]) -> str | None:
    for i, a in enumerate(argv):
        if a == "--report":
            nxt = argv[i + 1] if i + 1 < len(argv) else ""
            return nxt if nxt and not nxt.startswith("-") else "report.html"
        if a.startswith("--report="):
            return a.split("=", 1)[1]
    return None


def _ran_studies(workdir: Path) -> list[str]:
    return sorted(p.parent.name for p in (workdir / "work").glob("*/config.yaml"))


def report_request(
    argv: Sequence[str],
    config: Mapping[str, object],
    *,
    config_given: bool,
    workdir: str | os.PathLike[str] = ".",
) -> dict | None:
    """For ``snakemake --report results/<study>/...``: the configuration to report with.

    Returns the recorded configuration of ``<study>`` when the command line gave none and
    ``<study>`` is not the configured study; ``None`` when the configuration at hand is the
    right one (or this is not a report).  Raises :class:`InputError` saying exactly what to
    repeat when the report cannot be made from what is here.
    """
    target = _report_target(argv)
    if target is None:
        return None
    wd = Path(workdir)
    study = str(config.get("study"))
    m = re.search(r"(?:^|/)results/([^/]+)/[^/]+$", target.replace(os.sep, "/"))
    named = m.group(1) if m else None
    ran = _ran_studies(wd)
    if named is not None and named != study:
        recorded = recorded_config_path(named, workdir=wd)
        if recorded.exists() and not config_given:
            return yaml.safe_load(recorded.read_text())
        if recorded.exists():
            raise InputError(
                f"the report path names study {named!r} but the configuration given is study {study!r}; "
                f"repeat that study's configuration: snakemake --configfile {recorded.relative_to(wd)} "
                f"--report {target}"
            )
        raise InputError(
            f"study {named!r} has not run in {wd.resolve()} (no {recorded.relative_to(wd)}); "
            "run it first, or report a study that ran here: "
            + (", ".join(f"results/{s}/report.html" for s in ran) or "(none yet)")
        )
    if not (wd / "work" / study / "report").is_dir():
        hint = (
            "; studies that ran here: " + ", ".join(f"snakemake --report results/{s}/report.html" for s in ran)
            if ran else ""
        )
        raise InputError(
            f"study {study!r} has not finished a run in {wd.resolve()} (no work/{study}/report/); "
            f"run it first with the same --config/--configfile{hint}"
        )
    return None

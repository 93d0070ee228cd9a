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

from prspace.core._io import atomic_path
from prspace.core.errors import InputError

__all__ = [
    "check_config",
    "coerce_config",
    "config_given",
    "config_problems",
    "prepare_config",
    "quote_hint",
    "recorded_config_path",
    "record_config",
    "report_request",
    "schema_defaults",
]

#: The workflow's schemas (``workflow/schemas`` of the repository this package is in, as
#: :data:`prspace.study.study_plan.WORKFLOW_ROOT`): each setting's one default.
SCHEMAS = Path(__file__).resolve().parents[3] / "workflow" / "schemas"


def coerce_config(value: object, schema: object) -> object:
    """``value`` with the strings the schema types as integer, number, boolean or null
    converted.  Snakemake reads nested ``--config`` values (``key={...}``) as strings;
    anything else is left for validation to judge."""
    if not isinstance(schema, Mapping):
        return value
    types = schema.get("type", [])
    types = [types] if isinstance(types, str) else types
    if isinstance(value, Mapping) and "properties" in schema:
        return {k: coerce_config(v, schema["properties"].get(k, {})) for k, v in value.items()}
    if isinstance(value, list) and "items" in schema:
        return [coerce_config(v, schema["items"]) for v in value]
    if isinstance(value, str):
        v = value.strip()
        if "null" in types and v in ("null", "None", "~"):
            return None
        if "boolean" in types and v.lower() in ("true", "false"):
            return v.lower() == "true"
        if "integer" in types and re.fullmatch(r"[+-]?\d+", v):
            return int(v)
        if "number" in types:
            try:
                return float(v)
            except ValueError:
                pass
    return value


def quote_hint(key: str, value: object) -> str:
    """The line for a text value (a label, a column or folder name) that YAML read as a boolean
    or a number: ``pos_label: yes`` is the boolean True, ``pos_label: 1.50`` the number 1.5."""
    leaf = key.rsplit(".", 1)[-1]
    if isinstance(value, bool):
        spelled = "yes" if value else "no"
        return (
            f"config key {key}: YAML reads an unquoted yes, no, on, off, true or false as a boolean "
            f"(here {value}), not as text; quote it: {leaf}: \"{spelled}\" (the value as your file writes it)"
        )
    return (
        f"config key {key}: YAML read {value!r} as a {type(value).__name__}, not as text; quote it "
        f"as your file writes it: {leaf}: \"{value}\""
    )


def _type_error_line(error: object) -> str | None:
    """A schema type error on a text key whose value is a boolean or a number: :func:`quote_hint`."""
    if getattr(error, "validator", "") != "type":
        return None
    expected = getattr(error, "validator_value", None)
    expected = [expected] if isinstance(expected, str) else list(expected or [])
    value = getattr(error, "instance", None)
    if "string" in expected and isinstance(value, (bool, int, float)):
        key = ".".join(map(str, getattr(error, "path", []))) or "(top level)"
        return quote_hint(key, value)
    return None


def config_problems(config: Mapping[str, object], schema: Mapping[str, object]) -> list[str]:
    """Every violation of the JSON schema by ``config``, one ``config key a.b: message`` line
    each, sorted by key (empty when valid).  A boolean or a number where the schema wants
    text (``pos_label: yes``) gets the line of :func:`quote_hint`."""
    from jsonschema import Draft202012Validator  # a dependency of snakemake

    errors = sorted(Draft202012Validator(schema).iter_errors(config), key=lambda e: list(map(str, e.path)))
    return [
        _type_error_line(e) or f"config key {'.'.join(map(str, e.path)) or '(top level)'}: {e.message}"
        for e in errors
    ]


def prepare_config(
    config: dict, schema_file: str | os.PathLike[str], *, section: str | None = None
) -> None:
    """Coerce ``config`` in place (:func:`coerce_config`) and check it against ``schema_file``.

    Raises :class:`InputError` naming every offending key and the fix.  The workflow then
    lets Snakemake's ``validate`` fill in the schema's defaults.
    """
    schema = yaml.safe_load(Path(schema_file).read_text())
    config.update(coerce_config(dict(config), schema))
    lines = config_problems(config, schema)
    if lines:
        label = f"config section {section!r}" if section else "the configuration"
        raise InputError(
            f"{label} does not match {schema_file}:\n"
            + "\n".join(f"  {line}" for line in lines)
            + "\nFix the key(s) named above in your config file or --config overrides; "
            "docs/workflow.md lists every key."
        )


def check_config(config: dict, schemas: str | os.PathLike[str]) -> None:
    """The configuration as every job sees it, in place: :func:`prepare_config` names each
    violation in one line, then Snakemake's ``validate`` fills in the schema's defaults; the
    ``boyd`` section the same way against its own schema.  ``schemas`` is ``workflow/schemas``."""
    from snakemake.utils import validate  # only the workflow checks a whole configuration

    schemas = Path(schemas)
    prepare_config(config, schemas / "config.schema.yaml")
    validate(config, str(schemas / "config.schema.yaml"))
    prepare_config(config["boyd"], schemas / "boyd.schema.yaml", section="boyd")
    validate(config["boyd"], str(schemas / "boyd.schema.yaml"))


def schema_defaults(name: str, section: str, *, schemas: str | os.PathLike[str] = SCHEMAS) -> dict[str, object]:
    """The default of every key of ``section`` (dotted: ``downsampling``, ``analysis.verdicts``) of
    ``workflow/schemas/<name>.schema.yaml`` that has one, key -> default: for a command whose options are
    the section's settings, so that each default has one home, the schema (``prspace boyd``)."""
    node = yaml.safe_load((Path(schemas) / f"{name}.schema.yaml").read_text())
    for part in section.split("."):
        node = node["properties"][part]
    return {key: spec["default"] for key, spec in node["properties"].items() if "default" in spec}


def config_given(argv: Sequence[str]) -> bool:
    """Whether a Snakemake command line sets the configuration (``--config``, ``--configfile``)."""
    return any(a.split("=", 1)[0] in ("--config", "-C", "--configfile", "--configfiles") for a in argv)


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

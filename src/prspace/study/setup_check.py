"""The workflow's setup, checked before any job runs (called when the Snakefile loads).

The JSON schema (``workflow/schemas/config.schema.yaml``) checks the *shape* of the
configuration; this module checks its *meaning* against the machine: the data folder
exists and holds usable files with the class column, ``pos_label`` is a class of those
files, the suite, the learners and the chosen datasets exist.  Every problem is one line
naming the config key, what is wrong and the fix; :func:`check_setup` returns them all
at once, so one edit of the config fixes one run.

Your own files are read whole, as the predictions step will read them
(:func:`prspace.data.userdata.screen_file`), so that what would otherwise fail inside the
workflow is said here, before any job: a file that could be read in more than one way (a
column named twice, the header row repeated among the data) stops the study; a file that
cannot be used (not two classes, too few minority rows) is excluded from the study with
its reason, and if no file of the study is usable the study stops.  The Snakefile is read
again by every cluster job: those pass ``read_files=False`` and only headers are read.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import NoReturn

from prspace.core.errors import InputError
from prspace.core.panels import parse_learners
from prspace.data.datasets import DEFAULT_MIN_MINORITY, SUITES, suite_names
from prspace.data.userdata import (
    USER_SUFFIXES,
    FileDefect,
    file_columns,
    missing_target_message,
    read_user_file,
    screen_file,
    task_id_of,
    user_files,
)
from prspace.study.study_config import quote_hint


def stop_run(message: str) -> NoReturn:
    """End a Snakemake run from an input function with prspace's one line and exit status 2 (an
    exception raised there reaches the console with a traceback; SystemExit ends the run cleanly,
    Snakemake removing its locks)."""
    print(f"prspace: error: {message}", file=sys.stderr, flush=True)
    raise SystemExit(2)

__all__ = ["check_setup", "data_files", "stop_run"]


def data_files(local: Mapping[str, object]) -> dict[str, Path]:
    """Task id -> file of ``local.data_dir`` ({} without a data folder or if it is unreadable)."""
    if not local.get("data_dir"):
        return {}
    try:
        return user_files(str(local["data_dir"]))
    except InputError:
        return {}


def _class_values(path: Path, target: str) -> set[str] | None:
    """The values of the class column as text (None if the file cannot be read)."""
    try:
        df = read_user_file(path, target=target)
    except InputError:
        return None
    if target not in df.columns:
        return None
    return set(df[target].dropna().astype(str))


def _pos_label_problem(paths: list[Path], target: str, pos_label: object) -> str:
    """A problem line if ``pos_label`` is a value of ``target`` in no file ("" otherwise)."""
    values = [v for v in (_class_values(p, target) for p in paths) if v is not None]
    if not values or any(str(pos_label) in v for v in values):
        return ""
    seen = sorted(set().union(*values))
    quote = "" if isinstance(pos_label, str) else f' (YAML read it as the number {pos_label!r}: quote it as the file writes it, e.g. pos_label: "{seen[0]}")'
    return (
        f"config key local.pos_label: {str(pos_label)!r} is not a value of column "
        f"{target!r} in any file (values: {', '.join(seen[:10])}"
        f"{', ...' if len(seen) > 10 else ''}){quote}; set it to one of them or to null "
        "(the minority class)"
    )


def _label_type_problem(key: str, value: object) -> str | None:
    """A label, column or folder name that YAML read as a boolean or a number: say to quote it
    (an integer ``pos_label`` is allowed: it is matched to the file's text, ``1`` to ``1``)."""
    if value is None or isinstance(value, str):
        return None
    if isinstance(value, int) and not isinstance(value, bool) and key == "local.pos_label":
        return None
    return quote_hint(key, value)


def _check_local(
    local: Mapping[str, object], workdir: Path, *, seed: int = 0, read_files: bool = True
) -> list[str]:
    problems: list[str] = []
    data_dir, target, pos_label = local.get("data_dir"), local.get("target"), local.get("pos_label")
    for key, value in (("local.target", target), ("local.pos_label", pos_label), ("local.data_dir", data_dir)):
        hint = _label_type_problem(key, value)
        if hint is not None:
            return [hint]
    if not data_dir:
        known = _suite_names_known(local, target, pos_label, problems)
    else:
        known = _own_files_known(local, workdir, problems, seed=seed, read_files=read_files)
    wanted = list(local.get("datasets") or [])
    unknown = [d for d in wanted if d not in known]
    if unknown and known:
        problems.append(
            f"config key local.datasets: unknown task id(s) {', '.join(unknown)}; "
            f"available: {', '.join(sorted(known)[:10])}{', ...' if len(known) > 10 else ''}"
        )
    learners = str(local.get("learners", "default"))
    try:
        parse_learners(learners)
    except InputError as exc:
        problems.append(f"config key local.learners: {exc}")
    return problems


def _suite_names_known(local: Mapping[str, object], target: object, pos_label: object,
                       problems: list[str]) -> set[str]:
    """The dataset names of the configured suite (no ``local.data_dir``); appends to ``problems``
    the keys that apply only to one's own files and an unknown suite."""
    if target:
        problems.append(
            f"config key local.target: set to {target!r} but local.data_dir is not; "
            "add local.data_dir (the folder of your files) or remove local.target"
        )
    if pos_label is not None:
        problems.append(
            "config key local.pos_label: applies only to your own files; add local.data_dir "
            "and local.target, or remove local.pos_label"
        )
    try:
        members = suite_names(str(local.get("suite", "default")))
    except InputError:
        problems.append(
            f"config key local.suite: unknown suite {local.get('suite')!r}; choose one of "
            f"{', '.join(SUITES)} (prspace list-datasets --suite all), or set local.data_dir"
        )
        members = []
    return set(members)


def _own_files_known(local: Mapping[str, object], workdir: Path, problems: list[str], *, seed: int,
                     read_files: bool) -> set[str]:
    """The dataset names of one's own files in ``local.data_dir``; appends to ``problems`` what is
    wrong with the folder, the target and the files."""
    data_dir, target = local.get("data_dir"), local.get("target")
    folder = Path(str(data_dir))
    shown = folder if folder.is_absolute() else workdir / folder
    if not target:
        problems.append(
            "config key local.target: missing; your files need their class column named, "
            f"e.g. --config 'local={{\"data_dir\": \"{data_dir}\", \"target\": \"class\"}}'"
        )
    try:
        files = user_files(shown)
    except InputError:
        problems.append(
            f"config key local.data_dir: {str(data_dir)!r} is not a folder (looked for {shown}); "
            "give the folder holding your data files (relative to the working directory)"
        )
        files = {}
    else:
        if not files:
            problems.append(
                f"config key local.data_dir: no data files ({', '.join(USER_SUFFIXES)}) in {shown}; "
                "put your datasets there"
            )
    if target and files:
        _target_problems(local, files, str(target), shown, problems, seed=seed, read_files=read_files)
    return set(files)


def _target_problems(local: Mapping[str, object], files: Mapping[str, Path], target: str, shown: Path,
                     problems: list[str], *, seed: int, read_files: bool) -> None:
    """Appends to ``problems``: no file with the class column ``target``, a positive label absent from
    them, or (``read_files``) what screening the files finds."""
    pos_label = local.get("pos_label")
    with_target, reasons = [], []
    for path in files.values():
        try:
            columns = file_columns(path)
        except FileDefect as exc:  # a column named twice: never resolved silently
            problems.append(f"config key local.data_dir: {exc}")
            continue
        except InputError as exc:
            reasons.append(str(exc))
            continue
        if target in columns:
            with_target.append(path)
        else:
            reasons.append(missing_target_message(path, target, columns))
    if not with_target and not problems:
        problems.append(
            f"config key local.target: no usable file in {shown} has the class column "
            f"{target!r}: " + " | ".join(reasons[:3]) + (" | ..." if len(reasons) > 3 else "")
        )
    elif with_target:
        pos_problem = "" if pos_label is None else _pos_label_problem(with_target, target, pos_label)
        if pos_problem:
            problems.append(pos_problem)
        elif read_files:
            problems += _screen_files(local, with_target, target, seed=seed, shown=shown)


def _screen_files(
    local: Mapping[str, object], paths: list[Path], target: str, *, seed: int, shown: Path
) -> list[str]:
    """Read the study's files whole: a defective file is a problem; no usable file is a problem."""
    wanted = set(local.get("datasets") or [])
    if wanted:
        paths = [p for p in paths if task_id_of(p) in wanted]
    pos_label = local.get("pos_label")
    screens = [
        screen_file(p, target, pos_label=None if pos_label is None else str(pos_label),
                    min_minority=int(local.get("min_minority") or DEFAULT_MIN_MINORITY),  # type: ignore[call-overload]
                    n_folds=int(local.get("folds") or 10), seed=seed)  # type: ignore[call-overload]
        for p in paths
    ]
    problems = [f"config key local.data_dir: {s.defect}" for s in screens if s.defect]
    unusable = [s for s in screens if s.reason]
    if screens and not problems and len(unusable) == len(screens):
        why = " | ".join(f"{s.task_id}: {s.reason}" for s in unusable[:3]) + (" | ..." if len(unusable) > 3 else "")
        problems.append(
            f"config key local.data_dir: no usable dataset among the {len(screens)} file(s) of the study in "
            f"{shown} (each line ends with its fix): {why}"
        )
    return problems


def check_setup(
    config: Mapping[str, object], *, workdir: str | os.PathLike[str] = ".", read_files: bool = True
) -> list[str]:
    """Every problem of a (schema-valid) study configuration, one line each ([] if none).

    ``read_files``: read your own data files whole (:func:`prspace.data.userdata.screen_file`);
    False reads their headers only (for the cluster jobs, which read the Snakefile again)."""
    workdir = Path(workdir).resolve()
    problems: list[str] = []
    if config.get("source") == "local":
        seed = config.get("seed", 0)
        problems += _check_local(dict(config.get("local") or {}), workdir,
                                 seed=seed if isinstance(seed, int) else 0, read_files=read_files)
        boyd = dict(config.get("boyd") or {})
        down = dict(boyd.get("downsampling") or {})
        if boyd.get("enabled", True) and down.get("enabled", False) and down.get("learners"):
            try:
                parse_learners(str(down["learners"]))
            except InputError as exc:
                problems.append(f"config key boyd.downsampling.learners: {exc}")
    else:
        local = dict(config.get("local") or {})
        for key in ("data_dir", "target", "pos_label"):
            if local.get(key) not in (None, ""):
                problems.append(
                    f"config key local.{key}: applies only to source local (this study's source is "
                    f"{config.get('source')!r}); remove it or set source: local"
                )
    return problems

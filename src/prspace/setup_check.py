"""The workflow's setup, checked before any job runs (called when the Snakefile loads).

The JSON schema (``workflow/schemas/config.schema.yaml``) checks the *shape* of the
configuration; this module checks its *meaning* against the machine: the data folder
exists and holds usable files with the class column, ``pos_label`` is a class of those
files, the suite, the learners and the chosen datasets exist.  Every problem is one line
naming the config key, what is wrong and the fix; :func:`check_setup` returns them all
at once, so one edit of the config fixes one run.

Cheap by design (the Snakefile is read again by every cluster job): files are opened
for their header only, except for the class column when ``pos_label`` is given.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from prspace.errors import InputError

__all__ = ["check_setup", "data_files"]


def data_files(local: Mapping[str, object]) -> dict[str, Path]:
    """Task id -> file of ``local.data_dir`` ({} without a data folder or if it is unreadable)."""
    if not local.get("data_dir"):
        return {}
    from prspace.sources.userdata import user_files

    try:
        return user_files(str(local["data_dir"]))
    except InputError:
        return {}


def _class_values(path: Path, target: str) -> set[str] | None:
    """The values of the class column as text (None if the file cannot be read)."""
    from prspace.sources.userdata import read_user_file

    try:
        df = read_user_file(path)
    except InputError:
        return None
    if target not in df.columns:
        return None
    return set(df[target].dropna().astype(str))


def _check_local(local: Mapping[str, object], workdir: Path) -> list[str]:
    problems: list[str] = []
    data_dir, target, pos_label = local.get("data_dir"), local.get("target"), local.get("pos_label")
    if not data_dir:
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
        from prspace.sources.datasets import SUITES, suite_names

        try:
            members = suite_names(str(local.get("suite", "default")))
        except InputError:
            problems.append(
                f"config key local.suite: unknown suite {local.get('suite')!r}; choose one of "
                f"{', '.join(SUITES)} (prspace list-datasets --suite all), or set local.data_dir"
            )
            members = []
        known = set(members)
    else:
        from prspace.sources.userdata import (
            USER_SUFFIXES,
            file_columns,
            missing_target_message,
            user_files,
        )

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
            with_target, reasons = [], []
            for path in files.values():
                try:
                    columns = file_columns(path)
                except InputError as exc:
                    reasons.append(str(exc))
                    continue
                if str(target) in columns:
                    with_target.append(path)
                else:
                    reasons.append(missing_target_message(path, str(target), columns))
            if not with_target:
                problems.append(
                    f"config key local.target: no usable file in {shown} has the class column "
                    f"{str(target)!r}: " + " | ".join(reasons[:3]) + (" | ..." if len(reasons) > 3 else "")
                )
            elif pos_label is not None:
                values = [v for v in (_class_values(p, str(target)) for p in with_target) if v is not None]
                if values and not any(str(pos_label) in v for v in values):
                    seen = sorted(set().union(*values))
                    problems.append(
                        f"config key local.pos_label: {str(pos_label)!r} is not a value of column "
                        f"{str(target)!r} in any file (values: {', '.join(seen[:10])}"
                        f"{', ...' if len(seen) > 10 else ''}); set it to one of them or to null "
                        "(the minority class)"
                    )
        known = set(files)
    wanted = list(local.get("datasets") or [])
    unknown = [d for d in wanted if d not in known]
    if unknown and known:
        problems.append(
            f"config key local.datasets: unknown task id(s) {', '.join(unknown)}; "
            f"available: {', '.join(sorted(known)[:10])}{', ...' if len(known) > 10 else ''}"
        )
    learners = str(local.get("learners", "default"))
    try:
        from prspace.sources.learners import parse_learners

        parse_learners(learners)
    except InputError as exc:
        problems.append(f"config key local.learners: {exc}")
    return problems


def check_setup(config: Mapping[str, object], *, workdir: str | os.PathLike[str] = ".") -> list[str]:
    """Every problem of a (schema-valid) study configuration, one line each ([] if none)."""
    workdir = Path(workdir).resolve()
    problems: list[str] = []
    if config.get("source") == "local":
        problems += _check_local(dict(config.get("local") or {}), workdir)
        boyd = dict(config.get("boyd") or {})
        down = dict(boyd.get("downsampling") or {})
        if boyd.get("enabled", True) and down.get("enabled", False) and down.get("learners"):
            from prspace.sources.learners import parse_learners

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

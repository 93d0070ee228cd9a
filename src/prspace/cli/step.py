"""``prspace step NAME``: run one step of the workflow (a rule's computation) and write what it makes.

``prspace step NAME --in ROLE=PATH [PATH ...] ... --set KEY=VALUE ... --tables-dir D
[--figure-data-dir D] [--out ROLE=PATH ...] [--jobs N]``

The step's function (``R.Step.run`` of :mod:`prspace.core.registry`: ``module:function``) declares its
input roles as a ``TypedDict`` (the annotation of its ``inputs`` parameter: ``Path`` for one file,
``list[Path]`` for one or more; a ``NotRequired`` role may be left out) and its settings as
keyword-only parameters. Each ``--set`` value is JSON (``--set n_boot=2000``, ``--set
metrics='["aupr","auroc"]'``) or written plainly: text for a text setting (``--set learner=flow_id``),
comma-separated items for a list (``--set metrics=aupr,auroc``). Before any work the command checks every role, setting and output
against the function and the registry (:mod:`prspace.core.registry`): an unknown or missing one,
a value that is neither JSON nor a plain value of the parameter's type, each is one line naming it (exit 2). Then it
calls ``fn(inputs, **settings) -> StepOutput`` and writes the result with
:func:`prspace.core.steps.write_step`.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import sys
import types
import typing
from collections.abc import Callable, Sequence
from pathlib import Path

from prspace.cli._options import processes
from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.core.steps import StepOutput, write_step

#: step name (the rule's) -> its registry step, for the steps ``prspace step`` runs (those with a ``run``)
STEPS: dict[str, R.Step] = {s.name: s for s in R.COMMAND_STEPS}


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("step", help="run one step of the workflow (a rule's computation) and write its tables",
                              description=__doc__.split("\n\n")[0].strip("`"))
    p.add_argument("name", metavar="NAME", help=f"the step: {', '.join(STEPS)}")
    p.add_argument("--in", dest="inputs", nargs="+", action="append", default=[], metavar="ROLE=PATH",
                   help="an input file (or files) of the step by role, e.g. --in status=a.json b.json (repeatable)")
    p.add_argument("--set", dest="settings", action="append", default=[], metavar="KEY=VALUE",
                   help="a setting, as JSON or plainly: --set n_boot=2000, --set learner=flow_id, "
                        "--set metrics=aupr,auroc (repeatable)")
    p.add_argument("--tables-dir", default=None, help="folder of the step's tables (CSV and Markdown)")
    p.add_argument("--figure-data-dir", default=None, help="folder of the tables the step's figures are drawn from")
    p.add_argument("--out", dest="outputs", action="append", default=[], metavar="ROLE=PATH",
                   help="a file the step writes besides its tables, by role (repeatable)")
    p.add_argument("--jobs", type=processes, default=1, metavar="N",
                   help="processes the step may use (default 1; the same bytes whatever N): the workflow passes its "
                        "rule's threads; a step that runs in one process says so and runs")
    p.set_defaults(func=run)


#: the keyword through which a step's function takes ``--jobs`` (a process count, not a setting: never ``--set``)
JOBS = "jobs"


def _split(item: str, what: str, form: str, example: str) -> tuple[str, str]:
    key, sep, value = item.partition("=")
    if not sep or not key:
        raise InputError(f"{what} {item!r} is not {form}; e.g. {what} {example}")
    return key, value


def _step_function(name: str) -> Callable[..., StepOutput]:
    step = STEPS.get(name)
    if step is None:
        raise InputError(f"no step {name!r}; the steps: {', '.join(STEPS)}")
    module, _, attr = step.run.partition(":")
    return getattr(importlib.import_module(module), attr)


def _role_kinds(fn: Callable[..., StepOutput]) -> tuple[dict[str, bool], set[str]]:
    """role -> takes several paths, and the required roles, from the ``inputs`` TypedDict."""
    spec = typing.get_type_hints(fn)["inputs"]
    hints = typing.get_type_hints(spec, include_extras=True)  # keeps NotRequired[...]
    optional = {k for k, t in hints.items() if typing.get_origin(t) is typing.NotRequired}
    hints = typing.get_type_hints(spec)
    return {k: typing.get_origin(t) is list for k, t in hints.items()}, set(hints) - optional


def _inputs(name: str, fn: Callable[..., StepOutput], given: list[list[str]]) -> dict[str, Path | list[Path]]:
    several, required = _role_kinds(fn)
    inputs: dict[str, Path | list[Path]] = {}
    for item in given:
        role, first = _split(item[0], "--in", "ROLE=PATH", "pairs=noise_pairs.csv")
        if role not in several:
            raise InputError(f"step {name} has no input {role!r}; its inputs: {', '.join(several)}")
        if role in inputs:
            raise InputError(f"--in {role} is given twice; give all its files after one --in {role}=")
        paths = [Path(p) for p in [first, *item[1:]] if p]
        if not paths or (len(paths) > 1 and not several[role]):
            raise InputError(f"--in {role} takes {'one or more files' if several[role] else 'one file'}, "
                             f"got {len(paths)}")
        absent = [p for p in paths if not p.exists()]
        if absent:
            raise InputError(f"--in {role}: no file at {absent[0]}; check the path (or run the step that makes it)")
        inputs[role] = paths if several[role] else paths[0]
    missing = sorted(required - set(inputs))
    if missing:
        raise InputError(f"step {name} needs {' '.join(f'--in {r}=PATH' for r in missing)}")
    return inputs


def _type_ok(value: object, hint: object) -> bool:
    if hint is typing.Any:
        return True
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_type_ok(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if origin in (list, Sequence):
        (item,) = typing.get_args(hint) or (typing.Any,)
        return isinstance(value, list) and all(_type_ok(v, item) for v in value)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint) if isinstance(hint, type) else True


def _as_floats(value: object, hint: object) -> object:
    """JSON's whole numbers as floats where the parameter is a float (``2`` -> ``2.0``), as argparse's
    ``type=float`` gave them."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and (hint is float or float in typing.get_args(hint)):
        return float(value)
    if isinstance(value, list) and typing.get_origin(hint) in (list, Sequence):
        (item,) = typing.get_args(hint) or (typing.Any,)
        return [_as_floats(v, item) for v in value]
    return value


#: no value (a failed parse)
_NOT_GIVEN = object()


def _plain(text: str, hint: object) -> object:
    """A setting written plainly rather than as JSON: the text itself where the setting takes text
    (``--set metric=aupr``), comma-separated items where it takes a list (``--set metrics=aupr,auroc``,
    ``--set sigmas=0.3,4``: each item JSON if it reads as one of the list's type, else text);
    :data:`_NOT_GIVEN` when neither fits."""
    if _type_ok(text, hint):
        return text
    for option in typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,):
        if typing.get_origin(option) not in (list, Sequence):
            continue
        (item,) = typing.get_args(option) or (typing.Any,)
        values = []
        for word in (w.strip() for w in text.split(",")):
            try:
                value = json.loads(word)
            except json.JSONDecodeError:
                value = _NOT_GIVEN
            if value is _NOT_GIVEN or not _type_ok(value, item):
                value = word if _type_ok(word, item) else _NOT_GIVEN
            if value is _NOT_GIVEN:
                break
            values.append(value)
        else:
            return values
    return _NOT_GIVEN


def _example(hint: object) -> str:
    """A value of the setting's type, for the error message."""
    for value, text in ((1000, "1000"), (0.5, "0.5"), (["a", "b"], "a,b"), ([0.5, 2.0], "0.5,2"), ("text", "text")):
        if _type_ok(value, hint):
            return text
    return "null"


def _type_name(hint: object) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")


def _settings(name: str, fn: Callable[..., StepOutput], given: list[str]) -> dict[str, object]:
    params = {p.name: p for p in inspect.signature(fn).parameters.values() if p.kind is p.KEYWORD_ONLY and p.name != JOBS}
    hints = typing.get_type_hints(fn)
    settings: dict[str, object] = {}
    for item in given:
        key, text = _split(item, "--set", "KEY=VALUE", "n_boot=2000")
        if key not in params:
            raise InputError(f"step {name} has no setting {key!r}; its settings: {', '.join(params) or 'none'}")
        hint = hints.get(key, typing.Any)
        try:
            value, error = json.loads(text), None
        except json.JSONDecodeError as exc:
            value, error = _NOT_GIVEN, exc.msg
        if value is _NOT_GIVEN or not _type_ok(value, hint):
            plain = _plain(text, hint)
            if plain is not _NOT_GIVEN:
                value = plain
            elif error is not None:
                raise InputError(f"--set {key}: {text!r} is not JSON ({error}) nor a plain value of type "
                                 f"{_type_name(hint)}; write e.g. --set {key}={_example(hint)}") from None
            else:
                raise InputError(f"--set {key}: {text} is not of type {_type_name(hint)}")
        settings[key] = _as_floats(value, hints.get(key))
    missing = [k for k, p in params.items() if p.default is p.empty and k not in settings]
    if missing:
        raise InputError(f"step {name} needs {' '.join(f'--set {k}=VALUE' for k in missing)}")
    return settings


def run(args: argparse.Namespace) -> int:
    fn = _step_function(args.name)
    inputs = _inputs(args.name, fn, args.inputs)
    settings = _settings(args.name, fn, args.settings)
    outputs = dict(_split(item, "--out", "ROLE=PATH", "ranks=work/ranks.csv") for item in args.outputs)
    if args.jobs > 1 and JOBS not in inspect.signature(fn).parameters:
        print(f"prspace step {args.name}: runs in one process (--jobs {args.jobs} has no use here)", file=sys.stderr)
    run_step(args.name, inputs, settings, outputs=outputs, tables_dir=args.tables_dir,
             figure_data_dir=args.figure_data_dir, jobs=args.jobs)
    return 0


def run_step(name: str, inputs: dict[str, Path | list[Path]], settings: dict[str, object] | None = None, *,
             outputs: dict[str, str] | None = None, tables_dir: str | None = None,
             figure_data_dir: str | None = None, jobs: int = 1) -> None:
    """Run step ``name`` on ``inputs`` (role -> path) with ``settings`` and write what it returns: the
    files of its ``outputs`` (role -> path), its tables under ``tables_dir``, its figure-data tables under
    ``figure_data_dir``; ``jobs`` processes at most, for a step whose function takes them (keyword
    :data:`JOBS`). Also the way a command runs a step in its own process after its own work
    (``prspace predict-local --metrics-out``: step ``score``, no second process per task)."""
    fn = _step_function(name)
    step = STEPS[name]
    outputs = dict(outputs or {})
    wanted = [role for role, _ in step.files]
    unknown = sorted(set(outputs) - set(wanted))
    if unknown or len(outputs) < len(wanted):
        raise InputError(f"step {name} writes {', '.join(wanted) or 'no file'} besides its tables: give "
                         + (" ".join(f"--out {r}=PATH" for r in wanted) if wanted else "no --out"))
    if step.tables and tables_dir is None:
        raise InputError(f"step {name} writes tables: give their folder (--tables-dir)")
    if step.figure_data and figure_data_dir is None:
        raise InputError(f"step {name} writes the tables of its figures: give their folder (--figure-data-dir)")
    pool = {JOBS: jobs} if JOBS in inspect.signature(fn).parameters else {}
    output = fn(inputs, **(settings or {}), **pool)
    write_step(output, tables_dir=tables_dir, figure_data_dir=figure_data_dir, files=outputs, step=step)


def add_score_outputs(parser: argparse.ArgumentParser) -> None:
    """``--metrics-out`` and ``--folds-out``: a command that writes one task's predictions and status
    scores them in its own process (step ``score``), as the workflow's ``predict`` job does."""
    parser.add_argument("--metrics-out", metavar="FILE.csv", type=Path, default=None,
                        help="then score the task (step score): its per-model metrics here (with --folds-out)")
    parser.add_argument("--folds-out", metavar="FILE.csv", type=Path, default=None,
                        help="then score the task (step score): its per-fold metrics here (with --metrics-out)")


def score_outputs(args: argparse.Namespace) -> Callable[[Path], None]:
    """What to do once the task's status is written (:func:`add_score_outputs`): score it with step
    ``score`` (exactly ``prspace step score --in status=... --out metrics=... --out folds=...``), or
    nothing. Raises :class:`InputError` for one of the two options without the other, before any work."""
    metrics, folds = args.metrics_out, args.folds_out
    if (metrics is None) != (folds is None):
        raise InputError("--metrics-out and --folds-out go together: give both (or neither, to score later "
                         "with prspace step score)")
    if metrics is None:
        return lambda status: None
    return lambda status: run_step(R.STEP_SCORE.name, {"status": status},
                                   outputs={"metrics": str(metrics), "folds": str(folds)})

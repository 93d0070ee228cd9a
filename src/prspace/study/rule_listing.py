"""``docs/rules.md``: every rule of the workflow as Snakemake runs it, generated (issue 79.6).

The rules of the analysis steps and of the figures are made by loops over the registry
(``workflow/rules/steps.smk``, ``figures.smk``), so no rules file shows what such a rule reads, writes or runs.
This module loads the workflow with Snakemake's own API (its ``Workflow``: the rules as Snakemake holds them,
nothing run, no file written) for the default study's configuration and writes each rule's inputs, outputs,
log, benchmark, threads, resources and its shell command, formatted as Snakemake formats it for a job
(:func:`snakemake.utils.format`, the same formatter, ``:q`` quoting included). Then, for the paper-like study
(``config/paperlike.yaml``), what differs beyond the study's folders.

Three things are written in place of what a run fills in, so that the page is the same on every machine and
before any run: ``{task}`` stands for a task id (the task list is the output of checkpoint ``select_tasks``;
an input over tasks is written as its pattern; nothing reads the checkpoint, so a workflow state, ``work/`` and
``.snakemake/``, changes nothing), the interpreter that runs Snakemake is written ``python``
(the rules run ``"<sys.executable>" -m prspace``), and paths are relative to the checkout.

``python -m prspace.study.rule_listing`` rewrites the page; ``--check`` exits 1 when it is out of date
(``tests/study/test_rule_listing.py`` does the same).
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import prspace
from prspace.study.workflow_inputs import StudyInputs

#: The checkout (``src/prspace/..``).
ROOT = Path(prspace.__file__).resolve().parents[2]
#: The page, relative to the checkout.
PAGE = "docs/rules.md"
#: The paper-like study's configuration file (the default study's is ``config.yaml``, the Snakefile's own).
PAPERLIKE = "config/paperlike.yaml"
#: What stands for a task id.
TASK = "{task}"
#: Snakemake's own resources, not the rule's (``_cores`` is shown as threads).
_INTERNAL = {"_cores", "_nodes", "tmpdir"}


class _Files:
    """A job's ``input``/``output``/``log`` as the formatter reads them: ``{input}`` every file, ``{input.x}`` a
    named one (a file, or a list joined by spaces)."""

    def __init__(self, items: list[tuple[str | None, list[str]]]) -> None:
        self._items = items
        for name, files in items:
            if name is not None:
                setattr(self, name, str(files[0]) if len(files) == 1 and not isinstance(files, _List)
                        else [str(f) for f in files])

    def __iter__(self) -> Iterator[str]:
        return (str(f) for _, files in self._items for f in files)

    def __str__(self) -> str:
        return " ".join(self)


class _List(list):
    """The files of one named input or output given as a list (or by an input function), even of one file."""


class _Wildcards:
    task = TASK

    def __getattr__(self, name: str) -> str:
        return "{" + name + "}"


def _flags(f: Any) -> str:
    flags = getattr(f, "flags", {}) or {}
    marks = [m for m in ("directory", "ancient") if flags.get(m)]
    return f" ({', '.join(marks)})" if marks else ""


def _items(files: Any, *, wildcards: _Wildcards, evaluate: bool) -> list[tuple[str | None, list[Any]]]:
    """``(name or None, [files])`` of a rule's input/output/log, input functions called (over tasks: ``{task}``); a
    name given an empty list keeps its place, empty."""
    names, empty = {}, {}
    for name, (start, end) in getattr(files, "_names", {}).items():
        if end is not None and end == start:
            empty.setdefault(start, []).append(name)
        for i in range(start, (start + 1) if end is None else end):
            names[i] = (name, end is not None)
    out: list[tuple[str | None, list[Any]]] = []
    for i in range(len(files) + 1):
        out += [(name, _List()) for name in empty.get(i, [])]
        if i == len(files):
            break
        f = files[i]
        name, listed = names.get(i, (None, False))
        if callable(f) and evaluate:
            value = _evaluated(f, wildcards)
            got = _List([value] if isinstance(value, str) else [str(v) for v in value])
        else:
            got = _List([f]) if listed else [f]
        if out and name is not None and out[-1][0] == name:
            out[-1] = (name, _List([*out[-1][1], *got]))
        else:
            out.append((name, got))
    return out


def _call(fn: Callable[..., Any], **available: Any) -> Any:
    """A params function called as Snakemake calls it: with the arguments it names."""
    wanted = list(inspect.signature(fn).parameters)
    return _evaluated(fn, *[available[w] for w in wanted])


@contextlib.contextmanager
def _loaded(configfile: str | None) -> Iterator[Any]:
    """The workflow of the checkout, as ``snakemake [--configfile FILE]`` loads it (nothing run)."""
    from snakemake.api import SnakemakeApi
    from snakemake.settings.types import (
        ConfigSettings,
        OutputSettings,
        ResourceSettings,
        StorageSettings,
    )

    argv, sigint = sys.argv, signal.getsignal(signal.SIGINT)
    sys.argv = ["snakemake"] + (["--configfile", configfile] if configfile else [])
    try:
        with _over_tasks(), SnakemakeApi(OutputSettings(quiet={"all"})) as api:
            wf_api = api.workflow(resource_settings=ResourceSettings(cores=1),
                                  config_settings=ConfigSettings(configfiles=[ROOT / configfile] if configfile else []),
                                  storage_settings=StorageSettings(), snakefile=ROOT / "Snakefile", workdir=ROOT)
            wf = wf_api._get_workflow(check_envvars=False)  # noqa: SLF001 - the loaded rules, as `snakemake --lint` has them
            wf.include(wf_api.snakefile, overwrite_default_target=True, print_compilation=False)
            wf.check()
            yield wf
    finally:
        sys.argv = argv
        signal.signal(signal.SIGINT, sigint)


#: The methods of the workflow's task list (:class:`prspace.study.workflow_inputs.StudyInputs`) that read checkpoint
#: ``select_tasks``'s output: while the workflow is loaded for the page, each gives ``[TASK]``.
_TASK_METHODS = ("task_ids", "downsampling_tasks", "fold_skew_tasks")


@contextlib.contextmanager
def _over_tasks() -> Iterator[None]:
    """Every function over the study's tasks gives its pattern (``{task}``) instead of reading the checkpoint.

    The class's methods are replaced before the Snakefile is read, so that a rule given a bound method
    (``params: tasks=INPUTS.downsampling_tasks``) has the replacement too, and put back afterwards. The checkpoint
    is never read: without a DAG (nothing is run) its output counts as not created, with or without a workflow
    state (``work/``, ``.snakemake/``), so the page is the same before and after a run.
    """
    saved = {name: inspect.getattr_static(StudyInputs, name) for name in _TASK_METHODS}
    try:
        for name in _TASK_METHODS:
            setattr(StudyInputs, name, lambda self, wildcards=None: [TASK])
        yield
    finally:
        for name, method in saved.items():
            setattr(StudyInputs, name, method)


def _evaluated(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(...)``, or where it reads a checkpoint's output (a function not replaced by :func:`_over_tasks`) what it
    stands for: ``<per selected task: fn>``, so that the page never depends on a run."""
    from snakemake.exceptions import IncompleteCheckpointException

    try:
        return fn(*args, **kwargs)
    except IncompleteCheckpointException:
        return f"<per selected task: {getattr(fn, '__qualname__', None) or type(fn).__name__}>"


def _plain(text: str) -> str:
    """No absolute path: the interpreter is ``python``, a path under the checkout relative to it."""
    text = text.replace(f'"{sys.executable}"', "python").replace(sys.executable, "python").replace(f"{ROOT}/", "")
    return text.replace(f"'{TASK}'", TASK)  # a task id as a command quotes it (shlex), here its placeholder


def _resource(value: Any) -> Any:
    """A resource's value, or None where Snakemake computes it for each job (``tmpdir``)."""
    if hasattr(value, "is_evaluable"):
        return None if value.is_evaluable() else value.value
    return value


def rule_entries(configfile: str | None = None) -> list[dict[str, Any]]:
    """Every rule of the workflow with ``configfile`` (None: the default study), in the order Snakemake
    defines them: name, kind, description, input, output, log, benchmark, threads, resources and command."""
    entries = []
    with _loaded(configfile) as wf:
        for rule in wf.rules:
            entries.append(_entry(rule))
    return entries


def _entry(rule: Any) -> dict[str, Any]:
    wildcards = _Wildcards()
    ins = _items(rule.input, wildcards=wildcards, evaluate=True)
    outs = _items(rule.output, wildcards=wildcards, evaluate=False)
    logs = _items(rule.log, wildcards=wildcards, evaluate=False)
    res = {k: _resource(v) for k, v in rule.resources.items()}
    threads = res.get("_cores", 1)
    command = None
    if rule.shellcmd:
        from snakemake.utils import format as snakemake_format

        i_files, o_files, l_files = _Files(ins), _Files(outs), _Files(logs)
        params = {}
        for name, value in _named(rule.params):
            params[name] = (_call(value, wildcards=wildcards, input=i_files, output=o_files, threads=threads,
                                  resources=res, log=l_files) if callable(value) else value)
        P = type("Params", (), params)()
        command = snakemake_format(rule.shellcmd, input=i_files, output=o_files, log=l_files, params=P, threads=threads,
                                   wildcards=wildcards, resources=type("Resources", (), res)())
    return {
        "name": rule.name,
        "checkpoint": bool(rule.is_checkpoint),
        "per_task": any(TASK in str(f) for _, fs in outs for f in fs),
        "description": " ".join((rule.docstring or "").split()),
        "input": ins, "output": outs, "log": [f for _, fs in logs for f in fs],
        "benchmark": str(rule.benchmark) if rule.benchmark else None,
        "threads": threads if rule.shellcmd else None,
        "resources": {k: v for k, v in sorted(res.items()) if k not in _INTERNAL and v is not None},
        "command": command,
    }


def _named(params: Any) -> list[tuple[str, Any]]:
    names = getattr(params, "_names", {})
    return [(name, params[start] if end is None else params[start:end]) for name, (start, end) in names.items()]


def _files_md(items: list[tuple[str | None, list[str]]]) -> list[str]:
    lines = []
    for name, files in items:
        shown = ", ".join(f"`{_plain(str(f))}`{_flags(f)}" for f in files) if files else "(none)"
        lines.append(f"  - {name}: {shown}" if name else f"  - {shown}")
    return lines


def rule_block(e: dict[str, Any]) -> list[str]:
    """One rule's section of the page (Markdown lines)."""
    kind = [k for k, on in (("checkpoint", e["checkpoint"]), ("one job per task", e["per_task"])) if on]
    out = [f"### `{e['name']}`" + (f" ({', '.join(kind)})" if kind else ""), ""]
    if e["description"]:
        out += [_plain(e["description"]), ""]
    out += ["- input:" + ("" if e["input"] else " (none)"), *_files_md(e["input"])]
    out += ["- output:" + ("" if e["output"] else " (none)"), *_files_md(e["output"])]
    if e["log"]:
        out.append("- log: " + ", ".join(f"`{_plain(f)}`" for f in e["log"]))
    if e["benchmark"]:
        out.append(f"- benchmark: `{_plain(e['benchmark'])}`")
    if e["threads"] is not None:
        out.append(f"- threads: {e['threads']}")
    if e["resources"]:
        out.append("- resources: " + ", ".join(f"{k}={v}" for k, v in e["resources"].items()))
    if e["command"]:
        out += ["- command:", "", "  ```sh", f"  {_plain(e['command'])}", "  ```"]
    return out + [""]


HEADER = """# Every rule of the workflow, as Snakemake runs it

Generated by `python -m prspace.study.rule_listing` from the workflow as Snakemake loads it (`Snakefile`,
`workflow/rules/*.smk`; the step and figure rules are made from the registry, `prspace.core.registry`), for the
**default study** (`config.yaml`); the paper-like study's differences are at the end. Do not edit: a test
(`tests/study/test_rule_listing.py`) fails when this page is out of date.

Each rule: what it reads (input, by name), what it writes (output), its log and benchmark, the processes it may
use (threads: Snakemake gives a job at most `--cores`, and `{threads}` in the command is what it gives), its
resources, and its shell command as Snakemake formats it for a job. `{task}` stands for a task id: in a rule
run once per task, the job's task; in the input of any other rule, every task of the task list (the output of
checkpoint `select_tasks`; for `boyd_downsampling` and `boyd_fold_skew`'s readers, the tasks those experiments
take). `python` is the interpreter that runs Snakemake. What each rule does, in a table: docs/workflow.md,
"Every rule".
"""


def _normalized(block: list[str], study: str) -> list[str]:
    return [line.replace(f"work/{study}/", "work/<study>/").replace(f"results/{study}/", "results/<study>/")
            for line in block]


def difference_lines(default: list[dict[str, Any]], paperlike: list[dict[str, Any]]) -> list[str]:
    """The paper-like study's rules where they differ from the default study's, beyond its folders."""
    a = {e["name"]: e for e in default}
    b = {e["name"]: e for e in paperlike}
    out = ["## The paper-like study (`--configfile config/paperlike.yaml`)", "",
           "The same rules, with `work/paperlike/` and `results/paperlike/` for `work/default/` and `results/default/`, "
           "except:", ""]
    only_a, only_b = [n for n in a if n not in b], [n for n in b if n not in a]
    if only_a:
        out += ["- rules of the default study only: " + ", ".join(f"`{n}`" for n in only_a)]
    if only_b:
        out += ["- rules of the paper-like study only: " + ", ".join(f"`{n}`" for n in only_b)]
    changed = [n for n in b if n in a and _normalized(rule_block(a[n]), "default")
               != _normalized(rule_block(b[n]), "paperlike")]
    if changed:
        out += ["- rules that read, write or run something else (each shown below as the paper-like study has it): "
                + ", ".join(f"`{n}`" for n in changed)]
    if not (changed or only_a or only_b):
        out += ["- nothing."]
    out += [""]
    for n in [*changed, *only_b]:
        out += rule_block(b[n])
    return out


def page() -> str:
    """The page, from the workflow of this checkout."""
    default = rule_entries(None)
    paperlike = rule_entries(PAPERLIKE)
    lines = [HEADER, "## The default study", ""]
    for e in default:
        lines += rule_block(e)
    lines += difference_lines(default, paperlike)
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m prspace.study.rule_listing", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help=f"exit 1 if {PAGE} is out of date (write nothing)")
    args = parser.parse_args(argv)
    text = page()
    path = ROOT / PAGE
    if args.check:
        same = path.is_file() and path.read_text(encoding="utf-8") == text
        print(f"{PAGE} is {'up to date' if same else 'out of date: python -m prspace.study.rule_listing'}",
              file=sys.stderr)
        return 0 if same else 1
    path.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

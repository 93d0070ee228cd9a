"""The version of the code a rule runs: a digest of the prspace modules it imports.

Snakemake reruns a job when its inputs, its shell line or its params change (the rerun triggers
``input``, ``code`` and ``params``, all on by default), not when the Python code behind the
shell line changes: a checkout that pulls new learners and runs ``make run`` again would keep the
predictions of the old ones, and ``make verify`` would then disagree with a fresh clone (it did,
2026-11-25: one AUROC of the paperlike study, written by an intermediate version of the
preprocessing). So every rule that runs prspace code takes ``code=...`` as a param, the digest
of :func:`code_version`: editing a learner reruns the predictions, editing a figure does not.

The digest covers the entry modules and every prspace module they import at any depth, read
from the source without importing it (top-level and function-level imports, relative ones
included; read as text), the ``__init__`` of each package on the way, and the data files (tables, suites) in
the folders of those modules. A module named in a string and imported at run time (a step's
``run="module:function"``, a command of :mod:`prspace.cli`) is named as an entry by the rule.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from pathlib import Path

import prspace

_ROOT = Path(prspace.__file__).resolve().parent
_PACKAGE = "prspace"


def _module_file(name: str) -> Path | None:
    """The source file of module ``name`` (``prspace...``), or None where no such module exists
    (a name imported from a module that is not itself a module)."""
    path = _ROOT.joinpath(*name.split(".")[1:])
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    source = path.with_suffix(".py")
    return source if source.is_file() else None


def _parents(name: str) -> list[str]:
    """The packages ``name`` sits in (their ``__init__`` runs when it is imported)."""
    parts = name.split(".")
    return [".".join(parts[:k]) for k in range(1, len(parts))]


_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w. \t,]+)", re.MULTILINE)
_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.MULTILINE)


@cache
def _imports(name: str) -> frozenset[str]:
    """The prspace modules that module ``name`` imports, at any depth in the file.

    Read from the text: a line that looks like an import inside a docstring counts too, which
    can only add a module to the digest, never leave one out."""
    source = _module_file(name)
    if source is None:
        return frozenset()
    text = source.read_text(encoding="utf-8")
    package = name.split(".") if source.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for names in _IMPORT.findall(text):
        found.update(part.split()[0] for part in names.split(",") if part.strip())
    for module, names in _FROM.findall(text):
        level = len(module) - len(module.lstrip("."))
        base = package[: len(package) - level + 1] if level else []
        module = ".".join([*base, *filter(None, [module.lstrip(".")])])
        found.add(module)
        # `from prspace.x import y`: y may be a module of package prspace.x
        found.update(f"{module}.{part.split()[0]}" for part in names.split("#")[0].strip("()").split(",")
                     if part.split() and part.split()[0].isidentifier())
    return frozenset(m for m in found if (m == _PACKAGE or m.startswith(_PACKAGE + ".")) and _module_file(m))


def modules(*entries: str) -> list[str]:
    """Every prspace module that running ``entries`` imports, sorted: the entries, what they
    import at any depth, and the packages on the way."""
    for entry in entries:
        if _module_file(entry) is None:
            raise ValueError(f"code_version: no module {entry!r} in {_ROOT}; name a prspace module")
    seen: set[str] = set()
    todo = [m for entry in entries for m in (entry, *_parents(entry))]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(m for m in (*_imports(name), *_parents(name)) if m not in seen)
    return sorted(seen)


def _data_files(folder: Path) -> list[Path]:
    """The data files (not Python, not caches) in ``folder`` and in its sub-folders that are not
    packages (``data/suites/``)."""
    found = []
    for path in sorted(folder.iterdir()):
        if path.is_dir():
            if path.name != "__pycache__" and not (path / "__init__.py").is_file():
                found.extend(_data_files(path))
        elif path.suffix not in {".py", ".pyc"}:
            found.append(path)
    return found


@cache
def code_version(*entries: str) -> str:
    """A 16-hex-digit digest of the code that running the prspace modules ``entries`` executes
    (see the module docstring): the same for the same source, different when any module in
    :func:`modules` or a data file in their folders changes.

    >>> code_version("prspace.metrics") == code_version("prspace.metrics")
    True
    """
    digest = hashlib.sha256()
    folders = set()
    for name in modules(*entries):
        source = _module_file(name)
        assert source is not None  # modules() keeps only names with a source
        folders.add(source.parent)
        digest.update(f"{source.relative_to(_ROOT).as_posix()}\0".encode())
        digest.update(source.read_bytes())
    for folder in sorted(folders):
        for path in _data_files(folder):
            digest.update(f"{path.relative_to(_ROOT).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def command_code(command: str, *run: str) -> str:
    """:func:`code_version` of ``prspace COMMAND`` (``python -m prspace``, its module in
    :mod:`prspace.cli`) and of the modules ``run`` names (``"module"`` or ``"module:function"``,
    as a step's ``run`` or a figure's ``draw``: imported at run time, so named here)."""
    entries = ["prspace.__main__", f"prspace.cli.{command.replace('-', '_')}"]
    return code_version(*entries, *(r.split(":")[0] for r in run if r))

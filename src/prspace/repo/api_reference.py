"""The public API and its reference page (``docs/api.md``), generated from the numpydoc docstrings.

The public API is every function and class a package names in ``__all__`` (of
:mod:`prspace.metrics`, :mod:`prspace.audit` and :mod:`prspace.display`: :data:`PACKAGES`), and each
public method and property a class of prspace defines (:func:`public_objects`; names in ``__all__``
that are data, the metric keys for example, are listed by name). The packages are read by name, as
``pydoc`` reads them: this module uses none of them (so it stands beside ``audit`` in the layers).

``docs/api.md`` quotes one listing per package as an include span
``<!-- include: api:prspace.metrics -->...<!-- /include -->`` (:mod:`prspace.repo.quoted_numbers`):
``prspace numbers --write docs/api.md`` regenerates it, and a test fails when it is out of date. The
docstrings are checked by numpydoc's validator in ``tests/repo/test_public_api_docs.py``.
"""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

from prspace.core.errors import InputError

#: The packages whose public API is documented and validated.
PACKAGES = ("prspace.metrics", "prspace.audit", "prspace.display")
#: The numpydoc sections rendered as lists of entries (name : type, then the description).
LISTED = ("Parameters", "Returns", "Yields", "Raises", "Warns", "Attributes", "Other Parameters")
_HEADING = re.compile(r"^(?P<name>[A-Z][A-Za-z ]+)\n-{3,}$", re.M)
_ROLE = re.compile(r":(?:func|class|meth|attr|data|mod|obj|exc):`~?([^`]+)`")


def _methods(cls: type) -> list[str]:
    """The public methods and properties of ``cls`` that a class of prspace defines (inherited ones
    too; the methods of ``tuple`` or ``object`` are not prspace's API)."""
    out = []
    for name in sorted(dir(cls)):
        owner = next((k for k in cls.__mro__ if name in vars(k)), None)
        if name.startswith("_") or owner is None or not owner.__module__.startswith("prspace."):
            continue
        raw = vars(owner)[name]
        if isinstance(raw, (property, classmethod, staticmethod)) or inspect.isfunction(raw):
            out.append(name)
    return out


def public_objects(package: str) -> list[tuple[str, str, Any]]:
    """``(public path, defining path, object)`` of every public function and class of ``package`` (its
    ``__all__``, in that order), each class followed by its public methods and properties.

    The defining path (``prspace.metrics.all_curves.all_curves``) is where an importer finds the
    object when a module of the package has the public name (``prspace.metrics.all_curves``)."""
    module = importlib.import_module(package)
    out = []
    for name in module.__all__:
        obj = getattr(module, name)
        if not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        where = f"{obj.__module__}.{obj.__qualname__}"
        out.append((f"{package}.{name}", where, obj))
        if inspect.isclass(obj):
            out += [(f"{package}.{name}.{m}", f"{where}.{m}", inspect.getattr_static(obj, m)) for m in _methods(obj)]
    return out


def public_data(package: str) -> list[str]:
    """The names in ``package.__all__`` that are data (constants), not functions or classes."""
    module = importlib.import_module(package)
    return [n for n in module.__all__
            if not (inspect.isfunction(getattr(module, n)) or inspect.isclass(getattr(module, n)))]


def _text(s: str) -> str:
    """reStructuredText roles and literals as Markdown code."""
    return _ROLE.sub(lambda m: f"`{m[1].rsplit('.', 1)[-1] if m[0].count('~') else m[1]}`", s).replace("``", "`")


def _sections(doc: str) -> list[tuple[str, str]]:
    """``(heading, body)`` of a numpydoc docstring; the text before the first heading is ``""``."""
    doc = inspect.cleandoc(doc)
    parts, last, name = [], 0, ""
    for m in _HEADING.finditer(doc):
        parts.append((name, doc[last:m.start()].strip("\n")))
        name, last = m["name"], m.end()
    parts.append((name, doc[last:].strip("\n")))
    return [(n, b) for n, b in parts if n or b.strip()]


def _entries(body: str) -> list[str]:
    """A listed section's entries as Markdown list items: ``- `name` (*type*): description``."""
    items: list[list[str]] = []
    for line in body.splitlines():
        if line and not line[0].isspace():
            items.append([line, ""])
        elif items:
            items[-1][1] += " " + line.strip()
    out = []
    for head, desc in items:
        name, _, kind = head.partition(" : ")
        name = name.strip()
        label = f"`{name}` (*{kind.strip()}*)" if kind else f"`{name}`" if name.startswith("*") else f"*{name}*"
        out.append(f"- {label}: {_text(desc.strip())}" if desc.strip() else f"- {label}")
    return out


def _signature(path: str, obj: Any) -> str:
    """``name(a, *, b=1)`` without annotations (a property: its name alone); a default that is a
    function shows without its memory address, so the page is the same in every run."""
    name = path.rsplit(".", 1)[-1]
    func = obj.__func__ if isinstance(obj, (classmethod, staticmethod)) else obj
    if isinstance(func, property):
        return f"{name}  (property)"
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return name
    params = [p.replace(annotation=inspect.Parameter.empty) for p in sig.parameters.values()]
    if isinstance(obj, classmethod) or inspect.isclass(func):
        params = params[1:] if params and params[0].name in ("cls", "self") else params
    elif params and params[0].name == "self":
        params = params[1:]
    text = str(sig.replace(parameters=params, return_annotation=inspect.Signature.empty))
    return name + re.sub(r" at 0x[0-9a-fA-F]+", "", text)  # a default's address differs between runs


def render(path: str, obj: Any, level: int = 3) -> str:
    """One object's entry: its heading, signature and docstring as Markdown."""
    func = obj.__func__ if isinstance(obj, (classmethod, staticmethod)) else obj
    doc = inspect.getdoc(func.fget if isinstance(func, property) else func) or ""
    lines = [f"{'#' * level} `{path}`", "", "```python", _signature(path, obj), "```", ""]
    for heading, body in _sections(doc):
        if heading:
            lines += [f"**{heading}**", ""]
        if heading in LISTED:
            lines += _entries(body)
        elif heading == "See Also":
            lines += [f"- `{name.strip()}`" + (f": {_text(desc.strip())}" if desc else "")
                      for name, _, desc in (x.partition(" : ") for x in body.splitlines() if x.strip() and not x[0].isspace())]
        elif heading == "Examples":
            lines += ["```pycon", body, "```"]
        else:
            lines.append(_text(body))
        lines.append("")
    return "\n".join(lines)


def api_listing(package: str) -> str:
    """The reference of ``package``'s public API in Markdown: its data names, then each function and
    class (a class's methods one heading below it), in the order of ``__all__``."""
    if package not in PACKAGES:
        raise InputError(f"include span names api:{package}; the documented packages are "
                         + ", ".join(f"api:{p}" for p in PACKAGES))
    parts = []
    data = public_data(package)
    if data:
        parts.append("Data: " + ", ".join(f"`{n}`" for n in data) + ".\n")
    for path, _, obj in public_objects(package):
        parts.append(render(path, obj, level=4 if path.count(".") > package.count(".") + 1 else 3))
    return "\n" + "\n".join(parts).rstrip("\n") + "\n"

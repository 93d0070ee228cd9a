"""Inside ``audit/`` the folders and the top-level modules import in one direction (issue 61, deliver 5): the
``audit layers:`` line of docs/architecture.md ("Layers and late imports") orders them low to high, and every
import of an audit module (late ones too) goes to a lower layer or stays in its own unit; an import under
``if TYPE_CHECKING:`` (a type named in an annotation only) is not bound by the order.

Imports are read from the source with :mod:`ast`, by the helpers of tests/test_layout.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from test_layout import MODULES, _architecture_line, _modules, _statements, _target

AUDIT = "prspace.audit"


def _audit_layers(line: str) -> dict[str, int]:
    """Unit -> layer (0 lowest) from ``a, b < c < ...``."""
    return {u.strip(): i for i, group in enumerate(line.split("<")) for u in group.split(",")}


def _unit(module: str) -> str | None:
    """The unit of an audit module: its folder (``intake``), its own name at the top (``audit_record``), or
    ``__init__`` for the package itself; None outside ``prspace.audit``."""
    if module == AUDIT:
        return "__init__"
    if not module.startswith(AUDIT + "."):
        return None
    return module[len(AUDIT) + 1:].split(".")[0]


def _units(modules: dict[str, Path]) -> set[str]:
    return {u for m in modules if (u := _unit(m))}


def _against(modules: dict[str, Path], layers: dict[str, int]) -> list[str]:
    """Every import between two audit units that does not go to a lower layer (upward, sideways, or a unit not
    on the line), TYPE_CHECKING imports left out: ``"a (layer i) -> b (layer j): module -> target"``."""
    bad = []
    for m, p in sorted(modules.items()):
        a = _unit(m)
        if a is None:
            continue
        for _, names, _, in_tc in _statements(m, p):
            if in_tc:
                continue
            for name in names:
                t = _target(name, modules) if name.startswith(AUDIT) else None
                b = _unit(t) if t else None
                if b is None or b == a:
                    continue
                if a not in layers or b not in layers:
                    bad.append(f"{a} -> {b}: not on the 'audit layers:' line of docs/architecture.md ({m} -> {t})")
                elif layers[b] >= layers[a]:
                    bad.append(f"{a} (layer {layers[a]}) -> {b} (layer {layers[b]}): {m} -> {t}")
    return bad


def test_the_audit_layer_line_names_every_unit():
    layers = _audit_layers(_architecture_line("audit layers"))
    units = _units(MODULES)
    assert {"intake", "inference", "simulation", "report", "audit_record", "__init__"} <= units
    assert set(layers) == units, (f"on the line, no such unit: {sorted(set(layers) - units)}; "
                                  f"not on the line: {sorted(units - set(layers))}")
    assert layers["intake"] < layers["inference"] < layers["simulation"] == layers["report"] < layers["audit_result"]


def test_the_audit_imports_follow_the_order():
    assert _against(MODULES, _audit_layers(_architecture_line("audit layers"))) == []


def _plant(root: Path, files: dict[str, str]) -> dict[str, Path]:
    src = root / "src"
    for rel, text in {"prspace/__init__.py": "", "prspace/audit/__init__.py": "",
                      **{f"prspace/audit/{d}/__init__.py": "" for d in ("intake", "inference", "report")},
                      **files}.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    return _modules(src)


def test_the_order_check_fails_on_a_planted_bad_tree(tmp_path):
    """An upward import at the top and one inside a function, sideways ones both ways, a unit not on the line
    and the package's ``__init__`` imported from below are each named; the same upward import under TYPE_CHECKING, a
    downward one and one within a folder are not; a clean tree passes."""
    layers = _audit_layers("numbers < intake < inference, simulation < report < record < __init__")
    modules = _plant(tmp_path / "bad", {
        "prspace/audit/numbers.py": "",
        "prspace/audit/record.py": ("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                                    "    from prspace.audit.report.findings import Finding\n"),
        "prspace/audit/report/findings.py": ("from prspace.audit.inference import tables\n"
                                             "from prspace.audit.report import lines\nfrom prspace.audit import numbers\n"),
        "prspace/audit/report/lines.py": "",
        "prspace/audit/inference/tables.py": ("from prspace.audit.report.findings import Finding\n\n"
                                              "def f():\n    from prspace.audit import record\n"),
        "prspace/audit/inference/coverage.py": "from prspace.audit.simulation.simulate import draw\n",
        "prspace/audit/simulation/__init__.py": "",
        "prspace/audit/simulation/simulate.py": "from prspace.audit.inference.tables import f\n",
        "prspace/audit/intake/columns.py": "from prspace.audit import Columns\nfrom prspace.audit.stray import x\n",
        "prspace/audit/stray.py": "",
    })
    bad = _against(modules, layers)
    assert [b.split(":")[0] for b in bad] == [
        "inference (layer 2) -> simulation (layer 2)",
        "inference (layer 2) -> report (layer 3)",
        "inference (layer 2) -> record (layer 4)",
        "intake (layer 1) -> __init__ (layer 5)",
        "intake -> stray",
        "simulation (layer 2) -> inference (layer 2)",
    ], bad
    with pytest.raises(AssertionError):
        assert _against(modules, layers) == []
    clean = _plant(tmp_path / "clean", {
        "prspace/audit/numbers.py": "",
        "prspace/audit/record.py": "from prspace.audit.report import findings\n",
        "prspace/audit/report/findings.py": "from prspace.audit.inference.tables import f\n",
        "prspace/audit/inference/tables.py": ("from typing import TYPE_CHECKING\nfrom prspace.audit import numbers\n\n"
                                              "if TYPE_CHECKING:\n    from prspace.audit.record import Record\n"),
    })
    assert _against(clean, layers) == []

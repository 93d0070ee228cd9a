"""One default per setting (issue 43): every ``n_boot`` default in ``src`` is a name from
:mod:`prspace.core.defaults`, never a number, and the constants agree with the schema's defaults
for the same settings."""

from __future__ import annotations

import ast
from pathlib import Path

import yaml

from prspace.core import defaults as D

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"


def _literal_n_boot_defaults(path: Path) -> list[str]:
    """``file:line`` of every ``n_boot`` parameter default or ``n_boot=`` keyword that is a number."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        pairs = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = node.args
            pos = a.posonlyargs + a.args
            pairs += list(zip(pos[len(pos) - len(a.defaults):], a.defaults, strict=True))
            pairs += [(k, d) for k, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None]
            pairs = [(arg.arg, d) for arg, d in pairs]
        elif isinstance(node, ast.Call):
            pairs = [(k.arg, k.value) for k in node.keywords]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            pairs = [(node.target.id, node.value)]
        out += [f"{path.name}:{d.lineno}" for name, d in pairs
                if name == "n_boot" and isinstance(d, ast.Constant) and isinstance(d.value, (int, float))]
    return out


def test_no_literal_n_boot_default_in_src():
    found = [hit for p in sorted((ROOT / "src" / "prspace").rglob("*.py")) for hit in _literal_n_boot_defaults(p)]
    assert not found, f"n_boot defaults written as numbers (use prspace.core.defaults): {found}"


def test_the_scan_finds_a_literal_default(tmp_path):
    """The scan above can fail: a numeric default and a numeric keyword are both found, a name is not."""
    fake = tmp_path / "m.py"
    fake.write_text("def f(x, *, n_boot: int = 1000):\n    return g(n_boot=500)\n\n\n"
                    "def h(n_boot=N_BOOT):\n    return g(n_boot=n_boot)\n", encoding="utf-8")
    assert sorted(_literal_n_boot_defaults(fake)) == ["m.py:1", "m.py:2"]


def test_constants_agree_with_the_schema():
    props = yaml.safe_load(SCHEMA.read_text(encoding="utf-8"))["properties"]["analysis"]["properties"]
    assert props["n_boot"]["default"] == D.N_BOOT


def test_the_verdicts_resamples_have_one_default_the_schemas():
    """``analysis.verdicts.n_boot`` (issue 61): its one default is the schema's; the step reads it from the
    configuration like every step's setting, and no function of the verdicts has a default of its own
    (no constant of prspace.core.defaults, no number)."""
    import inspect

    from prspace.core import registry as R
    from prspace.verdicts import direction, primary, sensitivity, study_evidence, verdicts_step

    props = yaml.safe_load(SCHEMA.read_text(encoding="utf-8"))["properties"]["analysis"]["properties"]
    assert props["verdicts"]["properties"]["n_boot"]["default"] >= props["verdicts"]["properties"]["n_boot"]["minimum"]
    assert dict(R.STEP_VERDICTS.settings)["verdicts_n_boot"] == "analysis.verdicts.n_boot"
    assert not [name for name in vars(D) if "VERDICT" in name.upper()]
    assert inspect.signature(verdicts_step.verdicts_step).parameters["verdicts_n_boot"].default is inspect.Parameter.empty
    for fn in (study_evidence.collect_evidence, primary.primary_rows, direction.direction_rows,
               sensitivity.sensitivity_table, sensitivity.margin_sensitivity_table):
        assert inspect.signature(fn).parameters["n_boot"].default is inspect.Parameter.empty, fn.__name__

"""One default per setting (issue 43, issue 79): every ``n_boot`` default in ``src`` is a name from
:mod:`prspace.core.defaults`, never a number, and the constants agree with the schema's defaults
for the same settings; every resample-count parameter, whatever its name (``n_boot``, ``n_resamples``,
``bootstrap``, ``B``, ...), defaults to nothing, None or one of those constants; and every default of the
command line that mirrors one (``prspace audit --bootstrap``) is the constant, not a number written again."""

from __future__ import annotations

import argparse
import ast
import inspect
import re
from pathlib import Path

import pytest
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


#: A parameter or option that counts resamples, whatever it is called.
RESAMPLE_NAME = re.compile(r"^(n_boot\w*|\w*_boot|n_resamples|\w+_resamples|resamples|bootstrap|B|n_bootstrap\w*)$")
#: The one home of a resample count's default: a constant of prspace.core.defaults.
CONSTANTS = {name for name in vars(D) if name.startswith("N_BOOT")}
#: Resample-count defaults outside the audit's part of issue 79, kept until their owner's point moves them (79.3, the
#: Boyd and figure-data steps' settings; helper "evid"): ``file:function:parameter`` -> the default's source. The test
#: fails when one of them is gone too, so that the entry goes with it.
ELSEWHERE = {
    "boyd_evidence.py:aggregation_rows:n_resamples": "DEFAULT_RESAMPLES",
    "boyd_evidence.py:boyd_evidence_tables:n_resamples": "DEFAULT_RESAMPLES",
    "boyd_steps.py:evidence_from_files:n_resamples": "DEFAULT_RESAMPLES",
    "boyd_intervals.py:simulated_coverage:n_resamples": "4000",
    "fk_figure_data.py:band_table:n_resamples": "1000",
    "fk_figure_data.py:figure_data:band_resamples": "0",
}


def _resample_defaults(path: Path) -> dict[str, str]:
    """``file:function:parameter`` -> its default's source, for every resample-count parameter of ``path`` whose
    default is neither absent, None, nor a constant of :mod:`prspace.core.defaults`."""
    out = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        a = node.args
        pos = a.posonlyargs + a.args
        pairs = list(zip(pos[len(pos) - len(a.defaults):], a.defaults, strict=True))
        pairs += [(k, d) for k, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None]
        for arg, d in pairs:
            if not RESAMPLE_NAME.match(arg.arg) or (isinstance(d, ast.Constant) and d.value is None):
                continue
            name = d.id if isinstance(d, ast.Name) else d.attr if isinstance(d, ast.Attribute) else None
            if name not in CONSTANTS:
                out[f"{path.name}:{node.name}:{arg.arg}"] = ast.unparse(d)
    return out


def _literal_option_defaults(path: Path) -> list[str]:
    """``file:line`` of every ``add_argument`` of a resample count (by its ``dest`` or its long option) whose
    ``default=`` is a number written there."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"):
            continue
        kw = {k.arg: k.value for k in node.keywords}
        names = [a.value.lstrip("-").replace("-", "_") for a in node.args if isinstance(a, ast.Constant)]
        if isinstance(kw.get("dest"), ast.Constant):
            names.append(kw["dest"].value)
        d = kw.get("default")
        if any(RESAMPLE_NAME.match(n) for n in names) and isinstance(d, ast.Constant) and isinstance(d.value, (int, float)):
            out.append(f"{path.name}:{d.lineno}")
    return out


def test_every_resample_count_parameter_defaults_to_the_constant_or_none():
    found = {}
    for p in sorted((ROOT / "src" / "prspace").rglob("*.py")):
        found |= _resample_defaults(p)
    extra = {k: v for k, v in found.items() if k not in ELSEWHERE}
    assert not extra, f"resample counts with a default of their own (take None, or a prspace.core.defaults name): {extra}"
    gone = sorted(set(ELSEWHERE) - set(found))
    assert not gone, f"no longer a default of its own: delete these entries of ELSEWHERE: {gone}"


def test_the_parameter_scan_finds_a_planted_second_default(tmp_path):
    fake = tmp_path / "m.py"
    fake.write_text("def f(*, n_boot=1000):\n    pass\n\n\ndef g(x, n_resamples=N_LOCAL, B=None, bootstrap=N_BOOT):\n"
                    "    pass\n\n\ndef h(y, b=3, *, band_resamples: int = 0, n_boot: int | None = None):\n    pass\n",
                    encoding="utf-8")
    assert _resample_defaults(fake) == {"m.py:f:n_boot": "1000", "m.py:g:n_resamples": "N_LOCAL",
                                        "m.py:h:band_resamples": "0"}


def test_no_command_line_option_writes_a_resample_count_again():
    found = [hit for p in sorted((ROOT / "src" / "prspace" / "cli").rglob("*.py")) for hit in _literal_option_defaults(p)]
    assert not found, f"resample-count options whose default is a number (use prspace.core.defaults): {found}"


def test_the_option_scan_finds_a_planted_literal(tmp_path):
    fake = tmp_path / "cli.py"
    fake.write_text('p.add_argument("--bootstrap", type=int, default=1000)\n'
                    'p.add_argument("--resamples", dest="n_boot", default=N_BOOT)\n'
                    'p.add_argument("--boot", dest="n_boot", type=int, default=200)\n'
                    'p.add_argument("--seed", type=int, default=0)\n', encoding="utf-8")
    assert _literal_option_defaults(fake) == ["cli.py:1", "cli.py:3"]


def _subcommands(parser: argparse.ArgumentParser, path: str = "prspace"):
    """Every (sub)command's parser, by its command line."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _subcommands(sub, f"{path} {name}")


def test_the_command_lines_defaults_are_the_packages():
    """Every option of ``prspace audit`` that is a keyword of :func:`prspace.audit.audit` has its default (None
    there meaning the constant: ``n_boot``), and every resample-count option of any command defaults to nothing
    or a constant of :mod:`prspace.core.defaults`."""
    from prspace.audit import audit
    from prspace.cli import build_parser

    commands = dict(_subcommands(build_parser()))
    params = inspect.signature(audit).parameters
    audit_options = [a for a in commands["prspace audit"]._actions if a.option_strings and a.dest in params]
    assert {"n_boot", "confidence", "seed", "skew_tolerance", "downsample_ratio"} <= {a.dest for a in audit_options}
    for a in audit_options:
        want = params[a.dest].default
        want = D.resolve_n_boot(want) if a.dest == "n_boot" else want
        assert a.default == want, (a.option_strings, a.default, want)
    constants = {getattr(D, c) for c in CONSTANTS}
    for command, parser in commands.items():
        for a in parser._actions:
            names = [a.dest, *(o.lstrip("-").replace("-", "_") for o in a.option_strings)]
            if any(RESAMPLE_NAME.match(n) for n in names) and a.default is not None:
                assert a.default in constants, (command, a.option_strings, a.default)


@pytest.mark.parametrize("old, new", [("bootstrap", "n_boot")])
def test_an_explicit_resample_count_given_twice_is_an_error_whatever_it_equals(old, new):
    """``n_boot=1000`` (the default's value, given) beside ``bootstrap=1000``: told from the default, refused."""
    import numpy as np

    from prspace.audit import audit
    from prspace.core.errors import InputError

    y = np.arange(40) % 2 == 0
    with pytest.raises(InputError, match=f"{new}= and {old}= name one option"):
        audit(y, scores={"a": y + 0.5 * np.arange(40)}, **{new: D.N_BOOT, old: D.N_BOOT})

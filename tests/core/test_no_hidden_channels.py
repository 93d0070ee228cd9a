"""Data in the open (issue 79.2): no module of ``src`` passes data through a ``ContextVar`` or by writing keys into
an object's ``__dict__``; what is computed ahead travels as a declared field (the audit's bands computed ahead:
:attr:`prspace.audit.audit_record.AuditRecord.bands_ahead`)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: A context variable, or a key read or written through an object's ``__dict__`` (``x.__dict__["k"]``,
#: ``.__dict__.get(``, ``.setdefault(``, ``.pop(``, ``.update(``).
HIDDEN = re.compile(r"ContextVar|__dict__\s*(\[|\.(get|setdefault|pop|update)\()")


def _hidden(root: Path) -> list[str]:
    """``path:line`` of every hidden channel in the Python files under ``root``."""
    return [f"{p.relative_to(root)}:{i}" for p in sorted(root.rglob("*.py"))
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if HIDDEN.search(line)]


def test_no_contextvar_and_no_key_written_into_a_dict_of_attributes_in_src():
    found = _hidden(ROOT / "src")
    assert not found, f"data passed out of sight (make it a parameter or a dataclass field): {found}"


def test_the_scan_finds_planted_ones(tmp_path):
    (tmp_path / "m.py").write_text('from contextvars import ContextVar\nAHEAD = 1\nres.__dict__["_k"] = 2\n'
                                   'x = res.__dict__.get("_k")\nvars(res)\n', encoding="utf-8")
    assert _hidden(tmp_path) == ["m.py:1", "m.py:3", "m.py:4"]

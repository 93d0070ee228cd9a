"""Regenerate the worked example: ``examples/audit-example-report/`` and the transcripts in
``docs/audit.md`` (each ``text`` block after a ``prspace audit|power examples/...`` or ``prspace power --plan ...`` command), by running the
commands; a transcript that starts with ``...`` keeps only its output from ``Findings:`` on.

Run from the repository root: ``python examples/refresh_audit_docs.py``.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

from prspace.cli import main as prspace

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"```bash\n(prspace (?:audit|power) (?:examples/|--plan )[^\n]*)\n```\n\n```text\n(.*?)```\n", re.S)


def run(command: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        prspace(shlex.split(command)[1:])
    return out.getvalue()


def refresh(match: re.Match) -> str:
    command, old = match.group(1), match.group(2)
    text = run(command)
    if old.startswith("...\n"):
        text = "...\n" + text[text.index("Findings:"):]
    return f"```bash\n{command}\n```\n\n```text\n{text}```\n"


def main() -> None:
    docs = ROOT / "docs" / "audit.md"
    docs.write_text(BLOCK.sub(refresh, docs.read_text()))


if __name__ == "__main__":
    main()

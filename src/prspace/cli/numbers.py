"""``prspace numbers``: check (or, with ``--write``, regenerate) the numbers that README and docs
quote from result tables (marked spans, :mod:`prspace.repo.quoted_numbers`).

After rerunning the studies: ``prspace numbers --write`` (README.md and docs/*.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from prspace.core.errors import InputError
from prspace.repo import quoted_numbers as N


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("numbers", help="check or regenerate numbers quoted from result tables in README/docs")
    p.add_argument("files", nargs="*",
                   help="Markdown files with <!-- value: ... --> or <!-- include: ... --> spans "
                        "(default: README.md and docs/*.md under --root)")
    p.add_argument("--root", default=".", help="repository root the spans' table paths are relative to (default: .)")
    p.add_argument("--write", action="store_true", help="rewrite the spans from the tables instead of checking")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:

    root = Path(args.root)
    files = [Path(f) for f in args.files] or N.default_files(root)
    if not files:
        raise InputError(f"no README.md or docs/*.md under {root}; name the Markdown files or give --root")
    if args.write:
        n = N.regenerate(files, root)
        print(f"{n} of {N.count_spans(files)} quoted numbers updated", file=sys.stderr)
        return 0
    bad = N.check(files, root)
    for m in bad:
        print(f"{m.file}:{m.line}: {m.spec}: text {m.text!r}, table says {m.expected!r}")
    if bad:
        print(f"{len(bad)} quoted number(s) differ from the tables; regenerate with prspace numbers --write",
              file=sys.stderr)
        return 1
    print(f"{N.count_spans(files)} quoted numbers match the tables", file=sys.stderr)
    return 0

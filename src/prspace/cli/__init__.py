"""The ``prspace`` command line.

Sub-commands live in the modules of this package; each module defines
``register(subparsers)`` which adds its parser and sets ``func`` to the function
that runs it (``func(args) -> int``).  Modules are discovered automatically, so a
new sub-command is a new module and nothing else.  The module of sub-command
``foo-bar`` is ``foo_bar``: when the command line names one, only that module is
imported (workflow jobs start fast); ``prspace --help`` imports them all.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import sys
from collections.abc import Sequence

from prspace import __version__
from prspace.errors import InputError


def _command_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def _wanted_module(argv: Sequence[str]) -> str | None:
    """The module of the sub-command named on the command line, if any."""
    modules = _command_modules()
    for token in argv:
        if token.startswith("-"):
            continue
        name = token.replace("-", "_")
        return name if name in modules else None
    return None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="prspace",
        description="Precision-recall space evaluation: metrics, predictions, experiments.",
    )
    parser.add_argument("--version", action="version", version=f"prspace {__version__}")
    parser.add_argument(
        "-v", "--verbose", action="count", default=0, help="more log output (repeatable)"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in [only] if only else _command_modules():
        module = importlib.import_module(f"{__name__}.{name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_wanted_module(argv))
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        datefmt="%H:%M:%S",
    )
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except InputError as exc:
        print(f"prspace {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"prspace {args.command}: interrupted; finished outputs are kept", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""The ``prspace`` command line.

Sub-commands live in the modules of this package; each module defines
``register(subparsers)`` which adds its parser and sets ``func`` to the function
that runs it (``func(args) -> int``).  Modules are discovered automatically, so a
new sub-command is a new module and nothing else.  The module of sub-command
``foo-bar`` is ``foo_bar``: when the command line names one, only that module is
imported (workflow jobs start fast); ``prspace --help`` imports them all.

This module is the single place where failures become messages.  Exit status of every
command (documented in ``docs/workflow.md``, "Exit status"):

* 0 -- done;
* 1 -- an internal error (a bug in prspace): one line naming the exception; ``-v``
  prints the traceback, for a bug report (a command may also return 1 for its own
  documented reason: ``prspace audit`` when a finding is an error);
* 2 -- bad input or usage (a wrong option, a missing or malformed file, a value out of
  range): one line naming the problem and the fix;
* 130 -- interrupted (Ctrl-C); finished outputs are kept, half-written ones removed.

No traceback reaches the user without ``-v``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import pkgutil
import re
import signal
import sys
import traceback
from collections.abc import Sequence

from prspace import __version__
from prspace.core.errors import InputError, ServiceError


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
    _finish_help(parser)
    return parser


def _plain(text: str) -> str:
    """reStructuredText markup of module docstrings -> plain text for ``--help``."""
    text = re.sub(r":(?:mod|func|class|data|meth|attr):`~?([^`]+)`", r"\1", text)
    return text.replace("``", "")


def _finish_help(parser: argparse.ArgumentParser) -> None:
    """Every (sub-)command gets a description (its one-line help if it has none) and
    plain-text help (docstrings used as descriptions lose their reST markup)."""
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        helps = {a.dest: a.help for a in action._choices_actions}
        for name, sub in action.choices.items():
            if not sub.description and helps.get(name):
                text = helps[name]
                sub.description = text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
            if sub.description:
                sub.description = _plain(sub.description)
            _finish_help(sub)


#: errors a user's input causes inside libraries (a malformed file, a missing column)
_INPUT_ERRORS: tuple[type[BaseException], ...] = (
    InputError, OSError, ValueError, LookupError, json.JSONDecodeError, UnicodeError,
)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    if isinstance(exc, OSError) and exc.strerror:
        text = f"{exc.strerror}: {exc.filename}" if exc.filename else exc.strerror
    return text[:500] or type(exc).__name__


def _message(exc: BaseException) -> tuple[str, int]:
    """The one-line message and exit status of an exception that reached the command line."""
    if isinstance(exc, InputError):
        return _one_line(exc), 2
    if isinstance(exc, ServiceError):
        return _one_line(exc), 1
    if isinstance(exc, FileNotFoundError):
        return f"{_one_line(exc)}; check the path (or run the workflow step that makes the file)", 2
    if isinstance(exc, (IsADirectoryError, NotADirectoryError)):
        return f"{_one_line(exc)}; give a file path where a file is expected and a folder where a folder is", 2
    if isinstance(exc, PermissionError):
        return f"{_one_line(exc)}; choose a path you may read or write", 2
    if isinstance(exc, OSError):
        return f"{_one_line(exc)}; check the path and free disk space", 2
    if isinstance(exc, _INPUT_ERRORS):
        return (
            f"cannot use the input ({type(exc).__name__}: {_one_line(exc)}); check the files and "
            "values given (`prspace COMMAND --help` says what each option expects)",
            2,
        )
    return (
        f"internal error ({type(exc).__name__}: {_one_line(exc)}); please report it with the "
        "output of the same command run with -v",
        1,
    )


def _interrupted(command: str) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the message short
    print(f"prspace {command}: interrupted; finished outputs are kept, half-written ones removed",
          file=sys.stderr)
    return 130


class _Seen:
    """What :func:`main` knows of the command when a failure reaches it: its name and parsed arguments."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.args: argparse.Namespace | None = None


def _run(argv: list[str], seen: _Seen) -> int:
    """Parse ``argv`` and run its command (recording what was parsed in ``seen``); its exit status."""
    parser = build_parser(_wanted_module(argv))
    args = seen.args = parser.parse_args(argv)
    seen.command = args.command or ""
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        datefmt="%H:%M:%S",
    )
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


def _exit_status(code: object) -> int:
    """The exit status of a ``SystemExit`` (argparse's usage errors: 2, --help: 0, and sys.exit)."""
    return code if isinstance(code, int) else (0 if code is None else 2)


def _failed(exc: Exception, seen: _Seen, *, verbose: bool) -> int:
    """Print the one line of a failure (``-v``: the traceback first); its exit status."""
    message, status = _message(exc)
    if verbose:
        traceback.print_exc()
    where = f"prspace {seen.command}" if seen.command else "prspace"
    if isinstance(exc, ServiceError):  # which request of the command failed: name its action too
        action = next((v for k, v in vars(seen.args or argparse.Namespace()).items()
                       if k.endswith("_command") and v), None)
        where += f" {action}" if action else ""
    try:
        print(f"{where}: error: {message}", file=sys.stderr)
    except KeyboardInterrupt:
        return _interrupted(seen.command)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return its exit status (see the module docstring)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    verbose = any(a in ("-v", "--verbose") or re.fullmatch(r"-v+", a) for a in argv)
    seen = _Seen(next((a for a in argv if not a.startswith("-")), ""))
    try:
        return _run(argv, seen)
    except KeyboardInterrupt:
        return _interrupted(seen.command)
    except SystemExit as exc:  # argparse (usage errors: status 2, --help: 0) and sys.exit
        return _exit_status(exc.code)
    except BrokenPipeError:  # `prspace list-datasets | head`
        return 0
    except Exception as exc:  # noqa: BLE001 - the single place where failures become one line
        return _failed(exc, seen, verbose=verbose)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

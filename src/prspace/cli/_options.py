"""Argument types shared by several sub-commands (a module whose name starts with ``_`` is no sub-command)."""

from __future__ import annotations

import argparse

__all__ = ["processes"]


def processes(text: str) -> int:
    """``--jobs N``: a whole number of processes >= 1 (argparse's type: a bad value is one usage line, exit 2)."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of processes >= 1, got {text!r}")
    return n

"""User-facing errors.

Every error a user can cause by bad input is raised as :class:`InputError` (a
``ValueError``) whose message names the problem *and* the fix.  The command line
prints such errors as a single line and exits with status 2; nothing is lost.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: the message says what is wrong and how to fix it."""


class SchemaError(InputError):
    """A predictions file or task table does not follow :mod:`prspace.schema`."""

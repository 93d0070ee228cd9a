"""User-facing errors.

Every error a user can cause by bad input is raised as :class:`InputError` (a
``ValueError``) whose message names the problem *and* the fix.  The command line
prints such errors as a single line and exits with status 2; nothing is lost.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: the message says what is wrong and how to fix it."""


class ServiceError(RuntimeError):
    """A remote service (the OpenML server) kept failing or refused a request: the message names the
    request, the server's code and message, and what to do.  The command line prints it as a single
    line naming the command and its action (``prspace fetch-openml task: error: ...``) and exits
    with status 1: the input was fine, try again later."""


class SchemaError(InputError):
    """A predictions file or task table does not follow :mod:`prspace.core.schema`."""


class FileDefect(InputError):
    """A data file that could be read in more than one way (a column named twice, the header row
    repeated among the data rows): never resolved silently, the setup check stops the study."""

"""Ctrl-C in the workflow: the first one stops the run, a second one does not cut the stop short.

A terminal sends every Ctrl-C to the whole process group: Snakemake and its running jobs.  On
the first, Snakemake stops scheduling, the jobs (each a ``prspace`` command) print one line,
remove their half-written files and exit with status 130, and Snakemake waits for them and
marks their outputs incomplete.  A second Ctrl-C used to land wherever Snakemake happened to be
in that wait or in its exit handlers (seen: inside the clean-up of a temporary directory,
"Exception ignored in ... KeyboardInterrupt" and a traceback on the console).
:func:`install_workflow_interrupt_handler` (called when the Snakefile is read) makes the first
Ctrl-C behave as before and turns every later one into one line saying what is happening and
how to quit at once instead (``kill`` the Snakemake process; then ``snakemake --unlock``).
The handler is a Python function, not ``SIG_IGN``, so processes started later still get the
default Ctrl-C.
"""

from __future__ import annotations

import os
import signal
import sys

__all__ = ["SECOND_INTERRUPT_MESSAGE", "install_workflow_interrupt_handler"]

SECOND_INTERRUPT_MESSAGE = (
    "prspace workflow: already stopping: the running jobs remove their half-written files and exit, "
    "and the next run of the same command redoes them (to quit at once instead: kill {pid}, then "
    "snakemake --unlock)"
)


def install_workflow_interrupt_handler(message: str = SECOND_INTERRUPT_MESSAGE) -> bool:
    """Install the SIGINT handler described in the module docstring; ``False`` if this is not the
    main thread (then Python's default handling stays).  ``message`` (``{pid}``: this process)
    is printed once, at the second Ctrl-C."""
    count = 0

    def handler(signum, frame):
        nonlocal count
        count += 1
        if count == 1:
            signal.default_int_handler(signum, frame)  # raises KeyboardInterrupt
        if count == 2:
            try:
                print(message.format(pid=os.getpid()), file=sys.stderr, flush=True)
            except Exception:  # noqa: BLE001 - a closed console must not turn into a traceback
                pass

    try:
        signal.signal(signal.SIGINT, handler)
    except ValueError:
        return False
    return True

"""The process's heap: keep freed memory for the next arrays, or give it back to the system.

* :func:`keep_freed_memory`, for commands that allocate the same arrays thousands of times.
  By default glibc serves an allocation above a dynamic threshold (128 KiB at first) with a fresh
  ``mmap`` and gives the heap's free top back to the OS above ``M_TRIM_THRESHOLD``; the next array
  of that size then faults its pages in again, zero-filled by the kernel.  The simulations of
  ``prspace step calibrate`` and ``prspace step rank_set_summary`` allocate arrays of 0.1 to 30 MB some
  10,000 times; measured on a 2-dataset study, that page faulting was 10 of 22 CPU seconds of
  ``calibrate`` (system time) and 9 of 16 of ``rank_set_summary``, and :func:`keep_freed_memory`
  removes it.  Results do not change: only where numpy's buffers come from.  The process keeps up
  to ``TRIM_BYTES`` of freed memory until it exits.  Elsewhere (not glibc) this does nothing.
* :func:`release`, between the stages of the audit at scale (issue 41).
  The C allocator (glibc's ``malloc``) and pyarrow's memory pool keep freed memory for later allocations:
  after the audit's input stage (the wide table turned long, validated and keyed) about 140 MB of 10^6 x 3
  rows' freed arrays stay resident, and every later stage adds its own arrays on top of them, so the peak
  is higher than the memory in use.  :func:`release` hands the free pages back (``malloc_trim(0)`` where the
  C library has it, ``release_unused`` of pyarrow's pool); it changes no value, only the resident memory.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

import pyarrow as pa


def _trim():
    """glibc's ``malloc_trim``, or None (another C library: nothing to trim)."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


_MALLOC_TRIM = _trim()


def release() -> None:
    """Return the free memory of the C heap and of pyarrow's pool to the system (no value changes)."""
    pa.default_memory_pool().release_unused()
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


#: glibc's mallopt parameters (malloc.h)
M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_THRESHOLD = -1, -2, -3
#: the largest mmap threshold glibc accepts on 64-bit (HEAP_MAX_SIZE / 2)
MMAP_BYTES = 32 * 1024 * 1024
TRIM_BYTES = 512 * 1024 * 1024
PAD_BYTES = 64 * 1024 * 1024


def keep_freed_memory() -> bool:
    """Raise glibc's mmap and trim thresholds (``mallopt``); True when glibc accepted all three."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return all(mallopt(p, v) == 1 for p, v in
               ((M_MMAP_THRESHOLD, MMAP_BYTES), (M_TRIM_THRESHOLD, TRIM_BYTES), (M_TOP_PAD, PAD_BYTES)))

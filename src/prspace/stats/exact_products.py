"""Products of counts with real columns that give the same bits on every machine, whatever BLAS kernel or thread
count numpy picks (issue 60: "the same bytes on every x86-64 machine").

A matrix product through BLAS adds its terms in an order, and with or without fused multiply-adds, that the kernel
chooses (OpenBLAS picks one per CPU: Haswell, SkylakeX, Zen, ...), so its last bits follow the machine. The
resampling engines multiply *counts* (how often a family, a task or a row was drawn: non-negative integers) by real
columns. Such a product can be made exact, and an exact sum has no order: split every column ``M[:, k]`` into slices
that are integer multiples of a unit ``u_s = 2**(e_k - s * b)`` (``e_k`` the exponent of the column's largest
magnitude, ``b`` bits per slice), with ``b`` small enough that ``sum_f c_f * |slice_f| < 2**53 u_s`` for every row
of counts; then every partial sum of ``c @ slice`` is an integer multiple of ``u_s`` below ``2**53 u_s``, exactly
representable, so BLAS returns the exact product in any order, with or without FMA, on any number of threads (the
Ozaki scheme of error-free matrix products: Ozaki, Ogita, Oishi and Rump, Numer. Algorithms 59, 2012). The slices'
exact products are then added in a fixed order. Slices are taken until the column is exhausted (at most
``ceil(53 / b) + 1``, usually 2), so the result is within one rounding per slice of the exact ``c @ M``.

:func:`fixed_order_matvec` is the same promise for a few real weights (``m @ w`` with ``w`` of length 1-3): a
fixed-order sum of elementwise products (numpy's ufuncs round each operation on its own, on every machine).
"""

from __future__ import annotations

import numpy as np

__all__ = ["column_slices", "count_product", "fixed_order_matvec"]

#: Significand bits of a float64.
_MANT = 53


def _slice_bits(c: np.ndarray) -> int:
    """Bits per slice such that the largest row sum of ``c`` times a slice's integer magnitude stays below 2**53."""
    top = float(np.max(np.sum(c, axis=1))) if c.size else 0.0
    need = int(np.ceil(np.log2(top))) if top > 1 else 0
    bits = _MANT - 1 - need
    if bits < 8:
        raise ValueError(f"counts summing to {top:g} in a row are too large for an exact product")
    return bits


def column_slices(M: np.ndarray, bits: int) -> list[np.ndarray]:
    """``M`` ``(F, K)`` as slices ``M = sum(slices)`` (up to what float64 represents), slice ``s`` an integer multiple
    of ``2**(e_k - (s + 1) * bits)`` per column ``k`` (``|M[:, k]| < 2**e_k``) of magnitude at most ``2**bits`` units."""
    M = np.asarray(M, dtype=np.float64)
    if not np.all(np.isfinite(M)):
        raise ValueError("count_product needs finite columns")
    big = np.max(np.abs(M), axis=0) if M.shape[0] else np.zeros(M.shape[1])
    shift = np.frexp(big)[1].astype(np.int64) - bits  # the exponent of each column's largest magnitude, less bits
    rest = M.copy()
    out = []
    while True:
        unit = np.ldexp(1.0, shift)  # (K,): the slice's unit per column
        sl = np.round(rest / unit) * unit  # an integer multiple of unit, |sl / unit| <= 2**bits (division exact)
        rest -= sl  # exact: both are multiples of the ulp of rest's largest entries
        out.append(sl)
        shift = shift - bits
        if not np.any(rest) or np.all(shift < -1074):  # exhausted, or below the smallest subnormal
            return out


def count_product(c: np.ndarray, M: np.ndarray, *, check: bool = True,
                  slices: dict[int, list[np.ndarray]] | None = None) -> np.ndarray:
    """``c @ M`` for counts ``c`` ``(B, F)`` (non-negative integers, as float64) and finite reals ``M`` ``(F, K)``,
    the same bits whatever BLAS kernel or thread count computes it (module docstring).  ``check``: refuse counts
    that are not non-negative integers (a caller that draws them may skip the pass); ``slices``: a cache of
    :func:`column_slices` of ``M`` by bits, for a caller that multiplies the same ``M`` many times.

    >>> import numpy as np
    >>> c = np.array([[2.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
    >>> M = np.array([[0.1], [0.2], [0.3]])
    >>> count_product(c, M).ravel().tolist() == [0.5, 0.6000000000000001]
    True
    """
    c = np.asarray(c, dtype=np.float64)
    M = np.asarray(M, dtype=np.float64)
    if c.ndim != 2 or M.ndim != 2 or c.shape[1] != M.shape[0]:
        raise ValueError(f"cannot multiply counts of shape {c.shape} by columns of shape {M.shape}")
    if check and c.size and (np.any(c < 0) or np.any(c != np.floor(c))):
        raise ValueError("count_product needs non-negative integer counts")
    bits = _slice_bits(c)
    if slices is None:
        parts = column_slices(M, bits)
    else:
        parts = slices.get(bits)
        if parts is None:
            parts = slices[bits] = column_slices(M, bits)
    out = c @ parts[0]  # exact in any order: integer multiples of the unit below 2**53 units
    for sl in parts[1:]:
        out += c @ sl  # the slices' exact products added in a fixed order
    return out


def fixed_order_matvec(m: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``m @ w`` for ``m`` ``(B, J)`` and ``w`` ``(J,)``, as ``((m[:, 0] w_0 + m[:, 1] w_1) + ...)`` in that order: the
    same bits on every machine (no BLAS, no fused multiply-add)."""
    m = np.asarray(m, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    out = m[:, 0] * w[0]
    for j in range(1, w.size):
        out += m[:, j] * w[j]
    return out

"""Arithmetic with the same bits on every x86-64 machine, whatever BLAS kernel, thread count or SIMD loops numpy picks
(issue 60: "the same bytes on every x86-64 machine"): exact products of counts with real columns, a fixed-order
weighted sum, and ``log``, ``log1p``, ``atanh`` and ``tanh`` from IEEE 754's correctly rounded operations.
The metrics' areas take their ``log1p`` from here (:mod:`prspace.metrics._kernel`), the resampling engines of
:mod:`prspace.stats` the rest; it lives in ``metrics/`` (which imports nothing else of prspace) so that the log
series is written once for both (issue 79).

**Products of counts.** A matrix product through BLAS adds its terms in an order, and with or without fused
multiply-adds, that the kernel chooses (OpenBLAS picks one per CPU: Haswell, SkylakeX, Zen, ...), so its last bits follow the machine. The
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

**Transcendental functions.** numpy computes its transcendental functions with SIMD code chosen for the CPU at run time: ``np.tanh`` has its own
AVX2 / AVX-512 loops, ``np.log`` an AVX-512F loop, and on AVX-512 machines ``np.arctanh``, ``np.log1p`` and others
come from Intel's SVML; each of them may differ from the plain C library in the last bit, so a study's bootstrap
``t*`` (studentized on Fisher's z scale) would follow the machine.  The functions here use only what IEEE 754
rounds exactly on every machine (``+``, ``-``, ``*``, ``/``, ``frexp``, ``ldexp``, comparisons) in numpy's
element-wise loops, which never fuse a multiply and an add: the same operations in the same order, the same bits.

* :func:`log`: ``x = m 2**e`` with ``m`` in ``[sqrt(1/2), sqrt(2))``, ``log m = 2 atanh(s)``, ``s = (m - 1) / (m + 1)``
  (``|s| <= 0.172``) by its series to ``s**21``, plus ``e log 2`` (``log 2`` split in two parts);
* :func:`log1p`: ``log(1 + x)`` as :func:`log` of ``u = 1 + x`` rounded, with Goldberg's correction
  ``(x - (u - 1)) / u``; ``-1``, ``inf``, NaN and ``+-0`` as the C standard fixes them;
* :func:`atanh`: its series to ``r**19`` for ``|r| <= 1/8``, else ``(log1p(r) - log(1 - r)) / 2``;
* :func:`tanh`: ``expm1(2z) / (expm1(2z) + 2)``, ``expm1`` by its series for ``|x| <= 1/2`` and otherwise
  ``exp(x) - 1`` with ``x = k log 2 + r``, ``|r| <= log(2) / 2``, ``exp(r)`` by its series to ``r**20``.

Accuracy: within 4 ulps of numpy's own functions over their ranges, and ``tanh(atanh(r)) = r`` within 4e-16
(``tests/metrics/test_same_bits.py``).  The series' coefficients are float64 constants computed once from exact
fractions.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

__all__ = ["atanh", "column_slices", "count_product", "fixed_order_matvec", "log", "log1p", "tanh"]

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
    >>> count_product(c, M).ravel().tolist()  # the exact sums rounded once (0.1 + 0.2 + 0.3 is 0.6000000000000001)
    [0.5, 0.6]
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


_LN2_HI = 6.93147180369123816490e-01  # log(2) to 32 bits: e * _LN2_HI is exact for |e| < 2**21
_LN2_LO = 1.90821492927058770002e-10  # log(2) - _LN2_HI
_SQRT_HALF = 0.7071067811865476
#: ``|r|`` up to which atanh is its series, and the series' terms (``(1/8)**(2 * 10) < 2**-60``)
_SMALL, _SMALL_TERMS = 0.125, 10
# coefficients 1 / (2k + 1) of atanh's series, highest first (Horner)
_ODD = [float(Fraction(1, 2 * k + 1)) for k in range(30)]
# coefficients 1 / n! of exp's series, highest first
_FACT = [float(Fraction(1, np.prod(np.arange(1, n + 1, dtype=object)) if n else 1)) for n in range(22)]


def _odd_series(s: np.ndarray, terms: int) -> np.ndarray:
    """``sum_{k < terms} s**(2k+1) / (2k+1)`` by Horner's rule in ``s**2`` (in place on one buffer)."""
    s2 = s * s
    acc = s2 * _ODD[terms - 1]
    for k in range(terms - 2, 0, -1):
        acc += _ODD[k]
        acc *= s2
    acc += _ODD[0]
    acc *= s
    return acc


def log(x: np.ndarray) -> np.ndarray:
    """Natural logarithm of positive finite ``x`` (NaN for ``x <= 0`` or not finite).

    >>> import numpy as np
    >>> abs(float(log(np.array([10.0]))[0]) - 2.302585092994046) < 1e-15
    True
    """
    x = np.asarray(x, dtype=np.float64)
    ok = np.isfinite(x) & (x > 0)
    m, e = np.frexp(np.where(ok, x, 1.0))
    m, e = np.atleast_1d(m), np.atleast_1d(e)  # frexp of a 0-d array gives scalars
    low = m < _SQRT_HALF
    m[low] *= 2.0  # exact
    ef = e.astype(np.float64)
    ef -= low
    s = m - 1.0
    m += 1.0
    s /= m
    out = _odd_series(s, 11)
    out *= 2.0
    out += ef * _LN2_LO
    ef *= _LN2_HI
    ef += out
    if not ok.all():
        ef[~np.atleast_1d(ok)] = np.nan
    return ef.reshape(x.shape)[()]


def log1p(x: np.ndarray) -> np.ndarray:
    """``log(1 + x)`` for ``x > -1`` (``np.log1p`` is the C library's loop, whose FMA and SSE2 forms differ in one
    last bit in a thousand, or SVML's on AVX-512): ``u = 1 + x`` rounded, its :func:`log`, corrected by
    ``(x - (u - 1)) / u`` (the rounding error of ``u``, exact, over ``u``: Goldberg's log1p).  Within 4 ulps of
    ``np.log1p``; -1, inf, NaN and +-0 as the C standard fixes them (``np.log1p``'s values there).

    >>> import numpy as np
    >>> abs(float(log1p(np.array([1e-10]))[0]) - 9.9999999995e-11) < 1e-25
    True
    """
    shape, x = np.shape(x), np.atleast_1d(np.asarray(x, dtype=np.float64))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # the values -1, inf, NaN: below
        u = 1.0 + x
        out = log(u)
        out += (x - (u - 1.0)) / u  # u - 1 is exact for u >= 1/2; below it u = 1 + x is exact and the term 0
    odd = ~(np.isfinite(u) & (u > 0.0)) | (x == 0.0)  # +-0: itself
    if odd.any():
        with np.errstate(divide="ignore", invalid="ignore"):
            out[odd] = np.log1p(x[odd])
    return out.reshape(shape)[()]


def atanh(r: np.ndarray) -> np.ndarray:
    """Inverse hyperbolic tangent of ``r`` in ``(-1, 1)`` (``+-inf`` at ``+-1``, NaN outside).

    >>> import numpy as np
    >>> abs(float(atanh(np.array([0.5]))[0]) - 0.5493061443340549) < 1e-15
    True
    """
    r = np.asarray(r, dtype=np.float64)
    a = np.abs(r)
    out = np.empty_like(a)
    small = a <= _SMALL
    out[small] = _odd_series(a[small], _SMALL_TERMS)
    rest = ~small
    if rest.any():
        b = a[rest]
        with np.errstate(divide="ignore", invalid="ignore"):
            v = 0.5 * (log1p(np.minimum(b, 1.0)) - log(1.0 - b))  # 1 - b exact (Sterbenz) for b >= 1/2
            v = np.where(b == 1.0, np.inf, np.where(b > 1.0, np.nan, v))
        out[rest] = v
    return np.copysign(out, r)[()]


def _exp_reduced(r: np.ndarray) -> np.ndarray:
    acc = np.full_like(r, _FACT[21])
    for n in range(20, -1, -1):
        acc = acc * r + _FACT[n]
    return acc


def _expm1(x: np.ndarray) -> np.ndarray:
    small = np.abs(x) <= 0.5
    xs = np.where(small, x, 0.0)
    acc = np.full_like(xs, _FACT[21])
    for n in range(20, 0, -1):
        acc = acc * xs + _FACT[n]
    series = acc * xs
    xb = np.where(small | np.isnan(x), 0.0, np.clip(x, -745.0, 709.0))  # NaN: put back by the caller
    k = np.round(xb / (_LN2_HI + _LN2_LO))
    r = (xb - k * _LN2_HI) - k * _LN2_LO
    big = np.ldexp(_exp_reduced(r), k.astype(np.int64)) - 1.0
    return np.where(small, series, big)


def tanh(z: np.ndarray) -> np.ndarray:
    """Hyperbolic tangent (``+-1`` beyond ``|z| > 19``, where it rounds to 1).

    >>> import numpy as np
    >>> abs(float(tanh(np.array([0.5]))[0]) - 0.46211715726000974) < 1e-15
    True
    """
    z = np.asarray(z, dtype=np.float64)
    a = np.minimum(np.abs(z), 20.0)
    em = _expm1(2.0 * a)
    out = np.where(np.abs(z) > 19.0, 1.0, em / (em + 2.0))
    out = np.where(np.isnan(z), np.nan, out)
    return np.copysign(out, z)[()]

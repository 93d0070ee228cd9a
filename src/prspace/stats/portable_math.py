"""``log``, ``atanh`` and ``tanh`` of float64 arrays with the same bits on every x86-64 machine (issue 60).

numpy computes its transcendental functions with SIMD code chosen for the CPU at run time: ``np.tanh`` has its own
AVX2 / AVX-512 loops, ``np.log`` an AVX-512F loop, and on AVX-512 machines ``np.arctanh``, ``np.log1p`` and others
come from Intel's SVML; each of them may differ from the plain C library in the last bit, so a study's bootstrap
``t*`` (studentized on Fisher's z scale) would follow the machine.  The functions here use only what IEEE 754
rounds exactly on every machine (``+``, ``-``, ``*``, ``/``, ``frexp``, ``ldexp``, comparisons) in numpy's
element-wise loops, which never fuse a multiply and an add: the same operations in the same order, the same bits.

* :func:`log`: ``x = m 2**e`` with ``m`` in ``[sqrt(1/2), sqrt(2))``, ``log m = 2 atanh(s)``, ``s = (m - 1) / (m + 1)``
  (``|s| <= 0.172``) by its series to ``s**21``, plus ``e log 2`` (``log 2`` split in two parts);
* :func:`atanh`: its series to ``r**19`` for ``|r| <= 1/8``, else ``(log1p(r) - log(1 - r)) / 2`` (``log1p`` from
  :func:`log` with Goldberg's correction);
* :func:`tanh`: ``expm1(2z) / (expm1(2z) + 2)``, ``expm1`` by its series for ``|x| <= 1/2`` and otherwise
  ``exp(x) - 1`` with ``x = k log 2 + r``, ``|r| <= log(2) / 2``, ``exp(r)`` by its series to ``r**20``.

Accuracy: within 4 ulps of numpy's own functions over their ranges, and ``tanh(atanh(r)) = r`` within 4e-16
(``tests/stats/test_portable_math.py``).  The series' coefficients are float64
constants computed once from exact fractions.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

__all__ = ["atanh", "log", "tanh"]

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


def _log1p_of(a: np.ndarray) -> np.ndarray:
    """``log(1 + a)`` for ``a`` in ``[0, 1)``: ``u = 1 + a`` rounded, corrected by ``(a - (u - 1)) / u`` (the rounding
    error of ``u``, exact, over ``u``: Goldberg's log1p)."""
    u = 1.0 + a
    return log(u) + (a - (u - 1.0)) / u


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
            v = 0.5 * (_log1p_of(np.minimum(b, 1.0)) - log(1.0 - b))  # 1 - b exact (Sterbenz) for b >= 1/2
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
